// Package estimator is Rightsize's memory, time and cost model. It is pure Go
// and imports only the standard library, so the same code runs natively (CLI,
// tests, site generator) and in the browser (app.wasm).
package estimator

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// Bytes is a count of bytes: canonical, exact and comparable, like
// time.Duration. Both SI (GB = 10^9) and IEC (GiB = 2^30) multiples are
// defined; choosing one for display is the UI's job.
type Bytes int64

const (
	Byte Bytes = 1

	// SI (decimal): marketing capacities, disk and network, model file sizes.
	KB = 1000 * Byte
	MB = 1000 * KB
	GB = 1000 * MB
	TB = 1000 * GB

	// IEC (binary): what nvidia-smi, the CUDA allocator and OOM messages report.
	KiB = 1024 * Byte
	MiB = 1024 * KiB
	GiB = 1024 * MiB
	TiB = 1024 * GiB
)

// Billion is 10^9: parameter counts are decimal ("7B" = 7e9 parameters).
const Billion = 1e9

// GiB returns b in binary gibibytes.
func (b Bytes) GiB() float64 { return float64(b) / float64(GiB) }

// GB returns b in decimal gigabytes.
func (b Bytes) GB() float64 { return float64(b) / float64(GB) }

var byteUnits = [...]struct {
	suffix string
	unit   Bytes
}{
	{"kib", KiB}, {"mib", MiB}, {"gib", GiB}, {"tib", TiB},
	{"kb", KB}, {"mb", MB}, {"gb", GB}, {"tb", TB}, {"b", Byte},
}

// ParseBytes reads a size with a unit, such as "24GB", "80GiB", "81559 MiB"
// or "1.5TB" (case-insensitive). SI and IEC units are distinct: GB is 10^9,
// GiB 2^30. A bare number is an error, as its unit would be a guess.
func ParseBytes(s string) (Bytes, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, u := range byteUnits {
		num, ok := strings.CutSuffix(t, u.suffix)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
		if err != nil || math.IsNaN(f) || f < 0 || f*float64(u.unit) > maxVRAM {
			return 0, &InputError{Field: "size", Value: s, Reason: "want a non-negative number below 1 PiB with a unit (e.g. 24GB, 80GiB)", Err: ErrRange, Range: Range{Min: 0, Max: maxVRAM, HasMin: true, HasMax: true, MaxOpen: true, Unit: RangeBytes}}
		}
		return Bytes(math.Round(f * float64(u.unit))), nil
	}
	return 0, &InputError{Field: "size", Value: s, Reason: "missing unit (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)", Err: ErrUnknown}
}

// countSuffixes are the multipliers ParseCount accepts: thousand, million,
// billion, trillion (short scale, as token counts are written: "2T").
var countSuffixes = []struct {
	suffix string
	mul    float64
}{{"k", 1e3}, {"m", 1e6}, {"b", 1e9}, {"t", 1e12}}

// maxCount bounds a parsed count (10^18 tokens is far past any training run).
const maxCount = 1e18

// ParseCount reads a non-negative count such as "2T", "500M", "1.5B",
// "1e9" or "4096" (case-insensitive). Text that is no number ("abc",
// "1.2.3", "NaN") is ErrNotNumber; negatives, infinities and values above
// 10^18 are ErrRange.
func ParseCount(s string) (float64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mul := 1.0
	for _, c := range countSuffixes {
		if num, ok := strings.CutSuffix(t, c.suffix); ok {
			t, mul = strings.TrimSpace(num), c.mul
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsNaN(f) {
		return 0, &InputError{Field: "count", Value: s, Reason: "want a count such as 4096, 500M, 1.5B or 2T", Err: ErrNotNumber}
	}
	if err != nil || f < 0 || f*mul > maxCount {
		return 0, &InputError{Field: "count", Value: s, Reason: "want a number ≥ 0 up to 10^18, optionally with K, M, B or T", Err: ErrRange, Range: Between(0, maxCount)}
	}
	return f * mul, nil
}

// maxDurationSeconds bounds a duration: 10⁹ s is about 31.7 years, past
// any job or deadline, and keeps every product with a price finite.
const maxDurationSeconds = 1e9

// ParseSeconds reads a duration as the CLI's flags and the page's fields
// take it: bare seconds ("90", "1.5"), a Go duration ("800ms", "72h",
// "1h30m") or days ("3d"), from 0 to 10⁹ s. It is the one duration parser
// of Rightsize: the CLI and the page accept and refuse the same text.
func ParseSeconds(s string) (float64, error) {
	t := strings.TrimSpace(s)
	bad := &InputError{Field: "duration", Value: s, Reason: "want e.g. 90 (seconds), 800ms, 72h or 3d, from 0 to 10^9 s", Err: ErrRange, Range: Between(0, maxDurationSeconds).In(RangeSeconds)}
	var v float64
	if x, err := strconv.ParseFloat(t, 64); err == nil {
		v = x
	} else if d, ok := strings.CutSuffix(t, "d"); ok {
		x, err := strconv.ParseFloat(strings.TrimSpace(d), 64)
		if err != nil {
			return 0, bad
		}
		v = x * 86400
	} else if d, err := time.ParseDuration(t); err == nil {
		v = d.Seconds()
	} else {
		return 0, bad
	}
	if !(v >= 0 && v <= maxDurationSeconds) {
		return 0, bad
	}
	return v, nil
}
