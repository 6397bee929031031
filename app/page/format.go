package page

// Numbers, sizes, money, durations and dates as each language writes them
// (CLDR conventions): English and Chinese group thousands with "," and use
// "." for decimals; Russian groups with a no-break space (U+00A0, CLDR's
// "ru" group symbol) and uses ",": 8,030,261,248 · 8 030 261 248;
// 137.3 GiB · 137,3 ГиБ. A line never breaks inside a number. Currency
// symbols follow the amount in Russian, after a no-break space
// (245,50 ₽, CLDR's "#,##0.00 ¤"), and precede it otherwise.

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"rightsize/catalog"
	"rightsize/estimator"
)

// Locale formats for one language and the chosen memory unit.
type Locale struct {
	Lang  string
	Units Unit
}

func (l Locale) T(k MsgKey) string { return Tr(l.Lang, k) }

func (l Locale) ru() bool { return l.Lang == "ru" }

// Colon is what follows a label before its value: Chinese takes the
// full-width colon, with no space after it.
func (l Locale) Colon() string {
	if l.Lang == "zh" {
		return "："
	}
	return ": "
}

// Quote is s in the quotation marks of l's language: “s” in English and
// Chinese, «s» in Russian (the quotes Russian typography uses, as the
// page's Russian texts do).
func (l Locale) Quote(s string) string {
	if l.Lang == "ru" {
		return "«" + s + "»"
	}
	return "“" + s + "”"
}

// Aside is what follows label to add aside to it, as catalog.Aside
// writes it (" (aside)", or ", aside" where brackets would follow or
// nest), with Chinese's full-width brackets and comma ("Lambda（您的价格）"):
// a name in a Chinese sentence takes them as the sentence does.
func (l Locale) Aside(label, aside string) string {
	if l.Lang != "zh" {
		return catalog.Aside(label, aside)
	}
	switch {
	case aside == "":
		return ""
	case strings.HasSuffix(label, ")") || strings.HasSuffix(label, "）") || strings.ContainsAny(aside, "()（）"):
		return "，" + aside
	}
	return "（" + aside + "）"
}

// Fixed writes v with digits decimals, grouped.
func (l Locale) Fixed(v float64, digits int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	var ob [48]byte
	return string(l.appendFixed(ob[:0], v, digits))
}

// appendFixed appends v as Fixed writes it (a finite v). It formats and
// groups in stack buffers (append grows them only for huge values): the
// tables write hundreds of figures per input, and each allocation costs
// more in WebAssembly than the formatting.
func (l Locale) appendFixed(o []byte, v float64, digits int) []byte {
	var fb [48]byte
	s := strconv.AppendFloat(fb[:0], v, 'f', digits, 64)
	if len(s) > 0 && s[0] == '-' {
		o, s = append(o, '-'), s[1:]
	}
	intLen := len(s)
	if i := bytes.IndexByte(s, '.'); i >= 0 {
		intLen = i
	}
	group, dec := ",", "."
	if l.ru() {
		group, dec = "\u00a0", ","
	}
	for i := range intLen {
		if i > 0 && (intLen-i)%3 == 0 {
			o = append(o, group...)
		}
		o = append(o, s[i])
	}
	if intLen < len(s) {
		o = append(append(o, dec...), s[intLen+1:]...)
	}
	return o
}

// Count writes n grouped: 8,030,261,248 or 8 030 261 248.
func (l Locale) Count(n int64) string { return l.Fixed(float64(n), 0) }

// CountOrNone writes n, or "—" for 0 (nothing fits).
func (l Locale) CountOrNone(n int) string {
	if n <= 0 {
		return "—"
	}
	return l.Count(int64(n))
}

// Bytes formats b in the chosen unit with two decimals.
func (l Locale) Bytes(b estimator.Bytes) string {
	v, unit := b.GiB(), MsgUnitGiB
	if l.Units == UnitGB {
		v, unit = b.GB(), MsgUnitGB
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "— " + l.T(unit)
	}
	var ob [48]byte
	return string(append(append(l.appendFixed(ob[:0], v, 2), ' '), l.T(unit)...))
}

// BytesRange writes "15.49–16.45 GiB": one unit for both ends.
func (l Locale) BytesRange(lo, hi estimator.Bytes) string {
	a, b := l.Bytes(lo), l.Bytes(hi)
	if i := strings.LastIndexByte(a, ' '); i > 0 && strings.HasSuffix(b, a[i:]) {
		a = a[:i]
	}
	return a + "–" + b
}

// Billions writes a parameter count as "8.03B" or "124M".
func (l Locale) Billions(n int64) string {
	if n >= 1e9 {
		return l.Fixed(float64(n)/1e9, 2) + l.T(MsgBillionSuffix)
	}
	return l.Fixed(float64(n)/1e6, 0) + l.T(MsgMillionSuffix)
}

// Percent writes a fraction as "±25%".
func (l Locale) Percent(f float64) string { return "±" + l.Fixed(f*100, 0) + "%" }

// SmallPercent writes a utilisation f (0.0042 = 0.42%) with enough
// decimals to stay readable when small: decoding at batch 1 uses well
// under 1% of a GPU's FLOPS, which a whole-number percent shows as "0%".
func (l Locale) SmallPercent(f float64) string {
	v := f * 100
	switch {
	case !(v > 0):
		return "0%"
	case v >= 10:
		return l.Fixed(v, 0) + "%"
	case v >= 1:
		return l.Fixed(v, 1) + "%"
	case v >= 0.01:
		return l.Fixed(v, 2) + "%"
	}
	return "< " + l.Fixed(0.01, 2) + "%"
}

// PartShare writes a part's share of the memory total (0..1) to one
// decimal, as "43.5%"; a part too small for that decimal but not nothing
// reads "< 0.1%", never a "0.0%" beside a part that takes memory.
func (l Locale) PartShare(f float64) string {
	if f > 0 && f*100 < 0.05 {
		return "< " + l.Fixed(0.1, 1) + "%"
	}
	return l.Fixed(f*100, 1) + "%"
}

// PartBytes writes a part of the memory breakdown as Bytes does; a part
// too small for two decimals but not nothing reads "< 0.01 GiB", never a
// "0.00 GiB" beside a part that takes memory (the logits of one sequence
// of a 7B model: 0.6 MB).
func (l Locale) PartBytes(b estimator.Bytes) string {
	v := b.GiB()
	if l.Units == UnitGB {
		v = b.GB()
	}
	if b > 0 && v < 0.005 {
		return "< " + l.Bytes(estimator.Bytes(float64(b)/v*0.01))
	}
	return l.Bytes(b)
}

// SignedPercent writes a relative error as "+87%" or "−23%".
func (l Locale) SignedPercent(f float64) string {
	v := math.Round(f * 100)
	if v < 0 {
		return "−" + l.Fixed(-v, 0) + "%"
	}
	return "+" + l.Fixed(v, 0) + "%"
}

var currencySymbols = map[string]string{"USD": "$", "EUR": "€", "CNY": "¥", "RUB": "₽", "GBP": "£"}

// Money formats an amount in its currency; 0 means not offered.
func (l Locale) Money(v float64, currency string) string {
	if !(v > 0) || math.IsInf(v, 0) {
		return "—"
	}
	// Cents on a sum of tens of thousands are noise beside an estimate
	// with a band of ±10% or more: "$251,120", not "$251,120.00".
	digits := 2
	switch {
	case v < 0.1:
		digits = 3
	case v >= 10000:
		digits = 0
	}
	// One allocation: the number and its symbol written into one buffer.
	var ob [64]byte
	o := ob[:0]
	sym, ok := currencySymbols[currency]
	switch {
	case !ok:
		o = l.appendFixed(append(append(o, currency...), ' '), v, digits)
	case l.ru():
		o = append(append(l.appendFixed(o, v, digits), "\u00a0"...), sym...)
	case currency == "RUB":
		o = l.appendFixed(append(append(o, sym...), ' '), v, digits)
	default:
		o = l.appendFixed(append(o, sym...), v, digits)
	}
	return string(o)
}

// Duration writes seconds as "45 s", "12 min", "3.2 h" or "4.5 days".
func (l Locale) Duration(sec float64) string {
	switch {
	case !(sec > 0) || math.IsInf(sec, 0):
		return "—"
	case sec < 1:
		return l.Fixed(sec*1000, 0) + " " + l.T(MsgMs)
	case sec < 120:
		return l.Fixed(sec, 1) + " " + l.T(MsgSec)
	case sec < 2*3600:
		return l.Fixed(sec/60, 0) + " " + l.T(MsgMin)
	case sec < 72*3600:
		return l.Fixed(sec/3600, 1) + " " + l.T(MsgHours)
	}
	return l.Fixed(sec/86400, 1) + " " + l.T(MsgDays)
}

// Rate writes a rate with grouping and at most three significant digits
// below 10: 12,345 · 85.3 · 0.412.
func (l Locale) Rate(v float64) string {
	switch {
	case !(v > 0) || math.IsInf(v, 0):
		return "—"
	case v >= 100:
		return l.Fixed(math.Round(v), 0)
	case v >= 10:
		return l.Fixed(v, 1)
	}
	s := strconv.FormatFloat(v, 'g', 3, 64)
	if l.ru() {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// Date writes a catalog date (YYYY-MM-DD) the way the language does:
// 2026-11-01 · 01.11.2026 · 2026年11月1日; other text is shown as is.
func (l Locale) Date(asOf string) string {
	t, err := catalog.AsOfTime(asOf)
	if err != nil {
		return asOf
	}
	// Formatted by hand into one buffer: time.Format is large cold code
	// in WebAssembly, and the offer tables date every row.
	y, m, d := t.Date()
	var ob [32]byte
	o := ob[:0]
	switch l.Lang {
	case "ru":
		o = appendPad(append(appendPad(append(appendPad(o, d, 2), '.'), int(m), 2), '.'), y, 4)
	case "zh":
		o = append(strconv.AppendInt(append(strconv.AppendInt(append(strconv.AppendInt(o, int64(y), 10), "年"...), int64(m), 10), "月"...), int64(d), 10), "日"...)
	default:
		o = appendPad(append(appendPad(append(appendPad(o, y, 4), '-'), int(m), 2), '-'), d, 2)
	}
	return string(o)
}

// Month writes a catalog date's month the way the language does:
// 2026-07 · 07.2026 · 2026年7月; other text is shown as is.
func (l Locale) Month(asOf string) string {
	t, err := catalog.AsOfTime(asOf)
	if err != nil {
		return asOf
	}
	y, m, _ := t.Date()
	var ob [16]byte
	o := ob[:0]
	switch l.Lang {
	case "ru":
		o = appendPad(append(appendPad(o, int(m), 2), '.'), y, 4)
	case "zh":
		o = append(strconv.AppendInt(append(strconv.AppendInt(o, int64(y), 10), "年"...), int64(m), 10), "月"...)
	default:
		o = appendPad(append(appendPad(o, y, 4), '-'), int(m), 2)
	}
	return string(o)
}

// appendPad appends a non-negative n with at least width digits.
func appendPad(o []byte, n, width int) []byte {
	var db [20]byte
	s := strconv.AppendInt(db[:0], int64(n), 10)
	for range width - len(s) {
		o = append(o, '0')
	}
	return append(o, s...)
}

// Fill puts args in place of msg's %s, in order.
func Fill(msg string, args ...string) string {
	for _, a := range args {
		msg = strings.Replace(msg, "%s", a, 1)
	}
	return msg
}

// SourceText is a source as the page writes it: without "https://" or
// "http://", so a source names its address as text and the page carries no
// URL of another origin (the build's policy test); the CLI and the
// exports keep the full address.
func SourceText(s string) string {
	if !strings.Contains(s, "://") {
		// Most sources name no scheme; a Replacer copies even then.
		return s
	}
	return schemeDropper.Replace(s)
}

// schemeDropper is SourceText's replacer, built once: the tables call
// SourceText for every row they show.
var schemeDropper = strings.NewReplacer("https://", "", "http://", "")

// FXLine says the dated rate the page's prices in currency cur were
// converted at ("" for USD or a currency without a rate), for the line
// next to the converted figures.
func FXLine(l Locale, cat *catalog.Catalog, cur string) string {
	x, ok := cat.FX(cur)
	if cur == "USD" || !ok || !(x.PerUSD > 0) {
		return ""
	}
	return Fill(l.T(MsgFXLine), cur, l.Money(x.PerUSD, cur), l.Date(x.AsOf))
}

// spacedJSON writes compact JSON as config.json files are written, a
// space after each ':' and ',' outside strings ({"factor": 4.0, "type":
// "yarn"}): easier to read, and a line may break between its keys where
// the compact form is one word wider than a phone.
func spacedJSON(s string) string {
	var b strings.Builder
	in, esc := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		b.WriteByte(c)
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case !in && (c == ':' || c == ',') && (i+1 == len(s) || s[i+1] != ' '):
			b.WriteByte(' ')
		}
	}
	return b.String()
}
