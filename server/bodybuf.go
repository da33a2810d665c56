package server

import "sync"

// bufferPool keeps byte buffers for the next request once a request is
// done with one: a request's body read (a batch's), or an answer's body
// built (a get, a page of a query). A buffer goes back only when nothing
// holds its bytes any more: what is read from a batch is copied out of
// it, and an answer is in the connection's buffer once written.
type bufferPool struct {
	p    sync.Pool
	size int // the capacity of a new buffer (0: none until used)
	max  int // the largest capacity kept; a larger buffer is left to the collector
}

// take returns an empty buffer.
func (p *bufferPool) take() []byte {
	if b, _ := p.p.Get().(*[]byte); b != nil {
		return (*b)[:0]
	}
	if p.size == 0 {
		return nil
	}
	return make([]byte, 0, p.size)
}

// give keeps b for a later take, unless it is empty or larger than max.
func (p *bufferPool) give(b []byte) {
	if c := cap(b); c > 0 && c <= p.max {
		b = b[:0]
		p.p.Put(&b)
	}
}

// batchBodies hold the bodies of batches as they are read; answerBodies
// the JSON of entity answers as they are built (without them a get grew
// its body four or five times).
var (
	batchBodies  = bufferPool{max: 1 << 20}
	answerBodies = bufferPool{size: 1024, max: 256 << 10}
)
