// Command serve serves a built Rightsize site (the dist/ folder written by
// cmd/build) on loopback for "make run" and the end-to-end tests.
//
// It sends the right Content-Type for .wasm and .webmanifest and negotiates
// Content-Encoding from the precompressed .br and .gz files next to each
// asset, and validates by content (an ETag hashed from the bytes sent, never
// a file's date), the way a production static host or CDN should.
package main

import (
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
)

func main() {
	dir := flag.String("dir", "dist", "built site to serve")
	addr := flag.String("addr", "127.0.0.1:8000", "listen address")
	prefix := flag.String("prefix", "/", "URL path the site is mounted at (the build's -prefix)")
	flag.Parse()
	if _, err := os.Stat(*dir + "/index.html"); err != nil {
		fmt.Fprintf(os.Stderr, "serve: %s/index.html: %v (run make dist first)\n", *dir, err)
		os.Exit(2)
	}
	h, err := newSiteHandler(*dir, *prefix)
	if err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(2)
	}
	log.Printf("Rightsize: serving %s at http://%s%s", *dir, *addr, h.prefix)
	log.Fatal(http.ListenAndServe(*addr, h))
}
