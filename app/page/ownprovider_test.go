package page

import (
	"slices"
	"strings"
	"testing"
)

// TestOwnProviderPicked: a sheet row naming a provider the catalog does
// not know (the user's cluster, a contract with a cloud the catalog
// lacks) is loaded, not refused; cheaper than the catalog's offers, it is
// the cheapest pick under any provider-kind choice, its card names the
// provider as written and says "your price" in each language, and its
// offers row names it too.
func TestOwnProviderPicked(t *testing.T) {
	const name = "Ünï Lab (west) @ co, 1"
	pr := ownPrices(t, "provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency,as_of,source\n\""+name+"\",1xH100,h100-sxm,1,1.5,USD,2026-11-01,contract\n")
	for _, lang := range []string{"en", "ru", "zh"} {
		for _, kind := range []string{"", "&pk=hyperscaler", "&pk=any"} {
			st := ParseFragment("m=llama-3.1-8b&rps=5&show=offers"+kind, DefaultState)
			st[FieldLang] = lang
			d := Derive(st, nil, pr, nil, "")
			if !d.R.OK {
				t.Fatalf("%s%s: the job does not read", lang, kind)
			}
			v := BuildView(ViewIn{State: st, Job: d.Job, R: d.R, Prices: pr, Plan: RunPlan(d.Job, pr)})
			if len(v.Answer.Picks) == 0 {
				t.Fatalf("%s%s: no picks", lang, kind)
			}
			p := v.Answer.Picks[0]
			if !strings.Contains(p.Roles, "cheapest") || !strings.Contains(p.Where, name) || !strings.Contains(p.Where, "1xH100") ||
				!strings.Contains(p.Where, Tr(lang, MsgOwnPriceMark)) {
				t.Errorf("%s%s: the first pick (%s) reads %q, want %q with %q", lang, kind, p.Roles, p.Where, name, Tr(lang, MsgOwnPriceMark))
			}
			if i := slices.IndexFunc(v.Offers.Rows, func(r OfferRow) bool { return r.Instance == "1xH100" }); i < 0 || v.Offers.Rows[i].Provider != name {
				t.Errorf("%s%s: offers row %d for the sheet's offer", lang, kind, i)
			}
		}
	}
}

// TestOwnProviderFilter: the provider filter lists a provider of the
// user's own and, chosen, plans on it, its name's spaces and brackets
// kept (the filter's list is separated by commas or spaces, and a name
// the catalog holds is read whole first).
func TestOwnProviderFilter(t *testing.T) {
	const name = "My Lab (west)"
	pr := ownPrices(t, "provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency\n"+name+",8xH100,h100-sxm,8,20,USD\n")
	st := ParseFragment("m=llama-3.1-8b&rps=5", DefaultState)
	st[FieldProvider] = name
	d := Derive(st, nil, pr, nil, "")
	if !d.R.OK {
		t.Fatalf("provider %q: the job does not read: %+v", name, d.R)
	}
	v := BuildView(ViewIn{State: st, Job: d.Job, R: d.R, Prices: pr, Plan: RunPlan(d.Job, pr)})
	if len(v.Answer.Picks) == 0 || !strings.Contains(v.Answer.Picks[0].Where, name) {
		t.Errorf("provider %q: picks %+v", name, v.Answer.Picks)
	}
	st[FieldProvider] = "aws gcp"
	if d := Derive(st, nil, pr, nil, ""); !d.R.OK || strings.Join(d.Job.Filters.Providers, ",") != "aws,gcp" {
		t.Errorf("aws gcp: read %v (%v)", d.Job.Filters.Providers, d.R.OK)
	}
}

// TestOwnProviderCommaFilter: a provider of the user's own named with a
// comma is chosen in the provider filter and read back
// whole through the link: the filter's option writes it escaped
// (ProviderList), the link carries it, and the plan's picks are on it;
// a list of two such names reads two.
func TestOwnProviderCommaFilter(t *testing.T) {
	const name, other = `Lab, west`, `Rack 2, east`
	pr := ownPrices(t, "provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency\n\""+name+"\",8xH100,h100-sxm,8,20,USD\n\""+other+"\",4xH100,h100-sxm,4,12,USD\n")
	st := ParseFragment("m=llama-3.1-8b&rps=5", DefaultState)
	in := ViewIn{State: st, Prices: pr}
	i := slices.IndexFunc(in.FieldOptions(FieldProvider), func(o Option) bool { return o.Label == name })
	if i < 0 {
		t.Fatalf("the provider filter does not list %q", name)
	}
	st[FieldProvider] = in.FieldOptions(FieldProvider)[i].Value
	back := ParseLink(Link{State: st}.Encode(DefaultState), DefaultState).State
	if back[FieldProvider] != st[FieldProvider] {
		t.Fatalf("the link carries %q, want %q", back[FieldProvider], st[FieldProvider])
	}
	d := Derive(back, nil, pr, nil, "")
	if !d.R.OK || !slices.Equal(d.Job.Filters.Providers, []string{name}) {
		t.Fatalf("provider %q: read %q (%v)", name, d.Job.Filters.Providers, d.R.OK)
	}
	v := BuildView(ViewIn{State: back, Job: d.Job, R: d.R, Prices: pr, Plan: RunPlan(d.Job, pr)})
	if len(v.Answer.Picks) == 0 || !strings.Contains(v.Answer.Picks[0].Where, name) {
		t.Errorf("provider %q: picks %+v", name, v.Answer.Picks)
	}
	back[FieldProvider] = ProviderList(name, other, "aws")
	if d := Derive(back, nil, pr, nil, ""); !d.R.OK || !slices.Equal(d.Job.Filters.Providers, []string{name, other, "aws"}) {
		t.Errorf("%q: read %q (%v)", back[FieldProvider], d.Job.Filters.Providers, d.R.OK)
	}
}

// TestProviderListRoundTrip: ProviderList's text splits back into its
// names, commas and backslashes inside them kept.
func TestProviderListRoundTrip(t *testing.T) {
	for _, names := range [][]string{{"aws"}, {"Lab, west", "aws"}, {`a\b`, `c\,d`, ",", `\`}, {""}} {
		if got := splitProviders(ProviderList(names...)); !slices.Equal(got, names) {
			t.Errorf("%q: %q reads %q", names, ProviderList(names...), got)
		}
	}
}
