package mtlb

import "fmt"

// parseExtension reads the header extension. It is present only when the
// function list's end plus 4 is not the public metadata offset.
func (p *parser) parseExtension() error {
	fl := p.lib.Sections.FunctionList
	start := fl.Offset + fl.Size + 4
	if start == p.lib.Sections.PublicMetadata.Offset {
		return nil
	}
	tags, _, err := readTags(p.data, int(start), len(p.data), 2, "header extension")
	if err != nil {
		return err
	}
	ext := &Extension{Offset: int64(start), Tags: tags}
	for _, t := range tags {
		construct := "header extension tag " + printableTag(t.Name)
		var sec **Section
		switch t.Name {
		case "HDYN":
			sec = &ext.Dynamic
		case "VLST":
			sec = &ext.Variables
		case "ILST":
			sec = &ext.Imported
		case "HSRC", "HSRD":
			sec = &ext.Source
			ext.SourceTag = t.Name
		case "RLST":
			sec = &ext.Reflection
			p.note("container.tag.RLST")
		case "UUID":
			if len(t.Data) != 16 {
				return errorf(t.Offset, construct, "content size 0x%x, want 0x10", len(t.Data))
			}
			ext.UUID = formatUUID(t.Data)
		default:
			p.note("container.tag." + printableTag(t.Name))
		}
		if sec == nil {
			continue
		}
		if len(t.Data) != 16 {
			return errorf(t.Offset, construct, "content size 0x%x, want 0x10", len(t.Data))
		}
		s := Section{Offset: le.Uint64(t.Data), Size: le.Uint64(t.Data[8:])}
		if _, _, ok := span(s.Offset, s.Size, len(p.data)); !ok || s.Offset < HeaderSize {
			return errorf(t.Offset, construct, "section offset 0x%x size 0x%x outside the header..file size 0x%x", s.Offset, s.Size, len(p.data))
		}
		*sec = &s
	}
	p.lib.Extension = ext
	return nil
}

// parseExtensionSections reads the sections the extension locates.
func (p *parser) parseExtensionSections() error {
	ext := p.lib.Extension
	if ext == nil {
		return nil
	}
	var err error
	if ext.Dynamic != nil {
		if p.lib.Dynamic, err = p.parseDynamic(*ext.Dynamic); err != nil {
			return err
		}
	}
	if ext.Variables != nil {
		if p.lib.Variables, err = p.groupList(*ext.Variables, "variable list", 2); err != nil {
			return err
		}
	}
	if ext.Imported != nil {
		if p.lib.ImportedSymbols, err = p.groupList(*ext.Imported, "imported symbol list", 2); err != nil {
			return err
		}
	}
	if ext.Reflection != nil {
		if p.lib.Reflection, err = p.groupList(*ext.Reflection, "reflection list", 4); err != nil {
			return err
		}
	}
	if ext.Source != nil {
		if p.lib.Source, err = p.parseSource(*ext.Source, ext.SourceTag); err != nil {
			return err
		}
	}
	return nil
}

// parseDynamic reads the dynamic header: a tag list with the install NAME
// and one DYNL per linked library.
func (p *parser) parseDynamic(sec Section) (*DynamicHeader, error) {
	start, end := int(sec.Offset), int(sec.Offset+sec.Size)
	tags, _, err := readTags(p.data, start, end, 2, "dynamic header")
	if err != nil {
		return nil, err
	}
	d := &DynamicHeader{Tags: tags}
	for i := range tags {
		t := &tags[i]
		switch t.Name {
		case "NAME", "DYNL":
			s, _, ok := cString(t.Data)
			if !ok {
				return nil, errorf(t.Offset, "dynamic header tag "+t.Name, "text is not NUL-terminated")
			}
			t.Value = s
			if t.Name == "NAME" {
				d.InstallName = s
			} else {
				d.Libraries = append(d.Libraries, s)
			}
		default:
			p.note("container.tag." + printableTag(t.Name))
		}
	}
	return d, nil
}

// groupList reads a list laid out like the function list: a 32-bit count,
// then that many tag groups. Its tags are undocumented and reported. The
// undocumented RLST list has 32-bit tag sizes (its RBUF tags are large).
func (p *parser) groupList(sec Section, construct string, sizeWidth int) ([]TagGroup, error) {
	start, end := int(sec.Offset), int(sec.Offset+sec.Size)
	if end-start < 4 {
		return nil, errorf(int64(start), construct, "section size 0x%x has no room for its count", sec.Size)
	}
	count := int64(le.Uint32(p.data[start:]))
	if count*8 > int64(end-start-4) {
		return nil, errorf(int64(start), construct+" count", "%d groups cannot fit in 0x%x bytes", count, end-start-4)
	}
	groups := make([]TagGroup, 0, count)
	off := start + 4
	for i := range int(count) {
		tags, next, err := readGroup(p.data, off, end, sizeWidth, fmt.Sprintf("%s[%d]", construct, i))
		if err != nil {
			return nil, err
		}
		for _, t := range tags {
			p.note("container.tag." + printableTag(t.Name))
		}
		groups = append(groups, TagGroup{Offset: int64(off), Tags: tags})
		off = next
	}
	return groups, nil
}

// formatUUID renders 16 bytes in the canonical 8-4-4-4-12 form.
func formatUUID(u []byte) string {
	return fmt.Sprintf("%X-%X-%X-%X-%X", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}
