package app

import (
	"sync/atomic"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// A user's own price sheet (negotiated or refreshed prices) in the format
// "rightsize catalog import-prices" reads (catalog.ParsePriceSheet). It is
// applied over the built-in catalog in the browser, never uploaded, and kept
// in localStorage so it survives reloads and offline use.

// pricesKey is the localStorage key of the loaded sheet.
const pricesKey = "rightsize.prices/v1"

// maxSheetBytes bounds a sheet read into the page, as the CLI's --prices.
const maxSheetBytes = page.MaxSheetBytes

// savedFile is what localStorage keeps of a file the user loaded (a price
// sheet or a config.json): its name and text.
type savedFile struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// sheetSlice is how long a slice of a large sheet may hold the browser's
// main thread before the page paints, answers input and shows progress;
// sheetPause is the pause between slices.
const (
	sheetSlice = 40 * time.Millisecond
	sheetPause = 8 * time.Millisecond
)

// sheetAsyncBytes: a sheet at least this large is applied in slices in
// the browser (a 64 KiB sheet of about 1,500 rows takes a few
// milliseconds).
const sheetAsyncBytes = 64 << 10

// loadState is what the page says about loading and keeping the user's
// files: a large sheet being applied, a saved file that failed to load
// (kept until the user replaces or drops it), a file the browser's
// storage could not keep.
// priceSheet is the user's price sheet over base, the built-in catalog:
// its file name, rows, why it did not read, and its load.
type priceSheet struct {
	base *page.Catalog
	page.Sheet
	load loadState
}

type loadState struct {
	seq           atomic.Int64 // the newest sheet load; an older one stops
	busy          string       // the sheet being applied, "" when none
	progress      float64      // 0 to 1
	sheetSavedBad bool
	configBad     bool
	sheetUnsaved  bool
	configUnsaved bool
}

// applySheet parses a sheet and applies it over the built-in catalog at
// once. On error the previous prices stay and the message is shown next
// to the file picker.
func (c *Calculator) applySheet(ctx app.Context, name, text string) bool {
	if !c.sheet.Fits(name, text, page.LangOf(&c.state)) {
		return false
	}
	cat, changes, n, err := c.sheet.base.MergeOwnPrices([]byte(text), nil)
	own, ok := c.sheet.Use(name, changes, n, err, page.LangOf(&c.state))
	if ok {
		c.sheet.load.sheetSavedBad = false
		c.pr = clockedPrices(cat, own, c.now)
		c.recompute(ctx)
	}
	return ok
}

// clockedPrices is cat with the offers in own marked as the user's, on
// the page's clock (now; the planner yields to the browser there).
func clockedPrices(cat *page.Catalog, own map[string]bool, now time.Time) page.Prices {
	pr := page.NewPrices(cat, own)
	pr.Today, pr.Yield = now, planYield()
	return pr
}

// loadSheet applies a sheet: at once when it is small or outside the
// browser; in slices of sheetSlice otherwise, with the main thread free
// in between and the progress shown. then runs on the UI goroutine with
// the outcome. A newer load or a return to the built-in prices stops an
// older one.
func (c *Calculator) loadSheet(ctx app.Context, name, text string, then func(ctx app.Context, ok bool)) {
	seq := c.sheet.load.seq.Add(1)
	if !c.sheet.Fits(name, text, page.LangOf(&c.state)) {
		then(ctx, false)
		return
	}
	if !app.IsClient || len(text) < sheetAsyncBytes {
		c.sheet.load.busy = ""
		then(ctx, c.applySheet(ctx, name, text))
		return
	}
	c.sheet.load.busy, c.sheet.load.progress = name, 0
	base := c.sheet.base
	ctx.Async(func() {
		start := time.Now()
		cat, changes, n, err := base.MergeOwnPrices([]byte(text), func(p float64) bool {
			if time.Since(start) < sheetSlice {
				return c.sheet.load.seq.Load() == seq
			}
			ctx.Dispatch(func(ctx app.Context) {
				if c.sheet.load.seq.Load() == seq {
					c.sheet.load.progress = p
				}
			})
			time.Sleep(sheetPause) // the browser paints and handles input
			start = time.Now()
			return c.sheet.load.seq.Load() == seq
		})
		Mark("rightsize:sheet-merged")
		ctx.Dispatch(func(ctx app.Context) {
			if c.sheet.load.seq.Load() != seq {
				return
			}
			c.sheet.load.busy = ""
			own, ok := c.sheet.Use(name, changes, n, err, page.LangOf(&c.state))
			if ok {
				c.sheet.load.sheetSavedBad = false
				c.pr = clockedPrices(cat, own, c.now)
				c.recompute(ctx)
			}
			then(ctx, ok)
			Mark("rightsize:sheet-applied")
		})
	})
}

// loadSaved restores the files kept from an earlier visit: the config,
// without changing the selected model (a config that came with the link
// wins), then the price sheet. A saved file that no longer reads (a newer
// estimator or catalog may refuse what an older took) is kept: the page
// says what failed, and the user loads a corrected file or removes it.
func (c *Calculator) loadSaved(ctx app.Context) {
	var s savedFile
	if c.own.arch == nil && ctx.LocalStorage().Get(configKey, &s) == nil && s.Text != "" {
		if a, msg := page.ReadConfig(s.Name, s.Text, page.LangOf(&c.state)); msg != "" {
			c.sheet.load.configBad = true
			c.own.err = tr(c, page.MsgSavedKept) + " " + msg
		} else {
			c.own.arch, c.own.name, c.own.text = &a, s.Name, s.Text
			c.recompute(ctx)
		}
	}
	s = savedFile{}
	if ctx.LocalStorage().Get(pricesKey, &s) == nil && s.Text != "" {
		c.loadSheet(ctx, s.Name, s.Text, func(ctx app.Context, ok bool) {
			c.sheet.load.sheetSavedBad = !ok
		})
	}
}

// keep saves a file for the next visit and reports whether the browser's
// storage took it (it is full, or refused, in private windows).
func keep(ctx app.Context, key string, f savedFile) bool {
	return ctx.LocalStorage().Set(key, f) == nil
}

// userFile is a file the user hands the page (a price sheet, a
// config.json), as the action of its section carries it: its name and
// text, why it could not be read (Err), or Remove (the sheet's "back to
// catalog prices", the saved config's removal).
type userFile struct {
	Name, Text, Err string
	Remove          bool
}

// readFile reads the first of files (a file input's or a drop's) with the
// browser's File.text() and sends its name and text as action, on the UI
// goroutine; the page never sends it anywhere. Files over limit bytes are
// refused before they are read, and the action says why in language lang.
func readFile(ctx app.Context, action, lang string, files app.Value, limit int) {
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	f := files.Index(0)
	name := f.Get("name").String()
	fail := func(ctx app.Context, why string) { ctx.NewActionWithValue(action, userFile{Err: name + ": " + why}) }
	if f.Get("size").Int() > limit {
		fail(ctx, page.TooBig(lang, limit))
		return
	}
	settle(ctx, f.Call("text"),
		func(ctx app.Context, v app.Value) {
			ctx.NewActionWithValue(action, userFile{Name: name, Text: v.String()})
		},
		func(ctx app.Context) { fail(ctx, page.Tr(lang, page.MsgSheetUnreadable)) })
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

// actionSheet carries the price section's userFile to the page: a sheet
// read, one that could not be, or Remove (back to the catalog's prices).
const actionSheet = "rs/sheet"

// onSheet applies a picked price sheet and keeps it for later visits, or
// returns to the built-in prices.
func (c *Calculator) onSheet(ctx app.Context, a app.Action) {
	m, ok := a.Value.(userFile)
	switch {
	case !ok:
	case m.Remove:
		ctx.LocalStorage().Del(pricesKey)
		c.sheet.load.seq.Add(1) // stops a load under way
		c.sheet.load.busy, c.sheet.load.sheetSavedBad, c.sheet.load.sheetUnsaved = "", false, false
		c.sheet.Sheet = page.Sheet{}
		c.pr = clockedPrices(c.sheet.base, nil, c.now)
		c.recompute(ctx)
	case m.Err != "":
		c.sheet.Err = m.Err
	default:
		c.loadSheet(ctx, m.Name, m.Text, func(ctx app.Context, ok bool) {
			if ok {
				c.sheet.load.sheetUnsaved = !keep(ctx, pricesKey, savedFile{m.Name, m.Text})
			}
		})
	}
}

// sheetBox is the "Your prices" section: the sheet in use or being
// applied, its problem, and the file picker.
type sheetBox struct {
	app.Compo
	Lang string
	V    page.SheetBox
}

func (s *sheetBox) Render() app.UI {
	return nodeUI(page.SheetNode(s.Lang, &s.V), hooks{on: map[string]app.EventHandler{"pick": s.onPick, "clear": s.onClear}})
}

func (s *sheetBox) onPick(ctx app.Context, e app.Event) {
	readFile(ctx, actionSheet, s.Lang, ctx.JSSrc().Get("files"), maxSheetBytes)
}

func (s *sheetBox) onClear(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(actionSheet, userFile{Remove: true})
}
