package cpuref

import "regexp"

// debugInfoVersion matches the module flag that gives the version of the
// module's debug metadata, at LLVM 19's version, 3 (DEBUG_METADATA_VERSION).
var debugInfoVersion = regexp.MustCompile(`(?m)^(![0-9]+ = !\{i32 [0-9]+, !"Debug Info Version", i32 )3\}$`)

// withoutDebugInfo returns the host module with its "Debug Info Version"
// module flag set to 0. LLVM's reader drops all debug info of a module
// whose flag is not the current version as it loads it
// (llvm::UpgradeDebugInfo calls StripDebugInfo, the function behind
// opt --strip-debug, and warns), so llc-19 compiles the module as if
// opt-19 --strip-debug had run first, in one process instead of two: the
// objects are byte-identical. ok is false unless the module states
// version 3 exactly once.
func withoutDebugInfo(host string) (string, bool) {
	loc := debugInfoVersion.FindAllStringSubmatchIndex(host, 2)
	if len(loc) != 1 {
		return host, false
	}
	end := loc[0][3] // the end of the prefix, where the 3 stands
	return host[:end] + "0}" + host[loc[0][1]:], true
}
