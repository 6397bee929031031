//go:build !js

package main

// Jobs an ML infrastructure engineer brings to the page, opened by link
// and shot at desktop and phone width in every language, for a person to
// read: LoRA and QLoRA fine-tunes of an 8B and a 70B model, a batch
// inference job on vLLM, an AMD GPU, a job that does not fit the chosen
// GPU, DeepSeek-R1 with MTP speculative decoding, and bad input in two
// fields. Beyond the shots, the test checks
// what holds on every one of them: no "NaN", "Inf" or "0 GiB" on the
// page, an error next to each bad field at once, and a field's note as
// wide as its field.

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// auditJobs are the links the audit opens.
var auditJobs = []struct{ name, frag string }{
	{"lora-8b", "m=llama-3.1-8b&t=lora&g=rtx-4090"},
	{"qlora-70b", "m=llama-3.1-70b&t=qlora&g=a100-80gb-sxm"},
	{"batch", "m=llama-3.3-70b&e=vllm&req=2000000&dl=12&s=4096&out=256"},
	{"amd", "m=llama-3.1-70b&g=mi300x&e=vllm&rps=10"},
	{"nofit", "m=llama-3.1-405b&t=finetune&g=l4&n=1"},
	// DeepSeek-R1 served on 8 × H200 with two MTP drafts a step: the
	// engine settings open with the drafts and their acceptance.
	{"mtp", "m=deepseek-r1&p=fp8&e=sglang&g=h200-sxm&n=8&tp=8&mtp=2&rps=5"},
	{"bad", "m=llama-3.1-8b&b=abc&s=-5"},
}

func TestE2EAuditShots(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	langs := auditLangs("en", "ru", "zh")
	for _, job := range auditJobs {
		for _, lang := range langs {
			s := newSite(t, dir, "/")
			s.do("loading the "+job.name+" job", chromedp.Navigate(s.base+"#l="+lang+"&"+job.frag))
			s.waitLive()
			if job.name == "bad" {
				for _, id := range []string{"rs-batch", "rs-seq"} {
					s.do("waiting for the error on "+id, chromedp.WaitVisible("#"+id+"-error", chromedp.ByQuery))
				}
			} else {
				s.waitPlan()
			}
			text := s.eval(`document.body.innerText`)
			for _, bad := range []string{"NaN", "+Inf", " 0 GiB", "undefined"} {
				if strings.Contains(text, bad) {
					t.Errorf("%s, %s: the page shows %q", job.name, lang, bad)
				}
			}
			for _, w := range []int64{1280, 360} {
				s.screenshot("audit-"+job.name+"-"+lang+"-"+strconv.Itoa(int(w))+".png", w)
				// A field's note is as wide as its field, at any width.
				if r := s.eval(noteWidth); r != "none" {
					if x, err := strconv.ParseFloat(r, 64); err != nil || x < 0.9 {
						t.Errorf("%s, %s at %d px: a field's note is %s of its field's width", job.name, lang, w, r)
					}
				}
			}
			s.close()
		}
	}
}

// noteWidth is the narrowest field note's width over its field's, or
// "none" without a note.
const noteWidth = `(() => {
	let min = Infinity;
	for (const n of document.querySelectorAll(".rs-field > .rs-src")) {
		const f = n.parentElement.querySelector("select,input");
		if (!f || !f.offsetWidth || !n.offsetWidth) continue;
		min = Math.min(min, n.offsetWidth / f.offsetWidth);
	}
	return min === Infinity ? "none" : String(min);
})()`

// testingLangs reads RIGHTSIZE_AUDIT_LANGS ("en,ru"), to shoot fewer.
// auditLangs is the languages an audit shoots: RIGHTSIZE_AUDIT_LANGS's
// (testingLangs) where set, else def.
func auditLangs(def ...string) []string {
	if l := testingLangs(); l != nil {
		return l
	}
	return def
}

// auditJob reports whether an audit shoots its job name: every job, or
// those RIGHTSIZE_AUDIT_JOBS lists, comma-separated.
func auditJob(name string) bool {
	only := os.Getenv("RIGHTSIZE_AUDIT_JOBS")
	return only == "" || strings.Contains(","+only+",", ","+name+",")
}

func testingLangs() []string {
	v := strings.TrimSpace(os.Getenv("RIGHTSIZE_AUDIT_LANGS"))
	if v == "" {
		return nil
	}
	return strings.Split(v, ",")
}
