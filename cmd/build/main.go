// Command build generates Rightsize's static site: the prerendered page,
// go-app's loader, service worker and manifest, app.wasm, the local assets of
// web/, and a precompressed .br and .gz next to every text and wasm asset.
//
//	go run ./cmd/build -wasm build/app.wasm -out dist [-prefix /tools/rightsize]
//
// The output is reproducible: Handler.Version, the service worker's cache
// name, is a hash of every file of the generated site, so any change of any
// file gives a new cache and two builds of the same tree give byte-identical
// folders.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	var o options
	flag.StringVar(&o.wasm, "wasm", "build/app.wasm", "app.wasm built with GOOS=js GOARCH=wasm from ./cmd/web")
	flag.StringVar(&o.web, "web", "web", "folder of static assets (icons, CSS)")
	flag.StringVar(&o.out, "out", "dist", "output folder (replaced)")
	flag.StringVar(&o.prefix, "prefix", "/", "URL path the site will be served under, e.g. /tools/rightsize")
	flag.StringVar(&o.accuracy, "accuracy", "docs/accuracy.md", "validation report rendered as the \"How accurate is this?\" page")
	flag.BoolVar(&o.hello, "hello", false, "generate go-app's hello world instead (the baseline of make bench; -wasm from ./cmd/serve/testdata/hello)")
	flag.Parse()
	if err := build(o); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
}
