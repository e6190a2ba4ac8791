package mtlb

import "fmt"

// parseHeader reads the fixed header of data and checks that the file size
// and every section it declares lie inside data.
func parseHeader(data []byte) (*Library, error) {
	if len(data) < HeaderSize {
		return nil, errorf(0, "header", "0x%x bytes, shorter than the 0x%x-byte header", len(data), HeaderSize)
	}
	if string(data[:4]) != Magic {
		return nil, errorf(0, "header magic", "%q, want %q", data[:4], Magic)
	}
	l := &Library{
		Platform:    le.Uint16(data[4:]),
		FormatMajor: le.Uint16(data[6:]),
		FormatMinor: le.Uint16(data[8:]),
		LibraryType: data[10],
		TargetOS:    data[11],
		OSMajor:     le.Uint16(data[12:]),
		OSMinor:     le.Uint16(data[14:]),
		FileSize:    le.Uint64(data[16:]),
	}
	l.PlatformName = PlatformName(l.Platform)
	l.LibraryTypeName = LibraryTypeName(l.LibraryType)
	l.TargetOSName = TargetOSName(l.TargetOS)
	if l.FileSize < HeaderSize || l.FileSize > uint64(len(data)) {
		return nil, errorf(16, "header file size", "0x%x outside [0x%x, 0x%x] (the bytes present)", l.FileSize, HeaderSize, len(data))
	}
	n := int(l.FileSize)
	secs := []struct {
		name string
		at   int
		sec  *Section
	}{
		{"function list", 24, &l.Sections.FunctionList},
		{"public metadata", 40, &l.Sections.PublicMetadata},
		{"private metadata", 56, &l.Sections.PrivateMetadata},
		{"bitcode", 72, &l.Sections.Bitcode},
	}
	for _, s := range secs {
		*s.sec = Section{Offset: le.Uint64(data[s.at:]), Size: le.Uint64(data[s.at+8:])}
		if s.sec.Offset < HeaderSize {
			return nil, errorf(int64(s.at), "header "+s.name+" section", "offset 0x%x inside the header", s.sec.Offset)
		}
		if _, _, ok := span(s.sec.Offset, s.sec.Size, n); !ok {
			return nil, errorf(int64(s.at), "header "+s.name+" section", "offset 0x%x size 0x%x beyond file size 0x%x", s.sec.Offset, s.sec.Size, n)
		}
	}
	// The function list is a 32-bit count followed by Size bytes of groups.
	fl := l.Sections.FunctionList
	if _, _, ok := span(fl.Offset, fl.Size+4, n); !ok || fl.Size > uint64(n) {
		return nil, errorf(24, "header function list section", "count and 0x%x bytes of groups at 0x%x run past file size 0x%x", fl.Size, fl.Offset, n)
	}
	return l, nil
}

// ValidHeader reports whether data starts with a plausible library: magic
// "MTLB", a file size inside data, every section inside that size and a
// function count that fits its list. It is meant for finding libraries
// embedded in other files; data may run past the library's end.
func ValidHeader(data []byte) bool {
	l, err := parseHeader(data)
	if err != nil {
		return false
	}
	fl := l.Sections.FunctionList
	count := uint64(le.Uint32(data[fl.Offset:]))
	return count*8 <= fl.Size
}

// headerFeatures reports the header's undocumented codes.
func (l *Library) headerFeatures(unknown func(string)) {
	if !knownPlatform(l.Platform) {
		unknown(fmt.Sprintf("container.platform.0x%04x", l.Platform))
	}
	if l.LibraryType > LibrarySymbolCompanion {
		unknown(fmt.Sprintf("container.library_type.%d", l.LibraryType))
	}
	if !documentedTargetOS(l.TargetOS) {
		unknown(fmt.Sprintf("container.target_os.0x%02x", l.TargetOS))
	}
}
