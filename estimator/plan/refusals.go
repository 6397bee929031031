package plan

import "rightsize/estimator"

// ReasonCount is one reason the offers of an empty plan were refused for,
// as written (key and arguments), and how many offers were (CountReasons).
type ReasonCount struct {
	Why    Reason
	Offers int
}

// CountReasons groups the unfit rows of an empty plan (Result.Unfit, or
// its rows kept unfit) by their reason as written, the most common first
// and, at equal counts, in the rows' order: the answer to a job no offer
// runs for different reasons (a fixed --gpus 1024 that some offers cannot
// span for want of a cluster network, others for the instance limit,
// others for want of a price) says which, and how often, where one
// reason for every offer would say only that one.
func CountReasons(rows []Row) []ReasonCount {
	var out []ReasonCount
	seen := map[string]int{}
	for i := range rows {
		r := &rows[i]
		if r.Fits || r.FitReason.Key == NoMsg {
			continue
		}
		s := r.FitReason.String()
		if j, ok := seen[s]; ok {
			out[j].Offers++
			continue
		}
		seen[s] = len(out)
		out = append(out, ReasonCount{Why: r.FitReason, Offers: 1})
	}
	estimator.SortStable(out, func(a, b *ReasonCount) int { return b.Offers - a.Offers })
	return out
}
