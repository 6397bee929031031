package page

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"rightsize/app/page/jobspec"
	"rightsize/catalog"
	planner "rightsize/estimator/plan"
)

// The region filter's problem when no offer stands in a region it names:
// the plan would be empty for a reason the user can fix at once (a typo,
// "cn-north-2" for "cn-north-1"), so the field says which regions the
// providers do list.
func init() {
	messagesEN[MsgRegionUnlisted] = "no %s offer is hosted in a region starting with “%s”; %s lists: %s"
	MessagesRU[MsgRegionUnlisted] = "у %s нет предложений в регионе, начинающемся с «%s»; регионы %s: %s"
	messagesZH[MsgRegionUnlisted] = "%s 没有位于以“%s”开头的地域的报价；%s 的地域：%s"
	messagesEN[MsgRegionUnlistedAny] = "no offer is hosted in a region starting with “%s”; the offers' regions: %s"
	MessagesRU[MsgRegionUnlistedAny] = "нет предложений в регионе, начинающемся с «%s»; регионы предложений: %s"
	messagesZH[MsgRegionUnlistedAny] = "没有位于以“%s”开头的地域的报价；现有报价的地域：%s"
}

// regionsShown caps the regions a MsgRegionUnlistedAny problem lists (the
// catalog's offers stand in over a hundred).
const regionsShown = 24

// regionUnlisted checks the region prefixes against the regions the offers
// of providers list (every provider's where none is named): where no
// offer's region starts with any of them (planner.RegionMatches), the
// prefixes as given and the regions those offers list, sorted. ok when a
// prefix matches one (the filter keeps its offers: "us-east,eu" of a
// provider in us-east alone plans there), when none is given, or when an
// offer of the user's own gives no region (the planner keeps it, the
// filter unchecked).
func regionUnlisted(cat *catalog.Catalog, providers, prefixes []string) (prefix string, listed []string, ok bool) {
	if len(prefixes) == 0 {
		return "", nil, true
	}
	seen := map[string]bool{}
	for _, o := range cat.Offers {
		if len(providers) > 0 && !slices.ContainsFunc(providers, func(p string) bool { return strings.EqualFold(p, o.Provider) }) {
			continue
		}
		if o.UserPrice && len(o.Regions) == 0 {
			return "", nil, true
		}
		for _, r := range o.Regions {
			if !seen[r] {
				seen[r] = true
				listed = append(listed, r)
			}
		}
	}
	if slices.ContainsFunc(prefixes, func(p string) bool {
		return slices.ContainsFunc(listed, func(r string) bool { return planner.RegionMatches(r, p) })
	}) {
		return "", nil, true
	}
	slices.Sort(listed)
	return strings.Join(prefixes, ", "), listed, false
}

// regionErr is the Region field's problem for prefix (the prefixes as
// given), which none of the listed regions of providers starts with.
func regionErr(prefix string, providers, listed []string) *JobError {
	shown := listed
	if len(providers) == 0 && len(shown) > regionsShown {
		shown = append(slices.Clone(shown[:regionsShown]), "…")
	}
	regions := strings.Join(shown, " · ")
	e := &JobError{Field: jobspec.Region, Value: prefix, show: showReason, Args: [3]string{strings.Join(providers, ", "), regions}}
	if len(providers) == 0 {
		e.Key = MsgRegionUnlistedAny
		e.Err = fmt.Errorf("--region %q: no offer is hosted in a region starting with it; the offers' regions (%s in all; --provider narrows them): %s",
			prefix, strconv.Itoa(len(listed)), regions)
		return e
	}
	e.Key = MsgRegionUnlisted
	e.Err = fmt.Errorf("--region %q: no %s offer is hosted in a region starting with it; %s lists: %s", prefix, e.Args[0], e.Args[0], regions)
	return e
}

// regionUnlistedText is a MsgRegionUnlisted or MsgRegionUnlistedAny
// problem in l's words.
func (l Locale) regionUnlistedText(e FieldErr) string {
	if e.Key == MsgRegionUnlistedAny {
		return Fill(l.T(e.Key), e.Value, e.Args[1])
	}
	return Fill(l.T(e.Key), e.Args[0], e.Value, e.Args[0], e.Args[1])
}
