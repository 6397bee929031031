//go:build !js

package rightsize_test

// This test is a statement of policy, like the standard library's
// go/build/deps_test.go: Rightsize's packages depend one way,
// app → catalog → estimator. Do not change the rules to fix a build;
// change the import.

import (
	"os/exec"
	"strings"
	"testing"
)

// goList returns, for each package matching pattern, its import path and
// either its direct imports (deps=false) or all its dependencies.
func goList(t *testing.T, deps bool, env []string, patterns ...string) map[string][]string {
	t.Helper()
	args := []string{"list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}"}
	if deps {
		args = []string{"list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}"}
	}
	cmd := exec.Command("go", append(args, patterns...)...)
	cmd.Env = append(cmd.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %v: %v", args, err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line == "" {
			continue
		}
		if deps {
			m[line] = nil
			continue
		}
		path, imports, _ := strings.Cut(line, ":")
		m[path] = strings.Fields(imports)
	}
	return m
}

func TestEstimatorImportsOnlyStd(t *testing.T) {
	for p := range goList(t, true, nil, "./estimator") {
		if p != "rightsize/estimator" {
			t.Errorf("estimator depends on non-standard package %s", p)
		}
	}
}

// TestPlanImportsOnlyStdAndEstimator keeps the planner as portable as the
// estimator: the page and the CLI both call it. It may use the serving
// simulator, which imports only the estimator.
func TestPlanImportsOnlyStdAndEstimator(t *testing.T) {
	deps := goList(t, true, nil, "./estimator/plan")
	if _, ok := deps["rightsize/estimator/plan"]; !ok {
		t.Fatalf("go list found no rightsize/estimator/plan: %v", deps)
	}
	for p := range deps {
		if p != "rightsize/estimator/plan" && p != "rightsize/estimator" && p != "rightsize/estimator/sim" {
			t.Errorf("estimator/plan depends on non-standard package %s", p)
		}
	}
}

// TestSimImportsOnlyStdAndEstimator keeps the serving simulator as
// portable as the estimator: the page, the planner's callers and the CLI
// run it.
func TestSimImportsOnlyStdAndEstimator(t *testing.T) {
	deps := goList(t, true, nil, "./estimator/sim")
	if _, ok := deps["rightsize/estimator/sim"]; !ok {
		t.Fatalf("go list found no rightsize/estimator/sim: %v", deps)
	}
	for p := range deps {
		if p != "rightsize/estimator/sim" && p != "rightsize/estimator" {
			t.Errorf("estimator/sim depends on non-standard package %s", p)
		}
	}
}

// TestJobspecImportsOnlyStd keeps the table of the job fields both doors
// read (the CLI's flags, the page's link) below both, as plain data: the
// estimator's and planner's defaults it writes are held to theirs by its
// test, not by an import.
func TestJobspecImportsOnlyStd(t *testing.T) {
	deps := goList(t, true, nil, "./app/page/jobspec")
	if _, ok := deps["rightsize/app/page/jobspec"]; !ok {
		t.Fatalf("go list found no rightsize/app/page/jobspec: %v", deps)
	}
	for p := range deps {
		if p != "rightsize/app/page/jobspec" {
			t.Errorf("jobspec depends on non-standard package %s", p)
		}
	}
}

// TestPageIsGoAppFree keeps the page's state, compute and tables in a
// package without go-app: it parses the link into a typed job, computes,
// plans and lays out the tables as plain values that native tests and the
// command line can check; app/ only renders them.
func TestPageIsGoAppFree(t *testing.T) {
	deps := goList(t, true, nil, "./app/page")
	if _, ok := deps["rightsize/app/page"]; !ok {
		t.Fatalf("go list found no rightsize/app/page: %v", deps)
	}
	for p := range deps {
		if !strings.HasPrefix(p, "rightsize/") {
			t.Errorf("app/page depends on %s: it must stay free of go-app and other modules", p)
		}
		if p == "rightsize/app" {
			t.Errorf("app/page depends on rightsize/app: the components sit above it")
		}
	}
}

func TestLayering(t *testing.T) {
	pkgs := goList(t, false, nil, "./...")
	if len(pkgs) < 5 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	for p, imports := range pkgs {
		isMain := strings.HasPrefix(p, "rightsize/cmd/")
		for _, imp := range imports {
			switch {
			case imp == "rightsize/app/page" && p != "rightsize/app" && !isMain && !strings.HasPrefix(p, "rightsize/app/"):
				t.Errorf("%s imports rightsize/app/page: only the page's components and mains under cmd/ may", p)
			case imp == "rightsize/app" && !isMain:
				t.Errorf("%s imports rightsize/app: only mains under cmd/ may", p)
			case strings.HasPrefix(imp, "rightsize/cmd/"):
				t.Errorf("%s imports %s: nothing imports a main", p, imp)
			case strings.HasPrefix(p, "rightsize/catalog") && imp == "rightsize/app":
				t.Errorf("%s imports rightsize/app: catalog sits below app", p)
			case p == "rightsize/estimator/plan" && (imp == "rightsize/estimator" || imp == "rightsize/estimator/sim"):
				// the planner sits on the estimator (and its serving
				// simulator) and below everything else
			case p == "rightsize/estimator/sim" && imp == "rightsize/estimator":
				// the serving simulator steps the estimator's model, as portable as it
			case strings.HasPrefix(p, "rightsize/estimator") && strings.HasPrefix(imp, "rightsize/"):
				t.Errorf("%s imports %s: estimator sits below everything", p, imp)
			}
		}
	}
}

// TestWasmStaysSmall keeps the browser binary free of packages that add
// megabytes without adding features (measured: net/http server +6.8 MB,
// goccy/go-json +4.7 MB raw).
func TestWasmStaysSmall(t *testing.T) {
	deps := goList(t, true, []string{"GOOS=js", "GOARCH=wasm"}, "./cmd/web")
	for p := range deps {
		if strings.HasPrefix(p, "github.com/goccy/") || strings.HasPrefix(p, "rightsize/cmd/build") ||
			strings.HasPrefix(p, "github.com/andybalholm/") || strings.HasPrefix(p, "github.com/chromedp/") {
			t.Errorf("app.wasm links %s", p)
		}
	}
	if _, ok := deps["rightsize/app"]; !ok {
		t.Errorf("cmd/web does not link rightsize/app; deps: %v", deps)
	}
	// go-app's client package imports net/http itself (the linker keeps only
	// what the client calls); none of our browser packages may import it,
	// or the HTTP server and client come along.
	ours := goList(t, false, []string{"GOOS=js", "GOARCH=wasm"}, "./cmd/web", "./app", "./app/page", "./catalog", "./estimator")
	for p, imports := range ours {
		for _, imp := range imports {
			if imp == "net/http" || imp == "net/http/httptest" {
				t.Errorf("%s imports %s in the browser build", p, imp)
			}
		}
	}
}

// TestAppImportsOnlyGoAppAndPage: the go-app component lays out what
// page.BuildView made; it imports go-app, app/page and the standard
// library, nothing else of Rightsize's (the catalog, the estimator and
// the planner are reached through app/page).
func TestAppImportsOnlyGoAppAndPage(t *testing.T) {
	imports, ok := goList(t, false, nil, "./app")["rightsize/app"]
	if !ok {
		t.Fatal("go list found no rightsize/app")
	}
	for _, p := range imports {
		std := !strings.Contains(strings.SplitN(p, "/", 2)[0], ".") && !strings.HasPrefix(p, "rightsize/")
		switch {
		case std, p == "github.com/maxence-charriere/go-app/v10/pkg/app", p == "rightsize/app/page":
		default:
			t.Errorf("app imports %s: only go-app, app/page and the standard library belong there", p)
		}
	}
}
