package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
	"rightsize/catalog/launch"
)

// TestLaunchBox: the "Run it" box writes the cheapest pick's launch as
// catalog/launch does for the same plan (what rightsize plan --emit
// prints), offers the launchers that fit the workload, and says so next
// to the picker when the link names one that does not.
func TestLaunchBox(t *testing.T) {
	c, _ := load(t)
	c.dropStatic()
	c.set(page.FieldRPS, "5")
	html := app.HTMLString(c.renderLaunch())
	want, _, err := page.LaunchOf(c.d.Job, c.pr, &c.ps.out, launch.VLLM)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(want.Text(), "vllm serve") || !strings.Contains(html, htmlText(strings.SplitN(want.Text(), "\n", 2)[0])) {
		t.Errorf("box %q lacks %q", html, want.Text())
	}
	if strings.Contains(html, "deepspeed") {
		t.Error("a training launcher offered for serving")
	}
	c.set(page.FieldLaunch, "deepspeed")
	if html := app.HTMLString(c.renderLaunch()); !strings.Contains(html, c.t(page.MsgUnknownChoice)) {
		t.Error("deepspeed for serving not flagged")
	}
	c.set(page.FieldLaunch, "")
	c.set(page.FieldTask, "finetune")
	c.set(page.FieldGPUs, "8")
	c.set(page.FieldZeRO, "3")
	k, ok := page.LaunchKind(c.state, &c.ps.out)
	if !ok || k != launch.DeepSpeed {
		t.Fatalf("training launcher %v %v", k, ok)
	}
	if html := app.HTMLString(c.renderLaunch()); !strings.Contains(html, "zero_optimization") && !strings.Contains(html, c.t(page.MsgLaunchModelParallel)) {
		t.Errorf("fine-tune launch: %s", html)
	}
}
