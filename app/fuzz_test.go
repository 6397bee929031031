package app

import (
	"math"
	"strings"
	"testing"

	"rightsize/catalog"
)

// FuzzFragment: whatever a pasted or hand-edited link carries, the page
// computes without panicking (a panic kills the WebAssembly page), and it
// either shows finite, non-negative numbers or names a problem.
func FuzzFragment(f *testing.F) {
	f.Add("m=llama-3.1-8b&p=int4&b=8")
	f.Add("m=deepseek-v3&t=train&n=64&z=3&tp=8&pp=8&gc=1")
	f.Add("m=mixtral-8x7b&t=qlora&q=nf4&lt=all-linear&r=64")
	f.Add("m=qwen2.5-7b&e=vllm&u=0.95&mbt=99999999&ee=1&og=1GiB")
	f.Add("m=gpt2&b=-1&s=1e9&n=0&oc=NaNGiB&uv=1PiB")
	f.Add("m=%zz&&=&t=lora&r=99999999999999999999")
	f.Add("m=sdxl-unet&t=finetune&off=all&z=3&n=2")
	f.Add("m=custom&cfg=!!!&pin=m%3Dgpt2%26b%3Dx&embed=1")
	f.Add("pin=%zz&cfg=eJyrVkrLz1eyUlAqSsxLSVWqBQA")
	cat := catalog.Default()
	f.Fuzz(func(t *testing.T, frag string) {
		c := &Calculator{pr: newPrices(cat, nil), archs: archs{}}
		c.applyFragment(frag)
		if !c.r.OK {
			for _, e := range c.errs {
				if !e.ok() {
					return
				}
			}
			if len(c.general) == 0 {
				t.Fatalf("%q: no result and no message", frag)
			}
			return
		}
		for _, p := range c.partViews() {
			if p.Permille < 0 || p.Permille > 1000 || strings.Contains(p.Value, "NaN") || strings.Contains(p.Value, "—") {
				t.Fatalf("%q: part %s = %q (%d‰)", frag, p.Name, p.Value, p.Permille)
			}
		}
		for _, x := range c.plan.Points {
			if !(x.Cost > 0) || !(x.Seconds > 0) || math.IsInf(x.Cost, 0) || math.IsInf(x.Seconds, 0) {
				t.Fatalf("%q: offer %s costs %v over %v s", frag, x.Offer.ID, x.Cost, x.Seconds)
			}
		}
		_ = c.Render()
	})
}
