package source

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"rightsize/catalog"
)

// A refresh reads each provider's public price source, turns what it
// publishes into price-sheet rows (catalog.PriceRow) dated the day of the
// fetch, and merges them provider by provider. A provider whose source
// fails (network error, HTTP error after retries, malformed or empty
// response, or rows that do not validate) keeps its previous data and gets a
// line in the report saying why; no refresh ever leaves a provider empty.

// Adapter reads one provider's public price source.
type Adapter struct {
	// Name is what --providers selects ("aws", "azure", ...).
	Name string
	// Provider is the catalog provider ID the rows belong to.
	Provider string
	// Doc is one line for "catalog refresh --help": the source and what it
	// fills.
	Doc string
	// Env names the environment variable holding a key the source needs
	// ("" for none). Without it the adapter is skipped with a report line.
	Env string
	// Owns lists the price fields the source publishes for the offers it
	// lists; a refreshed offer's old values of these fields are cleared
	// first, so a price the provider no longer lists does not survive.
	Owns []string
	// Fetch reads the source. It returns rows (AsOf and Source set) and
	// lines about what it skipped. known holds the provider's offers in
	// the catalog now (adapters that price per GPU or per resource compose
	// instance totals for them).
	Fetch func(ctx context.Context, f *Fetcher, known []catalog.Offer) (rows []Quote, skipped []string, err error)
}

// Quote is one refreshed offer: a price-sheet row plus the region of its
// spot price, which a price sheet does not carry.
type Quote struct {
	catalog.PriceRow
	SpotRegion string
	// KeepSpot keeps the offer's spot price, region and bucket although
	// the adapter owns them: the source's spot part failed this time.
	KeepSpot bool
}

// Fetcher is the HTTP side of a refresh: an injectable client (tests use an
// httptest server or a replay transport), the date of the fetch, the
// environment, and the retry policy for rate-limited responses.
type Fetcher struct {
	Client *http.Client
	// Today is the fetch date written as every row's as_of.
	Today time.Time
	// Getenv reads keys (os.Getenv in the CLI).
	Getenv func(string) string
	// Retries is how many times a 429 or 503 response is retried.
	Retries int
	// Sleep waits before a retry (time.Sleep in the CLI; tests record).
	Sleep func(time.Duration)
	// MaxBytes bounds one response body (0 = 64 MiB).
	MaxBytes int64
	// BaseURL, when set, replaces each adapter's scheme and host (tests point
	// every adapter at one httptest server).
	BaseURL string
}

// AsOf is the fetch date as an as_of value.
func (f *Fetcher) AsOf() string { return f.Today.UTC().Format(catalog.DateLayout) }

// HTTPError is a non-2xx answer from a price source.
type HTTPError struct {
	URL    string
	Status int
	Body   string
}

func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("%s: HTTP %d", e.URL, e.Status)
	if e.Status == http.StatusTooManyRequests {
		msg += " (rate limited; retries exhausted)"
	}
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// ErrSchema marks a response that parsed but does not have the documented
// shape (a field renamed, a wrong type, no rows).
var ErrSchema = errors.New("response does not have the documented format")

func schemaErr(url string, format string, a ...any) error {
	return fmt.Errorf("%s: %w: %s", url, ErrSchema, fmt.Sprintf(format, a...))
}

// rewrite points url at BaseURL when set.
func (f *Fetcher) rewrite(url string) string {
	if f.BaseURL == "" {
		return url
	}
	i := strings.Index(url, "://")
	if i < 0 {
		return url
	}
	rest := url[i+3:]
	if j := strings.IndexByte(rest, '/'); j >= 0 {
		return strings.TrimRight(f.BaseURL, "/") + rest[j:]
	}
	return f.BaseURL
}

// Get fetches url (with optional headers) and returns the body. 429 and 503
// answers are retried up to Retries times, waiting Retry-After seconds
// (capped at 60) or 2^n seconds.
func (f *Fetcher) Get(ctx context.Context, url string, header map[string]string) ([]byte, error) {
	return f.Do(ctx, http.MethodGet, url, header, "")
}

// Do is Get with a method and a body (GraphQL and search APIs use POST).
func (f *Fetcher) Do(ctx context.Context, method, url string, header map[string]string, body string) ([]byte, error) {
	max := f.MaxBytes
	if max == 0 {
		max = 64 << 20
	}
	var data []byte
	err := f.stream(ctx, method, url, header, body, func(r io.Reader) error {
		var err error
		data, err = io.ReadAll(io.LimitReader(r, max+1))
		if err == nil && int64(len(data)) > max {
			err = fmt.Errorf("response larger than %d bytes", max)
		}
		return err
	})
	return data, err
}

// Stream fetches url and hands the body to read without holding it in
// memory (AWS's EC2 offer files are gigabytes); retries as Get.
func (f *Fetcher) Stream(ctx context.Context, url string, read func(io.Reader) error) error {
	return f.stream(ctx, http.MethodGet, url, nil, "", read)
}

func (f *Fetcher) stream(ctx context.Context, method, url string, header map[string]string, body string, read func(io.Reader) error) error {
	url = f.rewrite(url)
	client := f.Client
	if client == nil {
		client = http.DefaultClient
	}
	for attempt := 0; ; attempt++ {
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, err := http.NewRequestWithContext(ctx, method, url, rd)
		if err != nil {
			return err
		}
		req.Header.Set("User-Agent", "rightsize-catalog-refresh")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		if resp.StatusCode/100 == 2 {
			err := read(resp.Body)
			resp.Body.Close()
			if err != nil && !errors.Is(err, ErrSchema) {
				err = fmt.Errorf("%s: %w", url, err)
			}
			return err
		}
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		if (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) && attempt < f.Retries {
			wait := time.Duration(1<<attempt) * time.Second
			if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
				wait = time.Duration(min(s, 60)) * time.Second
			}
			if f.Sleep != nil {
				f.Sleep(wait)
			}
			continue
		}
		return &HTTPError{URL: url, Status: resp.StatusCode, Body: snippet(data)}
	}
}

func snippet(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

// Move is a price that changed by more than MoveThreshold.
type Move struct {
	OfferID, Field string
	Old, New       float64
}

// MoveThreshold is the relative change a refresh lists as "moved".
const MoveThreshold = 0.10

// Report is the outcome of one adapter.
type Report struct {
	Adapter, Provider string
	// Status is "updated", "unchanged", "failed" or "skipped".
	Status string
	// Err says why a provider failed or was skipped; its data is unchanged.
	Err     error
	Rows    int
	Added   []string // offers new to the catalog
	Missing []string // offers of the provider its source no longer lists (kept)
	Moved   []Move
	Changes []catalog.PriceChange
	// Skipped are rows or listings the adapter did not import, and why.
	Skipped []string
}

// Refresh runs the adapters in order and merges each one's rows into f, one
// provider at a time: a provider's rows are applied to a copy, the whole
// catalog is validated, and only then is the copy kept. now bounds as_of.
func (f *Files) Refresh(ctx context.Context, fetch *Fetcher, adapters []Adapter, now time.Time) []Report {
	var out []Report
	for _, a := range adapters {
		out = append(out, f.refreshOne(ctx, fetch, a, now))
	}
	return out
}

func (f *Files) refreshOne(ctx context.Context, fetch *Fetcher, a Adapter, now time.Time) (r Report) {
	r = Report{Adapter: a.Name, Provider: a.Provider}
	if a.Env != "" && (fetch.Getenv == nil || fetch.Getenv(a.Env) == "") {
		r.Status, r.Err = "skipped", fmt.Errorf("%s is not set; previous data kept", a.Env)
		return r
	}
	if !slices.ContainsFunc(f.Providers.Providers, func(p providerJSON) bool { return p.ID == a.Provider }) {
		r.Status, r.Err = "failed", fmt.Errorf("provider %q is not in %s", a.Provider, ProvidersFile)
		return r
	}
	var known []catalog.Offer
	for _, o := range f.Offers.Offers {
		if o.Provider == a.Provider {
			k := offerOf(o)
			k.VCPUs, k.RAMGiB, k.SpotRegion = o.VCPUs, o.RAMGiB, o.SpotRegion
			known = append(known, k)
		}
	}
	rows, skipped, err := a.Fetch(ctx, fetch, known)
	r.Skipped = skipped
	if err != nil {
		r.Status, r.Err = "failed", fmt.Errorf("%w; previous data kept", err)
		return r
	}
	if len(rows) == 0 {
		r.Status, r.Err = "failed", errors.New("the source listed no GPU prices; previous data kept")
		return r
	}
	r.Rows = len(rows)

	saved := f.clone()
	before := map[string]offerJSON{}
	for _, o := range f.Offers.Offers {
		if o.Provider == a.Provider {
			before[o.ID] = o
		}
	}
	seen := map[string]bool{}
	for _, q := range rows {
		row := q.PriceRow
		row.Provider = a.Provider
		if err := quoteNames(q); err != nil {
			r.Skipped = append(r.Skipped, fmt.Sprintf("%s %q: %v; not imported", a.Name, row.InstanceType, err))
			continue
		}
		id := row.OfferID
		if id == "" {
			id = catalog.OfferIDFor(row.Provider, row.InstanceType)
		}
		if i := slices.IndexFunc(f.Offers.Offers, func(o offerJSON) bool { return o.ID == id }); i >= 0 {
			old := f.Offers.Offers[i]
			owns := a.Owns
			if q.KeepSpot {
				owns = slices.DeleteFunc(slices.Clone(owns), func(f string) bool { return f == "spot_per_hour" })
			}
			clearOwned(&f.Offers.Offers[i], owns)
			// The catalog's GPU ID is reviewed (a source's "H100" may be the
			// SXM part); only a different GPU count stops the update.
			if row.GPUCount != 0 && row.GPUCount != old.GPUCount {
				r.Skipped = append(r.Skipped, fmt.Sprintf("%s: the source lists %v GPUs, the catalog %v; not updated", id, row.GPUCount, old.GPUCount))
				f.Offers.Offers[i] = old
				seen[id] = true
				continue
			}
			row.GPU, row.GPUCount = "", 0
			if row.Currency == old.Currency {
				row.Currency = ""
			}
			ch, err := f.ApplyPrices([]catalog.PriceRow{row})
			if err != nil {
				f.Offers.Offers[i] = old
				r.Skipped = append(r.Skipped, fmt.Sprintf("%s: %v", id, err))
				seen[id] = true
				continue
			}
			r.Changes = append(r.Changes, ch...)
			if row.SpotPerHour > 0 {
				f.Offers.Offers[i].SpotRegion = q.SpotRegion
			} else if slices.Contains(owns, "spot_per_hour") {
				o := &f.Offers.Offers[i]
				o.SpotRegion, o.SpotInterruption, o.SpotInterruptionSource = "", "", ""
			}
		} else {
			if row.GPU == "" {
				r.Skipped = append(r.Skipped, fmt.Sprintf("%s: no catalog GPU for this listing; not added", id))
				continue
			}
			ch, err := f.ApplyPrices([]catalog.PriceRow{row})
			if err != nil {
				r.Skipped = append(r.Skipped, fmt.Sprintf("%s: %v", id, err))
				continue
			}
			r.Changes = append(r.Changes, ch...)
			r.Added = append(r.Added, id)
			if i := slices.IndexFunc(f.Offers.Offers, func(o offerJSON) bool { return o.ID == id }); i >= 0 && row.SpotPerHour > 0 {
				f.Offers.Offers[i].SpotRegion = q.SpotRegion
			}
		}
		seen[id] = true
	}
	if _, err := f.Catalog(now); err != nil {
		*f = saved
		r.Status = "failed"
		r.Err = fmt.Errorf("the refreshed %s offers do not validate; previous data kept:\n%v", a.Provider, err)
		r.Added, r.Changes = nil, nil
		return r
	}
	for id, old := range before {
		if !seen[id] {
			r.Missing = append(r.Missing, id)
			continue
		}
		i := slices.IndexFunc(f.Offers.Offers, func(o offerJSON) bool { return o.ID == id })
		cur := f.Offers.Offers[i]
		for _, p := range []struct {
			field    string
			old, new float64
		}{{"on_demand_per_hour", old.OnDemandPerHour, cur.OnDemandPerHour}, {"spot_per_hour", old.SpotPerHour, cur.SpotPerHour},
			{"reserved_1y_per_hour", old.Reserved1yPerHour, cur.Reserved1yPerHour}, {"reserved_3y_per_hour", old.Reserved3yPerHour, cur.Reserved3yPerHour},
			{"monthly_price", old.MonthlyPrice, cur.MonthlyPrice}} {
			if p.old > 0 && p.new > 0 && math.Abs(p.new-p.old)/p.old > MoveThreshold {
				r.Moved = append(r.Moved, Move{OfferID: id, Field: p.field, Old: p.old, New: p.new})
			}
		}
	}
	slices.Sort(r.Missing)
	slices.Sort(r.Added)
	slices.SortFunc(r.Moved, func(a, b Move) int { return strings.Compare(a.OfferID+a.Field, b.OfferID+b.Field) })
	r.Status = "updated"
	if len(r.Changes) == 0 {
		r.Status = "unchanged"
	}
	// The provider's prices now come (at least in part) from this source.
	for i := range f.Providers.Providers {
		if p := &f.Providers.Providers[i]; p.ID == a.Provider && len(r.Changes) > 0 {
			earlier := p.Source
			if _, e, ok := strings.Cut(earlier, "; earlier: "); ok {
				earlier = e // keep the pre-refresh source, not every refresh
			}
			p.Source = rows[0].Source + "; earlier: " + earlier
		}
	}
	return r
}

// quoteNames applies catalog.CheckName to the names a source gave: a
// provider's API is data, and a name that holds a newline or shell syntax
// would reach launch scripts and terminals.
func quoteNames(q Quote) error {
	for _, n := range [...]struct{ field, s string }{
		{"instance_type", q.InstanceType}, {"offer_id", q.OfferID}, {"gpu", q.GPU}, {"currency", q.Currency},
		{"region", q.Region}, {"spot_region", q.SpotRegion},
	} {
		if err := catalog.CheckName(n.field, n.s); err != nil {
			return err
		}
	}
	return nil
}

// clearOwned zeroes the price fields a source owns.
func clearOwned(o *offerJSON, owns []string) {
	for _, f := range owns {
		switch f {
		case "on_demand_per_hour":
			o.OnDemandPerHour = 0
		case "spot_per_hour":
			o.SpotPerHour, o.SpotAboveOnDemand = 0, false
		case "reserved_1y_per_hour":
			o.Reserved1yPerHour = 0
		case "reserved_3y_per_hour":
			o.Reserved3yPerHour = 0
		case "monthly_price":
			o.MonthlyPrice = 0
		}
	}
}

// clone copies the offers and providers (the parts a refresh edits).
func (f *Files) clone() Files {
	c := *f
	c.Offers.Offers = slices.Clone(f.Offers.Offers)
	for i := range c.Offers.Offers {
		c.Offers.Offers[i].Regions = slices.Clone(c.Offers.Offers[i].Regions)
	}
	c.Providers.Providers = slices.Clone(f.Providers.Providers)
	c.FX.Rates = slices.Clone(f.FX.Rates)
	return c
}

// SummaryLines caps each list of a provider's block in WriteSummary.
const SummaryLines = 12

// WriteSummary prints the diff summary of a refresh, one block per provider.
func WriteSummary(w io.Writer, reports []Report) {
	var added, missing, moved, failed int
	list := func(label string, items []string) {
		for i, s := range items {
			if i == SummaryLines {
				fmt.Fprintf(w, "    %s: … and %d more\n", label, len(items)-i)
				break
			}
			fmt.Fprintf(w, "    %s: %s\n", label, catalog.Printable(s))
		}
	}
	for _, r := range reports {
		switch r.Status {
		case "failed", "skipped":
			fmt.Fprintf(w, "%-18s %-9s %v\n", r.Adapter, r.Status, indent(r.Err))
			if r.Status == "failed" {
				failed++
			}
			list("skipped", r.Skipped)
			continue
		}
		fmt.Fprintf(w, "%-18s %-9s %d rows, %d offers added, %d not listed by the source (kept), %d prices moved >10%%\n",
			r.Adapter, r.Status, r.Rows, len(r.Added), len(r.Missing), len(r.Moved))
		list("added", r.Added)
		var mv []string
		for _, m := range r.Moved {
			mv = append(mv, fmt.Sprintf("%s %s %v -> %v (%+.0f%%)", m.OfferID, m.Field, m.Old, m.New, 100*(m.New-m.Old)/m.Old))
		}
		list("moved", mv)
		list("not listed (kept, as_of unchanged)", r.Missing)
		list("skipped", r.Skipped)
		added, missing, moved = added+len(r.Added), missing+len(r.Missing), moved+len(r.Moved)
	}
	fmt.Fprintf(w, "total: %d offers added, %d not listed (kept), %d prices moved >10%%, %d providers failed (previous data kept)\n", added, missing, moved, failed)
}

// indent writes an error's lines one under the other, each made
// printable (a source's answer may carry terminal escapes).
func indent(err error) string {
	if err == nil {
		return ""
	}
	lines := strings.Split(err.Error(), "\n")
	for i, l := range lines {
		lines[i] = catalog.Printable(l)
	}
	return strings.Join(lines, "\n    ")
}
