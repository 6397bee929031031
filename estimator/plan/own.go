package plan

import (
	"math"
	"slices"
	"strconv"

	"rightsize/estimator"
)

// The user's own offers (Offer.UserPrice: an uploaded price sheet, the
// CLI's --prices): what the plan says of a row the sheet leaves short.

// Sheet columns a filter reads, as Row.Unchecked names them.
const (
	ColumnRegion = "region"
	ColumnVCPUs  = "vcpus"
	ColumnRAM    = "ram_gib"
	// ColumnCountry is no sheet column: a provider only the user's sheet
	// names (their cluster, a contract with a cloud the catalog lacks)
	// has no country the catalog knows (catalog.KindOwn).
	ColumnCountry = "country"
)

// ownUnchecked names the filters of the request that o's own row leaves
// no figure to check against (its sheet's region, vcpus or ram_gib
// column empty), in the sheet's column names. passes keeps such a row
// and the plan marks it (Row.Unchecked and a note each): the sheet is
// what the user knows of their own machines, and an empty cell is not
// evidence that they stand outside the region or have too few vCPUs.
// Dropping the row hid a rate the user uploaded to compare, with no word
// why; planning it unmarked would claim a check that was not made. Kept
// and said, the user decides, or fills in the column. A catalog offer
// with no region stays filtered out: the plan cannot vouch for it, and
// no one else can.
func (p *planner) ownUnchecked(o *Offer) []string {
	if !o.UserPrice {
		return nil
	}
	f := p.req.Filters
	var out []string
	if len(f.Regions) > 0 && o.Region == "" {
		out = append(out, ColumnRegion)
	}
	if f.MinVCPUs > 0 && o.VCPUs == 0 {
		out = append(out, ColumnVCPUs)
	}
	if f.MinRAMGiB > 0 && o.RAMGiB == 0 {
		out = append(out, ColumnRAM)
	}
	if len(f.Countries) > 0 && o.Country == "" {
		out = append(out, ColumnCountry)
	}
	return out
}

// uncheckedNotes are the notes of Row.Unchecked, one a column.
var uncheckedNotes = map[string]Msg{
	ColumnRegion:  MsgNoteOwnNoRegion,
	ColumnVCPUs:   MsgNoteOwnNoVCPUs,
	ColumnRAM:     MsgNoteOwnNoRAM,
	ColumnCountry: MsgNoteOwnNoCountry,
}

// UncheckedNote is the note of an unchecked filter's column (a name of
// Row.Unchecked).
func UncheckedNote(column string) Reason { return Reason{Key: uncheckedNotes[column]} }

// markUnchecked records on r the filters its own row could not be checked
// against (ownUnchecked), and says each in a note.
func markUnchecked(r *Row, cols []string) {
	if len(cols) == 0 {
		return
	}
	r.Unchecked = cols
	r.Notes = slices.Clip(r.Notes)
	for _, c := range cols {
		r.Notes = append(r.Notes, UncheckedNote(c))
	}
}

// ownGPUsTried are the GPU counts of one instance the plan tries for the
// user's own offer that one instance does not hold (ownShortfall): the
// tensor-parallel degrees inside a server, up to the 8 GPUs of an HGX
// baseboard (NVIDIA HGX H100/A100 8-GPU) and of the largest T4, L4 and
// A10G instances (AWS g4dn.metal, g6.48xlarge, g5.48xlarge: 8 GPUs each).
var ownGPUsTried = [...]float64{2, 4, 8}

// smallerWeights are the weight formats a plan on one GPU of fewer bytes
// would try, the least lossy first: 8-bit (FP8, then INT8), then 4-bit.
var smallerWeights = [...]estimator.DType{estimator.FP8, estimator.INT8, estimator.INT4, estimator.FP4}

// Layout names an instance's layout in a reason: "TP 2", "TP 2 × PP 2",
// a training layout with its ZeRO stage ("TP 1 × PP 1, ZeRO-3").
type Layout struct {
	TP, PP, ZeRO int
	Training     bool
}

func (l Layout) String() string {
	s := "TP " + strconv.Itoa(l.TP)
	if l.PP > 1 || l.Training {
		s += " × PP " + strconv.Itoa(l.PP)
	}
	if l.Training {
		s += ", ZeRO-" + strconv.Itoa(l.ZeRO)
	}
	return s
}

// count is a GPU count as a reason's argument: an int where whole ("1 ×
// t4", not "1.00 × t4"), a number for a slice (0.5 of an L4).
func count(n float64) any {
	if n == math.Trunc(n) && n >= 1 && n <= math.MaxInt32 {
		return int(n)
	}
	return n
}

// holds reports whether a plan of the job runs on the row as to memory
// and speed: it fits, or misses only the budget or the deadline (a
// hypothetical instance's price is the user's to find).
func holds(r *Row) bool {
	return r.Fits || r.FitReason.Key == MsgFitOverBudget || r.FitReason.Key == MsgFitPastDeadline
}

// ownShortfall is the fit reason of the user's own offer o that one
// instance does not hold and that has no network to span several
// (fit.no_fabric), or whose instances a serving copy does not span
// (fit.span_node): how many of its GPUs one instance would need, found by
// the planner's own layout search on an instance of 2, 4 and 8 of them
// (ownGPUsTried), and, for inference, the smaller weights that would fit
// o as it is. An expert adds GPUs to the server or quantises before
// wiring servers together: a model split over separate boxes with no
// fabric named is the last resort, which fit.no_fabric_own says when
// neither helps. Memoised per shape, so a sheet of many rows of one
// GPU is searched once.
func (p *planner) ownShortfall(o *Offer) Reason {
	k := keyOf(o)
	if r, ok := p.own[k]; ok {
		return r
	}
	if p.own == nil {
		p.own = map[techKey]Reason{}
	}
	r := p.ownSearch(o)
	p.own[k] = r
	return r
}

func (p *planner) ownSearch(o *Offer) Reason {
	// The instances tried are o's GPUs alone: no host to check (the
	// sheet's vCPUs and RAM are those of o, not of the larger instance).
	base := *o
	base.VCPUs, base.RAMGiB = 0, 0
	gpus, layout, more := 0, Layout{}, false
	for _, n := range ownGPUsTried {
		if n <= o.GPUCount {
			continue
		}
		big := base
		big.GPUCount = n
		var r Row
		p.row(&big, &r)
		if holds(&r) {
			gpus, more = int(n), true
			layout = Layout{TP: r.TP, PP: r.PP, ZeRO: r.ZeRO, Training: p.req.Workload.Kind == Training}
			break
		}
	}
	// Without the figures of a shortfall (training, whose memory per GPU
	// is the layout's; a copy short of KV pool, not of its peak), the
	// reason says the instance that holds the job, or asks for the
	// network.
	plain := Reason{Key: MsgFitNoFabricOwn}
	if p.req.Workload.Kind != Training && !serveNode(o) {
		plain = Reason{Key: MsgFitSpanNode} // no network lets a copy span o
	}
	if more {
		plain = Reason{Key: MsgFitOwnMoreGPUs, Args: []any{count(o.GPUCount), o.GPU, gpus, o.GPU, layout}}
	}
	if p.req.Workload.Kind == Training {
		return plain
	}
	// The smaller weights the engine runs on o's GPU as they are (no
	// substitute: estimator.SupportFor), the least lossy that fits.
	var smaller estimator.DType
	found := false
	for _, w := range smallerWeights {
		if w.BitsPerElement() >= p.in.Weights.BitsPerElement() {
			continue
		}
		if s := estimator.SupportFor(o.Hardware.Generation, p.in.Engine, p.in.Task, w); !s.Runs || s.Substituted() {
			continue
		}
		var r Row
		p.sub(variant{weights: w, offload: p.in.Offload}).row(&base, &r)
		if holds(&r) {
			smaller, found = w, true
			break
		}
	}
	need, usable, tp, ok := p.copyNeed(o)
	switch {
	case !ok:
		return plain
	case more && found:
		return Reason{Key: MsgFitOwnGPUsOrWeights, Args: []any{count(o.GPUCount), o.GPU, need, tp, usable, gpus, o.GPU, layout, smaller.String()}}
	case more:
		return Reason{Key: MsgFitOwnGPUs, Args: []any{count(o.GPUCount), o.GPU, need, tp, usable, gpus, o.GPU, layout}}
	case found:
		return Reason{Key: MsgFitOwnWeights, Args: []any{count(o.GPUCount), o.GPU, need, tp, usable, smaller.String()}}
	}
	return plain
}

// copyNeed is the memory one GPU of o needs for one engine copy at the
// largest TP inside o (inferShapes' last try before it spans instances),
// and what the engine may use of it, in GiB; ok is false where the
// estimate does not say a shortfall (a copy that fails for another
// reason than its peak: the KV pool).
func (p *planner) copyNeed(o *Offer) (need, usable float64, tp int, ok bool) {
	if o.GPUCount < 1 {
		tp = 1
	} else {
		tp = maxTP(o, int(o.GPUCount))
	}
	mem, _ := p.slice(o)
	in := p.in
	mem.set(&in)
	in.Batch, in.ZeRO = 1, 0
	c := withGPUs(in, tp, tp, 1, 0)
	f := p.estimate(c)
	if f.Params == 0 || f.Headroom >= 0 {
		return 0, 0, tp, false
	}
	u := c.UsableBytes()
	return (u - f.Headroom).GiB(), u.GiB(), tp, true
}
