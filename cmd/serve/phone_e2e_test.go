//go:build !js

package main

// End-to-end check of the tables on a phone: at 360 px the fit and offers
// tables are cards (web/rightsize.css), so the first row of each shows
// its GPU or provider, price, time and cost on screen, with no sideways
// scrolling, in every language (Russian headers are the longest).

import (
	"encoding/json"
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

func TestE2EPhoneTables(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	s := newSite(t, dir, "/")
	s.watchCSP()
	const width = 360
	s.do("a phone's screen", chromedp.EmulateViewport(width, 780))
	for _, lang := range []string{"en", "ru", "zh"} {
		s.do("loading the page in "+lang, chromedp.Navigate(s.base+"#g=h100-sxm&l="+lang), chromedp.Reload())
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
		s.screenshot("phone-tables-"+lang+"-360.png", width)
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
	s.checkNoCSPViolation()
}
