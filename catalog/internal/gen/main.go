// Command gen strictly loads and validates catalog/data/*.json and writes
// catalog/zz_generated.go and catalog/zz_generated_notes.go. Run it with "go generate ./catalog".
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"rightsize/catalog/source"
)

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	c, err := source.Load(os.DirFS(filepath.Join(dir, "data")), time.Now().UTC())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, err := source.Generate(c)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(filepath.Join(dir, "zz_generated.go"), out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	notes, err := source.GenerateNotes(c)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "zz_generated_notes.go"), notes, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("catalog: wrote zz_generated.go: %d GPUs, %d models, %d providers, %d offers\n",
		len(c.GPUs), len(c.Models), len(c.Providers), len(c.Offers))
}
