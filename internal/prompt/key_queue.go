package prompt

import "time"

// escapeTimeout is how long a lone ESC, an unfinished escape sequence or
// part of a UTF-8 character waits for the rest before it is taken as it is
// (a lone ESC is then the Escape key).
const escapeTimeout = 50 * time.Millisecond

// keyQueue holds what the terminal sent that the prompt has not used yet,
// and hands it out one key event at a time (see ScanKeys). It belongs to
// the Prompt, not to one call of Input: the lines of a pasted block that
// arrive together are kept until the calls that read them.
type keyQueue struct {
	pending []byte
	// waiting is when pending began to hold only the start of an event.
	waiting time.Time
}

// add queues bytes read from the terminal.
func (q *keyQueue) add(b []byte) {
	q.pending = append(q.pending, b...)
}

// next returns the next key event, or nil when there is none yet. An
// unfinished event is returned as it is once it has waited escapeTimeout
// since now was first passed with it.
func (q *keyQueue) next(now time.Time) []byte {
	if len(q.pending) == 0 {
		return nil
	}
	n, _, _ := ScanKeys(q.pending, false)
	if n == 0 {
		if q.waiting.IsZero() {
			q.waiting = now
		}
		if now.Sub(q.waiting) < escapeTimeout {
			return nil
		}
		n, _, _ = ScanKeys(q.pending, true)
	}
	q.waiting = time.Time{}
	ev := append([]byte(nil), q.pending[:n]...)
	q.pending = q.pending[n:]
	if len(q.pending) == 0 {
		q.pending = nil
	}
	return ev
}

// discard drops everything queued.
func (q *keyQueue) discard() {
	q.pending, q.waiting = nil, time.Time{}
}
