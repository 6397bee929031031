package app

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
	"rightsize/catalog"
	planner "rightsize/estimator/plan"
)

// today is the page's clock in these tests.
var today = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

// withClock gives c the browser's clock and plans again.
func withClock(c *Calculator, now time.Time) {
	c.now, c.pr.Today = now, now
	c.recompute(none)
}

// TestPicksSayHowFreshOnPage: with the page's clock, no pick rests on a
// stale price while a fresh offer of its GPU runs the job, nor on a
// far-below-median price while a normal one does; every pick card shows
// its price date, source and age, "price from YYYY-MM — verify" when the
// price is stale or estimated (translated), and the far-below label; the
// footer counts the catalog's offers by age. Without a clock (the
// prerendered page) nothing is graded and the footer says nothing.
func TestPicksSayHowFreshOnPage(t *testing.T) {
	for _, frag := range []string{"", "t=lora&tok=100M", "m=mistral-7b-v0.3&rps=20&ttft=1000", "m=llama-3.1-70b&t=finetune&n=8&z=3&gc=1&tok=1B"} {
		c, _ := load(t)
		c.state = page.ParseFragment(frag, page.DefaultState)
		c.start.drop(c.plainView(), c.ps.Out.OK)
		withClock(c, today)
		if !c.d.R.OK || len(c.ps.Out.Picks) == 0 {
			t.Fatalf("%q: no picks (%v)", frag, c.ps.Out.Err)
		}
		fresh, normal := map[string]bool{}, map[string]bool{}
		for _, x := range c.ps.Out.Cands {
			if !x.Stale {
				fresh[x.Offer.GPU] = true
				if !x.Offer.FarBelowMedian {
					normal[x.Offer.GPU] = true
				}
			}
		}
		html := app.HTMLString(c.Render())
		cards := strings.Split(html, `class="rs-pick"`)[1:]
		cardOf, n := page.PickCards(c.ps.Out.Picks)
		if len(cards) != n {
			t.Fatalf("%q: %d cards for %d plans", frag, len(cards), n)
		}
		for i, p := range c.ps.Out.Picks {
			o := p.Offer
			if p.Stale && fresh[o.GPU] || !p.Stale && o.FarBelowMedian && normal[o.GPU] {
				t.Errorf("%q: %s pick %s rests on a stale or far-below price while %s has a better one", frag, p.Kind, o.ID, o.GPU)
			}
			card := cards[cardOf[i]][:strings.Index(cards[cardOf[i]], "</article>")]
			date := locOf(c).Date(o.AsOf)
			if o.AsOfEstimated && o.AsOfLowerBound {
				date = "≥" + date // the earliest the price can be from
			}
			for _, want := range []string{page.Fill(tr(c, page.MsgPriceAsOf), date), page.SourceText(o.Source), tr(c, page.GradeKeys[catalog.GradeAge(o.PriceAgeDays)])} {
				if !strings.Contains(card, htmlText(want)) {
					t.Errorf("%q: %s card lacks %q", frag, p.Kind, want)
				}
			}
			verify := page.Fill(tr(c, page.MsgVerifyPrice), o.AsOf[:7])
			if want := p.Stale || o.AsOfGuessed(); strings.Contains(card, htmlText(verify)) != want {
				t.Errorf("%q: %s card (%s, %d days, estimated %v) says %q: %v", frag, p.Kind, o.AsOf, o.PriceAgeDays, o.AsOfEstimated, verify, !want)
			}
			if strings.Contains(card, htmlText(tr(c, page.MsgFarBelow))) != o.FarBelowMedian {
				t.Errorf("%q: %s card's far-below label, want %v", frag, p.Kind, o.FarBelowMedian)
			}
		}
		foot, ok := textByID(html, "rs-fresh")
		var byGrade [catalog.AgeUndated + 1]int
		for i := range c.pr.Cat.Offers {
			byGrade[c.pr.Cat.Offers[i].PriceAgeGrade(today)]++
		}
		if !ok || !strings.Contains(foot, strconv.Itoa(byGrade[catalog.AgeOld])+" ") ||
			!strings.Contains(foot, " "+strconv.Itoa(len(c.pr.Cat.Offers))+" ") {
			t.Errorf("%q: footer %q for %v", frag, foot, byGrade)
		}
	}
	// In Russian the warning is Russian.
	c, _ := load(t)
	c.state = page.ParseFragment("l=ru", page.DefaultState)
	withClock(c, today)
	html := app.HTMLString(c.Render())
	if strings.Contains(html, "— verify") || strings.Count(html, "rs-pick-price") != cardsOf(c) {
		t.Error("the Russian page shows English price labels")
	}
	for _, p := range c.ps.Out.Picks {
		if p.Stale && !strings.Contains(html, htmlText(page.Fill(page.MessagesRU[page.MsgVerifyPrice], p.Offer.AsOf[:7]))) {
			t.Errorf("the Russian page lacks %q", page.Fill(page.MessagesRU[page.MsgVerifyPrice], p.Offer.AsOf[:7]))
		}
	}
	// No clock (the prerendered page; in the browser the page always has
	// one): no grades, no footer count, but the date and source show.
	if !app.IsClient {
		c, _ = load(t)
		html = app.HTMLString(c.Render())
		if _, ok := textByID(html, "rs-fresh"); ok || strings.Contains(html, htmlText(tr(c, page.MsgAgeFresh))) || strings.Count(html, "rs-pick-price") != cardsOf(c) {
			t.Error("the page without a clock grades prices or lacks their dates")
		}
	}
}

// cardsOf is the number of pick cards c's plan shows (page.PickCards).
func cardsOf(c *Calculator) int {
	_, n := page.PickCards(c.ps.Out.Picks)
	return n
}

// htmlText is s as go-app writes it in text.
func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}

// TestFreshnessField: the window is the link's fw (default the planner's
// 180 days), reaches the planner's request, and 0, negative or non-numbers
// are refused next to the field; a century's window picks on every dated
// price.
func TestFreshnessField(t *testing.T) {
	if page.DefaultState[page.FieldFreshness] != strconv.Itoa(planner.DefaultFreshnessDays) {
		t.Errorf("default window %q, the planner's is %d", page.DefaultState[page.FieldFreshness], planner.DefaultFreshnessDays)
	}
	c, _ := load(t)
	withClock(c, today)
	c.set(none, page.FieldFreshness, "90")
	if c.d.Job.FreshnessDays != 90 || page.PlanRequest(c.d.Job).FreshnessDays != 90 || !strings.Contains(c.state.Fragment(page.DefaultState), "fw=90") {
		t.Errorf("window %d, request %d, link %q", c.d.Job.FreshnessDays, page.PlanRequest(c.d.Job).FreshnessDays, c.state.Fragment(page.DefaultState))
	}
	if s := page.ParseFragment("fw=45", page.DefaultState); s[page.FieldFreshness] != "45" {
		t.Errorf("link fw=45 reads %q", s[page.FieldFreshness])
	}
	for _, bad := range []string{"0", "-3", "x", "1.5", "36501"} {
		c.set(none, page.FieldFreshness, bad)
		if c.d.Errs[page.FieldFreshness].OK() {
			t.Errorf("window %q accepted", bad)
		}
	}
	c.set(none, page.FieldFreshness, "36500")
	for _, x := range c.ps.Out.Cands {
		if x.Stale != (x.Offer.AsOfGuessed() || x.Offer.PriceAgeDays < 0) {
			t.Errorf("%s stale %v in a century's window", x.Offer.ID, x.Stale)
		}
	}
}

// TestOffersSayHowFresh: with the page's clock the offers table grades each
// price, says "(estimated date)" and "verify" on an estimated one, and
// labels a price far below the median.
func TestOffersSayHowFresh(t *testing.T) {
	c, _ := load(t)
	c.state = c.state.WithAll(page.SecOffers, true)
	withClock(c, today)
	html := offersHTML(c)
	estimated, bounded, far := 0, 0, 0
	for _, o := range c.d.R.Offers {
		if _, ok := c.ps.Out.ByOffer[o.Offer.ID]; !ok && !o.Holds {
			continue
		}
		row := rowOf(t, html, `data-offer="`+o.Offer.ID+`"`)
		if !strings.Contains(row, htmlText(tr(c, page.GradeKeys[o.Offer.PriceAgeGrade(today)]))) {
			t.Errorf("%s: no age grade", o.Offer.ID)
		}
		if o.Offer.AsOfEstimated && o.Offer.AsOfLowerBound {
			// A lower bound: "≥ date", and no verify for its date.
			bounded++
			if !strings.Contains(row, htmlText("≥"+locOf(c).Date(o.Offer.AsOf))) || strings.Contains(row, htmlText(tr(c, page.MsgEstimatedDate))) || strings.Contains(row, htmlText(tr(c, page.MsgVerifyDated))) {
				t.Errorf("%s: a date that is a lower bound not said as one: %s", o.Offer.ID, row)
			}
		} else if o.Offer.AsOfEstimated {
			estimated++
			// "verify" once, without the month the date above it shows:
			// its own note, or a caveat that ends in it.
			verify := strings.Contains(row, htmlText(tr(c, page.MsgVerifyDated))) || strings.Contains(row, htmlText(tr(c, page.MsgFarBelow))) || strings.Contains(row, htmlText(tr(c, page.MsgSourceOpen)))
			if !strings.Contains(row, htmlText(tr(c, page.MsgEstimatedDate))) || !verify || strings.Contains(row, htmlText(page.Fill(tr(c, page.MsgVerifyPrice), o.Offer.AsOf[:7]))) {
				t.Errorf("%s: estimated date not said once with its verify: %s", o.Offer.ID, row)
			}
		}
		if k, ok := c.ps.Out.ByOffer[o.Offer.ID]; ok && c.ps.Out.Cands[k].Offer.FarBelowMedian {
			far++
			if !strings.Contains(row, htmlText(tr(c, page.MsgFarBelow))) {
				t.Errorf("%s: far below the median, not said", o.Offer.ID)
			}
		}
	}
	if estimated == 0 || bounded == 0 {
		t.Errorf("%d estimated dates and %d lower bounds among the offers: the test asks nothing of one", estimated, bounded)
	}
	t.Logf("%d estimated, %d lower bounds, %d far below", estimated, bounded, far)
}

// TestExportsSayHowFresh: the JSON and CSV exports carry each row's price
// date, source, estimated and lower-bound flags, staleness and far-below
// flag, and the Markdown picks table each pick's date, source and
// "verify".
func TestExportsSayHowFresh(t *testing.T) {
	c, _ := load(t)
	c.start.drop(c.plainView(), c.ps.Out.OK)
	withClock(c, today)
	var doc struct {
		Offers []struct {
			AsOf           string `json:"as_of"`
			Source         string `json:"source"`
			AsOfEstimated  bool   `json:"as_of_estimated"`
			AsOfLowerBound bool   `json:"as_of_lower_bound"`
			Stale          bool   `json:"stale"`
			FarBelowMedian bool   `json:"far_below_median"`
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(page.ExportJSON(c.viewIn(), "")), &doc); err != nil {
		t.Fatal(err)
	}
	rows := doc.Offers
	if len(rows) != len(c.ps.Out.Picks)+len(c.ps.Out.Cands) {
		t.Fatalf("%d export rows", len(rows))
	}
	for i, x := range c.ps.Out.Cands {
		r := rows[len(c.ps.Out.Picks)+i]
		if r.AsOf != x.Offer.AsOf || r.Source != x.Offer.Source || r.AsOfEstimated != x.Offer.AsOfEstimated || r.AsOfLowerBound != x.Offer.AsOfLowerBound || r.Stale != x.Stale || r.FarBelowMedian != x.Offer.FarBelowMedian {
			t.Fatalf("export row %+v for %s", r, x.Offer.ID)
		}
	}
	if csv := page.ExportCSV(c.viewIn()); !strings.HasPrefix(csv, "pick,") || !strings.Contains(strings.SplitN(csv, "\n", 2)[0], ",as_of_estimated,as_of_lower_bound,stale,far_below_median") {
		t.Errorf("CSV header %q", strings.SplitN(csv, "\n", 2)[0])
	}
	md := page.ExportMarkdown(c.viewIn())
	for _, p := range viewOf(c).Answer.Picks {
		if !strings.Contains(md, page.MDEscape(p.Price.AsOf())) || p.Price.Verify != "" && !strings.Contains(md, page.MDEscape(p.Price.Verify)) {
			t.Errorf("Markdown lacks %s's price %q %q:\n%s", p.Kind, p.Price.AsOf(), p.Price.Verify, md)
		}
	}
}

// TestAnswerSaysFXRate: with prices in RUB the answer says the dated rate
// they were converted at, next to the picks.
func TestAnswerSaysFXRate(t *testing.T) {
	c, _ := load(t)
	c.set(none, page.FieldCurrency, "RUB")
	want := page.FXLine(locOf(c), c.pr.Cat, "RUB")
	if got, ok := textByID(app.HTMLString(c.Render()), "rs-fx-line"); !ok || got != want || want == "" {
		t.Errorf("rate line %q, want %q", got, want)
	}
	c.set(none, page.FieldCurrency, "USD")
	if _, ok := textByID(app.HTMLString(c.Render()), "rs-fx-line"); ok {
		t.Error("a rate line for USD")
	}
}
