package analytics

import (
	"fmt"
	"sort"
	"strings"
)

// Table is one table of a report: a title, column names, rows of cells
// (int64, float64 or string) and the sums its rows must add up to.
type Table struct {
	// Name is the table's stable identifier (funnel, failures, …).
	Name  string `json:"name"`
	Title string `json:"title"`
	// Note says what the table counts, printed under the title.
	Note    string   `json:"note,omitempty"`
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
	// Sums lists the columns whose values must add up to a total computed
	// independently of the rows. Check enforces them.
	Sums []Sum `json:"sums,omitempty"`
	// RowSums lists, for every row, columns that must add up to another
	// column of the same row.
	RowSums []RowSum `json:"row_sums,omitempty"`
}

// RowSum says that in every row the Parts columns add up to the Whole
// column.
type RowSum struct {
	Parts []int `json:"parts"`
	Whole int   `json:"whole"`
}

// Sum is a column of a table and the total its values must add up to.
type Sum struct {
	Column int    `json:"column"`
	Total  int64  `json:"total"`
	What   string `json:"what"`
}

// TableError is a table whose rows do not add up to its total. Reports
// refuse to print when any table has one.
type TableError struct {
	Table  string
	Column string
	Got    int64
	Want   int64
	What   string
}

func (e *TableError) Error() string {
	return fmt.Sprintf("table %q: column %q adds up to %d, but %s is %d; refusing to print",
		e.Table, e.Column, e.Got, e.What, e.Want)
}

// Check verifies every Sum of the table: the values of the column, over all
// rows, add up to the total. A cell that is not an int64 in a summed column
// is an error too.
func (t *Table) Check() error {
	for _, s := range t.Sums {
		if s.Column < 0 || s.Column >= len(t.Columns) {
			return fmt.Errorf("table %q: sum over column %d, the table has %d columns", t.Name, s.Column, len(t.Columns))
		}
		var got int64
		for i, row := range t.Rows {
			if len(row) != len(t.Columns) {
				return fmt.Errorf("table %q: row %d has %d cells, the table has %d columns", t.Name, i, len(row), len(t.Columns))
			}
			n, ok := row[s.Column].(int64)
			if !ok {
				return fmt.Errorf("table %q: row %d column %q is %T, not a count", t.Name, i, t.Columns[s.Column], row[s.Column])
			}
			got += n
		}
		if got != s.Total {
			return &TableError{Table: t.Name, Column: t.Columns[s.Column], Got: got, Want: s.Total, What: s.What}
		}
	}
	for _, rs := range t.RowSums {
		for i, row := range t.Rows {
			whole, err := t.count(i, row, rs.Whole)
			if err != nil {
				return err
			}
			var got int64
			var names []string
			for _, p := range rs.Parts {
				n, err := t.count(i, row, p)
				if err != nil {
					return err
				}
				got += n
				names = append(names, t.Columns[p])
			}
			if got != whole {
				return &TableError{Table: t.Name, Column: strings.Join(names, " + "), Got: got, Want: whole,
					What: fmt.Sprintf("row %d's %q", i, t.Columns[rs.Whole])}
			}
		}
	}
	return nil
}

// count returns the int64 cell at column c of row i.
func (t *Table) count(i int, row []any, c int) (int64, error) {
	if c < 0 || c >= len(row) {
		return 0, fmt.Errorf("table %q: row %d has no column %d", t.Name, i, c)
	}
	n, ok := row[c].(int64)
	if !ok {
		return 0, fmt.Errorf("table %q: row %d column %q is %T, not a count", t.Name, i, t.Columns[c], row[c])
	}
	return n, nil
}

// CheckAll checks every table and returns the first error.
func CheckAll(tables []*Table) error {
	for _, t := range tables {
		if err := t.Check(); err != nil {
			return err
		}
	}
	return nil
}

// counter counts keys and returns them ranked by count (descending), then
// by key.
type counter[K comparable] struct {
	n     map[K]int64
	order []K
}

func newCounter[K comparable]() *counter[K] { return &counter[K]{n: map[K]int64{}} }

func (c *counter[K]) add(k K, n int64) {
	if _, ok := c.n[k]; !ok {
		c.order = append(c.order, k)
	}
	c.n[k] += n
}

// ranked returns the keys by count descending, ties by less.
func (c *counter[K]) ranked(less func(a, b K) bool) []K {
	keys := append([]K(nil), c.order...)
	sort.SliceStable(keys, func(i, j int) bool {
		if c.n[keys[i]] != c.n[keys[j]] {
			return c.n[keys[i]] > c.n[keys[j]]
		}
		return less(keys[i], keys[j])
	})
	return keys
}

// pct returns 100*n/total, or 0 for an empty total.
func pct(n, total int64) float64 {
	if total == 0 {
		return 0
	}
	return 100 * float64(n) / float64(total)
}
