package app

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/catalog"
)

// A user's own price sheet (negotiated or refreshed prices) in the format
// "rightsize catalog import-prices" reads (catalog.ParsePriceSheet). It is
// applied over the built-in catalog in the browser, never uploaded, and kept
// in localStorage so it survives reloads and offline use.

// pricesKey is the localStorage key of the loaded sheet.
const pricesKey = "rightsize.prices/v1"

// maxSheetBytes bounds a sheet read into the page (a full catalog export
// as CSV is about 300 KB).
const maxSheetBytes = 4 << 20

// savedFile is what localStorage keeps of a file the user loaded (a price
// sheet or a config.json): its name and text.
type savedFile struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// applySheet parses a sheet and applies it over the built-in catalog. On
// error the previous prices stay and the message is shown next to the
// file picker.
func (c *Calculator) applySheet(name, text string) bool {
	c.sheetErr = ""
	if len(text) > maxSheetBytes {
		c.sheetErr = name + ": " + c.tooBig(maxSheetBytes)
		return false
	}
	rows, err := catalog.ParsePriceSheet(strings.NewReader(text))
	if err == nil && len(rows) == 0 {
		err = errNoRows
	}
	var cat *catalog.Catalog
	var changes []catalog.PriceChange
	if err == nil {
		cat, changes, err = c.base.WithPrices(rows)
	}
	if err != nil {
		c.sheetErr = name + ": " + c.t(mBadSheet) + ": " + strings.TrimPrefix(err.Error(), "catalog: ")
		return false
	}
	own := map[string]bool{}
	for _, ch := range changes {
		own[ch.OfferID] = true
	}
	c.pr = newPrices(cat, own)
	c.sheetName, c.sheetRows = name, len(rows)
	c.recompute()
	return true
}

// clearSheet returns to the built-in prices.
func (c *Calculator) clearSheet() {
	c.pr = newPrices(c.base, nil)
	c.sheetName, c.sheetRows, c.sheetErr = "", 0, ""
	c.recompute()
}

type sheetError string

func (e sheetError) Error() string { return string(e) }

const errNoRows = sheetError("price sheet: no rows")

// loadSavedSheet re-applies the sheet kept from an earlier visit.
func (c *Calculator) loadSavedSheet(ctx app.Context) {
	var s savedFile
	if err := ctx.LocalStorage().Get(pricesKey, &s); err != nil || s.Text == "" {
		return
	}
	if !c.applySheet(s.Name, s.Text) {
		ctx.LocalStorage().Del(pricesKey)
	}
}

// readFile reads the first of files (a file input's or a drop's) with the
// browser's File.text() and hands its name and text to use on the UI
// goroutine; the page never sends it anywhere. Files over limit bytes are
// refused before they are read.
func (c *Calculator) readFile(ctx app.Context, files app.Value, limit int, fail func(name, why string), use func(ctx app.Context, name, text string)) {
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	f := files.Index(0)
	name := f.Get("name").String()
	if f.Get("size").Int() > limit {
		fail(name, c.tooBig(limit))
		return
	}
	settle(ctx, f.Call("text"),
		func(ctx app.Context, v app.Value) { use(ctx, name, v.String()) },
		func(ctx app.Context) { fail(name, c.t(mSheetUnreadable)) })
}

// settle waits for a JavaScript promise and runs done with its value, or
// failed, on the UI goroutine; both callbacks are released once it settles.
func settle(ctx app.Context, promise app.Value, done func(app.Context, app.Value), failed func(app.Context)) {
	var ok, bad app.Func
	release := func() { ok.Release(); bad.Release() }
	ok = app.FuncOf(func(this app.Value, args []app.Value) any {
		var v app.Value = app.Undefined()
		if len(args) > 0 {
			v = args[0]
		}
		ctx.Dispatch(func(ctx app.Context) { done(ctx, v) })
		release()
		return nil
	})
	bad = app.FuncOf(func(this app.Value, args []app.Value) any {
		ctx.Dispatch(failed)
		release()
		return nil
	})
	promise.Call("then", ok, bad)
}

// onPriceFile applies a picked price sheet and keeps it for later visits.
func (c *Calculator) onPriceFile(ctx app.Context, e app.Event) {
	c.readFile(ctx, ctx.JSSrc().Get("files"), maxSheetBytes, func(name, why string) { c.sheetErr = name + ": " + why },
		func(ctx app.Context, name, text string) {
			if c.applySheet(name, text) {
				// A full localStorage only loses the copy for the next visit.
				ctx.LocalStorage().Set(pricesKey, savedFile{name, text})
			}
		})
}

func (c *Calculator) onClearPrices(ctx app.Context, e app.Event) {
	ctx.LocalStorage().Del(pricesKey)
	c.clearSheet()
}

// tooBig says a file is over limit bytes, in the page's language.
func (c *Calculator) tooBig(limit int) string {
	return c.t(mFileTooBig) + " (" + c.loc().fixed(float64(limit)/(1<<10), 0) + " " + c.t(mKiB) + ")"
}

func (c *Calculator) renderPrices() app.UI {
	status := app.P().Class("rs-sub").Text(c.t(mSheetHelp))
	if c.sheetName != "" {
		status = app.P().Class("rs-ok").ID("rs-prices-status").Text(
			c.sheetName + " · " + c.t(mSheetRows) + ": " + strconv.Itoa(c.sheetRows) + " · " +
				c.t(mSheetOffers) + ": " + strconv.Itoa(len(c.pr.own)))
	}
	return app.Section().Class("rs-prices").Body(
		app.H2().Text(c.t(mSheetTitle)),
		status,
		app.Div().Class("rs-field rs-file").Body(
			app.Label().For("rs-prices-file").Text(c.t(mSheetPick)),
			app.Input().Type("file").ID("rs-prices-file").Accept(".csv,.json,text/csv,application/json").
				Attr("aria-invalid", c.sheetErr != "").OnChange(c.onPriceFile),
			app.If(c.sheetErr != "", func() app.UI {
				return app.P().Class("rs-error").ID("rs-prices-file-error").Text(c.sheetErr)
			}),
		),
		app.If(c.sheetName != "", func() app.UI {
			return app.Button().Class("rs-more").ID("rs-prices-clear").OnClick(c.onClearPrices).Text(c.t(mSheetClear))
		}),
	)
}
