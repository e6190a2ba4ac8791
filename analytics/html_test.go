package analytics

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// svgShape is what the check reads of a chart's SVG.
type svgShape struct {
	Chart string `xml:"data-chart,attr"`
	Rects []struct {
		Class  string `xml:"class,attr"`
		Height string `xml:"height,attr"`
	} `xml:"rect"`
	Lines []struct {
		Points string `xml:"points,attr"`
	} `xml:"polyline"`
}

var svgRe = regexp.MustCompile(`(?s)<svg .*?</svg>`)

// chartsIn parses every inline SVG of an HTML page as XML and returns, per
// chart name, how many bars of positive height and polylines of at least
// two points it draws.
func chartsIn(t *testing.T, page []byte) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, s := range svgRe.FindAll(page, -1) {
		var sh svgShape
		if err := xml.Unmarshal(s, &sh); err != nil {
			t.Fatalf("chart SVG is not well-formed XML: %v\n%s", err, s)
		}
		n := 0
		for _, r := range sh.Rects {
			h, _ := strconv.ParseFloat(r.Height, 64)
			if r.Class == "bar" && h > 0 {
				n++
			}
		}
		for _, l := range sh.Lines {
			if len(regexp.MustCompile(`[0-9.]+,[0-9.]+`).FindAllString(l.Points, -1)) >= 2 {
				n++
			}
		}
		out[sh.Chart] = n
	}
	return out
}

// htmlPages renders the report (funnel chart) and the trend (trend chart)
// of test runs.
func htmlPages(t *testing.T) (report, trend []byte) {
	rep, err := BuildReport(sampleRun(t, sampleRows()), DefaultReportOptions)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := Render(&a, rep.Document(), FormatHTML); err != nil {
		t.Fatal(err)
	}
	if err := Render(&b, Trends(milestoneRuns(t), false).Document(), FormatHTML); err != nil {
		t.Fatal(err)
	}
	return a.Bytes(), b.Bytes()
}

func TestHTMLChartsDrawn(t *testing.T) {
	report, trend := htmlPages(t)
	if got := chartsIn(t, report); got["funnel"] < 5 {
		t.Errorf("funnel chart draws %d bars, want one per reached stage: %v", got["funnel"], got)
	}
	if got := chartsIn(t, trend); got["trend"] != len(StageNames) {
		t.Errorf("trend chart draws %d lines, want %d: %v", got["trend"], len(StageNames), got)
	}
	for _, page := range [][]byte{report, trend} {
		if bytes.Contains(page, []byte("http://")) && !bytes.Contains(page, []byte(`xmlns="http://www.w3.org/2000/svg"`)) {
			t.Error("page refers to something outside itself")
		}
		if bytes.Contains(page, []byte("<script")) || bytes.Contains(page, []byte(" src=")) {
			t.Error("page loads something; it must be self-contained")
		}
	}
}

// TestHTMLRendersInChromium renders both pages in headless Chromium and
// checks the screenshot holds the charts' first series colour, which only
// the drawn bars and lines use.
func TestHTMLRendersInChromium(t *testing.T) {
	var bin string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		t.Skip("no chromium binary (Debian package chromium); the XML check above still runs")
	}
	report, trend := htmlPages(t)
	dir := t.TempDir()
	for name, page := range map[string][]byte{"report": report, "trend": trend} {
		html := filepath.Join(dir, name+".html")
		shot := filepath.Join(dir, name+".png")
		if err := os.WriteFile(html, page, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
			"--window-size=900,800", "--screenshot="+shot, "file://"+html)
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v", bin, err)
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
		n := 0
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				if r>>8 == 0x4e && g>>8 == 0x79 && bl>>8 == 0xa7 {
					n++
				}
			}
		}
		if n < 50 {
			t.Errorf("%s: only %d pixels of the chart colour in the screenshot", name, n)
		}
	}
}
