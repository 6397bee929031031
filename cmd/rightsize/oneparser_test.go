package main

import (
	"bytes"
	"flag"
	"io"
	"math"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"rightsize/app/page"
	"rightsize/app/page/jobspec"
	"rightsize/catalog"
	"rightsize/estimator/plan"
)

// jobCapture is a subcommand that keeps the parsed job and runs nothing:
// what the command line made of its flags.
type jobCapture struct{ job estimateJob }

func (c *jobCapture) define(*flag.FlagSet) {}
func (c *jobCapture) run(job estimateJob, _ io.Writer, _ func(string, ...any) int) int {
	c.job = job
	return 0
}

// TestDoorsParseOneJob gives the command line and the page the same
// shared job fields and requires the same typed job: the same
// estimator.Input and catalog GPU for good input, and for bad input a
// refusal at both doors naming the same field (no panic, no job).
func TestDoorsParseOneJob(t *testing.T) {
	type job map[string]string // CLI flag (= the page field's name) → value
	// Every case names the model, task, precision, sequence and GPUs: the
	// page's sample job sets them, the command line would take the
	// model's own (its sample length, its checkpoint's precision, one
	// model copy).
	base := func(kv ...string) job {
		j := job{"model": "llama-3.1-8b", "task": "inference", "precision": "bf16", "seq": "4096", "gpus": "1", "gpu": "h100-sxm"}
		for i := 0; i+1 < len(kv); i += 2 {
			j[kv[i]] = kv[i+1]
		}
		return j
	}
	good := []job{
		base(),
		base("engine", "vllm", "batch", "32", "gpu-mem-util", "0.85", "max-batched-tokens", "8192", "enforce-eager", "1"),
		base("engine", "sglang", "kv-dtype", "fp8", "batch", "64", "gpu", "b200"),
		base("engine", "hf", "precision", "int4", "kernel", "autogptq", "host", "legacy-server", "gpu", "a100-80gb-sxm"),
		base("engine", "vllm", "engine-version", "0.6.0", "usable-vram", "70GiB", "cuda-context", "600MiB", "nccl", "1GiB", "cuda-graphs", "0.5GiB", "allocator-reserve", "2GiB"),
		base("model", "qwen3-30b-a3b", "engine", "vllm", "precision", "fp8", "gpus", "4", "tp", "4", "ep", "4", "batch", "64"),
		base("model", "qwen3-30b-a3b", "engine", "sglang", "gpus", "8", "tp", "8", "ep", "8", "dp", "8", "batch", "128"),
		base("model", "gemma-3-27b", "engine", "vllm", "text-only", "1", "batch", "8"),
		base("task", "train", "gpus", "16", "tp", "2", "pp", "2", "zero", "1", "batch", "2", "grad-checkpointing", "1", "flash-attention", "0"),
		base("task", "train", "gpus", "16", "cp", "4", "batch", "1", "seq", "32768", "selective-recompute", "1"),
		// The fused attention kernel a training step runs (Megatron-Core's
		// cuDNN attention on Hopper; FlashAttention-3).
		base("task", "train", "gpus", "8", "batch", "2", "attention-kernel", "cudnn"),
		base("task", "finetune", "gpus", "8", "zero", "3", "batch", "2", "attention-kernel", "fa3"),
		// ZeRO on auto at both doors (the page's empty field, no --zero).
		base("task", "train", "gpus", "64", "tp", "8", "batch", "1"),
		base("task", "finetune", "gpus", "4", "zero", "3", "offload", "optimizer", "optimizer", "adamw-8bit", "batch", "2"),
		base("task", "lora", "lora-rank", "64", "lora-targets", "all-linear", "batch", "4"),
		base("task", "qlora", "quant", "nf4", "lora-rank", "8", "batch", "4", "gpu", "l4"),
		// The training job's tokens and global batch (0: not given).
		base("task", "finetune", "gpus", "4", "zero", "3", "batch", "2", "global-batch", "64", "train-tokens", "500M"),
		base("task", "train", "gpus", "8", "global-batch", "0", "train-tokens", "2T"),
		// Efficiencies: 0 and empty are the model's own at both doors.
		base("task", "train", "gpus", "8", "mfu", "0.4"),
		base("task", "train", "gpus", "8", "mfu", "0"),
		base("engine", "vllm", "inference-mfu", "0.5", "bandwidth-util", "0.8"),
		base("engine", "vllm", "inference-mfu", "0", "bandwidth-util", "1"),
		// No split of the sequence: half of it generated at both doors
		// (estimator.Workload's zero value), as the CLI's JSON has it.
		base("output-tokens", "0"),
		base("output-tokens", "4000"),
		// Lightning's precision names, as LitGPT's tables print them:
		// bf16-true and 16-true are pure 16-bit training (no fp32 master
		// copy), the -mixed ones autocast over fp32 weights.
		base("task", "finetune", "precision", "bf16-true", "gpus", "4", "zero", "3", "batch", "2", "gpu", "a10g"),
		base("task", "lora", "precision", "16-true", "batch", "4"),
		base("task", "qlora", "quant", "nf4", "precision", "bf16-true", "batch", "4", "gpu", "l4"),
		base("task", "finetune", "precision", "bf16-mixed", "gpus", "8", "zero", "3", "batch", "2"),
		base("task", "lora", "precision", "32-true", "batch", "1"),
		base("precision", "bf16-true"),
	}
	bad := []struct {
		c     job
		field string
	}{
		{base("task", "pretrian"), "task"},
		{base("precision", "fp3"), "precision"},
		{base("kv-dtype", "int3"), "kv-dtype"},
		{base("engine", "tgi"), "engine"},
		{base("quant", "q9"), "quant"},
		{base("precision", "int4", "kernel", "cutlass9"), "kernel"},
		{base("engine", "vllm", "engine-version", "banana"), "engine-version"},
		{base("host", "pentium-pro-9000"), "host"},
		{base("gpu", "h999"), "gpu"},
		{base("usable-vram", "lots"), "usable-vram"},
		{base("nccl", "-1GiB"), "nccl"},
		{base("cuda-context", "12 parsecs"), "cuda-context"},
		{base("engine", "vllm", "gpu-mem-util", "1.5"), "gpu-mem-util"},
		{base("engine", "vllm", "gpu-mem-util", "-0.1"), "gpu-mem-util"},
		{base("batch", "many"), "batch"},
		{base("batch", "2.5"), "batch"},
		{base("tp", "99999999999999999999"), "tp"},
		{base("task", "train", "zero", "x"), "zero"},
		{base("task", "train", "grad-checkpointing", "maybe"), "grad-checkpointing"},
		{base("task", "train", "attention-kernel", "fa4"), "attention-kernel"},
		{base("task", "train", "attention-kernel", "CUDNN "), "attention-kernel"},
		{base("task", "train", "train-tokens", "0"), "train-tokens"},
		{base("task", "train", "train-tokens", "lots"), "train-tokens"},
		{base("task", "train", "global-batch", "-4"), "global-batch"},
		{base("task", "train", "mfu", "1.5"), "mfu"},
		{base("task", "train", "mfu", "NaN"), "mfu"},
		{base("engine", "vllm", "bandwidth-util", "0.001"), "bandwidth-util"},
		{base("engine", "vllm", "inference-mfu", "-0.3"), "inference-mfu"},
		{base("output-tokens", "many"), "output-tokens"},
		{base("precision", "bf16-mixed"), "precision"},
		{base("task", "train", "precision", "transformer-engine"), "precision"},
	}
	parseBoth := func(c job) (cli jobCapture, code int, stderr string, j page.Job, errs [page.NFields]page.FieldErr, ok bool) {
		var args []string
		keys := make([]string, 0, len(c))
		for k := range c {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		// The page's job is the link with the same fields, read as the
		// page reads a link (a field a link leaves out takes the default
		// a link means: the LoRA rank LitGPT's under a Lightning precision).
		link := url.Values{}
		for _, k := range keys {
			v := c[k]
			f, shared := jobspec.ByFlag(k)
			if !shared {
				t.Fatalf("--%s is not a shared job field", k)
			}
			args = append(args, "--"+k+"="+v)
			if !slices.Contains(page.FieldNames[:], k) {
				t.Fatalf("%s: no page field", k)
			}
			link.Set(jobspec.Fields[f].Key, v)
		}
		s := page.ParseFragment(link.Encode(), page.DefaultState)
		for f, n := range page.FieldNames {
			if v, given := c[n]; given && s[f] != v {
				t.Fatalf("%s: the link carries %q, the page reads %q", n, v, s[f])
			}
		}
		// The page's sample job generates 512 of the tokens; the command
		// line is told so.
		args = append(args, "--output-tokens", s[page.FieldOutput])
		var eb bytes.Buffer
		code = estimateCommand("estimate", args, io.Discard, &eb, &cli)
		j, errs, _, ok = page.ParseJob(s, catalog.Default(), page.Archs{}, nil, "")
		return cli, code, eb.String(), j, errs, ok
	}
	for _, c := range good {
		cli, code, stderr, j, errs, ok := parseBoth(c)
		if code != 0 || !ok {
			t.Errorf("%v: CLI exit %d (%s), page ok %v %v", c, code, strings.TrimSpace(stderr), ok, errs)
			continue
		}
		if !reflect.DeepEqual(cli.job.in, j.In) {
			a, b := reflect.ValueOf(cli.job.in), reflect.ValueOf(j.In)
			for i := 0; i < a.NumField(); i++ {
				if !reflect.DeepEqual(a.Field(i).Interface(), b.Field(i).Interface()) {
					t.Errorf("%v: Input.%s CLI %v, page %v", c, a.Type().Field(i).Name, a.Field(i), b.Field(i))
				}
			}
		}
		if c["task"] != "inference" && cli.job.trainTokens != j.Tokens {
			t.Errorf("%v: training tokens CLI %g, page %g", c, cli.job.trainTokens, j.Tokens)
		}
		if c["task"] == "inference" && (cli.job.prompt != j.Work.PromptTokens || cli.job.output != j.Work.OutputTokens) {
			t.Errorf("%v: prompt/output CLI %d/%d, page %d/%d", c, cli.job.prompt, cli.job.output, j.Work.PromptTokens, j.Work.OutputTokens)
		}
		if k, ok := c["attention-kernel"]; ok && (cli.job.in.AttnKernel.String() != k || j.In.AttnKernel.String() != k) {
			t.Errorf("%v: attention kernel CLI %v, page %v, want %s", c, cli.job.in.AttnKernel, j.In.AttnKernel, k)
		}
		if p, ok := c["precision"]; ok && strings.Contains(p, "-") {
			pure := strings.HasSuffix(p, "-true") && p != "32-true" && c["task"] != "inference"
			if cli.job.in.PureBF16 != pure || cli.job.in.Weights.String() != map[string]string{"bf16": "bf16", "16": "fp16", "32": "fp32"}[strings.SplitN(p, "-", 2)[0]] {
				t.Errorf("%v: CLI reads %s as %v weights, pure 16-bit %v", c, p, cli.job.in.Weights, cli.job.in.PureBF16)
			}
		}
		if cli.job.eff != j.Eff {
			t.Errorf("%v: efficiencies CLI %+v, page %+v", c, cli.job.eff, j.Eff)
		}
		if cli.job.gpu.ID != j.GPU.ID || cli.job.gpu.ID != c["gpu"] {
			t.Errorf("%v: GPU CLI %q, page %q", c, cli.job.gpu.ID, j.GPU.ID)
		}
	}
	for _, b := range bad {
		cli, code, stderr, _, errs, ok := parseBoth(b.c)
		if code != 2 || cli.job.name != "" {
			t.Errorf("%v: CLI exit %d, want 2 and no job", b.c, code)
		}
		if !strings.Contains(stderr, "-"+b.field+" ") && !strings.Contains(stderr, "-"+b.field+":") {
			t.Errorf("%v: CLI says %q, not naming --%s", b.c, strings.TrimSpace(stderr), b.field)
		}
		if ok {
			t.Errorf("%v: the page takes it", b.c)
		}
		for f, e := range errs {
			if named := page.FieldNames[f] == b.field; named == e.OK() {
				t.Errorf("%v: page field %s error %+v", b.c, page.FieldNames[f], e)
			}
		}
	}
}

// planCapture defines plan's flags and keeps its request, planning nothing.
type planCapture struct {
	planCmd
	req plan.Request
	err error
	// own and ownErr are the daily fleet's owned-GPU alternative.
	own    *plan.Owned
	ownErr error
}

func (c *planCapture) run(job estimateJob, _ io.Writer, _ func(string, ...any) int) int {
	c.req, c.err = c.request(job, catalog.Default())
	c.own, c.ownErr = c.ownedInputs(job, catalog.Default())
	return 0
}

// TestDoorsParseOnePlan: the planner's assumptions both doors have read
// the same (page.ParsePlan), and bad ones are refused at the same field.
func TestDoorsParseOnePlan(t *testing.T) {
	type job map[string]string
	good := []job{
		{},
		{"task": "train", "pricing": "spot", "checkpoint-write": "2GB", "restart": "10m", "unknown-networks": "1", "freshness-days": "30"},
		{"task": "finetune", "pricing": "reserved-1y", "restart": "600", "freshness-days": "36500"},
		// A currency in any case; lists by commas or spaces; provider IDs
		// in any case, as the planner compares them.
		{"currency": "eur", "provider": "AWS, lambda", "country": "US DE", "region": "us-east,eu"},
		// Counts: a batch job's requests, a dataset and its passes.
		{"requests": "100k"},
		{"task": "train", "dataset-tokens": "10B", "epochs": "1.5"},
		// Serving at a request rate: a count, suffixes too.
		{"requests-per-second": "1.5k"},
		{"requests-per-second": "0.25", "spot-interruptions": "0.005", "min-vcpus": "32"},
		// The instance floor and the planner's reclaim share: 0 is none
		// given at both doors.
		{"min-vcpus": "0", "spot-interruptions": "0"},
		{"spot-interruptions": "1"},
		// The user's hosted API: one price given is the other at 0; a free
		// API is a price.
		{"requests-per-second": "5", "api-input-price": "0.15", "api-output-price": "0.6"},
		{"requests-per-second": "5", "api-output-price": "0"},
		// Owning against the daily fleet (a preset's): free power is a price.
		{"workload": "chat", "own-price": "25000", "kwh-price": "0", "depreciation-years": "5"},
		{"workload": "chat", "own-price": "1e5", "kwh-price": "0.12", "depreciation-years": "100"},
		// The statistic the serving targets bound: p95 unless given.
		{"requests-per-second": "5", "slo-stat": "p99"},
		{"requests-per-second": "5", "slo-stat": "mean"},
	}
	bad := []struct {
		c     job
		field string
	}{
		{job{"pricing": "free"}, "pricing"},
		{job{"currency": "XYZ"}, "currency"},
		{job{"requests": "none"}, "requests"},
		{job{"requests": "0"}, "requests"},
		{job{"task": "train", "dataset-tokens": "lots"}, "dataset-tokens"},
		{job{"task": "train", "dataset-tokens": "1B", "epochs": "0"}, "epochs"},
		{job{"provider": "aws nosuch"}, "provider"},
		{job{"task": "train", "checkpoint-write": "fast"}, "checkpoint-write"},
		{job{"task": "train", "checkpoint-write": "0GB"}, "checkpoint-write"},
		{job{"task": "train", "restart": "soon"}, "restart"},
		{job{"freshness-days": "0"}, "freshness-days"},
		{job{"freshness-days": "36501"}, "freshness-days"},
		{job{"freshness-days": "a week"}, "freshness-days"},
		{job{"requests-per-second": "fast"}, "requests-per-second"},
		{job{"requests-per-second": "0"}, "requests-per-second"},
		{job{"requests-per-second": "2e6"}, "requests-per-second"},
		{job{"requests-per-second": "-3"}, "requests-per-second"},
		{job{"min-vcpus": "-1"}, "min-vcpus"},
		{job{"min-vcpus": "2.5"}, "min-vcpus"},
		{job{"min-vcpus": "many"}, "min-vcpus"},
		{job{"spot-interruptions": "1.5"}, "spot-interruptions"},
		{job{"spot-interruptions": "-0.1"}, "spot-interruptions"},
		{job{"spot-interruptions": "NaN"}, "spot-interruptions"},
		{job{"spot-interruptions": "often"}, "spot-interruptions"},
		{job{"requests-per-second": "5", "api-input-price": "-1"}, "api-input-price"},
		{job{"requests-per-second": "5", "api-input-price": "free"}, "api-input-price"},
		{job{"requests-per-second": "5", "api-output-price": "1e16"}, "api-output-price"},
		{job{"workload": "chat", "own-price": "0", "kwh-price": "0.1", "depreciation-years": "5"}, "own-price"},
		{job{"workload": "chat", "own-price": "lots", "kwh-price": "0.1", "depreciation-years": "5"}, "own-price"},
		{job{"workload": "chat", "own-price": "25000", "kwh-price": "-0.1", "depreciation-years": "5"}, "kwh-price"},
		{job{"workload": "chat", "own-price": "25000", "kwh-price": "0.1", "depreciation-years": "101"}, "depreciation-years"},
		{job{"workload": "chat", "own-price": "25000", "kwh-price": "0.1", "depreciation-years": "Inf"}, "depreciation-years"},
		{job{"workload": "chat", "own-price": "25000", "depreciation-years": "5"}, "kwh-price"},
		{job{"requests-per-second": "5", "slo-stat": "p97"}, "slo-stat"},
	}
	parseBoth := func(c job) (cli *planCapture, code int, j page.Job, errs [page.NFields]page.FieldErr, ok bool) {
		s := page.DefaultState
		// A batch job of 1,000 requests, or a training job of 1B tokens
		// on 8 GPUs (the checkpoint and restart are training's).
		args := []string{"--model=llama-3.1-8b", "--gpu=h100-sxm", "--seq=2048", "--precision=bf16", "--output-tokens=512", "--requests=1000"}
		s[page.FieldRequests] = "1000"
		if c["requests-per-second"] != "" {
			args = args[:len(args)-1] // serving at the rate instead (the page plans by the rate when one is given)
		}
		if c["task"] != "" {
			args = []string{"--model=llama-3.1-8b", "--gpu=h100-sxm", "--seq=2048", "--precision=bf16", "--gpus=8", "--train-tokens=1B"}
			if c["dataset-tokens"] != "" {
				args = args[:len(args)-1] // the dataset replaces the training tokens
			}
			s[page.FieldGPUs] = "8"
		}
		for k, v := range c {
			args = append(args, "--"+k+"="+v)
			for f, n := range page.FieldNames {
				if n == k {
					s[f] = v
				}
			}
		}
		cli = &planCapture{planCmd: planCmd{stderr: io.Discard}}
		code = estimateCommand("plan", args, io.Discard, io.Discard, cli)
		j, errs, _, ok = page.ParseJob(s, catalog.Default(), page.Archs{}, nil, "")
		return cli, code, j, errs, ok
	}
	for _, c := range good {
		cli, code, j, errs, ok := parseBoth(c)
		if code != 0 || cli.err != nil || !ok {
			t.Errorf("%v: CLI exit %d, %v; page ok %v %v", c, code, cli.err, ok, errs)
			continue
		}
		a := cli.req.Assumptions
		if cli.req.Pricing != j.Pricing || a.CheckpointWriteBytesPerSecond != j.CkptWriteBytesPerSecond || a.RestartSeconds != j.RestartSeconds ||
			a.UnknownNetworks != j.UnknownNetworks || c["requests-per-second"] == "" && cli.req.Workload.Requests != j.Requests ||
			c["task"] != "" && cli.req.Workload.TrainTokens != j.Tokens || cli.req.FreshnessDays != j.FreshnessDays || cli.req.Currency != j.Currency ||
			!reflect.DeepEqual([][]string{cli.req.Filters.Providers, cli.req.Filters.Countries, cli.req.Filters.Regions},
				[][]string{j.Filters.Providers, j.Filters.Countries, j.Filters.Regions}) {
			t.Errorf("%v: CLI %v %+v fresh %d, page %+v", c, cli.req.Pricing, a, cli.req.FreshnessDays, j)
		}
		if cli.req.Workload.RequestsPerSecond != j.RPS || cli.req.Filters.MinVCPUs != j.Filters.MinVCPUs || a.SpotInterruptionsPerMonth != j.SpotRate {
			t.Errorf("%v: CLI rate %g, vCPUs %d, reclaims %g; page %g, %d, %g", c, cli.req.Workload.RequestsPerSecond, cli.req.Filters.MinVCPUs,
				a.SpotInterruptionsPerMonth, j.RPS, j.Filters.MinVCPUs, j.SpotRate)
		}
		if want := c["slo-stat"]; c["requests-per-second"] != "" && (cli.req.Workload.SLOStat != j.SLOStat || want != "" && j.SLOStat.String() != want ||
			want == "" && j.SLOStat != plan.SLOP95) {
			t.Errorf("%v: the targets' statistic CLI %v, page %v", c, cli.req.Workload.SLOStat, j.SLOStat)
		}
		if api := c["api-input-price"] + c["api-output-price"]; api != "" && (j.API == nil || len(cli.req.HostedAPIs) != 1 || cli.req.HostedAPIs[0] != *j.API) ||
			api == "" && j.API != nil {
			t.Errorf("%v: hosted APIs CLI %+v, page %+v", c, cli.req.HostedAPIs, j.API)
		}
		if cli.ownErr != nil || !reflect.DeepEqual(cli.own, j.Own) || (c["own-price"] != "") != (j.Own != nil) {
			t.Errorf("%v: owned CLI %+v %v, page %+v", c, cli.own, cli.ownErr, j.Own)
		}
	}
	for i, want := range map[int]float64{6: 1500, 7: 0.25} {
		if _, _, j, _, _ := parseBoth(good[i]); j.RPS != want {
			t.Errorf("%v: page read a rate of %g, want %g", good[i], j.RPS, want)
		}
	}
	if _, _, j, _, _ := parseBoth(good[7]); j.SpotRate != 0.005 || j.Filters.MinVCPUs != 32 {
		t.Errorf("%v: page read %g reclaims, %d vCPUs", good[7], j.SpotRate, j.Filters.MinVCPUs)
	}
	if _, _, j, _, _ := parseBoth(good[11]); j.API == nil || j.API.InputUSDPerMillion != 0 || j.API.OutputUSDPerMillion != 0 {
		t.Errorf("%v: page's hosted API %+v, want a free one", good[11], j.API)
	}
	if _, _, j, _, _ := parseBoth(good[12]); j.Own == nil || *j.Own != (plan.Owned{PriceUSD: 25000, DepreciationYears: 5}) {
		t.Errorf("%v: page's owned GPU %+v", good[12], j.Own)
	}
	if _, _, j, _, _ := parseBoth(good[1]); j.Pricing.String() != "spot" || j.CkptWriteBytesPerSecond != 2e9 || j.RestartSeconds != 600 || !j.UnknownNetworks || j.FreshnessDays != 30 {
		t.Errorf("page read %+v", j)
	}
	if _, _, j, _, _ := parseBoth(good[3]); j.Currency != "EUR" || len(j.Filters.Providers) != 2 || len(j.Filters.Countries) != 2 || len(j.Filters.Regions) != 2 {
		t.Errorf("page read %s %v", j.Currency, j.Filters)
	}
	if _, _, j, _, _ := parseBoth(good[4]); j.Requests != 1e5 {
		t.Errorf("page read %g requests", j.Requests)
	}
	if _, _, j, _, _ := parseBoth(good[5]); j.Tokens != 1.5e10 {
		t.Errorf("page read %g training tokens", j.Tokens)
	}
	for _, b := range bad {
		cli, code, _, errs, ok := parseBoth(b.c)
		cliErr := cli.err
		if cliErr == nil {
			cliErr = cli.ownErr // the daily fleet's owned GPUs
		}
		if code != 0 || cliErr == nil || !strings.Contains(cliErr.Error(), "--"+b.field+":") && !strings.Contains(cliErr.Error(), "--"+b.field+" ") &&
			!strings.HasSuffix(cliErr.Error(), "--"+b.field+" (no sourced default)") {
			t.Errorf("%v: CLI exit %d, %v; want an error naming --%s", b.c, code, cliErr, b.field)
		}
		if ok {
			t.Errorf("%v: the page takes it", b.c)
		}
		for f, e := range errs {
			if named := page.FieldNames[f] == b.field; named == e.OK() {
				t.Errorf("%v: page field %s error %+v", b.c, page.FieldNames[f], e)
			}
		}
	}
}

// TestDoorsParseRenamedPairs: the fields each door names its own way hold
// one quantity, read by one rule (page.ParseDuration, page.ParseAmount):
// a time with any unit or a bare number in the field's unit (seconds on
// the command line, milliseconds or hours on the page), an amount as a
// plain number. Every spelling the command line took still reads.
func TestDoorsParseRenamedPairs(t *testing.T) {
	type side struct{ name, value string }
	good := []struct {
		cli, pg side
		get     func(plan.Request) float64
		page    func(page.Job) float64
		want    float64
	}{}
	ttft := func(r plan.Request) float64 { return r.Workload.TTFTP95Seconds }
	pageTTFT := func(j page.Job) float64 { return j.TTFT }
	tpot := func(r plan.Request) float64 { return r.Workload.TPOTSeconds }
	pageTPOT := func(j page.Job) float64 { return j.TPOT }
	dl := func(r plan.Request) float64 { return r.Filters.DeadlineSeconds }
	pageDL := func(j page.Job) float64 { return j.Filters.DeadlineSeconds }
	ram := func(r plan.Request) float64 { return r.Filters.MinRAMGiB }
	pageRAM := func(j page.Job) float64 { return j.Filters.MinRAMGiB }
	bud := func(r plan.Request) float64 { return r.Filters.BudgetUSD }
	pageBud := func(j page.Job) float64 { return j.Filters.BudgetUSD }
	add := func(cli, pg side, get func(plan.Request) float64, pf func(page.Job) float64, want float64) {
		good = append(good, struct {
			cli, pg side
			get     func(plan.Request) float64
			page    func(page.Job) float64
			want    float64
		}{cli, pg, get, pf, want})
	}
	add(side{"ttft-p95", "0.5"}, side{"ttft-ms", "500"}, ttft, pageTTFT, 0.5)
	add(side{"ttft-p95", "500ms"}, side{"ttft-ms", "0.5s"}, ttft, pageTTFT, 0.5)
	add(side{"ttft-p95", "2s"}, side{"ttft-ms", "2000ms"}, ttft, pageTTFT, 2)
	add(side{"tpot", "50ms"}, side{"tpot-ms", "50"}, tpot, pageTPOT, 0.05)
	add(side{"tpot", "0.1"}, side{"tpot-ms", "0.1s"}, tpot, pageTPOT, 0.1)
	add(side{"deadline", "72h"}, side{"deadline-hours", "72"}, dl, pageDL, 72*3600)
	add(side{"deadline", "3d"}, side{"deadline-hours", "3d"}, dl, pageDL, 72*3600)
	add(side{"deadline", "5400"}, side{"deadline-hours", "1.5"}, dl, pageDL, 5400)
	add(side{"min-ram", "512"}, side{"min-ram-gib", "512"}, ram, pageRAM, 512)
	add(side{"min-ram", "0"}, side{"min-ram-gib", "0"}, ram, pageRAM, 0)
	add(side{"budget", "2500"}, side{"budget-usd", "2500"}, bud, pageBud, 2500)
	bad := []struct{ cli, pg side }{
		{side{"ttft-p95", "soon"}, side{"ttft-ms", "soon"}},
		{side{"ttft-p95", "-1"}, side{"ttft-ms", "-1000"}},
		{side{"tpot", "NaN"}, side{"tpot-ms", "NaN"}},
		{side{"tpot", "1e10"}, side{"tpot-ms", "1e13"}},
		{side{"deadline", "tomorrow"}, side{"deadline-hours", "tomorrow"}},
		{side{"deadline", "-3d"}, side{"deadline-hours", "-72"}},
		{side{"min-ram", "lots"}, side{"min-ram-gib", "lots"}},
		{side{"min-ram", "-1"}, side{"min-ram-gib", "-1"}},
		{side{"budget", "1e16"}, side{"budget-usd", "1e16"}},
		{side{"budget", "Inf"}, side{"budget-usd", "Inf"}},
	}
	parseBoth := func(cli, pg side) (*planCapture, page.Job, [page.NFields]page.FieldErr, bool) {
		s := page.DefaultState
		args := []string{"--model=llama-3.1-8b", "--gpu=h100-sxm", "--seq=2048", "--precision=bf16", "--output-tokens=512", "--" + cli.name + "=" + cli.value}
		// The SLO is serving's; the deadline a batch job's (the page
		// hides it for serving).
		if cli.name == "ttft-p95" || cli.name == "tpot" {
			args = append(args, "--requests-per-second=5")
			s[page.FieldRPS] = "5"
		} else {
			args = append(args, "--requests=1000")
		}
		s[page.FieldRequests] = "1000"
		found := false
		for f, n := range page.FieldNames {
			if n == pg.name {
				s[f], found = pg.value, true
			}
		}
		if !found {
			t.Fatalf("%s: no page field", pg.name)
		}
		c := &planCapture{planCmd: planCmd{stderr: io.Discard}}
		if code := estimateCommand("plan", args, io.Discard, io.Discard, c); code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		j, errs, _, ok := page.ParseJob(s, catalog.Default(), page.Archs{}, nil, "")
		return c, j, errs, ok
	}
	for _, g := range good {
		cli, j, errs, ok := parseBoth(g.cli, g.pg)
		if cli.err != nil || !ok {
			t.Errorf("--%s %s / %s %s: CLI %v, page ok %v %v", g.cli.name, g.cli.value, g.pg.name, g.pg.value, cli.err, ok, errs)
			continue
		}
		if a, b := g.get(cli.req), g.page(j); math.Abs(a-g.want) > 1e-9*g.want || math.Abs(b-g.want) > 1e-9*g.want {
			t.Errorf("--%s %s: CLI %g, %s %s: page %g; want %g", g.cli.name, g.cli.value, a, g.pg.name, g.pg.value, b, g.want)
		}
	}
	for _, b := range bad {
		cli, _, errs, ok := parseBoth(b.cli, b.pg)
		if cli.err == nil || !strings.Contains(cli.err.Error(), "--"+b.cli.name+":") && !strings.Contains(cli.err.Error(), "--"+b.cli.name+" ") {
			t.Errorf("--%s %s: CLI %v; want an error naming it", b.cli.name, b.cli.value, cli.err)
		}
		if ok {
			t.Errorf("%s %s: the page takes it", b.pg.name, b.pg.value)
		}
		for f, e := range errs {
			if named := page.FieldNames[f] == b.pg.name; named == e.OK() {
				t.Errorf("%s %s: page field %s error %+v", b.pg.name, b.pg.value, page.FieldNames[f], e)
			}
		}
	}
}
