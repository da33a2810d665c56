module github.com/c-bata/go-prompt

go 1.23.0

require (
	github.com/mattn/go-colorable v0.1.7
	github.com/mattn/go-runewidth v0.0.16
	github.com/mattn/go-tty v0.0.3
	github.com/pkg/term v1.2.0-beta.2
	golang.org/x/sys v0.35.0
)

require (
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
)
