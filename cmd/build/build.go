package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
	goapp "github.com/maxence-charriere/go-app/v10/pkg/app"

	"rightsize/app"
)

type options struct {
	wasm, web, out, prefix string
	accuracy               string // docs/accuracy.md, rendered to accuracy.html
	hello                  bool
}

// helloPage is go-app's hello world, the baseline make bench measures
// Rightsize against (its wasm main: cmd/serve/testdata/hello).
type helloPage struct {
	goapp.Compo
}

func (h *helloPage) Render() goapp.UI {
	return goapp.Main().Class("rs-page").Body(goapp.H1().Text("Hello"))
}

// compressible lists the extensions that get .br and .gz siblings. PNG is
// already compressed.
var compressible = []string{".html", ".js", ".css", ".wasm", ".webmanifest", ".svg", ".json", ".txt"}

func build(o options) error {
	prefix := "/" + strings.Trim(o.prefix, "/")
	wasm, err := os.ReadFile(o.wasm)
	if err != nil {
		return err
	}
	h := handler(versionPlaceholder, prefix, len(wasm))
	if o.hello {
		h.CacheableResources = []string{"/web/icon.svg"}
	}

	if err := os.RemoveAll(o.out); err != nil {
		return err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	if o.hello {
		goapp.Route("/", func() goapp.Composer { return &helloPage{} })
	} else {
		app.Routes()
	}
	if err := goapp.GenerateStaticWebsite(o.out, h); err != nil {
		return fmt.Errorf("generating pages: %w", err)
	}
	if !o.hello {
		if err := writeAccuracy(o.accuracy, o.out, prefix); err != nil {
			return err
		}
	}
	if err := canonicalizePages(o.out); err != nil {
		return fmt.Errorf("canonicalizing pages: %w", err)
	}
	if err := patchLoader(o.out); err != nil {
		return err
	}
	if err := copyDir(o.web, filepath.Join(o.out, "web")); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(o.out, "web", "app.wasm"), wasm, 0o644); err != nil {
		return err
	}
	if err := stampVersion(o.out); err != nil {
		return err
	}
	return precompress(o.out)
}

// handler describes the PWA. Every URL is local: go-app's default icons
// point at raw.githubusercontent.com, which would make the page call another
// origin and break offline installs (cache.addAll is all-or-nothing).
func handler(version, prefix string, wasmSize int) *goapp.Handler {
	h := &goapp.Handler{
		Name:            "Rightsize",
		ShortName:       "Rightsize",
		Title:           "Rightsize — GPU memory and cost calculator",
		Description:     "How much GPU memory a model needs for inference, training, LoRA and QLoRA, which GPUs fit, and what it costs per provider.",
		Author:          "Rightsize",
		Lang:            "en",
		LoadingLabel:    "Rightsize {progress}%",
		BackgroundColor: "#ffffff",
		ThemeColor:      "#1f3a5f",
		Icon: goapp.Icon{
			Default:  "/web/icon-192.png",
			Large:    "/web/icon-512.png",
			Maskable: "/web/icon-512.png",
			SVG:      "/web/icon.svg",
		},
		Styles: []string{"/web/rightsize.css"},
		// The page may talk to its own origin only. go-app compiles app.wasm
		// with WebAssembly.instantiateStreaming ('wasm-unsafe-eval'); the
		// page has no inline script or style (the e2e test checks it, and
		// that no request leaves the origin). frame-ancestors cannot be set
		// from a meta tag: embedding stays open to docs pages.
		RawHeaders: []string{`<meta http-equiv="Content-Security-Policy" content="` + csp + `">`},
		// go-app precaches the PNG icons but not the SVG favicon.
		CacheableResources: []string{"/web/icon.svg", "/" + accuracyPage},
		Version:            version,
		// The precompressed app.wasm.br is smaller than the real body; this
		// keeps go-app's loading percentage right.
		WasmContentLength: strconv.Itoa(wasmSize),
	}
	if prefix != "/" {
		h.Resources = goapp.PrefixedLocation(prefix)
	}
	return h
}

// linkGuardJS runs first in go-app's loader (app.js), before the
// WebAssembly starts and on every history change before go-app's own
// popstate handler: it writes a "%" of the address that starts no escape
// ("#mfu=40%", "#%") as "%25". go-app reads location.href with url.Parse
// and drops its error; the nil URL panics in Navigate and the page dies.
// rightsize/app's guardLink applies the same rule (page.CleanHref) in Go, and
// the page names what it could not read.
const linkGuardJS = `(function () {
  function rightsizeCleanLink() {
    var h = location.href, c = h.replace(/%(?![0-9A-Fa-f]{2})/g, "%25");
    if (c !== h) history.replaceState(history.state, "", c);
  }
  rightsizeCleanLink();
  addEventListener("popstate", rightsizeCleanLink);
})();
`

// wasmFetchJS replaces go-app's fetchWithProgress for app.wasm. go-app
// hands WebAssembly.instantiateStreaming a new Response built on a
// ReadableStream it fills chunk by chunk to count the bytes: that copy has
// no URL, which rules out V8's cached code for app.wasm (its WebAssembly
// code caching keys the compiled code on the response's URL, whether the
// HTTP cache or the service worker's Cache Storage answered: "Code caching
// for WebAssembly developers", v8.dev, 2019), and its JavaScript copy of
// every chunk is main-thread work. make bench's warm start (a reload
// seconds after the first load) showed no difference beyond its noise;
// a visitor returning later is not measured. Here the fetched response itself goes
// to instantiateStreaming, and a clone of it counts the bytes for the
// loading percentage.
const wasmFetchJS = `function rightsizeFetchWasm(url, progress) {
  return fetch(url).then(function (response) {
    var total = parseInt(goappWasmContentLength, 10) || parseInt(response.headers.get("Content-Length"), 10) || 0;
    if (total > 0 && response.ok && response.body) {
      var reader = response.clone().body.getReader(), loaded = 0;
      var pump = function () {
        reader.read().then(function (r) {
          if (r.done) { progress(100); return; }
          loaded += r.value.byteLength;
          progress(Math.min(100, Math.round((loaded * 100) / total)));
          pump();
        }, function () {});
      };
      pump();
    }
    return response;
  });
}
`

// wasmFetchFrom is go-app's call of fetchWithProgress in its loader, and
// wasmFetchTo its replacement (wasmFetchJS).
const (
	wasmFetchFrom = "      fetchWithProgress("
	wasmFetchTo   = "      rightsizeFetchWasm("
)

// workerFetchFrom is the line of go-app's service worker that fills the
// cache of a new version, and workerFetchTo its replacement: cache.addAll
// fetches through the browser's HTTP cache, which may answer from a copy
// of the previous build it holds as heuristically fresh (a Last-Modified
// and no Cache-Control); cache: "reload" always asks the server.
const (
	workerFetchFrom = "await cache.addAll(resourcesToCache);"
	workerFetchTo   = `await cache.addAll(resourcesToCache.map((url) => new Request(url, { cache: "reload" })));`
)

// patchLoader prepends linkGuardJS to app.js, has it hand app.wasm's own
// response to the compiler (wasmFetchJS), and makes the service worker
// bypass the HTTP cache when it fetches a new version. It fails if
// go-app's files no longer hold what it rewrites.
func patchLoader(dir string) error {
	edits := []struct{ name, from, to string }{
		{"app.js", "", linkGuardJS + wasmFetchJS},
		{"app.js", wasmFetchFrom, wasmFetchTo},
		{"app-worker.js", workerFetchFrom, workerFetchTo},
	}
	for _, e := range edits {
		p := filepath.Join(dir, e.name)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := string(data)
		if e.from == "" {
			s = e.to + s
		} else if strings.Count(s, e.from) != 1 {
			return fmt.Errorf("%s: go-app's %q not found once; update patchLoader", e.name, e.from)
		} else {
			s = strings.Replace(s, e.from, e.to, 1)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// csp is the page's Content-Security-Policy.
const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; " +
	"connect-src 'self'; worker-src 'self'; manifest-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'none'"

// versionPlaceholder is the Handler.Version go-app writes while the site is
// generated; stampVersion replaces it with the hash of the finished site.
const versionPlaceholder = "rightsize-version-unstamped"

// stampVersion names the build by its content: the hash of every file of
// dir, written while the files still hold versionPlaceholder, replaces the
// placeholder wherever go-app wrote it (the service worker's cache name in
// app-worker.js, GOAPP_VERSION in app.js). A change of any byte of any file
// the worker caches, the generator's own output included (the prerendered
// pages, go-app's loader, the manifest: no input lists them), gives a new
// worker and a new cache; two identical trees give the same name, so builds
// stay reproducible. Run it before precompress: the .br and .gz files
// follow from the files hashed.
func stampVersion(dir string) error {
	version, err := treeHash(dir)
	if err != nil {
		return err
	}
	var stamped []string
	err = walkFiles(dir, func(rel string, data []byte) error {
		if !bytes.Contains(data, []byte(versionPlaceholder)) {
			return nil
		}
		stamped = append(stamped, rel)
		data = bytes.ReplaceAll(data, []byte(versionPlaceholder), []byte(version))
		return os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), data, 0o644)
	})
	if err != nil {
		return err
	}
	if !slices.Contains(stamped, "app-worker.js") {
		return fmt.Errorf("app-worker.js holds no version to stamp (go-app's template changed?); files stamped: %v", stamped)
	}
	return nil
}

// treeHash is the first 64 bits, in hex, of a SHA-256 over every regular
// file under dir in lexical order: its path, its length and its bytes.
func treeHash(dir string) (string, error) {
	sum := sha256.New()
	err := walkFiles(dir, func(rel string, data []byte) error {
		fmt.Fprintf(sum, "%s\x00%d\x00", rel, len(data))
		sum.Write(data)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(sum.Sum(nil))[:16], nil
}

// walkFiles calls fn for each regular file under dir in lexical order.
func walkFiles(dir string, fn func(rel string, data []byte) error) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		return fn(filepath.ToSlash(rel), data)
	})
}

func copyDir(src, dst string) error {
	return walkFiles(src, func(rel string, data []byte) error {
		p := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, data, 0o644)
	})
}

// precompress writes name.br (brotli, quality 11, 16 MB window) and name.gz (gzip -9, no
// name or time in the header, so output is reproducible) for each
// compressible file under dir.
func precompress(dir string) error {
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && slices.Contains(compressible, filepath.Ext(p)) {
			names = append(names, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		var br, gz bytes.Buffer
		// Quality 11 with the format's largest window (2^24 B, RFC 7932
		// §9.1; every browser's decoder takes it): app.wasm is about 12 MB,
		// and with the default 4 MB window the compressed size jumped by
		// tens of KB when a few bytes of data moved across a window's
		// reach, so the size budget measured placement, not code.
		bw := brotli.NewWriterOptions(&br, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24})
		if _, err := bw.Write(data); err != nil {
			return err
		}
		if err := bw.Close(); err != nil {
			return err
		}
		gw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		if _, err := io.Copy(gw, bytes.NewReader(data)); err != nil {
			return err
		}
		if err := gw.Close(); err != nil {
			return err
		}
		if err := os.WriteFile(name+".br", br.Bytes(), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(name+".gz", gz.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}
