// Package buildkey names the airpipe binary that computes cached content,
// so that every cache whose entries a build computes (stage outcomes, CPU
// references, firmware indexes) is keyed on it.
package buildkey

import (
	"crypto/rand"
	"fmt"
	"os"
	"runtime/debug"
	"sync"

	"github.com/airpipe/airpipe/internal/filehash"
)

// Key names the airpipe binary that computes cached content, for
// every cache whose entries a build computes (stage outcomes, CPU
// references): a rebuilt binary must never reuse another build's verdicts.
// A build stamped with a clean VCS revision is named by it
// ("vcs:<revision>"); a build without VCS information, or from a checkout
// with uncommitted changes, by the SHA-256 of its executable
// ("exe:<sha256>"). When the executable cannot be read the key is unique
// to the process, so nothing is shared with it and nothing it wrote is
// reused.
func Key() string {
	buildKeyOnce.Do(func() {
		bi, _ := debug.ReadBuildInfo()
		buildKey = keyFrom(bi, os.Executable)
	})
	return buildKey
}

var (
	buildKeyOnce sync.Once
	buildKey     string
)

// keyFrom is Key from build information and a way to find the
// executable.
func keyFrom(bi *debug.BuildInfo, executable func() (string, error)) string {
	var rev string
	modified := false
	if bi != nil {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if rev != "" && !modified {
		return "vcs:" + rev
	}
	if sum, err := executableSHA256(executable); err == nil {
		return "exe:" + sum
	}
	return fmt.Sprintf("process:%d:%s", os.Getpid(), rand.Text())
}

func executableSHA256(executable func() (string, error)) (string, error) {
	p, err := executable()
	if err != nil {
		return "", err
	}
	return filehash.SHA256(p)
}
