package term

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY returns the terminal side of a new pseudo-terminal.
func openPTY(t *testing.T) *os.File {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pts.Close() })
	return pts
}

// Restore puts back the settings the terminal had before SetRaw: echo,
// line editing, signals and CR-to-NL (v0.2.6 restored the raw settings,
// because SetRaw changed the saved copy).
func TestRestoreAfterSetRaw(t *testing.T) {
	pts := openPTY(t)
	fd := int(pts.Fd())
	before, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	if before.Lflag&unix.ECHO == 0 || before.Lflag&unix.ICANON == 0 {
		t.Fatalf("a new terminal without echo or icanon: %+v", before)
	}
	if err := SetRaw(fd); err != nil {
		t.Fatal(err)
	}
	raw, _ := unix.IoctlGetTermios(fd, unix.TCGETS)
	if raw.Lflag&(unix.ECHO|unix.ICANON|unix.ISIG) != 0 {
		t.Fatalf("SetRaw left echo, icanon or isig on: %+v", raw)
	}
	if err := Restore(); err != nil {
		t.Fatal(err)
	}
	after, _ := unix.IoctlGetTermios(fd, unix.TCGETS)
	if after.Lflag != before.Lflag || after.Iflag != before.Iflag || after.Oflag != before.Oflag || after.Cflag != before.Cflag {
		t.Errorf("Restore left lflag %#o iflag %#o, want lflag %#o iflag %#o", after.Lflag, after.Iflag, before.Lflag, before.Iflag)
	}
}
