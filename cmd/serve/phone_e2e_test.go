//go:build !js

package main

// End-to-end check of the tables on a phone: at 360 px the fit and offers
// tables are cards (web/rightsize.css), so the first row of each shows
// its GPU or provider, price, time and cost on screen, with no sideways
// scrolling, in every language (Russian headers are the longest); so is
// each plan of a comparison of four.

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
)

// phoneCell is where one cell of a table's first row lies on the screen.
type phoneCell struct {
	Sel   string  `json:"sel"`
	Found bool    `json:"found"`
	Left  float64 `json:"left"`
	Right float64 `json:"right"`
	Text  string  `json:"text"`
	Label string  `json:"label"`
}

// phoneTable is a table's box and the cells of its first row.
type phoneTable struct {
	Found        bool        `json:"found"`
	Rows         int         `json:"rows"`
	ScrollWidth  float64     `json:"scrollWidth"`
	ClientWidth  float64     `json:"clientWidth"`
	TableRight   float64     `json:"tableRight"`
	HeaderHidden bool        `json:"headerHidden"`
	Cells        []phoneCell `json:"cells"`
}

// measureTable reads the first row of table id: the right edge of each
// cell (by class), and whether the table's scrolling container scrolls.
func (s *site) measureTable(id string, cells ...string) phoneTable {
	s.t.Helper()
	if cells == nil {
		cells = []string{}
	}
	sels, _ := json.Marshal(cells)
	v := s.eval(`(() => {
		const t = document.getElementById(` + jsString(id) + `);
		if (!t) return JSON.stringify({found: false});
		const box = t.closest(".rs-scroll") || t.parentElement;
		const row = t.querySelector("tbody tr");
		const head = t.querySelector("thead");
		const out = {found: true, rows: t.querySelectorAll("tbody tr").length,
			scrollWidth: box.scrollWidth, clientWidth: box.clientWidth,
			tableRight: t.getBoundingClientRect().right,
			headerHidden: !head || head.getBoundingClientRect().height <= 1, cells: []};
		for (const sel of ` + string(sels) + `) {
			const c = row && row.querySelector("td." + sel);
			if (!c) { out.cells.push({sel, found: false}); continue; }
			const r = c.getBoundingClientRect();
			out.cells.push({sel, found: true, left: r.left, right: r.right, text: c.innerText, label: c.dataset.label || ""});
		}
		return JSON.stringify(out);
	})()`)
	var m phoneTable
	if err := json.Unmarshal([]byte(v), &m); err != nil {
		s.t.Fatalf("measuring #%s: %v (%s)", id, err, v)
	}
	return m
}

// phonePlan is where one plan of the comparison lies: its head (title,
// where, remove button) and its cost cell.
type phonePlan struct {
	HeadTop    float64 `json:"headTop"`
	CostTop    float64 `json:"costTop"`
	CostBottom float64 `json:"costBottom"`
	CostLabel  string  `json:"costLabel"`
	CostBefore string  `json:"costBefore"`
}

// phonePlans is the comparison's box and the plans in it.
type phonePlans struct {
	Found       bool        `json:"found"`
	ScrollWidth float64     `json:"scrollWidth"`
	ClientWidth float64     `json:"clientWidth"`
	TableRight  float64     `json:"tableRight"`
	Off         []string    `json:"off"` // cells shown past the screen's edges
	Plans       []phonePlan `json:"plans"`
}

// measurePlans reads the comparison (#rs-plans-table): whether its box
// scrolls, which of its shown cells lie off a screen width px wide, and
// for each plan the top of its head and its cost cell.
func (s *site) measurePlans(width int) phonePlans {
	s.t.Helper()
	v := s.eval(`(() => {
		const t = document.getElementById("rs-plans-table");
		if (!t) return JSON.stringify({found: false});
		const box = t.closest(".rs-scroll") || t.parentElement;
		const out = {found: true, scrollWidth: box.scrollWidth, clientWidth: box.clientWidth,
			tableRight: t.getBoundingClientRect().right, off: [], plans: []};
		for (const c of t.querySelectorAll("th[data-offer], td, .rs-cmp-remove")) {
			const r = c.getBoundingClientRect();
			if (r.width > 1 && (r.left < 0 || r.right > ` + strconv.Itoa(width) + `)) out.off.push(c.innerText + " @ " + r.left + "–" + r.right);
		}
		const heads = t.querySelectorAll("thead th[data-offer]");
		const cost = t.querySelectorAll("tbody tr")[0];
		heads.forEach((h, i) => {
			const c = cost.children[i + 1];
			const hr = h.getBoundingClientRect(), cr = c.getBoundingClientRect();
			out.plans.push({headTop: hr.top, costTop: cr.top, costBottom: cr.bottom,
				costLabel: c.dataset.label || "", costBefore: getComputedStyle(c, "::before").content});
		});
		return JSON.stringify(out);
	})()`)
	var m phonePlans
	if err := json.Unmarshal([]byte(v), &m); err != nil {
		s.t.Fatalf("measuring the comparison: %v (%s)", err, v)
	}
	return m
}

// TestE2EPhoneTables: at 360 px the fit and offers tables are cards with
// their cells on screen, and so is a comparison of four plans: each plan
// a card (its head, then its figures under their names), none scrolling
// sideways; in EN, RU and ZH. On a desktop all three stay tables.
func TestE2EPhoneTables(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	s := newSite(t, dir, "/")
	s.watchCSP()
	const width = 360
	s.do("a phone's screen", chromedp.EmulateViewport(width, 780))
	// Four planned offers for the comparison, from the offers table.
	s.do("loading the page", chromedp.Navigate(s.base+"#g=h100-sxm&show=fit.offers"), chromedp.Reload())
	s.waitLive()
	s.waitPlan()
	s.waitFor("the offers table", `document.querySelectorAll("#rs-offers button[data-cmp]").length >= 4`)
	cmp := s.eval(`[...document.querySelectorAll("#rs-offers button[data-cmp]")].slice(0, 4).map(b => b.dataset.cmp).join(",")`)
	for _, lang := range []string{"en", "ru", "zh"} {
		s.do("loading the page in "+lang, chromedp.Navigate(s.base+"#g=h100-sxm&l="+lang+"&cmp="+cmp+"&show=fit.offers"), chromedp.Reload())
		s.waitLive()
		s.waitPlan()
		if w := s.eval(`String(window.innerWidth)`); w != "360" {
			t.Fatalf("%s: the window is %s px wide, not %d", lang, w, width)
		}
		for _, tc := range []struct {
			id    string
			cells []string // classes of the cells that must be on screen
		}{
			{"rs-offers", []string{"rs-name", "rs-count", "rs-price", "rs-time", "rs-cost"}},
			{"rs-fit", []string{"rs-name", "rs-need", "rs-price", "rs-cost"}},
		} {
			m := s.measureTable(tc.id, tc.cells...)
			if !m.Found || m.Rows == 0 {
				t.Errorf("%s: #%s has no rows", lang, tc.id)
				continue
			}
			if m.ScrollWidth > m.ClientWidth {
				t.Errorf("%s: #%s scrolls sideways: %v px of content in %v px", lang, tc.id, m.ScrollWidth, m.ClientWidth)
			}
			if m.TableRight > width {
				t.Errorf("%s: #%s ends at %v px, past the %d px screen", lang, tc.id, m.TableRight, width)
			}
			if !m.HeaderHidden {
				t.Errorf("%s: #%s shows its header row on a phone (the cells carry the labels)", lang, tc.id)
			}
			for _, c := range m.Cells {
				switch {
				case !c.Found:
					t.Errorf("%s: #%s first row has no td.%s", lang, tc.id, c.Sel)
				case c.Left < 0 || c.Right > width:
					t.Errorf("%s: #%s first row: td.%s (%q) lies at %v–%v px, off a %d px screen", lang, tc.id, c.Sel, c.Text, c.Left, c.Right, width)
				case c.Label == "":
					t.Errorf("%s: #%s first row: td.%s has no data-label", lang, tc.id, c.Sel)
				}
			}
		}
		// The price and cost cells show their column's name above the value.
		if v := s.eval(`getComputedStyle(document.querySelector("#rs-offers tbody td.rs-cost"), "::before").content`); v == "none" || v == "" || v == `""` {
			t.Errorf("%s: the offer's cost has no label on a phone (::before content %s)", lang, v)
		}
		s.waitFor("four plans compared", `document.querySelectorAll("#rs-plans-table thead th[data-offer]").length === 4`)
		m := s.measurePlans(width)
		if m.ScrollWidth > m.ClientWidth {
			t.Errorf("%s: the comparison scrolls sideways: %v px of content in %v px", lang, m.ScrollWidth, m.ClientWidth)
		}
		if m.TableRight > width {
			t.Errorf("%s: the comparison ends at %v px, past the %d px screen", lang, m.TableRight, width)
		}
		for _, o := range m.Off {
			t.Errorf("%s: the comparison's cell %q lies off the screen", lang, o)
		}
		// Each plan a card: its head, its cost under it, and the next
		// plan's head below that.
		for i, p := range m.Plans {
			if p.CostTop < p.HeadTop {
				t.Errorf("%s: plan %d's cost (top %v) is above its head (top %v)", lang, i+1, p.CostTop, p.HeadTop)
			}
			if i+1 < len(m.Plans) && m.Plans[i+1].HeadTop < p.CostBottom {
				t.Errorf("%s: plan %d's head (top %v) is beside plan %d, not below its cost (bottom %v)", lang, i+2, m.Plans[i+1].HeadTop, i+1, p.CostBottom)
			}
			if p.CostLabel == "" || p.CostBefore == "none" || p.CostBefore == `""` {
				t.Errorf("%s: plan %d's cost has no label (data-label %q, ::before %s)", lang, i+1, p.CostLabel, p.CostBefore)
			}
		}
		if w := s.eval(`String(document.documentElement.scrollWidth)`); w != "360" {
			t.Errorf("%s: at 360 px with four plans compared the page is %s px wide", lang, w)
		}
		s.screenshot("phone-tables-"+lang+"-360.png", width)
		s.shotOf("phone-plans-"+lang+"-360.png", "#rs-plans", width)
	}

	// On a desktop the tables stay tables: header row shown, one line of
	// cells per row.
	s.do("a desktop's screen", chromedp.EmulateViewport(1280, 900))
	for _, id := range []string{"rs-offers", "rs-fit"} {
		if d := s.eval(`getComputedStyle(document.querySelector("#` + id + ` tbody tr")).display`); d != "table-row" {
			t.Errorf("desktop: #%s rows display as %s, not table-row", id, d)
		}
		if m := s.measureTable(id); !m.Found || m.HeaderHidden {
			t.Errorf("desktop: #%s header row hidden", id)
		}
	}
	// The comparison side by side: the plans' heads on one line.
	if d := s.eval(`getComputedStyle(document.querySelector("#rs-plans-table tbody tr")).display`); d != "table-row" {
		t.Errorf("desktop: the comparison's rows display as %s, not table-row", d)
	}
	if m := s.measurePlans(1280); len(m.Plans) != 4 || m.Plans[0].HeadTop != m.Plans[3].HeadTop || m.ScrollWidth > m.ClientWidth {
		t.Errorf("desktop: the comparison is not four plans side by side: %+v", m)
	}
	s.checkNoCSPViolation()
}
