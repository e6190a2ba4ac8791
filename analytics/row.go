// Package analytics holds airpipe's results: the Parquet row schema, the
// run directory writer and reader, and the reports built over runs
// (funnels, ranked missing features, milestones, diffs, trends).
package analytics

// SchemaVersion is the version of Row, stored in every row's
// schema_version column. Bump it (and docs/schema.md) when a column changes
// meaning; adding a column is version-compatible for readers that use
// union_by_name. Version 2 stores data as a MAP; readers read version 1's
// list too.
const SchemaVersion = 2

// StageNames is the canonical order of the stages whose columns every row
// carries. A stage that is not in a run's list has status "" (absent).
var StageNames = []string{"container", "reader", "translate", "compile", "emulator", "device"}

// Finding is one missing feature of a module: a stable failure code and the
// detail naming the missing thing.
type Finding struct {
	Code   string `parquet:"code" json:"code"`
	Detail string `parquet:"detail" json:"detail"`
}

// Row is one module occurrence in one run. Columns are documented in
// docs/schema.md.
type Row struct {
	RunID         string `parquet:"run_id" json:"run_id"`
	RunStarted    int64  `parquet:"run_started,timestamp(millisecond)" json:"run_started"`
	SchemaVersion int32  `parquet:"schema_version" json:"schema_version"`

	Source        string `parquet:"source" json:"source"`
	LibrarySHA256 string `parquet:"library_sha256" json:"library_sha256"`
	Platform      string `parquet:"platform" json:"platform"`
	TargetOS      string `parquet:"target_os" json:"target_os"`
	OSVersion     string `parquet:"os_version" json:"os_version"`
	LibraryType   string `parquet:"library_type" json:"library_type"`
	FormatVersion string `parquet:"format_version" json:"format_version"`
	// ContainerKind says where the library sat: "file", "macho-section",
	// "fat-slice", "cache-blob", "embedded" or "bare-module".
	ContainerKind string `parquet:"container_kind" json:"container_kind"`
	// ContainerOffset is the library's byte offset in its file.
	ContainerOffset int64 `parquet:"container_offset" json:"container_offset"`

	Function        string `parquet:"function" json:"function"`
	FunctionIndex   int32  `parquet:"function_index" json:"function_index"`
	FunctionType    string `parquet:"function_type" json:"function_type"`
	AIRVersion      string `parquet:"air_version" json:"air_version"`
	LanguageVersion string `parquet:"language_version" json:"language_version"`
	BitcodeSHA256   string `parquet:"bitcode_sha256" json:"bitcode_sha256"`
	BitcodeBytes    int64  `parquet:"bitcode_bytes" json:"bitcode_bytes"`

	StageReached   string    `parquet:"stage_reached" json:"stage_reached"`
	FailedStage    string    `parquet:"failed_stage" json:"failed_stage"`
	FailureCode    string    `parquet:"failure_code" json:"failure_code"`
	FailureDetail  string    `parquet:"failure_detail" json:"failure_detail"`
	FailureMessage string    `parquet:"failure_message" json:"failure_message"`
	Missing        []Finding `parquet:"missing,list" json:"missing"`
	Features       []string  `parquet:"features,list" json:"features"`

	ContainerStatus string `parquet:"container_status" json:"container_status"`
	ContainerMS     int64  `parquet:"container_ms" json:"container_ms"`
	ReaderStatus    string `parquet:"reader_status" json:"reader_status"`
	ReaderMS        int64  `parquet:"reader_ms" json:"reader_ms"`
	TranslateStatus string `parquet:"translate_status" json:"translate_status"`
	TranslateMS     int64  `parquet:"translate_ms" json:"translate_ms"`
	CompileStatus   string `parquet:"compile_status" json:"compile_status"`
	CompileMS       int64  `parquet:"compile_ms" json:"compile_ms"`
	EmulatorStatus  string `parquet:"emulator_status" json:"emulator_status"`
	EmulatorMS      int64  `parquet:"emulator_ms" json:"emulator_ms"`
	DeviceStatus    string `parquet:"device_status" json:"device_status"`
	DeviceMS        int64  `parquet:"device_ms" json:"device_ms"`

	// StatusReason is the reason carried by the first stage that ended
	// unjudged, unavailable or skipped (why it was set aside).
	StatusReason  string `parquet:"status_reason" json:"status_reason"`
	CompileTarget string `parquet:"compile_target" json:"compile_target"`
	DeviceName    string `parquet:"device_name" json:"device_name"`
	// Data holds stage facts as "stage.key=value" strings (ISA statistics,
	// tool versions), sorted, one per key. Part files store it as a
	// MAP(VARCHAR, VARCHAR) from "stage.key" to value (fileRow).
	Data []string `parquet:"-" json:"data"`
}
