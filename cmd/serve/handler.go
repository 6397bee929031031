package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// siteHandler serves the files of a built site from dir under prefix.
type siteHandler struct {
	dir    string
	prefix string // always starts and ends with "/"
}

func newSiteHandler(dir, prefix string) (*siteHandler, error) {
	if !strings.HasPrefix(prefix, "/") {
		return nil, fmt.Errorf("prefix %q must start with /", prefix)
	}
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	return &siteHandler{dir: dir, prefix: prefix}, nil
}

// contentTypes overrides the platform MIME table, which varies between
// machines and may lack .wasm (browsers refuse streaming compilation of
// application/octet-stream) and .webmanifest.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".wasm":        "application/wasm",
	".webmanifest": "application/manifest+json",
	".json":        "application/json",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".txt":         "text/plain; charset=utf-8",
}

// cacheControl is sent with every file. No file name carries a hash of
// its content: a build keeps app-worker.js, index.html, app.js, app.wasm
// and rightsize.css under the same names, so no file may be taken from an
// HTTP cache without asking. Without Cache-Control a browser holds a file
// as fresh for a tenth of its age (RFC 9111 §4.2.2), and a new service
// worker filling its cache would get the previous build's copy.
// "no-cache" revalidates with the ETag (a 304 costs a round trip, no
// body); the service worker serves the page offline and on repeat visits
// anyway. A long max-age or "immutable" would suit only files named by
// their hash, and the site has none. README's "Deploy" section gives
// hosts the same rule.
const cacheControl = "no-cache"

// encodings in order of preference: brotli is ~20% smaller than gzip on app.wasm.
var encodings = []struct{ name, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

func (h *siteHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if r.URL.Path+"/" == h.prefix {
		http.Redirect(w, r, h.prefix, http.StatusMovedPermanently)
		return
	}
	rel, ok := strings.CutPrefix(r.URL.Path, h.prefix)
	if !ok {
		http.NotFound(w, r)
		return
	}
	rel = path.Clean("/" + rel)
	if rel == "/" {
		rel = "/index.html"
	}
	name := filepath.Join(h.dir, filepath.FromSlash(rel))
	if st, err := os.Stat(name); err != nil || st.IsDir() {
		// go-app pages are generated as "<route>.html".
		if st, err := os.Stat(name + ".html"); err == nil && !st.IsDir() {
			name += ".html"
		} else {
			http.NotFound(w, r)
			return
		}
	}
	ext := filepath.Ext(name)
	ctype := contentTypes[ext]
	if ctype == "" {
		ctype = mime.TypeByExtension(ext)
	}
	if ctype != "" {
		w.Header().Set("Content-Type", ctype)
	}
	w.Header().Set("Vary", "Accept-Encoding")
	w.Header().Set("Cache-Control", cacheControl)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	accept := r.Header.Get("Accept-Encoding")
	for _, e := range encodings {
		if !acceptsEncoding(accept, e.name) {
			continue
		}
		if st, err := os.Stat(name + e.ext); err == nil && !st.IsDir() {
			w.Header().Set("Content-Encoding", e.name)
			serveFile(w, r, name+e.ext)
			return
		}
	}
	serveFile(w, r, name)
}

// serveFile sends one file with its content's ETag, honouring
// If-None-Match and ranges. It reads the whole file and hashes what it
// sends, so the tag always names the bytes of this response, even while a
// deploy replaces the file (app.wasm.br, the largest, takes a few
// milliseconds). A tag cached by name, size and date would not do: two
// reproducible builds unpacked with one fixed date give app-worker.js the
// same size and date, its version being a fixed-length hash.
//
// No Last-Modified is sent, and If-Modified-Since is ignored: a deploy of
// files dated before the visitor's copy (a rollback to a kept artifact, a
// copy that keeps dates: cp -p, rsync -t, a tarball) would otherwise be
// answered 304, and the browser would keep the previous service worker.
// Unlike http.ServeFile it never redirects ".../index.html" and never
// sniffs the type of a compressed body.
func serveFile(w http.ResponseWriter, r *http.Request, name string) {
	body, err := os.ReadFile(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("ETag", contentETag(body))
	// With If-None-Match present, ServeContent does not consult dates
	// (RFC 9110 §13.2.2); with a zero time it never does.
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// contentETag is a strong validator of a body: the first 128 bits of its
// SHA-256, in hex and quoted. Each precompressed variant has its own bytes
// and so its own tag, as RFC 9110 §8.8.3 asks of representations that
// differ in Content-Encoding.
func contentETag(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// acceptsEncoding reports whether an Accept-Encoding header allows coding
// (RFC 9110 §12.5.3), honouring an explicit q=0.
func acceptsEncoding(header, coding string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), coding) {
			continue
		}
		params = strings.ReplaceAll(params, " ", "")
		return params != "q=0" && params != "q=0.0" && params != "q=0.00" && params != "q=0.000"
	}
	return false
}
