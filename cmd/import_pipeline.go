package cmd

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"runtime"
	"sort"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// The import's read-ahead pipeline: JSONL is read in a goroutine and
// decoded in a few more, a chunk at a time, while the store takes the
// chunk before; lineIndex maps each entity back to its line for messages.

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
// reads ahead in chunks of lines, and a few more decode them, a chunk each
// at a time, so that decoding runs on several cores and overlaps with the
// store's work; the chunks are delivered in order. stop ends them when the
// import ends early.
//
// A line longer than maxEntityInput is refused (*rowTooLong) as soon as
// the cap is passed: keepGoing skips the rest of it without keeping it,
// else reading ends there. A chunk holds at most chunkSize lines or about
// chunkBytes, so what is read ahead stays bounded however long the lines.
func jsonlSource(r io.Reader, lines *lineIndex, keepGoing bool, reject func(int64, error), rowError func(int64, error) error) (src store.EntitySource, stop func()) {
	const (
		chunkSize  = 512
		chunkBytes = 1 << 20
	)
	workers := min(max(runtime.GOMAXPROCS(0), 1), 4)
	// jsonlJob is a chunk of lines to decode: their bytes, where each ends
	// in data, their numbers, the lines refused unread (by index), and
	// where the decoded chunk goes.
	type jsonlJob struct {
		data    []byte
		ends    []int
		lines   []int64
		refused map[int]error
		err     error
		out     chan jsonlChunk
	}
	jobs := make(chan *jsonlJob, workers)
	order := make(chan chan jsonlChunk, 2*workers+4)
	done := make(chan struct{})
	for w := 0; w < workers; w++ {
		go func() {
			var dec odata.EntityDecoder
			for j := range jobs {
				items := make([]jsonlItem, len(j.ends))
				start := 0
				for k, end := range j.ends {
					if err, ok := j.refused[k]; ok {
						items[k] = jsonlItem{line: j.lines[k], err: err}
						continue
					}
					e, derr := dec.Decode(j.data[start:end])
					items[k] = jsonlItem{e: e, line: j.lines[k], err: derr}
					start = end
				}
				j.out <- jsonlChunk{items: items, err: j.err}
			}
		}()
	}
	go func() {
		defer close(order)
		defer close(jobs)
		br := bufio.NewReaderSize(r, 1<<20)
		var line int64
		var long []byte
		j := &jsonlJob{}
		send := func() bool {
			j.out = make(chan jsonlChunk, 1)
			select {
			case order <- j.out:
			case <-done:
				return false
			}
			select {
			case jobs <- j:
			case <-done:
				return false
			}
			j = &jsonlJob{data: make([]byte, 0, min(cap(j.data), chunkBytes))}
			return true
		}
		for {
			b, err := br.ReadSlice('\n')
			if errors.Is(err, bufio.ErrBufferFull) {
				long = append(long[:0], b...)
				for errors.Is(err, bufio.ErrBufferFull) && len(long) <= maxEntityInput {
					b, err = br.ReadSlice('\n')
					long = append(long, b...)
				}
				if len(long) > maxEntityInput {
					line++
					if j.refused == nil {
						j.refused = map[int]error{}
					}
					j.refused[len(j.ends)] = &rowTooLong{from: line, line: line}
					j.ends = append(j.ends, len(j.data))
					j.lines = append(j.lines, line)
					if !keepGoing {
						send()
						return
					}
					for errors.Is(err, bufio.ErrBufferFull) { // the rest of the line, unkept
						_, err = br.ReadSlice('\n')
					}
					b = nil
				} else {
					b = long
				}
			}
			if err != nil && !errors.Is(err, io.EOF) {
				j.err = err
				send()
				return
			}
			if len(b) > 0 {
				line++
				if b = bytes.TrimSpace(b); len(b) > 0 {
					j.data = append(j.data, b...)
					j.ends = append(j.ends, len(j.data))
					j.lines = append(j.lines, line)
				}
			}
			if errors.Is(err, io.EOF) {
				if len(j.ends) > 0 {
					send()
				}
				return
			}
			if (len(j.ends) == chunkSize || len(j.data) >= chunkBytes) && !send() {
				return
			}
		}
	}()
	chunks := make(chan jsonlChunk)
	go func() {
		defer close(chunks)
		for out := range order {
			var c jsonlChunk
			select {
			case c = <-out:
			case <-done:
				return
			}
			select {
			case chunks <- c:
			case <-done:
				return
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
				end = c.err
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
