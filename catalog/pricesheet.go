package catalog

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// A price sheet carries negotiated or refreshed prices: the same format is
// loaded in the browser (Catalog.WithPrices) and merged into the catalog
// files by "rightsize catalog import-prices".
//
// CSV: a header row, then one row per offer; columns in any order, unknown
// columns are errors, empty cells mean "no change":
//
//	offer_id,provider,instance_type,gpu,gpu_count,on_demand_per_hour,spot_per_hour,reserved_1y_per_hour,reserved_3y_per_hour,monthly_price,currency,region,network_gbps,network_fabric,spot_interruption,vcpus,ram_gib,billing_granularity,as_of,source,notes
//
// network_gbps, network_fabric and spot_interruption set the offer's
// inter-node network and spot-risk bucket (see Offer), sourced by the row;
// vcpus, ram_gib and billing_granularity its host and smallest billed
// unit (a row of the user's own machines states them, or the plan checks
// no host and bills a job by its exact run time: plan.BilledHours).
// JSON: {"prices": [{...}]} or a bare array, with the same keys (numbers as
// JSON numbers).
//
// A row names an existing offer by offer_id, or by provider + instance_type;
// a row naming no existing offer adds one and must then give provider,
// instance_type, gpu, gpu_count and currency. The provider is the
// catalog's; in the user's own sheet (PriceMerge.Own) a name the catalog
// does not know is a provider of the user's own (KindOwn). Prices are per whole instance
// per hour (monthly_price per month) in the row's currency, which must match
// the offer's. as_of (YYYY-MM-DD) and source are required on every row:
// a price without a date and an origin is not accepted.
type PriceRow struct {
	OfferID           string  `json:"offer_id,omitempty"`
	Provider          string  `json:"provider,omitempty"`
	InstanceType      string  `json:"instance_type,omitempty"`
	GPU               string  `json:"gpu,omitempty"`
	GPUCount          float64 `json:"gpu_count,omitempty"`
	OnDemandPerHour   float64 `json:"on_demand_per_hour,omitempty"`
	SpotPerHour       float64 `json:"spot_per_hour,omitempty"`
	Reserved1yPerHour float64 `json:"reserved_1y_per_hour,omitempty"`
	Reserved3yPerHour float64 `json:"reserved_3y_per_hour,omitempty"`
	MonthlyPrice      float64 `json:"monthly_price,omitempty"`
	Currency          string  `json:"currency,omitempty"`
	Region            string  `json:"region,omitempty"`
	NetworkGbps       float64 `json:"network_gbps,omitempty"`
	NetworkFabric     string  `json:"network_fabric,omitempty"`
	SpotInterruption  string  `json:"spot_interruption,omitempty"`
	VCPUs             float64 `json:"vcpus,omitempty"`
	RAMGiB            float64 `json:"ram_gib,omitempty"`
	// BillingGranularity is Offer.BillingGranularity: one of
	// BillingGranularities.
	BillingGranularity string `json:"billing_granularity,omitempty"`
	AsOf               string `json:"as_of,omitempty"`
	Source             string `json:"source,omitempty"`
	Notes              string `json:"notes,omitempty"`
	// Line is the row's position in the sheet (1-based data row), for errors.
	Line int `json:"-"`
	// FileLine is a CSV row's line in the file (the header is line 1; a
	// quoted cell may span lines), 0 for JSON: what a text editor shows
	// beside the row the errors name.
	FileLine int `json:"-"`
}

// where is the start of an error about row: "catalog: price sheet: row 3
// (line 4)", the line where the sheet is a CSV file.
func (row PriceRow) where() string {
	if row.FileLine > 0 {
		return fmt.Sprintf("catalog: price sheet: row %d (line %d)", row.Line, row.FileLine)
	}
	return fmt.Sprintf("catalog: price sheet: row %d", row.Line)
}

// PriceSheetColumns are the CSV columns a price sheet may have.
var PriceSheetColumns = []string{
	"offer_id", "provider", "instance_type", "gpu", "gpu_count",
	"on_demand_per_hour", "spot_per_hour", "reserved_1y_per_hour", "reserved_3y_per_hour", "monthly_price",
	"currency", "region", "network_gbps", "network_fabric", "spot_interruption", "vcpus", "ram_gib", "billing_granularity",
	"as_of", "source", "notes",
}

// BillingGranularities are the values Offer.BillingGranularity may hold
// besides "" (the catalog's validation checks the same list).
var BillingGranularities = []string{"second", "minute", "hour", "month"}

// SpotBuckets are the AWS Spot Instance Advisor interruption buckets
// (monthly share of capacity reclaimed) Offer.SpotInterruption may hold.
var SpotBuckets = []string{"<5%", "5-10%", "10-15%", "15-20%", ">20%"}

// NetworkFabrics are the values Offer.NetworkFabric may hold besides "".
var NetworkFabrics = []string{"efa", "infiniband", "roce", "ethernet"}

// MaxPriceSheetBytes and MaxPriceRows bound the work one price sheet can
// cause, in the browser and in the CLI alike: a 4 MiB CSV of 100,000 new
// offers is within them.
const (
	MaxPriceSheetBytes = 16 << 20
	MaxPriceRows       = 250_000
)

// utf8BOM starts the CSV files Excel writes as "CSV UTF-8".
const utf8BOM = "\ufeff"

// ParsePriceSheet reads a CSV or JSON price sheet (JSON when the first
// non-space byte is '{' or '['). Errors name the row and column.
func ParsePriceSheet(r io.Reader) ([]PriceRow, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxPriceSheetBytes+1))
	if err != nil {
		return nil, fmt.Errorf("catalog: price sheet: %v", err)
	}
	sr, err := NewPriceSheetReader(data)
	if err != nil {
		return nil, err
	}
	var rows []PriceRow
	for {
		row, err := sr.Next()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
}

// PriceSheetReader reads a price sheet one row at a time, so that a page
// can apply a large sheet in slices and show its progress.
type PriceSheetReader struct {
	size   int
	line   int
	csv    *csv.Reader
	header []string
	json   []json.RawMessage
}

// NewPriceSheetReader checks a sheet's size, its header (CSV) or outer
// structure (JSON); the rows are read by Next.
func NewPriceSheetReader(data []byte) (*PriceSheetReader, error) {
	if len(data) > MaxPriceSheetBytes {
		return nil, fmt.Errorf("catalog: price sheet: larger than %d MiB", MaxPriceSheetBytes>>20)
	}
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	r := &PriceSheetReader{size: len(data)}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		raws, err := splitPriceJSON(trimmed)
		if err != nil {
			return nil, err
		}
		if len(raws) > MaxPriceRows {
			return nil, fmt.Errorf("catalog: price sheet: %d rows, more than %d", len(raws), MaxPriceRows)
		}
		r.json = raws
		return r, nil
	}
	r.csv = csv.NewReader(bytes.NewReader(data))
	r.csv.TrimLeadingSpace = true
	header, err := r.csv.Read()
	if err == io.EOF {
		return nil, errors.New("catalog: price sheet: empty")
	}
	if err != nil {
		return nil, fmt.Errorf("catalog: price sheet: %v", err)
	}
	for i, h := range header {
		h = strings.TrimSpace(h)
		if !slices.Contains(PriceSheetColumns, h) {
			return nil, fmt.Errorf("catalog: price sheet: unknown column %q (known: %s)", h, strings.Join(PriceSheetColumns, ","))
		}
		if slices.Contains(header[:i], h) {
			return nil, fmt.Errorf("catalog: price sheet: column %q twice", h)
		}
		header[i] = h
	}
	r.header = header
	return r, nil
}

// Progress is the share of the sheet read so far, from 0 to 1.
func (r *PriceSheetReader) Progress() float64 {
	switch {
	case r.csv != nil && r.size > 0:
		return float64(r.csv.InputOffset()) / float64(r.size)
	case len(r.json) > 0:
		return float64(r.line) / float64(len(r.json))
	}
	return 1
}

// Next returns the next row, or io.EOF after the last.
func (r *PriceSheetReader) Next() (PriceRow, error) {
	if r.line >= MaxPriceRows {
		return PriceRow{}, fmt.Errorf("catalog: price sheet: more than %d rows", MaxPriceRows)
	}
	var row PriceRow
	var err error
	if r.csv != nil {
		row, err = r.nextCSV()
	} else {
		row, err = r.nextJSON()
	}
	if err != nil {
		return PriceRow{}, err
	}
	if err := checkRowNames(row); err != nil {
		return PriceRow{}, err
	}
	return row, checkRowNumbers(row)
}

func splitPriceJSON(data []byte) ([]json.RawMessage, error) {
	var raws []json.RawMessage
	if data[0] == '{' {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(data, &top); err != nil {
			return nil, fmt.Errorf("catalog: price sheet: %v", err)
		}
		for k := range top {
			if k != "prices" && k != "comment" {
				return nil, fmt.Errorf("catalog: price sheet: unknown top-level field %q (want \"prices\")", k)
			}
		}
		data = top["prices"]
		if data == nil {
			return nil, errors.New(`catalog: price sheet: missing "prices" array`)
		}
	}
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, fmt.Errorf("catalog: price sheet: %v", err)
	}
	return raws, nil
}

func (r *PriceSheetReader) nextJSON() (PriceRow, error) {
	if r.line >= len(r.json) {
		return PriceRow{}, io.EOF
	}
	raw := r.json[r.line]
	r.json[r.line] = nil // read once
	r.line++
	var row PriceRow
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&row); err != nil {
		return PriceRow{}, fmt.Errorf("catalog: price sheet: row %d: %v", r.line, err)
	}
	row.Line = r.line
	return row, nil
}

func (r *PriceSheetReader) nextCSV() (PriceRow, error) {
	rec, err := r.csv.Read()
	if err == io.EOF {
		return PriceRow{}, io.EOF
	}
	r.line++
	if err != nil {
		return PriceRow{}, fmt.Errorf("catalog: price sheet: %v", err)
	}
	fileLine, _ := r.csv.FieldPos(0)
	row := PriceRow{Line: r.line, FileLine: fileLine}
	for j, cell := range rec {
		cell = strings.TrimSpace(cell)
		if cell == "" {
			continue
		}
		col := r.header[j]
		var f *float64
		switch col {
		case "offer_id":
			row.OfferID = cell
		case "provider":
			row.Provider = cell
		case "instance_type":
			row.InstanceType = cell
		case "gpu":
			row.GPU = cell
		case "currency":
			row.Currency = cell
		case "region":
			row.Region = cell
		case "network_fabric":
			row.NetworkFabric = cell
		case "spot_interruption":
			row.SpotInterruption = cell
		case "network_gbps":
			f = &row.NetworkGbps
		case "vcpus":
			f = &row.VCPUs
		case "ram_gib":
			f = &row.RAMGiB
		case "billing_granularity":
			row.BillingGranularity = cell
		case "as_of":
			row.AsOf = cell
		case "source":
			row.Source = cell
		case "notes":
			row.Notes = cell
		case "gpu_count":
			f = &row.GPUCount
		case "on_demand_per_hour":
			f = &row.OnDemandPerHour
		case "spot_per_hour":
			f = &row.SpotPerHour
		case "reserved_1y_per_hour":
			f = &row.Reserved1yPerHour
		case "reserved_3y_per_hour":
			f = &row.Reserved3yPerHour
		case "monthly_price":
			f = &row.MonthlyPrice
		}
		if f != nil {
			x, err := strconv.ParseFloat(cell, 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
				return PriceRow{}, fmt.Errorf("%s: %s %q is not a non-negative number", row.where(), col, cell)
			}
			*f = x
		}
	}
	return row, nil
}

// checkRowNames applies CheckName to the names a row gives: the offer it
// names or adds, its provider, instance type, GPU, currency and region.
func checkRowNames(row PriceRow) error {
	for _, n := range [...]struct{ field, s string }{
		{"offer_id", row.OfferID}, {"provider", row.Provider}, {"instance_type", row.InstanceType},
		{"gpu", row.GPU}, {"currency", row.Currency}, {"region", row.Region},
	} {
		if err := CheckName(n.field, n.s); err != nil {
			return fmt.Errorf("%s: %w", row.where(), err)
		}
	}
	return nil
}

// checkRowNumbers refuses what no offer can hold, whatever the format: a
// negative, infinite or NaN number (JSON has no NaN, but 1e309 overflows),
// a GPU count outside (0, 16], a network faster than 100 Tb/s. Prices too
// high or too low for the GPU are refused where the GPU is known
// (CheckOfferPrices).
func checkRowNumbers(row PriceRow) error {
	for _, n := range []struct {
		col string
		x   float64
	}{
		{"gpu_count", row.GPUCount}, {"on_demand_per_hour", row.OnDemandPerHour}, {"spot_per_hour", row.SpotPerHour},
		{"reserved_1y_per_hour", row.Reserved1yPerHour}, {"reserved_3y_per_hour", row.Reserved3yPerHour},
		{"monthly_price", row.MonthlyPrice}, {"network_gbps", row.NetworkGbps}, {"vcpus", row.VCPUs}, {"ram_gib", row.RAMGiB},
	} {
		if math.IsNaN(n.x) || math.IsInf(n.x, 0) || n.x < 0 {
			return fmt.Errorf("%s: %s %v is not a non-negative number", row.where(), n.col, n.x)
		}
	}
	if row.GPUCount > MaxGPUsPerOffer {
		return fmt.Errorf("%s: gpu_count %v out of range (0, %d]", row.where(), row.GPUCount, MaxGPUsPerOffer)
	}
	if row.NetworkGbps > MaxNetworkGbps {
		return fmt.Errorf("%s: network_gbps %v out of range [0, %d]", row.where(), row.NetworkGbps, MaxNetworkGbps)
	}
	if row.VCPUs > MaxVCPUs || row.VCPUs != math.Trunc(row.VCPUs) {
		return fmt.Errorf("%s: vcpus %v is not a whole number in [0, %d]", row.where(), row.VCPUs, MaxVCPUs)
	}
	if row.RAMGiB > MaxRAMGiB {
		return fmt.Errorf("%s: ram_gib %v out of range [0, %d]", row.where(), row.RAMGiB, MaxRAMGiB)
	}
	if row.BillingGranularity != "" && !slices.Contains(BillingGranularities, row.BillingGranularity) {
		return fmt.Errorf("%s: billing_granularity %q is not one of %s", row.where(), row.BillingGranularity, strings.Join(BillingGranularities, ", "))
	}
	return nil
}

// Limits of an offer, checked for price-sheet rows and for the catalog's
// own offers (catalog/source) alike.
const (
	MaxGPUsPerOffer = 16
	MaxNetworkGbps  = 100_000
	MaxVCPUs        = 1024
	MaxRAMGiB       = 32768
)

// CurrencyPerUSD is a deliberately wide band of units per US dollar, used
// only to check that a price is plausible, never to convert or compare
// prices (the catalog has no sourced FX table).
var CurrencyPerUSD = map[string][2]float64{
	"USD": {1, 1},
	"EUR": {0.6, 1.4},
	"CNY": {4, 12},
	"RUB": {40, 200},
}

// PriceBoundsUSD is the plausible range of a per-GPU-hour price in USD for a
// GPU, scaled by its memory as a proxy for its class: at least $0.002 and at
// most $20 + $0.15 per GB of GPU memory per hour. A B200 (180 GB) must cost
// at least $0.36/GPU-h and at most $47; a T4 between $0.032 and $22.4. The
// floor is low on purpose: marketplace spot prices for old parts are real.
func PriceBoundsUSD(g GPU) (lo, hi float64) {
	gb := g.Memory.GB()
	return 0.002 * gb, 20 + 0.15*gb
}

// OfferPrice is one price of an offer: its column and the hours it pays for.
type OfferPrice struct {
	Field string
	X     float64
	Hours float64
}

// Prices lists an offer's prices (monthly_price pays 730 hours).
func (o Offer) Prices() []OfferPrice {
	return []OfferPrice{
		{"on_demand_per_hour", o.OnDemandPerHour, 1}, {"spot_per_hour", o.SpotPerHour, 1},
		{"reserved_1y_per_hour", o.Reserved1yPerHour, 1}, {"reserved_3y_per_hour", o.Reserved3yPerHour, 1},
		{"monthly_price", o.MonthlyPrice, 730},
	}
}

// ImplausiblePrice checks one price of an offer of count GPUs g in
// currency cur against PriceBoundsUSD; it returns "" when the price is
// plausible or cannot be judged (an unknown currency, no GPU count).
func ImplausiblePrice(p OfferPrice, g GPU, count float64, cur string) string {
	band, ok := CurrencyPerUSD[cur]
	if !ok || count <= 0 || p.X == 0 {
		return ""
	}
	lo, hi := PriceBoundsUSD(g)
	lo, hi = lo*band[0], hi*band[1]
	perGPUHour := p.X / p.Hours / count
	if perGPUHour >= lo && perGPUHour <= hi {
		return ""
	}
	return fmt.Sprintf("%s %v is %.4g %s per GPU-hour, implausible for %s (expected %.3g to %.3g)",
		p.Field, p.X, perGPUHour, cur, g.ID, lo, hi)
}

// PriceChange is one field changed (or an offer added) by a price sheet.
type PriceChange struct {
	OfferID string
	Field   string // "on_demand_per_hour", ..., or "offer" when added
	Old     string
	New     string
}

func (ch PriceChange) String() string {
	if ch.Field == "offer" {
		return ch.OfferID + ": added"
	}
	return fmt.Sprintf("%s: %s %s -> %s", ch.OfferID, ch.Field, orNone(ch.Old), orNone(ch.New))
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// OfferIDFor returns the offer ID convention for a provider and instance
// type: "<provider>-<instance type>", lower-case, runs of characters other
// than letters, digits, "." and "_" replaced by "-" ("+" is "plus" in the
// instance type). A catalog provider ID is already in that form; the name
// of a provider of the user's own (KindOwn, "My Lab") is not.
func OfferIDFor(provider, instanceType string) string {
	var b strings.Builder
	slugTo(&b, provider)
	p := strings.TrimRight(b.String(), "-") // "My Lab (west)": my-lab-west
	b.Reset()
	b.WriteString(p)
	b.WriteByte('-')
	slugTo(&b, strings.ReplaceAll(instanceType, "+", "plus"))
	return strings.Trim(b.String(), "-._")
}

// slugTo writes s to b lower-case, each run of characters other than
// letters, digits, "." and "_" as one "-" (none after a "-" b ends with).
func slugTo(b *strings.Builder, s string) {
	dash := strings.HasSuffix(b.String(), "-")
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
}

// ApplyPriceRow merges one row into o (an existing offer, or a zero Offer to
// be added) and returns the changes. It checks the row on its own; checks
// against other tables (GPU and provider IDs) are the caller's.
func ApplyPriceRow(o *Offer, row PriceRow) ([]PriceChange, error) {
	return applyPriceRow(o, row, false)
}

// applyPriceRow is ApplyPriceRow; own marks a row of the user's own prices
// (PriceMerge.Own), which the user vouches for: it may leave as_of and
// source empty (the price is then undated, and an undated price of the
// user's is never stale), and it may give a currency other than the
// offer's, which then becomes the offer's: the prices the row leaves
// empty, in the old currency, are dropped, and the planner converts the
// row's at the FX table as it does every price in another currency. The
// catalog's own files (catalog import-prices) keep both rules: a price
// there needs a date and an origin, and is never converted.
func applyPriceRow(o *Offer, row PriceRow, own bool) ([]PriceChange, error) {
	if err := checkRowNames(row); err != nil {
		return nil, err
	}
	where := row.where()
	if row.AsOf == "" && !own {
		return nil, fmt.Errorf("%s: as_of is missing", where)
	}
	if _, err := AsOfTime(row.AsOf); err != nil && row.AsOf != "" {
		return nil, fmt.Errorf("%s: as_of %q is not a YYYY-MM-DD date", where, row.AsOf)
	}
	if row.Source == "" && !own {
		return nil, fmt.Errorf("%s: source is missing", where)
	}
	added := o.ID == ""
	if added {
		if row.Provider == "" || row.InstanceType == "" || row.GPU == "" || row.GPUCount <= 0 || row.Currency == "" {
			return nil, fmt.Errorf("%s: no offer %q; a new offer needs provider, instance_type, gpu, gpu_count and currency", where, row.OfferID+row.Provider+"/"+row.InstanceType)
		}
		id := row.OfferID
		if id == "" {
			id = OfferIDFor(row.Provider, row.InstanceType)
		}
		*o = Offer{ID: id, Provider: row.Provider, InstanceType: row.InstanceType, GPU: row.GPU, GPUCount: row.GPUCount, Currency: row.Currency}
	} else {
		if row.Currency != "" && row.Currency != o.Currency && !own {
			return nil, fmt.Errorf("%s: currency %s differs from offer %s's %s (no conversion is done)", where, row.Currency, o.ID, o.Currency)
		}
		if row.GPU != "" && row.GPU != o.GPU || row.GPUCount != 0 && row.GPUCount != o.GPUCount {
			return nil, fmt.Errorf("%s: gpu/gpu_count differ from offer %s (%v x %s)", where, o.ID, o.GPUCount, o.GPU)
		}
	}
	var changes []PriceChange
	if added {
		changes = append(changes, PriceChange{OfferID: o.ID, Field: "offer"})
	} else if row.Currency != "" && row.Currency != o.Currency {
		changes = append(changes, PriceChange{OfferID: o.ID, Field: "currency", Old: o.Currency, New: row.Currency})
		o.Currency = row.Currency
		o.OnDemandPerHour, o.SpotPerHour, o.Reserved1yPerHour, o.Reserved3yPerHour, o.MonthlyPrice = 0, 0, 0, 0, 0
	}
	set := func(field string, dst *float64, x float64) {
		if x == 0 || x == *dst {
			return
		}
		changes = append(changes, PriceChange{OfferID: o.ID, Field: field, Old: fmtPrice(*dst), New: fmtPrice(x)})
		*dst = x
	}
	set("on_demand_per_hour", &o.OnDemandPerHour, row.OnDemandPerHour)
	set("spot_per_hour", &o.SpotPerHour, row.SpotPerHour)
	set("reserved_1y_per_hour", &o.Reserved1yPerHour, row.Reserved1yPerHour)
	set("reserved_3y_per_hour", &o.Reserved3yPerHour, row.Reserved3yPerHour)
	set("monthly_price", &o.MonthlyPrice, row.MonthlyPrice)
	set("network_gbps", &o.NetworkGbps, row.NetworkGbps)
	set("ram_gib", &o.RAMGiB, row.RAMGiB)
	if v := int(row.VCPUs); v != 0 && v != o.VCPUs {
		changes = append(changes, PriceChange{OfferID: o.ID, Field: "vcpus", Old: fmtPrice(float64(o.VCPUs)), New: fmtPrice(row.VCPUs)})
		o.VCPUs = v
	}
	if g := row.BillingGranularity; g != "" && g != o.BillingGranularity {
		changes = append(changes, PriceChange{OfferID: o.ID, Field: "billing_granularity", Old: o.BillingGranularity, New: g})
		o.BillingGranularity = g
	}
	if row.NetworkFabric != "" && row.NetworkFabric != o.NetworkFabric {
		if !slices.Contains(NetworkFabrics, row.NetworkFabric) {
			return nil, fmt.Errorf("%s: network_fabric %q is not one of %s", where, row.NetworkFabric, strings.Join(NetworkFabrics, ", "))
		}
		changes = append(changes, PriceChange{OfferID: o.ID, Field: "network_fabric", Old: o.NetworkFabric, New: row.NetworkFabric})
		o.NetworkFabric = row.NetworkFabric
	}
	if row.SpotInterruption != "" && row.SpotInterruption != o.SpotInterruption {
		if !slices.Contains(SpotBuckets, row.SpotInterruption) {
			return nil, fmt.Errorf("%s: spot_interruption %q is not one of %s", where, row.SpotInterruption, strings.Join(SpotBuckets, ", "))
		}
		changes = append(changes, PriceChange{OfferID: o.ID, Field: "spot_interruption", Old: o.SpotInterruption, New: row.SpotInterruption})
		o.SpotInterruption, o.SpotInterruptionSource = row.SpotInterruption, row.Source
	}
	if o.OnDemandPerHour > 0 && o.SpotPerHour > o.OnDemandPerHour {
		return nil, fmt.Errorf("%s (%s): spot_per_hour %v > on_demand_per_hour %v", where, o.ID, o.SpotPerHour, o.OnDemandPerHour)
	}
	if o.OnDemandPerHour+o.SpotPerHour+o.Reserved1yPerHour+o.Reserved3yPerHour+o.MonthlyPrice == 0 {
		// A 0 is a cell left empty, not a free GPU: GPUs the user owns
		// still cost their purchase and power by the hour, and a plan on a
		// zero price would outrank every rented offer at any speed.
		return nil, fmt.Errorf("%s (%s): no price: a 0 or empty price is none given; for GPUs you own, give their cost per hour "+
			"(the purchase spread over the hours you keep them, plus power), which the plan ranks against rented ones", where, o.ID)
	}
	if row.Region != "" && !slices.Contains(o.Regions, row.Region) {
		changes = append(changes, PriceChange{OfferID: o.ID, Field: "regions", Old: strings.Join(o.Regions, " "), New: row.Region})
		o.Regions = []string{row.Region}
	}
	// The date and source are the prices': an own row that gives no price
	// and no date (a host, a network) leaves the offer's.
	keep := own && row.AsOf == "" && row.Source == "" &&
		row.OnDemandPerHour+row.SpotPerHour+row.Reserved1yPerHour+row.Reserved3yPerHour+row.MonthlyPrice == 0
	if !keep && (row.AsOf != o.AsOf || o.AsOfEstimated) {
		changes = append(changes, PriceChange{OfferID: o.ID, Field: "as_of", Old: o.AsOf, New: row.AsOf})
		o.AsOf, o.AsOfEstimated, o.AsOfLowerBound = row.AsOf, false, false
	}
	if !keep && row.Source != o.Source {
		o.Source = row.Source
	}
	if row.Notes != "" {
		o.Notes = row.Notes
	}
	return changes, nil
}

func fmtPrice(x float64) string {
	if x == 0 {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// WithPrices returns a copy of c with the price sheet applied (c is not
// modified), and the list of changes. Rows that name an unknown GPU or
// provider, change currency, make spot exceed on-demand or give a price
// implausible for the GPU are errors. It takes time linear in the rows.
func (c *Catalog) WithPrices(rows []PriceRow) (*Catalog, []PriceChange, error) {
	if len(rows) > MaxPriceRows {
		return nil, nil, fmt.Errorf("catalog: price sheet: %d rows, more than %d", len(rows), MaxPriceRows)
	}
	m := c.NewPriceMerge()
	m.Changes = true
	m.offers = slices.Grow(m.offers, len(rows))
	for _, row := range rows {
		if err := m.Apply(row); err != nil {
			return nil, nil, err
		}
	}
	out, changes := m.Done()
	return out, changes, nil
}

// PriceMerge applies price-sheet rows to a copy of a catalog one at a time
// (a page applies a large sheet in slices between frames). Each row costs
// two map look-ups, whatever the number of offers.
type PriceMerge struct {
	// Changes makes Done list every field changed (WithPrices sets it);
	// without it Done lists one PriceChange{OfferID, Field: "offer"} per
	// offer the sheet touched, which is what a page needs, in a fraction
	// of the memory.
	Changes bool
	// Own marks the sheet as the user's own prices (a negotiated rate,
	// their cluster's internal price): every offer it touches carries
	// Offer.UserPrice. catalog import-prices leaves it false.
	Own    bool
	base   *Catalog
	offers []Offer
	byID   map[string]int
	byInst map[string]int // instKey(provider, instance type)
	// byRegion finds the offer of an instance type in a region where the
	// provider prices its regions apart, one offer a region (AWS China).
	byRegion map[string]int // instKey(provider, instance type) + "\x00" + region
	// own are the providers of the user's own the sheet named (KindOwn),
	// by ID, in the order first named.
	own     []Provider
	changes []PriceChange
	touched map[int]bool
}

// NewPriceMerge starts merging a price sheet into a copy of c.
func (c *Catalog) NewPriceMerge() *PriceMerge {
	m := &PriceMerge{
		base:     c,
		offers:   slices.Clone(c.Offers),
		byID:     make(map[string]int, len(c.Offers)),
		byInst:   make(map[string]int, len(c.Offers)),
		byRegion: make(map[string]int, len(c.Offers)),
		touched:  map[int]bool{},
	}
	for i, o := range m.offers {
		m.index(i, o)
	}
	return m
}

// index records offer i; the first offer with a key keeps it, as the
// linear search this replaces found the first.
func (m *PriceMerge) index(i int, o Offer) {
	if _, ok := m.byID[o.ID]; !ok {
		m.byID[o.ID] = i
	}
	k := instKey(o.Provider, o.InstanceType)
	if _, ok := m.byInst[k]; !ok {
		m.byInst[k] = i
	}
	for _, r := range o.Regions {
		if _, ok := m.byRegion[k+"\x00"+r]; !ok {
			m.byRegion[k+"\x00"+r] = i
		}
	}
}

// instKey is the byInst key of a provider and an instance type.
func instKey(provider, instanceType string) string { return provider + "\x00" + instanceType }

// find returns the index of the offer a row names, or -1: by offer_id, or
// by provider + instance_type where the row has no offer_id (the offer in
// the row's region where the provider has one there).
func (m *PriceMerge) find(row PriceRow) int {
	if j, ok := m.byRegion[instKey(row.Provider, row.InstanceType)+"\x00"+row.Region]; ok && row.OfferID == "" && row.Region != "" {
		return j
	}
	id := row.OfferID
	if id == "" && row.Provider != "" && row.InstanceType != "" {
		id = OfferIDFor(row.Provider, row.InstanceType)
	}
	i, ok := m.byID[id]
	if row.OfferID == "" {
		if j, ok2 := m.byInst[instKey(row.Provider, row.InstanceType)]; ok2 && (!ok || j < i) {
			i, ok = j, true
		}
	}
	if !ok {
		return -1
	}
	return i
}

// knownGPUs is the tail of the message for a row naming a GPU the
// catalog does not know: the IDs it may mean, then every GPU ID. A sheet
// written by hand names "H100" or "NVIDIA H100 SXM 80GB" where the
// catalog's ID is h100-sxm; a row dropped or refused without the names
// leaves the user guessing.
func (c *Catalog) knownGPUs(name string) string {
	ids, names := make([]string, len(c.GPUs)), make([]string, len(c.GPUs))
	for i, g := range c.GPUs {
		ids[i], names[i] = g.ID, g.Name
	}
	return knownNames(name, ids, names)
}

// knownProviders is knownGPUs for a provider.
func (c *Catalog) knownProviders(name string) string {
	ids, names := make([]string, len(c.Providers)), make([]string, len(c.Providers))
	for i, p := range c.Providers {
		ids[i], names[i] = p.ID, p.Name
	}
	return knownNames(name, ids, names)
}

// knownNames is " (did you mean x, y? known: a, b, ...)": the IDs whose ID
// or display name holds name (case and separators aside), or that name
// holds, then every ID in the catalog's order.
func knownNames(name string, ids, names []string) string {
	n := normName(name)
	var near []string
	for i, id := range ids {
		d, full := normName(id), normName(names[i])
		if n != "" && (strings.Contains(d, n) || strings.Contains(full, n) || strings.Contains(n, d)) {
			near = append(near, id)
		}
	}
	s := "known: " + strings.Join(ids, ", ")
	if len(near) > 0 {
		s = "did you mean " + strings.Join(near, ", ") + "? " + s
	}
	return " (" + s + ")"
}

// normName is a name with case, spaces, "-" and "_" set aside.
func normName(s string) string {
	return strings.NewReplacer(" ", "", "-", "", "_", "").Replace(strings.ToLower(s))
}

// provider returns the catalog's provider id or one of the user's own the
// sheet has named so far.
func (m *PriceMerge) provider(id string) (Provider, bool) {
	if p, ok := m.base.Provider(id); ok {
		return p, true
	}
	i := slices.IndexFunc(m.own, func(p Provider) bool { return p.ID == id })
	if i < 0 {
		return Provider{}, false
	}
	return m.own[i], true
}

// ownProvider is the provider of the user's own a row of their sheet
// names, a name the catalog does not know (their cluster, a contract with
// a cloud the catalog lacks): KindOwn, named as written, with no country,
// VAT or billing minimum (the catalog knows none; the row's columns give
// its network, region and billing granularity). A name that is a catalog
// provider's ID or display name but for case and separators ("AWS",
// "Lambda") is refused: the user means the catalog's, whose facts a
// provider of their own would silently lack.
func (m *PriceMerge) ownProvider(row PriceRow) (Provider, error) {
	n := normName(row.Provider)
	for _, p := range m.base.Providers {
		if n == normName(p.ID) || n == normName(p.Name) {
			return Provider{}, fmt.Errorf("%s: provider %q is not in the catalog (did you mean %s? a provider of your own needs a name no catalog provider has)", row.where(), row.Provider, p.ID)
		}
	}
	return Provider{ID: row.Provider, Name: row.Provider, Kind: KindOwn, Currency: row.Currency, AsOf: row.AsOf, Source: row.Source}, nil
}

// Apply merges one row. On error nothing of the row is kept.
func (m *PriceMerge) Apply(row PriceRow) error {
	if err := checkRowNumbers(row); err != nil {
		return err
	}
	// A currency is an ISO 4217 code, upper-case ("usd" is USD), that the
	// FX table converts: a row in a currency it lacks ("EURO") would be
	// listed as an offer no plan can price.
	if row.Currency != "" {
		row.Currency = strings.ToUpper(row.Currency)
		if fx, ok := m.base.FX(row.Currency); !ok || !(fx.PerUSD > 0) {
			return fmt.Errorf("%s: currency %q has no rate in the catalog's FX table (known: %s)", row.where(), row.Currency, strings.Join(m.base.Currencies(), ", "))
		}
	}
	i := m.find(row)
	var o Offer
	var newProv *Provider // a provider of the user's own this row names first
	if i >= 0 {
		o = m.offers[i]
		o.Regions = slices.Clone(o.Regions)
	} else {
		where := row.where()
		if row.OfferID != "" && row.Provider == "" && row.InstanceType == "" && row.GPU == "" {
			return fmt.Errorf("%s: offer_id %q is not in the catalog (a new offer needs provider, instance_type, gpu, gpu_count and currency)", where, row.OfferID)
		}
		if _, ok := m.base.GPU(row.GPU); !ok {
			return fmt.Errorf("%s: gpu %q is not in the catalog%s", where, row.GPU, m.base.knownGPUs(row.GPU))
		}
		if row.Provider == "" {
			return fmt.Errorf("%s: provider is missing (a new offer needs provider, instance_type, gpu, gpu_count and currency)", where)
		}
		if _, ok := m.provider(row.Provider); !ok {
			if !m.Own {
				return fmt.Errorf("%s: provider %q is not in the catalog%s", where, row.Provider, m.base.knownProviders(row.Provider))
			}
			p, err := m.ownProvider(row)
			if err != nil {
				return err
			}
			newProv = &p
		}
	}
	// A row of the user's own prices for a catalog offer replaces the
	// offer's prices: one the row leaves empty is the market's, not the
	// user's, and would be planned as theirs (exempt from the stale,
	// far-below-median and spot-floor checks), so it goes. Later rows of
	// the same sheet add to the user's prices; a row that gives no price
	// (a host, a network) leaves the prices and whose they are alone.
	gives := row.OnDemandPerHour+row.SpotPerHour+row.Reserved1yPerHour+row.Reserved3yPerHour+row.MonthlyPrice > 0
	if m.Own && gives && i >= 0 && !o.UserPrice {
		o.OnDemandPerHour, o.SpotPerHour, o.Reserved1yPerHour, o.Reserved3yPerHour, o.MonthlyPrice = 0, 0, 0, 0, 0
	}
	ch, err := applyPriceRow(&o, row, m.Own)
	if err != nil {
		return err
	}
	if g, ok := m.base.GPU(o.GPU); ok {
		for _, p := range o.Prices() {
			if why := ImplausiblePrice(p, g, o.GPUCount, o.Currency); why != "" {
				return fmt.Errorf("%s (%s): %s", row.where(), o.ID, why)
			}
		}
	}
	o.UserPrice = o.UserPrice || m.Own && gives
	if newProv != nil {
		m.own = append(m.own, *newProv)
	} else if k := slices.IndexFunc(m.own, func(p Provider) bool { return p.ID == o.Provider }); k >= 0 && row.AsOf > m.own[k].AsOf {
		m.own[k].AsOf = row.AsOf // the newest price the sheet holds for it
	}
	if i >= 0 {
		m.offers[i] = o
	} else {
		i = len(m.offers)
		m.offers = append(m.offers, o)
		m.index(i, o)
	}
	if m.Changes {
		m.changes = append(m.changes, ch...)
	} else if len(ch) > 0 {
		m.touched[i] = true
	}
	return nil
}

// sortedByID returns the positions of offers in order of ID, equal IDs in
// their order (a bottom-up merge sort: no generic sort is instantiated
// for it in the page's WebAssembly).
func sortedByID(offers []Offer) []int {
	a, b := make([]int, len(offers)), make([]int, len(offers))
	for i := range a {
		a[i] = i
	}
	for w := 1; w < len(a); w *= 2 {
		for lo := 0; lo < len(a); lo += 2 * w {
			mid, hi := min(lo+w, len(a)), min(lo+2*w, len(a))
			i, j, k := lo, mid, lo
			for ; i < mid && j < hi; k++ {
				if offers[a[j]].ID < offers[a[i]].ID {
					b[k], j = a[j], j+1
				} else {
					b[k], i = a[i], i+1
				}
			}
			k += copy(b[k:], a[i:mid])
			copy(b[k:], a[j:hi])
		}
		a, b = b, a
	}
	return a
}

// Done returns the merged catalog, offers sorted by ID, and the changes.
func (m *PriceMerge) Done() (*Catalog, []PriceChange) {
	if !m.Changes {
		for i := range m.touched {
			m.changes = append(m.changes, PriceChange{OfferID: m.offers[i].ID, Field: "offer"})
		}
		m.touched = nil
	}
	// A stable sort of the 344-byte offers themselves moves them
	// O(n log² n) times; sort their positions, then place each once.
	order := sortedByID(m.offers)
	out := *m.base
	if len(m.own) > 0 {
		// Sorted by ID, as Catalog.Provider's binary search expects: a
		// copy with each own provider placed at its position (by hand, not
		// slices.Insert, whose copy for this element type app.wasm would
		// carry for this one loop).
		ps := make([]Provider, len(out.Providers), len(out.Providers)+len(m.own))
		copy(ps, out.Providers)
		for _, p := range m.own {
			j := sort.Search(len(ps), func(i int) bool { return ps[i].ID >= p.ID })
			ps = append(ps, Provider{})
			copy(ps[j+1:], ps[j:])
			ps[j] = p
		}
		out.Providers = ps
		m.own = nil
	}
	out.Offers = make([]Offer, len(order))
	for i, j := range order {
		out.Offers[i] = m.offers[j]
	}
	m.offers = nil
	return &out, m.changes
}
