package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// TestCacheControlEveryAsset: every file of a build is sent with
// Cache-Control: no-cache, so neither the browser nor a new service worker
// keeps the previous build's copy of a file whose name did not change.
func TestCacheControlEveryAsset(t *testing.T) {
	dir := t.TempDir()
	files := []string{"index.html", "app.js", "app-worker.js", "app.css", "manifest.webmanifest", "wasm_exec.js",
		"web/app.wasm", "web/app.wasm.br", "web/rightsize.css", "web/icon-192.png", "web/icon.svg", "accuracy.html"}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, err := newSiteHandler(dir, "/")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/", "/app.js", "/app-worker.js", "/app.css", "/manifest.webmanifest", "/wasm_exec.js",
		"/web/app.wasm", "/web/rightsize.css", "/web/icon-192.png", "/web/icon.svg", "/accuracy"} {
		for _, enc := range []string{"", "br"} {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			if enc != "" {
				req.Header.Set("Accept-Encoding", enc)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				t.Errorf("%s: status %d", path, rec.Code)
				continue
			}
			if got := rec.Header().Get("Cache-Control"); got != "no-cache" {
				t.Errorf("%s (Accept-Encoding %q): Cache-Control %q, want no-cache", path, enc, got)
			}
			if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("%s: X-Content-Type-Options %q", path, got)
			}
		}
	}
}
