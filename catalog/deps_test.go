//go:build !js

package catalog_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The package app.wasm imports must stay small: standard library and
// rightsize/estimator only (no JSON library beyond encoding/json, no
// generator code); rightsize/estimator/plan, which is itself standard
// library and rightsize/estimator only (rightsize's deps_test.go), for the
// planner's adapter. A statement of policy, not to be edited to fix a build.
func TestCatalogDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "rightsize/catalog").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p != "rightsize/catalog" && p != "rightsize/estimator" && p != "rightsize/estimator/plan" {
			t.Errorf("rightsize/catalog depends on %s", p)
		}
	}
}
