package cpuref

import (
	"regexp"
	"strings"
)

// debugInfoVersion matches the module flag line that gives the version of
// the module's debug metadata, at LLVM 19's version, 3
// (DEBUG_METADATA_VERSION).
var debugInfoVersion = regexp.MustCompile(`^(![0-9]+ = !\{i32 [0-9]+, !"Debug Info Version", i32 )3\}$`)

// debugInfoVersionWords is what every debugInfoVersion line holds: the
// lines to test are found by it, not by running the regexp over the module.
const debugInfoVersionWords = `, !"Debug Info Version", i32 3}`

// withoutDebugInfo returns the host module with its "Debug Info Version"
// module flag set to 0. LLVM's reader drops all debug info of a module
// whose flag is not the current version as it loads it
// (llvm::UpgradeDebugInfo calls StripDebugInfo, the function behind
// opt --strip-debug, and warns), so llc-19 compiles the module as if
// opt-19 --strip-debug had run first, in one process instead of two: the
// objects are byte-identical. ok is false unless the module states
// version 3 exactly once.
func withoutDebugInfo(host string) (string, bool) {
	end, found := -1, 0 // end: where the 3 of the one flag line stands
	for from := 0; ; {
		i := strings.Index(host[from:], debugInfoVersionWords)
		if i < 0 {
			break
		}
		i += from
		start := strings.LastIndexByte(host[:i], '\n') + 1
		stop := strings.IndexByte(host[i:], '\n')
		if stop < 0 {
			stop = len(host)
		} else {
			stop += i
		}
		if loc := debugInfoVersion.FindStringSubmatchIndex(host[start:stop]); loc != nil {
			found++
			end = start + loc[3]
		}
		from = stop
	}
	if found != 1 {
		return host, false
	}
	return host[:end] + "0}" + host[end+2:], true
}
