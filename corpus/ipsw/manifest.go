package ipsw

import (
	"sort"
	"strings"
)

// imageRef is one disk image a manifest names.
type imageRef struct {
	// Name is the image's path inside the .ipsw zip.
	Name string
	// Role names what the image holds: "rootfs", "system-cryptex",
	// "app-cryptex", or the manifest key for others.
	Role string
}

// roleOf maps a BuildManifest Manifest key to a role.
func roleOf(key string) string {
	switch key {
	case "OS":
		return "rootfs"
	case "Cryptex1,SystemOS":
		return "system-cryptex"
	case "Cryptex1,AppOS":
		return "app-cryptex"
	case "RestoreRamDisk":
		return "restore-ramdisk"
	case "UpdateRamDisk":
		return "update-ramdisk"
	}
	return key
}

// diskImage reports whether a manifest path names a disk image (not a
// root hash, trust cache or metadata file that sits next to one).
func diskImage(path string) bool {
	return strings.HasSuffix(path, ".dmg") || strings.HasSuffix(path, ".dmg.aea")
}

// ramdisk reports whether a role is a restore or update ramdisk.
func ramdisk(role string) bool { return strings.Contains(strings.ToLower(role), "ramdisk") }

// manifestImages lists the disk images of a BuildManifest.plist: every
// BuildIdentities[].Manifest.<key>.Info.Path naming a .dmg or .dmg.aea,
// each once, sorted by name.
func manifestImages(root any, withRamdisks bool) []imageRef {
	seen := map[string]imageRef{}
	top, _ := root.(map[string]any)
	ids, _ := top["BuildIdentities"].([]any)
	for _, id := range ids {
		m, _ := id.(map[string]any)
		man, _ := m["Manifest"].(map[string]any)
		for key, v := range man {
			comp, _ := v.(map[string]any)
			info, _ := comp["Info"].(map[string]any)
			p, _ := info["Path"].(string)
			role := roleOf(key)
			if !diskImage(p) || (ramdisk(role) && !withRamdisks) {
				continue
			}
			if _, dup := seen[p]; !dup {
				seen[p] = imageRef{Name: p, Role: role}
			}
		}
	}
	return sortedRefs(seen)
}

// restoreImages lists the disk images of a Restore.plist:
// SystemRestoreImageFileSystems keys and SystemRestoreImages values
// (root filesystems), and RestoreRamDisks values when asked.
func restoreImages(root any, withRamdisks bool) []imageRef {
	seen := map[string]imageRef{}
	top, _ := root.(map[string]any)
	if fs, ok := top["SystemRestoreImageFileSystems"].(map[string]any); ok {
		for p := range fs {
			if diskImage(p) {
				seen[p] = imageRef{Name: p, Role: "rootfs"}
			}
		}
	}
	if imgs, ok := top["SystemRestoreImages"].(map[string]any); ok {
		for _, v := range imgs {
			if p, _ := v.(string); diskImage(p) {
				seen[p] = imageRef{Name: p, Role: "rootfs"}
			}
		}
	}
	if rd, ok := top["RestoreRamDisks"].(map[string]any); ok && withRamdisks {
		for k, v := range rd {
			if p, _ := v.(string); diskImage(p) {
				if _, dup := seen[p]; !dup {
					seen[p] = imageRef{Name: p, Role: strings.ToLower(k) + "-ramdisk"}
				}
			}
		}
	}
	return sortedRefs(seen)
}

func sortedRefs(m map[string]imageRef) []imageRef {
	out := make([]imageRef, 0, len(m))
	for _, r := range m {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// manifestVersion returns ProductVersion and ProductBuildVersion.
func manifestVersion(root any) (version, build string) {
	top, _ := root.(map[string]any)
	version, _ = top["ProductVersion"].(string)
	build, _ = top["ProductBuildVersion"].(string)
	return version, build
}
