package page

import (
	"slices"
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
)

// TestEmptyAnswerNamesTheEngine: TensorRT-LLM serving Llama 3.1 8B in
// Alibaba's cn-zhangjiakou, whose one offer is a T4 (Turing), fits
// nowhere, each offer for the one reason that TensorRT-LLM does not start
// on Turing: the page's answer says so and names the engines that run
// the job there (vLLM and SGLang, from Turing), not "change the GPU
// count, precision or model", in each language, and each of them plans
// the job there. SGLang on IBM's V100s of 16 GB: vLLM starts on Volta but
// does not hold the model on one, so the refusal is said alone.
func TestEmptyAnswerNamesTheEngine(t *testing.T) {
	cat := catalog.Default()
	pr := NewPrices(cat, nil)
	frag := "m=llama-3.1-8b&rps=1&e=trtllm&hr=cn-zhangjiakou"
	st := ParseFragment(frag, DefaultState)
	d := Derive(st, nil, pr, nil, "")
	out := RunPlan(d.Job, pr)
	if len(out.Cands) != 0 || !out.HasCause {
		t.Fatalf("%s: %d plans, cause %v", frag, len(out.Cands), out.HasCause)
	}
	c := out.Cause
	if c.Why.Key != planner.MsgFitEngineGPU || c.Refused != estimator.TRTLLM || c.Gen != estimator.GenTuring ||
		len(c.Runs) != 2 || c.Runs[0] != estimator.VLLM || c.Runs[1] != estimator.SGLang {
		t.Fatalf("cause %+v", c)
	}
	want := map[string]string{
		"en": "Nothing the filters leave runs this job: trtllm does not run on Turing GPUs; engines that run the job on them: vLLM, SGLang. Choose one under Inference engine.",
		"ru": "Ни одно предложение, оставленное фильтрами, не выполняет эту задачу: trtllm не запускается на GPU Turing; на них задачу выполняют: vLLM, SGLang. Выберите один из них в поле «Движок инференса».",
		"zh": "筛选后剩下的报价都无法运行此任务：trtllm 不支持 Turing 架构的 GPU；可在其上运行此任务的引擎：vLLM, SGLang。请在“推理引擎”中选择其一。",
	}
	for lang, w := range want {
		if got := c.Note(Locale{Lang: lang}); got != w {
			t.Errorf("%s:\n got %q\nwant %q", lang, got, w)
		}
	}
	v := BuildView(ViewIn{State: st, Job: d.Job, Errs: d.Errs, General: d.General, R: d.R, Plan: out, Prices: pr})
	if v.Answer.Kind != AnswerNone || v.Answer.Note != want["en"] {
		t.Errorf("answer %v: %q", v.Answer.Kind, v.Answer.Note)
	}
	// The way out runs: each engine named plans the job there.
	for _, e := range []string{"vllm", "sglang"} {
		st[FieldEngine] = e
		d := Derive(st, nil, pr, nil, "")
		if out := RunPlan(d.Job, pr); len(out.Cands) == 0 || out.HasCause {
			t.Errorf("%s in cn-zhangjiakou: %d plans", e, len(out.Cands))
		}
	}

	// IBM's V100s: SGLang starts from Turing, TensorRT-LLM from Ampere,
	// and vLLM's releases from 0.20.0 ship no Volta kernels, so no
	// serving engine of the current releases starts there.
	st = ParseFragment("m=llama-3.1-8b&rps=1&e=sglang&pv=ibm", DefaultState)
	d = Derive(st, nil, pr, nil, "")
	out = RunPlan(d.Job, pr)
	if !out.HasCause || len(out.Cause.Starts) != 0 || len(out.Cause.Runs) != 0 || len(out.Cause.Alike) != 2 {
		t.Fatalf("IBM: cause %+v", out.Cause)
	}
	if got := out.Cause.Note(Locale{Lang: "en"}); got != "Nothing the filters leave runs this job: sglang does not run on Volta GPUs, nor does any other engine the plan serves a request rate on (vLLM, TensorRT-LLM)." {
		t.Errorf("IBM: %q", got)
	}
}

// TestNoneCauseNeedsOneReason: rows refused for different reasons, or
// one that fits, have no single cause; one reason that is not an
// engine's is named as it is.
func TestNoneCauseNeedsOneReason(t *testing.T) {
	req, offers := planRequestOf(NewPrices(catalog.Default(), nil), "m=llama-3.1-8b&rps=1&e=trtllm&hr=cn-zhangjiakou")
	res, err := planner.Plan(req, offers, planner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := NoneCauseOf(req, res, offers, planner.Options{})
	if !ok || c.Refused != estimator.TRTLLM {
		t.Fatalf("cause %+v %v", c, ok)
	}
	rows := []planner.Row{{FitReason: c.Why}, {FitReason: c.Why}}
	rows[1].FitReason.Args = []any{"trtllm", "Volta"}
	if _, ok := FindNoneCause(req, rows); ok {
		t.Errorf("two generations: one cause")
	}
	rows[1] = planner.Row{Fits: true}
	if _, ok := FindNoneCause(req, rows); ok {
		t.Errorf("a row fits: one cause")
	}
	same := planner.Row{FitReason: planner.Reason{Key: planner.MsgFitTooBig, Args: []any{64}}}
	got, ok := FindNoneCause(req, []planner.Row{same, same})
	if !ok || got.Refused >= 0 {
		t.Fatalf("too big: %+v %v", got, ok)
	}
	if s := got.Note(Locale{Lang: "en"}); s != "Nothing the filters leave runs this job: every offer is refused for one reason, needs more than 64 instances." {
		t.Errorf("too big: %q", s)
	}
}

// TestNoneCauseFromTheFirstPlan: the cause of an empty plan is read from
// the refusals the plan keeps (planner.Result.Unfit), the same as from a
// second plan of the request keeping its unfit rows, and NoneCauseOf
// plans only the engines that start there (each once: its yields are
// theirs), not the request again. TensorRT-LLM on Alibaba's T4s (vLLM
// and SGLang start there) and SGLang on IBM's V100s (no serving engine of
// the current releases starts there: nothing is planned again).
func TestNoneCauseFromTheFirstPlan(t *testing.T) {
	pr := NewPrices(catalog.Default(), nil)
	for i, frag := range []string{"m=llama-3.1-8b&rps=1&e=trtllm&hr=cn-zhangjiakou", "m=llama-3.1-8b&rps=1&e=sglang&pv=ibm"} {
		req, offers := planRequestOf(pr, frag)
		res, err := planner.Plan(req, offers, planner.Options{})
		if err != nil || res.Cheapest >= 0 || len(res.Unfit) != res.Considered || res.Considered == 0 {
			t.Fatalf("%s: cheapest %d, %d refusals of %d offers: %v", frag, res.Cheapest, len(res.Unfit), res.Considered, err)
		}
		all, err := planner.Plan(req, offers, planner.Options{KeepUnfit: true})
		if err != nil {
			t.Fatal(err)
		}
		want, wok := FindNoneCause(req, all.Rows)
		yields := 0
		got, ok := NoneCauseOf(req, res, offers, planner.Options{Yield: func() { yields++ }})
		if !ok || !wok || got.Why.String() != want.Why.String() || got.Refused != want.Refused || got.Gen != want.Gen ||
			!slices.Equal(got.Alike, want.Alike) || !slices.Equal(got.Starts, want.Starts) || (len(got.Starts) == 0) != (i == 1) {
			t.Errorf("%s: cause %+v (%v), from the unfit rows %+v (%v)", frag, got, ok, want, wok)
		}
		others := 0
		for _, e := range got.Starts {
			r := req
			r.Input.Engine, r.EngineOpen = e, false
			if _, err := planner.Plan(r, offers, planner.Options{Yield: func() { others++ }}); err != nil {
				t.Fatal(err)
			}
		}
		if yields != others {
			t.Errorf("%s: NoneCauseOf yields %d times, the plans of %v %d", frag, yields, got.Starts, others)
		}
	}
	// A plan where a row fits keeps no refusals.
	req, offers := planRequestOf(pr, "m=llama-3.1-8b&rps=1&e=vllm&hr=cn-zhangjiakou")
	if res, err := planner.Plan(req, offers, planner.Options{}); err != nil || res.Cheapest < 0 || res.Unfit != nil {
		t.Errorf("vLLM on the T4: cheapest %d, %d refusals kept (%v)", res.Cheapest, len(res.Unfit), err)
	}
}

// TestEmptyAnswerNamesTheLatencyFloor: Llama 3.1 70B served at 0.2 req/s
// with 130,000-token prompts and a 2 s TTFT target (the field's, set:
// its default for such prompts is 26 s) fits nowhere: the offers that hold it miss the target, the rest are too
// small, so no one reason refuses every offer. The answer says what the
// fastest offer reaches against the target and what to change, in each
// language, not "change the GPU count, precision or model".
func TestEmptyAnswerNamesTheLatencyFloor(t *testing.T) {
	cat := catalog.Default()
	pr := NewPrices(cat, nil)
	st := ParseFragment("m=llama-3.1-70b&rps=0.2&s=131072&out=1000&ttft=2000", DefaultState)
	d := Derive(st, nil, pr, nil, "")
	out := RunPlan(d.Job, pr)
	if len(out.Cands) != 0 || !out.HasCause || !out.Cause.Latency || out.Cause.Why.Key != planner.MsgNoneLatency {
		t.Fatalf("%d plans, cause %v %+v", len(out.Cands), out.HasCause, out.Cause)
	}
	for lang, w := range map[string]string{
		"en": "Nothing the filters leave runs this job: no offer meets the latency targets (TTFT 5.23 s at best, one prompt on an idle replica on aws p6-b300.48xlarge, against a target of 2.00 s: take a longer target or shorter prompts).",
		"ru": "Ни одно предложение, оставленное фильтрами, не выполняет эту задачу: целевые задержки недостижимы (TTFT в лучшем случае 5,23 с, один промпт на свободной реплике на aws p6-b300.48xlarge, при цели 2,00 с: задайте цель длиннее или промпты короче).",
		"zh": "筛选后剩下的报价都无法运行此任务：延迟目标无法达到（TTFT 最短 5.23 秒，即 aws p6-b300.48xlarge 的空闲副本处理一个提示词，目标为 2.00 秒：请放宽目标或缩短提示词）。",
	} {
		if got := out.Cause.Note(Locale{Lang: lang}); got != w {
			t.Errorf("%s:\n got %q\nwant %q", lang, got, w)
		}
	}
	// The answer names the provider as the cards do.
	v := BuildView(ViewIn{State: st, Job: d.Job, Errs: d.Errs, General: d.General, R: d.R, Plan: out, Prices: pr})
	if want := "one prompt on an idle replica on " + pr.ProviderName("aws") + " p6-b300.48xlarge,"; v.Answer.Kind != AnswerNone || !strings.Contains(v.Answer.Note, want) {
		t.Errorf("answer %v: %q, want %q in it", v.Answer.Kind, v.Answer.Note, want)
	}
}

// planRequestOf is the planner's request for the job of the page link
// frag, in the catalog's currencies, and the offers it plans on.
func planRequestOf(pr Prices, frag string) (planner.Request, []planner.Offer) {
	d := Derive(ParseFragment(frag, DefaultState), nil, pr, nil, "")
	req := PlanRequest(d.Job)
	req.FX = pr.Cat.PlanFX()
	return req, pr.PlanOffers(d.Job.In.Weights)
}

// TestNoneCauseLayoutShort: a layout the user fixed that one GPU does
// not hold is the cause though other rows are refused for their price or
// their shape first (it holds on every offer of the GPU), said without
// "every offer is refused for one reason", in each language.
func TestNoneCauseLayoutShort(t *testing.T) {
	req, _ := planRequestOf(NewPrices(catalog.Default(), nil), "m=llama-3.1-8b&rps=1")
	short := planner.Row{FitReason: planner.Reason{Key: planner.MsgFitLayoutOOM, Args: []any{51.5, 1, 1, 1, 0}}}
	rows := []planner.Row{
		{FitReason: planner.Reason{Key: planner.MsgFitNoPrice, Args: []any{"on-demand"}}},
		short,
		{FitReason: planner.Reason{Key: planner.MsgFitFractionTraining}},
		short,
	}
	c, ok := FindNoneCause(req, rows)
	if !ok || !c.Layout || c.Why.Key != planner.MsgFitLayoutOOM || c.Refused >= 0 {
		t.Fatalf("cause %+v %v", c, ok)
	}
	for lang, want := range map[string]string{
		"en": "Nothing the filters leave runs this job: 51.5 GiB per GPU short at the layout given (1 GPUs, TP 1, PP 1, ZeRO 0): raise the ZeRO stage or turn on gradient checkpointing, or clear GPUs, Tensor parallel and Pipeline stages to let the plan choose.",
		"ru": "51,5",
		"zh": "51.5",
	} {
		l := Locale{Lang: lang}
		got := c.Note(l)
		if !strings.Contains(got, want) || strings.Contains(got, strings.Split(l.T(MsgNoneSameReason), "%s")[0]) {
			t.Errorf("%s: %q", lang, got)
		}
	}
}

// TestEmptyAnswerCountsMixedReasons: a job no offer runs, each refused
// for its own reason, gets an answer that names the reasons with their
// counts, the most common first, in each language, where the page said
// only that nothing fits. Llama 3.1 405B served at 2 req/s on Cudo
// Compute: most of its offers are instances no serving copy spans without
// NVLink, its V100s run no current vLLM (estimator.SupportNoEngineRelease),
// the rest name no cluster network between instances.
func TestEmptyAnswerCountsMixedReasons(t *testing.T) {
	pr := NewPrices(catalog.Default(), nil)
	frag := "m=llama-3.1-405b&rps=2&pv=cudo"
	d := Derive(ParseFragment(frag, DefaultState), nil, pr, nil, "")
	out := RunPlan(d.Job, pr)
	if len(out.Cands) != 0 || !out.HasCause || len(out.Cause.Mixed) != 3 || out.Cause.Why.Key != planner.NoMsg {
		t.Fatalf("%s: %d plans, cause %v %+v", frag, len(out.Cands), out.HasCause, out.Cause)
	}
	m := out.Cause.Mixed
	if m[0].Why.Key != planner.MsgFitSpanNode || m[1].Why.Key != planner.MsgFitEngineRelease || m[2].Why.Key != planner.MsgFitNoFabric ||
		!(m[0].Offers > m[1].Offers && m[1].Offers > m[2].Offers) {
		t.Errorf("reasons %+v", m)
	}
	for _, c := range []struct{ lang, lead, sep string }{
		{"en", "Nothing the filters leave runs this job: the offers are refused for different reasons, the most common first: ", "; "},
		{"ru", "Ни одно предложение, оставленное фильтрами, не выполняет эту задачу: предложения отклонены по разным причинам, сначала самые частые: ", "; "},
		{"zh", "筛选后剩下的报价都无法运行此任务：各报价被拒的原因不同，最常见的在前：", "；"},
	} {
		l := Locale{Lang: c.lang}
		item := func(r planner.ReasonCount) string { return l.Given(float64(r.Offers)) + " × " + l.Reason(r.Why) }
		if s, want := out.Cause.Note(l), c.lead+item(m[0])+c.sep+item(m[1]); !strings.HasPrefix(s, want) {
			t.Errorf("%s: %q, want it to start %q", c.lang, s, want)
		}
	}
}
