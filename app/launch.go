package app

// The "Run it" box: the cheapest pick's launch settings (page.LaunchOf,
// catalog/launch), as rightsize plan --emit writes them, to copy.

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
)

// renderLaunch is the box, once the planner has a pick.
func (c *Calculator) renderLaunch() app.UI {
	out := &c.ps.out
	if !out.OK || len(out.Picks) == 0 || !c.d.R.OK {
		return app.Text("")
	}
	k, ok := page.LaunchKind(c.state, out)
	opts := make([]option, 0, 4)
	for _, x := range page.LaunchKinds(out) {
		opts = append(opts, option{x.String(), launchLabels[x.String()]})
	}
	sel := &selectBox{F: int(page.FieldLaunch), Label: c.t(page.MsgLaunchKind), Cur: k.String(), Opts: opts}
	if !ok {
		sel.Err = c.t(page.MsgUnknownChoice)
	}
	body := []app.UI{app.H2().Text(c.t(page.MsgLaunchTitle)), app.P().Class("rs-sub").Text(c.t(page.MsgLaunchHelp)), sel}
	l, p, err := page.LaunchOf(c.d.Job, c.pr, out, k)
	if err != nil {
		msg := err.Error()
		if key := page.LaunchErrorKey(err); key != 0 {
			msg = c.t(key)
		}
		body = append(body, app.P().Class("rs-warn").ID("rs-launch-error").Text(msg))
		return app.Section().Class("rs-prices").ID("rs-launch").Body(body...)
	}
	body = append(body,
		app.P().Class("rs-sub").ID("rs-launch-for").Text(c.t(page.MsgPickCheapest)+": "+c.pr.GPUName(p.Offer.GPU)+" · "+c.pr.ProviderName(p.Offer.Provider)+" "+p.Offer.InstanceType),
		app.Pre().Class("rs-launch").ID("rs-launch-text").Text(l.Text()),
		app.Button().Class("rs-more").ID("rs-copy-launch").Text(c.t(page.MsgCopyLaunch)).OnClick(c.onCopyLaunch),
		app.If(c.share.what == page.MsgCopyLaunch, func() app.UI {
			return app.P().Class("rs-ok").ID("rs-launch-copied").Text(c.t(page.MsgLaunchCopied))
		}),
	)
	return app.Section().Class("rs-prices").ID("rs-launch").Body(body...)
}

// launchLabels name the launchers in the picker.
var launchLabels = map[string]string{"vllm": "vLLM (vllm serve)", "sglang": "SGLang (sglang.launch_server)", "trtllm": "TensorRT-LLM (trtllm-serve)",
	"deepspeed": "DeepSpeed (torchrun + ds_config.json)", "fsdp": "PyTorch FSDP (accelerate launch)", "skypilot": "SkyPilot (task YAML)"}

func (c *Calculator) onCopyLaunch(ctx app.Context, e app.Event) {
	k, _ := page.LaunchKind(c.state, &c.ps.out)
	l, _, err := page.LaunchOf(c.d.Job, c.pr, &c.ps.out, k)
	if err != nil {
		return
	}
	c.copyOrDownload(ctx, page.MsgCopyLaunch, l.Text(), "rightsize-launch.txt", "text/plain")
}
