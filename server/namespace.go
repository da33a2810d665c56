package server

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// NamespacePrefix is what the tables of a further account served from one
// file (AZURITE_ACCOUNTS) start with in that file: "x", the length of the
// account's name in two digits, and the name — x05aliceOrders is alice's
// table Orders. The length makes the prefixes of two accounts never
// begin one another; the prefix is letters and digits, so the stored name
// is a valid table name, and the first account's own tables keep their
// plain names.
func NamespacePrefix(account string) string {
	return fmt.Sprintf("x%02d%s", len(account), strings.ToLower(account))
}

// namespace is a Backend that shows one account its own tables of a file
// several accounts share: table names get prefix in the file, and names
// that start with another account's prefix (hide) are neither listed nor
// reachable.
type namespace struct {
	backend.Backend
	prefix string   // "" for the first account, whose tables are plain
	hide   []string // the other accounts' prefixes, lower-case
}

// KeyOrder is the order of the shared file's keys.
func (n namespace) KeyOrder() odata.Order { return backend.KeyOrderOf(n.Backend) }

// stored is the name of table in the file, or an error when the account
// cannot have such a table there.
func (n namespace) stored(table string) (string, error) {
	if h := n.hiddenBy(table); h != "" {
		return "", odata.Errorf(odata.CodeResourceNotFound, "table %q does not exist (names starting %s hold the tables of another account this server serves from the same file)", table, h)
	}
	full := n.prefix + table
	if n.prefix != "" && len(full) > 63 && odata.ValidateTableName(table) == nil {
		return "", odata.Errorf(odata.CodeInvalidResourceName, "table name %q is too long for account %s: the tables of a further account of AZURITE_ACCOUNTS are kept as %sNAME, and that must fit 63 characters, so NAME may have %d; shorten it, or serve this account alone", table, n.prefix[3:], n.prefix, 63-len(n.prefix))
	}
	return full, nil
}

// plain turns the stored name back in err's message.
func (n namespace) plain(err error, full, table string) error {
	var e *odata.Error
	if n.prefix == "" || !errors.As(err, &e) {
		return err
	}
	c := *e
	c.Message = strings.ReplaceAll(c.Message, full, table)
	return &c
}

func (n namespace) CreateTable(ctx context.Context, name string) error {
	if n.prefix != "" {
		if err := odata.ValidateTableName(name); err != nil {
			return err
		}
	}
	if h := n.hiddenBy(name); h != "" {
		return odata.Errorf(odata.CodeInvalidResourceName, "table name %q is kept for another account this server serves from the same file (its tables start %s); choose another", name, h)
	}
	full, err := n.stored(name)
	if err != nil {
		return err
	}
	return n.plain(n.Backend.CreateTable(ctx, full), full, name)
}

func (n namespace) DeleteTable(ctx context.Context, name string) error {
	full, err := n.stored(name)
	if err != nil {
		return err
	}
	return n.plain(n.Backend.DeleteTable(ctx, full), full, name)
}

// ListTables lists the account's tables, by their plain names.
func (n namespace) ListTables(ctx context.Context) ([]string, error) {
	names, err := n.Backend.ListTables(ctx)
	if err != nil {
		return nil, err
	}
	own := names[:0:0]
	for _, name := range names {
		lower := strings.ToLower(name)
		switch {
		case n.prefix != "":
			if strings.HasPrefix(lower, n.prefix) {
				own = append(own, name[len(n.prefix):])
			}
		case n.hiddenBy(name) == "":
			own = append(own, name)
		}
	}
	return own, nil
}

// hiddenBy is the other account's prefix table starts with, or "".
func (n namespace) hiddenBy(table string) string {
	lower := strings.ToLower(table)
	for _, h := range n.hide {
		if strings.HasPrefix(lower, h) {
			return h
		}
	}
	return ""
}

func (n namespace) Write(ctx context.Context, table string, op backend.Operation) (*odata.Entity, error) {
	full, err := n.stored(table)
	if err != nil {
		return nil, err
	}
	e, err := n.Backend.Write(ctx, full, op)
	return e, n.plain(err, full, table)
}

func (n namespace) Batch(ctx context.Context, table string, ops []backend.Operation) ([]*odata.Entity, error) {
	full, err := n.stored(table)
	if err != nil {
		return nil, err
	}
	es, err := n.Backend.Batch(ctx, full, ops)
	return es, n.plain(err, full, table)
}

func (n namespace) Get(ctx context.Context, table, pk, rk string) (*odata.Entity, error) {
	full, err := n.stored(table)
	if err != nil {
		return nil, err
	}
	e, err := n.Backend.Get(ctx, full, pk, rk)
	return e, n.plain(err, full, table)
}

func (n namespace) Query(ctx context.Context, table string, req backend.QueryRequest, fn func(*odata.Entity) error) (*backend.QueryResult, error) {
	full, err := n.stored(table)
	if err != nil {
		return nil, err
	}
	res, err := n.Backend.Query(ctx, full, req, fn)
	return res, n.plain(err, full, table)
}

func (n namespace) Load(ctx context.Context, table string, kind backend.OpKind, src backend.EntitySource, opts backend.LoadOptions) (*backend.LoadResult, error) {
	full, err := n.stored(table)
	if err != nil {
		return nil, err
	}
	res, err := n.Backend.Load(ctx, full, kind, src, opts)
	return res, n.plain(err, full, table)
}
