//go:build !js

package main

// End-to-end tests: the built site (dist/, from "make dist") served by this
// command's handler on loopback and driven in real headless Chromium.
// "make test" sets RIGHTSIZE_DIST; a plain "go test ./..." without a built
// site skips them.

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// distDir returns the built site to test, or skips.
func distDir(t testing.TB, env string) string {
	t.Helper()
	dir := os.Getenv(env)
	if dir == "" {
		t.Skipf("%s not set: run the end-to-end tests with make test", env)
	}
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		t.Fatalf("%s=%s: %v", env, dir, err)
	}
	return dir
}

// artifactDir is where screenshots go for a person to look at.
func artifactDir(t testing.TB) string {
	dir := os.Getenv("RIGHTSIZE_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "rightsize-e2e")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// site is one served build plus one browser with a fresh profile, recording
// every request the page makes.
type site struct {
	t    testing.TB
	srv  *httptest.Server
	base string // URL of the page, ending in "/"
	ctx  context.Context
	// offline makes the server answer 503 and count the requests it gets.
	offline     atomic.Bool
	offlineHits atomic.Int64
	mu          sync.Mutex
	urls        []string
	cancels     []context.CancelFunc
	profile     string // Chromium's user-data directory
	handler     atomic.Pointer[siteHandler]
	// bareHost, when set, drops Cache-Control from every response and
	// dates it with its time, as a static host configured without
	// Cache-Control (what README's deploy advice once gave) sends a file's
	// Last-Modified.
	bareHost atomic.Pointer[time.Time]
}

func newSite(t testing.TB, dir, prefix string) *site {
	t.Helper()
	h, err := newSiteHandler(dir, prefix)
	if err != nil {
		t.Fatal(err)
	}
	s := &site{t: t}
	s.handler.Store(h)
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.offline.Load() {
			// The browser itself checks the service worker script for an
			// update on navigation (Service Workers spec, "Soft Update");
			// that is not the page calling the network.
			if !strings.HasSuffix(r.URL.Path, "/app-worker.js") {
				s.offlineHits.Add(1)
			}
			t.Logf("request while offline: %s", r.URL.Path)
			http.Error(w, "offline", http.StatusServiceUnavailable)
			return
		}
		if date := s.bareHost.Load(); date != nil {
			w = bareWriter{w, date.UTC().Format(http.TimeFormat)}
		}
		s.handler.Load().ServeHTTP(w, r)
	}))
	s.base = s.srv.URL + h.prefix
	// The profile directory is ours, not t.TempDir: testing removes a
	// TempDir before cleanups registered earlier run, so it would race a
	// Chromium that is still writing its cache. close stops Chromium first,
	// then removes the profile.
	profile, err := os.MkdirTemp("", "rightsize-chrome-")
	if err != nil {
		t.Fatal(err)
	}
	s.profile = profile
	t.Cleanup(s.close)

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.UserDataDir(profile),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.WindowSize(1280, 900),
	)
	if p := os.Getenv("RIGHTSIZE_CHROME"); p != "" {
		opts = append(opts, chromedp.ExecPath(p))
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	s.ctx = ctx
	s.cancels = []context.CancelFunc{cancelT, cancelC, cancelA}
	chromedp.ListenTarget(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			s.mu.Lock()
			s.urls = append(s.urls, e.Request.URL)
			s.mu.Unlock()
		}
	})
	if err := chromedp.Run(ctx, network.Enable()); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return s
}

func (s *site) close() {
	for _, c := range s.cancels {
		c()
	}
	s.srv.Close()
	// Chromium's helper processes can outlive the main one by a moment and
	// still write to the profile: retry, and only log if it stays.
	var err error
	for i := 0; i < 20; i++ {
		if err = os.RemoveAll(s.profile); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.t.Logf("leaving Chromium profile %s: %v", s.profile, err)
}

// do runs browser actions or fails the test.
func (s *site) do(what string, steps ...chromedp.Action) {
	s.t.Helper()
	if err := chromedp.Run(s.ctx, steps...); err != nil {
		s.t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression and returns its string result.
func (s *site) eval(expr string) string {
	s.t.Helper()
	var v string
	err := chromedp.Run(s.ctx, chromedp.Evaluate(expr, &v, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
		return p.WithAwaitPromise(true)
	}))
	if err != nil {
		s.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitLive waits until the WebAssembly app has taken over the prerendered
// page and rendered all of it: the calculator marks its root with rs-live
// in OnMount (the first screen answers input) and rs-complete once the
// sections below it are rendered too.
func (s *site) waitLive() {
	s.t.Helper()
	s.do("waiting for the app to start", chromedp.WaitVisible("main.rs-live.rs-complete", chromedp.ByQuery))
}

// waitInteractive waits for the first screen to answer input.
func (s *site) waitInteractive() {
	s.t.Helper()
	s.do("waiting for the app to start", chromedp.WaitVisible("main.rs-live", chromedp.ByQuery))
}

func (s *site) text(sel string) string {
	s.t.Helper()
	var v string
	if err := chromedp.Run(s.ctx, chromedp.Text(sel, &v, chromedp.ByQuery)); err != nil {
		s.t.Fatalf("text of %s: %v", sel, err)
	}
	return v
}

// setField sets a <select> or text input to value and fires "change", as a
// user's pick, or leaving an edited field, does.
func (s *site) setField(id, value string) {
	s.t.Helper()
	s.eval(`(() => { const e = document.getElementById(` + jsString(id) + `);
		e.value = ` + jsString(value) + `; e.dispatchEvent(new Event("change", {bubbles: true})); return e.value; })()`)
}

// openSection opens folded sections by their names (a click on the
// name, as a user opens one) and waits for their bodies; an open one
// stays open.
//
// chromedp clicks at the point where it found the name. A section that
// moves between the two gets no click: the page's first plan of a link's
// view still changes the height of what is above the sections (its speed
// box has no last plan to keep), so the click waits for the plan. A
// section still closed 4 s after a click is clicked again, at most
// twice, and the retry is logged; one that never opens fails below.
func (s *site) openSection(keys ...string) {
	s.t.Helper()
	s.do("waiting for the plan before a click", chromedp.WaitNotPresent(`.rs-plan-pending`, chromedp.ByQuery))
	for _, k := range keys {
		sel := "#rs-fold-" + k
		s.do("finding the "+k+" section", chromedp.WaitVisible(sel+" > summary", chromedp.ByQuery))
		for try := 0; try < 3; try++ {
			if s.eval(`String(document.querySelector(`+jsString(sel)+`).open)`) != "true" {
				if try > 0 {
					s.t.Logf("the %s section was still closed 4 s after a click: clicking again", k)
				}
				s.do("opening the "+k+" section", chromedp.Click(sel+" > summary", chromedp.ByQuery))
			}
			if s.eval(`new Promise(r => { const t0 = performance.now(); const f = () => {
				const d = document.querySelector(`+jsString(sel)+`);
				if (d && d.open && d.children.length > 1) r("open"); else if (performance.now() - t0 > 4000) r("closed"); else setTimeout(f, 50); }; f(); })`) == "open" {
				break
			}
		}
		s.do("waiting for the "+k+" section", chromedp.WaitVisible(sel+"[open] > :nth-child(2)", chromedp.ByQuery))
	}
}

// waitHash polls until the URL fragment holds every part (the page writes
// it once input pauses) and returns it; the caller reports a miss.
func (s *site) waitHash(parts ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		h := s.eval(`location.hash`)
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(h, p)
		}
		if ok || time.Now().After(deadline) {
			return h
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitText polls until the element's text differs from old.
func (s *site) waitTextChange(sel, old string) string {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if v := s.text(sel); v != old {
			return v
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("%s still reads %q", sel, old)
	return ""
}

func (s *site) screenshot(name string, width int64) {
	s.t.Helper()
	s.do("resizing", chromedp.EmulateViewport(width, 900))
	var png []byte
	if err := chromedp.Run(s.ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		s.t.Fatalf("screenshot: %v", err)
	}
	p := filepath.Join(artifactDir(s.t), name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		s.t.Fatal(err)
	}
	s.t.Logf("screenshot: %s", p)
}

// checkSameOrigin fails on any request that left the site's origin.
func (s *site) checkSameOrigin() {
	s.t.Helper()
	origin, _ := url.Parse(s.srv.URL)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.urls) == 0 {
		s.t.Fatal("no request recorded: the request log is broken")
	}
	for _, raw := range s.urls {
		u, err := url.Parse(raw)
		if err != nil {
			s.t.Errorf("unparsable request URL %q", raw)
			continue
		}
		if u.Scheme == "data" || u.Scheme == "blob" {
			continue
		}
		if u.Host != origin.Host || u.Scheme != origin.Scheme {
			s.t.Errorf("request to another origin: %s", raw)
		}
	}
}

// networkConditions are the parameters of CDP's
// Network.emulateNetworkConditions, which Chromium 148 and 156 support and cdproto no
// longer wraps.
type networkConditions struct {
	Offline            bool    `json:"offline"`
	Latency            float64 `json:"latency"`
	DownloadThroughput float64 `json:"downloadThroughput"`
	UploadThroughput   float64 `json:"uploadThroughput"`
}

func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func TestE2ESlice(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	s := newSite(t, dir, "/")

	// Cold load: the prerendered page is replaced by the running app.
	start := time.Now()
	s.do("loading the page", chromedp.Navigate(s.base))
	s.waitLive()
	t.Logf("cold load to interactive: %v", time.Since(start).Round(time.Millisecond))
	before := s.text("#rs-weights")
	if !strings.HasSuffix(before, " GiB") {
		t.Fatalf("weights reads %q, want a GiB figure", before)
	}
	s.screenshot("slice-desktop.png", 1280)
	s.screenshot("slice-360.png", 360)

	// Changing the model changes the number and the shareable fragment.
	s.setField("rs-model", "qwen2.5-7b")
	after := s.waitTextChange("#rs-weights", before)
	if hash := s.waitHash("m=qwen2.5-7b"); !strings.Contains(hash, "m=qwen2.5-7b") {
		t.Errorf("location.hash = %q after choosing qwen2.5-7b", hash)
	}
	t.Logf("llama-3.1-8b bf16: %s; qwen2.5-7b bf16: %s", before, after)
	// The speed-and-cost summary is computed in the page too.
	if v := s.text("#rs-ttft"); !strings.HasSuffix(v, " ms") && !strings.HasSuffix(v, " s") {
		t.Errorf("time to first token reads %q", v)
	}
	s.waitPlan()
	if v := s.text("#rs-cheapest"); !strings.HasPrefix(v, "$") {
		t.Errorf("cheapest cost per 1M tokens reads %q", v)
	}

	// A link with a fragment reopens the same view.
	s.do("opening a shared link", chromedp.Navigate(s.base+"#m=mistral-7b-v0.1&p=int4"))
	s.do("reloading", chromedp.Reload())
	s.waitLive()
	if v := s.eval(`document.getElementById("rs-model").value`); v != "mistral-7b-v0.1" {
		t.Errorf("model select = %q after opening #m=mistral-7b-v0.1", v)
	}
	if v := s.eval(`document.getElementById("rs-precision").value`); v != "int4" {
		t.Errorf("precision select = %q after opening #p=int4", v)
	}
	shared := s.text("#rs-weights")
	if shared == before || shared == after {
		t.Errorf("shared link shows %q, same as another model", shared)
	}

	// Offline: once the service worker has cached the site, a reload with the
	// network cut and the server gone still gives a working page.
	s.waitCached()
	// A price sheet picked from disk replaces a catalog price in the offers
	// table; it is kept in localStorage, so the offline reload below still
	// shows it.
	sheet := filepath.Join(t.TempDir(), "negotiated.csv")
	if err := os.WriteFile(sheet, []byte("offer_id,on_demand_per_hour,spot_per_hour,currency,as_of,source\n"+
		"runpod-1x_h100-sxm_secure,0.99,0.89,USD,2026-11-01,our RunPod quote\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.openSection("prices", "offers")
	s.do("loading a price sheet", chromedp.SetUploadFiles("#rs-prices-file", []string{sheet}, chromedp.ByQuery),
		chromedp.WaitVisible("#rs-prices-status, #rs-prices-file-error", chromedp.ByQuery))
	if msg := s.eval(`(document.getElementById("rs-prices-file-error") || {}).textContent || ""`); msg != "" {
		t.Fatalf("price sheet refused: %s", msg)
	}
	// The offers are ranked by the planner's cost: wait for its answer at the new price.
	s.waitPlan()
	if tbl := s.text("#rs-offers"); !strings.Contains(tbl, "$0.99") || !strings.Contains(tbl, "your price") {
		t.Errorf("offers table after the sheet lacks the $0.99 price or its mark:\n%s", tbl)
	}
	s.screenshot("prices-desktop.png", 1280)

	s.srv.CloseClientConnections()
	s.do("going offline", chromedp.ActionFunc(func(ctx context.Context) error {
		return cdp.Execute(ctx, "Network.emulateNetworkConditions",
			networkConditions{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}, nil)
	}))
	s.offline.Store(true)
	s.do("reloading offline", chromedp.Navigate(s.base+"#m=llama-3.1-8b&p=fp32"), chromedp.Reload())
	s.waitLive()
	if v := s.eval(`document.getElementById("rs-precision").value`); v != "fp32" {
		t.Errorf("offline: precision = %q, want fp32", v)
	}
	fp32 := s.text("#rs-weights")
	s.setField("rs-precision", "bf16")
	if v := s.waitTextChange("#rs-weights", fp32); v != before {
		t.Errorf("offline: llama-3.1-8b bf16 reads %q, online it read %q", v, before)
	}
	s.openSection("offers")
	s.waitPlan()
	if tbl := s.text("#rs-offers"); !strings.Contains(tbl, "$0.99") {
		t.Errorf("offline reload lost the loaded price sheet")
	}
	if n := s.offlineHits.Load(); n != 0 {
		t.Errorf("the page sent %d requests to the server while offline", n)
	}
	s.screenshot("slice-offline.png", 1280)
	s.checkSameOrigin()
}

// TestE2EInteractions drives the calculator as a user would: bad input in a
// field, a fix, picking GPUs by clicking rows of the fit table before and
// after the table is re-rendered, and the language switch.
func TestE2EInteractions(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	s := newSite(t, dir, "/")
	s.do("loading the page", chromedp.Navigate(s.base))
	s.waitLive()

	// Every option is there, with the choice kept.
	if n, _ := strconv.Atoi(s.count("#rs-model option")); n < 90 {
		t.Errorf("the model list holds %d options on the complete page", n)
	}
	if n, _ := strconv.Atoi(s.count("#rs-gpu option")); n < 50 {
		t.Errorf("the GPU list holds %d options on the complete page", n)
	}
	if v := s.eval(`document.getElementById("rs-model").value`); v != "llama-3.1-8b" {
		t.Errorf("model after the options arrived: %q", v)
	}
	// A number's basis fold is built when opened: the formula, the band
	// and how to verify it, with the accuracy link.
	if n := s.count(".rs-result details.rs-basis dd"); n != "0" {
		t.Errorf("closed basis folds already hold %s facts", n)
	}
	s.do("opening the weights' basis", chromedp.Click(".rs-breakdown tbody tr:first-child details.rs-basis summary", chromedp.ByQuery))
	s.do("waiting for its facts", chromedp.WaitVisible(".rs-breakdown tbody tr:first-child details.rs-basis dd", chromedp.ByQuery))
	if v := s.text(".rs-breakdown tbody tr:first-child details.rs-basis dl"); !strings.Contains(v, "parameters") {
		t.Errorf("the weights' basis reads %q", v)
	}
	if s.count(".rs-breakdown tbody tr:first-child details.rs-basis a.rs-accuracy") != "1" {
		t.Error("the opened basis has no accuracy link")
	}
	s.screenshot("basis-open.png", 1280)

	// Bad input: a message next to the field, no result, no crash.
	s.setField("rs-batch", "abc")
	s.do("waiting for the batch error", chromedp.WaitVisible("#rs-batch-error", chromedp.ByQuery))
	if msg := s.text("#rs-batch-error"); !strings.Contains(msg, "not a number") {
		t.Errorf("batch error reads %q", msg)
	}
	if n := s.eval(`String(document.querySelectorAll("#rs-total").length)`); n != "0" {
		t.Errorf("a total is shown for batch=abc")
	}
	s.screenshot("bad-input.png", 1280)
	s.refuseThenFix("rs-batch", "0", "4")
	if n := s.eval(`String(document.querySelectorAll("#rs-batch-error").length)`); n != "0" {
		t.Errorf("the batch error stays after a valid value")
	}

	// Clicking a fit-table row picks that GPU.
	s.clickRow("rtx-4090")
	if v := s.eval(`document.getElementById("rs-gpu").value`); v != "rtx-4090" {
		t.Errorf("after clicking the RTX 4090 row the GPU is %q", v)
	}
	// Re-render every row (new task, other fit verdicts), then click again:
	// the handler must act on the row clicked, not on a stale one.
	s.setField("rs-task", "finetune")
	s.do("waiting for the optimizer field", chromedp.WaitVisible("#rs-optimizer", chromedp.ByQuery))
	s.clickRow("a100-80gb-sxm")
	if v := s.eval(`document.getElementById("rs-gpu").value`); v != "a100-80gb-sxm" {
		t.Errorf("after re-render, clicking the A100 80GB SXM row picked %q", v)
	}
	if h := s.waitHash("g=a100-80gb-sxm", "t=finetune"); !strings.Contains(h, "g=a100-80gb-sxm") || !strings.Contains(h, "t=finetune") {
		t.Errorf("fragment %q lacks the picked GPU and task", h)
	}
	// Re-sort the table by job cost: rows move, and a click still picks the
	// row's own GPU.
	s.openSection("fit")
	s.setField("rs-sort", "cost")
	s.waitPlan()
	s.clickRow("h100-sxm")
	if v := s.eval(`document.getElementById("rs-gpu").value`); v != "h100-sxm" {
		t.Errorf("after sorting by cost, clicking the H100 SXM row picked %q", v)
	}
	s.waitPlan()
	if first := s.eval(`document.querySelector("#rs-fit tbody tr").dataset.gpu`); first == "t4" || first == "" {
		t.Errorf("sorting by cost left %q first", first)
	}
	// Keyboard: focus a row and press Enter.
	s.fitRow("l40s")
	s.do("picking a GPU with the keyboard", chromedp.Focus(`#rs-fit tr[data-gpu="l40s"]`, chromedp.ByQuery),
		chromedp.KeyEvent("\r"), chromedp.WaitVisible(`#rs-fit tr[data-gpu="l40s"].rs-selected`, chromedp.ByQuery))
	if v := s.eval(`document.getElementById("rs-gpu").value`); v != "l40s" {
		t.Errorf("Enter on the L40S row picked %q", v)
	}
	s.setField("rs-sort", "vram")
	s.clickRow("a100-80gb-sxm")
	s.screenshot("finetune-desktop.png", 1280)
	// The fine-tune's own boxes, which the inference form's output tokens
	// and requests stood in before the task changed, show the job's empty
	// values, not the old text.
	for _, id := range []string{"rs-global-batch", "rs-dataset-tokens", "rs-epochs"} {
		if v := s.eval(`document.getElementById("` + id + `").value`); v != "" {
			t.Errorf("after the task changed to fine-tune, #%s shows %q; the job holds none", id, v)
		}
	}

	// A measured overhead replaces the estimate's line; the box it lives in
	// stays open while the user edits, and a size without a unit is refused
	// next to the field.
	s.do("opening the overheads box", chromedp.Click("#rs-overrides summary", chromedp.ByQuery),
		chromedp.WaitVisible("#rs-cuda-context", chromedp.ByQuery))
	s.setField("rs-cuda-context", "3GiB")
	if v := s.waitTextChange("#rs-cuda", "0.49 GiB"); v != "3.00 GiB" {
		t.Errorf("CUDA context line reads %q after entering 3GiB", v)
	}
	if h := s.waitHash("oc=3GiB"); !strings.Contains(h, "oc=3GiB") {
		t.Errorf("fragment %q lacks the override", h)
	}
	s.refuseThenFix("rs-cuda-context", "3", "")
	if open := s.eval(`String(document.getElementById("rs-overrides").open)`); open != "true" {
		t.Errorf("the overheads box folded while the user was editing it")
	}
	s.screenshot("overrides-desktop.png", 1280)

	// Copy link: the clipboard takes the URL, or (where the browser refuses
	// the clipboard) the URL is shown to copy by hand; either way it is the
	// link that reopens this state.
	s.do("copying the link", chromedp.Click("#rs-copy-link", chromedp.ByQuery),
		chromedp.WaitVisible("#rs-link-copied, #rs-share-url", chromedp.ByQuery))
	if u := s.eval(`(document.getElementById("rs-share-url") || {value: location.href}).value`); !strings.Contains(u, "t=finetune") || !strings.Contains(u, "#") {
		t.Errorf("shared link %q does not carry the state", u)
	}

	// A model that is not in the catalog: its config.json picked from disk
	// becomes the selected model.
	cfg, err := filepath.Abs("../../estimator/testdata/configs/qwen2.5-7b.json")
	if err != nil {
		t.Fatal(err)
	}
	s.openSection("model")
	s.do("loading a config.json", chromedp.SetUploadFiles("#rs-config-file", []string{cfg}, chromedp.ByQuery),
		chromedp.WaitVisible("//dd[contains(., '7,615,616,512')] | //p[@id='rs-config-file-error']", chromedp.BySearch))
	if v := s.eval(`document.getElementById("rs-model").value`); v != "custom" {
		t.Errorf("after loading a config.json the model is %q: %s", v, s.eval(`(document.getElementById("rs-config-file-error") || {}).textContent || ""`))
	}

	// Language switch.
	s.setField("rs-lang", "zh")
	s.do("waiting for Chinese", chromedp.WaitVisible("//h2[contains(., '每张 GPU 的显存')]", chromedp.BySearch))
	if l := s.eval(`document.documentElement.lang`); l != "zh" {
		t.Errorf("html lang = %q after choosing Chinese", l)
	}
	s.waitPlan()
	s.screenshot("zh-360.png", 360)
	s.checkSameOrigin()
}

// publish serves the build in dir from now on, as a deploy replaces the
// site under a visitor whose worker cached the old one, and revisits
// until the update banner shows.
func (s *site) publish(dir string) {
	s.t.Helper()
	h, err := newSiteHandler(dir, "/")
	if err != nil {
		s.t.Fatal(err)
	}
	s.handler.Store(h)
	s.do("revisiting after a new build is published", chromedp.Reload())
	s.waitLive()
	s.do("waiting for the update banner", chromedp.WaitVisible("#rs-update", chromedp.ByQuery))
}

// waitCached waits until the service worker controls the page and has
// app.wasm in its cache. go-app's worker fills its cache without
// event.waitUntil, so wait for the cache itself rather than for the
// worker's state.
func (s *site) waitCached() {
	s.t.Helper()
	s.eval(`navigator.serviceWorker.ready.then(() => "ready")`)
	cached := s.eval(`(async () => {
		for (let i = 0; i < 400; i++) {
			if (navigator.serviceWorker.controller && await caches.match(` + jsString(s.base+"web/app.wasm") + `)) return "cached";
			await new Promise(r => setTimeout(r, 50));
		}
		return "not cached";
	})()`)
	if cached != "cached" {
		s.t.Fatalf("service worker: app.wasm %s after 20 s", cached)
	}
}

// TestE2EUpdate publishes a new build while a visitor has the old one
// cached: the next visit shows a reload banner (the worker fetched the new
// version), and reloading runs the new version.
func TestE2EUpdate(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	next := distDir(t, "RIGHTSIZE_DIST_NEXT")
	s := newSite(t, dir, "/")
	s.do("loading the page", chromedp.Navigate(s.base))
	s.waitLive()
	s.waitCached()
	s.publish(next)
	s.screenshot("update-banner.png", 1280)
	s.do("reloading into the new build", chromedp.Click("#rs-update button", chromedp.ByQuery))
	s.waitLive()
	if n := s.eval(`String(document.querySelectorAll("#rs-update").length)`); n != "0" {
		t.Error("the update banner is still shown after reloading into the new build")
	}
	if v := s.eval(`fetch("web/next.txt").then(r => r.ok ? "new" : "old")`); v != "new" {
		t.Errorf("after the reload the page still runs the old build (%s)", v)
	}
}

// refuseThenFix enters a bad value, waits for its message next to the
// field, then enters a good one and waits for the result to come back.
func (s *site) refuseThenFix(id, bad, good string) {
	s.t.Helper()
	s.setField(id, bad)
	s.do("waiting for the error on "+id, chromedp.WaitVisible("#"+id+"-error", chromedp.ByQuery))
	s.setField(id, good)
	s.do("waiting for the result", chromedp.WaitVisible("#rs-total", chromedp.ByQuery))
}

// fitRow opens the fit table with gpu's row on it: the table shows its
// best rows, and "Show all" the others.
func (s *site) fitRow(gpu string) {
	s.t.Helper()
	s.openSection("fit")
	sel := `#rs-fit tr[data-gpu="` + gpu + `"]`
	if s.eval(`document.querySelector(`+jsString(sel)+`) ? "shown" : ""`) == "" {
		s.do("showing every GPU", chromedp.Click("#rs-more-fit", chromedp.ByQuery), chromedp.WaitVisible(sel, chromedp.ByQuery))
	}
}

// clickRow clicks the fit-table row of a GPU and waits for it to be selected.
func (s *site) clickRow(gpu string) {
	s.t.Helper()
	s.fitRow(gpu)
	sel := `#rs-fit tr[data-gpu="` + gpu + `"]`
	// The planner's answer arrives a moment after an input change and
	// rewrites the rows' costs; a click aimed before it lands may hit a
	// row that has moved, so wait for it as a user sees it settle.
	s.do("waiting for the plan before clicking", chromedp.WaitNotPresent(`.rs-plan-pending`, chromedp.ByQuery))
	s.do("clicking "+gpu, chromedp.ScrollIntoView(sel, chromedp.ByQuery), chromedp.Click(sel, chromedp.ByQuery),
		chromedp.WaitVisible(sel+`.rs-selected`, chromedp.ByQuery))
}

// TestE2ESubPath serves a build made with -prefix under that prefix, as a
// docs site hosting Rightsize at /tools/rightsize/ would.
func TestE2ESubPath(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST_SUB")
	prefix := os.Getenv("RIGHTSIZE_DIST_SUB_PREFIX")
	if prefix == "" {
		t.Fatal("RIGHTSIZE_DIST_SUB_PREFIX not set")
	}
	s := newSite(t, dir, prefix)
	s.do("loading the page", chromedp.Navigate(s.base+"#m=qwen2.5-7b&p=fp16"))
	s.waitLive()
	if v := s.eval(`document.getElementById("rs-model").value`); v != "qwen2.5-7b" {
		t.Errorf("model = %q under %s", v, prefix)
	}
	s.mu.Lock()
	for _, u := range s.urls {
		if p, _ := url.Parse(u); p != nil && !strings.HasPrefix(p.Path, strings.TrimSuffix(prefix, "/")) {
			t.Errorf("request outside the prefix %s: %s", prefix, u)
		}
	}
	s.mu.Unlock()
	s.checkSameOrigin()
}

// TestWasmBrotliBudget keeps app.wasm small on the wire: go-app's hello
// world built the same way is about 1.40 MB brotli; the rest of the budget
// is for Rightsize's code and data, not for accidental imports. It
// reports the three sizes.
//
// The goal is 1,600,000 bytes; the budget enforced is the measured size
// plus 1%, so that nothing grows unnoticed: a few hundred bytes of new code
// move the brotli size by up to 0.5%. Against hello, Rightsize adds about
// 230 KB of brotli code and 250 KB of data (type and function tables, the
// catalog, the three languages). Measured growth since 1,868,385 B
// (2026-11-25): the serving simulator the planner sizes fleets with
// (estimator/sim, +45 KB: the page plans serving as the CLI does), the
// 2026-11-26 catalog import (+10 KB), the page naming every figure's plan,
// typed planner messages and price freshness (+25 KB); 1,941,221 B then.
// Since (2026-11-26): weight-only kernels, host classes from the
// instance's CPU, engine releases, fine-tuning peaks and vision towers in
// the estimator (+50 KB), the daily fleet on the page (estimator/plan's
// PlanFleet, mixed fleets and presets +27 KB, its box and chart +11 KB);
// 2,043,019 B measured; then the "Run it" box and its generator
// (catalog/launch) with the training-scale and context-parallel terms
// (+40 KB): 2,083,326 B; then the page's new fields (kernel, engine
// release, host, CP, EP, DP, dataset × epochs, the rate line): 2,101,174 B,
// so the budget was 2,122,200 B; then the answer an expert signs and the
// hand-offs that run (estimator.SupportFor, the planner's sub-plans for
// substituted weights and rental layouts, MakeItFit, Widen, launch
// quoting, names checked at every entrance, multi-node and ROCm launches,
// their EN/RU/ZH messages: +147 KB raw, +16.4 KB brotli): 2,133,141 B,
// so the budget was 2,150,000 B; then the page as one view (page.BuildView,
// leaf sections, folded sections with their state in the link: +11.7 KB
// brotli), rental memory layouts and the launch's semantic check (+4.9
// KB), GEMM efficiency by shape (+5.7 KB), fine-tune memory mechanisms
// (FSDP no_sync, adapter dropout, 4-bit heads: +10.0 KB) and the
// simulator's speed-ups (−4.7 KB): 2,166,375 B, so the budget was
// 2,185,000 B; then the component's render code moved to values in
// app/page (the form, job line, serving section, comparisons and launch
// box as page views and leaves: −3.1 KB), the merged estimator work
// (training stages, redundant experts, MLA's absorbed decode, the first
// wave, GB300, FP8 checkpoints and their messages) and the planner's
// disaggregated alternative, which links estimator.DisaggServing into
// the page (+10.7 KB alone): 2,189,208 B, so the budget is 2,198,000 B;
// then the engine table, memoised field choices and stack-buffered
// figures, and the disaggregated launch in the Run it box (SGLang PD's
// three scripts, catalog/launch's EmitDisagg): 2,191,694 B; the cost
// chart's two-point rule and a ten-line revert in app/ then read
// 2,199,067 B (+7.4 KB brotli for a few hundred raw bytes, the noise
// noted below), so the budget was 2,206,000 B; then the page's tables
// laid out in app/page (page.Table, one renderer for seven tables) and
// the link, select-option and file bookkeeping moved there: raw −58 KB,
// brotli +8.6 KB (the noise again): 2,206,943 B, so the budget was
// 2,215,000 B; then one job parser for both doors (page.ParseInput and
// ParsePlan carry the command line's English reasons: +40 KB raw, +24.6
// KB brotli), every section, box and chart as page.Node trees drawn by one
// renderer (−298 KB raw, −24 KB brotli) and the input's view built ahead
// (+5.6 KB raw): 2,189,330 B, so the budget was 2,205,000 B; then the
// catalog and the launch emitters built without inlining (−14 KB):
// 2,185,709 B, so the budget is 2,196,000 B. Since: what runs where by
// model (SupportForJob), wide expert parallelism at SGLang's recipe share
// in the planner and its disaggregated workers, broker offers' readable
// names, the no-CUDA-graphs and pre-quantized launch settings, sections
// shown by job, vendor runtime names and out-of-range messages with their
// ranges in the page's language (+24 KB raw, +15 KB brotli: 2,200,624 B),
// and estimator/plan built without inlining too (−10 KB brotli, +21 KB
// raw; BenchmarkPlan unchanged within its noise): 2,190,518 B. Then three
// audits' fixes of what an expert would not sign (about 50 on the page and
// in the launch settings the page hands over: cost ties won by the faster
// plan, the job line's bounds, plurals and dates in the page's language,
// the speed box of encoders and generic models, checkpoint formats in
// links, LoRA/QLoRA and spot-checkpoint launch settings, phone tables as
// cards; +30 KB raw code, app/page +14 KB, catalog/launch +8 KB,
// estimator/plan +6 KB): 2,188,897–2,198,827 B over this stop's builds (the
// noise below), so the budget was 2,206,000 B. Then six more audits'
// fixes: prices whose own record leaves them open (a field on every offer,
// their flags and reasons in EN/RU/ZH), the training stack each layout
// runs on and its notes, scaled-out training fleets, start-up in batch and
// training jobs, whole-month billing, the fit table's best rows and "Show
// all" in the link, the read-only embed view and the chart's tap (+84 KB
// raw): 2,211,308 B, so the budget was 2,218,000 B. Then nine more
// audits' fixes: the fastest pick's tie within the estimate's error and
// its sentences, billed hours by the provider's unit, the user's own
// prices (their ties, currencies and exchange-rate line, host columns,
// own offers that cannot run the job and why), the YaRN refusal, one
// block-FP8 rule with its warning, names with one bracket, the fit
// table's passed-over reasons, the launch's checkpoint formats, and page
// audit 5's units, field names and Chinese punctuation, in EN/RU/ZH
// (+112 KB raw, 12,273,645 → 12,385,635 B): 2,231,258 B, so the budget was
// 2,240,000 B. Then eight more fixes of answers and launches: the fastest
// pick's tie per kind of job, encoder and batch jobs planned as they run
// (vLLM for a decoder's batch, its replicas scaled out), training layouts
// the planner picks kept out of the memory estimate's error, the user's own
// rows kept past empty filter columns and own offers that need more GPUs
// saying how many, billing minimums as data, SGLang's DeepEP inside one node
// with its reserve and its refusals by architecture, shared experts placed
// as the engines place them, and the launch checks behind them (+78 KB raw,
// 12,385,635 → 12,463,846 B; code: estimator/plan +30 KB, estimator +7 KB,
// app/page +4 KB, catalog/launch +3 KB): 2,246,587 B, so the budget was
// 2,252,000 B. Then the engine on auto at both doors (one resolver for
// the estimate, the page and the planner, its reason in EN/RU/ZH), each
// side of a disaggregated plan its own layout and what bound its count,
// the planner's yields inside an offer's row, SGLang's prompt rate by GPU
// generation, recipe settings written by the launches, an empty plan's
// cause and the engines that run the job (+85 KB raw, 12,463,846 →
// 12,548,486 B): 2,256,186 B, so the budget was 2,264,000 B. Then the
// request rate and Lightning's precision names in the one parser, the
// latency floor of an empty plan, the closed-loop benchmark's cold first
// wave, launches that run pure bf16 as priced and check every environment
// value, vLLM workers over two instances, the decode side's sequence cap,
// serving copies kept to NVLink nodes and RDMA networks, the user's own
// providers and the spot spare of a disaggregated pool (+131 KB raw,
// 12,548,486 → 12,679,060 B; code: estimator/plan +23 KB, catalog/launch
// +15 KB, app/page +10 KB, estimator +2 KB): 2,276,308 B, so the budget
// was 2,280,000 B (the tree read 2,282,033 B, 12,689,791 raw, by then).
// Then cuts with no change of behaviour (2026-11-30): the planner's last
// two stable sorts of structs through estimator.SortStable (−19.5 KB raw,
// −5.5 KB brotli), the catalog's four lookups as one search over indexes
// instead of a search and a binary search compiled per record type, the
// own providers placed without slices.Insert, and the provenance fields
// only "rightsize catalog validate" reads (ECC memory, weight sizes, RoPE
// scaling, billing minimums) generated into the native-only file with the
// Notes (source.NativeOnly; −34.3 KB raw, −9.4 KB brotli): 2,267,156 B
// (12,635,986 raw; go-app's hello world built the same way: 1,404,417 B,
// so 1.61× it, 1.62× before), so the budget was 2,272,000 B. Then the
// same day's answers and hand-offs: Gemma 2/3 where vLLM refuses fp16 and
// its quantised kernels, batch plans against hosted API prices, LitGPT's
// defaults for Lightning precisions, the global batch limit and the whole
// run at its goodput on the page, fixed layouts on bigger instances, the
// disaggregated spares, inert exports, and the page's yields by
// MessageChannel with replaced plans stopped (+94 KB raw, 12,635,986 →
// 12,729,950 B): 2,288,628 B (1.63× hello), so the budget was 2,294,000 B.
// Then (2026-11-30) LitGPT's launch and its layouts in the planner, LoRA
// on query and value, a default TTFT that grows with the prompt and what
// a longer one buys, training past the global batch (TP, PP, CP) and an
// assumed pre-training run length, AWS China priced per region (18 → 43
// offers), commitments named beside on-demand serving, vLLM's offline
// batch launch and instruction-tuned checkpoints, a fleet's spot mix
// weighed against a second spare (+179 KB raw, 12,729,950 → 12,908,746
// B; code: catalog/launch +28 KB, estimator/plan +27 KB, app/page +25 KB,
// rightsize/app +7 KB, estimator +5 KB; offers.json +22 KB):
// 2,317,154 B (1.65× hello), so the budget was 2,322,000 B. Then
// (2026-11-30) the plan applied as a whole (its offer's instance, network
// and slice, precision and KV dtype, offload, memory share, CP/DP/EP:
// planner.OnOffer shared with the page), GB200 NVL72 racks as one NVLink
// domain billed by the rack (rental units), rack workers with redundant
// experts and the launches that write them, the instance limit's cheaper
// offer, the hosted API's two break-even rates, requests past the card's
// context, the raised default batch, exports' price-date bounds, and the
// page audit's fixes, in EN/RU/ZH (+175 KB raw, 12,966,403 → 13,141,380
// B; code: estimator/plan +26 KB, catalog/launch +20 KB, app/page +18 KB,
// estimator +5 KB): 2,344,725 B (1.67× hello), so the budget is
// 2,352,000 B. Then (2026-11-30) the adapter dtype field and its labels,
// FP8 Marlin warnings and new plan sentences in EN/RU/ZH (+34 KB raw):
// 2,354,491 B (13,213,851 raw), over it; cuts with no change of behaviour
// (an empty plan's refusal counts sorted through estimator.SortStable, and
// a GPU's and a provider's Source and URL generated native-only by record
// type, source.NativeOnlyOf: −26.1 KB raw, −11.3 KB brotli) brought it to
// 2,343,201 B (13,187,706 raw). Then (2026-12-01) FSDP's root unit and
// the backward's start for every sharded fine-tune, the FSDP2 stack input
// and its Accelerate config, and the disaggregated estimate naming the
// memory share that leaves a worker no KV cache (+5.1 KB of code, 7.5 KB
// raw): 2,352,937 B in one build and 2,356,372 B in the next with 1.6 KB
// less raw code, over it; the budget is 2,362,000 B, 0.4% more, with
// room for that jitter. (2026-12-02: the low-latency exchange's cap at
// 128 tokens a rank, +0.9 KB raw, read 2,363,298 B with its figure kept
// in a new field of the step model and 2,361,315 B computed where it is
// used, the same code otherwise: the jitter again.) Then (2026-12-02)
// SGLang's CUDA-graph cap (a page field in EN/RU/ZH, the eager decode
// step priced past it, the launch covering the plan's batch; +7.5 KB raw,
// 13,298,311 → 13,305,765 B, after folding the eager branches into the
// one step function saved 2 KB): 2,365,690 B, so the budget is
// 2,370,000 B.
// A planner in a worker of its
// own would take 155 KB (plan, launch, simulator; measured by cutting
// their entry points: 2,051,878 B against 2,206,923 B by the same brotli
// settings), and everything but the go-app shell 464 KB (1,743,116 B,
// 1.24× hello): the levers for the size target.
// By code bytes (raw): runtime 1.17 MB, rightsize/app 0.65 MB (go-app
// builders; 0.74 before the views moved), go-app 0.55 MB, app/page 0.44
// MB, estimator/plan 0.32 MB, estimator 0.32 MB, encoding/json 0.24 MB,
// the crypto and
// math/big that go-app's net/http links 0.6 MB, slices' sort
// instantiations 0.15 MB. Keeping catalog data and sources out of the wasm
// and fewer go-app builders are the levers left. Brotli's size of this file moves by several
// KB with changes that move the raw file by a few bytes: a 17-byte change
// of app.wasm moved its brotli size by +4,619 B (2026-11-26), and dropping
// a second sort instantiation (−23,475 raw bytes) moved it by −8,405 B; a
// change that crosses the budget by a few KB is worth a look at the raw
// size before it is blamed.
func TestWasmBrotliBudget(t *testing.T) {
	dir := distDir(t, "RIGHTSIZE_DIST")
	const budget = 2_370_000
	st, err := os.Stat(filepath.Join(dir, "web", "app.wasm.br"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > budget {
		t.Errorf("app.wasm.br is %d bytes, budget %d", st.Size(), budget)
	}
	raw, _ := os.Stat(filepath.Join(dir, "web", "app.wasm"))
	gz, _ := os.Stat(filepath.Join(dir, "web", "app.wasm.gz"))
	if raw != nil && gz != nil {
		t.Logf("app.wasm: raw %d, gzip %d, brotli %d bytes (budget %d)", raw.Size(), gz.Size(), st.Size(), budget)
	}
}

// startUpMarksJS is where a load's time went, from the page's own
// timings (ms since navigation): the HTML, the app.wasm fetch, the
// start-up marks and the long tasks, as JSON.
const startUpMarksJS = `(() => {
	const r = performance.getEntriesByType("resource").find(e => e.name.endsWith("app.wasm"));
	const m = Object.fromEntries(performance.getEntriesByType("mark").map(e => [e.name, Math.round(e.startTime)]));
	const n = performance.getEntriesByType("navigation")[0];
	return JSON.stringify({html: Math.round(n.responseEnd), domContentLoaded: Math.round(n.domContentLoadedEventEnd),
		wasmFetchStart: r && Math.round(r.startTime), wasmFetchEnd: r && Math.round(r.responseEnd), ...m, interactive: Math.round(performance.now()),
		longTasks: window.__longTasks});
})()`

// TestColdLoadTimes reports the median time from navigation to an
// interactive page, cold (a fresh browser profile: nothing cached) and
// warm (the same profile again: the service worker serves everything),
// for Rightsize and for go-app's hello world built and served the same way
// (RIGHTSIZE_HELLO_DIST), and their ratio. RIGHTSIZE_COLDLOAD=N rounds,
// set by make bench. It measures; it does not assert a time.
func TestColdLoadTimes(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("RIGHTSIZE_COLDLOAD"))
	if n <= 0 {
		t.Skip("RIGHTSIZE_COLDLOAD not set")
	}
	dir := distDir(t, "RIGHTSIZE_DIST")
	hello := os.Getenv("RIGHTSIZE_HELLO_DIST")
	// wait is what counts as interactive: for Rightsize the first screen
	// (answer, inputs, memory and speed) answering input, rs-live; the
	// whole page, rs-complete, is logged too.
	measure := func(dir string, wait func(*site)) (cold, warm time.Duration) {
		var colds, warms, completes []time.Duration
		for i := range n {
			s := newSite(t, dir, "/")
			s.do("starting the browser", chromedp.Navigate("about:blank"))
			if i == 0 {
				// The main thread's long tasks (start ms, duration ms): before
				// the page's first mark they are the module's compile and Go's
				// start; one runs from main to the first screen.
				s.do("watching long tasks", chromedp.ActionFunc(func(ctx context.Context) error {
					_, err := page.AddScriptToEvaluateOnNewDocument(`window.__longTasks = [];
						new PerformanceObserver(l => { for (const e of l.getEntries()) __longTasks.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({type: "longtask", buffered: true});`).Do(ctx)
					return err
				}))
			}
			start := time.Now()
			s.do("loading", chromedp.Navigate(s.base))
			wait(s)
			colds = append(colds, time.Since(start))
			if i == 0 {
				// Where the time went, from the page's own timings (ms since navigation).
				t.Logf("%s start-up: %s", filepath.Base(dir), s.eval(startUpMarksJS))
			}
			s.waitLive()
			completes = append(completes, time.Since(start))
			if i == 0 {
				if v := s.eval(`new Promise(r => { const f = () => { const m = performance.getEntriesByName("rightsize:planned"); if (m.length) r(String(Math.round(m[0].startTime))); else setTimeout(f, 50); }; f(); setTimeout(() => r("none"), 10000); })`); v != "none" {
					t.Logf("%s: the planner's answer on screen at %s ms", filepath.Base(dir), v)
					// The steps after the page answers input (the job's
					// first computation, the sections below the first
					// screen, the planner) and their long tasks.
					t.Logf("%s start-up, whole page: %s", filepath.Base(dir), s.eval(startUpMarksJS))
				}
			}
			s.waitCached()
			s.do("leaving", chromedp.Navigate("about:blank"))
			start = time.Now()
			s.do("loading again", chromedp.Navigate(s.base))
			wait(s)
			warms = append(warms, time.Since(start))
			if i == 0 {
				t.Logf("%s warm start-up: %s", filepath.Base(dir), s.eval(startUpMarksJS))
			}
			s.close()
		}
		slices.Sort(colds)
		slices.Sort(warms)
		slices.Sort(completes)
		t.Logf("%s: whole page rendered (cold) median %v", filepath.Base(filepath.Dir(dir+"/")), completes[n/2].Round(time.Millisecond))
		return colds[n/2], warms[n/2]
	}
	cold, warm := measure(dir, (*site).waitInteractive)
	t.Logf("Rightsize: cold load median of %d: %v, warm %v", n, cold.Round(time.Millisecond), warm.Round(time.Millisecond))
	if hello == "" {
		return
	}
	hc, hw := measure(hello, (*site).waitInteractive)
	t.Logf("go-app hello world: cold %v, warm %v", hc.Round(time.Millisecond), hw.Round(time.Millisecond))
	t.Logf("ratio to hello world: cold %.2f×, warm %.2f× (goal ≤ 1.2×)", float64(cold)/float64(hc), float64(warm)/float64(hw))
}
