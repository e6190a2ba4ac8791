package analytics

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
)

// Chart is a chart of one or more series over labelled x positions, drawn
// by gonum.org/v1/plot as inline SVG in HTML output.
type Chart struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	// Kind is ChartBar, ChartLine, ChartPareto or ChartStacked.
	Kind   string   `json:"kind"`
	X      []string `json:"x"`
	Series []Series `json:"series"`
	// XLabel and YLabel name the axes.
	XLabel string `json:"x_label,omitempty"`
	YLabel string `json:"y_label,omitempty"`
	// Percent says the values are percentages (a 0–100% axis).
	Percent bool `json:"percent,omitempty"`
	// Total is what a Pareto chart's bars are a share of.
	Total float64 `json:"total,omitempty"`
}

// Series is one named line or set of bars.
type Series struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
}

// renderHTML writes one self-contained page: the charts as inline SVG
// drawn by gonum.org/v1/plot, the folded drill-down tables, then the
// tables. Nothing is loaded from elsewhere, so it opens offline.
func renderHTML(w io.Writer, d *Document) error {
	var b strings.Builder
	e := html.EscapeString
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title>\n", e(d.Title))
	b.WriteString("<style>body{font-family:sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse;margin-bottom:1.5em}" +
		"td,th{border:1px solid #ccc;padding:2px 8px}td.n{text-align:right}th{background:#f3f3f3}" +
		"p.note{color:#555;font-size:90%}.charts{display:flex;flex-wrap:wrap;gap:12px}" +
		".charts figure{margin:0;border:1px solid #ddd;padding:4px;background:#fff}" +
		"details{margin:4px 0}summary{cursor:pointer}</style></head><body>\n")
	fmt.Fprintf(&b, "<h1>%s</h1>\n", e(d.Title))
	for _, h := range d.Header {
		fmt.Fprintf(&b, "<p>%s</p>\n", e(h))
	}
	if len(d.Charts) > 0 {
		b.WriteString("<div class=\"charts\">\n")
		for _, c := range d.Charts {
			svg, err := chartSVG(c)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "<figure id=\"chart-%s\">\n%s</figure>\n", e(c.Name), svg)
		}
		b.WriteString("</div>\n")
	}
	if len(d.Details) > 0 {
		b.WriteString("<h2>Per-library drill-down</h2>\n<p class=\"note\">the libraries with the most failures; open one for its modules that did not pass</p>\n")
		for _, dt := range d.Details {
			fmt.Fprintf(&b, "<details><summary>%s</summary>\n", e(dt.Summary))
			htmlTable(&b, dt.Table)
			b.WriteString("</details>\n")
		}
	}
	for _, t := range d.Tables {
		fmt.Fprintf(&b, "<h2>%s</h2>\n", e(t.Title))
		if t.Note != "" {
			fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", e(t.Note))
		}
		htmlTable(&b, t)
	}
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// htmlTable writes one table, numbers right-aligned.
func htmlTable(b *strings.Builder, t *Table) {
	e := html.EscapeString
	fmt.Fprintf(b, "<table id=\"%s\"><tr>", e(t.Name))
	for _, c := range t.Columns {
		fmt.Fprintf(b, "<th>%s</th>", e(c))
	}
	b.WriteString("</tr>\n")
	for _, row := range t.Rows {
		b.WriteString("<tr>")
		for _, v := range row {
			if isNumber(v) {
				fmt.Fprintf(b, "<td class=\"n\">%s</td>", e(cellText(v)))
			} else {
				fmt.Fprintf(b, "<td>%s</td>", e(cellText(v)))
			}
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
}

func trimFloat(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}
