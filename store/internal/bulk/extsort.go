package bulk

import (
	"bufio"
	"bytes"
	"cmp"
	"container/heap"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/values"
)

// External merge sort of a load's entities. Load reads its whole source
// before it writes: each entity, validated and encoded, becomes a loadRec;
// the records are gathered into runs of bounded size (Settings.Run,
// loadRun by default), each sorted by stored key and, when another run
// follows, spilled to a temporary file next to the database. The runs are
// then merged, and the merged stream, in key order, is what the load
// checks and writes. A source that fits in one run never touches the disk.

// loadRec is one entity of a load: its stored key, its value as stored
// (its Timestamp ticks 0, or the entity's own when the load keeps them),
// and its position in the source.
type loadRec struct {
	key, val []byte
	pos      int64
	kept     bool // key and val stay as they are until the load ends (a run in memory), so a write may use them
}

// recOverhead is what a record costs in memory besides its bytes;
// sizingRecs, how many records tell their size for the rest of a run.
const (
	recOverhead = 64
	sizingRecs  = 1024
)

// compareRecs orders records by key and, for one key, by source position:
// the merged stream is a stable sort of the source.
func compareRecs(a, b *loadRec) int {
	if c := bytes.Compare(a.key, b.key); c != 0 {
		return c
	}
	return cmp.Compare(a.pos, b.pos)
}

// runSet gathers a load's records into sorted runs.
type runSet struct {
	dbPath string
	limit  int           // bytes a run holds in memory before it is spilled
	l      values.Layout // of the records' keys

	mem  *arena
	recs []loadRec // the run being gathered (after finish, the last run, sorted)
	size int

	file  *os.File // the spilled runs, one after another; nil until the first spill
	w     *bufio.Writer
	off   int64
	spans [][2]int64 // each spilled run's [start, end) in file
	n     int64      // records in all runs
	bytes int64      // their keys' and values' bytes
}

func newRunSet(dbPath string, limit int, l values.Layout) *runSet {
	return &runSet{dbPath: dbPath, limit: limit, l: l, mem: &arena{}}
}

// add adds one record; its key and value are copied.
func (s *runSet) add(pk, rk string, ticks int64, props []odata.Property, pos int64) error {
	key := s.mem.key(s.l, pk, rk)
	val := s.mem.value(ticks, props)
	if len(s.recs) == sizingRecs && cap(s.recs) < 2*sizingRecs {
		// Room for the run at the records' size so far, in one
		// allocation: growing by doubling would copy the records again
		// and again, and the pages of room left unused cost nothing.
		grown := make([]loadRec, len(s.recs), s.limit/(s.size/sizingRecs)+sizingRecs)
		copy(grown, s.recs)
		s.recs = grown
	}
	return s.push(key, val, pos)
}

// addRaw adds one record already encoded; its key and value are copied.
func (s *runSet) addRaw(key, val []byte, pos int64) error {
	return s.push(s.mem.copy(key), s.mem.copy(val), pos)
}

// push appends a record whose key and value are in the run's memory,
// spilling the run when it is full.
func (s *runSet) push(key, val []byte, pos int64) error {
	s.recs = append(s.recs, loadRec{key: key, val: val, pos: pos, kept: true})
	s.size += len(key) + len(val) + recOverhead
	s.n++
	s.bytes += int64(len(key) + len(val))
	if s.size >= s.limit {
		return s.spill()
	}
	return nil
}

// sortRun sorts the run being gathered.
func (s *runSet) sortRun() {
	slices.SortFunc(s.recs, func(a, b loadRec) int { return compareRecs(&a, &b) })
}

// A load's temporary file is ".NAME.import-PID-RANDOM.tmp" next to the
// database NAME, PID being the process that made it. The load removes it
// however it returns; a process killed first leaves it behind, and the
// next Open for writing (or Load) removes those whose process is gone.

// TempPattern is the glob of a load's temporary files for the database at
// path: ".NAME.import-*.tmp" in its folder.
func TempPattern(path string) string {
	dir, base := filepath.Split(path)
	return filepath.Join(dir, "."+base+".import-*.tmp")
}

// createTemp creates this process's temporary file for a load into the
// database at path.
func createTemp(path string) (*os.File, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	return os.CreateTemp(dir, "."+base+".import-"+strconv.Itoa(os.Getpid())+"-*.tmp")
}

// TempOwner is the process id in the name of a load's temporary file for
// the database at path, or -1 when the name does not say (an older
// tstable's, ".NAME.import-RANDOM.tmp").
func TempOwner(path, name string) int {
	rest, ok := strings.CutPrefix(filepath.Base(name), "."+filepath.Base(path)+".import-")
	if !ok {
		return -1
	}
	pid, _, ok := strings.Cut(strings.TrimSuffix(rest, ".tmp"), "-")
	n, err := strconv.Atoi(pid)
	if !ok || err != nil {
		return -1
	}
	return n
}

// RemoveLeftTemps removes the temporary files that loads killed before
// they could remove their own left next to the database at path: those
// whose process is gone (alive says which are not), or whose name does
// not say which process made them. A load under way, in this process or
// another, keeps its own.
func RemoveLeftTemps(path string, alive func(pid int) bool) {
	left, _ := filepath.Glob(TempPattern(path))
	for _, f := range left {
		if pid := TempOwner(path, f); pid < 0 || (pid != os.Getpid() && !alive(pid)) {
			os.Remove(f)
		}
	}
}

// spill sorts the run being gathered and appends it to the temporary file.
func (s *runSet) spill() error {
	s.sortRun()
	if s.file == nil {
		f, err := createTemp(s.dbPath)
		if err != nil {
			return backend.FileError(err, "cannot create the import's temporary file next to %s", s.dbPath)
		}
		s.file = f
		s.w = bufio.NewWriterSize(f, 1<<20)
	}
	start := s.off
	var hdr [3 * binary.MaxVarintLen64]byte
	for i := range s.recs {
		r := &s.recs[i]
		n := binary.PutUvarint(hdr[:], uint64(r.pos))
		n += binary.PutUvarint(hdr[n:], uint64(len(r.key)))
		n += binary.PutUvarint(hdr[n:], uint64(len(r.val)))
		s.w.Write(hdr[:n])
		s.w.Write(r.key)
		s.w.Write(r.val)
		s.off += int64(n + len(r.key) + len(r.val))
	}
	if err := s.w.Flush(); err != nil {
		return backend.FileError(err, "cannot write the import's temporary file %s", s.file.Name())
	}
	s.spans = append(s.spans, [2]int64{start, s.off})
	clear(s.recs)
	s.recs, s.size, s.mem = s.recs[:0], 0, &arena{}
	return nil
}

// finish ends gathering: the last run stays in memory, sorted.
func (s *runSet) finish() { s.sortRun() }

// close removes the temporary file.
func (s *runSet) close() {
	if s.file != nil {
		s.file.Close()
		os.Remove(s.file.Name())
		s.file = nil
	}
}

// merge returns the runs' records merged in key order.
func (s *runSet) merge() (*merger, error) {
	m := &merger{}
	if len(s.spans) > 0 {
		buf := min(max((32<<20)/len(s.spans), 16<<10), 1<<20)
		for _, sp := range s.spans {
			m.all = append(m.all, &runIter{r: bufio.NewReaderSize(io.NewSectionReader(s.file, sp[0], sp[1]-sp[0]), buf), name: s.file.Name()})
		}
	}
	if len(s.recs) > 0 {
		m.all = append(m.all, &runIter{recs: s.recs})
	}
	for _, it := range m.all {
		ok, err := it.next()
		if err != nil {
			return nil, err
		}
		if ok {
			m.h = append(m.h, it)
		}
	}
	heap.Init(m)
	return m, nil
}

// runIter reads one sorted run: from memory (recs) or from the file (r).
// cur is valid until the next call of next.
type runIter struct {
	cur  loadRec
	recs []loadRec
	i    int
	r    *bufio.Reader
	buf  []byte
	name string
}

func (it *runIter) next() (bool, error) {
	if it.r == nil {
		if it.i == len(it.recs) {
			return false, nil
		}
		it.cur = it.recs[it.i]
		it.i++
		return true, nil
	}
	pos, err := binary.ReadUvarint(it.r)
	if errors.Is(err, io.EOF) {
		return false, nil
	}
	bad := func(err error) (bool, error) {
		return false, backend.FileError(err, "cannot read the import's temporary file %s", it.name)
	}
	if err != nil {
		return bad(err)
	}
	kl, err := binary.ReadUvarint(it.r)
	if err != nil {
		return bad(err)
	}
	vl, err := binary.ReadUvarint(it.r)
	if err != nil {
		return bad(err)
	}
	n := int(kl + vl)
	if cap(it.buf) < n {
		it.buf = make([]byte, n)
	}
	it.buf = it.buf[:n]
	if _, err := io.ReadFull(it.r, it.buf); err != nil {
		return bad(err)
	}
	it.cur = loadRec{key: it.buf[:kl:kl], val: it.buf[kl:], pos: int64(pos)}
	return true, nil
}

// merger merges sorted runs (a heap of their iterators). The record next
// returns stays valid until the following call; unread makes that call
// return it again.
type merger struct {
	all    []*runIter
	h      []*runIter
	last   *runIter // the iterator of the record returned last, not yet advanced
	replay bool
}

func (m *merger) Len() int           { return len(m.h) }
func (m *merger) Less(i, j int) bool { return compareRecs(&m.h[i].cur, &m.h[j].cur) < 0 }
func (m *merger) Swap(i, j int)      { m.h[i], m.h[j] = m.h[j], m.h[i] }
func (m *merger) Push(x any)         { m.h = append(m.h, x.(*runIter)) }
func (m *merger) Pop() any {
	it := m.h[len(m.h)-1]
	m.h = m.h[:len(m.h)-1]
	return it
}

// next returns the next record in key order, or nil after the last.
func (m *merger) next() (*loadRec, error) {
	if m.replay {
		m.replay = false
		return &m.last.cur, nil
	}
	if m.last != nil {
		ok, err := m.last.next()
		if err != nil {
			return nil, err
		}
		if ok {
			heap.Fix(m, 0)
		} else {
			heap.Pop(m)
		}
		m.last = nil
	}
	if len(m.h) == 0 {
		return nil, nil
	}
	m.last = m.h[0]
	return &m.last.cur, nil
}

// unread makes the next call of next return the record it returned last.
func (m *merger) unread() {
	if m.last != nil {
		m.replay = true
	}
}
