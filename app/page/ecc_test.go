package page

import (
	"strings"
	"testing"
)

// TestECCVerdict: where ECC sets a GDDR GPU's usable memory, the page
// says so where the fit is decided, in every language: the verdict reads
// "usable 22.26 GiB (ECC)" on an A10G (0.99 × the 23,028 MiB nvidia-smi
// prints with ECC on, catalog ECCMemory), the usable row says what CUDA
// sees of the card's 24 GiB, and the fit table's A10G row carries the same
// figure; an H100 (HBM) and a user's measured --usable-vram carry none.
func TestECCVerdict(t *testing.T) {
	const job = "m=llama-3.1-8b&t=lora&g=a10g&b=1&s=1000"
	for _, c := range []struct{ lang, usable, sees string }{
		{"en", "usable 22.26 GiB (ECC)", "ECC on: CUDA sees 22.49 GiB of 24.00 GiB"},
		{"ru", "доступно 22,26 ГиБ (ECC)", "ECC включён: CUDA видит 22,49 ГиБ из 24,00 ГиБ"},
		{"zh", "可用 22.26 GiB（ECC）", "ECC 开启：CUDA 可见 22.49 GiB（共 24.00 GiB）"},
	} {
		v, in := viewOf(t, job+"&l="+c.lang, func(in *ViewIn) { in.State = in.State.WithAll(SecFit, true) })
		b := v.Result.Breakdown
		// Llama 3.1 8B LoRA at 1 × 1000 needs 23.35 GiB: under 0.99 × 24 GiB
		// (23.76), over the 22.26 GiB CUDA leaves with ECC on.
		if b.Fits || in.R.Res.Usable.GiB() < 22.25 || in.R.Res.Usable.GiB() > 22.27 {
			t.Fatalf("%s: fits %v, usable %.3f GiB", c.lang, b.Fits, in.R.Res.Usable.GiB())
		}
		if !strings.HasPrefix(b.Verdict, Tr(c.lang, MsgDoesNotFit)) || !strings.HasSuffix(b.Verdict, " · "+c.usable) {
			t.Errorf("%s: verdict %q, want it to end %q", c.lang, b.Verdict, c.usable)
		}
		if b.UsableNote != c.sees {
			t.Errorf("%s: usable note %q, want %q", c.lang, b.UsableNote, c.sees)
		}
		var a10g, h100 *FitRow
		for i := range v.Fit.Rows {
			switch v.Fit.Rows[i].GPU {
			case "a10g":
				a10g = &v.Fit.Rows[i]
			case "h100-sxm":
				h100 = &v.Fit.Rows[i]
			}
		}
		if a10g == nil || h100 == nil {
			t.Fatalf("%s: no a10g or h100 row among %d", c.lang, len(v.Fit.Rows))
		}
		if a10g.Fits || !strings.HasSuffix(a10g.Verdict, " · "+c.usable) {
			t.Errorf("%s: a10g row %v %q", c.lang, a10g.Fits, a10g.Verdict)
		}
		if !h100.Fits || strings.Contains(h100.Verdict, "ECC") {
			t.Errorf("%s: h100 row %v %q", c.lang, h100.Fits, h100.Verdict)
		}
	}
	// The user's measured usable memory is their own: no ECC note.
	v, _ := viewOf(t, job+"&uv=23.76GiB", nil)
	if b := v.Result.Breakdown; !b.Fits || strings.Contains(b.Verdict, "ECC") || b.UsableNote != "" {
		t.Errorf("--usable-vram 23.76GiB: fits %v, %q, note %q", b.Fits, b.Verdict, b.UsableNote)
	}
	// An HBM GPU: none.
	v, _ = viewOf(t, "m=llama-3.1-8b&t=lora&g=h100-sxm&b=1&s=1000", nil)
	if b := v.Result.Breakdown; strings.Contains(b.Verdict, "ECC") || b.UsableNote != "" {
		t.Errorf("h100: %q, note %q", b.Verdict, b.UsableNote)
	}
}
