package plan

import (
	"math"
	"slices"
	"testing"
)

// The mix's arithmetic by hand, at given rates per copy. A flat day of
// 10 requests/s, 80% short and 20% long; offer A ($1/h) serves 10 short
// requests/s per copy and no long ones, offer B ($4/h) 20 short or 2 long.
//   - B alone: 10×0.8/20 + 10×0.2/2 = 0.4 + 1 = 1.4 copies → 2 replicas
//     every hour: 2 × 4 × 730 = 5,840 a month (A alone cannot serve).
//   - Short on A: 8/10 = 0.8 → 1 replica × 1 × 730 = 730; long on B:
//     2/2 = 1 → 1 × 4 × 730 = 2,920; the mix 3,650, saving 5,840 − 3,650 =
//     2,190 (37.5%).
func TestMixHandComputed(t *testing.T) {
	var curve LoadCurve
	for h := range curve {
		curve[h] = 10
	}
	offer := func(id string, price float64, rho ...float64) mixOffer {
		return mixOffer{o: &Offer{ID: id}, cs: copyShape{perInstance: 1, instancesPer: 1}, inst: 1, rho: rho, minRate: price,
			in: FleetInput{OnDemandPerHour: price, BillingGranularity: "second"}}
	}
	s := &mixSearch{fo: FleetOptions{Curve: curve}, share: []float64{0.8, 0.2}, memo: map[mixKey]float64{}, maxInst: 64,
		offs: []mixOffer{offer("A", 1, 10, 0), offer("B", 4, 20, 2)}}
	singles := s.cheapestSingles(3, 3)
	if !slices.Equal(singles, []int{1}) {
		t.Fatalf("single offers %v, want [1] (B)", singles)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	if v := s.cost(1, 3); !near(v, 5840) {
		t.Errorf("B alone %.4f, want 5,840", v)
	}
	if v := s.cost(0, 3); !math.IsInf(v, 1) {
		t.Errorf("A alone %.4f, want +Inf", v)
	}
	a, v := s.descend([]int{1, 1}, []int{1, 0})
	if !slices.Equal(a, []int{0, 1}) || !near(v, 3650) {
		t.Errorf("mix %v at %.4f, want [0 1] (short on A, long on B) at 3,650", a, v)
	}
	if saving := s.total([]int{1, 1}) - v; !near(saving, 2190) || !near(saving/5840, 0.375) {
		t.Errorf("saving %.4f, want 2,190 (37.5%%)", saving)
	}
	// Each group keeps its minimum: with 2 replicas at least, B alone is
	// still 2 × 4 × 730 and the mix (2 × 1 + 2 × 4) × 730 = 7,300.
	s.fo.MinReplicas, s.memo = 2, map[mixKey]float64{}
	if v := s.total([]int{0, 1}); !near(v, 7300) {
		t.Errorf("mix at 2 replicas at least %.4f, want 7,300", v)
	}
	if a, v := s.descend([]int{1, 1}, []int{1, 0}); !slices.Equal(a, []int{1, 1}) || !near(v, 5840) {
		t.Errorf("at 2 replicas at least the mix %v at %.4f, want B alone at 5,840", a, v)
	}
}
