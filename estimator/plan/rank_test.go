package plan

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// rank orders rows exactly as a plain sort of whole rows by (fit first,
// cost to the cent, the user's own price first, time, hourly price,
// offer ID, input order) does, over rows with tied costs, times and
// prices, the user's and the catalog's prices, zero and infinite costs
// and unfit rows.
func TestRankMatchesRowSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	offers := make([]Offer, 40)
	for i := range offers {
		offers[i].ID = "o" + strconv.Itoa(rng.IntN(25))
		offers[i].UserPrice = rng.IntN(4) == 0
	}
	pick := func(vs ...float64) float64 { return vs[rng.IntN(len(vs))] }
	for trial := range 300 {
		rows := make([]Row, 1+rng.IntN(60))
		for i := range rows {
			r := &rows[i]
			r.Offer = &offers[rng.IntN(len(offers))]
			r.Fits = rng.IntN(5) > 0
			r.cost = pick(0, 0.001, 0.004, 0.006, 1, 1.004, 2.5, 1e6, math.MaxFloat64, rng.Float64()*100)
			r.time = pick(1, 2, 3, rng.Float64())
			r.PricePerHourUSD = pick(1, 2, rng.Float64())
			r.TP = i // input order, to check the moves
		}
		want := slices.Clone(rows)
		key := func(r *Row) (bool, float64, float64, float64) {
			if !r.Fits {
				return true, 0, 0, 0
			}
			return false, math.Round(r.cost * 100), r.time, r.PricePerHourUSD
		}
		slices.SortStableFunc(want, func(a, b Row) int {
			ua, ca, ta, ha := key(&a)
			ub, cb, tb, hb := key(&b)
			if ua != ub {
				if ub {
					return -1
				}
				return 1
			}
			// At equal cents the user's own price comes first.
			own := 0
			if !ua && a.Offer.UserPrice != b.Offer.UserPrice {
				own = 1
				if a.Offer.UserPrice {
					own = -1
				}
			}
			return cmp.Or(cmp.Compare(ca, cb), own, cmp.Compare(ta, tb), cmp.Compare(ha, hb), cmp.Compare(a.Offer.ID, b.Offer.ID))
		})
		got := rank(rows)
		for i := range got {
			if got[i].TP != want[i].TP {
				t.Fatalf("trial %d: position %d holds input row %d, want %d", trial, i, got[i].TP, want[i].TP)
			}
		}
	}
}
