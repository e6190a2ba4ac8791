package mtlb

// HeaderSize is the size of the fixed library header.
const HeaderSize = 88

// Magic is the four bytes every library starts with.
const Magic = "MTLB"

// Section is an (offset, size) pair from the header or its extension.
// Offsets are from the start of the library.
type Section struct {
	Offset uint64 `json:"offset"`
	Size   uint64 `json:"size"`
}

// Sections are the four sections the fixed header locates.
type Sections struct {
	FunctionList    Section `json:"function_list"`
	PublicMetadata  Section `json:"public_metadata"`
	PrivateMetadata Section `json:"private_metadata"`
	Bitcode         Section `json:"bitcode"`
}

// Library is one parsed Metal library.
type Library struct {
	Platform        uint16 `json:"platform"`
	PlatformName    string `json:"platform_name"`
	FormatMajor     uint16 `json:"format_major"`
	FormatMinor     uint16 `json:"format_minor"`
	LibraryType     uint8  `json:"library_type"`
	LibraryTypeName string `json:"library_type_name"`
	TargetOS        uint8  `json:"target_os"`
	TargetOSName    string `json:"target_os_name"`
	OSMajor         uint16 `json:"os_major"`
	OSMinor         uint16 `json:"os_minor"`
	// FileSize is the header's size field; the library is data[:FileSize].
	FileSize uint64 `json:"file_size"`
	// TrailingBytes counts input bytes after FileSize (not part of the library).
	TrailingBytes int64    `json:"trailing_bytes,omitempty"`
	Sections      Sections `json:"sections"`

	Functions []Function `json:"functions"`

	// Extension is the header extension; nil in older libraries that have none.
	Extension *Extension `json:"extension,omitempty"`
	// Dynamic is the dynamic header (HDYN): install name and linked libraries.
	Dynamic *DynamicHeader `json:"dynamic,omitempty"`
	// Variables are the exported variables (VLST), one tag group each.
	Variables []TagGroup `json:"variables,omitempty"`
	// ImportedSymbols are the imported symbols (ILST), one tag group each.
	ImportedSymbols []TagGroup `json:"imported_symbols,omitempty"`
	// Reflection holds the undocumented RLST list, one tag group each.
	Reflection []TagGroup `json:"reflection,omitempty"`

	// PublicMetadata and PrivateMetadata are the tags of every metadata tag
	// group some function points to, in function order, each group once.
	PublicMetadata  []Tag `json:"public_metadata,omitempty"`
	PrivateMetadata []Tag `json:"private_metadata,omitempty"`

	// Source is the embedded source section (HSRC/HSRD); nil when absent.
	Source *Source `json:"source,omitempty"`

	// Unknown names every undocumented thing found, once each, sorted:
	// "container.tag.RFLT", "container.target_os.0x8b",
	// "container.function_type.7", ...
	Unknown []string `json:"unknown,omitempty"`
}

// TagGroup is one tag group of a list laid out like the function list.
type TagGroup struct {
	Offset int64 `json:"offset"`
	Tags   []Tag `json:"tags"`
}

// Extension is the header extension: a tag list after the function list.
type Extension struct {
	Offset int64 `json:"offset"`
	// Dynamic, Variables, Imported and Source locate the sections named by
	// HDYN, VLST, ILST and HSRC/HSRD; nil when the tag is absent.
	Dynamic   *Section `json:"dynamic,omitempty"`
	Variables *Section `json:"variables,omitempty"`
	Imported  *Section `json:"imported,omitempty"`
	Source    *Section `json:"source,omitempty"`
	// SourceTag is "HSRC" or "HSRD" when Source is set.
	SourceTag string `json:"source_tag,omitempty"`
	// Reflection locates the undocumented RLST list.
	Reflection *Section `json:"reflection,omitempty"`
	// UUID is the library's UUID in canonical text form, "" when absent.
	UUID string `json:"uuid,omitempty"`
	// Tags are all extension tags in order, unknown ones included.
	Tags []Tag `json:"tags"`
}

// DynamicHeader is the dynamic header section (HDYN).
type DynamicHeader struct {
	InstallName string   `json:"install_name"`
	Libraries   []string `json:"libraries,omitempty"`
	Tags        []Tag    `json:"tags"`
}
