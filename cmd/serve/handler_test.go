package main

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"
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

// contentTag is the validator the handler must send for a body: the quoted
// first 32 hex digits of its SHA-256.
func contentTag(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:])[:32] + `"`
}

// get requests path from h with the given request headers.
func get(h http.Handler, path string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestRedeployOlderDateServesNewBytes: a deploy replaces a file with one
// dated before it (a rollback, cp -p, rsync -t, a tarball), or with one of
// the same size and date (two reproducible builds unpacked with one fixed
// time: app-worker.js differs only in its fixed-length version). A visitor
// revalidating with the old copy's validators must get the new bytes, not
// a 304 that keeps the old service worker.
func TestRedeployOlderDateServesNewBytes(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "app-worker.js")
	a := []byte(`const cacheName = "app-" + "aaaaaaaaaaaaaaaa";`)
	dateA := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	write := func(body []byte, date time.Time) {
		t.Helper()
		// A new file moved over the old one, as a deploy does.
		tmp := name + ".new"
		if err := os.WriteFile(tmp, body, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(tmp, date, date); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, name); err != nil {
			t.Fatal(err)
		}
	}
	write(a, dateA)
	h, err := newSiteHandler(dir, "/")
	if err != nil {
		t.Fatal(err)
	}
	first := get(h, "/app-worker.js")
	if first.Code != http.StatusOK || first.Body.String() != string(a) {
		t.Fatalf("build A: status %d, body %q", first.Code, first.Body)
	}
	if got := first.Header().Get("ETag"); got != contentTag(a) {
		t.Errorf("build A: ETag %q, want %q", got, contentTag(a))
	}
	// What a browser that holds A sends back: A's ETag, and A's date (from
	// a Last-Modified if the server sent one, or as a cache of an older
	// server recorded it).
	validators := []string{"If-None-Match", first.Header().Get("ETag"), "If-Modified-Since", dateA.Format(http.TimeFormat)}
	if again := get(h, "/app-worker.js", validators...); again.Code != http.StatusNotModified {
		t.Errorf("build A unchanged: status %d, want 304", again.Code)
	}

	for _, tc := range []struct {
		what string
		body []byte
		date time.Time
	}{
		{"build B dated a month before A", []byte(`const cacheName = "app-" + "bbbbbbbbbbbbbbbb";`), dateA.Add(-30 * 24 * time.Hour)},
		{"build C of B's size and A's date", []byte(`const cacheName = "app-" + "cccccccccccccccc";`), dateA},
	} {
		write(tc.body, tc.date)
		rec := get(h, "/app-worker.js", validators...)
		if rec.Code != http.StatusOK || rec.Body.String() != string(tc.body) {
			t.Errorf("%s, asked with A's validators: status %d, body %q; want 200 and the new bytes", tc.what, rec.Code, rec.Body)
		}
		if got := rec.Header().Get("ETag"); got != contentTag(tc.body) {
			t.Errorf("%s: ETag %q, want %q", tc.what, got, contentTag(tc.body))
		}
	}
}

// TestConditionalRequests: If-None-Match decides when it is present, even
// against an If-Modified-Since that says otherwise (RFC 9110 §13.2.2), and
// each precompressed variant is its own representation with its own tag.
func TestConditionalRequests(t *testing.T) {
	dir := t.TempDir()
	raw, br, gz := []byte("body { color: black }"), []byte("brotli bytes"), []byte("gzip bytes")
	for name, body := range map[string][]byte{"app.css": raw, "app.css.br": br, "app.css.gz": gz} {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, err := newSiteHandler(dir, "/")
	if err != nil {
		t.Fatal(err)
	}
	future := time.Now().Add(24 * time.Hour).UTC().Format(http.TimeFormat)
	past := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Format(http.TimeFormat)
	for _, tc := range []struct {
		what      string
		header    []string
		code      int
		body, tag []byte // body sent (nil for 304) and the representation whose tag is sent
		encoding  string
	}{
		{"plain", nil, 200, raw, raw, ""},
		{"brotli", []string{"Accept-Encoding", "gzip, br"}, 200, br, br, "br"},
		{"gzip", []string{"Accept-Encoding", "gzip"}, 200, gz, gz, "gzip"},
		{"plain, its own tag", []string{"If-None-Match", contentTag(raw)}, 304, nil, raw, ""},
		{"brotli, its own tag among others", []string{"Accept-Encoding", "br", "If-None-Match", contentTag(gz) + ", " + contentTag(br)}, 304, nil, br, "br"},
		{"gzip, brotli's tag", []string{"Accept-Encoding", "gzip", "If-None-Match", contentTag(br)}, 200, gz, gz, "gzip"},
		{"plain, brotli's tag", []string{"If-None-Match", contentTag(br)}, 200, raw, raw, ""},
		{"stale tag, date in the future", []string{"If-None-Match", `"0123456789abcdef0123456789abcdef"`, "If-Modified-Since", future}, 200, raw, raw, ""},
		{"matching tag, date long past", []string{"If-None-Match", contentTag(raw), "If-Modified-Since", past}, 304, nil, raw, ""},
		{"a date alone", []string{"If-Modified-Since", future}, 200, raw, raw, ""},
	} {
		rec := get(h, "/app.css", tc.header...)
		if rec.Code != tc.code {
			t.Errorf("%s: status %d, want %d", tc.what, rec.Code, tc.code)
		}
		if tc.body != nil && rec.Body.String() != string(tc.body) {
			t.Errorf("%s: body %q, want %q", tc.what, rec.Body, tc.body)
		}
		if got := rec.Header().Get("ETag"); got != contentTag(tc.tag) {
			t.Errorf("%s: ETag %q, want %q", tc.what, got, contentTag(tc.tag))
		}
		// A 304 carries the tag and Vary, not the body's headers (RFC 9110 §15.4.5).
		if got := rec.Header().Get("Content-Encoding"); tc.code == 200 && got != tc.encoding {
			t.Errorf("%s: Content-Encoding %q, want %q", tc.what, got, tc.encoding)
		}
		if got := rec.Header().Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("%s: Vary %q, want Accept-Encoding", tc.what, got)
		}
		if got := rec.Header().Get("Last-Modified"); got != "" {
			t.Errorf("%s: Last-Modified %q: a date is not a validator of this site", tc.what, got)
		}
	}
}
