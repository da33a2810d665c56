//go:build windows

package prompt

import "os"

// notifyResize hears nothing on Windows, which has no SIGWINCH: the size
// is read while no key comes (see followWinSize).
func notifyResize() (<-chan os.Signal, func()) { return nil, func() {} }
