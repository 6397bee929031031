package app

import (
	"fmt"
	"math"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app/page"
	"rightsize/catalog"
)

// pageOrigin is the address the fuzzed fragments are appended to.
const pageOrigin = "http://127.0.0.1:8000/"

// browserHref is location.href once a user has typed "#"+frag into the
// address bar. In the browser (GOOS=js) the browser itself writes it (new
// URL); natively it follows the URL Standard's fragment percent-encode
// set: C0 controls, space, ", <, >, ` and every non-ASCII character are
// percent-encoded as UTF-8, and "%" is kept as typed. A Go string that is
// not UTF-8 reaches JavaScript with U+FFFD in place of the bad bytes.
func browserHref(frag string) string {
	if app.IsClient {
		return app.Window().Get("URL").New("#"+frag, pageOrigin).Get("href").String()
	}
	var b strings.Builder
	b.WriteString(pageOrigin + "#")
	for _, r := range strings.ToValidUTF8(frag, "\uFFFD") {
		switch {
		case r < 0x20 || r == 0x7f || r == ' ' || r == '"' || r == '<' || r == '>' || r == '`':
			fmt.Fprintf(&b, "%%%02X", r)
		case r >= 0x80:
			var buf [utf8.UTFMax]byte
			for _, c := range buf[:utf8.EncodeRune(buf[:], r)] {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// openLink follows go-app's own path from the address bar to OnNav: the
// loader's guard (page.CleanHref), url.Parse of location.href (go-app's
// Window().URL(), which drops the error), and the URL's decoded Fragment
// handed to the page. It fails the test where go-app would get a nil URL.
func openLink(t *testing.T, c *Calculator, frag string) {
	t.Helper()
	href, _ := page.CleanHref(browserHref(frag))
	u, err := url.Parse(href)
	if err != nil {
		t.Fatalf("%q: go-app would read a nil URL from %q: %v", frag, href, err)
	}
	c.applyFragment(none, u.Fragment)
}

// FuzzFragment: whatever a pasted or hand-edited link carries, the page
// reads it through the browser's and go-app's parse path without panicking
// (a panic kills the WebAssembly page), and it either shows finite,
// non-negative numbers or names a problem.
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
	f.Add("t=finetune&mfu=40%")
	f.Add("m=llama-3.1-8b&t=lora&p=bf16-true&g=a10g")
	f.Add("m=llama-3.1-8b&t=finetune&p=16-mixed&n=4&z=3")
	f.Add("m=llama-3.1-8b&p=bf16-mixed")
	f.Add("m=llama-3.1-8b&rps=5&g=p100")
	f.Add("t=train&p=transformer-engine&pb=1&hc=1")
	f.Add("%")
	f.Add("m=%E0%A4%A")
	f.Add("m=a;b&mfu=1e-300&%%%")
	f.Add("m=\x00\xff<script>&b=8#x%2")
	f.Add("cmp=lambda-gpu_1x_h100_sxm5,,x!,aws-p5.48xlarge,a,b,c,lambda-gpu_1x_h100_sxm5")
	f.Add("g=t4&cmp=%E0%A4%A,\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff")
	cat := catalog.Default()
	f.Fuzz(func(t *testing.T, frag string) {
		c := &Calculator{pr: page.NewPrices(cat, nil)}
		openLink(t, c, frag)
		for _, s := range c.share.notes.cmp {
			if !utf8.ValidString(s) || utf8.RuneCountInString(s) > 41 {
				t.Fatalf("%q: ignored comparison value shown as %q", frag, s)
			}
		}
		for _, s := range c.share.notes.link {
			if !utf8.ValidString(s) || len(s) > page.MaxIgnoredShown+len("…") {
				t.Fatalf("%q: ignored part shown as %q", frag, s)
			}
		}
		if !c.d.R.OK {
			for _, e := range c.d.Errs {
				if !e.OK() {
					return
				}
			}
			if len(c.d.General) == 0 {
				t.Fatalf("%q: no result and no message", frag)
			}
			return
		}
		for _, p := range page.Parts(locOf(c), c.d.R.Res, c.d.Job.GPU.Vendor) {
			if p.Permille < 0 || p.Permille > 1000 || strings.Contains(p.Value, "NaN") || strings.Contains(p.Value, "—") {
				t.Fatalf("%q: part %s = %q (%d‰)", frag, p.Name, p.Value, p.Permille)
			}
		}
		for _, x := range c.ps.Out.Points {
			if !(x.Cost > 0) || !(x.Seconds > 0) || math.IsInf(x.Cost, 0) || math.IsInf(x.Seconds, 0) {
				t.Fatalf("%q: offer %s costs %v over %v s", frag, x.Offer.ID, x.Cost, x.Seconds)
			}
		}
		_ = c.Render()
	})
}

// TestHostileLinks: the links that killed the page load, read what they
// can and name what they ignored.
func TestHostileLinks(t *testing.T) {
	for _, tc := range []struct {
		frag    string
		ignored []string
		kept    page.Field // a field the link sets readably, or -1
		value   string
	}{
		{"t=finetune&mfu=40%", []string{"mfu=40%"}, page.FieldTask, "finetune"},
		{"%", []string{"%"}, -1, ""},
		{"m=%E0%A4%A", []string{"m=\uFFFD%A"}, -1, ""},
		{"m=qwen2.5-7b&b=%zz", []string{"b=%zz"}, page.FieldModel, "qwen2.5-7b"},
	} {
		href := browserHref(tc.frag)
		if _, err := url.Parse(href); err == nil {
			t.Errorf("%q: url.Parse accepts %q; the case tests nothing", tc.frag, href)
		}
		c := &Calculator{pr: page.NewPrices(catalog.Default(), nil)}
		openLink(t, c, tc.frag)
		if strings.Join(c.share.notes.link, "|") != strings.Join(tc.ignored, "|") {
			t.Errorf("%q: ignored %q, want %q", tc.frag, c.share.notes.link, tc.ignored)
		}
		if !strings.Contains(app.HTMLString(c.Render()), `id="rs-link-ignored"`) {
			t.Errorf("%q: the page does not say what it ignored", tc.frag)
		}
		if tc.kept >= 0 && c.state[tc.kept] != tc.value {
			t.Errorf("%q: %s = %q, want %q: the readable part of the link was dropped too", tc.frag, page.FieldNames[tc.kept], c.state[tc.kept], tc.value)
		}
	}
}

// TestTinyEfficiencyRefused: an efficiency of 1e-300 in a link is refused
// next to its field, not priced at hundreds of digits.
func TestTinyEfficiencyRefused(t *testing.T) {
	for _, frag := range []string{"t=finetune&mfu=1e-300", "imfu=1e-300", "bw=0.000001"} {
		c := &Calculator{pr: page.NewPrices(catalog.Default(), nil)}
		openLink(t, c, frag)
		html := app.HTMLString(c.Render())
		digits := 0
		for _, r := range html {
			if r >= '0' && r <= '9' {
				digits++
				if digits > 40 {
					t.Fatalf("%q: a run of over 40 digits on the page", frag)
				}
			} else if r != ',' && r != '.' && r != ' ' && r != '\u00a0' && r != '\u202f' {
				digits = 0
			}
		}
		refused := false
		for _, f := range []page.Field{page.FieldMFU, page.FieldInfMFU, page.FieldBWUtil} {
			refused = refused || !c.d.Errs[f].OK()
		}
		if !refused && c.state.Shown(page.FieldMFU) {
			t.Errorf("%q: no message next to the field", frag)
		}
	}
}

// TestLinkConfigCap: a config carried in a link has the cap of an uploaded
// one (it was 1 MiB against 256 KiB).
func TestLinkConfigCap(t *testing.T) {
	if page.MaxLinkConfig != page.MaxConfigBytes {
		t.Fatalf("link cap %d, upload cap %d", page.MaxLinkConfig, page.MaxConfigBytes)
	}
	pad := `{"model_type":"llama","pad":"` + strings.Repeat("x", page.MaxConfigBytes) + `"}`
	if _, err := page.Inflate(page.Deflate(pad)); err == nil {
		t.Error("a config over 256 KiB was inflated from a link")
	}
}
