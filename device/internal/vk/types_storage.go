package vk

// Storage images (device/storage.go).
const (
	ImageUsageStorage         = 0x8
	ImageLayoutGeneral        = 1
	FormatFeatureStorageImage = 0x2
	FormatFeatureTransferSrc  = 0x4000
)
