package launch

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"rightsize/catalog"
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
	j.b.WriteString(quoteString(k))
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
func (j *jsonWriter) str(k, v string)           { j.key(k); j.b.WriteString(quoteString(v)) }
func (j *jsonWriter) boolean(k string, v bool)  { j.key(k); j.b.WriteString(strconv.FormatBool(v)) }
func (j *jsonWriter) String() string            { return j.b.String() }

// quoteString writes s as a double-quoted string that JSON and YAML 1.1
// and 1.2 read the same: \" and \\ escaped, control, format, separator
// and other unprintable characters as \uXXXX (\n, \r, \t as themselves),
// invalid UTF-8 and unprintable characters beyond the BMP as U+FFFD (a
// \U or surrogate escape is not in both languages). strconv.Quote's \x
// and \a escapes are Go's, not JSON's.
func quoteString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8.RuneError:
			b.WriteRune(utf8.RuneError)
		case unicode.IsPrint(r) || r == ' ':
			b.WriteRune(r)
		case r > 0xFFFF:
			b.WriteRune(utf8.RuneError)
		default:
			const hex = "0123456789abcdef"
			b.WriteString(`\u`)
			for shift := 12; shift >= 0; shift -= 4 {
				b.WriteByte(hex[r>>shift&0xF])
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

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

// comment writes a comment line; s is made printable, so a newline in a
// name cannot end it and start a key.
func (y *yamlWriter) comment(s string) {
	y.b.WriteString(strings.Repeat("  ", y.depth) + "# " + catalog.Printable(s) + "\n")
}

func (y *yamlWriter) section(k string) {
	y.key(k)
	y.b.WriteByte('\n')
	y.depth++
}

func (y *yamlWriter) end() { y.depth-- }

func (y *yamlWriter) str(k, v string) {
	y.key(k)
	y.b.WriteString(" " + quoteString(v) + "\n")
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
