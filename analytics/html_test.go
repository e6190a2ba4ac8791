package analytics

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// svgShape is what the check reads of a chart's SVG as gonum's vgsvg
// writes it: paths (bars filled, lines stroked) and texts.
type svgShape struct {
	Chart string `xml:"data-chart,attr"`
	Paths []struct {
		Style string `xml:"style,attr"`
	} `xml:"path"`
	Texts []string   `xml:"text"`
	Group []svgShape `xml:"g"`
}

// drawn counts a chart's bars (paths filled with a series colour) and
// lines (paths stroked with one), and gathers its texts.
func (s svgShape) drawn() (bars, lines int, texts []string) {
	for _, p := range s.Paths {
		st := strings.ToUpper(p.Style)
		for _, c := range palette {
			hex := strings.ToUpper(colorHex(c))
			switch {
			case strings.Contains(st, "FILL:"+hex):
				bars++
			case strings.Contains(st, "STROKE:"+hex) && strings.Contains(st, "FILL:NONE"):
				lines++
			}
		}
	}
	texts = append(texts, s.Texts...)
	for _, g := range s.Group {
		b, l, tx := g.drawn()
		bars, lines, texts = bars+b, lines+l, append(texts, tx...)
	}
	return bars, lines, texts
}

var svgRe = regexp.MustCompile(`(?s)<svg class="chart".*?</svg>`)

// chartsIn parses every chart SVG of an HTML page as XML, by chart name.
func chartsIn(t *testing.T, page []byte) map[string]svgShape {
	t.Helper()
	out := map[string]svgShape{}
	for _, s := range svgRe.FindAll(page, -1) {
		var sh svgShape
		if err := xml.Unmarshal(s, &sh); err != nil {
			t.Fatalf("chart SVG is not well-formed XML: %v\n%.400s", err, s)
		}
		out[sh.Chart] = sh
	}
	return out
}

// dashboardPage renders the sample run's report as the HTML dashboard,
// with the milestone runs as its history.
func dashboardPage(t *testing.T) []byte {
	t.Helper()
	rows := sampleRows()
	for i := range rows {
		rows[i].Source = "/corpus/apps/" + rows[i].Source
	}
	rep, err := BuildReport(sampleRun(t, rows), DefaultReportOptions)
	if err != nil {
		t.Fatal(err)
	}
	rep.SetHistory(Trends(milestoneRuns(t), false))
	var b bytes.Buffer
	if err := Render(&b, rep.Document(), FormatHTML); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestDashboardCharts checks each chart of the dashboard draws what it
// says: a bar per stage of the funnel (the zero bars labelled 0), a line
// per stage over runs in percent with date and commit labels, Pareto bars
// with their cumulative line, the libraries stacked by outcome, and the
// emulator and device verdicts.
func TestDashboardCharts(t *testing.T) {
	page := dashboardPage(t)
	charts := chartsIn(t, page)
	want := map[string]struct{ bars, lines int }{
		"funnel":        {len(StageNames), 0},
		"pass_rates":    {0, len(StageNames)},
		"failure_codes": {4, 1},
		"sole_blockers": {3, 1},
		"libraries":     {3, 0},
		"agreement":     {2, 0},
	}
	for name, w := range want {
		sh, ok := charts[name]
		if !ok {
			t.Errorf("no %s chart; charts: %v", name, keys(charts))
			continue
		}
		bars, lines, _ := sh.drawn()
		if bars < w.bars || lines < w.lines {
			t.Errorf("%s: %d bars and %d lines, want at least %d and %d", name, bars, lines, w.bars, w.lines)
		}
	}
	_, _, funnel := charts["funnel"].drawn()
	if !contains(funnel, "0") || !contains(funnel, "device") {
		t.Errorf("funnel texts %q lack the 0 label or the device stage", funnel)
	}
	_, _, rates := charts["pass_rates"].drawn()
	if !contains(rates, "100%") || !containsPrefix(rates, "2026-") {
		t.Errorf("pass-rate texts %q lack percent ticks or dates", rates)
	}
	if !bytes.Contains(page, []byte("<details><summary>b.metallib")) {
		t.Error("no per-library drill-down for b.metallib (names relative to the root)")
	}
	for _, id := range []string{`id="mismatches"`, `id="agreement"`, `id="features_translate"`} {
		if !bytes.Contains(page, []byte(id)) {
			t.Errorf("no table %s", id)
		}
	}
	if bytes.Contains(page, []byte("<script")) || bytes.Contains(page, []byte(" src=")) || bytes.Contains(page, []byte("href=\"http")) {
		t.Error("page loads something; it must be self-contained")
	}
}

// TestDashboardChartCaught: a chart that draws nothing is caught by the
// check above (the check can fail).
func TestDashboardChartCaught(t *testing.T) {
	svg, err := chartSVG(Chart{Name: "empty", Title: "empty", Kind: ChartBar})
	if err != nil {
		t.Fatal(err)
	}
	var sh svgShape
	if err := xml.Unmarshal([]byte(svg), &sh); err != nil {
		t.Fatal(err)
	}
	if bars, lines, _ := sh.drawn(); bars+lines != 0 {
		t.Fatalf("an empty chart counts %d bars, %d lines", bars, lines)
	}
	if _, err := chartSVG(Chart{Name: "x", Kind: "pie"}); err == nil {
		t.Fatal("an unknown chart kind drew")
	}
}

// TestDashboardInChromium renders the dashboard in headless Chromium: the
// DOM it builds holds the chart SVGs with their drawn paths, and a
// screenshot is not blank and shows the charts' colours in both columns of
// the chart grid.
func TestDashboardInChromium(t *testing.T) {
	var bin string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		t.Skip("no chromium binary (Debian package chromium); TestDashboardCharts still runs")
	}
	dir := t.TempDir()
	html := filepath.Join(dir, "report.html")
	shot := filepath.Join(dir, "report.png")
	if err := os.WriteFile(html, dashboardPage(t), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=" + filepath.Join(dir, "profile")}
	dom, err := exec.Command(bin, append(args, "--dump-dom", "file://"+html)...).Output()
	if err != nil {
		t.Fatalf("%s --dump-dom: %v", bin, err)
	}
	if n := bytes.Count(dom, []byte(`<svg class="chart"`)); n < 6 {
		t.Errorf("Chromium's DOM holds %d chart SVGs, want 6", n)
	}
	cmd := exec.Command(bin, append(args, "--window-size=1700,1300", "--screenshot="+shot, "file://"+html)...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s --screenshot: %v", bin, err)
	}
	if os.Getenv("AIRPIPE_KEEP_SCREENSHOT") != "" {
		b, _ := os.ReadFile(shot)
		os.WriteFile(os.Getenv("AIRPIPE_KEEP_SCREENSHOT"), b, 0o644)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	count := func(r image.Rectangle, want func(r, g, b uint32) bool) int {
		n := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				cr, cg, cb, _ := img.At(x, y).RGBA()
				if want(cr>>8, cg>>8, cb>>8) {
					n++
				}
			}
		}
		return n
	}
	ink := count(b, func(r, g, b uint32) bool { return r < 0xf0 || g < 0xf0 || b < 0xf0 })
	if ink < b.Dx()*b.Dy()/50 {
		t.Errorf("screenshot nearly blank: %d of %d pixels not background", ink, b.Dx()*b.Dy())
	}
	blue := func(r, g, b uint32) bool { return r == 0x4e && g == 0x79 && b == 0xa7 }
	// The grid's first row: the funnel (left) and the pass rates (right).
	top := image.Rect(0, 0, b.Dx(), b.Dy()/2)
	left, right := top, top
	left.Max.X, right.Min.X = b.Dx()/2, b.Dx()/2
	if n := count(left, blue); n < 300 {
		t.Errorf("left column: %d pixels of the bars' colour", n)
	}
	if n := count(right, blue); n < 50 {
		t.Errorf("right column: %d pixels of the lines' colour", n)
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if strings.TrimSpace(x) == s {
			return true
		}
	}
	return false
}

func containsPrefix(ss []string, p string) bool {
	for _, x := range ss {
		if strings.HasPrefix(strings.TrimSpace(x), p) {
			return true
		}
	}
	return false
}
