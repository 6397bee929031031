package page

// One reading of the job's shared fields for both doors: the command
// line collects its flags' text (jobspec.Fields) and the page its fields'
// text into a JobText; ParseInput turns it into the typed estimator.Input
// with the catalog GPU, ParsePlan into the planner's assumptions and
// filters. Each problem is one JobError: a message key the page
// translates (EN/RU/ZH, i18n.go) and the English reason the command line
// prints after the flag's name.

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"rightsize/app/page/jobspec"
	"rightsize/catalog"
	"rightsize/estimator"
	planner "rightsize/estimator/plan"
)

// JobText is the shared job fields as text, keyed by jobspec.Field: a
// whole number in decimal, an on/off field "1" or "0", a size with its
// unit, a choice by its name.
type JobText struct {
	Text [jobspec.N]string
	// Read marks the fields whose text is read; a field not read takes
	// the table's default, as a flag not given (a page field hidden for
	// the task, a flag the command does not have).
	Read [jobspec.N]bool
	// Set marks the fields the user chose rather than left at the
	// table's default: the command line's flags on its command line, and
	// on the page every field (its state is the whole job). An unset
	// --seq keeps the model's own sample length, unset --gpus is one
	// model copy (TP × PP × CP) and an unset --zero is on auto.
	Set [jobspec.N]bool
}

// withDefaults is t with each field not read at the table's default, not
// set.
func (t *JobText) withDefaults() JobText {
	d := *t
	for f, s := range jobspec.Fields {
		if !d.Read[f] {
			d.Text[f], d.Read[f], d.Set[f] = s.Default, true, false
		}
	}
	return d
}

// InputJob is the typed estimator part of a job.
type InputJob struct {
	In estimator.Input
	// GPU is the catalog GPU named (zero ID: none); In has its memory.
	GPU catalog.GPU
	// ZeROAuto: no ZeRO stage given, so pre-training's stage and schedule
	// are chosen to fit (estimator.ResolveTrainDefaults).
	ZeROAuto bool
	// Host is the host CPU (a class or a CPU name; "": the GPU's usual).
	Host string
	// Eff overrides the estimator's efficiencies (zero fields: its own).
	Eff estimator.Efficiency
	// TrainTokens is the tokens a training job processes (above 0).
	TrainTokens float64
	// GlobalBatch is the sequences per optimizer step over all GPUs
	// (training; 0: not given, the estimator's schedule).
	GlobalBatch int
	// ShippedBy names the catalog model whose checkpoint precision In's
	// weights take, no precision being chosen for serving ("": none).
	ShippedBy string
	// EngineOpen: the engine is on auto (the command line without
	// --engine), and In's is the one the planner runs the job on at GPU
	// (planner.AutoEngine), for a job of Kind; EngineWhy says why (empty
	// for training, which runs on HF transformers).
	EngineOpen bool
	Kind       planner.Kind
	EngineWhy  planner.Reason
	// Stack is what the job took from the fine-tuning stack its precision
	// names (litgptDefaults: LitGPT for Lightning's names); nil: none.
	Stack *StackDefaults
	// FSDPNoSyncGiven: In.FSDPNoSync is the job's (--fsdp-no-sync given,
	// either way), not FSDPNoSyncDefault's, at its GPUs and in every
	// layout a plan tries (plan.Request.FSDPNoSyncGiven).
	FSDPNoSyncGiven bool
	// CheckpointingDefault: In.GradCheckpointing is on as the QLoRA
	// stacks' default (estimator.QLoRACheckpointingDefault), no
	// --grad-checkpointing being given; both doors say so.
	CheckpointingDefault bool
}

// JobError is one shared field's problem: Key is the page's message,
// Value the text as given, Err the reason in English.
type JobError struct {
	Field jobspec.Field
	Key   MsgKey
	Value string
	Err   error
	// show is how the command line names the field before Err.
	show errShow
	// Args fill a message that takes more than the value (FieldErr.Args).
	Args [3]string
}

type errShow uint8

const (
	showFlag   errShow = iota // --flag: reason
	showValue                 // --flag value: reason
	showQuoted                // --flag "value": reason
	showReason                // the reason alone (it names the flags)
)

// Error is the command line's wording.
func (e *JobError) Error() string {
	flag := "--" + jobspec.Fields[e.Field].Flag
	switch e.show {
	case showValue:
		return flag + " " + e.Value + ": " + e.Err.Error()
	case showQuoted:
		return fmt.Sprintf("%s %q: %v", flag, e.Value, e.Err)
	case showReason:
		return e.Err.Error()
	}
	return flag + ": " + e.Err.Error()
}

func (e *JobError) Unwrap() error { return e.Err }

// Range is what the field accepts, for a MsgRange problem (RangeOf its
// Err; zero: not said).
func (e *JobError) Range() estimator.Range {
	if e.Key != MsgRange {
		return estimator.Range{}
	}
	return RangeOf(e.Err)
}

// rangeError is an English reason with the range it says, as numbers the
// page writes in its own language; its text is the reason's alone, so the
// command line's messages stay as they read.
type rangeError struct {
	err error
	r   estimator.Range
}

func (e *rangeError) Error() string { return e.err.Error() }
func (e *rangeError) Unwrap() error { return e.err }

// ranged is err saying the range r.
func ranged(r estimator.Range, err error) error { return &rangeError{err, r} }

// RangeOf is the range an error says: a ranged reason's, or an
// estimator.InputError's (zero: none).
func RangeOf(err error) estimator.Range {
	var re *rangeError
	if errors.As(err, &re) {
		return re.r
	}
	var ie *estimator.InputError
	if errors.As(err, &ie) {
		return ie.Range
	}
	return estimator.Range{}
}

// ParseInput reads the estimator's fields of given over
// estimator.DefaultInput(arch). It returns the problems in the order it
// reads the fields (the choices, the host, the GPU, the sizes, the
// numbers and on/off fields, the efficiencies, the training tokens),
// every field checked, none skipped after a first problem.
func ParseInput(given *JobText, arch estimator.Arch, cat *catalog.Catalog) (InputJob, []*JobError) {
	t := given.withDefaults()
	r := jobReader{t: &t}
	var j InputJob
	in := estimator.DefaultInput(arch)
	choose(&r, jobspec.Task, estimator.ParseTask, &in.Task)
	r.precision(&in)
	// Serving starts from the checkpoint as published when no precision is
	// chosen (the command line without --precision; the page always
	// chooses): vLLM and SGLang serve an FP8 checkpoint in FP8 whatever
	// --dtype says (they read its quantization_config), so a 16-bit plan
	// would size weights the engine never loads (catalog.Model.WeightsDType).
	if !t.Set[jobspec.Precision] && in.Task == estimator.Inference {
		if m, ok := cat.Model(strings.TrimSpace(t.Text[jobspec.Model])); ok {
			if d, ok := m.StoredWeights(); ok {
				in.Weights, j.ShippedBy = d, m.Name
			}
		}
	}
	choose(&r, jobspec.KVDType, estimator.ParseDType, &in.KV)
	choose(&r, jobspec.Quant, estimator.ParseQuant, &in.Quant)
	choose(&r, jobspec.Kernel, estimator.ParseKernel, &in.Kernel)
	choose(&r, jobspec.Optimizer, estimator.ParseOptimizer, &in.Optimizer)
	choose(&r, jobspec.OptimizerImpl, estimator.ParseOptimizerImpl, &in.OptimizerImpl)
	choose(&r, jobspec.AttnKernel, estimator.ParseAttnKernel, &in.AttnKernel)
	choose(&r, jobspec.LoRATargets, estimator.ParseLoRATargets, &in.LoRATargets)
	choose(&r, jobspec.AdapterDType, estimator.ParseAdapterDType, &in.AdapterDType)
	if j.EngineOpen = t.Text[jobspec.Engine] == planner.AutoEngineName; !j.EngineOpen {
		choose(&r, jobspec.Engine, parseEngine, &in.Engine)
	}
	choose(&r, jobspec.Offload, estimator.ParseOffload, &in.Offload)
	choose(&r, jobspec.EngineVersion, estimator.ParseEngineVersion, &in.EngineVersion)
	if h := strings.TrimSpace(t.Text[jobspec.Host]); h != "" {
		if _, err := catalog.ParseHost(h); err != nil {
			r.fail(jobspec.Host, MsgUnknownChoice, showFlag, err)
		} else {
			j.Host = h
		}
	}
	if id := strings.TrimSpace(t.Text[jobspec.GPU]); id != "" {
		if g, ok := cat.GPU(id); ok {
			j.GPU = g
			g.SetMemory(&in)
		} else {
			r.fail(jobspec.GPU, MsgUnknownChoice, showQuoted, errors.New("not in the catalog"))
		}
	}
	var usable estimator.OptionalBytes
	r.size(jobspec.UsableVRAM, &usable)
	in.UsableVRAM = usable.Value
	r.size(jobspec.CUDAContext, &in.Overheads.CUDAContext)
	r.size(jobspec.AllocatorReserve, &in.Overheads.AllocatorReserve)
	r.size(jobspec.NCCL, &in.Overheads.NCCL)
	r.size(jobspec.CUDAGraphs, &in.Overheads.CUDAGraphs)

	r.whole(jobspec.Batch, &in.Batch)
	// The model's own sample length unless asked (estimator.DefaultInput).
	if t.Set[jobspec.Seq] || arch.SeqLen == 0 {
		r.whole(jobspec.Seq, &in.Seq)
	}
	r.whole(jobspec.LoRARank, &in.LoRARank)
	r.whole(jobspec.LossChunks, &in.LossChunks)
	r.whole(jobspec.TP, &in.TP)
	r.whole(jobspec.PP, &in.PP)
	r.whole(jobspec.CP, &in.CP)
	r.whole(jobspec.EP, &in.EP)
	r.whole(jobspec.DP, &in.DP)
	r.whole(jobspec.RedundantExperts, &in.RedundantExperts)
	r.whole(jobspec.MaxBatchedTokens, &in.MaxBatchedTokens)
	r.whole(jobspec.GPUs, &in.GPUs)
	if !t.Set[jobspec.GPUs] && in.TP >= 1 && in.PP >= 1 && in.CP >= 1 && in.TP*in.PP*in.CP <= 1<<16 {
		in.GPUs = in.TP * in.PP * in.CP // one model copy unless --gpus says more
	}
	// ZeRO: empty or not given is on auto.
	j.ZeROAuto = !t.Set[jobspec.ZeRO] || strings.TrimSpace(t.Text[jobspec.ZeRO]) == ""
	if !j.ZeROAuto {
		r.whole(jobspec.ZeRO, &in.ZeRO)
	}
	r.onOff(jobspec.GradCheckpointing, &in.GradCheckpointing)
	r.onOff(jobspec.SelectiveRecompute, &in.SelectiveRecompute)
	r.onOff(jobspec.FlashAttention, &in.FlashAttention)
	r.onOff(jobspec.EnforceEager, &in.EnforceEager)
	r.onOff(jobspec.AsyncScheduling, &in.AsyncScheduling)
	r.onOff(jobspec.NoOverlapSchedule, &in.NoOverlapSchedule)
	r.whole(jobspec.CUDAGraphMaxBS, &in.CUDAGraphMaxBS)
	r.onOff(jobspec.TextOnly, &in.TextOnly)
	r.onOff(jobspec.Compile, &in.Compiled)
	r.onOff(jobspec.LoRAFusedQKV, &in.LoRAFusedQKV)
	r.onOff(jobspec.QuantizeHead, &in.QuantizeHead)
	r.onOff(jobspec.KeepsLastGraph, &in.KeepsLastGraph)
	r.onOff(jobspec.LitGPTAttention, &in.LitGPTAttention)
	r.onOff(jobspec.FSDPGatherFP32, &in.FSDPGatherFP32)
	r.onOff(jobspec.FSDPNoSync, &in.FSDPNoSync)
	r.onOff(jobspec.FSDP2, &in.FSDP2)
	if in.FSDP2 && j.ZeROAuto && in.Task.Training() {
		// FSDP2 is ZeRO-3 sharding (estimator.Input.FSDP2): the stage it
		// names where none is given.
		in.ZeRO, j.ZeROAuto = 3, false
	}
	j.FSDPNoSyncGiven = t.Set[jobspec.FSDPNoSync]
	// Speculative decoding: the drafts and their acceptance, whose ranges
	// and fit to the model and engine the estimator checks (Validate).
	// An acceptance that is no number reads as NaN, which the estimator
	// refuses with its range.
	r.whole(jobspec.MTPDraftTokens, &in.DraftTokens)
	if a := strings.TrimSpace(t.Text[jobspec.MTPAcceptance]); a != "" {
		x, err := strconv.ParseFloat(a, 64)
		if err != nil {
			x = math.NaN()
		}
		in.DraftAcceptance = x
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t.Text[jobspec.GPUMemUtil]), 64)
	switch {
	case err != nil:
		r.fail(jobspec.GPUMemUtil, MsgNotNumber, showValue, errMemShare)
	case !(v >= 0 && v <= 1):
		r.fail(jobspec.GPUMemUtil, MsgRange, showValue, ranged(estimator.Between(0, 1), errMemShare))
	default:
		in.GPUMemUtil = v
	}
	// An efficiency is the model's own when empty or 0 (the command
	// line's --mfu 0), else a share from minFraction to 1.
	r.share(jobspec.MFU, &j.Eff.MFU, "a share of peak FLOP/s")
	r.share(jobspec.InferenceMFU, &j.Eff.InferenceMFU, "a share of peak FLOP/s")
	r.share(jobspec.BandwidthUtil, &j.Eff.BandwidthUtil, "a share of memory bandwidth")
	// The training job's tokens: a count above 0 (500M, 2T).
	if v, err := estimator.ParseCount(t.Text[jobspec.TrainTokens]); err != nil || !(v > 0) || math.IsInf(v, 0) {
		key := MsgNotCount
		if errors.Is(err, estimator.ErrRange) {
			key = MsgRange // a number out of bounds, not "not a count"
		}
		if err == nil {
			err = errors.New("want a count above 0, e.g. 500M or 2T")
		}
		r.fail(jobspec.TrainTokens, key, showFlag, err)
	} else {
		j.TrainTokens = v
	}
	// The global batch: empty or 0 is not given, else at least 1.
	if strings.TrimSpace(t.Text[jobspec.GlobalBatch]) != "" {
		if r.whole(jobspec.GlobalBatch, &j.GlobalBatch); j.GlobalBatch < 0 {
			gb, _ := estimator.WholeRange("global-batch")
			r.fail(jobspec.GlobalBatch, MsgRange, showValue, ranged(gb, errors.New("want sequences per step of at least 1 (0: not given)")))
			j.GlobalBatch = 0
		}
	}
	j.Stack, j.GlobalBatch, j.ZeROAuto = litgptDefaults(&t, &in, j.GlobalBatch, j.ZeROAuto)
	if j.Stack == nil && estimator.LightningQLoRADefault(in) {
		// Pure-bf16 QLoRA on bitsandbytes NF4 is Lightning's
		// BitsandbytesPrecision (estimator.LightningQLoRADefault): its
		// 4-bit head and LitGPT's held graph unless given.
		in.QuantizeHead = in.QuantizeHead || !t.Set[jobspec.QuantizeHead]
		in.KeepsLastGraph = in.KeepsLastGraph || !t.Set[jobspec.KeepsLastGraph]
	}
	if !t.Set[jobspec.GradCheckpointing] && estimator.QLoRACheckpointingDefault(in, j.Stack != nil) {
		in.GradCheckpointing, j.CheckpointingDefault = true, true
	}
	j.Kind = jobKind(&t, in.Task)
	if j.EngineOpen {
		in.Engine, j.EngineWhy = planner.AutoEngine(in, j.Kind, j.GPU.Generation())
	}
	j.In = in
	return j, r.errs
}

// LightningPrecision is one of Lightning's precision names (Trainer and
// Fabric precision=, as LitGPT's configs and published fine-tune tables
// print them) that the precision field takes besides the estimator's
// dtypes: the weights' dtype and, for training, whether the job is pure
// 16-bit (estimator.Input.PureBF16). Lightning's own reading
// (src/lightning/fabric/connector.py _check_and_init_precision at
// Lightning-AI/pytorch-lightning 523c8dd, read 2026-11-30): "16-true" and
// "bf16-true" are HalfPrecision, the module and its optimizer states in
// the 16-bit dtype with no fp32 master copy; "16-mixed" and "bf16-mixed"
// are MixedPrecision, torch.autocast over fp32 weights (the estimator's
// mixed-precision training at bf16 or fp16); "32-true" is fp32.
type LightningPrecision struct {
	Name    string
	Weights estimator.DType
	Pure    bool // 16-bit weights and states, no fp32 master copy
	Mixed   bool // autocast over fp32 weights: a training precision
}

func (p LightningPrecision) String() string { return p.Name }

// LightningPrecisions are the Lightning names the precision field reads.
// Lightning's "transformer-engine" and "transformer-engine-float16" are
// not: TransformerEnginePrecision casts the module to its weights dtype
// (convert_module's module.to(dtype=weights_dtype), so no fp32 master
// copy) and runs fp8 under te.fp8_autocast
// (src/lightning/fabric/plugins/precision/transformer_engine.py at
// 10f0bbe, read 2026-11-30), which the estimator's fp8 training (over
// fp32 master weights) does not model; nor "64-true". lightningUnmodelled
// says why.
var LightningPrecisions = []LightningPrecision{
	{"bf16-true", estimator.BF16, true, false},
	{"bf16-mixed", estimator.BF16, false, true},
	{"16-true", estimator.FP16, true, false},
	{"16-mixed", estimator.FP16, false, true},
	{"32-true", estimator.FP32, false, false},
}

// lightningUnmodelled are Lightning's precision names no estimate takes,
// with why and what to give instead.
var lightningUnmodelled = map[string]string{
	"transformer-engine":         "Lightning's fp8 Transformer Engine over bf16 weights with no fp32 master copy is not modelled; --precision fp8 plans Transformer Engine over fp32 master weights, bf16-true the bf16 weights without fp8",
	"transformer-engine-float16": "Lightning's fp8 Transformer Engine over fp16 weights with no fp32 master copy is not modelled; --precision fp8 plans Transformer Engine over fp32 master weights, 16-true the fp16 weights without fp8",
	"64-true":                    "fp64 weights are not modelled; want fp32 or narrower",
}

// precision reads the precision field, an estimator dtype or a Lightning
// name (LightningPrecisions), and the pure 16-bit field it may set.
func (r *jobReader) precision(in *estimator.Input) {
	r.onOff(jobspec.PureBF16, &in.PureBF16)
	name := r.t.Text[jobspec.Precision]
	p, ok := lightningNamed(name)
	if !ok {
		choose(r, jobspec.Precision, parsePrecision, &in.Weights)
		return
	}
	switch train := in.Task.Training(); {
	case p.Mixed && !train:
		r.fail(jobspec.Precision, MsgIncompatible, showValue, fmt.Errorf("Lightning's autocast over fp32 weights, a training precision; for --task %s give %s (16-bit weights, as %s-true) or fp32", in.Task, p.Weights, strings.TrimSuffix(p.Name, "-mixed")))
	case train && r.t.Set[jobspec.PureBF16] && in.PureBF16 != p.Pure:
		r.fail(jobspec.Precision, MsgIncompatible, showValue, fmt.Errorf("Lightning's %s keeps %s, which --pure-bf16=%t contradicts", p.Name, map[bool]string{true: "no fp32 master copy", false: "fp32 weights"}[p.Pure], in.PureBF16))
	default:
		in.Weights = p.Weights
		in.PureBF16 = in.PureBF16 || train && p.Pure
	}
}

// parsePrecision reads the precision field's name of an estimator dtype;
// Lightning's names are read before it (jobReader.precision), and a name
// that is neither lists both.
func parsePrecision(s string) (estimator.DType, error) {
	d, err := estimator.ParseDType(s)
	var ie *estimator.InputError
	if errors.As(err, &ie) {
		if why, ok := lightningUnmodelled[s]; ok {
			ie.Reason = why
			return d, err
		}
		names := make([]string, len(LightningPrecisions))
		for i, p := range LightningPrecisions {
			names[i] = p.Name
		}
		ie.Reason += "; or Lightning's " + strings.Join(names, ", ")
	}
	return d, err
}

// parseEngine reads the engine field's name of an engine; auto, the
// field's default, is read before it (ParseInput).
func parseEngine(s string) (estimator.Engine, error) {
	e, err := estimator.ParseEngine(s)
	var ie *estimator.InputError
	if errors.As(err, &ie) {
		ie.Reason = strings.Replace(ie.Reason, "want one of ", "want one of "+planner.AutoEngineName+"|", 1)
	}
	return e, err
}

// jobKind is the kind of job t describes, as the planner is asked it
// (rightsize plan; the page's PlanRequest): training for a training
// task, serving where a request rate, a daily curve or a request mix is
// read, else a batch of requests.
func jobKind(t *JobText, task estimator.Task) planner.Kind {
	if task.Training() {
		return planner.Training
	}
	for _, f := range [...]jobspec.Field{jobspec.RequestsPerSecond, jobspec.LoadCurve, jobspec.Workload} {
		if t.Read[f] && strings.TrimSpace(t.Text[f]) != "" {
			return planner.Serving
		}
	}
	return planner.Batch
}

// errMemShare is --gpu-mem-util's reason, for text that is no number and
// for a number out of range.
var errMemShare = errors.New("want a share of GPU memory in [0, 1] (0: the engine's default)")

// jobReader reads a JobText's fields and collects their problems.
type jobReader struct {
	t    *JobText
	errs []*JobError
}

func (r *jobReader) fail(f jobspec.Field, k MsgKey, show errShow, err error) {
	r.errs = append(r.errs, &JobError{Field: f, Key: k, Value: r.t.Text[f], Err: err, show: show})
}

// choose reads a choice with the estimator's parser.
func choose[T any](r *jobReader, f jobspec.Field, parse func(string) (T, error), dst *T) {
	v, err := parse(r.t.Text[f])
	if err != nil {
		r.fail(f, MsgUnknownChoice, showFlag, err)
		return
	}
	*dst = v
}

// onOff reads an on/off field: "1" or "0".
func (r *jobReader) onOff(f jobspec.Field, dst *bool) {
	switch r.t.Text[f] {
	case "1":
		*dst = true
	case "0":
		*dst = false
	default:
		r.fail(f, MsgUnknownChoice, showValue, errors.New("want 1 (on) or 0 (off)"))
	}
}

// size reads an optional size such as "1343MiB" or "0.5 GiB"; empty
// leaves the estimator's own figure.
func (r *jobReader) size(f jobspec.Field, dst *estimator.OptionalBytes) {
	v := strings.TrimSpace(r.t.Text[f])
	if v == "" {
		return
	}
	b, err := estimator.ParseBytes(v)
	if err == nil && b < 0 {
		err = errors.New("want a size of at least 0")
	}
	if err != nil {
		r.fail(f, MsgNotSize, showFlag, err)
		return
	}
	*dst = estimator.OptionalBytes{Set: true, Value: b}
}

// share reads an efficiency: empty or 0 leaves the model's own, else a
// share from minFraction to 1. Below 1% an efficiency prices a job at
// hundreds of digits (mfu=1e-300 in a link printed 400-digit costs).
func (r *jobReader) share(f jobspec.Field, dst *float64, what string) {
	v := strings.TrimSpace(r.t.Text[f])
	if v == "" {
		return
	}
	x, err := strconv.ParseFloat(v, 64)
	want := fmt.Errorf("want %s in [0, 1] (0: the model's; from %g when set)", what, minFraction)
	switch {
	case err != nil:
		r.fail(f, MsgNotNumber, showValue, want)
	case x == 0:
	case !(x >= minFraction && x <= 1):
		r.fail(f, MsgRange, showValue, ranged(estimator.Between(minFraction, 1), want))
	default:
		*dst = x
	}
}

// count reads a count above 0 such as "2T", "1.5" or "100k"
// (estimator.ParseCount); empty leaves 0, not given.
func (r *jobReader) count(f jobspec.Field, dst *float64, notCount MsgKey) {
	v := strings.TrimSpace(r.t.Text[f])
	if v == "" {
		return
	}
	x, err := estimator.ParseCount(v)
	switch {
	case errors.Is(err, estimator.ErrRange):
		// A number, out of bounds: the range it takes, not "not a
		// count".
		r.fail(f, MsgRange, showFlag, err)
	case err != nil:
		r.fail(f, notCount, showFlag, err)
	case !(x > 0) || math.IsInf(x, 0):
		r.fail(f, MsgRange, showFlag, ranged(estimator.Above(0), fmt.Errorf("%q: want a count above 0", v)))
	default:
		*dst = x
	}
}

// whole reads a whole number.
func (r *jobReader) whole(f jobspec.Field, dst *int) {
	v, key, err := parseWhole(r.t.Text[f])
	if err != nil {
		if w, ok := estimator.WholeRange(jobspec.Fields[f].Flag); ok {
			err = ranged(w, err) // too large to hold: the field's range
		}
		r.fail(f, key, showValue, err)
		return
	}
	*dst = v
}

// parseWhole reads a whole number: decimal, or written the scientific way
// (1e9 is read; a huge one is out of range and a fraction is not a count).
func parseWhole(s string) (int, MsgKey, error) {
	v, err := strconv.Atoi(s)
	if err == nil {
		return v, 0, nil
	}
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return 0, MsgRange, errors.New("out of range")
	}
	x, ferr := strconv.ParseFloat(strings.TrimSpace(s), 64)
	switch {
	case ferr != nil && !errors.Is(ferr, strconv.ErrRange):
		return 0, MsgNotNumber, errors.New("want a whole number")
	case ferr != nil || math.IsInf(x, 0) || math.Abs(x) > 1<<53:
		return 0, MsgRange, errors.New("out of range")
	case x != math.Trunc(x):
		return 0, MsgNotWhole, errors.New("want a whole number")
	}
	return int(x), 0, nil
}

// PlanJob is the typed planner's assumptions both doors share.
type PlanJob struct {
	Pricing planner.Pricing
	// CkptWriteBytesPerSecond and RestartSeconds: 0 is the planner's own.
	CkptWriteBytesPerSecond, RestartSeconds float64
	UnknownNetworks                         bool // plans may span instances with no named network
	// FreshnessDays is the window the picks rest on, 1 to 36,500 days
	// (planner.Request.FreshnessDays); 0: not given, the planner's.
	FreshnessDays int
	// Currency is the display currency, one the catalog's FX table
	// converts (upper case; "USD" when the field is wrong).
	Currency string
	// Providers, Countries and Regions filter the offers (planner.Filters):
	// catalog provider IDs (any case, as the planner compares them), the
	// provider's home countries, region prefixes.
	Providers, Countries, Regions []string
	// DatasetTokens and Epochs (a training job as passes over a dataset)
	// and Requests (a batch job): 0 is not given.
	DatasetTokens, Epochs, Requests float64
	// RequestsPerSecond is online serving's request rate, above 0 and up
	// to MaxRequestsPerSecond (0: not given).
	RequestsPerSecond float64
	// SLOStat is the statistic over the requests that serving's TTFT and
	// TPOT targets bound (p95 unless given).
	SLOStat planner.SLOStat
	// Own is the owned-GPU alternative to the daily fleet: its purchase
	// price, electricity price and depreciation period (nil: no purchase
	// price given). The power and PUE are the planner's defaults unless
	// the command line's --own-watts and --pue say more.
	Own *planner.Owned
	// MinVCPUs is the vCPUs an instance needs at least (0: no floor).
	MinVCPUs int
	// SpotInterruptions is the share of spot instances reclaimed a month,
	// 0 to 1 (0: the planner's, per offer).
	SpotInterruptions float64
	// HostedAPI is the hosted API priced by the user to compare serving
	// with (USD per 1M input and output tokens; a price not given is 0);
	// nil: neither price given, the catalog's list prices for the model.
	HostedAPI *planner.HostedAPI
}

// MaxRequestsPerSecond bounds the request rate: a million requests a
// second is above any single deployment; beyond it the replica count
// overflows an int (5e17 printed -9.2e18 instances).
const MaxRequestsPerSecond = 1e6

// maxAmount bounds a price: 10^15 is above any bill or price a plan meets,
// and keeps an error's echo of the value short (1e308 was printed with
// 309 digits).
const maxAmount = 1e15

// ParsePlan reads the planner's assumptions of t, as ParseInput the
// estimator's fields: a field not read takes the table's default.
func ParsePlan(given *JobText, cat *catalog.Catalog) (PlanJob, []*JobError) {
	t := given.withDefaults()
	r := jobReader{t: &t}
	var j PlanJob
	choose(&r, jobspec.Pricing, planner.ParsePricing, &j.Pricing)
	choose(&r, jobspec.SLOStat, planner.ParseSLOStat, &j.SLOStat)
	j.Currency = "USD"
	if c := strings.ToUpper(strings.TrimSpace(t.Text[jobspec.Currency])); c != "" {
		if _, ok := cat.FX(c); ok {
			j.Currency = c
		} else {
			r.fail(jobspec.Currency, MsgUnknownChoice, showQuoted, errors.New("no exchange rate; known: "+strings.Join(cat.Currencies(), ", ")))
		}
	}
	// Lists are separated by commas or spaces.
	list := func(f jobspec.Field) []string {
		return strings.FieldsFunc(t.Text[f], func(r rune) bool { return r == ',' || r == ' ' })
	}
	j.Countries, j.Regions = list(jobspec.Country), list(jobspec.Region)
	// A provider of the user's own (catalog.KindOwn) is named as their
	// sheet writes it, spaces, commas and all ("My Lab (west)", "Lab,
	// west"): the list is split at commas a backslash does not escape
	// (ProviderList writes it so), a comma-separated item the catalog
	// holds whole is one provider, any other is split at its spaces as
	// before.
	for _, item := range splitProviders(t.Text[jobspec.Provider]) {
		item = strings.TrimSpace(item)
		if strings.Contains(item, " ") && slices.ContainsFunc(cat.Providers, func(p catalog.Provider) bool { return strings.EqualFold(p.ID, item) }) {
			j.Providers = append(j.Providers, item)
			continue
		}
		j.Providers = append(j.Providers, strings.Fields(item)...)
	}
	for _, id := range j.Providers {
		if !slices.ContainsFunc(cat.Providers, func(p catalog.Provider) bool { return strings.EqualFold(p.ID, id) }) {
			known := make([]string, len(cat.Providers))
			for i, p := range cat.Providers {
				known[i] = p.ID
			}
			r.errs = append(r.errs, &JobError{Field: jobspec.Provider, Key: MsgUnknownChoice, Value: id,
				Err: fmt.Errorf("%q: not a catalog provider; known: %s", id, strings.Join(known, ", "))})
			break
		}
	}
	// A region no offer of the providers stands in: say which they list.
	if prefix, listed, ok := regionUnlisted(cat, j.Providers, j.Regions); !ok {
		r.errs = append(r.errs, regionErr(prefix, j.Providers, listed))
	}
	// A checkpoint write rate per instance: a size per second above 0.
	if v := strings.TrimSpace(t.Text[jobspec.CheckpointWrite]); v != "" {
		switch b, err := estimator.ParseBytes(v); {
		case err != nil:
			r.fail(jobspec.CheckpointWrite, MsgNotSize, showFlag, err)
		case b <= 0:
			r.fail(jobspec.CheckpointWrite, MsgRange, showFlag, ranged(estimator.Above(0), errors.New("want a rate > 0")))
		default:
			j.CkptWriteBytesPerSecond = float64(b)
		}
	}
	// The restart: seconds ("600") or with a unit ("10m", "1h30m", "2d").
	if v := strings.TrimSpace(t.Text[jobspec.Restart]); v != "" {
		if x, err := estimator.ParseSeconds(v); err != nil {
			r.fail(jobspec.Restart, MsgNotNumber, showFlag, fmt.Errorf("duration %q: want e.g. 3d, 72h, 800ms (0 to 10^9 s)", v))
		} else {
			j.RestartSeconds = x
		}
	}
	r.onOff(jobspec.UnknownNetworks, &j.UnknownNetworks)
	r.count(jobspec.DatasetTokens, &j.DatasetTokens, MsgNotCount)
	r.count(jobspec.Epochs, &j.Epochs, MsgNotNumber)
	r.count(jobspec.Requests, &j.Requests, MsgNotNumber)
	// The request rate: a count above 0 ("20", "1.5k"), up to
	// MaxRequestsPerSecond.
	if r.count(jobspec.RequestsPerSecond, &j.RequestsPerSecond, MsgNotNumber); j.RequestsPerSecond > MaxRequestsPerSecond {
		rps := estimator.Range{Min: 0, Max: MaxRequestsPerSecond, HasMin: true, HasMax: true, MinOpen: true}
		r.fail(jobspec.RequestsPerSecond, MsgRange, showValue, ranged(rps, fmt.Errorf("want a rate up to %g", float64(MaxRequestsPerSecond))))
		j.RequestsPerSecond = 0
	}
	j.Own = r.owned()
	// The instance floor: a whole number of vCPUs from 0.
	if v := t.Text[jobspec.MinVCPUs]; strings.TrimSpace(v) != "" {
		n, key, err := parseWhole(v)
		if err == nil && n < 0 {
			key, err = MsgRange, errors.New("below 0")
		}
		if err != nil {
			// A count too large for an int (1e30) is out of the whole
			// numbers parseWhole holds exactly (2^53).
			rg := estimator.AtLeast(0)
			if n >= 0 {
				rg = estimator.Between(0, 1<<53)
			}
			r.fail(jobspec.MinVCPUs, key, showFlag, ranged(rg, fmt.Errorf("%q: want a whole number ≥ 0", v)))
		} else {
			j.MinVCPUs = n
		}
	}
	// Spot reclaims: a share of the instances a month, 0 to 1.
	if strings.TrimSpace(t.Text[jobspec.SpotInterruptions]) != "" {
		r.amount(jobspec.SpotInterruptions, &j.SpotInterruptions, true, 1, "a share of instances reclaimed a month from 0 to %g (0: the planner's)")
	}
	// The user's hosted-API prices: either given (0 included) replaces
	// the catalog's list prices.
	in, out := strings.TrimSpace(t.Text[jobspec.APIInputPrice]), strings.TrimSpace(t.Text[jobspec.APIOutputPrice])
	if in != "" || out != "" {
		api := planner.HostedAPI{ID: "api", Provider: "hosted API", Currency: "USD"}
		ok := in == "" || r.amount(jobspec.APIInputPrice, &api.InputUSDPerMillion, true, maxAmount, "a number from 0 to %g")
		if out != "" && !r.amount(jobspec.APIOutputPrice, &api.OutputUSDPerMillion, true, maxAmount, "a number from 0 to %g") {
			ok = false
		}
		if ok {
			j.HostedAPI = &api
		}
	}
	// The freshness window: empty takes the planner's default; 0 or a
	// negative window is out of range, not "no window".
	if v := t.Text[jobspec.FreshnessDays]; strings.TrimSpace(v) != "" {
		d, key, err := parseWhole(v)
		if err == nil && (d < 1 || d > 36500) {
			key, err = MsgRange, errors.New("out of range")
		}
		if err != nil {
			r.fail(jobspec.FreshnessDays, key, showFlag, ranged(estimator.Between(1, 36500), fmt.Errorf("%q: want whole days from 1 to 36500", v)))
		} else {
			j.FreshnessDays = d
		}
	}
	return j, r.errs
}

// owned reads the owned-GPU fields: a purchase price asks for the
// electricity price and the depreciation period (no sourced default for
// either). The ranges are the planner's (plan.OwnCost): a price above 0,
// electricity from 0 (a site with its own power), a period above 0 up to
// 100 years; money up to maxAmount.
func (r *jobReader) owned() *planner.Owned {
	if strings.TrimSpace(r.t.Text[jobspec.OwnPrice]) == "" {
		return nil
	}
	o := &planner.Owned{}
	ok := r.amount(jobspec.OwnPrice, &o.PriceUSD, false, maxAmount, "a number above 0 up to %g")
	for _, f := range []struct {
		f    jobspec.Field
		to   *float64
		zero bool
		hi   float64
		want string
	}{{jobspec.KWhPrice, &o.KWhUSD, true, maxAmount, "a number from 0 to %g"},
		{jobspec.DepreciationYears, &o.DepreciationYears, false, 100, "years above 0 up to %g"}} {
		if strings.TrimSpace(r.t.Text[f.f]) == "" {
			r.fail(f.f, MsgOwnNeeds, showReason, fmt.Errorf("--own-price needs --%s (no sourced default)", jobspec.Fields[f.f].Flag))
			ok = false
			continue
		}
		ok = r.amount(f.f, f.to, f.zero, f.hi, f.want) && ok
	}
	if !ok {
		return nil
	}
	return o
}

// amount reads a finite number above 0 (from 0 with zero) up to hi; want
// is the range said, with %g for hi.
func (r *jobReader) amount(f jobspec.Field, dst *float64, zero bool, hi float64, want string) bool {
	v := strings.TrimSpace(r.t.Text[f])
	x, err := strconv.ParseFloat(v, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		r.fail(f, MsgNotNumber, showFlag, fmt.Errorf("%q: want "+want, v, hi))
	case err != nil || !(x > 0 || zero && x == 0) || x > hi:
		rg := estimator.Between(0, hi)
		rg.MinOpen = !zero
		r.fail(f, MsgRange, showFlag, ranged(rg, fmt.Errorf("%q: want "+want, v, hi)))
	default:
		*dst = x
		return true
	}
	return false
}

// The fields each door names its own way (the command line's --ttft-p95,
// --tpot, --deadline, --budget and --min-ram; the page's ttft-ms,
// tpot-ms, deadline-hours, budget-usd and min-ram-gib) hold the same
// quantity, read by one rule: a time with any unit, or a bare number in
// the field's own unit; an amount as a plain number.

// ParseDuration reads a time as seconds: with a unit ("500ms", "0.5s",
// "1h30m", "3d") or a bare number in the field's unit, bare seconds each
// (1 for --ttft-p95 and --deadline, 0.001 for the page's ttft-ms, 3600
// for its deadline-hours); 0 to 10^9 s (estimator.ParseSeconds). The key
// is the page's message for a problem: a number out of range, or no time.
func ParseDuration(s string, bare float64) (float64, MsgKey, error) {
	t := strings.TrimSpace(s)
	key := MsgNotNumber
	if x, err := strconv.ParseFloat(t, 64); err == nil {
		t, key = strconv.FormatFloat(x*bare, 'g', -1, 64), MsgRange
	}
	v, err := estimator.ParseSeconds(t)
	if err != nil {
		return 0, key, err
	}
	return v, 0, nil
}

// ParseAmount reads an amount (money in any catalog currency, GiB, a rate)
// as a finite number from 0 to 10^15, above any bill, host or price a plan
// meets: the echo of a bad value stays short (1e308 was printed with 309
// digits).
func ParseAmount(s string) (float64, MsgKey, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(v >= 0 && v <= maxAmount) {
		key := MsgRange
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			key = MsgNotNumber
		}
		return 0, key, ranged(estimator.Between(0, maxAmount), fmt.Errorf("%q: want a number from 0 to %g", s, float64(maxAmount)))
	}
	return v, 0, nil
}

// ProviderList is names as the provider filter's text (the link's and
// --provider's): separated by commas, a comma or backslash inside a name
// (a provider of the user's own may be named "Lab, west") escaped with a
// backslash, which splitProviders reads back.
func ProviderList(names ...string) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		for j := 0; j < len(n); j++ {
			if n[j] == ',' || n[j] == '\\' {
				b.WriteByte('\\')
			}
			b.WriteByte(n[j])
		}
	}
	return b.String()
}

// splitProviders is the provider filter's text split at the commas no
// backslash escapes, each item unescaped (ProviderList). A backslash
// before any other character, or at the end, is kept as written.
func splitProviders(s string) []string {
	var items []string
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && (s[i+1] == ',' || s[i+1] == '\\'):
			i++
			b.WriteByte(s[i])
		case c == ',':
			items = append(items, b.String())
			b.Reset()
		default:
			b.WriteByte(c)
		}
	}
	return append(items, b.String())
}
