package page

import (
	"testing"

	"rightsize/catalog"
)

// The "Fits with" fact names the cheap levers in the three languages:
// Llama 3.1 405B at TP 8 × PP 16 on 16,384 H100s, ZeRO 1, interleaved,
// needs 79.4 GiB of 79.2 and fits with ZeRO-2 alone at 73.55 GiB (the
// CLI's fits_with, TestCheckpointingAgreesWithCLI); at ZeRO 2 and 8,192
// sequences a step, plain 1F1B at 69.58 GiB, faster on H100s than
// checkpointing. The fact shows where checkpointing alone would fit too,
// since the fix is another lever.
func TestFitsWithCheapLevers(t *testing.T) {
	const base = "m=llama-3.1-405b&t=train&g=h100-sxm&n=16384&tp=8&pp=16&b=1&s=8192"
	for _, c := range []struct {
		frag string
		want map[string]string
	}{
		{base + "&z=1&gb=2048", map[string]string{
			"en": "ZeRO-2 · 73.55 GiB per GPU on 16,384 GPUs",
			"ru": "ZeRO-2 · 73,55 ГиБ на GPU, GPU: 16\u00a0384",
			"zh": "ZeRO-2 · 每 GPU 73.55 GiB，共 16,384 个 GPU",
		}},
		{base + "&z=2&gb=8192", map[string]string{
			"en": "plain 1F1B (no interleaving) · 69.58 GiB per GPU on 16,384 GPUs",
			"ru": "обычным 1F1B (без чередования) · 69,58 ГиБ на GPU, GPU: 16\u00a0384",
			"zh": "普通 1F1B（不交错） · 每 GPU 69.58 GiB，共 16,384 个 GPU",
		}},
	} {
		cat := catalog.Default()
		j, _, general, ok := ParseJob(ParseFragment(c.frag, DefaultState), cat, Archs{}, nil, "")
		if !ok {
			t.Fatalf("%s: %+v", c.frag, general)
		}
		r, _ := Compute(j, NewPrices(cat, nil))
		if !r.OK || r.Res.Fits || !r.HasFix || !r.HasCheckpointed || !r.Checkpointed.Fits {
			t.Fatalf("%s: ok %v fits %v fix %v checkpointed fits %v", c.frag, r.OK, r.Res.Fits, r.HasFix, r.Checkpointed.Fits)
		}
		for lang, want := range c.want {
			if got := (Locale{Lang: lang}).FixText(r.Fix); got != want {
				t.Errorf("%s %s: %q, want %q", c.frag, lang, got, want)
			}
		}
		in := ViewIn{State: ParseFragment(c.frag, DefaultState), Job: j, R: r, Prices: NewPrices(cat, nil)}
		if f := factOf(t, BuildView(in).Result.Facts, "rs-fits-with"); f.Value != c.want["en"] {
			t.Errorf("%s: fact %q, want %q", c.frag, f.Value, c.want["en"])
		}
	}
}
