package transfer

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"runtime"
	"sync"

	"github.com/tstable/tstable/odata"
)

// The JSONL read-ahead pipeline: one goroutine splits the input into
// chunks of lines, a few decode a chunk each at a time, and one delivers
// the decoded chunks in input order, while the store takes the chunk
// before. lineIndex maps each entity back to its line for messages.

// A chunk of JSONL ends at jsonlChunkLines lines or from jsonlChunkBytes
// of them, so what is read ahead stays bounded however long the lines.
const (
	jsonlChunkLines = 512
	jsonlChunkBytes = 1 << 20
)

// jsonlItem is one non-blank line of a JSONL import, decoded.
type jsonlItem struct {
	e    *odata.Entity
	line int64
	err  error // the line does not decode, or was refused unread
}

// jsonlChunk is what a decoder hands over: a run of items, or the error
// that ended reading.
type jsonlChunk struct {
	items []jsonlItem
	err   error
}

// jsonlJob is a chunk of lines to decode: their bytes, where each ends in
// data, their numbers, the lines refused unread (by index), the error that
// ended reading after them, and where the decoded chunk goes.
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

// jsonlSource reads one entity per line, skipping blank lines, decoding
// on several cores ahead of the store; the entities come out in input
// order. stop ends its goroutines when the import ends early.
//
// A line longer than MaxRowBytes is refused (*rowTooLong) as soon as the
// cap is passed: with keepGoing the rest of it is skipped unkept, else
// reading ends there.
type jsonlSource struct {
	chunks   chan jsonlChunk
	done     chan struct{}
	stopOnce sync.Once
	faults   *rowFaults
	lines    *lineIndex
	cur      []jsonlItem
	n        int64 // entities delivered
	end      error // what next returns once cur is empty: io.EOF or a read error
}

// newJSONLSource starts reading r.
func newJSONLSource(r io.Reader, lines *lineIndex, faults *rowFaults) *jsonlSource {
	workers := min(max(runtime.GOMAXPROCS(0), 1), 4)
	s := &jsonlSource{chunks: make(chan jsonlChunk), done: make(chan struct{}), faults: faults, lines: lines}
	jobs := make(chan *jsonlJob, workers)
	order := make(chan chan jsonlChunk, 2*workers+4)
	for range workers {
		go decodeJobs(jobs)
	}
	feed := &jsonlFeeder{lines: lineReader{br: bufio.NewReaderSize(r, 1<<20)}, keepGoing: faults.keepGoing,
		jobs: jobs, order: order, done: s.done, j: &jsonlJob{}}
	go feed.run()
	go s.deliver(order)
	return s
}

// decodeJobs decodes the lines of each job into its out channel.
func decodeJobs(jobs <-chan *jsonlJob) {
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
// lines, and refuses a line longer than MaxRowBytes as soon as the cap is
// passed; the next read skips the rest of it, unkept.
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
		if err := r.skipLine(); err != nil {
			return nil, err
		}
	}
	b, err := r.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		r.long = append(r.long[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) && len(r.long) <= MaxRowBytes {
			b, err = r.br.ReadSlice('\n')
			r.long = append(r.long, b...)
		}
		if len(r.long) > MaxRowBytes {
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

// skipLine reads past the rest of a line, keeping nothing of it.
func (r *lineReader) skipLine() error {
	_, err := r.br.ReadSlice('\n')
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = r.br.ReadSlice('\n')
	}
	return err
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

// run feeds the whole input.
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

// deliver passes the decoded chunks on in input order.
func (s *jsonlSource) deliver(order <-chan chan jsonlChunk) {
	defer close(s.chunks)
	for out := range order {
		var c jsonlChunk
		select {
		case c = <-out:
		case <-s.done:
			return
		}
		select {
		case s.chunks <- c:
		case <-s.done:
			return
		}
	}
}

// next is the source's backend.EntitySource: the next entity, io.EOF at
// the end, or the error that stops the import (a bad line without
// keepGoing, a read error).
func (s *jsonlSource) next() (*odata.Entity, error) {
	for {
		for len(s.cur) > 0 {
			it := s.cur[0]
			s.cur = s.cur[1:]
			if it.err != nil {
				if err := s.faults.bad(it.line, it.err); err != nil {
					return nil, err
				}
				continue
			}
			s.lines.record(s.n, it.line)
			s.n++
			return it.e, nil
		}
		if s.end != nil {
			return nil, s.end
		}
		c, ok := <-s.chunks
		if !ok {
			s.end = io.EOF
			continue
		}
		s.cur = c.items
		if c.err != nil {
			s.end = c.err // the input cannot be read: the import says so with its name
		}
	}
}

// stop ends the source's goroutines; it may be called more than once.
func (s *jsonlSource) stop() { s.stopOnce.Do(func() { close(s.done) }) }
