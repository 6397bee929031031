package catalog

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Names of providers, instance types, regions, GPUs and offers are data:
// they come from price sheets a user uploads, from the catalog files and
// from providers' price APIs, and they end up in launch scripts, task
// YAML, terminal lines and the page. CheckName is the one rule every
// entrance applies (price sheets on the page and in import-prices, the
// refresh adapters, catalog validation), so that a name is never code
// wherever it lands.

// MaxNameLen is the longest name CheckName accepts, in bytes. The longest
// in the catalog is 66 (an offer ID; instance types reach 58, "Bare Metal
// NVIDIA HGX H100 x8 (36-month prepaid, from)").
const MaxNameLen = 100

// NamePunct is the punctuation a name may hold besides letters, digits
// and spaces: what providers' real names use ("Standard_NC12s_v3",
// "ecs.ebmgn6i.24xlarge", "n1-highmem-8+1xP100", "H100_NVLINK_80GB::8",
// "NVIDIA GB200 NVL72 (on-demand, North America)", "Cloud GPU NVIDIA A100
// PCIe 1/2 GPU (6 vCPU, 60 GB)", "British Columbia, CA, NA"), and '@'
// for marketplace listings. None of them ends a line, a comment or a
// quoted YAML or JSON string, or starts a shell substitution; where a name
// becomes a shell word, the launch writers quote it all the same.
const NamePunct = "-_.:/+()@,"

// NameError is a name CheckName refuses. Its message quotes the value with
// Go escapes, so a control character or a newline in it is shown, never
// acted on.
type NameError struct {
	Field  string // "provider", "instance_type", "region", "gpu", ...
	Value  string
	Reason string
}

func (e *NameError) Error() string {
	return fmt.Sprintf("%s %q: %s", e.Field, e.Value, e.Reason)
}

// CheckName checks a provider, instance type, region, GPU or offer name
// given in field: at most MaxNameLen bytes of valid UTF-8, starting with a
// letter or a digit, then letters, digits, spaces and NamePunct. An empty
// name passes (whether a field is required is the caller's rule).
func CheckName(field, s string) error {
	if s == "" {
		return nil
	}
	fail := func(reason string) error { return &NameError{Field: field, Value: s, Reason: reason} }
	if len(s) > MaxNameLen {
		return fail("longer than " + strconv.Itoa(MaxNameLen) + " bytes")
	}
	if !utf8.ValidString(s) {
		return fail("not valid UTF-8")
	}
	for i, r := range s {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		if i == 0 && !alnum {
			return fail("must start with a letter or a digit")
		}
		if !alnum && r != ' ' && !strings.ContainsRune(NamePunct, r) {
			return fail(fmt.Sprintf("character %q is not allowed (letters, digits, spaces and %s only)", r, NamePunct))
		}
	}
	if strings.HasSuffix(s, " ") {
		return fail("ends with a space")
	}
	return nil
}

// Printable returns s with everything a terminal or a one-line comment
// would act on written as a Go escape: control characters (newline,
// carriage return, escape), line and paragraph separators, format
// characters (bidirectional overrides, zero-width characters), other
// unprintable runes and invalid UTF-8. Printable text is one line and
// shows every character it stands for. Backslashes stay as they are, so a
// message that already quotes a value with %q reads the same.
func Printable(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) && r != ' ' {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unicode.IsPrint(r) || r == ' ':
			b.WriteRune(r)
		default:
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}

// Aside is what follows label to add aside to it: " (aside)", or ", aside"
// where label already ends in a parenthesis or aside holds one, so that no
// brackets follow or nest in one another ("NVIDIA GB200 (one Blackwell
// GPU), TP 4", "cheapest, coreweave NVIDIA GB200 NVL72 (on-demand, North
// America)"). It is "" when aside is.
func Aside(label, aside string) string {
	switch {
	case aside == "":
		return ""
	case strings.HasSuffix(label, ")") || strings.ContainsAny(aside, "()"):
		return ", " + aside
	}
	return " (" + aside + ")"
}
