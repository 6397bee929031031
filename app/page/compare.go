package page

import (
	"net/url"
	"strings"

	planner "rightsize/estimator/plan"
)

// The comparison: up to MaxCompare planner rows side by side, named by
// their offers, carried in the link under CompareKey ("cmp=a,b"). Its
// figures are RowCells, the cells the fit and offers tables print for the
// same row.

// MaxCompare is how many plans the comparison holds.
const MaxCompare = 4

// CompareKey is the comparison's link key: offer IDs, comma-separated.
const CompareKey = "cmp"

// maxOfferID bounds one offer ID read from a link; maxBadShown, how many
// ignored values the link note names.
const (
	maxOfferID  = 128
	maxBadShown = 8
)

// ParseCompare reads a comparison from its link value. It keeps at most
// MaxCompare distinct offer IDs made of [A-Za-z0-9._-]; bad lists what it
// ignored (an ID it cannot read, a repeat, one past the limit), as the
// link note shows them. It never fails: a hand-edited link keeps what
// reads.
func ParseCompare(v string) (ids, bad []string) {
	if v == "" {
		return nil, nil
	}
	ignore := func(id string) {
		switch {
		case len(bad) < maxBadShown:
			bad = append(bad, shortened(id))
		case len(bad) == maxBadShown:
			bad = append(bad, "…")
		}
	}
	for id := range strings.SplitSeq(v, ",") {
		id = strings.TrimSpace(id)
		switch {
		case id == "":
			continue
		case !validOfferID(id), len(ids) >= MaxCompare:
			ignore(id)
		default:
			dup := false
			for _, x := range ids {
				dup = dup || x == id
			}
			if dup {
				ignore(id)
				continue
			}
			ids = append(ids, id)
		}
	}
	return ids, bad
}

// EncodeCompare is the link value of a comparison.
func EncodeCompare(ids []string) string {
	esc := make([]string, len(ids))
	for i, id := range ids {
		esc[i] = url.QueryEscape(id)
	}
	return strings.Join(esc, ",")
}

func validOfferID(s string) bool {
	if len(s) > maxOfferID {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// shortened keeps an ignored value short (40 characters) and valid UTF-8
// for the note.
func shortened(s string) string {
	const most = 40
	s = strings.ToValidUTF8(s, "\uFFFD")
	n := 0
	for i := range s {
		if n == most {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// ToggleCompare adds id to the comparison, or removes it when it is
// there. ok is false when the comparison is full (it is left unchanged).
func ToggleCompare(ids []string, id string) (out []string, ok bool) {
	for i, x := range ids {
		if x == id {
			return append(ids[:i:i], ids[i+1:]...), true
		}
	}
	if len(ids) >= MaxCompare || !validOfferID(id) || id == "" {
		return ids, false
	}
	return append(ids[:len(ids):len(ids)], id), true
}

// RowCells are a planner row's figures as the tables print them: the
// offers table's cost, time and price date, the comparison's, and the
// cost per million tokens the pinned comparison shows.
type RowCells struct {
	Cost, Time, PerM, AsOf string
}

// Cells formats candidate x of o for job j.
func (o *PlanOut) Cells(l Locale, j Job, x Candidate) RowCells {
	r := RowCells{Cost: l.Money(x.Cost, o.Currency), Time: l.Duration(x.Seconds), PerM: "—"}
	if x.Offer != nil {
		r.AsOf = l.Date(x.Offer.AsOf)
	}
	switch {
	case j.In.Task.Training():
		if o.Kind == planner.Training && j.Tokens > 0 {
			r.PerM = l.Money(x.Cost/j.Tokens*1e6, o.Currency)
		}
	case x.PerMOutUSD > 0:
		r.PerM = l.Money(o.FromUSD(x.PerMOutUSD), o.Currency)
	}
	return r
}

// Row is the planner's cheapest row on offer id, if any.
func (o *PlanOut) Row(id string) (Candidate, bool) {
	i, ok := o.ByOffer[id]
	if !ok || i < 0 || i >= len(o.Cands) {
		return Candidate{}, false
	}
	return o.Cands[i], true
}
