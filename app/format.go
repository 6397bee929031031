package app

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

// locale formats for one language and the chosen memory unit.
type locale struct {
	lang  string
	units unit
}

func (l locale) t(k msgKey) string { return tr(l.lang, k) }

func (l locale) ru() bool { return l.lang == "ru" }

// fixed writes v with digits decimals, grouped.
func (l locale) fixed(v float64, digits int) string {
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

// count writes n grouped: 8,030,261,248 or 8 030 261 248.
func (l locale) count(n int64) string { return l.fixed(float64(n), 0) }

// countOrNone writes n, or "—" for 0 (nothing fits).
func (l locale) countOrNone(n int) string {
	if n <= 0 {
		return "—"
	}
	return l.count(int64(n))
}

// bytes formats b in the chosen unit with two decimals.
func (l locale) bytes(b estimator.Bytes) string {
	if l.units == unitGB {
		return l.fixed(b.GB(), 2) + " " + l.t(mUnitGB)
	}
	return l.fixed(b.GiB(), 2) + " " + l.t(mUnitGiB)
}

// bytesRange writes "15.49–16.45 GiB": one unit for both ends.
func (l locale) bytesRange(lo, hi estimator.Bytes) string {
	a, b := l.bytes(lo), l.bytes(hi)
	if i := strings.LastIndexByte(a, ' '); i > 0 && strings.HasSuffix(b, a[i:]) {
		a = a[:i]
	}
	return a + "–" + b
}

// billions writes a parameter count as "8.03B" or "124M".
func (l locale) billions(n int64) string {
	if n >= 1e9 {
		return l.fixed(float64(n)/1e9, 2) + l.t(mBillionSuffix)
	}
	return l.fixed(float64(n)/1e6, 0) + l.t(mMillionSuffix)
}

// percent writes a fraction as "±25%".
func (l locale) percent(f float64) string { return "±" + l.fixed(f*100, 0) + "%" }

// smallPercent writes a utilisation f (0.0042 = 0.42%) with enough
// decimals to stay readable when small: decoding at batch 1 uses well
// under 1% of a GPU's FLOPS, which a whole-number percent shows as "0%".
func (l locale) smallPercent(f float64) string {
	v := f * 100
	switch {
	case !(v > 0):
		return "0%"
	case v >= 10:
		return l.fixed(v, 0) + "%"
	case v >= 1:
		return l.fixed(v, 1) + "%"
	case v >= 0.01:
		return l.fixed(v, 2) + "%"
	}
	return "< " + l.fixed(0.01, 2) + "%"
}

// signedPercent writes a relative error as "+87%" or "−23%".
func (l locale) signedPercent(f float64) string {
	v := math.Round(f * 100)
	if v < 0 {
		return "−" + l.fixed(-v, 0) + "%"
	}
	return "+" + l.fixed(v, 0) + "%"
}

var currencySymbols = map[string]string{"USD": "$", "EUR": "€", "CNY": "¥", "RUB": "₽", "GBP": "£"}

// money formats an amount in its currency; 0 means not offered.
func (l locale) money(v float64, currency string) string {
	if !(v > 0) || math.IsInf(v, 0) {
		return "—"
	}
	digits := 2
	if v < 0.1 {
		digits = 3
	}
	num := l.fixed(v, digits)
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

// duration writes seconds as "45 s", "12 min", "3.2 h" or "4.5 days".
func (l locale) duration(sec float64) string {
	switch {
	case !(sec > 0) || math.IsInf(sec, 0):
		return "—"
	case sec < 1:
		return l.fixed(sec*1000, 0) + " " + l.t(mMs)
	case sec < 120:
		return l.fixed(sec, 1) + " " + l.t(mSec)
	case sec < 2*3600:
		return l.fixed(sec/60, 0) + " " + l.t(mMin)
	case sec < 72*3600:
		return l.fixed(sec/3600, 1) + " " + l.t(mHours)
	}
	return l.fixed(sec/86400, 1) + " " + l.t(mDays)
}

// rate writes a rate with grouping and at most three significant digits
// below 10: 12,345 · 85.3 · 0.412.
func (l locale) rate(v float64) string {
	switch {
	case !(v > 0) || math.IsInf(v, 0):
		return "—"
	case v >= 100:
		return l.fixed(math.Round(v), 0)
	case v >= 10:
		return l.fixed(v, 1)
	}
	s := strconv.FormatFloat(v, 'g', 3, 64)
	if l.ru() {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// date writes a catalog date (YYYY-MM-DD) the way the language does:
// 2026-11-01 · 01.11.2026 · 2026年11月1日; other text is shown as is.
func (l locale) date(asOf string) string {
	t, err := catalog.AsOfTime(asOf)
	if err != nil {
		return asOf
	}
	// Formatted by hand: time.Format is large cold code in WebAssembly.
	y, m, d := t.Date()
	switch l.lang {
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
