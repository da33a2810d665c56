package cmd

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// The import's read-ahead pipeline: JSONL is read and decoded in a
// goroutine, a chunk at a time, while the store writes the chunk before;
// lineIndex maps each entity back to its line for messages.

// lineIndex maps an entity's 0-based position in the source to its line,
// storing only the positions where the two stop moving together.
type lineIndex struct {
	at    []int64 // positions, ascending
	delta []int64 // line - position from at[i] on
}

func (x *lineIndex) record(n, line int64) {
	if k := len(x.delta); k > 0 && x.delta[k-1] == line-n {
		return
	}
	x.at = append(x.at, n)
	x.delta = append(x.delta, line-n)
}

func (x *lineIndex) line(n int64) int64 {
	i := sort.Search(len(x.at), func(i int) bool { return x.at[i] > n }) - 1
	if i < 0 {
		return n + 1
	}
	return n + x.delta[i]
}

// jsonlItem is one non-blank line of a JSONL import, decoded.
type jsonlItem struct {
	e    *odata.Entity
	line int64
	err  error // the line does not decode
}

// jsonlChunk is what the decoding goroutine hands over: a run of items, or
// the error that ended reading.
type jsonlChunk struct {
	items []jsonlItem
	err   error
}

// jsonlSource reads one entity per line, skipping blank lines. A goroutine
// reads and decodes ahead in chunks, so decoding overlaps with the store's
// writing; stop ends it when the import ends early.
func jsonlSource(r io.Reader, lines *lineIndex, keepGoing bool, reject func(int64, error), rowError func(int64, error) error) (src store.EntitySource, stop func()) {
	const chunkSize = 512
	chunks := make(chan jsonlChunk, 8)
	done := make(chan struct{})
	go func() {
		defer close(chunks)
		br := bufio.NewReaderSize(r, 1<<20)
		var dec odata.EntityDecoder
		var line int64
		var long []byte
		items := make([]jsonlItem, 0, chunkSize)
		send := func(c jsonlChunk) bool {
			select {
			case chunks <- c:
				return true
			case <-done:
				return false
			}
		}
		for {
			b, err := br.ReadSlice('\n')
			if errors.Is(err, bufio.ErrBufferFull) {
				long = append(long[:0], b...)
				for errors.Is(err, bufio.ErrBufferFull) {
					b, err = br.ReadSlice('\n')
					long = append(long, b...)
				}
				b = long
			}
			if err != nil && !errors.Is(err, io.EOF) {
				send(jsonlChunk{items: items, err: err})
				return
			}
			if len(b) > 0 {
				line++
				if b = bytes.TrimSpace(b); len(b) > 0 {
					e, derr := dec.Decode(b)
					items = append(items, jsonlItem{e: e, line: line, err: derr})
				}
			}
			if errors.Is(err, io.EOF) {
				if len(items) > 0 {
					send(jsonlChunk{items: items})
				}
				return
			}
			if len(items) == chunkSize {
				if !send(jsonlChunk{items: items}) {
					return
				}
				items = make([]jsonlItem, 0, chunkSize)
			}
		}
	}()
	var (
		cur []jsonlItem
		n   int64
		end error
	)
	src = func() (*odata.Entity, error) {
		for {
			for len(cur) > 0 {
				it := cur[0]
				cur = cur[1:]
				if it.err != nil {
					if keepGoing {
						reject(it.line, it.err)
						continue
					}
					return nil, rowError(it.line, it.err)
				}
				lines.record(n, it.line)
				n++
				return it.e, nil
			}
			if end != nil {
				return nil, end
			}
			c, ok := <-chunks
			if !ok {
				end = io.EOF
				continue
			}
			cur = c.items
			if c.err != nil {
				end = fmt.Errorf("reading the input: %w", c.err)
			}
		}
	}
	var once bool
	stop = func() {
		if !once {
			once = true
			close(done)
		}
	}
	return src, stop
}
