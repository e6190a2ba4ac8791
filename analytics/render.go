package analytics

import (
	"encoding/json"
	"fmt"
	"html"
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
	// Details are folded tables (HTML only), e.g. a library's modules.
	Details []Detail
	JSON    any
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

// TextWidth is the widest line the text format prints: tables whose cells
// would make a line wider have their widest text columns cut in the
// middle (--format md, json or html show them whole).
const TextWidth = 100

func renderText(w io.Writer, d *Document) error {
	var b strings.Builder
	b.WriteString(d.Title + "\n")
	b.WriteString(strings.Repeat("=", utf8.RuneCountInString(d.Title)) + "\n")
	for _, h := range d.Header {
		b.WriteString(wrap(h, TextWidth, "  ") + "\n")
	}
	sums, cut := 0, false
	for _, t := range d.Tables {
		b.WriteString("\n" + t.Title + "\n")
		b.WriteString(strings.Repeat("-", utf8.RuneCountInString(t.Title)) + "\n")
		if t.Note != "" {
			b.WriteString(wrap("("+t.Note+")", TextWidth, " ") + "\n")
		}
		if writeAligned(&b, t, TextWidth) {
			cut = true
		}
		sums += len(t.Sums)
	}
	if sums > 0 {
		fmt.Fprintf(&b, "\n(%d totals checked: each table adds up to counts made apart from its rows; --format json has them)\n", sums)
	}
	if cut {
		b.WriteString("(cells marked … were cut to fit 100 columns; --format md, json or html show them whole)\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// wrap breaks s at spaces into lines of at most width characters, later
// lines indented.
func wrap(s string, width int, indent string) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if utf8.RuneCountInString(word) > width-len(indent) {
			word = shorten(word, width-len(indent))
		}
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > width:
			lines = append(lines, line)
			line = indent + word
		default:
			line += " " + word
		}
	}
	return strings.Join(append(lines, line), "\n")
}

// writeAligned writes a table's header and rows with aligned columns:
// numbers right-aligned, text left-aligned. When a line would be wider
// than width, the widest text columns are cut (shorten) until it fits or
// they are 12 characters wide; it reports whether it cut any cell.
func writeAligned(b *strings.Builder, t *Table, width int) bool {
	widths := make([]int, len(t.Columns))
	for i, c := range t.Columns {
		widths[i] = utf8.RuneCountInString(c)
	}
	for _, row := range t.Rows {
		for i, v := range row {
			if n := utf8.RuneCountInString(cellText(v)); n > widths[i] {
				widths[i] = n
			}
		}
	}
	right := make([]bool, len(t.Columns))
	for _, row := range t.Rows {
		for i, v := range row {
			if isNumber(v) {
				right[i] = true
			}
		}
	}
	total := func() int {
		n := 2 * (len(widths) - 1)
		for _, w := range widths {
			n += w
		}
		return n
	}
	cut := false
	lead := 0
	for lead < len(right)-1 && !right[lead] {
		lead++
	}
	allNumbers, restWidth := true, 0
	for i := lead; i < len(right); i++ {
		allNumbers = allNumbers && right[i]
		restWidth += widths[i] + 2
	}
	if total() > width && lead > 0 && allNumbers && restWidth <= 24 {
		// A few counts and a long description (a reason): the counts
		// first, the text after them, cut to the line.
		perm := make([]int, 0, len(t.Columns))
		for i := lead; i < len(t.Columns); i++ {
			perm = append(perm, i)
		}
		for i := 0; i < lead; i++ {
			perm = append(perm, i)
		}
		sub := &Table{}
		for _, i := range perm {
			sub.Columns = append(sub.Columns, t.Columns[i])
		}
		for _, row := range t.Rows {
			r := make([]any, len(perm))
			for j, i := range perm {
				r[j] = row[i]
			}
			sub.Rows = append(sub.Rows, r)
		}
		return writeAligned(b, sub, width)
	}
	if total() > width && lead > 0 {
		// The leading text columns (a library path, a code and detail)
		// are too wide: each row names them on a line of their own, the
		// rest of its cells on the next, indented.
		sub := &Table{Columns: t.Columns[lead:]}
		for _, row := range t.Rows {
			sub.Rows = append(sub.Rows, row[lead:])
		}
		var rest strings.Builder
		cut = writeAligned(&rest, sub, width-2)
		lines := strings.Split(strings.TrimSuffix(rest.String(), "\n"), "\n")
		b.WriteString(strings.Join(t.Columns[:lead], " / ") + "\n")
		b.WriteString("  " + lines[0] + "\n  " + lines[1] + "\n")
		if len(t.Rows) == 0 {
			b.WriteString("(none)\n")
		}
		for i, row := range t.Rows {
			var keys []string
			for _, v := range row[:lead] {
				if c := cellText(v); c != "" {
					keys = append(keys, c)
				}
			}
			key := strings.Join(keys, "  ")
			if utf8.RuneCountInString(key) > width {
				key, cut = shorten(key, width), true
			}
			b.WriteString(key + "\n  " + lines[2+i] + "\n")
		}
		return cut
	}
	for total() > width {
		wi := -1
		for i := range widths {
			if !right[i] && widths[i] > 12 && (wi < 0 || widths[i] > widths[wi]) {
				wi = i
			}
		}
		if wi < 0 {
			break
		}
		// Cut the widest down towards the next widest, so that long
		// columns share the cut.
		next := 12
		for i := range widths {
			if i != wi && !right[i] && widths[i] > next && widths[i] < widths[wi] {
				next = widths[i]
			}
		}
		widths[wi] = max(next, widths[wi]-(total()-width), 12)
		if next == widths[wi] && next > 12 {
			widths[wi]--
		}
	}
	line := func(cells []string) {
		var parts []string
		for i, c := range cells {
			if n := utf8.RuneCountInString(c); n > widths[i] {
				c = shorten(c, widths[i])
				cut = true
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if right[i] {
				parts = append(parts, pad+c)
			} else {
				parts = append(parts, c+pad)
			}
		}
		b.WriteString(strings.TrimRight(strings.Join(parts, "  "), " ") + "\n")
	}
	line(t.Columns)
	dashes := make([]string, len(t.Columns))
	for i := range dashes {
		dashes[i] = strings.Repeat("-", widths[i])
	}
	line(dashes)
	if len(t.Rows) == 0 {
		b.WriteString("(none)\n")
	}
	for _, row := range t.Rows {
		cells := make([]string, len(row))
		for i, v := range row {
			cells[i] = cellText(v)
		}
		line(cells)
	}
	return cut
}

// mdRows is how many rows a Markdown table shows; the rest are counted in
// one line (a pull-request comment stays short).
const mdRows = 40

// renderMarkdown writes GitHub-flavoured Markdown for a pull-request
// comment: the header as a list, short tables open, tables of more than
// ten rows folded in <details>, numbers right-aligned, the checks in one
// closing line.
func renderMarkdown(w io.Writer, d *Document) error {
	var b strings.Builder
	b.WriteString("### " + d.Title + "\n\n")
	for _, h := range d.Header {
		b.WriteString("- " + mdEscape(h) + "\n")
	}
	sums := 0
	for _, t := range d.Tables {
		sums += len(t.Sums)
		fold := len(t.Rows) > 10
		if fold {
			fmt.Fprintf(&b, "\n<details><summary><b>%s</b> (%d rows)</summary>\n\n", html.EscapeString(t.Title), len(t.Rows))
		} else {
			b.WriteString("\n**" + mdEscape(t.Title) + "**\n\n")
		}
		if t.Note != "" {
			b.WriteString("_" + mdEscape(t.Note) + "_\n\n")
		}
		right := make([]bool, len(t.Columns))
		for _, row := range t.Rows {
			for i, v := range row {
				if isNumber(v) {
					right[i] = true
				}
			}
		}
		b.WriteString("| " + strings.Join(mdCells(t.Columns), " | ") + " |\n|")
		for i := range t.Columns {
			if right[i] {
				b.WriteString("---:|")
			} else {
				b.WriteString("---|")
			}
		}
		b.WriteString("\n")
		if len(t.Rows) == 0 {
			b.WriteString("| (none) |" + strings.Repeat(" |", len(t.Columns)-1) + "\n")
		}
		for i, row := range t.Rows {
			if i == mdRows {
				fmt.Fprintf(&b, "\n%d more rows (`--format html` or `json` has them all).\n", len(t.Rows)-mdRows)
				break
			}
			cells := make([]string, len(row))
			for i, v := range row {
				cells[i] = mdEscape(cellText(v))
			}
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		}
		if fold {
			b.WriteString("\n</details>\n")
		}
	}
	if sums > 0 {
		fmt.Fprintf(&b, "\n<sub>%d totals checked: every table adds up to counts made apart from its rows.</sub>\n", sums)
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
