package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoaderPatched: the built loader cleans a hostile address before
// go-app reads it, compiles app.wasm from its fetched response, and the service worker fills a new version's cache from
// the server, not from the browser's HTTP cache.
func TestLoaderPatched(t *testing.T) {
	out := buildStub(t)
	js, err := os.ReadFile(filepath.Join(out, "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(js, []byte(linkGuardJS)) || !bytes.Contains(js, []byte("goappInitWebAssembly();")) {
		t.Error("app.js does not start with the link guard, or lost go-app's loader")
	}
	// app.wasm's own response reaches the compiler (its cached code is
	// keyed on the URL): go-app's copying fetchWithProgress is not called.
	if l := string(js); strings.Contains(l, wasmFetchFrom) || !strings.Contains(l, "instantiateStreaming(\n"+wasmFetchTo) {
		t.Error("app.js still compiles app.wasm from go-app's byte-counting copy")
	}
	worker, err := os.ReadFile(filepath.Join(out, "app-worker.js"))
	if err != nil {
		t.Fatal(err)
	}
	if w := string(worker); strings.Contains(w, workerFetchFrom) || !strings.Contains(w, `cache: "reload"`) {
		t.Error("app-worker.js fills its cache through the HTTP cache")
	}
}
