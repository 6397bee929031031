package app

import (
	"slices"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
	"rightsize/catalog"
)

// BenchmarkStartup is the page's start-up work after the wasm is loaded:
// the catalog tables (generated Go, no decoding), the cheapest-offer index
// and the first full estimate with its GPU-fit and offer tables. Run it in
// the browser with make bench.
func BenchmarkStartup(b *testing.B) {
	for b.Loop() {
		c := &Calculator{}
		c.OnInit()
		if !c.d.R.OK {
			b.Fatal("no result")
		}
	}
}

// BenchmarkCatalogIndex is the part of start-up that touches every offer.
func BenchmarkCatalogIndex(b *testing.B) {
	cat := catalog.Default()
	for b.Loop() {
		if len(page.CheapestUSD(cat)) == 0 {
			b.Fatal("no prices")
		}
	}
}

// BenchmarkRecompute is one input change: estimate, solvers, the fit table
// over every GPU (with a GPUs-needed search each) and the offers table.
func BenchmarkRecompute(b *testing.B) {
	c := &Calculator{}
	c.OnInit()
	for b.Loop() {
		c.recompute(none)
	}
}

// BenchmarkMount renders and mounts the whole page in go-app's engine:
// the first DOM the app builds when it starts (in the browser, through
// syscall/js).
func BenchmarkMount(b *testing.B) {
	for b.Loop() {
		e := app.NewTestEngine()
		c := &Calculator{}
		if err := e.Load(c); err != nil {
			b.Fatal(err)
		}
		e.ConsumeAll()
	}
}

// benchPage keeps the engine's context so a benchmark can drive updates.
type benchPage struct {
	Calculator
	ctx app.Context
}

func (p *benchPage) OnMount(ctx app.Context) { p.ctx = ctx; p.Calculator.OnMount(ctx) }

// BenchmarkUpdate is one input change through the engine: compute and the
// DOM update (in the browser, through syscall/js). Run it in Chromium with
// make bench.
func BenchmarkUpdate(b *testing.B) {
	e := app.NewTestEngine()
	p := &benchPage{}
	if err := e.Load(p); err != nil {
		b.Fatal(err)
	}
	e.ConsumeAll()
	if !app.IsClient {
		b.Skip("OnMount runs only in the browser")
	}
	i := 0
	for b.Loop() {
		i++
		v := []string{"2", "8"}[i%2]
		p.ctx.Dispatch(func(ctx app.Context) { p.set(ctx, page.FieldBatch, v) })
		e.ConsumeAll()
	}
}

// uiHost mounts one part of the page.
type uiHost struct {
	app.Compo
	ui func() app.UI
}

func (h *uiHost) Render() app.UI { return app.Div().Body(h.ui()) }

// BenchmarkMountParts mounts each part of the default page alone, to see
// where the first render's time goes.
func BenchmarkMountParts(b *testing.B) {
	c := &Calculator{}
	c.OnInit()
	for _, part := range []struct {
		name string
		ui   func() app.UI
	}{
		{"answer", func() app.UI { return answerOf(c) }}, {"inputs", func() app.UI { return formUI(&viewOf(c).Form) }}, {"result", func() app.UI { return resultUI(viewOf(c), c.d.R.OK) }},
		{"perf", func() app.UI { return &perfSection{V: &viewOf(c).Perf, Lang: "en"} }},
		{"rules", func() app.UI { return &rulesSection{V: &viewOf(c).Rules, Lang: "en"} }},
		{"fit", func() app.UI { return &fitSection{V: &viewOf(c).Fit, Lang: "en"} }},
		{"offers", func() app.UI { return &offersSection{V: &viewOf(c).Offers, Lang: "en"} }}, {"export", func() app.UI { return nodeUI(page.ExportNode("en", false), hooks{}) }},
		{"prices", func() app.UI { return sheetUIOf(c) }}, {"custom", func() app.UI { return configUIOf(c) }},
	} {
		b.Run(part.name, func(b *testing.B) {
			for b.Loop() {
				e := app.NewTestEngine()
				if err := e.Load(&uiHost{ui: part.ui}); err != nil {
					b.Fatal(err)
				}
				e.ConsumeAll()
			}
		})
	}
}

// TestRestShownInSteps: in the browser the sections below the first screen
// arrive in restStages steps after mount, then all of them, and the page
// ends complete, with every section rendered once.
func TestRestShownInSteps(t *testing.T) {
	if !app.IsClient {
		t.Skip("OnMount runs only in the browser")
	}
	e := app.NewTestEngine()
	p := &benchPage{}
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	if p.start.RestShown != 0 {
		t.Fatalf("before mount: %d sections below the first screen, want 0", p.start.RestShown)
	}
	var seen []int
	for range 20 {
		e.ConsumeNext()
		if n := p.start.RestShown; n > 0 && (len(seen) == 0 || seen[len(seen)-1] != n) {
			seen = append(seen, n)
		}
		if p.start.RestShown == nRest && !p.ps.Pending() {
			break
		}
	}
	// The stages, then every section (the last step).
	if want := append(slices.Clone(page.RestStages), nRest); !slices.Equal(seen, want) {
		t.Errorf("sections shown in steps %v, want %v", seen, want)
	}
	if !p.start.Live || p.ps.Pending() {
		t.Errorf("after the steps: live %v, plan pending %v", p.start.Live, p.ps.Pending())
	}
}

// frameHost re-renders the page's tree on each change of N, as go-app's
// frame after an input re-renders the Calculator: its Render, go-app's
// diff against the last tree and the leaves whose props changed.
type frameHost struct {
	app.Compo
	N int
	c *Calculator
}

func (h *frameHost) Render() app.UI { return h.c.Render() }

// frameBench holds a page whose batch size the frame after an input
// sets to 2 or 8 in turn (as TestE2EInputUpdate types it), the re-plan
// pending: the job computed and its view built, as the input's handler
// leaves them (viewMemo), mounted in go-app's test engine.
type frameBench struct {
	e    app.TestEngine
	c    *Calculator
	ins  [2]frameInput
	next int
}

type frameInput struct {
	state page.ViewState
	d     page.Derived
	memo  viewMemo
}

func newFrameBench(t testing.TB) *frameBench {
	f := &frameBench{c: &Calculator{}, e: app.NewTestEngine()}
	c := f.c
	c.OnInit()
	for i, v := range []string{"2", "8"} {
		c.state[page.FieldBatch] = v
		c.d = page.Derive(c.state, nil, c.pr, nil, "")
		c.ps.Status = page.PlanPending
		c.memo.derived++
		c.memo.view(c)
		f.ins[i] = frameInput{c.state, c.d, c.memo}
	}
	if err := f.e.Load(&frameHost{c: c}); err != nil {
		t.Fatal(err)
	}
	f.e.ConsumeAll()
	return f
}

// frame is the frame after the next input: the Calculator's render and
// go-app's diff.
func (f *frameBench) frame(t testing.TB) {
	f.next++
	in := &f.ins[f.next%2]
	f.c.state, f.c.d, f.c.memo = in.state, in.d, in.memo
	if err := f.e.Load(&frameHost{N: f.next, c: f.c}); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkFrame is the frame after one input (frameBench). Natively
// go-app writes no DOM; compiled to WebAssembly (make bench) it writes
// the changed nodes too.
func BenchmarkFrame(b *testing.B) {
	f := newFrameBench(b)
	b.ReportAllocs()
	for b.Loop() {
		f.frame(b)
	}
}

// TestFrameAllocs: the frame after a batch change re-renders only the
// leaves whose props changed: not the memory breakdown (on vLLM the batch
// moves one of its facts, not its parts), not the facts that stayed, not
// the fields, boxes and job-line parts whose values stayed, not the
// closed sections. Natively it allocated 2,744 objects when the breakdown
// and the facts were one leaf with the section, 1,854 with props copied
// by value and the closed sections, form boxes and job line rendered with
// the page, 975 since (2026-11-30); every object is the WebAssembly
// runtime's work too, and the garbage collector's.
func TestFrameAllocs(t *testing.T) {
	f := newFrameBench(t)
	n := testing.AllocsPerRun(20, func() { f.frame(t) })
	if n > 1050 {
		t.Errorf("the frame after a batch change allocates %.0f objects, want at most 1050", n)
	}
	t.Logf("%.0f objects a frame", n)
}

// TestOpenSectionFollowsInput: a section below the first screen is a
// leaf (fold) that go-app skips while it is closed, but an open one
// renders with the page: after a model change, the page go-app holds,
// the open fit table with it, is the page a fresh render shows.
func TestOpenSectionFollowsInput(t *testing.T) {
	c := &Calculator{}
	c.OnInit()
	c.state = c.state.WithOpen(page.SecFit, true)
	c.start.RestShown = nRest // in the browser they come in steps after mount
	c.recompute(none)
	h, e := &frameHost{c: c}, app.NewTestEngine()
	if err := e.Load(h); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	before := app.HTMLString(h)
	c.set(none, page.FieldModel, "llama-3.1-70b")
	if err := e.Load(&frameHost{N: 1, c: c}); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	fit := func(doc string) string { s, _ := innerTextByID(doc, "rs-fit", "table"); return s }
	if got, want := fit(app.HTMLString(h)), fit(app.HTMLString(c.Render())); got == fit(before) || got != want {
		t.Errorf("after a model change the open fit table reads %.200q…, a fresh render %.200q…", got, want)
	}
}
