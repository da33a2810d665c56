module github.com/c-bata/go-prompt

go 1.23.0

require (
	github.com/erikgeiser/coninput v0.0.0-20211004153227-1c3628e74d0f
	github.com/mattn/go-colorable v0.1.7
	github.com/mattn/go-runewidth v0.0.16
	github.com/pkg/term v1.2.0-beta.2
	golang.org/x/sys v0.35.0
)

require (
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
)
