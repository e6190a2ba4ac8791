package analytics

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"
)

// JUnit verdicts of one row.
const (
	junitPassed  = "passed"
	junitFailed  = "failed"
	junitSkipped = "skipped"
)

// junitVerdict says how one row reads as a test case: failed (a stage
// failed), skipped (a stage could not judge it: unjudged, unavailable, or
// excluded by the user, with nothing failing later) or passed. The stage is
// the one that failed or set the row aside. A status it does not know, or
// a not-run stage that nothing stopped, is refused by name.
func junitVerdict(r *Row) (verdict, stage string, err error) {
	aside := ""
	for _, s := range StageNames {
		switch st := r.Status(s); st {
		case "", "passed":
		case "failed":
			return junitFailed, s, nil
		case "unjudged", "unavailable":
			return junitSkipped, s, nil
		case "skipped":
			// The user excluded the stage; later stages still run and
			// may fail.
			if aside == "" {
				aside = s
			}
		case "not-run":
			if aside != "" {
				return junitSkipped, aside, nil
			}
			return "", "", fmt.Errorf("%s: stage %s is not-run though no earlier stage stopped the module", r.Key(), s)
		default:
			return "", "", fmt.Errorf("%s: stage %s has status %q, which the JUnit output does not know", r.Key(), s, st)
		}
	}
	if aside != "" {
		return junitSkipped, aside, nil
	}
	return junitPassed, "", nil
}

// The JUnit XML elements written (the schema Jenkins, GitLab and GitHub
// test reporters read).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	Hostname   string          `xml:"hostname,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure"`
	Skipped   *junitSkip    `xml:"skipped"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkip struct {
	Message string `xml:"message,attr"`
}

// xmlText makes s fit for XML 1.0: invalid UTF-8 and characters XML does
// not allow (controls other than tab, newline and carriage return,
// surrogates, U+FFFE and U+FFFF) become U+FFFD.
func xmlText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t', r == '\n', r == '\r':
			return r
		case r < 0x20, r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF:
			return '\uFFFD'
		}
		return r
	}, s)
}

// seconds formats milliseconds as JUnit's seconds with three decimals.
func seconds(ms int64) string { return fmt.Sprintf("%.3f", float64(ms)/1000) }

// rowMS is the time a row's stages took, in milliseconds.
func rowMS(r *Row) int64 {
	return r.ContainerMS + r.ReaderMS + r.TranslateMS + r.CompileMS + r.EmulatorMS + r.DeviceMS
}

// WriteJUnit writes a run as JUnit XML: one <testsuite> per library (in
// the order the run first lists them), one <testcase> per row with the
// library as classname and the function as name. A failed row carries
// <failure message="CODE" type="STAGE"> with the detail, message and
// missing features; a row set aside (unjudged, unavailable, skipped)
// carries <skipped message="STATUS at STAGE: REASON"/>. A failure whose
// module expected names (a gate's known or flaky failures) is written as
// <skipped> with that message and the failure's code, so that only new
// failures fail the report; expected may be nil. Nothing is written when a
// row has a status the output does not know.
func WriteJUnit(w io.Writer, run *Run, expected map[BaselineKey]string) error {
	doc := junitSuites{Name: xmlText("airpipe " + run.ID())}
	index := map[string]int{}
	var total int64
	props := []junitProperty{
		{"run_id", run.ID()},
		{"build", run.Meta.Build.String()},
		{"commit", run.Meta.Build.ShortCommit()},
		{"tool_version", run.Meta.ToolVersion},
		{"complete", fmt.Sprint(run.Complete())},
	}
	for i := range props {
		props[i].Value = xmlText(props[i].Value)
	}
	var timestamp string
	if !run.Meta.Started.IsZero() {
		timestamp = run.Meta.Started.UTC().Format(time.RFC3339)
	}
	suiteMS := map[int]int64{}
	for i := range run.Rows {
		r := &run.Rows[i]
		verdict, stage, err := junitVerdict(r)
		if err != nil {
			return err
		}
		lib := xmlText(r.Source)
		si, ok := index[lib]
		if !ok {
			si = len(doc.Suites)
			index[lib] = si
			doc.Suites = append(doc.Suites, junitSuite{Name: lib, Timestamp: timestamp,
				Hostname: xmlText(run.Meta.Host), Properties: props})
		}
		s := &doc.Suites[si]
		ms := rowMS(r)
		c := junitCase{Classname: lib, Name: xmlText(r.Function), Time: seconds(ms)}
		if why, ok := expected[BaselineKey{r.LibrarySHA256, r.Function}]; ok && verdict == junitFailed {
			c.Skipped = &junitSkip{Message: xmlText(why + ": " + r.FailureCode + " at " + stage)}
			verdict = ""
			s.Skipped++
			doc.Skipped++
		}
		switch verdict {
		case junitFailed:
			text := r.FailureDetail
			if r.FailureMessage != "" && r.FailureMessage != r.FailureDetail {
				text += "\n" + r.FailureMessage
			}
			for _, m := range r.Missing {
				text += "\nmissing: " + m.Code + " " + m.Detail
			}
			code := r.FailureCode
			if code == "" {
				code = stage + " failed"
			}
			c.Failure = &junitFailure{Message: xmlText(code), Type: xmlText(stage), Text: xmlText(strings.TrimPrefix(text, "\n"))}
			s.Failures++
			doc.Failures++
		case junitSkipped:
			msg := r.Status(stage) + " at " + stage
			if r.StatusReason != "" {
				msg += ": " + r.StatusReason
			}
			c.Skipped = &junitSkip{Message: xmlText(msg)}
			s.Skipped++
			doc.Skipped++
		}
		s.Cases = append(s.Cases, c)
		s.Tests++
		doc.Tests++
		suiteMS[si] += ms
		total += ms
	}
	for i := range doc.Suites {
		doc.Suites[i].Time = seconds(suiteMS[i])
	}
	doc.Time = seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
