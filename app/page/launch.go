package page

// The launch settings of the cheapest pick (catalog/launch: the engines'
// serve commands, a DeepSpeed or FSDP training launch, LitGPT's fine-tune
// command, a SkyPilot task), as rightsize plan --emit KIND writes them for
// the same plan.

import (
	"errors"
	"slices"

	"rightsize/catalog/launch"
	planner "rightsize/estimator/plan"
)

// LaunchKinds are the launchers that fit j's plan out, the page's
// choices: LitGPT alone for a fine-tune planned for its scripts (j.Stack,
// a Lightning precision name), as rightsize plan --emit takes them.
func LaunchKinds(j Job, out *PlanOut) []launch.Kind {
	return launch.For(out.Kind, j.Stack != nil)
}

// LaunchKind is the launcher the link names (FieldLaunch), else the job's
// serving engine where it is a launcher for out's workload (the plan was
// sized for that engine's scheduler and memory), else the first that
// fits j's plan; false when the link names one that does not fit it.
func LaunchKind(s ViewState, j Job, out *PlanOut) (launch.Kind, bool) {
	kinds := LaunchKinds(j, out)
	if s[FieldLaunch] == "" {
		if k, err := launch.ParseKind(s[FieldEngine]); err == nil && slices.Contains(kinds, k) {
			return k, true
		}
		return kinds[0], true
	}
	k, err := launch.ParseKind(s[FieldLaunch])
	if err != nil {
		return kinds[0], false
	}
	for _, x := range kinds {
		if x == k {
			return k, true
		}
	}
	return kinds[0], false
}

// LaunchOf writes the launch of kind k for out's cheapest pick, planned
// for j: the same call as rightsize plan --emit k --emit-pick cheapest.
func LaunchOf(j Job, pr Prices, out *PlanOut, k launch.Kind) (launch.Launch, Pick, error) {
	if err := launch.StackError(k, out.Kind, j.Stack != nil); err != nil {
		return launch.Launch{}, Pick{}, err
	}
	for _, p := range out.Picks {
		if p.Kind != PickCheapest {
			continue
		}
		if p.Row < 0 || p.Row >= len(out.Rows) {
			break
		}
		req := PlanRequest(j)
		req.FX = pr.Cat.PlanFX()
		model := j.Model.ID
		if model == CustomModelID {
			// The user's own config.json: Emit takes the repository it
			// names (_name_or_path) or writes a placeholder and says so.
			model = ""
		}
		l, err := launch.Emit(k, req, out.Rows[p.Row], pr.Cat, model)
		return l, p, err
	}
	return launch.Launch{}, Pick{}, errors.New("no pick to launch")
}

// LaunchRouter is the disaggregated launch's router the link names
// (FieldRouter: engine, dynamo; empty: the engine's own); false when it
// names none, and then the engine's own.
func LaunchRouter(s ViewState) (launch.Router, bool) {
	r, err := launch.ParseRouter(s[FieldRouter])
	if err != nil {
		return launch.EngineRouter, false
	}
	return r, true
}

// routerLabels name the routers in the picker (the engine's own in the
// page's language).
func routerLabel(l Locale, r launch.Router) string {
	if r == launch.DynamoRouter {
		return "NVIDIA Dynamo (python -m dynamo.frontend)"
	}
	return l.T(MsgRouterEngine)
}

// LaunchDisagg writes out's disaggregated alternative with launcher k
// behind router r: the same call as rightsize plan --emit k --emit-pick
// disaggregated --emit-router r (SGLang's PD disaggregation, vLLM's
// NixlConnector workers behind its proxy, TensorRT-LLM's trtllm-serve
// disaggregated, or each engine's NVIDIA Dynamo workers behind Dynamo's
// frontend; launchers that do not serve return an error).
func LaunchDisagg(j Job, pr Prices, out *PlanOut, k launch.Kind, r launch.Router) (launch.Launch, error) {
	if out.Disagg == nil {
		return launch.Launch{}, errors.New("no disaggregated alternative")
	}
	req := PlanRequest(j)
	req.FX = pr.Cat.PlanFX()
	model := j.Model.ID
	if model == CustomModelID {
		model = ""
	}
	return launch.EmitDisaggVia(k, r, req, planner.Result{Rows: out.Rows, Disagg: out.Disagg}, pr.Cat, model)
}

// LaunchCopy is what the box's copy button copies for in, and the file
// name it saves under where the clipboard refuses: the cheapest pick's
// launch, or the disaggregated alternative's (disagg); ok false when the
// box shows none.
func LaunchCopy(in *ViewIn, disagg bool) (text, file string, ok bool) {
	if !disagg {
		text, ok = LaunchText(in)
		return text, "rightsize-launch.txt", ok
	}
	k, _ := LaunchKind(in.State, in.Job, &in.Plan)
	r, _ := LaunchRouter(in.State)
	l, err := LaunchDisagg(in.Job, in.Prices, &in.Plan, k, r)
	if err != nil {
		return "", "", false
	}
	return l.Text(), "rightsize-launch-disaggregated.txt", true
}

// LaunchErrorKey is the message for a launch that cannot be written, in
// the page's language (0: say the error's own English sentence).
func LaunchErrorKey(err error) MsgKey {
	var e *launch.Error
	if !errors.As(err, &e) {
		return MsgLaunchNone
	}
	switch e.Key {
	case launch.ErrNoSkyPilotCloud, launch.ErrNoAccelerator:
		return MsgLaunchNoSky
	case launch.ErrModelParallel:
		return MsgLaunchModelParallel
	case launch.ErrSkyServePorts:
		return MsgLaunchSkyServePorts
	case launch.ErrLayoutUnsupported:
		return MsgLaunchLayout
	case launch.ErrPrecision:
		return MsgLaunchPrecision
	case launch.ErrStack:
		return MsgLaunchStack
	case launch.ErrLitGPT:
		return MsgLaunchLitGPT
	case launch.ErrLitGPTModel:
		return MsgLaunchLitGPTModel
	}
	return 0
}

// LaunchView is the "Run it" box: the launcher picker, and the cheapest
// pick's launch settings or why there are none (Shown false: no pick).
type LaunchView struct {
	Shown bool
	Kind  FieldView
	Err   string
	For   string // the pick the settings are for
	Text  string // the settings, as rightsize plan --emit writes them
	// DisaggTitle, DisaggFor and DisaggText are the disaggregated
	// alternative's launch (rightsize plan --emit-pick disaggregated),
	// where the launcher writes one ("": none), and Router its router
	// picker (--emit-router).
	DisaggTitle, DisaggFor, DisaggText string
	Router                             FieldView
}

// launchLabels name the launchers in the picker.
var launchLabels = map[string]string{"vllm": "vLLM (vllm serve)", "sglang": "SGLang (sglang.launch_server)", "trtllm": "TensorRT-LLM (trtllm-serve)",
	"deepspeed": "DeepSpeed (torchrun + ds_config.json)", "fsdp": "PyTorch FSDP (accelerate launch)", "skypilot": "SkyPilot (task YAML)",
	"litgpt": "LitGPT (litgpt finetune)"}

// LaunchText is the launch settings the box shows for in, or ok false.
func LaunchText(in *ViewIn) (string, bool) {
	k, _ := LaunchKind(in.State, in.Job, &in.Plan)
	l, _, err := LaunchOf(in.Job, in.Prices, &in.Plan, k)
	if err != nil {
		return "", false
	}
	return l.Text(), true
}

// launch builds the "Run it" box, once the planner has a pick.
func (b *viewBuilder) launch() LaunchView {
	in := &b.in
	out := &in.Plan
	if !out.OK || len(out.Picks) == 0 || !in.R.OK {
		return LaunchView{}
	}
	k, ok := LaunchKind(in.State, in.Job, out)
	v := LaunchView{Shown: true, Kind: FieldView{F: FieldLaunch, Kind: KindSelect, Label: b.t(MsgLaunchKind), Value: k.String()}}
	for _, x := range LaunchKinds(in.Job, out) {
		v.Kind.Opts = append(v.Kind.Opts, Option{x.String(), launchLabels[x.String()]})
	}
	if !ok {
		v.Kind.Err = b.t(MsgUnknownChoice)
	}
	l, p, err := LaunchOf(in.Job, in.Prices, out, k)
	if err != nil {
		v.Err = err.Error()
		if key := LaunchErrorKey(err); key != 0 {
			v.Err = b.t(key)
		}
		return v
	}
	v.For = b.t(MsgPickCheapest) + b.l.Colon() + in.Prices.GPUName(p.Offer.GPU) + " · " + in.Prices.ProviderName(p.Offer.Provider) + " " + p.Offer.Name()
	v.Text = l.Text()
	if d := out.Disagg; d != nil {
		r, ok := LaunchRouter(in.State)
		if dl, err := LaunchDisagg(in.Job, in.Prices, out, k, r); err == nil {
			v.DisaggTitle, v.DisaggText = b.t(MsgDisaggTitle), dl.Text()
			v.DisaggFor = sentence(b.l.ReasonWith(d.Why, in.Prices.ProviderName))
			v.Router = FieldView{F: FieldRouter, Kind: KindSelect, Label: b.t(MsgLaunchRouter), Value: r.String()}
			for _, x := range launch.Routers {
				v.Router.Opts = append(v.Router.Opts, Option{x.String(), routerLabel(b.l, x)})
			}
			if !ok {
				v.Router.Err = b.t(MsgUnknownChoice)
			}
		}
	}
	return v
}
