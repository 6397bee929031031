package main

import (
	"bufio"
	"html"
	"os"
	"path/filepath"
	"strings"
)

// The "How accurate is this?" page: docs/accuracy.md (written by make
// validate from the vendored public measurements) rendered to a static
// page at build time, precached like the rest of the site so it works
// offline. It is plain HTML with the site's stylesheet: the validation
// report does not belong in app.wasm, whose size every visitor pays.

// accuracyPage is the page's file name under the site's root.
const accuracyPage = "accuracy.html"

// writeAccuracy renders md (the report's path) into out/accuracy.html.
// A missing report gives a page that says so, never a broken link.
func writeAccuracy(md, out, prefix string) error {
	body := "<p>No validation report in this build (docs/accuracy.md is written by <code>make validate</code>).</p>"
	if data, err := os.ReadFile(md); err == nil {
		body = markdownHTML(string(data))
	}
	css := strings.TrimSuffix(prefix, "/") + "/web/rightsize.css"
	home := strings.TrimSuffix(prefix, "/") + "/"
	page := `<!DOCTYPE html><html lang="en"><head><meta http-equiv="Content-Security-Policy" content="` + html.EscapeString(csp) + `">` +
		`<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
		`<title>How accurate is Rightsize?</title><link rel="stylesheet" href="` + css + `"></head>` +
		`<body><main class="rs-page rs-doc"><p><a href="` + home + `">← Rightsize</a></p>` + body + `</main></body></html>`
	return os.WriteFile(filepath.Join(out, accuracyPage), []byte(page), 0o644)
}

// markdownHTML converts the subset of Markdown the report uses: headings,
// paragraphs, pipe tables, `code`, *emphasis* and **strong**.
func markdownHTML(md string) string {
	var b strings.Builder
	var para []string
	var table [][]string
	flushPara := func() {
		if len(para) > 0 {
			b.WriteString("<p>" + inline(strings.Join(para, " ")) + "</p>\n")
			para = nil
		}
	}
	flushTable := func() {
		if len(table) == 0 {
			return
		}
		b.WriteString(`<div class="rs-scroll"><table>`)
		for i, row := range table {
			if i == 1 && isRule(row) {
				continue
			}
			tag := "td"
			if i == 0 {
				tag = "th"
			}
			b.WriteString("<tr>")
			for _, cell := range row {
				b.WriteString("<" + tag + ">" + inline(cell) + "</" + tag + ">")
			}
			b.WriteString("</tr>")
		}
		b.WriteString("</table></div>\n")
		table = nil
	}
	sc := bufio.NewScanner(strings.NewReader(md))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " ")
		switch {
		case strings.HasPrefix(line, "|"):
			flushPara()
			table = append(table, cells(line))
		case strings.HasPrefix(line, "#"):
			flushPara()
			flushTable()
			n := len(line) - len(strings.TrimLeft(line, "#"))
			n = min(max(n, 1), 4)
			tag := "h" + string(rune('0'+n))
			b.WriteString("<" + tag + ">" + inline(strings.TrimSpace(line[n:])) + "</" + tag + ">\n")
		case line == "":
			flushPara()
			flushTable()
		default:
			flushTable()
			para = append(para, line)
		}
	}
	flushPara()
	flushTable()
	return b.String()
}

// cells splits a pipe-table row; "\|" is a literal bar.
func cells(line string) []string {
	line = strings.Trim(strings.TrimSpace(line), "|")
	line = strings.ReplaceAll(line, `\|`, "\x00")
	parts := strings.Split(line, "|")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.TrimSpace(p), "\x00", "|")
	}
	return parts
}

func isRule(row []string) bool {
	for _, c := range row {
		if strings.Trim(c, "-: ") != "" {
			return false
		}
	}
	return true
}

// inline escapes text and renders `code`, **strong** and *emphasis*.
func inline(s string) string {
	s = html.EscapeString(s)
	for _, m := range []struct{ mark, open, close string }{{"`", "<code>", "</code>"}, {"**", "<strong>", "</strong>"}, {"*", "<em>", "</em>"}} {
		for {
			i := strings.Index(s, m.mark)
			if i < 0 {
				break
			}
			j := strings.Index(s[i+len(m.mark):], m.mark)
			if j < 0 {
				break
			}
			j += i + len(m.mark)
			s = s[:i] + m.open + s[i+len(m.mark):j] + m.close + s[j+len(m.mark):]
		}
	}
	return s
}
