package odata

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strings"
)

// A continuation token names the key a query resumes from. Because paging
// resumes by key and not by position, entities inserted or deleted between
// two pages are neither skipped nor returned twice.
//
// A token also says whose key it holds (its kind, the first byte): the
// key of the next entity in tstable's store, which a local file and
// tstable serve over it both page by (KeyContinuation), or a remote
// service's own NextPartitionKey and NextRowKey, which only that service
// understands (ServiceContinuation). A token of one kind is refused where
// the other is needed, never read as a key of the wrong kind.
//
// Layout, base64url without padding:
//
//	kind byte (1: KeyContinuation, 2: ServiceContinuation)
//	uvarint len(PartitionKey), PartitionKey
//	uvarint len(RowKey), RowKey
//	4 bytes of SHA-256(pk | rk): integrity — a damaged token is "corrupt"
//	8 bytes of SHA-256(scope | pk | rk): binding — a token minted for another
//	  table or filter is "not valid for this query"
//
// The checks guard against mistakes, not attackers: the scope is not secret.

// ContinuationKind says whose key a continuation token holds.
type ContinuationKind byte

// The kinds of continuation token.
const (
	// KeyContinuation holds the key of the next entity, as tstable's store
	// pages: a local file, or tstable serve over one.
	KeyContinuation ContinuationKind = 1
	// ServiceContinuation holds a remote service's NextPartitionKey and
	// NextRowKey as it wrote them (Azure Table Storage, Azurite, Cosmos DB).
	ServiceContinuation ContinuationKind = 2
)

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
// at key k, of the given kind. scope binds the token to one query: callers
// pass the table name and the filter text.
func EncodeContinuation(k Key, scope string, kind ContinuationKind) string {
	var b []byte
	b = append(b, byte(kind))
	b = binary.AppendUvarint(b, uint64(len(k.PartitionKey)))
	b = append(b, k.PartitionKey...)
	b = binary.AppendUvarint(b, uint64(len(k.RowKey)))
	b = append(b, k.RowKey...)
	ks, ss := keySum(k), scopeSum(k, scope)
	b = append(b, ks[:4]...)
	b = append(b, ss[:8]...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeContinuation returns the key a token resumes from, and its kind.
// A token that is damaged or forged gives ErrContinuationCorrupt; one
// minted under another scope gives ErrContinuationScope.
func DecodeContinuation(tok, scope string) (Key, ContinuationKind, error) {
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || len(b) < 1 || (ContinuationKind(b[0]) != KeyContinuation && ContinuationKind(b[0]) != ServiceContinuation) {
		return Key{}, 0, ErrContinuationCorrupt
	}
	kind := ContinuationKind(b[0])
	rest := b[1:]
	pk, rest, ok := lenPrefixed(rest)
	if !ok {
		return Key{}, 0, ErrContinuationCorrupt
	}
	rk, rest, ok := lenPrefixed(rest)
	if !ok || len(rest) != 12 {
		return Key{}, 0, ErrContinuationCorrupt
	}
	k := Key{PartitionKey: string(pk), RowKey: string(rk)}
	if sum := keySum(k); !bytes.Equal(rest[:4], sum[:4]) {
		return Key{}, 0, ErrContinuationCorrupt
	}
	if sum := scopeSum(k, scope); !bytes.Equal(rest[4:], sum[:8]) {
		return Key{}, 0, ErrContinuationScope
	}
	return k, kind, nil
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

// nextPrefix starts a key as EncodeNextKey writes it: a version and '!'.
const nextPrefix = "1!"

// EncodeNextKey is how tstable serve writes a key (a PartitionKey, a
// RowKey, a table name) in its x-ms-continuation-Next* headers: a
// version, '!', and the key in base64url. A client that pages by the
// store's own keys (tstable's remote mode over a served file) writes them
// so too.
func EncodeNextKey(key string) string {
	return nextPrefix + base64.RawURLEncoding.EncodeToString([]byte(key))
}

// DecodeNextKey reads a header value EncodeNextKey wrote back into its
// key; false for a value it did not write.
func DecodeNextKey(tok string) (string, bool) {
	rest, ok := strings.CutPrefix(tok, nextPrefix)
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if !ok || err != nil {
		return "", false
	}
	return string(b), true
}
