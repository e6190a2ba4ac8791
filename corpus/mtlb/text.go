package mtlb

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
)

// hexPreview caps how many content bytes a text dump shows for a raw tag.
const hexPreview = 48

// WriteText writes a human-readable listing of everything the library holds:
// header, sections, extension, dynamic header, lists, each function with all
// its tags and metadata, embedded source archives and undocumented features.
func (l *Library) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	p("library\n")
	p("  platform        0x%04x %s\n", l.Platform, l.PlatformName)
	p("  format version  %d.%d\n", l.FormatMajor, l.FormatMinor)
	p("  library type    0x%02x %s\n", l.LibraryType, l.LibraryTypeName)
	p("  target OS       0x%02x %s %d.%d\n", l.TargetOS, l.TargetOSName, l.OSMajor, l.OSMinor)
	p("  file size       0x%x (%d)\n", l.FileSize, l.FileSize)
	if l.TrailingBytes > 0 {
		p("  trailing bytes  %d (after the file size)\n", l.TrailingBytes)
	}
	p("sections\n")
	for _, s := range []struct {
		name string
		sec  Section
	}{
		{"function list", l.Sections.FunctionList},
		{"public metadata", l.Sections.PublicMetadata},
		{"private metadata", l.Sections.PrivateMetadata},
		{"bitcode", l.Sections.Bitcode},
	} {
		p("  %-17s offset 0x%x size 0x%x\n", s.name, s.sec.Offset, s.sec.Size)
	}
	if e := l.Extension; e != nil {
		p("header extension at 0x%x\n", e.Offset)
		writeTags(p, "  ", e.Tags)
	} else {
		p("header extension: none\n")
	}
	if d := l.Dynamic; d != nil {
		p("dynamic header: install name %q\n", d.InstallName)
		for _, lib := range d.Libraries {
			p("  links %q\n", lib)
		}
	}
	writeGroups(p, "variables", l.Variables)
	writeGroups(p, "imported symbols", l.ImportedSymbols)
	writeGroups(p, "reflection (RLST)", l.Reflection)
	p("functions: %d\n", len(l.Functions))
	for i := range l.Functions {
		writeFunction(p, &l.Functions[i])
	}
	if s := l.Source; s != nil {
		p("embedded source (%s) offset 0x%x size 0x%x\n", s.Tag, s.Offset, s.Size)
		p("  link options %q\n", s.LinkOptions)
		if s.Tag == "HSRD" {
			p("  working dir  %q\n", s.WorkingDir)
		}
		for _, a := range s.Archives {
			p("  archive %q at source+0x%x: %d bytes bzip2, %d entries\n", a.ID, a.RelOffset, a.CompressedBytes, len(a.Entries))
			for _, e := range a.Entries {
				p("    %06o %8d %s\n", e.Mode, e.Size, e.Name)
			}
			if a.Problem != "" {
				p("    problem: %s\n", a.Problem)
			}
		}
	}
	if len(l.Unknown) > 0 {
		p("undocumented: %s\n", strings.Join(l.Unknown, " "))
	}
	return bw.Flush()
}

// writeFunction lists one function.
func writeFunction(p func(string, ...any), f *Function) {
	p("  [%d] %s (%s) at 0x%x\n", f.Index, f.Name, f.TypeName(), f.Offset)
	if f.HasVersion {
		p("      AIR %d.%d, language %d.%d\n", f.AIRMajor, f.AIRMinor, f.LangMajor, f.LangMinor)
	}
	p("      bitcode offset 0x%x size 0x%x (MDSZ %v), sha256 %s, hash matches: %v\n",
		f.BitcodeOffset, f.BitcodeSize, f.HasMDSZ, f.BitcodeSHA256(), f.HashMatches())
	if f.SourceArchive != "" {
		p("      source archive %q\n", f.SourceArchive)
	}
	if f.Reflection != nil {
		p("      reflection group %d\n", *f.Reflection)
	}
	if len(f.Unknown) > 0 {
		p("      undocumented: %s\n", strings.Join(f.Unknown, " "))
	}
	if f.Problem != nil {
		p("      problem: %v\n", f.Problem)
	}
	p("      tags\n")
	writeTags(p, "        ", f.Tags)
	if len(f.PublicMetadata) > 0 {
		p("      public metadata (+0x%x)\n", f.PublicMDOffset)
		writeTags(p, "        ", f.PublicMetadata)
	}
	if len(f.PrivateMetadata) > 0 {
		p("      private metadata (+0x%x)\n", f.PrivateMDOffset)
		writeTags(p, "        ", f.PrivateMetadata)
	}
}

// writeGroups lists a tag-group list.
func writeGroups(p func(string, ...any), name string, groups []TagGroup) {
	if len(groups) == 0 {
		return
	}
	p("%s: %d\n", name, len(groups))
	for i, g := range groups {
		p("  [%d] at 0x%x\n", i, g.Offset)
		writeTags(p, "    ", g.Tags)
	}
}

// writeTags lists tags, one a line.
func writeTags(p func(string, ...any), indent string, tags []Tag) {
	for _, t := range tags {
		p("%s%s %5d  %s\n", indent, printableTag(t.Name), t.Size, tagText(t))
	}
}

// valueText renders a decoded metadata value for people, one entry after
// another: "k Float index 2 required" (CNST), "pos index 0 raw 0x8000"
// (VATT), type names (VATY), quoted paths (DEPF).
func valueText(v any) string {
	var parts []string
	switch x := v.(type) {
	case []FunctionConstant:
		for _, c := range x {
			req := "optional"
			if c.Required {
				req = "required"
			}
			parts = append(parts, fmt.Sprintf("%s %s index %d %s", c.Name, c.TypeName, c.Index, req))
		}
	case []VertexAttribute:
		for _, a := range x {
			parts = append(parts, fmt.Sprintf("%s index %d raw 0x%x", a.Name, a.Index, a.Raw))
		}
	case []string:
		for _, s := range x {
			parts = append(parts, fmt.Sprintf("%q", s))
		}
	default:
		return fmt.Sprint(v)
	}
	if len(parts) == 0 {
		return "(none)"
	}
	return strings.Join(parts, "; ")
}

// tagText renders a tag's content: its decoded value, the meaning of the
// fixed function and extension tags, or a hex preview.
func tagText(t Tag) string {
	if t.Value != nil {
		return valueText(t.Value)
	}
	d := t.Data
	switch {
	case t.Name == "NAME" || t.Name == "DYNL":
		if s, _, ok := cString(d); ok {
			return fmt.Sprintf("%q", s)
		}
	case t.Name == "TYPE" && len(d) == 1:
		return FunctionTypeName(d[0])
	case t.Name == "OFFT" && len(d) == 24:
		return fmt.Sprintf("public 0x%x private 0x%x bitcode 0x%x", le.Uint64(d), le.Uint64(d[8:]), le.Uint64(d[16:]))
	case t.Name == "VERS" && len(d) == 8:
		return fmt.Sprintf("AIR %d.%d language %d.%d", le.Uint16(d), le.Uint16(d[2:]), le.Uint16(d[4:]), le.Uint16(d[6:]))
	case (t.Name == "MDSZ" || t.Name == "SOFF" || t.Name == "RFLT") && len(d) == 8:
		return fmt.Sprintf("0x%x", le.Uint64(d))
	case t.Name == "UUID" && len(d) == 16:
		return formatUUID(d)
	case t.Name == "LAYR" && len(d) == 1:
		return DataTypeName(d[0])
	case t.Name == "TESS" && len(d) == 1:
		return fmt.Sprintf("control points %d, patch type %d", d[0]>>2, d[0]&3)
	case len(d) == 16 && (t.Name == "HDYN" || t.Name == "VLST" || t.Name == "ILST" || t.Name == "HSRC" || t.Name == "HSRD" || t.Name == "RLST"):
		return fmt.Sprintf("offset 0x%x size 0x%x", le.Uint64(d), le.Uint64(d[8:]))
	}
	if len(d) > hexPreview {
		return hex.EncodeToString(d[:hexPreview]) + "..."
	}
	return hex.EncodeToString(d)
}
