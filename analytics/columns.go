package analytics

// Column documents one Parquet column of Row: its name, its type as arrow
// and DuckDB readers see it, and its meaning. docs/schema.md carries the
// same table; a test checks the two agree, and that arrow reads exactly
// these names and types.
type Column struct {
	Name    string
	Type    string
	Meaning string
}

// Columns lists the columns of a part file (schema version 2) in order.
var Columns = []Column{
	{"run_id", "string", "the run's ID (also its directory name)"},
	{"run_started", "timestamp[ms, UTC]", "when the run started"},
	{"schema_version", "int32", "version of this schema (SchemaVersion)"},
	{"source", "string", "provenance path of the library, e.g. x.ipsw!/rootfs.dmg!/System/…/default.metallib"},
	{"library_sha256", "string", "SHA-256 of the whole library file (hex)"},
	{"platform", "string", "MTLB platform (macOS, iOS, …)"},
	{"target_os", "string", "target OS of the library header"},
	{"os_version", "string", "target OS version, major.minor"},
	{"library_type", "string", "MTLB library type (executable, core image, dynamic, symbol companion)"},
	{"format_version", "string", "MTLB file format version, major.minor"},
	{"container_kind", "string", "where the library sat: file, macho-section, fat-slice, cache-blob, embedded or bare-module"},
	{"container_offset", "int64", "byte offset of the library in its file"},
	{"function", "string", "function name (NAME tag)"},
	{"function_index", "int32", "index of the function in the library's function list"},
	{"function_type", "string", "function type (vertex, fragment, kernel, visible, …; unknown codes as type.N)"},
	{"air_version", "string", "AIR version of the module (VERS tag)"},
	{"language_version", "string", "Metal language version of the module (VERS tag)"},
	{"bitcode_sha256", "string", "SHA-256 of the function's bitcode slice (hex); identical bitcode is processed once per run"},
	{"bitcode_bytes", "int64", "size of the bitcode slice in bytes"},
	{"stage_reached", "string", "last stage of the unbroken run of passes from the start; \"\" when none passed"},
	{"failed_stage", "string", "stage that failed (status failed); \"\" when none failed"},
	{"failure_code", "string", "stable failure code of the failed stage (docs/codes.md)"},
	{"failure_detail", "string", "names the missing or broken thing (air.fast_acos.f32, FUNCTION_BLOCK/INST_SWITCH)"},
	{"failure_message", "string", "human message; never used for grouping"},
	{"missing", "list<struct<code: string, detail: string>>", "every missing feature the failing stage found, not only the first"},
	{"features", "list<string>", "the module's feature inventory"},
	{"container_status", "string", "container stage outcome: passed, failed, unjudged, unavailable, not-run, skipped; \"\" when the stage was not in the run"},
	{"container_ms", "int64", "container stage wall time, milliseconds"},
	{"reader_status", "string", "reader stage outcome (as container_status)"},
	{"reader_ms", "int64", "reader stage wall time, milliseconds"},
	{"translate_status", "string", "translate stage outcome"},
	{"translate_ms", "int64", "translate stage wall time, milliseconds"},
	{"compile_status", "string", "compile stage outcome"},
	{"compile_ms", "int64", "compile stage wall time, milliseconds"},
	{"emulator_status", "string", "emulator stage outcome"},
	{"emulator_ms", "int64", "emulator stage wall time, milliseconds"},
	{"device_status", "string", "device stage outcome"},
	{"device_ms", "int64", "device stage wall time, milliseconds"},
	{"status_reason", "string", "reason carried by the first stage that ended unjudged, unavailable or skipped"},
	{"compile_target", "string", "driver(s) the compile stage used (e.g. radv-navi21, lavapipe)"},
	{"device_name", "string", "GPU the device stage ran on"},
	{"data", "map<string, string>", "stage facts keyed \"stage.key\" (ISA statistics, tool versions): data['compile.radv-navi21.VGPRs']"},
}
