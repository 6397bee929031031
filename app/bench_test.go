package app

import (
	"testing"

	"rightsize/catalog"
)

// BenchmarkStartup is the page's start-up work after the wasm is loaded:
// the catalog tables (generated Go, no decoding), the cheapest-offer index
// and the first full estimate with its GPU-fit and offer tables. Run it in
// the browser with make bench.
func BenchmarkStartup(b *testing.B) {
	for b.Loop() {
		c := &Calculator{}
		c.OnInit()
		if !c.r.OK {
			b.Fatal("no result")
		}
	}
}

// BenchmarkCatalogIndex is the part of start-up that touches every offer.
func BenchmarkCatalogIndex(b *testing.B) {
	cat := catalog.Default()
	for b.Loop() {
		if len(cheapestUSD(cat)) == 0 {
			b.Fatal("no prices")
		}
	}
}

// BenchmarkRecompute is one input change: estimate, solvers, the fit table
// over every GPU (with a GPUs-needed search each) and the offers table.
func BenchmarkRecompute(b *testing.B) {
	c := &Calculator{}
	c.OnInit()
	for b.Loop() {
		c.recompute()
	}
}
