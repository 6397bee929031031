package app

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"io"
	"net/url"
	"strconv"

	"rightsize/estimator"
)

// field indexes one user input of the calculator.
type field int

const (
	fLang field = iota
	fModel
	fTask
	fPrecision
	fKV
	fBatch
	fSeq
	fOptimizer
	fCheckpointing
	fFlash
	fLoRARank
	fEngine
	fMemUtil
	fGPU
	fGPUs
	fZeRO
	fTP
	fPP
	fOffload
	fUnits
	fQuant
	fLoRATargets
	fSelective
	fMaxBatched
	fEager
	fCtx
	fAlloc
	fNCCL
	fGraphs
	fUsable
	fTrainTokens
	fOutput
	fSort
	fRPS
	fTTFT
	fTPOT
	fGlobalBatch
	fMFU
	fInfMFU
	fBWUtil
	fRequests
	fPricing
	fCurrency
	fProviderKind
	fCountry
	fBudget
	fDeadline
	fMinVCPU
	fMinRAM
	fSpotRate
	fCkptWrite
	fRestart
	fAPIIn
	fAPIOut
	fUnknownNet
	fFreshness
	fCalibration
	nFields
)

// fieldKeys are the URL-fragment keys, short because links get pasted into
// chats and docs.
var fieldKeys = [nFields]string{
	fLang: "l", fModel: "m", fTask: "t", fPrecision: "p", fKV: "kv", fBatch: "b", fSeq: "s",
	fOptimizer: "o", fCheckpointing: "gc", fFlash: "fa", fLoRARank: "r", fEngine: "e",
	fMemUtil: "u", fGPU: "g", fGPUs: "n", fZeRO: "z", fTP: "tp", fPP: "pp", fOffload: "off", fUnits: "units",
	fQuant: "q", fLoRATargets: "lt", fSelective: "sr", fMaxBatched: "mbt", fEager: "ee",
	fCtx: "oc", fAlloc: "oa", fNCCL: "on", fGraphs: "og", fUsable: "uv",
	fTrainTokens: "tok", fOutput: "out", fSort: "sort",
	fRPS: "rps", fTTFT: "ttft", fTPOT: "tpot", fGlobalBatch: "gb",
	fMFU: "mfu", fInfMFU: "imfu", fBWUtil: "bw",
	fRequests: "req", fPricing: "pr", fCurrency: "cur", fProviderKind: "pk", fCountry: "cc",
	fBudget: "bud", fDeadline: "dl", fMinVCPU: "vc", fMinRAM: "ram",
	fSpotRate: "spot", fCkptWrite: "ckw", fRestart: "rst", fAPIIn: "api-in", fAPIOut: "api-out", fUnknownNet: "un",
	fFreshness: "fw", fCalibration: "cal",
}

// fieldNames name each input: its element id is "rs-"+name, and for the
// estimator's inputs the name is the CLI flag that estimator.InputError.Field
// reports, so an estimator error lands next to the field that caused it.
var fieldNames = [nFields]string{
	fLang: "lang", fModel: "model", fTask: "task", fPrecision: "precision", fKV: "kv-dtype", fBatch: "batch",
	fSeq: "seq", fOptimizer: "optimizer", fCheckpointing: "grad-checkpointing", fFlash: "flash-attention",
	fLoRARank: "lora-rank", fEngine: "engine", fMemUtil: "gpu-mem-util", fGPU: "gpu", fGPUs: "gpus",
	fZeRO: "zero", fTP: "tp", fPP: "pp", fOffload: "offload", fUnits: "units",
	fQuant: "quant", fLoRATargets: "lora-targets", fSelective: "selective-recompute",
	fMaxBatched: "max-batched-tokens", fEager: "enforce-eager", fCtx: "cuda-context",
	fAlloc: "allocator-reserve", fNCCL: "nccl", fGraphs: "cuda-graphs", fUsable: "usable-vram",
	fTrainTokens: "train-tokens", fOutput: "output-tokens", fSort: "sort",
	fRPS: "requests-per-second", fTTFT: "ttft-ms", fTPOT: "tpot-ms", fGlobalBatch: "global-batch",
	fMFU: "mfu", fInfMFU: "inference-mfu", fBWUtil: "bandwidth-util",
	fRequests: "requests", fPricing: "pricing", fCurrency: "currency", fProviderKind: "provider-kind",
	fCountry: "country", fBudget: "budget-usd", fDeadline: "deadline-hours", fMinVCPU: "min-vcpus", fMinRAM: "min-ram-gib",
	fSpotRate: "spot-interruptions", fCkptWrite: "checkpoint-write", fRestart: "restart",
	fAPIIn: "api-input-price", fAPIOut: "api-output-price", fUnknownNet: "unknown-networks",
	fFreshness: "freshness-days", fCalibration: "calibration",
}

// fieldOf returns the field an estimator.InputError names. The GPU picker
// sets the estimator's VRAM, so errors about "vram" belong next to it.
func fieldOf(flag string) (field, bool) {
	if flag == "vram" {
		return fGPU, true
	}
	if flag == "prompt" { // the prompt is the sequence minus the generated tokens
		return fOutput, true
	}
	for f, n := range fieldNames {
		if n == flag {
			return field(f), true
		}
	}
	return 0, false
}

// viewState is everything a shared link reproduces, kept as the raw text
// of each field so that a bad value in a hand-edited link is shown next to
// its field instead of being silently replaced.
type viewState [nFields]string

// defaultState is what a visitor without a link sees: Llama 3.1 8B served
// in bf16 with Hugging Face transformers on one H100. The estimator's
// inputs come from estimator.DefaultInput, as the CLI's flag defaults do.
var defaultState = newDefaultState(estimator.DefaultInput(estimator.Arch{}))

func newDefaultState(in estimator.Input) viewState {
	itoa := strconv.Itoa
	return viewState{
		fLang: "en", fModel: "llama-3.1-8b", fTask: in.Task.String(), fPrecision: in.Weights.String(), fKV: in.KV.String(),
		fBatch: itoa(in.Batch), fSeq: itoa(in.Seq), fOptimizer: in.Optimizer.String(), fCheckpointing: "0", fFlash: bit(in.FlashAttention),
		fLoRARank: itoa(in.LoRARank), fEngine: in.Engine.String(), fMemUtil: strconv.FormatFloat(in.GPUMemUtil, 'g', -1, 64),
		fGPU: "h100-sxm", fGPUs: itoa(in.GPUs),
		fZeRO: itoa(in.ZeRO), fTP: itoa(in.TP), fPP: itoa(in.PP), fOffload: in.Offload.String(), fUnits: "GiB",
		fQuant: in.Quant.String(), fLoRATargets: in.LoRATargets.String(), fSelective: "0", fMaxBatched: itoa(in.MaxBatchedTokens), fEager: bit(in.EnforceEager),
		// fCtx … fUsable empty: the estimator's own figure
		// A 1B-token fine-tune; requests that generate 512 of their tokens.
		fTrainTokens: "1B", fOutput: "512", fSort: "vram",
		// Serving targets (used once a request rate is set): first token within
		// 2 s, then 10 tokens/s per user or better.
		fRPS: "", fTTFT: "2000", fTPOT: "100", fGlobalBatch: "",
		// A batch job of 100,000 requests when no request rate is set; every
		// pricing model and filter at "anything".
		fRequests: "100000", fPricing: "on-demand", fCurrency: "USD",
		// Plans span only instances whose provider names the network
		// between them (planner.Assumptions.UnknownNetworks).
		fUnknownNet: "0",
		// The picks rest on prices dated within 180 days wherever the
		// GPU has one (planner.DefaultFreshnessDays; TestFreshnessField).
		fFreshness: "180",
	}
}

// bit is a checkbox field's text.
func bit(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// overrideFields are the measured-overhead inputs, folded by default.
var overrideFields = []field{fUsable, fCtx, fAlloc, fNCCL, fGraphs}

// assumptionFields are the efficiencies in the Assumptions box, folded
// by default; empty means the estimator's own figure.
var assumptionFields = []field{fMFU, fInfMFU, fBWUtil, fSpotRate, fCkptWrite, fRestart, fAPIIn, fAPIOut}

// shown reports whether a field is on the page for the current task and
// engine. Hidden fields keep their text (a link round-trips) but are not
// parsed, so a stale value in a hidden field never blocks the estimate.
func (s *viewState) shown(f field) bool {
	task := s[fTask]
	train := task != "inference"
	// The pool and CUDA-graph fields belong to every engine that
	// pre-allocates a KV pool (vLLM, SGLang, TensorRT-LLM), as the
	// estimator decides (Engine.Pooled).
	eng, err := estimator.ParseEngine(s[fEngine])
	pooled := err == nil && eng.Pooled()
	switch f {
	case fOptimizer, fCheckpointing, fSelective, fZeRO, fOffload, fTrainTokens:
		return train
	case fOutput, fRPS, fTTFT, fTPOT, fRequests:
		return !train
	case fDeadline:
		return train || s[fRPS] == ""
	case fGlobalBatch, fMFU:
		return train
	case fInfMFU, fBWUtil, fCalibration:
		return !train
	case fLoRARank, fLoRATargets:
		return task == "lora" || task == "qlora"
	case fQuant:
		return task == "inference" || task == "lora" || task == "qlora"
	case fEngine, fKV:
		return !train
	case fMemUtil, fMaxBatched, fEager, fGraphs:
		return !train && pooled
	}
	return true
}

// parseFragment reads a URL fragment such as "m=llama-3.1-8b&p=int4" over
// the defaults in def. Unknown keys are ignored (links from newer versions
// keep working); a pair that does not decode is skipped (ignoredInLink
// names it) and the rest of the link is read.
func parseFragment(frag string, def viewState) viewState {
	v, _ := url.ParseQuery(frag) // holds every pair that decodes
	s := def
	for f, k := range fieldKeys {
		if x, ok := v[k]; ok && len(x) > 0 {
			s[f] = x[0]
		}
	}
	return s
}

// fragment encodes the fields that differ from def, in a stable order.
func (s viewState) fragment(def viewState) string {
	v := url.Values{}
	for f, k := range fieldKeys {
		if s[f] != def[f] || f == int(fModel) {
			v.Set(k, s[f])
		}
	}
	return v.Encode()
}

// link is everything the URL fragment carries: the state, a pinned state
// for comparison, the embed flag and a custom model's config.json
// (deflated, base64url) so that the link works on another machine.
type link struct {
	state      viewState
	pin        viewState
	pinned     bool
	embed      bool
	config     string
	configName string
}

// maxLinkConfig bounds a config.json inflated from a link: the same cap
// as a file the user loads (it was 1 MiB against 256 KiB).
const maxLinkConfig = maxConfigBytes

// parseLink reads a fragment over the defaults in def.
func parseLink(frag string, def viewState) link {
	l := link{state: parseFragment(frag, def)}
	v, _ := url.ParseQuery(frag) // holds every pair that decodes
	l.embed = v.Get("embed") == "1"
	if p, ok := v["pin"]; ok && len(p) > 0 {
		l.pin, l.pinned = parseFragment(p[0], def), true
	}
	if z := v.Get("cfg"); z != "" {
		if text, err := inflate(z); err == nil {
			l.config, l.configName = text, v.Get("cfgn")
		}
	}
	return l
}

// encode writes the fragment: changed fields, the pin, the embed flag and
// the compressed config.
func (l link) encode(def viewState) string {
	s := l.state.fragment(def)
	v := url.Values{}
	if l.pinned {
		v.Set("pin", l.pin.fragment(def))
	}
	if l.embed {
		v.Set("embed", "1")
	}
	if l.config != "" {
		v.Set("cfg", deflate(l.config))
		v.Set("cfgn", l.configName)
	}
	if e := v.Encode(); e != "" {
		s += "&" + e
	}
	return s
}

func deflate(text string) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write([]byte(text))
	w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

func inflate(z string) (string, error) {
	data, err := base64.RawURLEncoding.DecodeString(z)
	if err != nil {
		return "", err
	}
	out, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(data)), maxLinkConfig+1))
	if err != nil {
		return "", err
	}
	if len(out) > maxLinkConfig {
		return "", errConfigTooBig
	}
	return string(out), nil
}

var errConfigTooBig = errors.New("config in the link is larger than 256 KiB")
