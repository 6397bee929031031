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
	"strconv"
	"strings"
)

// A price sheet carries negotiated or refreshed prices: the same format is
// loaded in the browser (Catalog.WithPrices) and merged into the catalog
// files by "rightsize catalog import-prices".
//
// CSV: a header row, then one row per offer; columns in any order, unknown
// columns are errors, empty cells mean "no change":
//
//	offer_id,provider,instance_type,gpu,gpu_count,on_demand_per_hour,spot_per_hour,reserved_1y_per_hour,reserved_3y_per_hour,monthly_price,currency,region,network_gbps,network_fabric,spot_interruption,as_of,source,notes
//
// network_gbps, network_fabric and spot_interruption set the offer's
// inter-node network and spot-risk bucket (see Offer), sourced by the row.
// JSON: {"prices": [{...}]} or a bare array, with the same keys (numbers as
// JSON numbers).
//
// A row names an existing offer by offer_id, or by provider + instance_type;
// a row naming no existing offer adds one and must then give provider,
// instance_type, gpu, gpu_count and currency. Prices are per whole instance
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
	AsOf              string  `json:"as_of,omitempty"`
	Source            string  `json:"source,omitempty"`
	Notes             string  `json:"notes,omitempty"`
	// Line is the row's position in the sheet (1-based data row), for errors.
	Line int `json:"-"`
}

// PriceSheetColumns are the CSV columns a price sheet may have.
var PriceSheetColumns = []string{
	"offer_id", "provider", "instance_type", "gpu", "gpu_count",
	"on_demand_per_hour", "spot_per_hour", "reserved_1y_per_hour", "reserved_3y_per_hour", "monthly_price",
	"currency", "region", "network_gbps", "network_fabric", "spot_interruption", "as_of", "source", "notes",
}

// SpotBuckets are the AWS Spot Instance Advisor interruption buckets
// (monthly share of capacity reclaimed) Offer.SpotInterruption may hold.
var SpotBuckets = []string{"<5%", "5-10%", "10-15%", "15-20%", ">20%"}

// NetworkFabrics are the values Offer.NetworkFabric may hold besides "".
var NetworkFabrics = []string{"efa", "infiniband", "roce", "ethernet"}

// ParsePriceSheet reads a CSV or JSON price sheet (JSON when the first
// non-space byte is '{' or '['). Errors name the row and column.
func ParsePriceSheet(r io.Reader) ([]PriceRow, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("catalog: price sheet: %v", err)
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		return parsePriceJSON(trimmed)
	}
	return parsePriceCSV(data)
}

func parsePriceJSON(data []byte) ([]PriceRow, error) {
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
	rows := make([]PriceRow, 0, len(raws))
	for i, raw := range raws {
		var row PriceRow
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&row); err != nil {
			return nil, fmt.Errorf("catalog: price sheet: row %d: %v", i+1, err)
		}
		row.Line = i + 1
		rows = append(rows, row)
	}
	return rows, nil
}

func parsePriceCSV(data []byte) ([]PriceRow, error) {
	cr := csv.NewReader(bytes.NewReader(data))
	cr.TrimLeadingSpace = true
	records, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("catalog: price sheet: %v", err)
	}
	if len(records) == 0 {
		return nil, errors.New("catalog: price sheet: empty")
	}
	header := records[0]
	for _, h := range header {
		if !slices.Contains(PriceSheetColumns, strings.TrimSpace(h)) {
			return nil, fmt.Errorf("catalog: price sheet: unknown column %q (known: %s)", h, strings.Join(PriceSheetColumns, ","))
		}
	}
	rows := make([]PriceRow, 0, len(records)-1)
	for n, rec := range records[1:] {
		row := PriceRow{Line: n + 1}
		for j, cell := range rec {
			cell = strings.TrimSpace(cell)
			if cell == "" {
				continue
			}
			col := strings.TrimSpace(header[j])
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
					return nil, fmt.Errorf("catalog: price sheet: row %d: %s %q is not a non-negative number", n+1, col, cell)
				}
				*f = x
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
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
// than [a-z0-9._] replaced by "-".
func OfferIDFor(provider, instanceType string) string {
	var b strings.Builder
	b.WriteString(provider)
	b.WriteByte('-')
	dash := false
	for _, r := range strings.ToLower(strings.ReplaceAll(instanceType, "+", "plus")) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-._")
}

// ApplyPriceRow merges one row into o (an existing offer, or a zero Offer to
// be added) and returns the changes. It checks the row on its own; checks
// against other tables (GPU and provider IDs) are the caller's.
func ApplyPriceRow(o *Offer, row PriceRow) ([]PriceChange, error) {
	where := fmt.Sprintf("catalog: price sheet: row %d", row.Line)
	if row.AsOf == "" {
		return nil, fmt.Errorf("%s: as_of is missing", where)
	}
	if _, err := AsOfTime(row.AsOf); err != nil {
		return nil, fmt.Errorf("%s: as_of %q is not a YYYY-MM-DD date", where, row.AsOf)
	}
	if row.Source == "" {
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
		if row.Currency != "" && row.Currency != o.Currency {
			return nil, fmt.Errorf("%s: currency %s differs from offer %s's %s (no conversion is done)", where, row.Currency, o.ID, o.Currency)
		}
		if row.GPU != "" && row.GPU != o.GPU || row.GPUCount != 0 && row.GPUCount != o.GPUCount {
			return nil, fmt.Errorf("%s: gpu/gpu_count differ from offer %s (%v x %s)", where, o.ID, o.GPUCount, o.GPU)
		}
	}
	var changes []PriceChange
	if added {
		changes = append(changes, PriceChange{OfferID: o.ID, Field: "offer"})
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
		return nil, fmt.Errorf("%s (%s): no price", where, o.ID)
	}
	if row.Region != "" && !slices.Contains(o.Regions, row.Region) {
		changes = append(changes, PriceChange{OfferID: o.ID, Field: "regions", Old: strings.Join(o.Regions, " "), New: row.Region})
		o.Regions = []string{row.Region}
	}
	if row.AsOf != o.AsOf || o.AsOfEstimated {
		changes = append(changes, PriceChange{OfferID: o.ID, Field: "as_of", Old: o.AsOf, New: row.AsOf})
		o.AsOf, o.AsOfEstimated = row.AsOf, false
	}
	if row.Source != o.Source {
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
// provider, change currency or make spot exceed on-demand are errors.
func (c *Catalog) WithPrices(rows []PriceRow) (*Catalog, []PriceChange, error) {
	out := *c
	out.Offers = slices.Clone(c.Offers)
	var all []PriceChange
	for _, row := range rows {
		i := -1
		id := row.OfferID
		if id == "" && row.Provider != "" && row.InstanceType != "" {
			id = OfferIDFor(row.Provider, row.InstanceType)
		}
		for j := range out.Offers {
			if out.Offers[j].ID == id || row.OfferID == "" && out.Offers[j].Provider == row.Provider && out.Offers[j].InstanceType == row.InstanceType {
				i = j
				break
			}
		}
		var o Offer
		if i >= 0 {
			o = out.Offers[i]
			o.Regions = slices.Clone(o.Regions)
		} else {
			if _, ok := c.GPU(row.GPU); !ok {
				return nil, nil, fmt.Errorf("catalog: price sheet: row %d: gpu %q is not in the catalog", row.Line, row.GPU)
			}
			if _, ok := c.Provider(row.Provider); !ok {
				return nil, nil, fmt.Errorf("catalog: price sheet: row %d: provider %q is not in the catalog", row.Line, row.Provider)
			}
		}
		ch, err := ApplyPriceRow(&o, row)
		if err != nil {
			return nil, nil, err
		}
		if i >= 0 {
			out.Offers[i] = o
		} else {
			out.Offers = append(out.Offers, o)
		}
		all = append(all, ch...)
	}
	slices.SortStableFunc(out.Offers, func(a, b Offer) int { return strings.Compare(a.ID, b.ID) })
	return &out, all, nil
}
