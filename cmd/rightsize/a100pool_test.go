package main

import (
	"encoding/json"
	"strings"
	"testing"

	"rightsize/app/page"
	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// TestA100PoolAgrees: one vLLM server on an A100 80GB is one story. vLLM
// gives the A100 its smaller limits whatever its memory
// (vllm/engine/arg_utils.py, get_batch_defaults: max_num_seqs 256,
// max_num_batched_tokens 2048), so it profiles a 2048-token forward before
// it sizes its KV pool. The page's "KV pool" fact, `rightsize estimate
// --json`'s kv_pool_tokens, the pool of the planner's serving row and the
// step budget its simulator and the launch command use all read that
// budget; on an H100 80GB (8192 tokens) the same job keeps its pool,
// smaller by the activations of the 6144 tokens more it profiles
// (Qwen3-14B: 6144 × (6·17408 + 8·5120) × 2 B = 1,786,773,504 B, at
// 40 layers × 2 × 8 KV heads × 128 × 2 B = 163,840 B a token: 10,905.6
// tokens).
func TestA100PoolAgrees(t *testing.T) {
	cat := catalog.Default()
	pr := page.NewPrices(cat, nil)
	pools := map[string]int64{}
	for _, c := range []struct {
		gpu    string
		tokens int // vLLM's max_num_batched_tokens on it
		want   int64
	}{{"a100-80gb-sxm", 2048, 280640}, {"h100-sxm", 8192, 269734}} {
		frag := "m=qwen3-14b&e=vllm&g=" + c.gpu
		// The CLI.
		code, out, errs := runEst(t, "--model", "qwen3-14b", "--engine", "vllm", "--gpu", c.gpu, "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.gpu, code, errs)
		}
		var r struct {
			Pool int64 `json:"kv_pool_tokens"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		// The page.
		fig, err := page.LinkFigures(frag)
		if err != nil {
			t.Fatalf("%s: %v", frag, err)
		}
		// The planner's serving row on a one-GPU copy of the same GPU.
		d := page.Derive(page.ParseFragment(frag+"&rps=1", page.DefaultState), nil, pr, nil, "")
		if !d.R.OK {
			t.Fatalf("%s: %v %v", frag, d.Errs, d.General)
		}
		if got := d.Job.In.BatchedTokens(); got != c.tokens {
			t.Errorf("%s: the page's job profiles %d tokens, vLLM %d", c.gpu, got, c.tokens)
		}
		req := page.PlanRequest(d.Job)
		req.FX = cat.PlanFX()
		var offers []plan.Offer
		for _, o := range pr.PlanOffers(d.Job.In.Weights) {
			if o.GPU == c.gpu {
				offers = append(offers, o)
			}
		}
		res, err := plan.Plan(req, offers, plan.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var row *plan.Row
		for i := range res.Rows {
			if x := &res.Rows[i]; x.Fits && x.TP == 1 && x.Engine == estimator.VLLM && x.Sim != nil {
				row = x
				break
			}
		}
		if row == nil {
			t.Fatalf("%s: no one-GPU vLLM serving row among %d", c.gpu, len(res.Rows))
		}
		simPool := row.Sim.KVTokens
		if simPool == 0 {
			simPool = row.Sim.Model.KVPoolTokens()
		}
		if r.Pool != c.want || fig.KVPoolTokens != r.Pool || simPool != r.Pool {
			t.Errorf("%s: KV pool CLI %d, page %d, planner %d tokens; want %d", c.gpu, r.Pool, fig.KVPoolTokens, simPool, c.want)
		}
		if p := row.Sim.Policy; p.TokenBudget != c.tokens {
			t.Errorf("%s: the planner's simulator schedules %d tokens a step, vLLM %d", c.gpu, p.TokenBudget, c.tokens)
		}
		// The launch the plan writes for that GPU.
		code, out, errs = runPlanArgs(t, "--model", "qwen3-14b", "--engine", "vllm", "--gpu", c.gpu, "--gpus", "1",
			"--requests-per-second", "1", "--prompt-tokens", "1536", "--output-tokens", "512", "--emit", "vllm")
		if code != 0 {
			t.Fatalf("%s: plan --emit vllm: exit %d: %s", c.gpu, code, errs)
		}
		if flag := "--max-num-batched-tokens " + itoa(c.tokens); !strings.Contains(out, flag) {
			t.Errorf("%s: the launch lacks %s:\n%s", c.gpu, flag, out)
		}
		pools[c.gpu] = r.Pool
	}
	if d := pools["a100-80gb-sxm"] - pools["h100-sxm"]; d < 10905 || d > 10906 {
		t.Errorf("A100 pool %d tokens over the H100's, want 10,905.6 (the activations of the 6144 tokens it does not profile)", d)
	}
}
