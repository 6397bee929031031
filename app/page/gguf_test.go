package page

import (
	"testing"

	"rightsize/catalog"
)

// A GGUF format served at a rate gets no plan, and the page says why and
// what runs instead, not that "one instance does not hold" an 8B at
// Q4_K_M (4.9 GB) on 903 offers; the same format as a batch job is
// planned (llama.cpp runs it).
func TestNoServingPlanForGGUF(t *testing.T) {
	cat := catalog.Default()
	pr := NewPrices(cat, nil)
	for _, frag := range []string{"m=llama-3.1-8b&rps=2&q=q4_k_m", "m=llama-3.1-8b&rps=2&q=q4_k_m&e=llamacpp"} {
		st := ParseFragment(frag, DefaultState)
		d := Derive(st, nil, pr, nil, "")
		out := RunPlan(d.Job, pr)
		v := BuildView(ViewIn{State: st, Job: d.Job, Errs: d.Errs, General: d.General, R: d.R, Plan: out, Prices: pr})
		if !d.R.OK || out.Err == nil || len(out.Picks) != 0 || v.Answer.Kind != AnswerNone || v.Answer.Note != Tr("en", MsgNoAnswerGGUF) {
			t.Errorf("%s: estimate %v, planner error %v, %d picks, answer %v %q", frag, d.R.OK, out.Err, len(out.Picks), v.Answer.Kind, v.Answer.Note)
		}
	}
	if _, _, out := answer(t, "m=llama-3.1-8b&q=q4_k_m&req=1000"); len(out.Picks) == 0 {
		t.Errorf("Llama 3.1 8B at Q4_K_M, a batch of 1,000 requests: no picks (%q)", Tr("en", out.NoneWhy))
	}
	if _, _, out := answer(t, "m=llama-3.1-8b&p=int4&rps=2"); len(out.Picks) == 0 {
		t.Errorf("Llama 3.1 8B at int4, 2 req/s: no picks (%q)", Tr("en", out.NoneWhy))
	}
}
