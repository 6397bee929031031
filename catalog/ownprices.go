package catalog

import (
	"errors"
	"io"
)

// MaxOwnPriceBytes caps a sheet of the user's own prices, the page's file
// picker's and the CLI's --prices: a few thousand offers is a large price
// list (a full catalog export as CSV is about 300 KB).
const MaxOwnPriceBytes = 4 << 20

// The outcomes of MergeOwnPrices that are not a row's error.
var (
	ErrNoPriceRows       = errors.New("catalog: price sheet: no rows")
	ErrPriceSheetStopped = errors.New("catalog: price sheet: replaced before it was applied")
)

// MergeOwnPrices returns a copy of c with a sheet of the user's own prices
// (the page's price-sheet format, CSV or JSON, the same validation)
// merged in, one row at a time: every offer it touches carries
// Offer.UserPrice, so the planner ranks it unflagged. c is not changed.
// Every 256 rows it calls step, when set, with the share read, and stops
// with ErrPriceSheetStopped when step returns false (the page applies a
// large sheet in slices). It returns the changes and how many rows were
// applied; an error names the row.
func (c *Catalog) MergeOwnPrices(data []byte, step func(progress float64) bool) (*Catalog, []PriceChange, int, error) {
	r, err := NewPriceSheetReader(data)
	if err != nil {
		return nil, nil, 0, err
	}
	m := c.NewPriceMerge()
	m.Own = true
	n := 0
	for {
		row, err := r.Next()
		if err == io.EOF {
			break
		}
		if err == nil {
			err = m.Apply(row)
		}
		if err != nil {
			return nil, nil, n, err
		}
		n++
		if step != nil && n%256 == 0 && !step(r.Progress()) {
			return nil, nil, n, ErrPriceSheetStopped
		}
	}
	if n == 0 {
		return nil, nil, 0, ErrNoPriceRows
	}
	out, changes := m.Done()
	return out, changes, n, nil
}

// WithOwnPrices is MergeOwnPrices at once, for a sheet of at most
// MaxOwnPriceBytes (the CLI's --prices).
func (c *Catalog) WithOwnPrices(data []byte) (*Catalog, int, error) {
	if len(data) > MaxOwnPriceBytes {
		return nil, 0, errors.New("catalog: price sheet: over 4 MiB")
	}
	out, _, n, err := c.MergeOwnPrices(data, nil)
	return out, n, err
}
