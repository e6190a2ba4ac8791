package analytics

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The chart kinds chartSVG draws.
const (
	// ChartBar is vertical bars, one group per x label, each bar labelled
	// with its value.
	ChartBar = "bar"
	// ChartLine is one line with points per series over the x labels.
	ChartLine = "line"
	// ChartPareto is the first series as bars of percent of Chart.Total,
	// largest first, and the running total as a line, both in percent.
	ChartPareto = "pareto"
	// ChartStacked is horizontal bars, one per x label, the series stacked.
	ChartStacked = "stacked"
)

// palette colours series in order (Tableau 10).
var palette = []color.RGBA{
	{0x4e, 0x79, 0xa7, 0xff}, {0x59, 0xa1, 0x4f, 0xff}, {0xe1, 0x57, 0x59, 0xff},
	{0xf2, 0x8e, 0x2b, 0xff}, {0x76, 0xb7, 0xb2, 0xff}, {0xed, 0xc9, 0x48, 0xff},
	{0xb0, 0x7a, 0xa1, 0xff}, {0x9c, 0x75, 0x5f, 0xff},
}

// seriesColor is the colour of series i, or the colour its name asks for
// (passed green, failed red, set aside grey).
func seriesColor(name string, i int) color.RGBA {
	switch name {
	case "passed":
		return palette[1]
	case "failed":
		return palette[2]
	case "set aside", "unjudged", "unavailable", "skipped":
		return color.RGBA{0xba, 0xb0, 0xac, 0xff}
	}
	return palette[i%len(palette)]
}

// chartSVG draws a chart with gonum.org/v1/plot as an SVG element.
func chartSVG(c Chart) (string, error) {
	p := plot.New()
	p.Title.Text = c.Title
	p.Title.TextStyle.Font = font.From(plot.DefaultFont, 13)
	p.Y.Label.Text = c.YLabel
	p.X.Label.Text = c.XLabel
	p.Legend.Top = true
	p.Legend.Left = false
	w, h := 7.4*vg.Inch, 4*vg.Inch
	var err error
	switch {
	case len(c.X) == 0 && (c.Kind == ChartBar || c.Kind == ChartLine || c.Kind == ChartPareto || c.Kind == ChartStacked):
		// Nothing to plot: the empty axes and a title that says so.
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	case c.Kind == ChartBar:
		err = barPlot(p, c)
	case c.Kind == ChartLine:
		err = linePlot(p, c)
	case c.Kind == ChartPareto:
		err = paretoPlot(p, c)
		h = 4.6 * vg.Inch
	case c.Kind == ChartStacked:
		err = stackedPlot(p, c)
		h = vg.Length(math.Max(3, 1.2+0.28*float64(len(c.X)))) * vg.Inch
	default:
		err = fmt.Errorf("chart %s: unknown kind %q", c.Name, c.Kind)
	}
	if err != nil {
		return "", err
	}
	if len(c.X) == 0 {
		p.Title.Text += " (nothing to plot)"
	}
	cv := vgsvg.New(w, h)
	p.Draw(draw.New(cv))
	var b bytes.Buffer
	if _, err := cv.WriteTo(&b); err != nil {
		return "", err
	}
	svg := b.String()
	// Drop the XML prelude: the SVG sits inside an HTML page.
	if i := strings.Index(svg, "<svg"); i > 0 {
		svg = svg[i:]
	}
	svg = strings.Replace(svg, "<svg", fmt.Sprintf("<svg class=\"chart\" data-chart=\"%s\"", htmlAttr(c.Name)), 1)
	return svg + "\n", nil
}

func htmlAttr(s string) string {
	return strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// rotateX slants long x labels so they do not overlap.
func rotateX(p *plot.Plot, labels []string) {
	long := 0
	for _, l := range labels {
		long = max(long, len(l))
	}
	if long*len(labels) > 90 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
}

// nominalX names the x positions (none for an empty chart), slanting
// long names.
func nominalX(p *plot.Plot, names []string) {
	if len(names) == 0 {
		p.X.Min, p.X.Max = 0, 1
		return
	}
	p.NominalX(names...)
	rotateX(p, names)
}

// barLabels puts each bar's value above it (zero included, so an empty
// bar is visibly 0).
func barLabels(xs []float64, vs []float64, format func(float64) string) (*plotter.Labels, error) {
	xy := plotter.XYLabels{XYs: make(plotter.XYs, len(vs)), Labels: make([]string, len(vs))}
	for i, v := range vs {
		xy.XYs[i] = plotter.XY{X: xs[i], Y: v}
		xy.Labels[i] = format(v)
	}
	l, err := plotter.NewLabels(xy)
	if err != nil {
		return nil, err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].XAlign = draw.XCenter
		l.TextStyle[i].Font = font.From(plot.DefaultFont, 9)
	}
	l.Offset = vg.Point{Y: vg.Points(3)}
	return l, nil
}

func countText(v float64) string { return trimFloat(v) }

func pctText(v float64) string { return fmt.Sprintf("%.1f%%", v) }

func barPlot(p *plot.Plot, c Chart) error {
	n := len(c.Series)
	width := vg.Points(math.Min(40, 420/math.Max(1, float64(len(c.X)*max(n, 1)))))
	top := 0.0
	for si, s := range c.Series {
		bc, err := plotter.NewBarChart(plotter.Values(s.Values), width)
		if err != nil {
			return err
		}
		bc.Color = seriesColor(s.Name, si)
		bc.LineStyle.Width = 0
		bc.Offset = width * vg.Length(float64(si)-float64(n-1)/2)
		p.Add(bc)
		if n > 1 {
			p.Legend.Add(s.Name, bc)
		}
		xs := make([]float64, len(s.Values))
		for i := range xs {
			xs[i] = float64(i)
		}
		if n == 1 {
			l, err := barLabels(xs, s.Values, valueFormat(c))
			if err != nil {
				return err
			}
			p.Add(l)
		}
		for _, v := range s.Values {
			top = math.Max(top, v)
		}
	}
	nominalX(p, c.X)
	p.Y.Min = 0
	p.Y.Max = yTop(c, top)
	p.Y.Tick.Marker = countTicks{}
	return nil
}

// countTicks marks a count axis at round integers.
type countTicks struct{}

func (countTicks) Ticks(min, max float64) []plot.Tick {
	var t []plot.Tick
	for _, tk := range (plot.DefaultTicks{}).Ticks(min, max) {
		if tk.Value != math.Trunc(tk.Value) {
			continue
		}
		if tk.Label != "" {
			tk.Label = fmt.Sprintf("%.0f", tk.Value)
		}
		t = append(t, tk)
	}
	return t
}

// valueFormat formats a chart's values: percent or counts.
func valueFormat(c Chart) func(float64) string {
	if c.Percent {
		return pctText
	}
	return countText
}

// yTop is the top of the y axis: 100 for percent, else a little above the
// largest value so its label fits (never a round-up to the next power).
func yTop(c Chart, top float64) float64 {
	if c.Percent {
		return 105
	}
	if top <= 0 {
		return 1
	}
	return top * 1.12
}

func linePlot(p *plot.Plot, c Chart) error {
	top := 0.0
	for si, s := range c.Series {
		xy := make(plotter.XYs, len(s.Values))
		for i, v := range s.Values {
			xy[i] = plotter.XY{X: float64(i), Y: v}
			top = math.Max(top, v)
		}
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return err
		}
		col := seriesColor(s.Name, si)
		l.Color, pts.Color = col, col
		l.Width = vg.Points(2)
		pts.Shape = shapes[si%len(shapes)]
		pts.Radius = vg.Points(3.5)
		p.Add(l, pts)
		p.Legend.Add(s.Name, l, pts)
	}
	nominalX(p, c.X)
	p.Y.Min = 0
	p.Y.Max = yTop(c, top)
	if c.Percent {
		// Room above 100% for the legend, clear of the lines.
		p.Y.Max = 100 + 6*float64(len(c.Series))
		p.Y.Tick.Marker = percentTicks{}
	}
	p.Legend.Left = true
	p.Legend.YOffs = -vg.Points(4)
	return nil
}

// shapes tell lines apart where they overlap.
var shapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PlusGlyph{}, draw.CrossGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}}

// percentTicks marks a 0–100 axis every 20%.
type percentTicks struct{}

func (percentTicks) Ticks(min, max float64) []plot.Tick {
	var t []plot.Tick
	for v := 0.0; v <= 100; v += 10 {
		if v < min || v > max {
			continue
		}
		lab := ""
		if int(v)%20 == 0 {
			lab = fmt.Sprintf("%.0f%%", v)
		}
		t = append(t, plot.Tick{Value: v, Label: lab})
	}
	return t
}

func paretoPlot(p *plot.Plot, c Chart) error {
	if len(c.Series) != 1 {
		return fmt.Errorf("chart %s: a Pareto chart has one series, not %d", c.Name, len(c.Series))
	}
	if c.Total <= 0 && len(c.X) > 0 {
		return fmt.Errorf("chart %s: a Pareto chart needs the total its bars are a share of", c.Name)
	}
	vals := c.Series[0].Values
	share := make(plotter.Values, len(vals))
	cum := make(plotter.XYs, len(vals))
	run := 0.0
	for i, v := range vals {
		share[i] = 100 * v / c.Total
		run += share[i]
		cum[i] = plotter.XY{X: float64(i), Y: run}
	}
	width := vg.Points(math.Min(40, 460/math.Max(1, float64(len(vals)))))
	bc, err := plotter.NewBarChart(share, width)
	if err != nil {
		return err
	}
	bc.Color = palette[0]
	bc.LineStyle.Width = 0
	p.Add(bc)
	p.Legend.Add(c.Series[0].Name+" (% of "+trimFloat(c.Total)+")", bc)
	xs := make([]float64, len(vals))
	for i := range xs {
		xs[i] = float64(i)
	}
	counts := map[float64]string{}
	for i, v := range vals {
		counts[share[i]] = trimFloat(v)
	}
	labels, err := barLabels(xs, share, func(v float64) string { return counts[v] })
	if err != nil {
		return err
	}
	p.Add(labels)
	if len(cum) > 0 {
		l, pts, err := plotter.NewLinePoints(cum)
		if err != nil {
			return err
		}
		l.Color, pts.Color = palette[3], palette[3]
		l.Width = vg.Points(2)
		p.Add(l, pts)
		p.Legend.Add("cumulative %", l, pts)
	}
	nominalX(p, c.X)
	p.X.Tick.Label.Rotation = math.Pi / 5
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	p.X.Tick.Label.Font = font.From(plot.DefaultFont, 8)
	p.Y.Min, p.Y.Max = 0, 105
	p.Y.Tick.Marker = percentTicks{}
	p.Y.Label.Text = "% of " + c.YLabel
	p.Legend.Left = true
	p.Legend.XOffs = vg.Points(40)
	return nil
}

func stackedPlot(p *plot.Plot, c Chart) error {
	// Bars are drawn bottom up: reversed, the first label is at the top.
	n := len(c.X)
	var below *plotter.BarChart
	for si, s := range c.Series {
		vals := make(plotter.Values, n)
		for i := range vals {
			vals[i] = s.Values[n-1-i]
		}
		bc, err := plotter.NewBarChart(vals, vg.Points(14))
		if err != nil {
			return err
		}
		bc.Horizontal = true
		bc.Color = seriesColor(s.Name, si)
		bc.LineStyle.Width = 0
		if below != nil {
			bc.StackOn(below)
		}
		below = bc
		p.Add(bc)
		p.Legend.Add(s.Name, bc)
	}
	names := make([]string, n)
	for i, x := range c.X {
		names[n-1-i] = x
	}
	if n > 0 {
		p.NominalY(names...)
	}
	p.Y.Tick.Label.Font = font.From(plot.DefaultFont, 8)
	p.X.Min = 0
	top := 0.0
	for i := range c.X {
		sum := 0.0
		for _, s := range c.Series {
			sum += s.Values[i]
		}
		top = math.Max(top, sum)
	}
	// Room at the right for the legend.
	p.X.Max = math.Max(1, top*1.3)
	p.X.Tick.Marker = countTicks{}
	p.Legend.Top, p.Legend.Left = false, false
	p.Y.Label.Text = ""
	return nil
}

func init() {
	// Charts are read on screens: the sans face of gonum's built-in fonts.
	plot.DefaultFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
}

// colorHex is a colour as #RRGGBB.
func colorHex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }
