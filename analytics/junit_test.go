package analytics

import (
	"bytes"
	"encoding/xml"
	"os/exec"
	"strings"
	"testing"
)

// parsedCase is a <testcase> as an XML parser reads it back.
type parsedCase struct {
	Classname string `xml:"classname,attr"`
	Name      string `xml:"name,attr"`
	Failure   *struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	} `xml:"failure"`
	Skipped *struct {
		Message string `xml:"message,attr"`
	} `xml:"skipped"`
}

type parsedSuites struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Skipped  int `xml:"skipped,attr"`
	Suites   []struct {
		Name  string       `xml:"name,attr"`
		Tests int          `xml:"tests,attr"`
		Cases []parsedCase `xml:"testcase"`
	} `xml:"testsuite"`
}

func junitRun() *Run {
	m := testMeta("junit")
	m.Complete = true
	rows := []Row{
		mkRow("a.metallib", "passes", "s1", "fragment", "device", "", "", ""),
		mkRow("a.metallib", "fails", "s2", "kernel", "reader", "translate", "translate/unhandled-intrinsic", "air.fast_acos.f32",
			f("translate/unhandled-intrinsic", "air.fast_acos.f32")),
		withStatus(mkRow("b.metallib", "unjudged", "s3", "kernel", "compile", "", "", ""), "emulator", "unjudged", "no reference for air.atomic"),
		withStatus(mkRow("b.metallib", "no-gpu", "s4", "vertex", "emulator", "", "", ""), "device", "unavailable", "no GPU"),
		// Odd text: markup characters, invalid UTF-8, a NUL.
		mkRow("c<&\">.metallib", "odd\xff\x00name", "s5", "kernel", "reader", "translate", "translate/unhandled-metadata", "bad \xc3\x28 <tag> & \"q\" \x01"),
	}
	// The user excluded compile; emulator and device still ran and passed.
	skipped := mkRow("b.metallib", "compile-skipped", "s6", "kernel", "device", "", "", "")
	skipped = withStatus(skipped, "compile", "skipped", "excluded by --stages")
	rows = append(rows, skipped)
	// Excluded compile, then the emulator failed: a failure.
	skipFail := mkRow("b.metallib", "skip-then-fail", "s7", "kernel", "translate", "emulator", "emulator/mismatch", "output[0]")
	skipFail = withStatus(skipFail, "compile", "skipped", "excluded")
	rows = append(rows, skipFail)
	return &Run{Meta: m, Rows: rows}
}

func TestWriteJUnit(t *testing.T) {
	run := junitRun()
	var b bytes.Buffer
	if err := WriteJUnit(&b, run, nil); err != nil {
		t.Fatal(err)
	}
	var doc parsedSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b.String())
	}
	var cases []parsedCase
	for _, s := range doc.Suites {
		if s.Tests != len(s.Cases) {
			t.Errorf("suite %s: tests=%d, %d testcases", s.Name, s.Tests, len(s.Cases))
		}
		cases = append(cases, s.Cases...)
	}
	if len(cases) != len(run.Rows) || doc.Tests != len(run.Rows) {
		t.Fatalf("%d testcases (tests=%d) for %d rows", len(cases), doc.Tests, len(run.Rows))
	}
	if len(doc.Suites) != 3 {
		t.Errorf("%d suites, want one per library (3)", len(doc.Suites))
	}
	want := map[string]struct{ verdict, message, typ string }{
		"passes":              {"passed", "", ""},
		"fails":               {"failed", "translate/unhandled-intrinsic", "translate"},
		"unjudged":            {"skipped", "unjudged at emulator: no reference for air.atomic", ""},
		"no-gpu":              {"skipped", "unavailable at device: no GPU", ""},
		"odd\uFFFD\uFFFDname": {"failed", "translate/unhandled-metadata", "translate"},
		"compile-skipped":     {"skipped", "skipped at compile: excluded by --stages", ""},
		"skip-then-fail":      {"failed", "emulator/mismatch", "emulator"},
	}
	library := map[string]string{}
	for _, r := range run.Rows {
		library[xmlText(r.Function)] = xmlText(r.Source)
	}
	byName := map[string]parsedCase{}
	failures, skips := 0, 0
	for _, c := range cases {
		byName[c.Name] = c
		w, ok := want[c.Name]
		if !ok {
			t.Errorf("unexpected testcase %q", c.Name)
			continue
		}
		if library[c.Name] != c.Classname {
			t.Errorf("%s: classname %q, want the library %q", c.Name, c.Classname, library[c.Name])
		}
		switch w.verdict {
		case "passed":
			if c.Failure != nil || c.Skipped != nil {
				t.Errorf("%s: not a pass: %+v", c.Name, c)
			}
		case "failed":
			failures++
			if c.Failure == nil || c.Failure.Message != w.message || c.Failure.Type != w.typ {
				t.Errorf("%s: failure %+v, want message %q type %q", c.Name, c.Failure, w.message, w.typ)
			}
		case "skipped":
			skips++
			if c.Skipped == nil || c.Skipped.Message != w.message {
				t.Errorf("%s: skipped %+v, want %q", c.Name, c.Skipped, w.message)
			}
		}
	}
	if doc.Failures != failures || doc.Skipped != skips {
		t.Errorf("totals failures=%d skipped=%d, cases say %d and %d", doc.Failures, doc.Skipped, failures, skips)
	}
	// The detail and missing features are the failure's text; bad bytes
	// became U+FFFD and markup survived the round trip.
	if c := byName["fails"]; c.Failure == nil || !strings.Contains(c.Failure.Text, "air.fast_acos.f32") || !strings.Contains(c.Failure.Text, "missing: translate/unhandled-intrinsic") {
		t.Errorf("failure text: %+v", c.Failure)
	}
	if c := byName["odd\uFFFD\uFFFDname"]; c.Classname != `c<&">.metallib` || c.Failure == nil || c.Failure.Text != "bad \uFFFD( <tag> & \"q\" \uFFFD\nmessage for translate/unhandled-metadata" {
		t.Errorf("escaping: %+v", c)
	}
	// xmllint (libxml2-utils), when installed, agrees the document is
	// well-formed XML.
	if path, err := exec.LookPath("xmllint"); err == nil {
		cmd := exec.Command(path, "--noout", "-")
		cmd.Stdin = bytes.NewReader(b.Bytes())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("xmllint: %v\n%s", err, out)
		}
	} else {
		t.Log("xmllint not installed; checked with encoding/xml only")
	}
}

func TestWriteJUnitRefusesUnknownStatus(t *testing.T) {
	for _, tc := range []struct{ status, want string }{
		{"exploded", `status "exploded"`},
		{"not-run", "not-run though no earlier stage stopped"},
	} {
		run := junitRun()
		run.Rows[0].setStatus("compile", tc.status, 1)
		var b bytes.Buffer
		err := WriteJUnit(&b, run, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "compile") {
			t.Errorf("status %s: err %v, want one naming %q", tc.status, err, tc.want)
		}
		if b.Len() != 0 {
			t.Errorf("status %s: wrote %d bytes before refusing", tc.status, b.Len())
		}
	}
}

func TestXMLText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"tab\tnl\ncr\r", "tab\tnl\ncr\r"},
		{"nul\x00bel\x07", "nul\uFFFDbel\uFFFD"},
		{"bad\xff\xfe", "bad\uFFFD"},
		{"ok é ✓", "ok é ✓"},
		{"\uFFFE", "\uFFFD"},
	}
	for _, tt := range tests {
		if got := xmlText(tt.in); got != tt.want {
			t.Errorf("xmlText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
