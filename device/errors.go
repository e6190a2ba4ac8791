package device

import (
	"errors"
	"fmt"

	"github.com/airpipe/airpipe/device/internal/vk"
)

var (
	// ErrUnavailable is wrapped by every error that means "this machine cannot do it": no
	// loader, no such driver, no such device. Stages report it as unavailable, not failed.
	ErrUnavailable = errors.New("device: unavailable")
	// ErrNoVulkan is wrapped, with the dynamic linker's message, when the Vulkan loader cannot
	// be opened. It also matches ErrUnavailable.
	ErrNoVulkan = fmt.Errorf("%w: no Vulkan loader", ErrUnavailable)
	// ErrInvalidArgument is matched (errors.Is) by every *ArgumentError.
	ErrInvalidArgument = errors.New("device: invalid argument")
	// ErrStopped is returned by calls made once Stop has begun.
	ErrStopped = errors.New("device: stopped")
	// ErrLost is matched (errors.Is) by every *LostError.
	ErrLost = errors.New("device: lost")
)

// DriverError is a Vulkan call that returned a failure.
type DriverError struct {
	Call    string // the Vulkan function, e.g. "vkCreateComputePipelines"
	Result  int32  // its VkResult
	Message string // what the driver reported during the call (VK_EXT_debug_report), or ""
}

func (e *DriverError) Error() string {
	if e.Message != "" {
		return fmt.Sprintf("%s: %s: %s", e.Call, vk.Result(e.Result), e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Call, vk.Result(e.Result))
}

// ResultName is the VkResult's name, such as VK_ERROR_UNKNOWN.
func (e *DriverError) ResultName() string { return vk.Result(e.Result).String() }

func check(call string, r vk.Result) error {
	if r < 0 {
		return &DriverError{Call: call, Result: int32(r)}
	}
	return nil
}

// ArgumentError is a misuse of the agreement by its caller (seed 001's Invalid_argument): the
// call changed nothing. Errors that are not ArgumentErrors are the device's (seed 001's Error).
type ArgumentError struct {
	Func   string // the call, e.g. "ICB"
	Index  int    // the dispatch or element concerned, or -1
	Reason string
}

func (e *ArgumentError) Error() string {
	if e.Index >= 0 {
		return fmt.Sprintf("device: %s: invalid argument: element %d: %s", e.Func, e.Index, e.Reason)
	}
	return fmt.Sprintf("device: %s: invalid argument: %s", e.Func, e.Reason)
}

// Is makes errors.Is(err, ErrInvalidArgument) true.
func (e *ArgumentError) Is(target error) bool { return target == ErrInvalidArgument }

func argErr(fn string, index int, format string, args ...any) error {
	return &ArgumentError{Func: fn, Index: index, Reason: fmt.Sprintf(format, args...)}
}

// LostError says the device is lost and why; every later call on the device returns it.
type LostError struct {
	Reason error
}

func (e *LostError) Error() string { return "device: lost: " + e.Reason.Error() }

// Unwrap gives the reason.
func (e *LostError) Unwrap() error { return e.Reason }

// Is makes errors.Is(err, ErrLost) true.
func (e *LostError) Is(target error) bool { return target == ErrLost }
