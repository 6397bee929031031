package app

import (
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// TestCompareTableRendered: the comparison renders one column per plan
// (its cells: page.TestComparisonCellsAreTheTables), each figure under
// its row's name for the phone's cards, and the link carries it in order.
func TestCompareTableRendered(t *testing.T) {
	c, _ := load(t)
	for _, r := range viewOf(c).Offers.Rows {
		if r.Cmp >= 0 && len(c.cmp.ids) < 3 {
			c.cmp.ids = append(c.cmp.ids, r.ID)
		}
	}
	doc := app.HTMLString(&plansTable{V: &viewOf(c).Plans})
	if n := strings.Count(doc, `class="num rs-cmp-cost"`); n != len(c.cmp.ids) || n == 0 {
		t.Errorf("%d cost cells for %d plans", n, len(c.cmp.ids))
	}
	if n := strings.Count(doc, `data-label="`); n != 5*len(c.cmp.ids) {
		t.Errorf("%d cells with a data-label for %d plans of 5 figures", n, len(c.cmp.ids))
	}
	if n := strings.Count(doc, `class="rs-cmp-remove"`); n != len(c.cmp.ids) {
		t.Errorf("%d remove buttons for %d plans", n, len(c.cmp.ids))
	}
	if l := c.link().Encode(page.DefaultState); !strings.Contains(l, "cmp="+page.EncodeCompare(c.cmp.ids)) {
		t.Errorf("link %q lacks the comparison %q", l, c.cmp.ids)
	}
}

// TestCompareButtons: each planned row has a "+ Compare" button that
// reads as pressed once its plan is in; with the comparison full the
// others say they cannot add.
func TestCompareButtons(t *testing.T) {
	c, _ := load(t)
	c.state = c.state.WithAll(page.SecOffers, true)
	c.recompute(none)
	rows := viewOf(c).Offers.Rows
	var ids []string
	for _, r := range rows {
		if r.Cmp >= 0 {
			ids = append(ids, r.ID)
		}
	}
	if len(ids) <= page.MaxCompare {
		t.Fatalf("%d planned offers: too few to fill the comparison", len(ids))
	}
	c.cmp.ids = ids[:page.MaxCompare]
	v := viewOf(c)
	doc := app.HTMLString(tableUI(page.OfferTable("en", &v.Offers)))
	// (go-app writes a "true" attribute bare in HTML: aria-pressed.)
	on := func(attr string) int { return len(regexp.MustCompile(attr+`(="true"|[ >])`).FindAllString(doc, -1)) }
	if n := on("aria-pressed"); n != page.MaxCompare {
		t.Errorf("%d pressed compare buttons, want %d", n, page.MaxCompare)
	}
	if n := on("aria-disabled"); n != len(ids)-page.MaxCompare {
		t.Errorf("%d compare buttons say full, want %d", n, len(ids)-page.MaxCompare)
	}
	fit := app.HTMLString(tableUI(page.FitTable("en", &v.Fit)))
	if !strings.Contains(fit, `class="rs-cmp-add"`) {
		t.Error("the fit table has no compare buttons")
	}
}

// TestCompareLinkNote: a link's comparison keeps what reads; the rest is
// named in the link note; an offer without a plan for the job says so.
func TestCompareLinkNote(t *testing.T) {
	c, _ := load(t)
	rows := viewOf(c).Offers.Rows
	id := rows[0].ID
	c.applyFragment(none, "m=llama-3.1-8b&cmp="+id+",bad!id,"+id+",no-such-offer")
	if len(c.cmp.ids) != 2 || c.cmp.ids[0] != id || c.cmp.ids[1] != "no-such-offer" {
		t.Fatalf("comparison %q", c.cmp.ids)
	}
	if strings.Join(c.share.notes.cmp, ",") != "bad!id,"+id || len(c.share.notes.link) != 0 {
		t.Errorf("ignored: comparison %q, link %q", c.share.notes.cmp, c.share.notes.link)
	}
	if v, _ := textByID(app.HTMLString(c.Render()), "rs-cmp-ignored"); !strings.HasPrefix(v, "Left out of the comparison") || !strings.HasSuffix(v, ": bad!id · "+id) {
		t.Errorf("the comparison's note reads %q", v)
	}
	cols := viewOf(c).Plans.Cols
	if !cols[0].OK || cols[1].OK || cols[1].Cost != "—" {
		t.Errorf("columns %+v", cols)
	}
	if doc := app.HTMLString(c.Render()); !strings.Contains(doc, `id="rs-plans"`) || !strings.Contains(doc, page.Tr("en", page.MsgCompareNoPlan)) {
		t.Error("the page shows no comparison, or no word on the plan it lacks")
	}
	// A fifth plan is refused, and the comparison says why; removing one
	// clears the note. (onCompare is what every "+ Compare" and ✕ does.)
	ctx := contextOf(t)
	c.cmp.ids = []string{"a", "b", "c", "d"}
	c.onCompare(ctx, app.Action{Value: id})
	if doc := app.HTMLString(&plansTable{V: &viewOf(c).Plans}); len(c.cmp.ids) != page.MaxCompare || !strings.Contains(doc, `id="rs-plans-full"`) || !strings.Contains(doc, "holds 4 plans") {
		t.Errorf("a fifth plan: comparison %q, note shown %v", c.cmp.ids, strings.Contains(doc, `id="rs-plans-full"`))
	}
	c.onCompare(ctx, app.Action{Value: "b"})
	if c.cmp.full || strings.Join(c.cmp.ids, ",") != "a,c,d" {
		t.Errorf("after removing b: comparison %q, full %v", c.cmp.ids, c.cmp.full)
	}
}

// TestEmbedNoComparison: the embed page shows no comparison, and its
// chart no "+ Compare" on the point shown; the link's plans go on to the
// full page through "Open in Rightsize".
func TestEmbedNoComparison(t *testing.T) {
	c, _ := load(t)
	rows := viewOf(c).Offers.Rows
	id := rows[0].ID
	for _, embed := range []bool{false, true} {
		frag := "cmp=" + id
		if embed {
			frag += "&embed=1"
		}
		c.applyFragment(none, frag)
		if c.embed != embed || len(c.cmp.ids) != 1 {
			t.Fatalf("%q: embed %v, comparison %q", frag, c.embed, c.cmp.ids)
		}
		doc := app.HTMLString(c.Render())
		if strings.Contains(doc, `id="rs-plans"`) == embed {
			t.Errorf("%q: comparison shown %v, want %v", frag, embed, !embed)
		}
		ch := viewOf(c).Answer.Chart
		p := &pareto{Points: ch.Points, Lang: "en", Compared: c.cmp.ids, ReadOnly: c.embed}
		if len(p.Points) == 0 {
			t.Fatalf("%q: no chart", frag)
		}
		p.cur.Shown = 1
		if strings.Contains(app.HTMLString(p.Render()), `id="rs-pareto-cmp"`) == embed {
			t.Errorf("%q: the chart's + Compare shown %v, want %v", frag, embed, !embed)
		}
	}
	if l := fullLinkOf(c); !strings.Contains(l, "cmp="+id) || strings.Contains(l, "embed") {
		t.Errorf("open-in-Rightsize link %q", l)
	}
}
