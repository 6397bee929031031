//go:build !js

package catalog_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The package app.wasm imports must stay small: standard library and
// rightsize/estimator (and its planning engine, rightsize/estimator/plan) only (no JSON library beyond encoding/json, no
// generator code). A statement of policy, not to be edited to fix a build.
func TestCatalogDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "rightsize/catalog").Output()
	if err != nil {
		t.Fatalf("go list: %v (a policy test fails rather than skips)", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p != "rightsize/catalog" && p != "rightsize/estimator" && p != "rightsize/estimator/plan" {
			t.Errorf("rightsize/catalog depends on %s", p)
		}
	}
}
