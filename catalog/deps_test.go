//go:build !js

package catalog_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The package app.wasm imports must stay small: standard library and
// rightsize/estimator only (no JSON library beyond encoding/json, no
// generator code); the estimator's own packages under it (the planner,
// rightsize/estimator/plan, for its adapter, and the serving simulator,
// rightsize/estimator/sim, for the benchmark the page and the CLI report),
// which are themselves standard library and rightsize/estimator only
// (rightsize's deps_test.go). A statement of policy, not to be edited to
// fix a build; a policy test fails, it does not skip.
func TestCatalogDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "rightsize/catalog").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p != "rightsize/catalog" && p != "rightsize/estimator" && p != "rightsize/estimator/plan" && p != "rightsize/estimator/sim" {
			t.Errorf("rightsize/catalog depends on %s", p)
		}
	}
}
