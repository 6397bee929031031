package launch_test

import (
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"rightsize/catalog/launch"
)

// The fuzz targets read the scripts with sh -n, bash -n and a shell-word
// splitter of the subset launch writes. TestScriptsRunAsPlanned runs
// them: each shell file of every serving, disaggregated and training
// scenario, with hostile names, under sh and under bash with a PATH that
// holds only stubs of the programs the launches start, each of which
// records its argv. Every program must get exactly the arguments it gets
// with benign names, the model reference as one argument of the value
// given, and nothing else may run (an injected command is not on the
// PATH, and the shell says so on stderr).

// launched are the programs the launch scripts start.
// canary is a stub too: the fuzz payloads run it, and a script that
// does has run a command a name injected.
var launched = []string{"vllm", "python", "python3", "trtllm-serve", "torchrun", "accelerate", "ray", "mpirun", "sglang", "nats-server", "etcd", "pip", "sudo", "canary"}

// tools are the other programs the scripts run, present as they are.
var tools = []string{"cat", "head"}

// runScript runs text with sh in a fresh directory whose PATH holds the
// stubs, and returns each stubbed program's argv, one call per element,
// and sh's stderr.
func runScript(t *testing.T, sh, text string) (calls [][]string, stderr string) {
	t.Helper()
	calls, stderr, _ = runScriptEnv(t, sh, text, nil)
	return calls, stderr
}

// runEnv is the environment runScriptEnv gives a script: each instance's
// rank and addresses, Dynamo's etcd and NATS, one host a router list
// unless the script names more (runScriptEnv).
var runEnv = map[string]string{"NODE_RANK": "0", "HEAD_IP": "10.0.0.1", "HOST_IP": "10.0.0.2", "MASTER_ADDR": "10.0.0.1",
	"ETCD_ENDPOINTS": "10.0.0.1:2379", "NATS_SERVER": "nats://10.0.0.1:4222"}

// runScriptEnv is runScript with the variables in env set instead of
// runEnv's (an empty value unsets one), and the shell's exit error.
func runScriptEnv(t *testing.T, sh, text string, env map[string]string) (calls [][]string, stderr string, exit error) {
	t.Helper()
	dir := t.TempDir()
	bin, log := filepath.Join(dir, "bin"), filepath.Join(dir, "argv")
	for _, d := range []string{bin, log} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A stub writes its name and arguments, NUL-terminated, to a file of
	// its own (its process ID: background copies run at once); printf is
	// sh's builtin.
	for _, p := range launched {
		stub := "#!" + sh + "\nprintf '%s\\0' " + p + " \"$@\" >" + log + "/$$\n"
		if err := os.WriteFile(filepath.Join(bin, p), []byte(stub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The tools the scripts use to write their files and read their
	// environment are the real ones.
	for _, p := range tools {
		if path, err := exec.LookPath(p); err == nil {
			if err := os.Symlink(path, filepath.Join(bin, p)); err != nil {
				t.Fatal(err)
			}
		}
	}
	cmd := exec.Command(sh, "-c", text)
	cmd.Dir = dir
	vars := maps.Clone(runEnv)
	for _, v := range []string{"PREFILL_HOSTS", "DECODE_HOSTS"} {
		vars[v] = strings.Join(routerHosts(text, v), " ")
	}
	maps.Copy(vars, env)
	cmd.Env = []string{"PATH=" + bin, "HOME=" + dir}
	for k, v := range vars {
		if v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	exit = cmd.Run()
	entries, _ := os.ReadDir(log)
	for _, f := range entries {
		data, err := os.ReadFile(filepath.Join(log, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		calls = append(calls, strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00"))
	}
	return calls, errb.String(), exit
}

// routerHosts are as many instance addresses as a router script wants in
// its list v (one where it names no number).
func routerHosts(text, v string) []string {
	n := 1
	if m := regexp.MustCompile(v + `: want (\d+) address`).FindStringSubmatch(text); m != nil {
		n, _ = strconv.Atoi(m[1])
	}
	hosts := make([]string, n)
	for i := range hosts {
		hosts[i] = "10.0.1." + strconv.Itoa(i+1)
	}
	return hosts
}

// script is the shell text of a launch file: a shell file's, or a
// SkyPilot task's setup and run (as SkyPilot runs them, one after the
// other).
func script(t *testing.T, f launch.File) (string, bool) {
	switch f.Format {
	case "sh":
		return f.Text, true
	case "yaml":
		y := parseYAML(t, f.Text)
		setup, _ := y["setup"].(string)
		run, _ := y["run"].(string)
		return setup + run, run != ""
	}
	return "", false
}

// sortCalls orders calls so that background processes compare in any
// order they end.
func sortCalls(calls [][]string) {
	slices.SortFunc(calls, func(a, b []string) int { return strings.Compare(strings.Join(a, "\x00"), strings.Join(b, "\x00")) })
}

func TestScriptsRunAsPlanned(t *testing.T) {
	if len(shells()) == 0 {
		t.Skip("no sh")
	}
	for _, sh := range shells() {
		t.Run(filepath.Base(sh), func(t *testing.T) { runsAsPlanned(t, sh) })
	}
}

// runsAsPlanned is TestScriptsRunAsPlanned under the shell sh.
func runsAsPlanned(t *testing.T, sh string) {
	scenarios(t)
	// Every serving, training and SkyPilot scenario; half the disaggregated ones:
	// every engine behind its own router on the first and third rows,
	// behind Dynamo on the second and fourth (disaggCases lists each
	// row's engines, each behind both routers).
	all := slices.Concat(serveCases, trainCases, skies)
	for i, s := range disaggCases {
		if (i/(2*3)+i)%2 == 0 {
			all = append(all, s)
		}
	}
	models := []string{"$(id)`id`;id&&id|id>/tmp/x", "a'b\"c #~/x*{a,b}\\", "org/m --trust-remote-code ＄(id)"}
	for i, s := range all {
		hostile := names{provider: "aws", instance: "x;id $(id)", region: "r`id`", nameOrPath: "org/x"}
		want, err := emit(s, benign(names{provider: "aws", instance: "x", region: "r", model: "m"}))
		if err != nil {
			t.Fatal(err)
		}
		wantCalls := map[int][][]string{}
		for j, f := range want.Files {
			if text, ok := script(t, f); ok {
				wantCalls[j], _ = runScript(t, sh, text)
			}
		}
		for _, m := range models {
			hostile.model = m
			got, err := emit(s, hostile)
			if err != nil {
				t.Fatalf("scenario %d %q: %v", i, m, err)
			}
			for j, f := range got.Files {
				text, ok := script(t, f)
				if !ok {
					continue
				}
				gc, gerr := runScript(t, sh, text)
				if gerr != "" {
					t.Fatalf("scenario %d %s model %q: sh said %q:\n%s", i, f.Name, m, gerr, f.Text)
				}
				// The benign calls with the model's value put back.
				var wc [][]string
				for _, c := range wantCalls[j] {
					c = slices.Clone(c)
					for k := range c {
						if c[k] == benignModel {
							c[k] = m
						}
					}
					wc = append(wc, c)
				}
				sortCalls(gc)
				sortCalls(wc)
				if !slices.EqualFunc(gc, wc, slices.Equal) {
					t.Fatalf("scenario %d %s model %q: calls\n%q\nwant\n%q", i, f.Name, m, gc, wc)
				}
			}
		}
	}
}

// canaryPayloads run the canary stub wherever a shell would evaluate
// them: a command substitution, backquotes, a command after ";", "&&",
// "|" or a newline, each breaking out of single or double quotes.
var canaryPayloads = []string{"$(canary)", "`canary`", "x;canary", "x&&canary", "x|canary", "x\ncanary\n", "x' ; canary ; '", "x\" ; canary ; \"",
	"x'$(canary)'", "x\\';canary;'", "x\u2028canary", "x\u0085canary", "x\x00;canary",
	// or after "||", a carriage return, a paragraph separator; a field
	// split on $IFS; a formula a spreadsheet would run (CSV Injection).
	"x||canary", "x\r\ncanary", "x\u2029canary", "${IFS}canary", "=cmd|' /C canary'!A0", "@SUM(1+1)*cmd|canary"}

// FuzzScriptsRun runs every shell file of a launch (a serving, training,
// SkyPilot or disaggregated scenario, the names and the model reference
// fuzzed) under sh and bash with the stubs on PATH: no script runs the
// canary or anything that is not on PATH (the shell's "not found" on
// stderr), whatever the names; a model reference Emit refuses is one it
// must refuse.
func FuzzScriptsRun(f *testing.F) {
	// Each payload once, in the instance, the region or the model by
	// turns, on the scenarios in turn.
	for i, p := range slices.Concat(canaryPayloads, hostile) {
		n := []string{benignInstance, benignRegion, benignModel}
		n[i%3] = p
		f.Add(n[0], n[1], n[2], uint8(i))
	}
	f.Fuzz(func(t *testing.T, instance, region, model string, pick uint8) {
		if len(shells()) == 0 {
			t.Skip("no sh")
		}
		scenarios(t)
		all := slices.Concat(serveCases, trainCases, skies, disaggCases)
		s := all[int(pick)%len(all)]
		l, err := emit(s, names{provider: "aws", instance: instance, region: region, model: model, nameOrPath: instance})
		var le *launch.Error
		if errors.As(err, &le) && le.Key == launch.ErrModelRef && modelRefused(model) {
			return
		}
		if err != nil {
			t.Fatalf("%q %q %q: %v", instance, region, model, err)
		}
		for _, file := range l.Files {
			text, ok := script(t, file)
			if !ok {
				continue
			}
			for _, sh := range shells() {
				calls, stderr, _ := runScriptEnv(t, sh, text, nil)
				for _, c := range calls {
					if c[0] == "canary" {
						t.Fatalf("%s: %s ran the canary:\n%s", file.Name, filepath.Base(sh), text)
					}
				}
				if stderr != "" {
					t.Fatalf("%s: %s said %q:\n%s", file.Name, filepath.Base(sh), stderr, text)
				}
			}
		}
	})
}
