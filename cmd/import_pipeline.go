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

// A chunk of JSONL ends at jsonlChunkLines lines or from jsonlChunkBytes
// of them.
const (
	jsonlChunkLines = 512
	jsonlChunkBytes = 1 << 20
)

// jsonlJob is a chunk of lines to decode: their bytes, where each ends in
// data, their numbers, the lines refused unread (by index), the error
// that ended reading after them, and where the decoded chunk goes.
type jsonlJob struct {
	data    []byte
	ends    []int
	lines   []int64
	refused map[int]error
	err     error
	out     chan jsonlChunk
}

// add adds a line to decode.
func (j *jsonlJob) add(b []byte, line int64) {
	j.data = append(j.data, b...)
	j.ends = append(j.ends, len(j.data))
	j.lines = append(j.lines, line)
}

// refuse adds a line refused unread.
func (j *jsonlJob) refuse(line int64, err error) {
	if j.refused == nil {
		j.refused = map[int]error{}
	}
	j.refused[len(j.ends)] = err
	j.ends = append(j.ends, len(j.data))
	j.lines = append(j.lines, line)
}

// full reports whether the chunk is to be handed on.
func (j *jsonlJob) full() bool {
	return len(j.ends) == jsonlChunkLines || len(j.data) >= jsonlChunkBytes
}

// decodeJSONL decodes the chunks of jobs, each into its out channel.
func decodeJSONL(jobs <-chan *jsonlJob) {
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
}

// lineReader reads an import's input a line at a time, numbering the
// lines, and refuses a line longer than maxEntityInput as soon as the cap
// is passed; the next read skips the rest of it, unkept.
type lineReader struct {
	br     *bufio.Reader
	long   []byte // a line longer than the reader's buffer, gathered
	line   int64  // the number of the line returned last
	inLong bool   // the rest of a refused line comes first
}

// next returns the next line, with its newline; io.EOF at the end (with
// the last line when it has none), *rowTooLong for a line over the cap,
// or the input's error.
func (r *lineReader) next() ([]byte, error) {
	if r.inLong {
		r.inLong = false
		_, err := r.br.ReadSlice('\n')
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = r.br.ReadSlice('\n')
		}
		if err != nil {
			return nil, err
		}
	}
	b, err := r.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		r.long = append(r.long[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) && len(r.long) <= maxEntityInput {
			b, err = r.br.ReadSlice('\n')
			r.long = append(r.long, b...)
		}
		if len(r.long) > maxEntityInput {
			r.line++
			r.inLong = errors.Is(err, bufio.ErrBufferFull)
			return nil, &rowTooLong{from: r.line, line: r.line}
		}
		b = r.long
	}
	if len(b) > 0 {
		r.line++
	}
	return b, err
}

// jsonlFeeder reads the input's lines into chunks, and hands each to the
// decoders (jobs) and its result's channel to the order they are
// delivered in, until the input ends or done is closed.
type jsonlFeeder struct {
	lines     lineReader
	keepGoing bool
	jobs      chan<- *jsonlJob
	order     chan<- chan jsonlChunk
	done      <-chan struct{}
	j         *jsonlJob // the chunk being filled
}

// send hands the chunk on and starts the next; false when done is closed.
func (f *jsonlFeeder) send() bool {
	f.j.out = make(chan jsonlChunk, 1)
	select {
	case f.order <- f.j.out:
	case <-f.done:
		return false
	}
	select {
	case f.jobs <- f.j:
	case <-f.done:
		return false
	}
	f.j = &jsonlJob{data: make([]byte, 0, min(cap(f.j.data), jsonlChunkBytes))}
	return true
}

func (f *jsonlFeeder) run() {
	defer close(f.order)
	defer close(f.jobs)
	for {
		b, err := f.lines.next()
		var long *rowTooLong
		if errors.As(err, &long) {
			f.j.refuse(f.lines.line, err)
			if !f.keepGoing {
				f.send()
				return
			}
			if f.j.full() && !f.send() {
				return
			}
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			f.j.err = err
			f.send()
			return
		}
		if b = bytes.TrimSpace(b); len(b) > 0 {
			f.j.add(b, f.lines.line)
		}
		if errors.Is(err, io.EOF) {
			if len(f.j.ends) > 0 {
				f.send()
			}
			return
		}
		if f.j.full() && !f.send() {
			return
		}
	}
}

// jsonlSource reads one entity per line, skipping blank lines. A goroutine
// reads ahead in chunks of lines, and a few more decode them, a chunk each
// at a time, so that decoding runs on several cores and overlaps with the
// store's work; the chunks are delivered in order. stop ends them when the
// import ends early.
//
// A line longer than maxEntityInput is refused (*rowTooLong) as soon as
// the cap is passed: keepGoing skips the rest of it without keeping it,
// else reading ends there. A chunk holds at most jsonlChunkLines lines or
// about jsonlChunkBytes, so what is read ahead stays bounded however long
// the lines.
func jsonlSource(r io.Reader, lines *lineIndex, keepGoing bool, reject func(int64, error), rowError func(int64, error) error) (src store.EntitySource, stop func()) {
	workers := min(max(runtime.GOMAXPROCS(0), 1), 4)
	jobs := make(chan *jsonlJob, workers)
	order := make(chan chan jsonlChunk, 2*workers+4)
	done := make(chan struct{})
	for w := 0; w < workers; w++ {
		go decodeJSONL(jobs)
	}
	feed := &jsonlFeeder{lines: lineReader{br: bufio.NewReaderSize(r, 1<<20)}, keepGoing: keepGoing,
		jobs: jobs, order: order, done: done, j: &jsonlJob{}}
	go feed.run()
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
