package page

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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

// PlansView is the comparison of plans: one column per offer added, in
// the order added, its figures in rows (Cols empty: none).
type PlansView struct {
	Title  string
	Labels [5]string // the rows' names: cost, time, VRAM, $/1M tokens, price date
	Cols   []PlanCol
	Remove string // the remove buttons' name
	Note   string // said when a column has no plan for the job as set
	Full   string // said when the last add found the comparison full
}

// PlanCol is one plan of the comparison, formatted.
type PlanCol struct {
	ID, Title, Where string
	RowCells
	VRAM string
	OK   bool // the planner has a row on this offer for the job as set
}

// plans builds the comparison of plans.
func (b *viewBuilder) plans() PlansView {
	in, l := &b.in, b.l
	if len(in.Compare) == 0 {
		return PlansView{}
	}
	out := &in.Plan
	v := PlansView{
		Title: b.t(MsgComparePlans),
		Labels: [5]string{out.PlanCostHeader(l) + " · " + b.t(PricingKeys[in.Job.Pricing]), out.PlanTimeHeader(l), b.t(MsgVRAMPerGPU),
			b.t(MsgPerMTokens), b.t(MsgPriceDate)},
		Remove: b.t(MsgCompareRemove),
	}
	for _, id := range in.Compare {
		col := PlanCol{ID: id, Title: id, RowCells: RowCells{Cost: "—", Time: "—", PerM: "—", AsOf: "—"}, VRAM: "—"}
		if x, ok := out.Row(id); ok {
			col.OK = true
			col.Title = l.Count(int64(x.Plan.GPUs)) + " × " + GPULabel(in.Prices.GPUName(x.Offer.GPU), x.Plan)
			col.Where = in.Prices.ProviderName(x.Offer.Provider) + " · " + x.Offer.Name() + InstancesOf(l, x.Instances, x.Rented) +
				" · " + b.t(PricingKeys[x.Pricing]) + out.EngineText(x)
			col.RowCells = out.Cells(l, in.Job, x)
			col.VRAM = in.Prices.GPUVRAM(l, x.Offer.GPU)
		} else if in.Prices.Cat != nil {
			if o, ok := in.Prices.Cat.Offer(id); ok {
				col.Title = in.Prices.GPUName(o.GPU)
				col.Where = in.Prices.ProviderName(o.Provider) + " · " + in.Prices.InstanceName(o)
				col.VRAM = in.Prices.GPUVRAM(l, o.GPU)
			}
		}
		if !col.OK {
			v.Note = b.t(MsgCompareNoPlan)
		}
		v.Cols = append(v.Cols, col)
	}
	if in.CompareFull {
		v.Full = Fill(b.t(MsgCompareFull), strconv.Itoa(MaxCompare))
	}
	return v
}

// PinIn is the pinned configuration: its job, results and plan.
type PinIn struct {
	Job  Job
	R    Results
	Plan PlanOut
}

// PinView is the pinned configuration against the live one, row by row
// (Rows empty: nothing pinned).
type PinView struct {
	Title        string
	Pinned, Live string // the columns' names
	Rows         []PinRow
}

// PinRow is one line of the pin comparison.
type PinRow struct{ Label, Pinned, Live string }

// pinned builds the pin comparison. The costs are the planner's: its
// cheapest plan on each side's GPU.
func (b *viewBuilder) pinned() PinView {
	in, l := &b.in, b.l
	if in.Pin == nil {
		return PinView{}
	}
	v := PinView{Title: b.t(MsgCompareTitle), Pinned: b.t(MsgPinned), Live: b.t(MsgLive)}
	add := func(k MsgKey, a, c string) { v.Rows = append(v.Rows, PinRow{b.t(k), a, c}) }
	pj, lj := &in.Pin.Job, &in.Job
	pr, lr := &in.Pin.R, &in.R
	gpus := func(j *Job) string {
		return strconv.Itoa(j.In.GPUs) + " × " + GPULabel(j.GPU.Name, PlanOf(j.In))
	}
	mem := func(r *Results) string {
		if !r.OK {
			return "—"
		}
		return l.Bytes(r.Res.Peak)
	}
	verdict := func(r *Results) string {
		switch {
		case !r.OK:
			return "—"
		case r.Res.Fits:
			return b.t(MsgFits)
		}
		return b.t(MsgDoesNotFit)
	}
	speed := func(r *Results) string {
		if !r.Perf.OK {
			return "—"
		}
		return l.Rate(r.Perf.P.TokensPerSecond)
	}
	cost := func(j *Job, o *PlanOut) string {
		x, ok := o.Best(j.GPU.ID)
		if !ok || in.Pending {
			return "—"
		}
		return l.Money(x.Cost, o.Currency) + " (" + lowerFirst(o.PlanCostHeader(l)) + ")"
	}
	perM := func(j *Job, o *PlanOut) string {
		x, ok := o.Best(j.GPU.ID)
		if !ok || in.Pending {
			return "—"
		}
		return o.Cells(l, *j, x).PerM
	}
	add(MsgModel, pj.Model.Name, ModelName(l, *lj, in.CustomName))
	// The task in the page's language, as the job line and the form's
	// picker name it (TaskKeys), not the link's token.
	add(MsgTask, b.t(TaskKeys[pj.In.Task]), b.t(TaskKeys[lj.In.Task]))
	add(MsgPrecision, pj.In.Weights.String(), lj.In.Weights.String())
	add(MsgGPU, gpus(pj), gpus(lj))
	add(MsgMemory, mem(pr), mem(lr))
	add(MsgVerdict, verdict(pr), verdict(lr))
	add(MsgTokensPerSec, speed(pr), speed(lr))
	add(MsgCheapestCost, cost(pj, &in.Pin.Plan), cost(lj, &in.Plan))
	add(MsgPerMTokens, perM(pj, &in.Pin.Plan), perM(lj, &in.Plan))
	return v
}

// lowerFirst is s with its first letter lower-cased: a column header
// ("Per month", "В месяц") inside a cell's brackets.
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}
