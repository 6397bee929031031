package page

import (
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
)

// TestPicksAnExpertSigns: on the users' jobs no pick rests on a price the
// page flags (far below the median, stale while fresh prices run the
// job), and none runs a precision its GPU or engine lacks without saying
// so; the default serving job's cheaper flagged plan, when there is one,
// is named beside the answer with "verify".
func TestPicksAnExpertSigns(t *testing.T) {
	cat := catalog.Default()
	flagged := 0
	for _, frag := range append(userJobs, "m=mistral-7b-v0.3&e=vllm&rps=20&ttft=1000&out=200&s=700") {
		_, _, out := answer(t, frag)
		for _, p := range out.Picks {
			if p.Offer.FarBelowMedian || p.PassedOver {
				t.Errorf("%q: %v pick %s rests on a flagged price", frag, p.Kind, p.Offer.ID)
			}
			g, _ := cat.GPU(p.Offer.GPU)
			r := out.Rows[p.Row]
			s := estimator.SupportFor(g.Generation(), r.Engine, estimator.Inference, r.Weights)
			if !s.Runs || s.Weights != r.Weights {
				t.Errorf("%q: %v pick %s runs %v under %v on %v, which does not start", frag, p.Kind, p.Offer.ID, r.Weights, r.Engine, g.Generation())
			}
		}
		if out.Flagged >= 0 {
			flagged++
			line := out.FlaggedLine(Locale{Lang: "en"}, func(id string) string { return id })
			c := out.Cands[out.Flagged]
			if !c.PassedOver || !strings.Contains(line, "verify") || !strings.Contains(line, c.Offer.InstanceType) || out.Picks[0].Cost <= c.Cost {
				t.Errorf("%q: flagged line %q for %s (passed over %v, %v vs cheapest %v)", frag, line, c.Offer.ID, c.PassedOver, c.Cost, out.Picks[0].Cost)
			}
		}
	}
	if flagged == 0 {
		t.Fatal("no job has a cheaper flagged plan: the line is untested")
	}
}

// TestFiltersInUsersTerms: the country is the provider's home, the
// region where it hosts, the provider an ID from the catalog (an unknown
// one is a message next to the field).
func TestFiltersInUsersTerms(t *testing.T) {
	j, _, out := answer(t, "cc=RU&hr=ru&pv=yandex")
	if got := j.Filters; len(got.Countries) != 1 || got.Countries[0] != "RU" || len(got.Regions) != 1 || got.Regions[0] != "ru" ||
		len(got.Providers) != 1 || got.Providers[0] != "yandex" {
		t.Fatalf("filters %+v", got)
	}
	for _, c := range out.Cands {
		if c.Offer.Provider != "yandex" || c.Offer.Country != "RU" {
			t.Errorf("plan on %s (%s, %s)", c.Offer.ID, c.Offer.Provider, c.Offer.Country)
		}
	}
	_, errs, _, ok := ParseJob(ParseFragment("pv=../../x", DefaultState), catalog.Default(), Archs{}, nil, "")
	if ok || errs[FieldProvider].OK() {
		t.Fatalf("an unknown provider parsed: ok %v, %+v", ok, errs[FieldProvider])
	}
	// Every pick says its provider's kind.
	l := Locale{Lang: "ru"}
	if k := l.KindLabel(catalog.KindDecentralized); k != "децентрализованная сеть" {
		t.Fatalf("ru decentralised = %q", k)
	}
}
