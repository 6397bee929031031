// Package jobspec is the one table of the job fields that both of
// Rightsize's doors read: the command line's flags (cmd/rightsize) and
// the page's link (app/page). Each field has its CLI flag name (also the
// name estimator.InputError.Field reports and the page's field name), its
// link key, how the command line types it, and its default, written once:
// the estimator's inputs take theirs from estimator.DefaultInput.
//
// The words differ by door and stay there: the command line's help next
// to its flag definitions, the page's labels and messages as message
// keys in app/page. Fields only one door has (the page's language and
// units; the command line's --json or --pure-bf16) are not listed.
package jobspec

import (
	"strconv"

	"rightsize/estimator"
	planner "rightsize/estimator/plan"
)

// Kind is how the command line types a field's flag. The page holds every
// field as text; a Bool as "1" or "0".
type Kind uint8

const (
	Text  Kind = iota // a string flag: the text as typed
	Int               // an int flag; an empty default is 0
	Float             // a float64 flag; an empty default is 0
	Bool              // a bool flag; the default is "1" (true) or "0" (false)
)

// Spec is one shared field.
type Spec struct {
	Flag string // the CLI flag without dashes, and the page's field name
	Key  string // the link key (short: links get pasted into chats)
	Kind Kind
	// Default is the field's text when nobody sets it, as the page holds
	// it: a whole number in decimal, a flag "1" or "0", a figure the
	// estimator or planner chooses when not given "".
	Default string
}

// Field indexes the shared fields.
type Field int

const (
	// The estimator's input (rightsize estimate; plan and simulate too).
	Model Field = iota
	Task
	Precision
	KVDType
	Quant
	Kernel
	Batch
	Seq
	Optimizer
	GradCheckpointing
	SelectiveRecompute
	FlashAttention
	LoRARank
	LoRATargets
	Engine
	TextOnly
	MFU
	InferenceMFU
	BandwidthUtil
	Host
	EngineVersion
	GlobalBatch
	GPUMemUtil
	MaxBatchedTokens
	EnforceEager
	GPU
	UsableVRAM
	GPUs
	ZeRO
	Offload
	TP
	PP
	CP
	EP
	DP
	CUDAContext
	AllocatorReserve
	NCCL
	CUDAGraphs
	TrainTokens
	OutputTokens
	// The planner's question (rightsize plan).
	RequestsPerSecond
	Requests
	Pricing
	Currency
	Country
	Region
	Provider
	CheckpointWrite
	Restart
	UnknownNetworks
	FreshnessDays
	DatasetTokens
	Epochs
	// The daily fleet and the owned-GPU alternative (rightsize plan).
	LoadCurve
	Workload
	OwnPrice
	KWhPrice
	DepreciationYears
	N // the number of shared fields
)

// Fields is the table. The estimator's defaults are DefaultInput's for a
// model without a sample length of its own (2,048 tokens).
var Fields = fields(estimator.DefaultInput(estimator.Arch{}))

func fields(in estimator.Input) [N]Spec {
	itoa := strconv.Itoa
	return [N]Spec{
		Model:              {"model", "m", Text, ""},
		Task:               {"task", "t", Text, in.Task.String()},
		Precision:          {"precision", "p", Text, in.Weights.String()},
		KVDType:            {"kv-dtype", "kv", Text, in.KV.String()},
		Quant:              {"quant", "q", Text, in.Quant.String()},
		Kernel:             {"kernel", "kr", Text, in.Kernel.String()},
		Batch:              {"batch", "b", Int, itoa(in.Batch)},
		Seq:                {"seq", "s", Int, itoa(in.Seq)},
		Optimizer:          {"optimizer", "o", Text, in.Optimizer.String()},
		GradCheckpointing:  {"grad-checkpointing", "gc", Bool, bit(in.GradCheckpointing)},
		SelectiveRecompute: {"selective-recompute", "sr", Bool, bit(in.SelectiveRecompute)},
		FlashAttention:     {"flash-attention", "fa", Bool, bit(in.FlashAttention)},
		LoRARank:           {"lora-rank", "r", Int, itoa(in.LoRARank)},
		LoRATargets:        {"lora-targets", "lt", Text, in.LoRATargets.String()},
		Engine:             {"engine", "e", Text, in.Engine.String()},
		TextOnly:           {"text-only", "to", Bool, bit(in.TextOnly)},
		// Efficiencies: empty (0 on the command line) is the estimator's own.
		MFU:           {"mfu", "mfu", Float, ""},
		InferenceMFU:  {"inference-mfu", "imfu", Float, ""},
		BandwidthUtil: {"bandwidth-util", "bw", Float, ""},
		// The host CPU and engine release: empty is the GPU's usual host
		// and the engine's current release.
		Host:             {"host", "host", Text, ""},
		EngineVersion:    {"engine-version", "ev", Text, ""},
		GlobalBatch:      {"global-batch", "gb", Int, ""},
		GPUMemUtil:       {"gpu-mem-util", "u", Float, strconv.FormatFloat(in.GPUMemUtil, 'g', -1, 64)},
		MaxBatchedTokens: {"max-batched-tokens", "mbt", Int, itoa(in.MaxBatchedTokens)},
		EnforceEager:     {"enforce-eager", "ee", Bool, bit(in.EnforceEager)},
		GPU:              {"gpu", "g", Text, ""},
		UsableVRAM:       {"usable-vram", "uv", Text, ""},
		GPUs:             {"gpus", "n", Int, itoa(in.GPUs)},
		ZeRO:             {"zero", "z", Int, itoa(in.ZeRO)},
		Offload:          {"offload", "off", Text, in.Offload.String()},
		TP:               {"tp", "tp", Int, itoa(in.TP)},
		PP:               {"pp", "pp", Int, itoa(in.PP)},
		// DefaultInput leaves CP, EP and DP at 0, which the estimator
		// reads as 1; both doors show the 1.
		CP: {"cp", "cp", Int, itoa(max(1, in.CP))},
		EP: {"ep", "xp", Int, itoa(max(1, in.EP))},
		DP: {"dp", "adp", Int, itoa(max(1, in.DP))},
		// Measured overheads: empty is the estimator's own figure.
		CUDAContext:      {"cuda-context", "oc", Text, ""},
		AllocatorReserve: {"allocator-reserve", "oa", Text, ""},
		NCCL:             {"nccl", "on", Text, ""},
		CUDAGraphs:       {"cuda-graphs", "og", Text, ""},
		// A 1B-token job when training.
		TrainTokens: {"train-tokens", "tok", Text, "1B"},
		// 0: the prompt is the whole sequence (the page's sample job
		// generates 512 of its tokens).
		OutputTokens: {"output-tokens", "out", Int, "0"},

		RequestsPerSecond: {"requests-per-second", "rps", Text, ""},
		Requests:          {"requests", "req", Text, ""},
		Pricing:           {"pricing", "pr", Text, planner.OnDemand.String()},
		Currency:          {"currency", "cur", Text, "USD"},
		Country:           {"country", "cc", Text, ""},
		Region:            {"region", "hr", Text, ""},
		Provider:          {"provider", "pv", Text, ""},
		CheckpointWrite:   {"checkpoint-write", "ckw", Text, ""},
		Restart:           {"restart", "rst", Text, ""},
		// Plans span only instances whose provider names the network
		// between them (planner.Assumptions.UnknownNetworks).
		UnknownNetworks: {"unknown-networks", "un", Bool, "0"},
		FreshnessDays:   {"freshness-days", "fw", Text, strconv.Itoa(planner.DefaultFreshnessDays)},
		DatasetTokens:   {"dataset-tokens", "ds", Text, ""},
		Epochs:          {"epochs", "ep", Text, ""},

		LoadCurve:         {"load-curve", "lc", Text, ""},
		Workload:          {"workload", "wl", Text, ""},
		OwnPrice:          {"own-price", "own", Text, ""},
		KWhPrice:          {"kwh-price", "kwh", Text, ""},
		DepreciationYears: {"depreciation-years", "dep", Text, ""},
	}
}

func bit(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// ByFlag returns the shared field with the CLI flag (page field) name.
func ByFlag(flag string) (Field, bool) {
	for f, s := range Fields {
		if s.Flag == flag {
			return Field(f), true
		}
	}
	return 0, false
}

// Int is an Int field's default as the command line takes it.
func (s Spec) Int() int {
	if s.Default == "" {
		return 0
	}
	n, err := strconv.Atoi(s.Default)
	if err != nil || s.Kind != Int {
		panic("jobspec: " + s.Flag + " is not a whole-number field")
	}
	return n
}

// Float is a Float field's default as the command line takes it.
func (s Spec) Float() float64 {
	if s.Default == "" {
		return 0
	}
	x, err := strconv.ParseFloat(s.Default, 64)
	if err != nil || s.Kind != Float {
		panic("jobspec: " + s.Flag + " is not a number field")
	}
	return x
}

// Bool is a Bool field's default as the command line takes it.
func (s Spec) Bool() bool {
	if s.Kind != Bool || (s.Default != "0" && s.Default != "1") {
		panic("jobspec: " + s.Flag + " is not an on/off field")
	}
	return s.Default == "1"
}

// CLIDefault is the default as the command line's help prints it
// (flag.Flag.DefValue): 0 for an empty number, true or false for a flag.
func (s Spec) CLIDefault() string {
	switch s.Kind {
	case Int:
		return strconv.Itoa(s.Int())
	case Float:
		return strconv.FormatFloat(s.Float(), 'g', -1, 64)
	case Bool:
		return strconv.FormatBool(s.Bool())
	}
	return s.Default
}
