package analytics

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// fileRow is a Row as schema version 2 stores it: every column of Row in
// order, data last as MAP(VARCHAR, VARCHAR) keyed "stage.key".
type fileRow struct {
	Row
	Data map[string]string `parquet:"data"`
}

// v1Row is a Row as schema version 1 stored it: data as list<string> of
// "stage.key=value" entries.
type v1Row struct {
	Row
	Data []string `parquet:"data,list"`
}

// toFileRow turns a row's sorted "key=value" data entries into the map the
// file stores. An entry without "=" or a key given twice is refused by
// name: the map could not say it.
func toFileRow(r Row) (fileRow, error) {
	fr := fileRow{Row: r, Data: make(map[string]string, len(r.Data))}
	fr.Row.Data = nil
	for _, e := range r.Data {
		k, v, ok := strings.Cut(e, "=")
		if !ok {
			return fileRow{}, fmt.Errorf("data entry %q is not key=value", e)
		}
		if old, dup := fr.Data[k]; dup {
			return fileRow{}, fmt.Errorf("data key %q given twice (%q and %q)", k, old, v)
		}
		fr.Data[k] = v
	}
	return fr, nil
}

// dataList is a data map as Row holds it: sorted "key=value" entries.
func dataList(m map[string]string) []string {
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// readPart reads every row of one part file, of schema version 2 (data a
// map) or 1 (data a list of "key=value" strings). A damaged file is an
// error, also where the Parquet library panics on it.
func readPart(path string) (rows []Row, err error) {
	defer func() {
		if r := recover(); r != nil {
			rows, err = nil, fmt.Errorf("damaged Parquet file: %v", r)
		}
	}()
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return nil, err
	}
	mapData, err := dataIsMap(pf.Schema())
	if err != nil {
		return nil, err
	}
	if mapData {
		frs, err := readAll[fileRow](pf)
		if err != nil {
			return nil, err
		}
		rows = make([]Row, len(frs))
		for i := range frs {
			rows[i] = frs[i].Row
			rows[i].Data = dataList(frs[i].Data)
		}
		return rows, nil
	}
	v1, err := readAll[v1Row](pf)
	if err != nil {
		return nil, err
	}
	rows = make([]Row, len(v1))
	for i := range v1 {
		rows[i] = v1[i].Row
		rows[i].Data = v1[i].Data
	}
	return rows, nil
}

// dataIsMap reports whether a part's data column is a MAP (schema version
// 2) or a LIST (version 1); any other shape is refused by name.
func dataIsMap(s *parquet.Schema) (bool, error) {
	for _, fld := range s.Fields() {
		if fld.Name() != "data" {
			continue
		}
		if lt := fld.Type().LogicalType(); lt != nil {
			switch lt.Value.(type) {
			case *format.MapType:
				return true, nil
			case *format.ListType:
				return false, nil
			}
		}
		return false, fmt.Errorf("column data is %s, neither a map (schema_version 2) nor a list (1)", fld.Type())
	}
	return false, fmt.Errorf("no column data")
}

// readAll reads every row of a file as T.
func readAll[T any](pf *parquet.File) ([]T, error) {
	r := parquet.NewGenericReader[T](pf)
	defer r.Close()
	out := make([]T, r.NumRows())
	n, err := r.Read(out)
	if err != nil && err != io.EOF {
		return nil, err
	}
	if int64(n) != int64(len(out)) {
		return nil, fmt.Errorf("read %d of %d rows", n, len(out))
	}
	return out, nil
}
