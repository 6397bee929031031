package catalog

import (
	"errors"
	"io"
)

// MaxOwnPriceBytes caps a sheet of the user's own prices, as the page's
// file picker does: a few thousand offers is a large price list.
const MaxOwnPriceBytes = 4 << 20

// WithOwnPrices returns a copy of c with a sheet of the user's own prices
// (the page's price-sheet format, CSV or JSON, the same validation)
// merged in: every offer it touches carries Offer.UserPrice, so the
// planner ranks it unflagged. c is not changed. It returns how many rows
// were applied; an error names the row.
func (c *Catalog) WithOwnPrices(data []byte) (*Catalog, int, error) {
	if len(data) > MaxOwnPriceBytes {
		return nil, 0, errors.New("catalog: price sheet: over 4 MiB")
	}
	r, err := NewPriceSheetReader(data)
	if err != nil {
		return nil, 0, err
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
			return nil, n, err
		}
		n++
	}
	if n == 0 {
		return nil, 0, errors.New("catalog: price sheet: no rows")
	}
	out, _ := m.Done()
	return out, n, nil
}
