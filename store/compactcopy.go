package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// The copy compact makes: every bucket and key as bbolt's Compact copies
// them, with the engine's own transactions (the file was checked whole
// first, see vetWhole, and the copy runs inside DB.do), but stopping when
// the context ends, which bbolt's cannot.

// compactInto copies every bucket and key of src into dst with full
// pages, committing every txMaxSize bytes, as bbolt's Compact does, and
// stops when ctx is done (bbolt's has no way to be stopped).
func compactInto(ctx context.Context, dst, src *bolt.DB, txMaxSize int64) (err error) {
	var size, keys int64
	tx, err := dst.Begin(true)
	if err != nil {
		return err
	}
	defer func() {
		if rerr := tx.Rollback(); err == nil && rerr != nil && !errors.Is(rerr, berrors.ErrTxClosed) {
			err = rerr
		}
	}()
	err = src.View(func(stx *bolt.Tx) error {
		return stx.ForEach(func(name []byte, b *bolt.Bucket) error {
			return compactBucket(b, nil, name, nil, b.Sequence(), func(path [][]byte, k, v []byte, seq uint64) error {
				if keys++; keys&1023 == 0 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
				if sz := int64(len(k) + len(v)); size+sz > txMaxSize {
					if err := tx.Commit(); err != nil {
						return err
					}
					if tx, err = dst.Begin(true); err != nil {
						return err
					}
					size = 0
				}
				size += int64(len(k) + len(v))
				return compactPut(tx, path, k, v, seq)
			})
		})
	})
	if err != nil {
		return err
	}
	return tx.Commit()
}

// compactPut puts one key of a compaction into tx: a bucket (v nil) with
// its sequence, or a value, in the bucket path names, with full pages.
func compactPut(tx *bolt.Tx, path [][]byte, k, v []byte, seq uint64) error {
	if len(path) == 0 {
		bkt, err := tx.CreateBucket(k)
		if err != nil {
			return err
		}
		return bkt.SetSequence(seq)
	}
	b := tx.Bucket(path[0])
	for _, name := range path[1:] {
		b = b.Bucket(name)
	}
	b.FillPercent = 1.0
	if v == nil {
		bkt, err := b.CreateBucket(k)
		if err != nil {
			return err
		}
		return bkt.SetSequence(seq)
	}
	return b.Put(k, v)
}

// compactBucket calls fn for bucket b's own key k, then for every key
// under it, depth first, with the bucket path to each.
func compactBucket(b *bolt.Bucket, path [][]byte, k, v []byte, seq uint64, fn func(path [][]byte, k, v []byte, seq uint64) error) error {
	if err := fn(path, k, v, seq); err != nil {
		return err
	}
	if v != nil {
		return nil
	}
	path = append(path, k)
	return b.ForEach(func(k, v []byte) error {
		if v == nil {
			sub := b.Bucket(k)
			return compactBucket(sub, path, k, nil, sub.Sequence(), fn)
		}
		return compactBucket(b, path, k, v, b.Sequence(), fn)
	})
}

// compactCopy is where Compact writes its copy of the database at path.
func compactCopy(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".compact")
}

// removeLeftCompact removes the copy a compaction killed before it ended
// left next to the database at path. A compaction holds the database for
// writing while it writes its copy, so a process that holds it for
// writing knows that none is under way; but where it lets the database
// go before it puts the copy in place (closeBeforeReplace), the copy is
// left alone.
func removeLeftCompact(path string) {
	if !closeBeforeReplace {
		os.Remove(compactCopy(path))
	}
}
