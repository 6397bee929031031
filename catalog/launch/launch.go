// Package launch turns a planned row into settings a person can run: the
// serving engine's command line (vLLM, SGLang, TensorRT-LLM), a training
// launch with its DeepSpeed or FSDP configuration, LitGPT's fine-tune
// command, or a SkyPilot task YAML that rents the row's instances and runs
// one of those.
//
// Every flag and key written here is one the tool documents; each is
// named with its source next to the code that writes it, and the tests
// check the output against lists extracted from the tools' own argument
// parsers and schemas (testdata/README.md). The values are the ones the
// plan was sized with: the row's parallelism, instances and pricing, and
// the estimator input's precision, sequence length, batch and memory
// share.
//
// The package is plain text in, plain text out: no JSON or template
// library, no I/O, so the page can link it into app.wasm and the command
// line can print the same text (rightsize plan --emit KIND).
package launch

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"rightsize/catalog"
	"rightsize/estimator"
	"rightsize/estimator/plan"
)

// Kind is what to emit.
type Kind int

const (
	VLLM      Kind = iota // vllm serve
	SGLang                // python -m sglang.launch_server
	TRTLLM                // trtllm-serve
	FSDP                  // accelerate launch with an FSDP config
	DeepSpeed             // torchrun with a DeepSpeed ZeRO config
	SkyPilot              // a SkyPilot task YAML (sky launch, or sky serve up for serving)
	LitGPT                // litgpt download, then litgpt finetune_lora or finetune_full
)

var kindNames = [...]string{VLLM: "vllm", SGLang: "sglang", TRTLLM: "trtllm", FSDP: "fsdp", DeepSpeed: "deepspeed", SkyPilot: "skypilot", LitGPT: "litgpt"}

// Kinds lists every Kind in display order.
var Kinds = []Kind{VLLM, SGLang, TRTLLM, FSDP, DeepSpeed, LitGPT, SkyPilot}

// String returns the name --emit takes ("vllm", "sglang", "trtllm",
// "fsdp", "deepspeed", "skypilot", "litgpt").
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// ParseKind reads a name written by Kind.String. Its error lists the
// choices.
func ParseKind(s string) (Kind, error) {
	for i, n := range kindNames {
		if n == s {
			return Kind(i), nil
		}
	}
	return 0, &estimator.InputError{Field: "emit", Value: s, Err: estimator.ErrUnknown, Reason: "want " + choices()}
}

func choices() string {
	return strings.Join(kindNames[:], ", ")
}

// Training reports whether k launches a training job.
func (k Kind) Training() bool { return k == FSDP || k == DeepSpeed || k == LitGPT }

// Serving reports whether k starts an inference engine.
func (k Kind) Serving() bool { return k == VLLM || k == SGLang || k == TRTLLM }

// For lists the kinds that fit a workload: the serving engines for batch
// inference and serving, the training launchers for training, SkyPilot
// for all three. A fine-tune planned for LitGPT's scripts (litgpt: its
// precision is one of Lightning's names, so its memory and step are
// those scripts' defaults) takes LitGPT alone: the Trainer scripts of the
// others are another program, with other memory. The page offers these.
func For(w plan.Kind, litgpt bool) []Kind {
	switch {
	case w == plan.Training && litgpt:
		return []Kind{LitGPT}
	case w == plan.Training:
		return []Kind{DeepSpeed, FSDP, SkyPilot}
	}
	return []Kind{VLLM, SGLang, TRTLLM, SkyPilot}
}

// StackError is why k does not launch a plan of workload w as sized
// (litgpt as For's), or nil: a training plan sized for LitGPT's
// fine-tune scripts launches with LitGPT only, and LitGPT launches only
// such a plan. The command line and the page ask it before Emit.
func StackError(k Kind, w plan.Kind, litgpt bool) error {
	if w != plan.Training || litgpt == (k == LitGPT) {
		return nil
	}
	if litgpt {
		return &Error{Kind: k, Key: ErrStack, Reason: "the plan is sized for LitGPT's fine-tune scripts and their defaults (a Lightning precision name), which " + k.String() +
			"'s Trainer/PEFT launch does not run: use litgpt, or plan with --precision bf16 (--pure-bf16 for bf16-true's 16-bit states) for a Trainer launch"}
	}
	return &Error{Kind: k, Key: ErrStack, Reason: "litgpt runs a fine-tune planned for LitGPT's scripts: plan with Lightning's precision name (--precision bf16-true, as LitGPT's recipes set it), or use deepspeed, fsdp or skypilot"}
}

// File is one file of a launch: its name, its format ("sh", "yaml" or
// "json") and its text.
type File struct {
	Name, Format, Text string
}

// Launch is what Emit returns: the files to write (the first one is the
// command to run, or the task YAML for SkyPilot) and notes in English on
// what the settings assume or leave to the user.
type Launch struct {
	Kind  Kind
	Files []File
	Notes []string
}

// Text is the launch as one copyable text: each file under a "# file:"
// line, then the notes as comments. The command line prints it.
func (l Launch) Text() string {
	var b strings.Builder
	for i, f := range l.Files {
		if i > 0 {
			b.WriteByte('\n')
		}
		if len(l.Files) > 1 {
			b.WriteString("# file: " + catalog.Printable(f.Name) + "\n")
		}
		b.WriteString(f.Text)
		if !strings.HasSuffix(f.Text, "\n") {
			b.WriteByte('\n')
		}
	}
	if len(l.Notes) > 0 {
		b.WriteByte('\n')
		for _, n := range l.Notes {
			b.WriteString("# note: " + catalog.Printable(n) + "\n")
		}
	}
	return b.String()
}

// Error is a launch that cannot be written for this plan: a kind that
// does not fit the workload (vLLM for pre-training), a provider SkyPilot
// does not support, a parallelism the launcher cannot express. Key names
// the case for a translation (the Err* constants); Reason is one English
// sentence with the figures.
type Error struct {
	Kind   Kind
	Key    string
	Reason string
}

// Error keys.
const (
	ErrUnknownKind     = "launch.unknown_kind"      // not a Kind
	ErrUnfit           = "launch.unfit"             // the row does not fit the job
	ErrTrainingPlan    = "launch.training_plan"     // a serving engine for a training plan
	ErrInferencePlan   = "launch.inference_plan"    // a training launcher for an inference plan
	ErrNoSkyPilotCloud = "launch.no_skypilot"       // a provider SkyPilot does not support
	ErrNoAccelerator   = "launch.no_accelerator"    // a GPU SkyPilot has no name for, on a cloud without SkyPilot instance types
	ErrModelParallel   = "launch.model_parallel"    // a training plan split by TP, PP or CP
	ErrOptimizerOnly   = "launch.optimizer_offload" // FSDP for an optimizer-only offload
	ErrModelRef        = "launch.model_ref"         // a model reference no engine could load as one word
	ErrPrecision       = "launch.precision"         // a pure 16-bit plan the launcher would run with an fp32 master copy
	ErrUnsupported     = "launch.unsupported"       // the engine does not start on the row's GPU (estimator.SupportFor)
	ErrSkyServePorts   = "launch.skyserve_ports"    // a SkyServe replica of engine copies on several ports
	// ErrLayoutUnsupported: the engine cannot run the row's parallel
	// layout as planned on its GPUs (estimator.DeepEPRefusal).
	ErrLayoutUnsupported = "launch.layout_unsupported"
	// ErrStack: the launcher runs another program than the one the plan
	// was sized for (StackError).
	ErrStack = "launch.stack"
	// ErrLitGPT: LitGPT's fine-tune scripts cannot run the row as planned
	// (its layout, offload, precision, adapters or task).
	ErrLitGPT = "launch.litgpt"
	// ErrLitGPTModel: LitGPT's config hub has no such model.
	ErrLitGPTModel = "launch.litgpt_model"
)

func (e *Error) Error() string { return e.Kind.String() + ": " + e.Reason }

// Emit writes the launch of kind k for row, a fitting row of the plan of
// req (plan.Plan's result). model names the checkpoint: a catalog model ID
// (its Hugging Face repository is taken from the catalog's sources), or a
// repository ID or checkpoint path used as given. With no model, or a
// config file (*.json, which no engine loads), the checkpoint is the
// Hugging Face repository the input's config names (Arch.NameOrPath), or
// Placeholder with a note. cat supplies the model and the provider; nil
// means catalog.Default().
//
// Names that come from data (the offer's provider, instance type and
// region, the model reference) are quoted for each file's syntax: shell
// words through shellQuote, comment lines through catalog.Printable, YAML
// and JSON strings double-quoted with escapes.
func Emit(k Kind, req plan.Request, row plan.Row, cat *catalog.Catalog, model string) (Launch, error) {
	if cat == nil {
		cat = catalog.Default()
	}
	if k < 0 || int(k) >= len(kindNames) {
		return Launch{}, &Error{Kind: k, Key: ErrUnknownKind, Reason: "want " + choices()}
	}
	if row.Offer == nil || !row.Fits {
		return Launch{}, &Error{Kind: k, Key: ErrUnfit, Reason: "the row does not fit the job: nothing to launch"}
	}
	e := emitter{k: k, req: req, row: row, in: req.Input, cat: cat}
	if req.Workload.Kind == plan.Training {
		// The memory layout the row was planned with: the user's, or the
		// rental layout the planner chose (plan.Row's notes say which).
		e.in.GradCheckpointing, e.in.Offload = row.GradCheckpointing, row.Offload
	}
	var err error
	if e.model, err = e.modelRef(model); err != nil {
		return Launch{}, err
	}
	if err := e.support(); err != nil {
		return Launch{}, err
	}
	train := req.Workload.Kind == plan.Training
	switch {
	case k.Serving() && train:
		return Launch{}, &Error{Kind: k, Key: ErrTrainingPlan, Reason: k.String() + " serves inference and this plan is training (task " + req.Input.Task.String() + "): use deepspeed, fsdp or skypilot"}
	case k.Training() && !train:
		return Launch{}, &Error{Kind: k, Key: ErrInferencePlan, Reason: k.String() + " launches training and this plan is " + req.Workload.Kind.String() + " inference: use vllm, sglang, trtllm or skypilot"}
	}
	switch k {
	case VLLM, SGLang, TRTLLM:
		err = e.serve()
	case DeepSpeed:
		err = e.deepspeed()
	case FSDP:
		err = e.fsdp()
	case LitGPT:
		err = e.litgpt()
	case SkyPilot:
		err = e.skypilot()
	}
	if err != nil {
		return Launch{}, err
	}
	return Launch{Kind: k, Files: e.files, Notes: e.notes}, nil
}

// emitter collects one launch.
type emitter struct {
	k     Kind
	req   plan.Request
	row   plan.Row
	in    estimator.Input
	cat   *catalog.Catalog
	model string
	// stored is the precision the catalog model's published checkpoint
	// stores its weights in (catalog.Model.StoredWeights) and storedSet
	// whether it has one: false for a 16-bit checkpoint or a model not
	// the catalog's.
	stored    estimator.DType
	storedSet bool
	// published marks a model reference that is a catalog model's
	// published checkpoint (its ID or its repository), whose stored
	// format (stored, storedSet) is then known.
	published bool
	// remoteCode is why the checkpoint needs code from its repository
	// (remoteCode's entry for the catalog model), "" when it does not.
	remoteCode string
	files      []File
	notes      []string
	// router is what a disaggregated launch puts in front of its workers
	// (EmitDisaggVia); disagg marks such a launch, whose scripts say how
	// a worker spans its instances (disaggExtras, disaggWorkers).
	router Router
	disagg bool
	// rankFiles marks a SkyPilot batch job over several independent
	// instances, whose request and result files carry the instance's
	// rank (rankFile).
	rankFiles bool
}

// note adds a note once (a disaggregated launch builds each side's
// command, and the second says nothing new).
func (e *emitter) note(s string) {
	if s = catalog.Printable(s); !slices.Contains(e.notes, s) {
		e.notes = append(e.notes, s)
	}
}
func (e *emitter) file(name, format, text string) {
	e.files = append(e.files, File{name, format, text})
}
func (e *emitter) fail(key, reason string) error {
	return &Error{Kind: e.k, Key: key, Reason: catalog.Printable(reason)}
}

// Placeholder is the checkpoint a launch names when it knows none: no
// engine resolves it, and a note says to replace it.
const Placeholder = "<your-checkpoint>"

// maxModelRef bounds a model reference (a Hugging Face ID is at most 96
// characters; a path rarely more than a few hundred).
const maxModelRef = 1024

// modelRef is the checkpoint the commands load: the Hugging Face
// repository of a catalog model (the first huggingface.co address in its
// Source, then its ConfigSource); a reference given as such; else the
// repository the config names (its _name_or_path), or Placeholder.
func (e *emitter) modelRef(name string) (string, error) {
	if m, ok := e.cat.Model(name); ok {
		e.stored, e.storedSet = m.StoredWeights()
		e.remoteCode, e.published = remoteCode[m.ID], true
		if repo := modelRepo(m); repo != "" {
			if chat := instructRepo(repo); chat != "" && e.req.Workload.Kind != plan.Training {
				e.note(m.ID + " names a pretrained checkpoint and its instruction-tuned one: inference takes " + chat +
					", which answers chat requests; name " + repo + " as the model for the pretrained one")
				return chat, nil
			}
			return repo, nil
		}
		e.note("the catalog names no Hugging Face repository for " + m.ID + ": replace " + m.ID + " with the checkpoint's repository or path")
		return m.ID, nil
	}
	config := strings.HasSuffix(strings.ToLower(name), ".json")
	if name != "" && !config {
		if why := badRef(name); why != "" {
			return "", e.fail(ErrModelRef, "model "+strconv.Quote(name)+": "+why)
		}
		// A catalog model named by its repository: its checkpoint's
		// stored format is known too.
		for _, m := range e.cat.Models {
			if repo := modelRepo(m); strings.EqualFold(repo, name) || strings.EqualFold(instructRepo(repo), name) {
				e.stored, e.storedSet = m.StoredWeights()
				e.remoteCode, e.published = remoteCode[m.ID], true
				break
			}
		}
		return name, nil
	}
	if repo := e.in.Arch.NameOrPath; hfRepoID(repo) {
		e.note("the checkpoint is " + repo + ", the Hugging Face repository the config names (_name_or_path)")
		return repo, nil
	}
	why := "no model named"
	if config {
		why = "a config file is not a checkpoint, and the config names no Hugging Face repository (_name_or_path)"
	}
	e.note(why + ": replace " + Placeholder + " with the checkpoint's Hugging Face repository or path")
	return Placeholder, nil
}

// remoteCode lists the catalog models whose published checkpoint the
// engines load only with its repository's own code (vLLM and SGLang
// --trust-remote-code, trtllm-serve --trust_remote_code), with why. A
// launch without the flag stops at the tokenizer.
var remoteCode = map[string]string{
	// huggingface.co/moonshotai/Kimi-K2-Instruct: tokenizer_config.json's
	// auto_map names tokenization_kimi.TikTokenTokenizer, code in the
	// repository; Moonshot's docs/deploy_guidance.md runs vLLM and
	// SGLang with --trust-remote-code.
	"kimi-k2": "Kimi K2's tokenizer is code in its repository (tokenization_kimi.py), which the engine runs with --trust-remote-code, as Moonshot's deployment guide does",
}

// instructRepo is the instruction-tuned sibling of pretrained checkpoint
// repo, which a serving or batch launch of a catalog model loads: the
// catalog's models are sized from their pretrained configs, which their
// chat models share, but a user serving "Llama 3.1 8B" wants the model
// that follows a chat template (vllm run-batch and the OpenAI chat API
// take chat requests), and fine-tunes start from the pretrained one. ""
// where repo is no pretrained checkpoint of a family below, or the family
// publishes its post-trained model under the plain name (Qwen3, whose
// pretrained checkpoints are the "-Base" ones; DeepSeek-V3). Each family's
// naming, from its publisher's Hugging Face organisation: Meta's Llama 2
// "-chat-hf" (meta-llama/Llama-2-7b-chat-hf), Llama 3 to 4 "-Instruct"
// (meta-llama/Llama-3.1-8B-Instruct, Llama-4-Scout-17B-16E-Instruct);
// Qwen2.5 "-Instruct", Qwen1.5 "-Chat"; Google's Gemma "-it" for "-pt" or
// after a plain Gemma 2 name; Mistral's "-Instruct" before the version
// (Mistral-7B-Instruct-v0.3, Mixtral-8x7B-Instruct-v0.1) or for "-Base"
// (Mistral-Nemo-Instruct-2407); IBM Granite "-instruct" for "-base";
// AI2's OLMo 2 and Hugging Face's SmolLM2 "-Instruct"; TII's Falcon
// "-instruct"; DeepSeek-V2-Lite "-Chat".
func instructRepo(repo string) string {
	org, name, ok := strings.Cut(repo, "/")
	if !ok {
		return ""
	}
	lower := strings.ToLower(name)
	if strings.Contains(lower, "instruct") || strings.Contains(lower, "chat") || strings.HasSuffix(lower, "-it") {
		return ""
	}
	var chat string
	switch org {
	case "meta-llama":
		switch {
		case strings.HasPrefix(name, "Llama-2-") && strings.HasSuffix(name, "-hf"):
			chat = strings.TrimSuffix(name, "-hf") + "-chat-hf"
		case strings.HasPrefix(name, "Llama-3") || strings.HasPrefix(name, "Meta-Llama-3") || strings.HasPrefix(name, "Llama-4-"):
			chat = name + "-Instruct"
		}
	case "Qwen":
		switch {
		case strings.HasPrefix(name, "Qwen2.5-"):
			chat = name + "-Instruct"
		case strings.HasPrefix(name, "Qwen1.5-"):
			chat = name + "-Chat"
		}
	case "google":
		switch {
		case strings.HasPrefix(name, "gemma-") && strings.HasSuffix(name, "-pt"):
			chat = strings.TrimSuffix(name, "-pt") + "-it"
		case strings.HasPrefix(name, "gemma-2-"):
			chat = name + "-it"
		}
	case "mistralai":
		if i := strings.Index(name, "-v0."); i > 0 {
			chat = name[:i] + "-Instruct" + name[i:]
		} else if strings.Contains(name, "-Base-") {
			chat = strings.Replace(name, "-Base-", "-Instruct-", 1)
		}
	case "ibm-granite":
		if strings.HasSuffix(name, "-base") {
			chat = strings.TrimSuffix(name, "-base") + "-instruct"
		}
	case "allenai":
		if strings.HasPrefix(name, "OLMo-2-") {
			chat = name + "-Instruct"
		}
	case "HuggingFaceTB":
		if strings.HasPrefix(name, "SmolLM2-") {
			chat = name + "-Instruct"
		}
	case "tiiuae":
		if strings.HasPrefix(name, "falcon-") {
			chat = name + "-instruct"
		}
	case "deepseek-ai":
		if name == "DeepSeek-V2-Lite" {
			chat = name + "-Chat"
		}
	}
	if chat == "" {
		return ""
	}
	return org + "/" + chat
}

// modelRepo is a catalog model's Hugging Face repository: the first
// huggingface.co address in its Source, then the repository its config
// names (_name_or_path), then its ConfigSource's; "" when none names one.
// The config may be transcribed from a copy on the Hub (Llama 3.2 1B's
// from Emm9625/Llama-3.2-1B-chatml, a ChatML re-upload) whose
// _name_or_path still names the original, meta-llama/Llama-3.2-1B.
func modelRepo(m catalog.Model) string {
	if repo := hfRepo(m.Source); repo != "" {
		return repo
	}
	if repo := configNameOrPath(m.Config); hfRepoID(repo) {
		return repo
	}
	return hfRepo(m.ConfigSource)
}

// configNameOrPath is the "_name_or_path" string of a config.json text,
// "" when it has none or it holds an escape (no repository ID does).
func configNameOrPath(config string) string {
	const key = `"_name_or_path"`
	i := strings.Index(config, key)
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(config[i+len(key):], " \t\r\n")
	rest, ok := strings.CutPrefix(rest, ":")
	if !ok {
		return ""
	}
	rest, ok = strings.CutPrefix(strings.TrimLeft(rest, " \t\r\n"), `"`)
	if !ok {
		return ""
	}
	v, _, ok := strings.Cut(rest, `"`)
	if !ok || strings.Contains(v, `\`) {
		return ""
	}
	return v
}

// badRef says why name cannot be a model reference, or "": it must be one
// shell word once quoted (no control, format or separator character, valid
// UTF-8), not read as a flag (a leading '-'), and at most maxModelRef bytes.
func badRef(name string) string {
	switch {
	case len(name) > maxModelRef:
		return "longer than " + itoa(maxModelRef) + " bytes"
	case !utf8.ValidString(name):
		return "not valid UTF-8"
	case name[0] == '-':
		return "starts with '-', which the engines would read as a flag"
	case catalog.Printable(name) != name:
		return "holds a control or format character"
	}
	return ""
}

// hfRepoID reports whether s is a Hugging Face repository ID, ORG/NAME:
// letters, digits and -_. in each part, neither starting with one of
// those, no ".." or "--", at most 96 characters each (the Hub's rules).
func hfRepoID(s string) bool {
	org, name, ok := strings.Cut(s, "/")
	if !ok {
		return false
	}
	for _, p := range []string{org, name} {
		if p == "" || len(p) > 96 || strings.Contains(p, "..") || strings.Contains(p, "--") || strings.ContainsRune("-_.", rune(p[0])) {
			return false
		}
		for _, r := range p {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
				return false
			}
		}
	}
	return true
}

// hfRepo finds "huggingface.co/ORG/NAME" in s and returns "ORG/NAME".
func hfRepo(s string) string {
	const host = "huggingface.co/"
	i := strings.Index(s, host)
	if i < 0 {
		return ""
	}
	rest := s[i+len(host):]
	end := strings.IndexFunc(rest, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' || r == '/')
	})
	if end >= 0 {
		rest = rest[:end]
	}
	parts := strings.Split(rest, "/")
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" || parts[0] == "datasets" || parts[0] == "spaces" {
		return ""
	}
	return parts[0] + "/" + strings.TrimSuffix(parts[1], ".")
}

// lengths is the prompt and output tokens the plan sized a request with:
// the workload's, or half of Input.Seq each (plan.Workload).
// engine is the engine the launch runs: the serving kind's, else the
// row's (SkyPilot runs the planned engine; training runs on PyTorch).
func (e *emitter) engine() estimator.Engine {
	if e.k.Serving() {
		return engineOf(e.k)
	}
	return e.row.Engine
}

// supportInput is the job as the launch's engine runs it: the request's,
// on the launch's engine.
func (e *emitter) supportInput() estimator.Input {
	in := e.in
	in.Engine = e.engine()
	return in
}

// substituteNote says why the launch runs weights s.Weights where the job
// in asked for others on generation g (estimator.Support.Cause: vLLM's
// refusal of fp16 for the model's family, of its quantised kernels' fp16
// activations there, or the format's or bf16's absence on g).
func substituteNote(s estimator.Support, g estimator.Generation, in estimator.Input) string {
	note := s.Cause(g, in) + ": these settings run " + s.Weights.String()
	if s.Why == estimator.SupportNoQuantModel {
		note += " weights from the unquantised checkpoint"
	}
	return note
}

// support applies the table of what runs where (estimator.SupportForJob) to
// the launch: an engine that does not start on the row's GPU is an
// error, and where the job's precision does not run there the launch
// runs what does (fp16 on a GPU without bf16), with a note.
func (e *emitter) support() error {
	g := e.row.Offer.Hardware.Generation
	s := estimator.SupportForJob(g, e.supportInput())
	if !s.Runs {
		return e.fail(ErrUnsupported, s.Cause(g, e.supportInput())+" ("+e.row.Offer.GPU+")")
	}
	if s.Substituted() {
		e.note(substituteNote(s, g, e.supportInput()))
		e.in.Weights = s.Weights
	}
	if e.req.Workload.Kind != plan.Training {
		e.checkpoint()
	}
	return nil
}

// checkpoint names Placeholder instead of a catalog model's published
// checkpoint where that checkpoint is not stored in the weights the
// launch serves, with a note saying which copy to name. The engines
// serve a checkpoint in its own format: vLLM and SGLang read its
// quantization_config whatever --dtype says (catalog.Model.WeightsDType),
// so gpt-oss's MXFP4 checkpoint does not run 16-bit where MXFP4 has no
// kernel (estimator.SupportForJob; vLLM then stops at start-up), a
// 16-bit checkpoint is not an int4 one, and DeepSeek-R1's FP8 checkpoint
// is not a 16-bit one. A 16-bit checkpoint serves 16-bit weights of
// either kind (--dtype casts them) and fp8 (--quantization fp8 quantises
// it at load, quant). A reference that is not the catalog's is taken to
// be stored as planned (quant's note says so).
func (e *emitter) checkpoint() {
	if !e.published || e.model == Placeholder {
		return
	}
	w := e.in.Weights
	if e.storedSet && w == e.stored {
		return
	}
	sixteen := w == estimator.BF16 || w == estimator.FP16 || w == estimator.FP32
	// vLLM and SGLang quantise a 16-bit checkpoint to fp8 at load
	// (--quantization fp8); trtllm-serve has no such flag and serves fp8
	// from a checkpoint stored in it (a ModelOpt export: TensorRT-LLM
	// docs, "Quantization"), so given the 16-bit one it runs 16-bit
	// weights, twice the memory planned.
	fp8OnLoad := w == estimator.FP8 && e.engine() != estimator.TRTLLM
	if !e.storedSet && (sixteen || fp8OnLoad) {
		return
	}
	was, want := "16-bit", "a copy of it stored in "+w.String()+" ("+e.storedFormats(w)+")"
	if e.storedSet {
		was = e.stored.String()
	}
	if sixteen {
		want = "a 16-bit copy of it"
	}
	e.note(e.model + " is published with " + was + " weights and these settings serve " + w.String() + ": replace " + Placeholder + " with " + want)
	e.model = Placeholder
}

// contextLen is the context length the engine is started with: the
// longest request the workload sends (Workload.MaxRequestTokens, a mix's
// longest request), not its mean, so no request the plan serves is
// refused; at most the model's own context.
func (e *emitter) contextLen() int {
	prompt, output := e.lengths()
	n := max(prompt+output, e.req.Workload.MaxRequestTokens)
	if n > prompt+output {
		e.note("the context length covers the workload's longest request, " + itoa(n) + " tokens; the plan was sized for its mean, " + itoa(prompt+output))
	}
	if ctx := e.in.Arch.ServeContext(); ctx > 0 && n > ctx {
		e.note("requests over the model's context of " + itoa(ctx) + " tokens are refused by the engine")
		n = ctx
	}
	return n
}

func (e *emitter) lengths() (prompt, output int) {
	w := e.req.Workload
	if w.PromptTokens == 0 && w.OutputTokens == 0 {
		output = e.in.Seq / 2
		return max(1, e.in.Seq-output), output
	}
	return w.PromptTokens, w.OutputTokens
}

// gpusPerInstance is the row's whole GPUs per instance (at least 1).
func (e *emitter) gpusPerInstance() int { return max(int(e.row.Offer.GPUCount), 1) }

// command formats a command line, one flag per line.
type command struct {
	env string // "CUDA_VISIBLE_DEVICES=... " prefix, or ""
	// vars are further VAR=value prefixes (a flag-less arg: flag is the
	// variable's name), after env.
	vars []arg
	argv []string
	args []arg
	// then is the command this one launches (torchrun's script and its
	// flags), written after this one's flags.
	then *command
}

// arg is one flag of a command and its value: a literal, which is
// quoted, or a shellWord, written as it is for the shell to expand.
type arg struct {
	flag, value string
	word        shellWord
}

// shellWord is a word the launch writes for the shell to expand: a
// reference to a variable the launch sets or tells the user to set. Only
// the constants below are shell words; a value from data (a name, a
// path) is a literal and always goes through shellQuote.
type shellWord string

const (
	nodeRank   shellWord = "$NODE_RANK"    // the instance's rank, 0 on the first
	masterAddr shellWord = "$MASTER_ADDR"  // the first instance's address
	headInit   shellWord = "$HEAD_IP:5000" // SGLang's rendezvous on the first instance
	hostIP     shellWord = "$HOST_IP"      // the instance's own address (vLLM's NIXL side channel)
)

// quoted is w in double quotes: the shell expands the variable but does
// not split its value at blanks or expand globs in it, so an address or
// rank set with a space or a "*" stays one argument (POSIX sh, "Double-
// Quotes" and "Field Splitting").
func (w shellWord) quoted() string { return "\"" + string(w) + "\"" }

// guard is the line that stops a script where the variable name it reads
// from the environment is unset or empty, saying what to set it to (POSIX
// sh, "${parameter:?word}"). why is plain text: no quote, backslash, $,
// backquote or brace, which the word inside the double quotes would read
// (bash pairs a lone apostrophe there with a later one and prints the
// lines between).
func guard(name, why string) string {
	return ": \"${" + name + ":?set " + name + " to " + why + "}\"\n"
}

func (c *command) flag(name string, value string) {
	c.args = append(c.args, arg{flag: name, value: value})
}
func (c *command) num(name string, v int)      { c.flag(name, strconv.Itoa(v)) }
func (c *command) frac(name string, v float64) { c.flag(name, strconv.FormatFloat(v, 'g', -1, 64)) }
func (c *command) bare(name string)            { c.flag(name, "") }

// set gives flag name, already on c, the value v (each engine copy or
// worker of an instance its own port).
func (c *command) set(name, v string) {
	for j := range c.args {
		if c.args[j].flag == name {
			c.args[j].value = v
		}
	}
}

// onGPUs runs c on the n GPUs from first (CUDA_VISIBLE_DEVICES), for one
// of several processes on an instance.
func (c *command) onGPUs(first, n int) {
	ids := make([]string, n)
	for g := range ids {
		ids[g] = itoa(first + g)
	}
	c.env = "CUDA_VISIBLE_DEVICES=" + strings.Join(ids, ",") + " "
}

// setenv runs c with variable name set to v (a literal, quoted) or, where
// w is given, to the shell word w; a second call replaces the value.
func (c *command) setenv(name, v string, w shellWord) {
	for j := range c.vars {
		if c.vars[j].flag == name {
			c.vars[j].value, c.vars[j].word = v, w
			return
		}
	}
	c.vars = append(c.vars, arg{flag: name, value: v, word: w})
}

// put sets flag name to v: a new value where c has it, else a new flag.
func (c *command) put(name, v string) {
	for j := range c.args {
		if c.args[j].flag == name {
			c.args[j].value = v
			return
		}
	}
	c.flag(name, v)
}

// setWord gives flag name, already on c, the shell word w.
func (c *command) setWord(name string, w shellWord) {
	for j := range c.args {
		if c.args[j].flag == name {
			c.args[j].word = w
		}
	}
}

func (c *command) expand(name string, w shellWord) {
	c.args = append(c.args, arg{flag: name, word: w})
}

func (c *command) String() string {
	var b strings.Builder
	b.WriteString(c.env)
	for _, v := range c.vars {
		b.WriteString(v.flag + "=")
		if v.word != "" {
			b.WriteString(v.word.quoted() + " ")
		} else {
			b.WriteString(shellQuote(v.value) + " ")
		}
	}
	for i, a := range c.argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(shellQuote(a))
	}
	for _, a := range c.args {
		b.WriteString(" \\\n  " + a.flag)
		switch {
		case a.word != "":
			b.WriteString(" " + a.word.quoted())
		case a.value != "":
			b.WriteString(" " + shellQuote(a.value))
		}
	}
	if c.then != nil {
		b.WriteString(" \\\n  " + c.then.String())
	}
	return b.String()
}

// shellQuote writes s as one literal word for a POSIX shell (and bash and
// zsh): as it is when it holds only letters, digits and -_./:,@+, which no
// shell expands, else in single quotes, inside which nothing is special
// (a quote in s ends the quoting, is written escaped, and starts it
// again). $, %, {, }, ~, = and globs are quoted, so a value never expands
// a variable, a brace list or a path.
func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:,@+", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// itoa and ftoa keep the call sites short.
func itoa(v int) string { return strconv.Itoa(v) }

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// plural writes "n thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	if strings.HasSuffix(thing, "y") {
		return itoa(n) + " " + strings.TrimSuffix(thing, "y") + "ies"
	}
	return itoa(n) + " " + thing + "s"
}
