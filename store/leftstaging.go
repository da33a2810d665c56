package store

import (
	"os"
	"strconv"
	"strings"

	"github.com/tstable/tstable/store/internal/values"
)

// What a load's staging (see package bulk, staging.go) needs of the
// engine: its buckets removed when the load that made them was killed, and
// a staging bucket deleted with the dictionary of the table staged in it.

// stagingOwner is the process id in a staging bucket's name, or -1.
func stagingOwner(name []byte) int {
	rest, ok := strings.CutPrefix(string(name), values.StagingPrefix)
	if !ok {
		return -1
	}
	pid, _, _ := strings.Cut(rest, ":")
	n, err := strconv.Atoi(pid)
	if err != nil {
		return -1
	}
	return n
}

// removeLeftStaging removes the staging buckets that loads killed before
// they could remove them left in the file: those whose process is gone
// (or whose name does not say which process).
func (db *DB) removeLeftStaging() error {
	var left [][]byte
	find := func(t *gtx) error {
		names, err := t.topBuckets([]byte(values.StagingPrefix))
		left = left[:0]
		for _, k := range names {
			if pid := stagingOwner(k); pid < 0 || (pid != os.Getpid() && !ProcessAlive(pid)) {
				left = append(left, k)
			}
		}
		return err
	}
	if err := db.do(false, func(o *op) error { return o.view(find) }); err != nil || len(left) == 0 || db.damaged.Load() != nil {
		return err // (a file found damaged is written no more: they stay)
	}
	return db.do(true, func(o *op) error {
		return o.update(func(t *gtx) error {
			if err := find(t); err != nil {
				return err
			}
			for _, k := range left {
				if err := t.deleteStaging(k); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// deleteStaging deletes the staging bucket name, and the dictionary of
// the table staged in it.
func (t *gtx) deleteStaging(name []byte) error {
	p, err := t.top(name)
	if err != nil || p == nil {
		return err
	}
	children, err := p.buckets()
	if err != nil {
		return err
	}
	for _, k := range children {
		child, err := p.bucket(k)
		if err != nil {
			return err
		}
		if child != nil {
			if err := dropDictionary(t, child); err != nil {
				return err
			}
		}
	}
	return t.deleteTop(name)
}
