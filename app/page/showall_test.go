package page

import (
	"slices"
	"strings"
	"testing"
)

// The fit table shows its FitShown best rows, in the table's order, and
// "Show all (+N)" for the rest: the GPUs the job fits first, the cheapest
// plan first, and the selected GPU wherever it ranks.
func TestFitTableShowsItsBestRows(t *testing.T) {
	for _, c := range []struct {
		frag string
		fits int // rows shown that fit with the user's own setup
	}{
		{"", FitShown}, // Llama 3.1 8B: 50 of 57 GPUs hold it
		// Llama 3.1 70B on vLLM (auto): 7 hold it on one GPU within
		// vLLM's 0.9 memory share (an H200's 126 GB do not hold its 141 GB
		// of weights); the selected H100 needs two.
		{"m=llama-3.1-70b", 7},
		{"sort=cost", FitShown},                // the cheapest first
		{"m=llama-3.1-70b&sort=cost", 7},       // the same rows by cost
		{"m=llama-3.1-70b&show=fit", 7},        // an open section is not a whole table
		{"m=llama-3.1-70b&show=all-offers", 7}, // nor is the offers table shown whole
		{"m=llama-3.1-70b&e=hf", 10},           // HF transformers: 10 hold it on one GPU
	} {
		v, in := viewOf(t, c.frag, nil)
		all, _ := viewOf(t, c.frag, func(in *ViewIn) { in.State = in.State.WithAll(SecFit, true) })
		rows := v.Fit.Rows
		if len(all.Fit.Rows) != len(in.R.Fit) || all.Fit.More != 0 {
			t.Fatalf("%q shown whole: %d rows of %d, %d more", c.frag, len(all.Fit.Rows), len(in.R.Fit), all.Fit.More)
		}
		if v.Fit.More != len(in.R.Fit)-len(rows) || v.Fit.More < 40 {
			t.Errorf("%q: %d rows and %d more of %d GPUs", c.frag, len(rows), v.Fit.More, len(in.R.Fit))
		}
		// The rows shown are the whole table's, in its order.
		var ids, order []string
		for _, r := range rows {
			ids = append(ids, r.GPU)
		}
		for _, r := range all.Fit.Rows {
			if slices.Contains(ids, r.GPU) {
				order = append(order, r.GPU)
			}
		}
		if !slices.Equal(ids, order) {
			t.Errorf("%q: rows %v, in the table's order %v", c.frag, ids, order)
		}
		fits, selected := 0, 0
		for _, r := range rows {
			if r.Fits {
				fits++
			}
			if r.Selected {
				selected++
			}
		}
		if fits != c.fits || selected != 1 {
			t.Errorf("%q: %d rows fit (want %d), %d selected: %v", c.frag, fits, c.fits, selected, ids)
		}
		// Every row left out ranks after every row shown that is not the
		// selected one: it does not fit where a shown row does, or its
		// plan costs more.
		rank := func(r FitRow) (bool, float64) {
			x, ok := in.Plan.Best(r.GPU)
			if !ok || x.PassedOver {
				return r.Fits, 1e18
			}
			return r.Fits, x.Cost
		}
		for _, out := range all.Fit.Rows {
			if slices.Contains(ids, out.GPU) {
				continue
			}
			of, oc := rank(out)
			for _, r := range rows {
				if rf, rc := rank(r); !r.Selected && (of && !rf || of == rf && oc < rc) {
					t.Errorf("%q: %s (fits %v, %.2f) left out, %s (fits %v, %.2f) shown", c.frag, out.GPU, of, oc, r.GPU, rf, rc)
				}
			}
		}
	}
	v, _ := viewOf(t, "m=llama-3.1-70b", nil)
	if i := slices.IndexFunc(v.Fit.Rows, func(r FitRow) bool { return r.Selected }); i < 0 || v.Fit.Rows[i].GPU != "h100-sxm" || v.Fit.Rows[i].Fits {
		t.Errorf("the selected H100, which needs two for 70B, is not shown: %+v", v.Fit.Rows)
	}
}

// "Show all (+N)" under the fit and the offers tables, in each language,
// only while rows are left out; its handler is the component's "all".
func TestShowAllNodes(t *testing.T) {
	v, _ := viewOf(t, "", nil)
	want := map[string]string{"en": "Show all (+45)", "ru": "Показать все (+45)", "zh": "显示全部 (+45)"}
	if v.Fit.More != 45 {
		t.Fatalf("%d rows left out of the fit table, want 57 − 12 = 45", v.Fit.More)
	}
	for lang, text := range want {
		b, ok := find(FitNode(lang, &v.Fit), byID("rs-more-fit"))
		if !ok || b.Kind != NodeAction || b.Ref != "all" || b.Text != text {
			t.Errorf("%s: fit table's button %+v, want %q", lang, b, text)
		}
		o, ok := find(OffersNode(lang, &v.Offers), byID("rs-more-offers"))
		if !ok || o.Ref != "all" || !strings.HasPrefix(o.Text, Tr(lang, MsgShowAll)+" (+") {
			t.Errorf("%s: offers table's button %+v", lang, o)
		}
	}
	all, _ := viewOf(t, "show=fit.all-fit.all-offers", nil)
	for _, n := range []Node{FitNode("en", &all.Fit), OffersNode("en", &all.Offers)} {
		if b, ok := find(n, func(n Node) bool { return n.Kind == NodeAction }); ok {
			t.Errorf("a table shown whole offers %q", b.Text)
		}
	}
	if len(all.Offers.Rows) <= OffersShown {
		t.Errorf("show=all-offers lists %d offers", len(all.Offers.Rows))
	}
}

// The tables shown whole travel in the link's "show" key after the open
// sections, so a shared link shows the rows its sender saw; opening or
// closing a section keeps them, and they read back.
func TestShowAllInTheLink(t *testing.T) {
	s := DefaultState.WithAll(SecOffers, true).WithOpen(SecFit, true).WithAll(SecFit, true).WithOpen(SecOffers, true)
	if s[FieldShow] != "fit.offers.all-fit.all-offers" || !s.ShowsAll(SecFit) || !s.ShowsAll(SecOffers) || s.ShowsAll(SecRules) {
		t.Errorf("show %q", s[FieldShow])
	}
	frag := s.Fragment(DefaultState)
	if back := ParseFragment(frag, DefaultState); back != s {
		t.Errorf("%q reads back as %q", frag, back[FieldShow])
	}
	if s = s.WithOpen(SecFit, false); s[FieldShow] != "offers.all-fit.all-offers" || !s.ShowsAll(SecFit) {
		t.Errorf("closed fit: %q", s[FieldShow])
	}
	if s = s.WithAll(SecFit, false); s[FieldShow] != "offers.all-offers" || s.ShowsAll(SecFit) || !s.Opens(SecOffers) {
		t.Errorf("fit cut again: %q", s[FieldShow])
	}
	if s.Opens(Section(0)) || DefaultState.ShowsAll(SecFit) {
		t.Error("the inputs open, or the default view shows the fit table whole")
	}
}

// The embed page is a read-only view of the linked job: its job line is
// text, its picks have no "Use this", its chart only shows points (no
// "pick", no "+ Compare") and says so; one link opens the same job on
// the full page, on the same origin.
func TestEmbedIsReadOnly(t *testing.T) {
	v, _ := viewOf(t, "", nil)
	line := JobLineNode(&v.Job)
	var text strings.Builder
	for _, p := range v.Job.Parts {
		text.WriteString(p.Text)
	}
	var got strings.Builder
	for _, k := range line.Kids {
		got.WriteString(k.Text)
	}
	if line.ID != "rs-job-line" || got.String() != text.String() || text.Len() == 0 {
		t.Errorf("job line %q, want %q", got.String(), text.String())
	}
	editing := func(n Node) bool {
		return n.Kind == NodeAction || n.Tag == "button" || n.Tag == "input" || n.Tag == "select" || attrOf(n, "on:click") == "pick"
	}
	if n, ok := find(line, editing); ok {
		t.Errorf("the read-only job line edits: %+v", n)
	}
	if len(v.Answer.Picks) == 0 {
		t.Fatal("no picks")
	}
	p := &v.Answer.Picks[0]
	if n, ok := find(PickNode("en", p, "Cost", "Time", true), editing); ok {
		t.Errorf("the read-only pick has %+v", n)
	}
	if _, ok := find(PickNode("en", p, "Cost", "Time", false), func(n Node) bool { return n.Ref == "use" }); !ok {
		t.Error("the page's pick has no Use this")
	}
	ch := ChartNode("en", &v.Answer.Chart, 1, nil, true)
	svg, _ := find(ch, byID("rs-pareto"))
	if attrOf(svg, "on:click") != "show" || attrOf(svg, "on:pointerdown") != "" || attrOf(svg, "on:keydown") != "" {
		t.Errorf("the read-only chart's handlers %v", svg.Attrs)
	}
	if _, ok := find(ch, byID("rs-pareto-cmp")); ok {
		t.Error("the read-only chart offers + Compare")
	}
	if info, _ := find(ChartNode("ru", &v.Answer.Chart, 0, nil, true), byID("rs-pareto-info")); info.Text != Tr("ru", MsgParetoHintView) {
		t.Errorf("the read-only chart's hint %q", info.Text)
	}
	open := OpenFullNode("zh", "m=qwen2.5-7b&l=zh")
	a, ok := find(open, byID("rs-open-full"))
	if !ok || a.Tag != "a" || attrOf(a, "href") != "#m=qwen2.5-7b&l=zh" || a.Text != "在 Rightsize 中打开" {
		t.Errorf("open link %+v", a)
	}
}

// The chart's hint is true on a phone, which has no hover: a tap shows a
// point and a second tap uses it (the component's "down" and "pick").
func TestChartHintSaysTap(t *testing.T) {
	want := map[string][2]string{
		"en": {"Point at or tap a dot to see its offer; click it, or tap it again, to use it.", "Point at or tap a dot to see its offer."},
		"ru": {"Наведите на точку или коснитесь её, чтобы увидеть предложение; нажмите на неё или коснитесь ещё раз, чтобы выбрать его.",
			"Наведите на точку или коснитесь её, чтобы увидеть предложение."},
		"zh": {"指向或轻点圆点查看报价；单击或再次轻点即可使用。", "指向或轻点圆点查看报价。"},
	}
	v := ChartView{Points: []Point{{ID: "a", Label: "A", X: 20, Y: 30}}}
	for lang, w := range want {
		for i, readOnly := range []bool{false, true} {
			if info, _ := find(ChartNode(lang, &v, 0, nil, readOnly), byID("rs-pareto-info")); info.Text != w[i] {
				t.Errorf("%s (read-only %v): hint %q, want %q", lang, readOnly, info.Text, w[i])
			}
		}
	}
	svg, _ := find(ChartNode("en", &v, 0, nil, false), byID("rs-pareto"))
	if attrOf(svg, "on:pointerdown") != "down" || attrOf(svg, "on:click") != "pick" {
		t.Errorf("the chart's handlers %v", svg.Attrs)
	}
}
