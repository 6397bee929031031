package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
	"rightsize/catalog"
)

// grab keeps the Context go-app hands a component natively (OnPreRender),
// for the methods that use the browser's storage.
type grab struct {
	app.Compo
	ctx app.Context
}

func (g *grab) OnPreRender(ctx app.Context) { g.ctx = ctx }
func (g *grab) OnMount(ctx app.Context)     { g.ctx = ctx } // in the browser
func (g *grab) Render() app.UI              { return app.Div() }

func contextOf(t *testing.T) app.Context {
	t.Helper()
	e := app.NewTestEngine()
	g := &grab{}
	if err := e.Load(g); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return g.ctx
}

// bigSheet is a CSV of n new offers, 38 bytes a row (100,000 rows: 3.9 MB,
// under the page's 4 MiB).
func bigSheet(n int) string {
	var b strings.Builder
	b.WriteString("provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency,as_of,source\n")
	for i := range n {
		fmt.Fprintf(&b, "aws,x%06d,t4,1,%d.25,USD,2026-11-01,q\n", i, 1+i%9)
	}
	return b.String()
}

// TestLargeSheetPage: a 4 MiB sheet of 100,000 new offers is applied and
// the page recomputed, every row an offer of the user's (it took over ten
// minutes in the browser when the merge compared every row with every
// offer). Its time is BenchmarkLargeSheet's to measure (make bench): a
// wall-clock bound here failed on a loaded machine, not on slower code.
func TestLargeSheetPage(t *testing.T) {
	c, _ := load(t)
	sheet := bigSheet(100_000)
	if len(sheet) > maxSheetBytes {
		t.Fatalf("the test sheet is %d bytes, over the page's limit", len(sheet))
	}
	start := time.Now()
	if !c.applySheet(none, "big.csv", sheet) {
		t.Fatalf("refused: %s", c.sheet.Err)
	}
	took := time.Since(start)
	t.Logf("100,000 rows applied and the page recomputed in %v", took.Round(time.Millisecond))
	if c.sheet.Rows != 100_000 || len(c.pr.Own) != 100_000 {
		t.Errorf("%d rows, %d offers of the sheet", c.sheet.Rows, len(c.pr.Own))
	}
}

// BenchmarkLargeSheet: applying TestLargeSheetPage's 100,000-row sheet
// and recomputing the page.
func BenchmarkLargeSheet(b *testing.B) {
	sheet := bigSheet(100_000)
	for b.Loop() {
		b.StopTimer()
		c, _ := load(b)
		b.StartTimer()
		if !c.applySheet(none, "big.csv", sheet) {
			b.Fatalf("refused: %s", c.sheet.Err)
		}
	}
}

// TestSheetInSlices: the slice callback sees the progress grow and can
// stop a load that a newer one replaced.
func TestSheetInSlices(t *testing.T) {
	c, _ := load(t)
	var seen []float64
	cat, _, n, err := c.sheet.base.MergeOwnPrices([]byte(bigSheet(2_000)), func(p float64) bool { seen = append(seen, p); return true })
	if err != nil || cat == nil || n != 2_000 || len(seen) != 2_000/256 {
		t.Fatalf("rows %d, error %v, %d steps", n, err, len(seen))
	}
	for i := 1; i < len(seen); i++ {
		if !(seen[i] > seen[i-1]) || seen[i] > 1 {
			t.Fatalf("progress %v", seen)
		}
	}
	if _, _, _, err := c.sheet.base.MergeOwnPrices([]byte(bigSheet(2_000)), func(float64) bool { return false }); err != catalog.ErrPriceSheetStopped {
		t.Errorf("a stopped load: %v", err)
	}
}

// TestSavedSheetKept: a saved sheet that no longer applies stays saved;
// the page says what failed and offers to remove it. The message names the
// unknown offer, not an empty GPU.
func TestSavedSheetKept(t *testing.T) {
	ctx := contextOf(t)
	bad := savedFile{"old.csv", "offer_id,on_demand_per_hour,as_of,source\nno-such-offer,1,2026-11-01,q\naws-g4dn.xlarge,0.4,2026-11-01,q\n"}
	if err := ctx.LocalStorage().Set(pricesKey, bad); err != nil {
		t.Fatal(err)
	}
	c, _ := load(t)
	c.loadSaved(ctx)
	var kept savedFile
	if err := ctx.LocalStorage().Get(pricesKey, &kept); err != nil || kept != bad {
		t.Fatalf("the saved sheet was not kept: %+v, %v", kept, err)
	}
	html := app.HTMLString(sheetUIOf(c))
	for _, want := range []string{tr(c, page.MsgSavedKept), "old.csv", `offer_id &#34;no-such-offer&#34; is not in the catalog`, `id="rs-prices-clear"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the prices box lacks %q:\n%s", want, html)
		}
	}
	if strings.Contains(html, `gpu &#34;&#34;`) {
		t.Error(`the message blames gpu ""`)
	}
	c.onSheet(ctx, app.Action{Value: userFile{Remove: true}})
	if err := ctx.LocalStorage().Get(pricesKey, &kept); err != nil || kept.Text != "" && kept == bad {
		// Del leaves nothing to read.
		var again savedFile
		ctx.LocalStorage().Get(pricesKey, &again)
		if again.Text != "" {
			t.Error("removing did not drop the saved sheet")
		}
	}
	if strings.Contains(app.HTMLString(sheetUIOf(c)), tr(c, page.MsgSavedKept)) {
		t.Error("the failed-sheet message stays after removing it")
	}
}

// TestSavedConfigKept: the same for a saved config.json.
func TestSavedConfigKept(t *testing.T) {
	ctx := contextOf(t)
	bad := savedFile{"broken.json", `{"model_type": "llama", "hidden_size": -1}`}
	if err := ctx.LocalStorage().Set(configKey, bad); err != nil {
		t.Fatal(err)
	}
	c, _ := load(t)
	c.loadSaved(ctx)
	var kept savedFile
	if err := ctx.LocalStorage().Get(configKey, &kept); err != nil || kept != bad {
		t.Fatalf("the saved config was not kept: %+v, %v", kept, err)
	}
	html := app.HTMLString(configUIOf(c))
	for _, want := range []string{tr(c, page.MsgSavedKept), "broken.json", `id="rs-config-drop"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the config box lacks %q:\n%s", want, html)
		}
	}
	c.onConfig(ctx, app.Action{Value: userFile{Remove: true}})
	var again savedFile
	ctx.LocalStorage().Get(configKey, &again)
	if again.Text != "" || strings.Contains(app.HTMLString(configUIOf(c)), `id="rs-config-drop"`) {
		t.Error("removing did not drop the saved config")
	}
}

// TestExcelSheetOnPage: Excel's "CSV UTF-8" (a byte-order mark, CRLF) loads.
func TestExcelSheetOnPage(t *testing.T) {
	c, _ := load(t)
	if !c.applySheet(none, "excel.csv", "\ufeffoffer_id,on_demand_per_hour,as_of,source\r\naws-g4dn.xlarge,0.4,2026-11-01,quote\r\n") {
		t.Fatalf("refused: %s", c.sheet.Err)
	}
}
