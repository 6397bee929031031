package launch

import (
	"strconv"
	"strings"
)

// jsonWriter writes an indented JSON object by hand: the launch configs
// are a few fixed keys, and encoding/json would add to the browser build.
type jsonWriter struct {
	b     strings.Builder
	depth int
	first bool
}

func (j *jsonWriter) key(k string) {
	if !j.first {
		j.b.WriteByte(',')
	}
	j.first = false
	j.b.WriteByte('\n')
	j.b.WriteString(strings.Repeat("  ", j.depth))
	j.b.WriteString(strconv.Quote(k))
	j.b.WriteString(": ")
}

func (j *jsonWriter) open() {
	j.b.WriteByte('{')
	j.depth++
	j.first = true
}

func (j *jsonWriter) object(k string) {
	j.key(k)
	j.open()
}

func (j *jsonWriter) close() {
	j.depth--
	j.b.WriteByte('\n')
	j.b.WriteString(strings.Repeat("  ", j.depth))
	j.b.WriteByte('}')
	j.first = false
	if j.depth == 0 {
		j.b.WriteByte('\n')
	}
}

func (j *jsonWriter) num(k string, v int)       { j.key(k); j.b.WriteString(strconv.Itoa(v)) }
func (j *jsonWriter) float(k string, v float64) { j.key(k); j.b.WriteString(jsonFloat(v)) }
func (j *jsonWriter) str(k, v string)           { j.key(k); j.b.WriteString(strconv.Quote(v)) }
func (j *jsonWriter) boolean(k string, v bool)  { j.key(k); j.b.WriteString(strconv.FormatBool(v)) }
func (j *jsonWriter) String() string            { return j.b.String() }

// jsonFloat writes v so that it reads back as a float (1.0, not 1).
func jsonFloat(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// yamlWriter writes block-style YAML whose scalars are JSON-compatible
// (strings double-quoted with JSON escapes, numbers, true/false), so any
// YAML 1.2 parser reads it the same; multi-line text is a literal block
// scalar ("|").
type yamlWriter struct {
	b     strings.Builder
	depth int
}

func (y *yamlWriter) key(k string) {
	y.b.WriteString(strings.Repeat("  ", y.depth))
	y.b.WriteString(k)
	y.b.WriteByte(':')
}

func (y *yamlWriter) comment(s string) {
	y.b.WriteString(strings.Repeat("  ", y.depth) + "# " + s + "\n")
}

func (y *yamlWriter) section(k string) {
	y.key(k)
	y.b.WriteByte('\n')
	y.depth++
}

func (y *yamlWriter) end() { y.depth-- }

func (y *yamlWriter) str(k, v string) {
	y.key(k)
	y.b.WriteString(" " + strconv.Quote(v) + "\n")
}

func (y *yamlWriter) num(k string, v int) {
	y.key(k)
	y.b.WriteString(" " + strconv.Itoa(v) + "\n")
}

func (y *yamlWriter) boolean(k string, v bool) {
	y.key(k)
	y.b.WriteString(" " + strconv.FormatBool(v) + "\n")
}

// block writes text as a literal block scalar, each line indented one
// level under the key.
func (y *yamlWriter) block(k, text string) {
	y.key(k)
	y.b.WriteString(" |\n")
	ind := strings.Repeat("  ", y.depth+1)
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if line == "" {
			y.b.WriteByte('\n')
			continue
		}
		y.b.WriteString(ind + line + "\n")
	}
}

func (y *yamlWriter) String() string { return y.b.String() }
