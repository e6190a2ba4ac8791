// Package filehash hashes a file's content: the library files the shards
// split, the executable a build key names, an exec stage's tool.
package filehash

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
)

// SHA256 is the SHA-256 of the content of the file at path, in hex; the
// error is opening's or reading's, as os gives it.
func SHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
