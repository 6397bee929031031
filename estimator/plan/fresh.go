package plan

// Which prices the picks rest on.
//
// The planner ranks by price, and an old price is more often a low one: a
// GPU cloud's list from a year ago, before it raised its rates, or a date
// the catalog could only estimate. A public price log from August 2026
// shows several clouds 20–60% above the prices the catalog held for them
// from 2025-10. Ranked by price alone, those stale prices win "cheapest",
// the answer a user is most likely to act on. A price far below what the
// other providers ask for the same GPU (under half their median: a
// marketplace "from" price, a lapsed promotion, an error) wins it the
// same way.
//
// So the picks (cheapest, fastest, best value, the cost–time front) rest
// on prices dated within the freshness window wherever such a price runs
// the job, and, for each GPU, on its most trustworthy prices: dated within
// the window first, then not far below the median. A row of a GPU that has
// a fitting row in a better class is passed over (Row.PassedOver says
// why), and so is a stale row of any GPU while some fresh row fits: a
// 2025 price of the newest GPU (the catalog's B300 prices are estimated
// 2025-10 list prices) otherwise wins all three picks over current
// H100 and B200 prices, the least reliable figure deciding the answer.
// Only when no fresh price runs the job are the picks made on stale
// prices, flagged (Row.Stale). Every row is planned, ranked by cost as
// before and listed, so a stale offer can still be chosen by hand; the
// labels say "verify".

// DefaultFreshnessDays is the default freshness window, in days: the same
// as catalog.DefaultFreshnessDays (a catalog test holds them equal).
const DefaultFreshnessDays = 180

// maxFreshnessDays bounds the window: a century is no window at all.
const maxFreshnessDays = 36500

// freshness is the request's window in days.
func (r Request) freshness() int {
	if r.FreshnessDays == 0 {
		return DefaultFreshnessDays
	}
	return r.FreshnessDays
}

// stale reports whether o's price is undated, of a guessed date or older
// than days on the plan's date. An estimated date that is a proven lower
// bound (Offer.AsOfLowerBound: SkyPilot's v9 files cannot predate the
// schema's creation) is no guess: the price is at most PriceAgeDays old,
// so it is fresh within the window as a dated price is, and AWS's,
// Lambda's or Nebius's list prices of July–August 2026 are not passed
// over for a dearer dated one. The user's own prices (Offer.UserPrice)
// are never stale: the user vouches for them.
func stale(o *Offer, days int) bool {
	if o.UserPrice {
		return false
	}
	return o.PriceAgeDays < 0 || o.PriceAgeDays > days || o.AsOfGuessed()
}

// AsOfGuessed: an estimated date with no proven bound
// (catalog.Offer.AsOfGuessed).
func (o *Offer) AsOfGuessed() bool { return o.AsOfEstimated && !o.AsOfLowerBound }

// trust is a row's price class, best first: fresh and normally priced,
// fresh and far below the median (or on a host below the sizing rule),
// stale, stale and far below. Freshness comes first: a current price is a
// price someone asks today, however low, where a stale one may be gone.
// A host below the guides' floor of vCPUs or RAM per GPU for any GPU job
// (HostCheck.Short: 4 GiB of RAM beside an H100 cannot hold a serving
// engine's process and the checkpoint's loading, DOMAIN.md "Multi-GPU")
// is as doubtful as a price under half the market: picked only where
// nothing better runs the job. The user's
// own prices are the first class whatever their level: a negotiated rate
// is not a market outlier.
func trust(r *Row) int {
	if r.Offer.UserPrice {
		return 0
	}
	c := 0
	if r.Stale {
		c = 2
	}
	if r.Offer.FarBelowMedian || r.Offer.ToVerify || (r.Pricing == Spot && r.Offer.SpotFarBelow) || r.Host.Short {
		c++
	}
	return c
}

// SpotFloorShare is the smallest spot price, as a share of the same
// offer's on-demand price, the picks rest on: AWS documents Spot at "up
// to 90% off" On-Demand (aws.amazon.com/ec2/spot, 2026) and Google Cloud
// Spot VMs at "60-91% off" (cloud.google.com/spot-vms); a listing deeper
// than 90% off is flagged like an on-demand price far below the median.
const SpotFloorShare = 0.10

// passOver marks the fitting rows the picks pass over: those in a worse
// trust class than the best fitting row of any GPU. A headline resting on
// a price the product itself flags ("under half what others ask —
// verify") is not an answer a practitioner signs, whatever GPU it is on;
// the flagged row stays listed, and Result.CheaperFlagged points at the
// cheapest of them when it undercuts the cheapest pick.
func passOver(rows []Row, days int) {
	perGPU := map[string]int{}
	best := 4
	for i := range rows {
		r := &rows[i]
		if !r.Fits {
			continue
		}
		c := trust(r)
		if b, ok := perGPU[r.Offer.GPU]; !ok || c < b {
			perGPU[r.Offer.GPU] = c
		}
		best = min(best, c)
	}
	for i := range rows {
		r := &rows[i]
		if !r.Fits {
			continue
		}
		c, g := trust(r), perGPU[r.Offer.GPU]
		if c <= best {
			continue
		}
		switch {
		case r.Stale && best < 2 && g >= 2 && r.Offer.AsOfGuessed():
			// Every price of this GPU is stale, and another GPU's fresh
			// price runs the job. The sentence says which staleness this
			// price has, as for a GPU with a fresh price of its own: it
			// said "older than the window or of an estimated date".
			r.PassedOver = Reason{Key: MsgReasonStaleEstElsewhere, Args: []any{label(r), r.Offer.AsOf}}
		case r.Stale && best < 2 && g >= 2:
			r.PassedOver = Reason{Key: MsgReasonStaleElsewhere, Args: []any{label(r), r.Offer.AsOf, float64(days)}}
		case r.Stale && best < 2:
			switch o := r.Offer; {
			case o.PriceAgeDays < 0 && o.AsOf == "":
				r.PassedOver = Reason{Key: MsgReasonStaleUndated, Args: []any{label(r)}}
			case o.AsOfGuessed():
				r.PassedOver = Reason{Key: MsgReasonStaleEstimated, Args: []any{label(r), o.AsOf}}
			default:
				r.PassedOver = Reason{Key: MsgReasonStale, Args: []any{label(r), o.AsOf, float64(days)}}
			}
		case r.Host.Short && !r.Offer.FarBelowMedian && !r.Offer.ToVerify && !(r.Pricing == Spot && r.Offer.SpotFarBelow):
			r.PassedOver = Reason{Key: MsgReasonHostShort, Args: []any{label(r), r.Host.Reason}}
		case r.Pricing == Spot && r.Offer.SpotFarBelow && !r.Offer.FarBelowMedian:
			r.PassedOver = Reason{Key: MsgReasonSpotFarBelow, Args: []any{label(r), 100 * SpotFloorShare}}
		case r.Offer.ToVerify && !r.Offer.FarBelowMedian && g < c:
			r.PassedOver = Reason{Key: MsgReasonToVerify, Args: []any{label(r)}}
		case r.Offer.ToVerify && !r.Offer.FarBelowMedian:
			r.PassedOver = Reason{Key: MsgReasonToVerifyElsewhere, Args: []any{label(r)}}
		case g < c:
			r.PassedOver = Reason{Key: MsgReasonFarBelow, Args: []any{label(r)}}
		default:
			r.PassedOver = Reason{Key: MsgReasonFarBelowElsewhere, Args: []any{label(r)}}
		}
	}
}

// cheaperFlagged is the cheapest fitting row passed over for its price
// that costs less than the cheapest pick, or -1: the option shown beside
// the answer as "cheaper if the price holds — verify".
func cheaperFlagged(res *Result) int {
	if res.Cheapest < 0 {
		return -1
	}
	pick := res.Rows[res.Cheapest].cost
	for i := range res.Rows {
		r := &res.Rows[i]
		if r.Fits && r.PassedOver.Key != NoMsg && r.cost < pick {
			return i // rows are in cost order
		}
	}
	return -1
}
