package page

import (
	"strconv"
	"strings"
)

// OptionsOf lists what a select holds with cur its value: a bad value from
// a link first (so its error has context), then the choices opts; chosen
// marks the current one.
func OptionsOf(opts []Option, cur string) (out []Option, chosen int) {
	for i, o := range opts {
		if o.Value == cur {
			return opts, i
		}
	}
	return append([]Option{{Value: cur, Label: cur}}, opts...), 0
}

// OptionsHTML is a select's options (OptionsOf) as HTML, every value and
// label escaped (a custom model's label is the user's file name): the
// page writes a select's options in one innerHTML write in the browser.
func OptionsHTML(opts []Option, cur string) string {
	opts, chosen := OptionsOf(opts, cur)
	var b strings.Builder
	for i, o := range opts {
		b.WriteString(`<option value="`)
		writeEscaped(&b, o.Value)
		b.WriteByte('"')
		if i == chosen {
			b.WriteString(" selected")
		}
		b.WriteByte('>')
		writeEscaped(&b, o.Label)
		b.WriteString("</option>")
	}
	return b.String()
}

// writeEscaped writes text for an HTML attribute or element body. By
// hand rather than html.EscapeString: its strings.Replacer added about
// 7 KB of brotli to app.wasm.
func writeEscaped(b *strings.Builder, text string) {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#39;")
		default:
			b.WriteByte(c)
		}
	}
}

// FieldOfData is the field an element's data-f names (its index, as the
// form and the job line write it); ok is false for anything else.
func FieldOfData(s string) (f Field, ok bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n >= int(NFields) {
		return 0, false
	}
	return Field(n), true
}
