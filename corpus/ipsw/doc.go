// Package ipsw reads Apple firmware (.ipsw zip archives) without mounting
// anything: it names the disk images from BuildManifest.plist (or
// Restore.plist), refuses encrypted (AEA), oversized and unsafely named
// ones by name, and extracts from each image, with 7-Zip (Debian
// p7zip-full), only the files that can hold shaders (see [Candidate] and
// [Holds]) into a content-addressed cache directory. An image already
// extracted (same bytes, by SHA-256 computed while inflating them, and
// same filter version) is not extracted again; every cached object is
// checked against its SHA-256 before use, and 7-Zip is killed once the
// bytes it wrote pass Options.MaxExtractBytes, whatever sizes the image
// lists.
//
// Each [File] carries a provenance path naming every layer, for example
// "iPhone.ipsw!/078-12345.dmg!/System/Library/Foo/default.metallib"; the
// caller scans those files (corpus/scan) for libraries and modules.
//
// 7-Zip runs as a child process in its own process group with a timeout;
// on timeout or cancellation the whole group is killed. Its error output is
// kept up to a cap for messages.
//
// Image formats exercised by the tests: ISO 9660 with Rock Ridge
// (genisoimage), squashfs (mksquashfs), an MBR-partitioned disk holding an
// ISO, and the real Apple images of ../shared/fixtures/images: UDIF (every
// chunk type) over GPT, APM and MBR, raw and UDIF-wrapped APFS and HFS+ /
// HFSX, and an encrypted APFS container; plus UDIF and GPT written by
// ipswtest around fixtures with libraries planted in place. 7-Zip's
// defects on those formats are guarded here: HFS+ hard links (listed as
// empty files) are resolved through the catalog to their private-data
// inode, APFS sparse files whose holes 7-Zip fills with container blocks
// are refused, and symbolic links are resolved against the image root.
// docs/firmware.md has the details.
package ipsw
