package cmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/design"
	"github.com/tstable/tstable/keyspace"
	"github.com/tstable/tstable/odata"
)

// drawFlags are --draw and --no-draw: draw the picture always, or never
// (by default, on a terminal wide enough).
type drawFlags struct{ draw, noDraw bool }

// wants reports whether the picture is drawn for printer p.
func (d drawFlags) wants(p *Printer) bool {
	if d.noDraw {
		return false
	}
	return d.draw || p.DrawsByDefault()
}

// addDrawFlags adds --draw and --no-draw.
func addDrawFlags(c *cobra.Command, d *drawFlags) {
	c.Flags().BoolVar(&d.draw, "draw", false, "draw the table's key space, also off a terminal")
	c.Flags().BoolVar(&d.noDraw, "no-draw", false, "do not draw the key space (drawn by default on a terminal)")
}

// footerDrawer is a Session that may ask for the key space under every
// query result (the shell's explain draw).
type footerDrawer interface{ ExplainDraw() bool }

// drawFooter draws the key space under a query's result when the shell
// asks for it and the output is for people.
func (f *Factory) drawFooter(ctx context.Context, p *parsedQuery, plan *odata.Plan) error {
	d, ok := f.Session.(footerDrawer)
	if !ok || !d.ExplainDraw() || !f.printer.ForPeople() {
		return nil
	}
	var m *keyspace.Model
	err := f.Read(ctx, p.table, func(b backend.Backend) (err error) {
		m, err = design.KeySpace(ctx, b, p.table, p.query, plan)
		return err
	})
	if err != nil {
		return err
	}
	return f.printer.Picture(keyspace.Text(m, f.printer.DrawStyle()))
}
