package opcheck

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/parquet-go/parquet-go"
)

// Row is one operation on one device as the Parquet file holds it
// (docs/schema.md, "opcheck.parquet").
type Row struct {
	Operation string  `parquet:"operation"`
	Family    string  `parquet:"family"`
	Device    string  `parquet:"device"`
	Cases     int64   `parquet:"cases"`
	Undefined int64   `parquet:"undefined"`
	Flushed   int64   `parquet:"flushed"`
	Beyond    int64   `parquet:"beyond"`
	WorstULP  float64 `parquet:"worst_ulp"`
	WorstAbs  float64 `parquet:"worst_abs"`
	Bound     string  `parquet:"bound"`
	Source    string  `parquet:"bound_source"`
	Verdict   string  `parquet:"verdict"`
	Detail    string  `parquet:"detail"`
	Modules   int64   `parquet:"modules"`
}

// RowOf is r as a table row; modules is how many distinct corpus modules
// declare the operation (0 when the built-in list was used).
func RowOf(r *Result, modules int) Row {
	return Row{Operation: r.Op.Name, Family: r.Op.Family, Device: r.Device, Cases: int64(r.Cases), Undefined: int64(r.Undefined),
		Flushed: int64(r.Flushed), Beyond: int64(r.Beyond), WorstULP: r.WorstULP, WorstAbs: r.WorstAbs, Bound: r.Bound.Text,
		Source: r.Bound.Source, Verdict: r.Verdict, Detail: r.Detail, Modules: int64(modules)}
}

// WriteParquet writes rows to path (through a temporary file renamed
// into place, so a reader never sees a torn file).
func WriteParquet(path string, rows []Row) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".opcheck-*.parquet")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := parquet.NewGenericWriter[Row](tmp, parquet.Compression(&parquet.Zstd), parquet.CreatedBy("airpipe opcheck", "1", ""))
	if _, err := w.Write(rows); err != nil {
		tmp.Close()
		return err
	}
	if err := w.Close(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// ReadParquet reads a file WriteParquet wrote.
func ReadParquet(path string) ([]Row, error) {
	return parquet.ReadFile[Row](path)
}

// ulpText shows a worst distance: "0", "0.5", "3.2", "inf".
func ulpText(u float64) string {
	switch {
	case math.IsInf(u, 1):
		return "inf"
	case u >= 1e6:
		return fmt.Sprintf("%.3g", u)
	}
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", u), "0"), ".")
}

// WriteText prints rows as an aligned table; markdown writes a
// Markdown table instead.
func WriteText(w io.Writer, rows []Row, markdown bool) error {
	if markdown {
		fmt.Fprintln(w, "| operation | device | cases | undefined | worst ulp | bound | verdict |")
		fmt.Fprintln(w, "|---|---|---:|---:|---:|---|---|")
		for _, r := range rows {
			fmt.Fprintf(w, "| `%s` | %s | %d | %d | %s | %s | %s |\n", r.Operation, r.Device, r.Cases, r.Undefined, ulpText(r.WorstULP), r.Bound, r.Verdict)
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "OPERATION\tDEVICE\tCASES\tUNDEF\tFLUSHED\tWORST ULP\tBOUND\tVERDICT")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\n", r.Operation, r.Device, r.Cases, r.Undefined, r.Flushed, ulpText(r.WorstULP), r.Bound, r.Verdict)
	}
	return tw.Flush()
}
