package analytics

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Format is an output format of the analytics commands.
type Format string

// The output formats.
const (
	FormatText     Format = "text"
	FormatMarkdown Format = "md"
	FormatJSON     Format = "json"
	FormatHTML     Format = "html"
)

// ParseFormat accepts text, md (or markdown), json and html.
func ParseFormat(s string) (Format, error) {
	switch s {
	case "text", "":
		return FormatText, nil
	case "md", "markdown":
		return FormatMarkdown, nil
	case "json":
		return FormatJSON, nil
	case "html":
		return FormatHTML, nil
	}
	return "", fmt.Errorf("unknown format %q (want text, md, json or html)", s)
}

// Document is what an analytics command prints: a title, a few header
// lines, checked tables and charts; JSON is the stable value printed for
// --format json.
type Document struct {
	Title  string
	Header []string
	Tables []*Table
	Charts []Chart
	JSON   any
}

// Render checks every table and then writes the document in format f.
// When a table does not add up it writes nothing and returns the error
// naming the table.
func Render(w io.Writer, d *Document, f Format) error {
	if err := CheckAll(d.Tables); err != nil {
		return err
	}
	switch f {
	case FormatText:
		return renderText(w, d)
	case FormatMarkdown:
		return renderMarkdown(w, d)
	case FormatJSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(d.JSON)
	case FormatHTML:
		return renderHTML(w, d)
	}
	return fmt.Errorf("unknown format %q", f)
}

// cellText formats one cell: counts as integers, percentages with one
// decimal.
func cellText(v any) string {
	switch x := v.(type) {
	case int64:
		return fmt.Sprint(x)
	case float64:
		return fmt.Sprintf("%.1f", x)
	case string:
		return x
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

func isNumber(v any) bool {
	switch v.(type) {
	case int64, float64:
		return true
	}
	return false
}

func renderText(w io.Writer, d *Document) error {
	var b strings.Builder
	b.WriteString(d.Title + "\n")
	b.WriteString(strings.Repeat("=", utf8.RuneCountInString(d.Title)) + "\n")
	for _, h := range d.Header {
		b.WriteString(h + "\n")
	}
	for _, t := range d.Tables {
		b.WriteString("\n" + t.Title + "\n")
		b.WriteString(strings.Repeat("-", utf8.RuneCountInString(t.Title)) + "\n")
		if t.Note != "" {
			b.WriteString("(" + t.Note + ")\n")
		}
		writeAligned(&b, t)
		for _, s := range t.Sums {
			fmt.Fprintf(&b, "  total %s: %d (= %s)\n", t.Columns[s.Column], s.Total, s.What)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeAligned writes a table's header and rows with aligned columns:
// numbers right-aligned, text left-aligned.
func writeAligned(b *strings.Builder, t *Table) {
	width := make([]int, len(t.Columns))
	for i, c := range t.Columns {
		width[i] = utf8.RuneCountInString(c)
	}
	for _, row := range t.Rows {
		for i, v := range row {
			if n := utf8.RuneCountInString(cellText(v)); n > width[i] {
				width[i] = n
			}
		}
	}
	line := func(cells []string, right []bool) {
		var parts []string
		for i, c := range cells {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if right[i] {
				parts = append(parts, pad+c)
			} else {
				parts = append(parts, c+pad)
			}
		}
		b.WriteString(strings.TrimRight(strings.Join(parts, "  "), " ") + "\n")
	}
	right := make([]bool, len(t.Columns))
	for _, row := range t.Rows {
		for i, v := range row {
			if isNumber(v) {
				right[i] = true
			}
		}
	}
	line(t.Columns, right)
	dashes := make([]string, len(t.Columns))
	for i := range dashes {
		dashes[i] = strings.Repeat("-", width[i])
	}
	line(dashes, right)
	if len(t.Rows) == 0 {
		b.WriteString("(none)\n")
	}
	for _, row := range t.Rows {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = cellText(v)
		}
		line(cells, right)
	}
}

func renderMarkdown(w io.Writer, d *Document) error {
	var b strings.Builder
	b.WriteString("# " + d.Title + "\n\n")
	for _, h := range d.Header {
		b.WriteString(mdEscape(h) + "  \n")
	}
	for _, t := range d.Tables {
		b.WriteString("\n## " + t.Title + "\n\n")
		if t.Note != "" {
			b.WriteString("_" + mdEscape(t.Note) + "_\n\n")
		}
		b.WriteString("| " + strings.Join(mdCells(t.Columns), " | ") + " |\n|")
		for range t.Columns {
			b.WriteString("---|")
		}
		b.WriteString("\n")
		for _, row := range t.Rows {
			cells := make([]string, len(row))
			for i, v := range row {
				cells[i] = mdEscape(cellText(v))
			}
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		}
		for _, s := range t.Sums {
			fmt.Fprintf(&b, "\nTotal %s: %d (= %s).\n", mdEscape(t.Columns[s.Column]), s.Total, mdEscape(s.What))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdCells(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = mdEscape(s)
	}
	return out
}

// mdEscape escapes the characters that would break a Markdown table cell
// or start unwanted emphasis.
func mdEscape(s string) string {
	r := strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "\n", " ", "<", "&lt;")
	return r.Replace(s)
}

// RenderFile renders the document into path atomically; nothing is written
// when a table does not add up.
func RenderFile(path string, d *Document, f Format) error {
	var b strings.Builder
	if err := Render(&b, d, f); err != nil {
		return err
	}
	return writeFileAtomic(path, []byte(b.String()))
}
