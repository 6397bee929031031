package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCanonicalHTML(t *testing.T) {
	a, err := canonicalHTML([]byte(`<html><body><tr data-gpu="t4" class="rs-row"><td>x</td></tr><p id="b" class="a">&lt;ok&gt;</p></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := canonicalHTML([]byte(`<html><body><tr class="rs-row" data-gpu="t4"><td>x</td></tr><p class="a" id="b">&lt;ok&gt;</p></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatalf("attribute order leaks into the output:\n%s\n%s", a, b)
	}
	if !strings.Contains(string(a), `<p class="a" id="b">&lt;ok&gt;</p>`) {
		t.Errorf("unexpected rendering: %s", a)
	}
}

func TestCanonicalHTMLDropsHostlessOpenGraph(t *testing.T) {
	out, err := canonicalHTML([]byte(`<html><head><meta property="og:url" content="https://"/><meta property="og:image" content="https:///web/icon.png"/>` +
		`<meta property="og:title" content="Rightsize"/><meta property="og:url" content="https://docs.example.com/tools/rightsize/"/></head><body></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, want := range []string{`content="Rightsize"`, `content="https://docs.example.com/tools/rightsize/"`} {
		if !strings.Contains(got, want) {
			t.Errorf("lost %s: %s", want, got)
		}
	}
	if strings.Contains(got, `content="https://"`) || strings.Contains(got, "https:///") {
		t.Errorf("host-less og tags kept: %s", got)
	}
}

// TestBuildReproducible builds the site twice from the same inputs (a
// stand-in app.wasm: its bytes are copied, not run) and compares every file.
// It also checks the file list, the local icons and the precache list.
func TestBuildReproducible(t *testing.T) {
	wasm := filepath.Join(t.TempDir(), "app.wasm")
	if err := os.WriteFile(wasm, bytes.Repeat([]byte("\x00asm rightsize "), 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	build2 := func(prefix string) (string, map[string][]byte) {
		out := filepath.Join(t.TempDir(), "dist")
		if err := build(options{wasm: wasm, web: "../../web", out: out, prefix: prefix, accuracy: "../../docs/accuracy.md"}); err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{}
		err := walkFiles(out, func(rel string, data []byte) error { files[rel] = data; return nil })
		if err != nil {
			t.Fatal(err)
		}
		return out, files
	}
	_, a := build2("/")
	_, b := build2("/")
	if len(a) != len(b) {
		t.Fatalf("builds have %d and %d files", len(a), len(b))
	}
	var names []string
	for name, data := range a {
		names = append(names, name)
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two builds", name)
		}
	}
	slices.Sort(names)
	for _, want := range []string{"index.html", "index.html.br", "index.html.gz", "app.js", "app-worker.js", "wasm_exec.js",
		"manifest.webmanifest", "app.css", "web/app.wasm", "web/app.wasm.br", "web/app.wasm.gz", "web/icon-192.png",
		"web/icon-512.png", "web/icon.svg", "web/rightsize.css"} {
		if _, ok := a[want]; !ok {
			t.Errorf("dist lacks %s; has %v", want, names)
		}
	}
	for name, data := range a {
		if strings.HasSuffix(name, ".br") || strings.HasSuffix(name, ".gz") || strings.HasSuffix(name, ".png") || strings.HasSuffix(name, ".wasm") {
			continue
		}
		// XML namespaces (http://www.w3.org/...) are names, not requests.
		data = bytes.ReplaceAll(data, []byte("http://www.w3.org/"), nil)
		if bytes.Contains(data, []byte("githubusercontent")) || bytes.Contains(data, []byte("http://")) {
			t.Errorf("%s references another origin", name)
		}
	}
	worker := string(a["app-worker.js"])
	for _, u := range []string{`"/web/app.wasm"`, `"/"`, `"/web/rightsize.css"`, `"/web/icon.svg"`, `"/web/icon-192.png"`} {
		if !strings.Contains(worker, u) {
			t.Errorf("app-worker.js does not precache %s", u)
		}
	}
	if !strings.Contains(string(a["index.html"]), `id="rs-weights"`) {
		t.Error("index.html lacks the prerendered estimate")
	}
	if strings.Contains(string(a["index.html"]), `content="https://"`) {
		t.Error(`index.html keeps a host-less og:url or og:image ("https://")`)
	}

	// Under a sub-path every local URL carries the prefix.
	_, sub := build2("/tools/rightsize")
	if w := string(sub["app-worker.js"]); !strings.Contains(w, `"/tools/rightsize/web/app.wasm"`) {
		t.Errorf("sub-path worker does not precache the prefixed wasm")
	}
	if !strings.Contains(string(sub["index.html"]), `href="/tools/rightsize/web/rightsize.css"`) {
		t.Errorf("sub-path page does not link the prefixed stylesheet")
	}
}

// TestContentSecurityPolicy: the generated page carries a policy that
// allows its own origin only, and nothing in it needs an exception: no
// inline script, no inline style attribute, no URL of another origin.
func TestContentSecurityPolicy(t *testing.T) {
	out := buildStub(t)
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	head := html[strings.Index(html, "<head>"):]
	first := head[:strings.Index(head[len("<head>"):], ">")+len("<head>")+1]
	if !strings.Contains(first, `content="default-src &#39;self&#39;;`) || !strings.Contains(first, `http-equiv="Content-Security-Policy"`) {
		t.Fatalf("the Content-Security-Policy is not the first tag of <head>:\n%s", head[:min(len(head), 400)])
	}
	for _, bad := range []string{"'unsafe-inline'", "'unsafe-eval'", "*"} {
		if strings.Contains(csp, bad) {
			t.Errorf("the policy allows %s", bad)
		}
	}
	if strings.Contains(html, " style=") {
		t.Error("an inline style attribute: the policy refuses it")
	}
	for _, s := range strings.Split(html, "<script")[1:] {
		if !strings.Contains(s[:strings.Index(s, ">")], "src=") {
			t.Errorf("an inline script: <script%s", s[:min(len(s), 80)])
		}
	}
	for _, s := range []string{"http://", "https://"} {
		for _, rest := range strings.Split(html, s)[1:] {
			// og: tags name the site itself; anything else is another origin.
			if !strings.HasPrefix(rest, "www.w3.org/2000/svg") {
				t.Errorf("a URL of another origin: %s%s", s, rest[:min(len(rest), 60)])
			}
		}
	}
}

// The validation report becomes a static page with tables, precached.
func TestAccuracyPage(t *testing.T) {
	got := markdownHTML("# Speed\n\nError is *estimate* / `measured`.\n\n| group | n | median \\|error\\| |\n|---|---:|---:|\n| decode | 28 | 27.4% |\n")
	for _, want := range []string{"<h1>Speed</h1>", "<em>estimate</em>", "<code>measured</code>", "<th>median |error|</th>", "<td>27.4%</td>"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %s in\n%s", want, got)
		}
	}
	if strings.Contains(got, "---") {
		t.Errorf("the rule row was rendered:\n%s", got)
	}
}

// buildStub builds the site from a stub app.wasm into a temporary folder
// and returns the folder.
func buildStub(t *testing.T) string {
	t.Helper()
	wasm := filepath.Join(t.TempDir(), "app.wasm")
	if err := os.WriteFile(wasm, []byte("\x00asm"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "dist")
	if err := build(options{wasm: wasm, web: "../../web", out: out, prefix: "/", accuracy: "../../docs/accuracy.md"}); err != nil {
		t.Fatal(err)
	}
	return out
}

// cacheName reads the service worker's cache name from a built site.
func cacheName(t *testing.T, dir string) string {
	t.Helper()
	js, err := os.ReadFile(filepath.Join(dir, "app-worker.js"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(js), `const cacheName = "app-" + "`)
	name, _, ok2 := strings.Cut(rest, `"`)
	if !ok || !ok2 || name == "" {
		t.Fatalf("app-worker.js holds no cache name")
	}
	return name
}

// TestCacheNameFollowsEveryFile: the service worker's cache name is a hash
// of every file of the site, the generator's own output included (the
// prerendered page, go-app's loader, the manifest), not of the inputs
// alone: a build whose page changed while app.wasm, web/ and the accuracy
// report did not kept the previous name, and visitors kept the previous
// page. Identical trees give identical names, and the loader carries the
// name the worker does.
func TestCacheNameFollowsEveryFile(t *testing.T) {
	wasm := filepath.Join(t.TempDir(), "app.wasm")
	if err := os.WriteFile(wasm, []byte("\x00asm rightsize"), 0o644); err != nil {
		t.Fatal(err)
	}
	site := func(hello bool) string {
		out := filepath.Join(t.TempDir(), "dist")
		if err := build(options{wasm: wasm, web: "../../web", out: out, prefix: "/", accuracy: "../../docs/accuracy.md", hello: hello}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	// go-app's routes are global: every build registers its page again.
	a, other, again := site(false), site(true), site(false)
	nameA := cacheName(t, a)
	if len(nameA) != 16 || strings.Trim(nameA, "0123456789abcdef") != "" {
		t.Errorf("cache name %q is not 16 hex digits", nameA)
	}
	if n := cacheName(t, again); n != nameA {
		t.Errorf("two builds of one tree are named %q and %q", nameA, n)
	}
	pageA, _ := os.ReadFile(filepath.Join(a, "index.html"))
	pageOther, _ := os.ReadFile(filepath.Join(other, "index.html"))
	if bytes.Equal(pageA, pageOther) {
		t.Fatal("the two pages do not differ: the test builds nothing new")
	}
	if n := cacheName(t, other); n == nameA {
		t.Errorf("another page from the same app.wasm, web/ and report keeps the cache name %q", n)
	}
	loader, err := os.ReadFile(filepath.Join(a, "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(loader, []byte(`"GOAPP_VERSION":"`+nameA+`"`)) {
		t.Errorf("app.js does not carry the worker's version %q", nameA)
	}
	err = walkFiles(a, func(rel string, data []byte) error {
		if bytes.Contains(data, []byte(versionPlaceholder)) {
			t.Errorf("%s keeps the unstamped version", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTreeHashEveryByte: changing one byte of any one file, or a file's
// name, changes the hash of the tree; undoing the change restores it.
func TestTreeHashEveryByte(t *testing.T) {
	dir := buildStub(t)
	hash := func() string {
		t.Helper()
		h, err := treeHash(dir)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	base := hash()
	var names []string
	if err := walkFiles(dir, func(rel string, _ []byte) error { names = append(names, rel); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(names) < 20 {
		t.Fatalf("the stub site has %d files", len(names))
	}
	for _, rel := range names {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		changed := []byte{0}
		if len(data) > 0 {
			changed = bytes.Clone(data)
			changed[len(data)/2] ^= 1
		}
		if err := os.WriteFile(p, changed, 0o644); err != nil {
			t.Fatal(err)
		}
		if hash() == base {
			t.Errorf("a byte of %s changed and the hash did not", rel)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p, p+"~"); err != nil {
			t.Fatal(err)
		}
		if hash() == base {
			t.Errorf("%s renamed and the hash did not change", rel)
		}
		if err := os.Rename(p+"~", p); err != nil {
			t.Fatal(err)
		}
		if hash() != base {
			t.Fatalf("%s restored and the hash did not come back", rel)
		}
	}
}
