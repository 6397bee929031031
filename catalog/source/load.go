// Package source loads Rightsize's catalog from its reviewed JSON files
// (catalog/data), decodes them strictly with goccy/go-json, validates every
// record and converts it into the rightsize/catalog tables. It also writes
// the generated Go tables and the JSON files back (for the import tools).
//
// It is native-only tooling: app.wasm imports rightsize/catalog, never this
// package.
package source

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"rightsize/catalog"
	"rightsize/estimator"
)

// File names inside a catalog data directory.
const (
	GPUsFile      = "gpus.json"
	ModelsFile    = "models.json"
	ProvidersFile = "providers.json"
	OffersFile    = "offers.json"
	FXFile        = "fx.json"
	HostedFile    = "hosted_apis.json"
)

// Files is the raw, decoded-but-unconverted content of a data directory. The
// import tools edit it and write it back, so that fields the Go tables do not
// carry (units as spelled, gpu_memory_gb checks) survive a round trip.
type Files struct {
	GPUs      gpuFile
	Models    modelFile
	Providers providerFile
	Offers    offerFile
	FX        fxFile
	Hosted    hostedFile
}

// Error is one validation problem: file, entry index (0-based, as in
// jq '.offers[12]'), record ID and message.
type Error struct {
	File  string
	Index int // -1 for file-level errors
	ID    string
	Msg   string
}

func (e *Error) Error() string {
	if e.Index < 0 {
		return fmt.Sprintf("catalog: %s: %s", e.File, e.Msg)
	}
	if e.ID == "" {
		return fmt.Sprintf("catalog: %s: entry %d: %s", e.File, e.Index, e.Msg)
	}
	id := e.ID
	if catalog.CheckName("id", id) != nil {
		id = strconv.Quote(id) // shown, never acted on
	}
	return fmt.Sprintf("catalog: %s: entry %d (%s): %s", e.File, e.Index, id, e.Msg)
}

// Errors is a list of validation problems, one per line.
type Errors []*Error

func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Load reads the six files from fsys, strictly decodes and validates them,
// and returns the catalog. now bounds as_of dates (none may be later).
// A validation failure returns Errors listing every problem.
func Load(fsys fs.FS, now time.Time) (*catalog.Catalog, error) {
	f, err := ReadFiles(fsys)
	if err != nil {
		return nil, err
	}
	return f.Catalog(now)
}

// ReadFiles strictly decodes the six files from fsys without validating
// their content.
func ReadFiles(fsys fs.FS) (*Files, error) {
	var f Files
	var errs Errors
	errs = append(errs, readFile(fsys, GPUsFile, &f.GPUs.Comment, "gpus", &f.GPUs.GPUs)...)
	errs = append(errs, readFile(fsys, ModelsFile, &f.Models.Comment, "models", &f.Models.Models)...)
	errs = append(errs, readFile(fsys, ProvidersFile, &f.Providers.Comment, "providers", &f.Providers.Providers)...)
	errs = append(errs, readFile(fsys, OffersFile, &f.Offers.Comment, "offers", &f.Offers.Offers)...)
	errs = append(errs, readFile(fsys, FXFile, &f.FX.Comment, "rates", &f.FX.Rates)...)
	errs = append(errs, readFile(fsys, HostedFile, &f.Hosted.Comment, "prices", &f.Hosted.Prices)...)
	if len(errs) > 0 {
		return nil, errs
	}
	return &f, nil
}

// readFile decodes {"comment": ..., "<key>": [ ... ]} strictly, one entry at a
// time so that errors name the entry.
func readFile[T any](fsys fs.FS, name string, comment *string, key string, out *[]T) Errors {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return Errors{{File: name, Index: -1, Msg: err.Error()}}
	}
	return decodeFile(name, data, comment, key, out)
}

func decodeFile[T any](name string, data []byte, comment *string, key string, out *[]T) Errors {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return Errors{{File: name, Index: -1, Msg: err.Error()}}
	}
	for k := range top {
		if k != "comment" && k != key {
			return Errors{{File: name, Index: -1, Msg: fmt.Sprintf("unknown top-level field %q (want %q and optional \"comment\")", k, key)}}
		}
	}
	if c, ok := top["comment"]; ok {
		if err := json.Unmarshal(c, comment); err != nil {
			return Errors{{File: name, Index: -1, Msg: "comment: " + err.Error()}}
		}
	}
	arr, ok := top[key]
	if !ok {
		return Errors{{File: name, Index: -1, Msg: fmt.Sprintf("missing %q array", key)}}
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(arr, &raws); err != nil {
		return Errors{{File: name, Index: -1, Msg: key + ": " + err.Error()}}
	}
	var errs Errors
	*out = make([]T, 0, len(raws))
	for i, raw := range raws {
		var v T
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			errs = append(errs, &Error{File: name, Index: i, ID: peekID(raw), Msg: err.Error()})
			continue
		}
		*out = append(*out, v)
	}
	return errs
}

// peekID extracts "id" leniently, for error messages about undecodable entries.
func peekID(raw []byte) string {
	var v struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(raw, &v)
	return v.ID
}

// validator collects errors for one file.
type validator struct {
	file string
	now  time.Time
	errs Errors
}

func (v *validator) add(i int, id, format string, args ...any) {
	v.errs = append(v.errs, &Error{File: v.file, Index: i, ID: id, Msg: fmt.Sprintf(format, args...)})
}

func (v *validator) date(i int, id, field, s string) {
	if s == "" {
		v.add(i, id, "%s is missing", field)
		return
	}
	t, err := time.Parse(catalog.DateLayout, s)
	if err != nil {
		v.add(i, id, "%s %q is not a YYYY-MM-DD date", field, s)
		return
	}
	if t.After(v.now) {
		v.add(i, id, "%s %s is in the future", field, s)
	}
}

func (v *validator) nonEmpty(i int, id, field, s string) {
	if strings.TrimSpace(s) == "" {
		v.add(i, id, "%s is missing", field)
	}
}

// name applies catalog.CheckName: a name that reaches launch scripts,
// task YAML and terminals holds no control character or shell syntax.
func (v *validator) name(i int, id, field, s string) {
	if err := catalog.CheckName(field, s); err != nil {
		v.add(i, id, "%v", err)
	}
}

func (v *validator) rangeF(i int, id, field string, x, lo, hi float64) {
	if math.IsNaN(x) || x < lo || x > hi {
		v.add(i, id, "%s %v out of range [%v, %v]", field, x, lo, hi)
	}
}

// validID reports whether id is lower-case kebab (dots and underscores
// allowed for versions and instance types).
func validID(id string) bool {
	if id == "" || id[0] == '-' || id[len(id)-1] == '-' {
		return false
	}
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '.', r == '_':
		default:
			return false
		}
	}
	return true
}

func (v *validator) id(i int, id string, seen map[string]int) {
	if !validID(id) {
		v.add(i, id, "id %q must be lower-case kebab-case ([a-z0-9._-])", id)
	}
	if j, dup := seen[id]; dup {
		v.add(i, id, "duplicate id (also entry %d)", j)
	}
	seen[id] = i
}

// Catalog validates the files and converts them to a catalog sorted by ID.
func (f *Files) Catalog(now time.Time) (*catalog.Catalog, error) {
	var c catalog.Catalog
	var errs Errors

	gv := &validator{file: GPUsFile, now: now}
	gpus := map[string]catalog.GPU{}
	seen := map[string]int{}
	for i, g := range f.GPUs.GPUs {
		gv.id(i, g.ID, seen)
		out := convertGPU(gv, i, g)
		gpus[g.ID] = out
		c.GPUs = append(c.GPUs, out)
	}
	errs = append(errs, gv.errs...)

	mv := &validator{file: ModelsFile, now: now}
	seen = map[string]int{}
	for i, m := range f.Models.Models {
		mv.id(i, m.ID, seen)
		c.Models = append(c.Models, convertModel(mv, i, m))
	}
	errs = append(errs, mv.errs...)

	pv := &validator{file: ProvidersFile, now: now}
	providers := map[string]catalog.Provider{}
	seen = map[string]int{}
	for i, p := range f.Providers.Providers {
		pv.id(i, p.ID, seen)
		out := convertProvider(pv, i, p)
		providers[p.ID] = out
		c.Providers = append(c.Providers, out)
	}
	errs = append(errs, pv.errs...)

	ov := &validator{file: OffersFile, now: now}
	seen = map[string]int{}
	for i, o := range f.Offers.Offers {
		ov.id(i, o.ID, seen)
		c.Offers = append(c.Offers, convertOffer(ov, i, o, gpus, providers))
	}
	regionOffers(ov, f.Offers.Offers)
	errs = append(errs, ov.errs...)

	fv := &validator{file: FXFile, now: now}
	seen = map[string]int{}
	for i, r := range f.FX.Rates {
		c.FXRates = append(c.FXRates, convertFX(fv, i, r, seen))
	}
	for _, cur := range []string{"USD", "EUR", "RUB", "CNY"} {
		if _, ok := seen[cur]; !ok {
			fv.add(-1, "", "no rate for %s (USD, EUR, RUB and CNY are required)", cur)
		}
	}
	for _, p := range c.Providers {
		if _, ok := seen[p.Currency]; !ok {
			fv.add(-1, "", "no rate for %s, the currency of provider %s", p.Currency, p.ID)
		}
	}
	errs = append(errs, fv.errs...)

	hv := &validator{file: HostedFile, now: now}
	models := map[string]bool{}
	for _, m := range c.Models {
		models[m.ID] = true
	}
	seen = map[string]int{}
	for i, h := range f.Hosted.Prices {
		hv.id(i, h.ID, seen)
		c.HostedAPIs = append(c.HostedAPIs, convertHosted(hv, i, h, models))
	}
	errs = append(errs, hv.errs...)

	if len(errs) > 0 {
		return nil, errs
	}
	Sort(&c)
	return &c, nil
}

// Sort orders every table by ID, as catalog lookups expect.
func Sort(c *catalog.Catalog) {
	slices.SortFunc(c.GPUs, func(a, b catalog.GPU) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(c.Models, func(a, b catalog.Model) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(c.Providers, func(a, b catalog.Provider) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(c.Offers, func(a, b catalog.Offer) int { return strings.Compare(a.ID, b.ID) })
	slices.SortFunc(c.FXRates, func(a, b catalog.FXRate) int { return strings.Compare(a.Currency, b.Currency) })
	slices.SortFunc(c.HostedAPIs, func(a, b catalog.HostedAPIPrice) int { return strings.Compare(a.ID, b.ID) })
}

// bytesOf converts a float count of units to Bytes, rejecting NaN, Inf,
// negatives and overflow.
func bytesOf(x float64, unit estimator.Bytes) (estimator.Bytes, error) {
	b := x * float64(unit)
	if math.IsNaN(b) || math.IsInf(b, 0) || b <= 0 || b >= math.MaxInt64 {
		return 0, errors.New("not a positive byte count")
	}
	return estimator.Bytes(math.Round(b)), nil
}
