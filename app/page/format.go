package page

// Numbers, sizes, money, durations and dates as each language writes them
// (CLDR conventions): English and Chinese group thousands with "," and use
// "." for decimals; Russian groups with a space and uses ",":
// 8,030,261,248 · 8 030 261 248; 137.3 GiB · 137,3 ГиБ. Currency symbols
// follow the amount in Russian (245,50 ₽) and precede it otherwise.

import (
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

// Fixed writes v with digits decimals, grouped.
func (l Locale) Fixed(v float64, digits int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	s := strconv.FormatFloat(v, 'f', digits, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	neg := strings.HasPrefix(intPart, "-")
	intPart = strings.TrimPrefix(intPart, "-")
	group, dec := ",", "."
	if l.ru() {
		group, dec = " ", ","
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i := range len(intPart) {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteString(group)
		}
		b.WriteByte(intPart[i])
	}
	if frac != "" {
		b.WriteString(dec)
		b.WriteString(frac)
	}
	return b.String()
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
	if l.Units == UnitGB {
		return l.Fixed(b.GB(), 2) + " " + l.T(MsgUnitGB)
	}
	return l.Fixed(b.GiB(), 2) + " " + l.T(MsgUnitGiB)
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
	digits := 2
	if v < 0.1 {
		digits = 3
	}
	num := l.Fixed(v, digits)
	sym, ok := currencySymbols[currency]
	switch {
	case !ok:
		return currency + " " + num
	case l.ru():
		return num + " " + sym
	case currency == "RUB":
		return sym + " " + num
	}
	return sym + num
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
	// Formatted by hand: time.Format is large cold code in WebAssembly.
	y, m, d := t.Date()
	switch l.Lang {
	case "ru":
		return zeroPad(d, 2) + "." + zeroPad(int(m), 2) + "." + zeroPad(y, 4)
	case "zh":
		return strconv.Itoa(y) + "年" + strconv.Itoa(int(m)) + "月" + strconv.Itoa(d) + "日"
	}
	return zeroPad(y, 4) + "-" + zeroPad(int(m), 2) + "-" + zeroPad(d, 2)
}

// zeroPad writes a non-negative n with at least width digits.
func zeroPad(n, width int) string {
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return s
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
