package launch_test

import (
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The launch scripts read a few values from the environment the person
// running them sets: the instance's rank and the first instance's
// address (NODE_RANK, HEAD_IP, MASTER_ADDR, or SkyPilot's
// SKYPILOT_NODE_RANK and SKYPILOT_NODE_IPS), a disaggregated worker's own
// address (HOST_IP) and how many workers to start (WORKERS), a router's
// host lists (PREFILL_HOSTS, DECODE_HOSTS). The tests below run the
// scripts under sh and bash with those values unset, holding blanks,
// globs, command substitutions or flags, and check that each value
// reaches its program as one argument or is refused with a message that
// names it.

// envScript is one shell text of a launch, with where it came from.
type envScript struct {
	where, text string
}

// envScripts are the shell texts of every serving, training, SkyPilot and
// disaggregated scenario, with benign names.
func envScripts(t *testing.T) []envScript {
	t.Helper()
	scenarios(t)
	var out []envScript
	for i, s := range slices.Concat(serveCases, trainCases, skies, disaggCases) {
		l, err := emit(s, benign(names{provider: "aws", instance: "x", region: "r", model: "m"}))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range l.Files {
			if text, ok := script(t, f); ok {
				out = append(out, envScript{s.kind.String() + " scenario " + strconv.Itoa(i) + " " + f.Name, text})
			}
		}
	}
	return out
}

var guardLine = regexp.MustCompile(`(?m)^ *: "\$\{([A-Z_]+):\?([^}]*)\}"$`)

// TestGuardsSayWhatToSet: a script run without a variable it needs stops
// before it starts anything, under sh and under bash, with one line that
// names the variable and says what to set it to. bash reads an
// apostrophe inside "${VAR:?...}" as the start of a quoted string: "set
// NODE_RANK to this instance's rank" printed the lines up to the next
// guard's apostrophe.
func TestGuardsSayWhatToSet(t *testing.T) {
	guards := 0
	for _, sc := range envScripts(t) {
		for _, m := range guardLine.FindAllStringSubmatch(sc.text, -1) {
			name, msg := m[1], m[2]
			guards++
			if strings.ContainsAny(msg, "'\"\\$`{}") {
				t.Errorf("%s: the guard of %s says %q, which the shell reads", sc.where, name, msg)
			}
			for _, sh := range shells() {
				calls, stderr, err := runScriptEnv(t, sh, sc.text, map[string]string{name: ""})
				want := name + ": " + msg
				lines := strings.Split(strings.TrimSpace(stderr), "\n")
				if err == nil || len(calls) > 0 || len(lines) != 1 || !strings.HasSuffix(lines[0], want) {
					t.Errorf("%s: %s without %s: exit %v, calls %q, stderr %q; want one line ending %q",
						sc.where, filepath.Base(sh), name, err, calls, stderr, want)
				}
			}
		}
	}
	if guards == 0 {
		t.Fatal("no script requires a variable")
	}
}

// rankAndAddresses are benign values of the variables that carry an
// instance's rank and addresses, and hostile ones: blanks, a glob that
// matches the stubs' directory, a command substitution, a flag.
var rankAndAddresses = []struct{ name, benign, hostile string }{
	{"NODE_RANK", "1", "1 --trust-remote-code *"},
	{"HEAD_IP", "10.0.0.1", "10.0.0.1 $(touch pwned) *"},
	{"MASTER_ADDR", "10.0.0.3", "10.0.0.3;id `id`"},
	{"HOST_IP", "10.0.0.2", "10.0.0.2 --enforce-eager"},
	{"SKYPILOT_NODE_RANK", "1", "1 --trust-remote-code *"},
	{"SKYPILOT_NODE_IPS", "10.0.0.5\n10.0.0.6", "10.0.0.5 --x *\n10.0.0.6"},
}

// TestRankAndAddressesAreOneArgument: with hostile values of the rank
// and address variables, every program a script starts gets the same
// arguments as with benign ones, each value as one argument (or inside
// the one argument it is written into, as "$HEAD_IP:5000"), and nothing
// else runs. Unquoted, "--node-rank $NODE_RANK" split a rank with blanks
// into several arguments and expanded a "*" to the files where the
// script ran.
func TestRankAndAddressesAreOneArgument(t *testing.T) {
	benignEnv, hostileEnv := map[string]string{}, map[string]string{}
	for _, v := range rankAndAddresses {
		benignEnv[v.name], hostileEnv[v.name] = v.benign, v.hostile
	}
	// back maps a hostile call's argument to the benign one.
	back := func(a string) string {
		for _, v := range rankAndAddresses {
			switch {
			case v.name == "NODE_RANK" || v.name == "SKYPILOT_NODE_RANK":
				if a == v.hostile {
					return v.benign
				}
			case v.name == "SKYPILOT_NODE_IPS":
				first, _, _ := strings.Cut(v.hostile, "\n")
				benignFirst, _, _ := strings.Cut(v.benign, "\n")
				a = strings.ReplaceAll(a, first, benignFirst)
			default:
				a = strings.ReplaceAll(a, v.hostile, v.benign)
			}
		}
		return a
	}
	ran := 0
	for _, sc := range envScripts(t) {
		if !strings.Contains(sc.text, "$NODE_RANK") && !strings.Contains(sc.text, "$HOST_IP") && !strings.Contains(sc.text, "$MASTER_ADDR") {
			continue
		}
		ran++
		for _, sh := range shells() {
			want, werr, _ := runScriptEnv(t, sh, sc.text, benignEnv)
			got, gerr, _ := runScriptEnv(t, sh, sc.text, hostileEnv)
			if werr != "" || gerr != "" {
				t.Fatalf("%s: %s said %q with benign values, %q with hostile ones:\n%s", sc.where, filepath.Base(sh), werr, gerr, sc.text)
			}
			for _, c := range got {
				for i := range c {
					c[i] = back(c[i])
				}
			}
			sortCalls(got)
			sortCalls(want)
			if len(want) == 0 || !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("%s: %s: calls with hostile values\n%q\nwant\n%q\n%s", sc.where, filepath.Base(sh), got, want, sc.text)
			}
		}
	}
	if ran == 0 {
		t.Fatal("no script reads a rank or an address")
	}
}

// TestRouterRefusesFlagHosts: a router stops, before it starts anything,
// at a host list entry that is no host name or IPv4 address, naming it:
// one that starts with "-" reached vLLM's proxy as a flag (its
// --decoder-hosts, say) and SGLang's router inside a URL.
func TestRouterRefusesFlagHosts(t *testing.T) {
	routers := 0
	for _, sc := range envScripts(t) {
		if !strings.Contains(sc.text, "PREFILL_HOSTS") {
			continue
		}
		routers++
		for _, v := range []string{"PREFILL_HOSTS", "DECODE_HOSTS"} {
			for _, bad := range []string{"--decoder-hosts", "10.0.0.1:80", "[::1]"} {
				hosts := routerHosts(sc.text, v)
				hosts[len(hosts)-1] = bad
				for _, sh := range shells() {
					calls, stderr, err := runScriptEnv(t, sh, sc.text, map[string]string{v: strings.Join(hosts, " ")})
					want := v + ": " + bad + ": want a host name or IPv4 address"
					if err == nil || len(calls) > 0 || strings.TrimSpace(stderr) != want {
						t.Errorf("%s: %s with %s %q: exit %v, calls %q, stderr %q; want %q", sc.where, filepath.Base(sh), v, hosts, err, calls, stderr, want)
					}
				}
			}
		}
	}
	if routers == 0 {
		t.Fatal("no router script")
	}
}

// TestWorkersIsACount: a disaggregated script that starts several workers
// an instance starts WORKERS of them; a value that is not a count from 1
// stops it with a message. "[ abc -gt 0 ]" failed each worker's test, and
// the script started none and ended with wait's success.
func TestWorkersIsACount(t *testing.T) {
	n := 0
	for _, sc := range envScripts(t) {
		m := regexp.MustCompile(`WORKERS=\$\{WORKERS:-(\d+)\}`).FindStringSubmatch(sc.text)
		if m == nil {
			continue
		}
		n++
		for _, sh := range shells() {
			for _, bad := range []string{"abc", "0", "1 2"} {
				calls, stderr, err := runScriptEnv(t, sh, sc.text, map[string]string{"WORKERS": bad})
				want := "WORKERS: " + bad + ": want 1 to " + m[1]
				if err == nil || len(calls) > 0 || strings.TrimSpace(stderr) != want {
					t.Errorf("%s: %s with WORKERS %q: exit %v, calls %q, stderr %q; want %q", sc.where, filepath.Base(sh), bad, err, calls, stderr, want)
				}
			}
			if calls, stderr, err := runScriptEnv(t, sh, sc.text, map[string]string{"WORKERS": "1"}); err != nil || len(calls) != 1 {
				t.Errorf("%s: %s with WORKERS 1: exit %v, calls %q, stderr %q; want one worker", sc.where, filepath.Base(sh), err, calls, stderr)
			}
		}
	}
	if n == 0 {
		t.Fatal("no script starts several workers an instance")
	}
}
