package page

import (
	"strings"
	"testing"

	"rightsize/catalog"
	"rightsize/catalog/launch"
	"rightsize/estimator"
)

// TestCustomModelLaunch: the launch of the user's own config.json loads
// the Hugging Face repository the config names (_name_or_path), or a
// placeholder with a note saying to replace it; never "custom".
func TestCustomModelLaunch(t *testing.T) {
	cat := catalog.Default()
	m, _ := cat.Model("llama-3.1-8b")
	arch, err := estimator.ParseConfig([]byte(m.Config))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ nameOrPath, want, note string }{
		{"meta-llama/Llama-3.1-8B", "vllm serve meta-llama/Llama-3.1-8B \\\n", "the Hugging Face repository the config names"},
		{"/home/me/ckpt", "vllm serve '<your-checkpoint>' \\\n", "replace <your-checkpoint>"},
		{"", "vllm serve '<your-checkpoint>' \\\n", "replace <your-checkpoint>"},
	} {
		a := arch
		a.NameOrPath = c.nameOrPath
		j, _, _, ok := ParseJob(ParseFragment("m=custom&rps=5", DefaultState), cat, Archs{}, &a, "config.json")
		if !ok {
			t.Fatal("custom job does not parse")
		}
		pr := NewPrices(cat, nil)
		out := RunPlan(j, pr)
		l, _, err := LaunchOf(j, pr, &out, launch.VLLM)
		if err != nil {
			t.Fatal(err)
		}
		text := l.Text()
		if !strings.Contains(text, c.want) || !strings.Contains(text, "# note: ") || !strings.Contains(strings.Join(l.Notes, "\n"), c.note) ||
			strings.Contains(text, "serve custom") {
			t.Errorf("%q:\n%s\nwant %q and a note %q", c.nameOrPath, text, c.want, c.note)
		}
	}
}
