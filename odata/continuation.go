package odata

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
)

// A continuation token names the key a query resumes from. Because paging
// resumes by key and not by position, entities inserted or deleted between
// two pages are neither skipped nor returned twice.
//
// Layout, base64url without padding:
//
//	version byte (1)
//	uvarint len(PartitionKey), PartitionKey
//	uvarint len(RowKey), RowKey
//	4 bytes of SHA-256(pk | rk): integrity — a damaged token is "corrupt"
//	8 bytes of SHA-256(scope | pk | rk): binding — a token minted for another
//	  table or filter is "not valid for this query"
//
// The checks guard against mistakes, not attackers: the scope is not secret.

const continuationVersion = 1

// Errors DecodeContinuation returns.
var (
	// ErrContinuationCorrupt is returned for a token tstable did not write,
	// or one that was damaged on the way.
	ErrContinuationCorrupt = errors.New("continuation token is corrupt")
	// ErrContinuationScope is returned for a sound token that belongs to
	// another query (another table or filter).
	ErrContinuationScope = errors.New("continuation token is not valid for this query (was it from another table or filter?)")
)

// EncodeContinuation returns an opaque, URL-safe token for resuming a query
// at key k. scope binds the token to one query: callers pass the table name
// and the filter text.
func EncodeContinuation(k Key, scope string) string {
	var b []byte
	b = append(b, continuationVersion)
	b = binary.AppendUvarint(b, uint64(len(k.PartitionKey)))
	b = append(b, k.PartitionKey...)
	b = binary.AppendUvarint(b, uint64(len(k.RowKey)))
	b = append(b, k.RowKey...)
	ks, ss := keySum(k), scopeSum(k, scope)
	b = append(b, ks[:4]...)
	b = append(b, ss[:8]...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeContinuation returns the key a token resumes from. A token that is
// damaged or forged gives ErrContinuationCorrupt; one minted under another
// scope gives ErrContinuationScope.
func DecodeContinuation(tok, scope string) (Key, error) {
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || len(b) < 1 || b[0] != continuationVersion {
		return Key{}, ErrContinuationCorrupt
	}
	rest := b[1:]
	pk, rest, ok := lenPrefixed(rest)
	if !ok {
		return Key{}, ErrContinuationCorrupt
	}
	rk, rest, ok := lenPrefixed(rest)
	if !ok || len(rest) != 12 {
		return Key{}, ErrContinuationCorrupt
	}
	k := Key{PartitionKey: string(pk), RowKey: string(rk)}
	if sum := keySum(k); !bytes.Equal(rest[:4], sum[:4]) {
		return Key{}, ErrContinuationCorrupt
	}
	if sum := scopeSum(k, scope); !bytes.Equal(rest[4:], sum[:8]) {
		return Key{}, ErrContinuationScope
	}
	return k, nil
}

func lenPrefixed(b []byte) (field, rest []byte, ok bool) {
	n, w := binary.Uvarint(b)
	if w <= 0 || n > uint64(len(b)-w) {
		return nil, nil, false
	}
	return b[w : w+int(n)], b[w+int(n):], true
}

func keySum(k Key) [32]byte {
	h := sha256.New()
	writeField(h, k.PartitionKey)
	writeField(h, k.RowKey)
	var s [32]byte
	h.Sum(s[:0])
	return s
}

func scopeSum(k Key, scope string) [32]byte {
	h := sha256.New()
	h.Write([]byte("tstable continuation\x00"))
	writeField(h, scope)
	writeField(h, k.PartitionKey)
	writeField(h, k.RowKey)
	var s [32]byte
	h.Sum(s[:0])
	return s
}

// writeField writes a length-prefixed field, so that ("ab","c") and
// ("a","bc") hash differently.
func writeField(h interface{ Write([]byte) (int, error) }, s string) {
	h.Write(binary.AppendUvarint(nil, uint64(len(s))))
	h.Write([]byte(s))
}
