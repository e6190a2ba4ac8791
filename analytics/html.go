package analytics

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
)

// Chart is a bar or line chart of one or more series over labelled x
// positions, drawn as inline SVG in HTML output.
type Chart struct {
	Name   string   `json:"name"`
	Title  string   `json:"title"`
	Kind   string   `json:"kind"` // "bar" or "line"
	X      []string `json:"x"`
	Series []Series `json:"series"`
}

// Series is one named line or set of bars.
type Series struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
}

// palette colours series in order.
var palette = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1"}

// renderHTML writes one self-contained page: charts as inline SVG, then
// the tables. Nothing is loaded from elsewhere.
func renderHTML(w io.Writer, d *Document) error {
	var b strings.Builder
	e := html.EscapeString
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title>\n", e(d.Title))
	b.WriteString("<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1.5em}" +
		"td,th{border:1px solid #ccc;padding:2px 8px}td.n{text-align:right}caption{text-align:left;font-weight:bold}" +
		"p.note{color:#555;font-size:90%}</style></head><body>\n")
	fmt.Fprintf(&b, "<h1>%s</h1>\n", e(d.Title))
	for _, h := range d.Header {
		fmt.Fprintf(&b, "<p>%s</p>\n", e(h))
	}
	for _, c := range d.Charts {
		fmt.Fprintf(&b, "<h2>%s</h2>\n", e(c.Title))
		b.WriteString(chartSVG(c))
	}
	for _, t := range d.Tables {
		fmt.Fprintf(&b, "<h2>%s</h2>\n", e(t.Title))
		if t.Note != "" {
			fmt.Fprintf(&b, "<p class=\"note\">%s</p>\n", e(t.Note))
		}
		fmt.Fprintf(&b, "<table id=\"%s\"><tr>", e(t.Name))
		for _, c := range t.Columns {
			fmt.Fprintf(&b, "<th>%s</th>", e(c))
		}
		b.WriteString("</tr>\n")
		for _, row := range t.Rows {
			b.WriteString("<tr>")
			for _, v := range row {
				if isNumber(v) {
					fmt.Fprintf(&b, "<td class=\"n\">%s</td>", e(cellText(v)))
				} else {
					fmt.Fprintf(&b, "<td>%s</td>", e(cellText(v)))
				}
			}
			b.WriteString("</tr>\n")
		}
		b.WriteString("</table>\n")
	}
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// chartSVG draws a chart: axes, a y scale with ticks, x labels, bars or
// polylines with points, and a legend.
func chartSVG(c Chart) string {
	const W, H, left, right, top, bottom = 720.0, 320.0, 60.0, 160.0, 20.0, 60.0
	pw, ph := W-left-right, H-top-bottom
	maxV := 0.0
	for _, s := range c.Series {
		for _, v := range s.Values {
			maxV = math.Max(maxV, v)
		}
	}
	maxV = niceCeil(maxV)
	y := func(v float64) float64 { return top + ph - ph*v/maxV }
	n := len(c.X)
	var b strings.Builder
	e := html.EscapeString
	fmt.Fprintf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" data-chart=\"%s\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"11\">\n",
		e(c.Name), W, H, W, H)
	fmt.Fprintf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", left, top, left, top+ph)
	fmt.Fprintf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", left, top+ph, left+pw, top+ph)
	for i := 0; i <= 4; i++ {
		v := maxV * float64(i) / 4
		fmt.Fprintf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			left, y(v), left+pw, y(v), left-4, y(v)+4, trimFloat(v))
	}
	if n == 0 {
		b.WriteString("</svg>\n")
		return b.String()
	}
	slot := pw / float64(n)
	for i, x := range c.X {
		cx := left + slot*(float64(i)+0.5)
		fmt.Fprintf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" transform=\"rotate(-30 %.1f %.1f)\">%s</text>\n",
			cx, top+ph+14, cx, top+ph+14, e(x))
	}
	for si, s := range c.Series {
		col := palette[si%len(palette)]
		switch c.Kind {
		case "bar":
			bw := slot * 0.8 / float64(len(c.Series))
			for i, v := range s.Values {
				x0 := left + slot*float64(i) + slot*0.1 + bw*float64(si)
				fmt.Fprintf(&b, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s %s: %s</title></rect>\n",
					x0, y(v), bw, top+ph-y(v), col, e(s.Name), e(c.X[i]), trimFloat(v))
			}
		default:
			var pts []string
			for i, v := range s.Values {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", left+slot*(float64(i)+0.5), y(v)))
			}
			fmt.Fprintf(&b, "<polyline class=\"line\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n", col, strings.Join(pts, " "))
			for i, v := range s.Values {
				fmt.Fprintf(&b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s %s: %s</title></circle>\n",
					left+slot*(float64(i)+0.5), y(v), col, e(s.Name), e(c.X[i]), trimFloat(v))
			}
		}
		ly := top + 14*float64(si)
		fmt.Fprintf(&b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
			left+pw+10, ly, col, left+pw+24, ly+9, e(s.Name))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten (1 for v <= 0).
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func trimFloat(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}
