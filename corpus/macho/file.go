package macho

// Kind is the container kind Sniff recognises.
type Kind uint8

// Container kinds.
const (
	KindNone      Kind = iota // not a container this package reads
	KindThin                  // thin Mach-O image
	KindFat                   // classic fat binary (0xcafebabe / 0xcafebabf)
	KindFatMetal              // Metal fat binary (0xcbfebabe)
	KindDyldCache             // dyld shared cache ("dyld_v1")
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case KindThin:
		return "mach-o"
	case KindFat:
		return "fat"
	case KindFatMetal:
		return "metal-fat"
	case KindDyldCache:
		return "dyld-cache"
	}
	return "none"
}

// Sniff reports the container kind data's magic announces, without
// validating anything behind it.
func Sniff(data []byte) Kind {
	if _, _, ok := isThin(data); ok {
		return KindThin
	}
	if isDyldCache(data) {
		return KindDyldCache
	}
	if entry, orders, ok := fatLayout(data); ok {
		if entry == 20 && len(orders) == 2 {
			return KindFatMetal
		}
		return KindFat
	}
	return KindNone
}

// File is a parsed container.
type File struct {
	Kind Kind
	// Slices are a fat binary's slices; a thin image is one slice covering
	// the input. Empty for a dyld cache.
	Slices []Slice
	// Cache is set for a dyld shared cache.
	Cache *Cache
}

// Parse reads whichever container data holds. A thin image's error is
// returned; a fat slice's error stays in its Slice.
func Parse(data []byte) (*File, error) {
	switch k := Sniff(data); k {
	case KindThin:
		im, err := ParseImage(data)
		if err != nil {
			return nil, err
		}
		return &File{Kind: k, Slices: []Slice{{Size: int64(len(data)), CPUType: im.CPUType, CPUSubtype: im.CPUSubtype, Image: im}}}, nil
	case KindFat, KindFatMetal:
		s, err := parseFat(data)
		if err != nil {
			return nil, err
		}
		return &File{Kind: k, Slices: s}, nil
	case KindDyldCache:
		c, err := ParseCache(data)
		if err != nil {
			return nil, err
		}
		return &File{Kind: k, Cache: c}, nil
	}
	return nil, errorf(0, "container magic", "not a Mach-O, fat binary or dyld shared cache")
}
