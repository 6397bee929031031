package launch

import (
	"math"
	"strconv"

	"rightsize/estimator"
)

// ErrInconsistent: the launch would not run the plan it came from (a TP
// that does not divide the heads, an expert split the estimate did not
// model, a context shorter than the planned requests, a memory share the
// plan was not sized at). The planner never ranks such a row; the check
// keeps a future change from handing one over.
const ErrInconsistent = "launch.inconsistent"

// checkServe is the semantic check of engine k's launch of shape s against
// the row and the model: what the engine would refuse at start-up, or
// run differently from the plan.
func (e *emitter) checkServe(k Kind, s copyShape) error {
	a := e.in.Arch
	// The attention heads split over the attention TP group: the copy's
	// TP GPUs over its attention data-parallel ranks (estimator.HeadsSplit,
	// the rule the estimate's input check applies).
	if why := estimator.HeadsSplit(a, s.tp/max(s.dp, 1)); a.Heads > 0 && why != "" {
		return e.fail(ErrInconsistent, why)
	}
	// Experts: the estimate gives every expert-parallel rank (experts +
	// redundant copies)/EP experts (estimator.Input.EP and
	// RedundantExperts, the row's or the disaggregated worker's: s.redundant; judged by estimator.ExpertSplit, the rule the
	// estimate's input check applies); an uneven split puts more weights
	// and tokens on some ranks than planned. vLLM's
	// --enable-expert-parallel spreads the experts over every GPU of the
	// copy (TP × DP); SGLang's --ep-size must divide --tp-size (SGLang
	// docs, "Expert Parallelism": tp_size % ep_size == 0).
	if s.redundant > 0 && (s.ep <= 1 || !a.IsMoE()) {
		return e.fail(ErrInconsistent, "the plan adds "+itoa(s.redundant)+" redundant experts to a copy without expert parallelism over a mixture-of-experts model")
	}
	if s.ep > 1 && a.IsMoE() {
		ep := s.ep
		if k == VLLM {
			ep = s.tp
		}
		if why := estimator.ExpertSplit(a, ep, s.redundant); why != "" {
			return e.fail(ErrInconsistent, "expert parallelism over "+itoa(ep)+" GPUs "+why)
		}
		if k == SGLang && s.tp%s.ep != 0 {
			return e.fail(ErrInconsistent, "EP "+itoa(s.ep)+" does not divide TP "+itoa(s.tp))
		}
	}
	// SGLang runs expert parallelism under attention DP with DeepEP's
	// all-to-all, as the estimate prices it (estimator.SGLangDeepEP);
	// where the model's SGLang code runs no attention DP
	// (estimator.SGLangDPAttention), DeepEP does not run, or DeepEP would
	// spread the experts over another EP than the plan's, the launch
	// cannot run the plan.
	if k == SGLang {
		if why := estimator.DeepEPRefusal(e.engineInput(k, s), e.row.Offer.Hardware); why != "" {
			return e.fail(ErrLayoutUnsupported, why)
		}
	}
	// Redundant experts: each engine writes its own setting
	// (engineCommand), where its GPUs let it (estimator.
	// RedundantExpertsRefusal, the rule the planner lays copies out by).
	if why := estimator.RedundantExpertsRefusal(e.engineInput(k, s), e.row.Offer.Hardware); why != "" {
		return e.fail(ErrLayoutUnsupported, why)
	}
	// A block-quantised checkpoint served as published (its FP8
	// weights): the engine splits its layers over TP in whole blocks
	// only (estimator.BlockSplit, the rule the planner's layout search
	// and its check of a fixed layout apply; the estimate only warns).
	if why := estimator.BlockSplit(a, engineOf(k), s.tp, s.dp, s.ep); e.in.Weights == estimator.FP8 && why != "" {
		return e.fail(ErrInconsistent, why)
	}
	// The context covers the planned request; a plan whose mean request
	// is over the model's context serves nothing.
	prompt, output := e.lengths()
	if ctx := a.ServeContext(); ctx > 0 && prompt+output > ctx {
		return e.fail(ErrInconsistent, "the planned request of "+itoa(prompt+output)+" tokens is over the model's context of "+itoa(ctx))
	}
	return e.checkMemory()
}

// checkMemory: the launch runs at the memory share the row was sized
// with, and the row fits at it.
func (e *emitter) checkMemory() error {
	if u := e.in.GPUMemUtil; u != 0 && !(u > 0 && u <= 1) {
		return e.fail(ErrInconsistent, "the plan's memory share is not in (0, 1]")
	}
	if h := e.row.HeadroomGiB; math.IsNaN(h) || h < 0 {
		return e.fail(ErrInconsistent, "the row does not fit its GPUs at the plan's memory share")
	}
	return nil
}

// checkTrain is the semantic check of a data-parallel training launch:
// every rank is one data-parallel replica on a GPU of the row (a layout
// the user fixed may leave some of the row's GPUs idle), and the global
// batch the launch runs is the plan's.
func (e *emitter) checkTrain(s trainShape) error {
	if g := e.row.GPUs; float64(s.world) > g {
		return e.fail(ErrInconsistent, "the launch starts "+itoa(s.world)+" ranks for a plan of "+strconv.FormatFloat(g, 'g', -1, 64)+" GPUs")
	}
	if s.dp != s.world {
		return e.fail(ErrInconsistent, "data-parallel degree "+itoa(s.dp)+" on "+itoa(s.world)+" ranks")
	}
	return e.checkMemory()
}
