package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// TestE2EInputProfile samples Chromium's CPU while the batch size changes
// 15 times (as TestE2EInputUpdate does) and reports where the main
// thread's time goes, by function and by part: the page's view
// (app/page), go-app's render and diff, the estimator, the Go runtime
// (allocation and garbage collection), the calls into JavaScript and the
// browser's own work. It runs only with RIGHTSIZE_PROFILE set (make
// profile), on a site built with the WebAssembly symbol names kept
// (without -ldflags=-s); a stripped build reports wasm-function[N].
// It asserts nothing but that every change reached the page: it is a
// measurement, read from its report.
func TestE2EInputProfile(t *testing.T) {
	if os.Getenv("RIGHTSIZE_PROFILE") == "" {
		t.Skip("set RIGHTSIZE_PROFILE=1 (make profile) to sample the page's CPU")
	}
	s := openPlanned(t)
	// One profile over 15 changes 100 ms apart (each after the last one's
	// DOM write), stopped right after the last write: the planner waits
	// for 250 ms without input, so it never runs inside the profile, and
	// the samples that are not idle are the changes' own work: computing,
	// the view, go-app's diff, the DOM writes and the browser's style,
	// layout and paint of each. (Starting the profiler for each change
	// would count V8's logging of every compiled function, tens of
	// milliseconds for this module; marking the windows with JavaScript
	// functions fails where V8 inlines them.)
	s.do("starting the profiler", profiler.Enable(), profiler.SetSamplingInterval(50), profiler.Start())
	got := s.eval(`(async () => {
		const e = document.getElementById("rs-batch"), total = () => document.getElementById("rs-throughput").textContent; // the batch moves it (on vLLM the memory total stays the pool's share)
		const sleep = ms => new Promise(r => setTimeout(r, ms));
		let n = 0;
		for (let i = 0; i < 15; i++) {
			const before = total();
			let written;
			const done = new Promise(r => written = r);
			const obs = new MutationObserver(() => { if (total() !== before) { obs.disconnect(); written(true); } });
			obs.observe(document.querySelector("main"), {subtree: true, childList: true, characterData: true});
			e.value = String(2 + (i % 2) * 6); e.dispatchEvent(new Event("change", {bubbles: true}));
			if (await Promise.race([done, sleep(5000).then(() => false)])) n++;
			if (i < 14) await sleep(100);
		}
		return String(n);
	})()`)
	prof := stopProfiler(s)
	if got != "15" {
		t.Fatalf("%s of 15 changes reached the page", got)
	}
	self, total := selfTimes(prof)
	total -= self["(idle)"]
	delete(self, "(idle)")
	t.Log("\n" + profileReport(self, total, 15, "changes, idle left out"))
}

// profileReport sorts the sampled self times of n runs by part and by
// function.
func profileReport(self map[string]float64, total float64, n int, what string) string {
	type row struct {
		name string
		us   float64
	}
	var fns []row
	parts := map[string]float64{}
	for name, us := range self {
		fns = append(fns, row{name, us})
		parts[partOf(name)] += us
	}
	slices.SortFunc(fns, func(a, b row) int { return cmp.Compare(b.us, a.us) })
	var b strings.Builder
	fmt.Fprintf(&b, "sampled %.0f ms over %d %s (%.1f ms each)\nby part:\n", total/1000, n, what, total/1000/float64(n))
	var ps []row
	for p, us := range parts {
		ps = append(ps, row{p, us})
	}
	slices.SortFunc(ps, func(a, b row) int { return cmp.Compare(b.us, a.us) })
	for _, p := range ps {
		fmt.Fprintf(&b, "  %-30s %8.2f ms each (%4.1f%%)\n", p.name, p.us/1000/float64(n), 100*p.us/total)
	}
	b.WriteString("top functions (self time):\n")
	for _, f := range fns[:min(40, len(fns))] {
		fmt.Fprintf(&b, "  %8.2f ms  %s\n", f.us/1000/float64(n), f.name)
	}
	return b.String()
}

// TestE2EStartProfile samples Chromium's CPU over three warm starts (a
// reload with the caches filled, to the page answering input), reported
// like TestE2EInputProfile's changes. Only with RIGHTSIZE_PROFILE set.
func TestE2EStartProfile(t *testing.T) {
	if os.Getenv("RIGHTSIZE_PROFILE") == "" {
		t.Skip("set RIGHTSIZE_PROFILE=1 (make profile) to sample the page's CPU")
	}
	s := openPlanned(t)
	s.do("enabling the profiler", profiler.Enable(), profiler.SetSamplingInterval(100))
	self, total := map[string]float64{}, 0.0
	const n = 3
	for range n {
		s.do("starting the profiler", profiler.Start())
		s.do("reloading", chromedp.Reload())
		s.waitInteractive()
		p, tt := selfTimes(stopProfiler(s))
		for k, v := range p {
			self[k] += v
		}
		total += tt
		s.waitLive()
		time.Sleep(time.Second)
	}
	t.Log("\n" + profileReport(self, total, n, "warm starts, reload to interactive"))
}

// stopProfiler stops Chromium's sampling profiler and returns its profile.
func stopProfiler(s *site) *profiler.Profile {
	s.t.Helper()
	var prof *profiler.Profile
	if err := chromedp.Run(s.ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		prof, err = profiler.Stop().Do(ctx)
		return err
	})); err != nil {
		s.t.Fatalf("stopping the profiler: %v", err)
	}
	return prof
}

// selfTimes adds each sample's interval to the function it was taken in.
func selfTimes(p *profiler.Profile) (map[string]float64, float64) {
	name := map[int64]string{}
	for _, n := range p.Nodes {
		name[int64(n.ID)] = n.CallFrame.FunctionName
		if name[int64(n.ID)] == "" {
			name[int64(n.ID)] = "(anonymous " + n.CallFrame.URL + ")"
		}
	}
	self := map[string]float64{}
	var total float64
	for i, id := range p.Samples {
		if i >= len(p.TimeDeltas) {
			break
		}
		// TimeDeltas[i] is the time since the previous sample: the
		// interval that ends with sample i.
		dt := float64(p.TimeDeltas[i])
		self[name[id]] += dt
		total += dt
	}
	return self, total
}

// partOf sorts a function into the part of the page it belongs to.
func partOf(fn string) string {
	switch {
	case fn == "(idle)":
		return "idle"
	case fn == "(program)", fn == "(garbage collector)":
		return "browser " + fn
	case strings.HasPrefix(fn, "rightsize_app_page."):
		return "app/page (view, compute)"
	case strings.HasPrefix(fn, "rightsize_app."):
		return "app (components)"
	case strings.HasPrefix(fn, "rightsize_estimator"):
		return "estimator"
	case strings.HasPrefix(fn, "rightsize_catalog"):
		return "catalog"
	case strings.HasPrefix(fn, "github.com_maxence_charriere_go_app"):
		return "go-app"
	case strings.HasPrefix(fn, "syscall_js."), strings.HasPrefix(fn, "runtime.wasm"):
		return "syscall/js"
	case strings.HasPrefix(fn, "runtime."), strings.HasPrefix(fn, "internal_runtime"), strings.HasPrefix(fn, "gcWriteBarrier"), strings.HasPrefix(fn, "memeqbody"), strings.HasPrefix(fn, "cmpbody"), strings.HasPrefix(fn, "memcmp"):
		return "Go runtime (alloc, GC, sched)"
	case strings.HasPrefix(fn, "reflect."), strings.HasPrefix(fn, "internal_abi"), strings.HasPrefix(fn, "internal_reflectlite"):
		return "reflect"
	case strings.HasPrefix(fn, "strconv."), strings.HasPrefix(fn, "internal_strconv"), strings.HasPrefix(fn, "strings."), strings.HasPrefix(fn, "fmt."), strings.HasPrefix(fn, "unicode"):
		return "strings and formatting"
	case strings.HasPrefix(fn, "wasm-function"):
		return "wasm (no names: stripped build)"
	case strings.Contains(fn, "."), strings.Contains(fn, "_"):
		return "other Go"
	}
	return "JavaScript and browser"
}

// TestE2EReplanProfile samples Chromium's CPU over TestE2EInputUpdate's
// changes and the plans between them, and names what each stretch of the
// main thread over 50 ms (the profile's samples between two idle ones:
// a long task, or tasks that ran back to back, as the planner's slices do
// when nothing else waits) spent its time on, by phase (the innermost of the planner,
// the page's plan answer, the view, go-app, the DOM calls, the Go
// garbage collector, on each sample's stack) and by function. Only with
// RIGHTSIZE_PROFILE set (make profile).
func TestE2EReplanProfile(t *testing.T) {
	if os.Getenv("RIGHTSIZE_PROFILE") == "" {
		t.Skip("set RIGHTSIZE_PROFILE=1 (make profile) to sample the page's CPU")
	}
	s := openPlanned(t)
	s.do("starting the profiler", profiler.Enable(), profiler.SetSamplingInterval(200), profiler.Start())
	raw := s.eval(batchChangesJS)
	prof := stopProfiler(s)
	var got struct{ Report string }
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("the page's measurements %q: %v", raw, err)
	}
	t.Logf("under the profiler: %s", got.Report)
	t.Log("\n" + longStretches(prof, 50))
}

// phases name a sample by the innermost frame on its stack that matches
// one of them, in this order of precedence when two match the same frame.
var phases = []struct{ name, prefix string }{
	{"GC", "runtime.gc"}, {"GC", "runtime.markroot"}, {"GC", "runtime.scanobject"}, {"GC", "runtime.greyobject"},
	{"GC", "runtime.bgsweep"}, {"GC", "runtime.sweepone"}, {"GC", "runtime.(*mspan).sweep"}, {"GC", "runtime.bgscavenge"},
	{"DOM calls (syscall/js)", "syscall_js."},
	{"planner", "rightsize_estimator_plan."},
	{"page answer (RunPlan)", "rightsize_app_page.RunPlan"},
	{"view (BuildView)", "rightsize_app_page.BuildView"},
	{"derive (Derive)", "rightsize_app_page.Derive"},
	{"components (app)", "rightsize_app."},
	{"go-app update/diff", "github.com_maxence_charriere_go_app"},
}

// longStretches lists the profile's busy stretches over minMs: their
// length, time by phase and top functions by self time.
func longStretches(p *profiler.Profile, minMs float64) string {
	name, parent := map[int64]string{}, map[int64]int64{}
	for _, n := range p.Nodes {
		name[n.ID] = n.CallFrame.FunctionName
		for _, c := range n.Children {
			parent[c] = n.ID
		}
	}
	phaseOf := func(id int64) string {
		for ; id != 0; id = parent[id] {
			for _, ph := range phases {
				if strings.HasPrefix(name[id], ph.prefix) {
					return ph.name
				}
			}
		}
		return "other (" + partOf(name[id]) + ")"
	}
	var b strings.Builder
	type agg struct {
		us                float64
		phases, functions map[string]float64
	}
	var (
		cur agg
		n   int
	)
	flush := func() {
		if cur.us/1000 >= minMs {
			n++
			fmt.Fprintf(&b, "stretch %d: %.0f ms\n", n, cur.us/1000)
			for _, m := range []map[string]float64{cur.phases, cur.functions} {
				keys := slices.Collect(maps.Keys(m))
				slices.SortFunc(keys, func(x, y string) int { return cmp.Compare(m[y], m[x]) })
				for _, k := range keys[:min(6, len(keys))] {
					fmt.Fprintf(&b, "    %6.1f ms  %s\n", m[k]/1000, k)
				}
				b.WriteString("  --\n")
			}
		}
		cur = agg{phases: map[string]float64{}, functions: map[string]float64{}}
	}
	flush()
	for i, id := range p.Samples {
		if i >= len(p.TimeDeltas) {
			break
		}
		if name[id] == "(idle)" {
			flush()
			continue
		}
		dt := float64(p.TimeDeltas[i])
		cur.us += dt
		cur.phases[phaseOf(id)] += dt
		cur.functions[name[id]] += dt
	}
	flush()
	fmt.Fprintf(&b, "%d stretches over %.0f ms", n, minMs)
	return b.String()
}
