package main

import (
	"fmt"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
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

// cacheControl is sent with every file. A build keeps its file names
// (app.wasm, rightsize.css), so no file may be taken from an HTTP cache
// without asking: with a Last-Modified and no Cache-Control a browser
// holds a file as fresh for a tenth of its age (RFC 9111 §4.2.2), and a
// new service worker filling its cache would get the previous build's
// copy. "no-cache" revalidates (a 304 costs a round trip, no body); the
// service worker serves the page offline and on repeat visits anyway.
// README's "Deploy" section gives hosts the same rule.
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

// serveFile sends one file with conditional and range support. Unlike
// http.ServeFile it never redirects ".../index.html" and never sniffs the
// type of a compressed body.
func serveFile(w http.ResponseWriter, r *http.Request, name string) {
	f, err := os.Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		http.Error(w, "stat failed", http.StatusInternalServerError)
		return
	}
	http.ServeContent(w, r, "", st.ModTime(), f)
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
