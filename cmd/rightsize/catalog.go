package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"rightsize/catalog"
	"rightsize/catalog/data"
	"rightsize/catalog/source"
)

const catalogUsage = `usage: rightsize catalog <verb> [flags]
  validate [-dir DIR]                       strictly load and check the catalog JSON (exit 0 ok, 2 invalid)
  stats [-dir DIR] [--json]                 counts, offers by price age overall and per provider, fresh/far-below-median
  export [-dir DIR] --json                  the whole validated catalog (schema rightsize-catalog/v1)
  format [-dir DIR]                         rewrite providers.json and offers.json in canonical layout
  import-skypilot [-dir DIR] [-as-of DATE] [-source NOTE] [-n] CHECKOUT
                                            update offers from CHECKOUT/catalogs/v*/<cloud>/vms.csv
  import-prices [-dir DIR] [-n] FILE        merge a CSV or JSON price sheet (format: catalog/README.md)
  refresh [-dir DIR] [--dry-run] [--providers a,b] [--fx cbr|ecb|pboc|none] [--replay DIR]
          [--from-skypilot DIR]               re-read the providers' public price sources (--help lists them)
Without -dir, validate/stats/export read the catalog embedded in this binary; the import verbs
and format default to -dir catalog/data.`

// now is the clock for as_of checks; tests replace it.
var now = func() time.Time { return time.Now().UTC() }

// runCatalog implements "rightsize catalog ...".
func runCatalog(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "rightsize catalog: missing verb; run 'rightsize catalog help'")
		return 2
	}
	verb, args := args[0], args[1:]
	fset := flag.NewFlagSet("rightsize catalog "+verb, flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	dir := fset.String("dir", "", "catalog data directory (gpus.json, models.json, providers.json, offers.json)")
	asJSON := fset.Bool("json", false, "JSON output")
	asOf := fset.String("as-of", now().Format(catalog.DateLayout), "as_of date for imported prices (YYYY-MM-DD)")
	note := fset.String("source", "", "extra source note for imported prices, e.g. the checkout's commit")
	dryRun := fset.Bool("n", false, "print the changes without writing")
	fset.BoolVar(dryRun, "dry-run", false, "print the diff summary without writing")
	providers := fset.String("providers", "", "refresh: comma-separated adapters (default all)")
	fxSource := fset.String("fx", "cbr", "refresh: FX source (cbr, ecb, pboc or none)")
	replay := fset.String("replay", "", "refresh: answer requests from DIR/replay.json instead of the network")
	fromSkyPilot := fset.String("from-skypilot", "", "refresh: also import a skypilot-catalog checkout (as import-skypilot)")

	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "rightsize catalog %s: %s\n", verb, fmt.Sprintf(format, a...))
		return 2
	}
	switch verb {
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, catalogUsage)
		return 0
	case "validate", "stats", "export", "format", "import-skypilot", "import-prices", "refresh":
	default:
		return fail("unknown verb; want validate, stats, export, format, import-skypilot, import-prices or refresh")
	}
	if verb == "refresh" && slices.ContainsFunc(args, func(a string) bool { return a == "-h" || a == "-help" || a == "--help" }) {
		fmt.Fprint(stdout, refreshUsage())
		return 0
	}
	if err := fset.Parse(args); err != nil {
		return fail("%v", err)
	}
	want := 0
	if verb == "import-skypilot" || verb == "import-prices" {
		want = 1
	}
	if fset.NArg() != want {
		return fail("want %d argument(s), got %d (%s)", want, fset.NArg(), strings.Join(fset.Args(), " "))
	}
	if _, err := catalog.AsOfTime(*asOf); err != nil {
		return fail("-as-of %q is not a YYYY-MM-DD date", *asOf)
	}

	var fsys fs.FS = data.FS
	writeDir := *dir
	if *dir != "" {
		fsys = os.DirFS(*dir)
	} else if want == 1 || verb == "format" || verb == "refresh" {
		writeDir = "catalog/data"
		fsys = os.DirFS(writeDir)
	}

	switch verb {
	case "validate":
		c, err := source.Load(fsys, now())
		if err != nil {
			return printErrors(stderr, err)
		}
		fmt.Fprintf(stdout, "catalog ok: %d GPUs, %d models, %d providers, %d offers\n", len(c.GPUs), len(c.Models), len(c.Providers), len(c.Offers))
		return 0
	case "stats":
		c, err := source.Load(fsys, now())
		if err != nil {
			return printErrors(stderr, err)
		}
		return printStats(stdout, c, *asJSON)
	case "export":
		if !*asJSON {
			return fail("only --json export is supported")
		}
		c, err := source.Load(fsys, now())
		if err != nil {
			return printErrors(stderr, err)
		}
		b, err := source.Export(c)
		if err != nil {
			return fail("%v", err)
		}
		stdout.Write(b)
		return 0
	}

	// format, import-skypilot, import-prices, refresh: edit the files, validate, write.
	f, err := source.ReadFiles(fsys)
	if err != nil {
		return printErrors(stderr, err)
	}
	if verb == "refresh" {
		return runRefresh(f, refreshOpts{dir: writeDir, dryRun: *dryRun, providers: *providers, fx: *fxSource,
			replay: *replay, skypilot: *fromSkyPilot, asOf: *asOf, note: *note}, stdout, stderr)
	}
	before := len(f.Offers.Offers)
	switch verb {
	case "import-prices":
		in, err := os.Open(fset.Arg(0))
		if err != nil {
			return fail("%v", err)
		}
		rows, err := catalog.ParsePriceSheet(in)
		in.Close()
		if err != nil {
			return fail("%v", err)
		}
		changes, err := f.ApplyPrices(rows)
		if err != nil {
			return fail("%v", err)
		}
		for _, ch := range changes {
			fmt.Fprintln(stdout, ch)
		}
		fmt.Fprintf(stdout, "%d rows, %d changes, %d offers added\n", len(rows), len(changes), len(f.Offers.Offers)-before)
	case "import-skypilot":
		res, err := f.ImportSkyPilot(os.DirFS(fset.Arg(0)), *asOf, *note)
		if err != nil {
			return fail("%v", err)
		}
		for _, ch := range res.Changes {
			fmt.Fprintln(stdout, ch)
		}
		for _, s := range res.Skipped {
			fmt.Fprintln(stdout, "skipped:", catalog.Printable(s))
		}
		for _, id := range res.Missing {
			fmt.Fprintf(stdout, "kept: %s is not in the new catalog (prices and as_of unchanged)\n", id)
		}
		fmt.Fprintf(stdout, "%d changes, %d offers added, %d skipped, %d kept unchanged\n",
			len(res.Changes), len(f.Offers.Offers)-before, len(res.Skipped), len(res.Missing))
	}
	if _, err := f.Catalog(now()); err != nil {
		fmt.Fprintln(stderr, "rightsize catalog "+verb+": result does not validate; nothing written")
		return printErrors(stderr, err)
	}
	if *dryRun {
		fmt.Fprintln(stdout, "dry run: nothing written")
		return 0
	}
	if err := f.WriteFiles(writeDir); err != nil {
		return fail("%v", err)
	}
	fmt.Fprintf(stdout, "wrote %s/%s and %s; run 'go generate ./catalog' to update the tables\n", writeDir, source.ProvidersFile, source.OffersFile)
	return 0
}

// printErrors prints one line per validation error and returns 2.
func printErrors(stderr io.Writer, err error) int {
	var es source.Errors
	if errors.As(err, &es) {
		for _, e := range es {
			fmt.Fprintln(stderr, e)
		}
		return 2
	}
	fmt.Fprintln(stderr, strings.ReplaceAll(err.Error(), "\n", "; "))
	return 2
}

type providerStatsJSON struct {
	ID                  string         `json:"id"`
	Kind                string         `json:"kind"`
	Country             string         `json:"country"`
	Currency            string         `json:"currency"`
	AsOf                string         `json:"as_of"`
	AsOfEstimated       bool           `json:"as_of_estimated"`
	AgeBucket           string         `json:"age_bucket"`
	Offers              int            `json:"offers"`
	OffersAsOfEstimated int            `json:"offers_with_estimated_as_of"`
	OffersByAge         map[string]int `json:"offers_by_age"`
	Reserved1y          int            `json:"reserved_1y"`
	Reserved3y          int            `json:"reserved_3y"`
	Spot                int            `json:"spot"`
	SpotInterruption    int            `json:"spot_interruption"`
	Network             int            `json:"network"`
	Fresh               int            `json:"fresh"`
	FarBelowMedian      int            `json:"far_below_median"`
}

type catalogStats struct {
	GPUs                    int                 `json:"gpus"`
	GPUsWithSpeed           int                 `json:"gpus_with_speed"`
	Models                  int                 `json:"models"`
	Providers               int                 `json:"providers"`
	ProvidersWithOffers     int                 `json:"providers_with_offers"`
	Offers                  int                 `json:"offers"`
	HostedAPIs              int                 `json:"hosted_apis"`
	OldestAsOf              string              `json:"oldest_as_of"`
	NewestAsOf              string              `json:"newest_as_of"`
	EstimatedAsOf           int                 `json:"offers_with_estimated_as_of"`
	OffersByAge             map[string]int      `json:"offers_by_age"`
	FreshnessWindowDays     int                 `json:"freshness_window_days"`
	FreshOffers             int                 `json:"fresh_offers"`
	FarBelowMedian          int                 `json:"offers_far_below_median"`
	Offers8GPU              int                 `json:"offers_8_gpu"`
	Offers8GPUWithNetwork   int                 `json:"offers_8_gpu_with_network"`
	ChineseProviders        []string            `json:"chinese_providers"`
	StaleProviders          []string            `json:"stale_providers"`
	OffersByCurrency        map[string]int      `json:"offers_by_currency"`
	ProviderAsOf            map[string]string   `json:"provider_as_of"`
	Reserved1y              int                 `json:"offers_with_reserved_1y"`
	Reserved3y              int                 `json:"offers_with_reserved_3y"`
	ProvidersWithReserved1y []string            `json:"providers_with_reserved_1y"`
	ProvidersWithReserved3y []string            `json:"providers_with_reserved_3y"`
	FXAsOf                  string              `json:"fx_as_of"`
	FX                      map[string]float64  `json:"fx_per_usd"`
	ProvidersByCountry      map[string]int      `json:"providers_by_country"`
	ByProvider              []providerStatsJSON `json:"by_provider"`
}

func printStats(w io.Writer, c *catalog.Catalog, asJSON bool) int {
	cs := c.Stats(now())
	s := catalogStats{GPUs: cs.GPUs, GPUsWithSpeed: cs.GPUsWithSpeed, Models: cs.Models, Providers: cs.Providers, ProvidersWithOffers: cs.ProvidersWithOffers,
		Offers: cs.Offers, HostedAPIs: cs.HostedAPIs,
		EstimatedAsOf: cs.OffersAsOfEstimated, OffersByAge: cs.OffersByAge, StaleProviders: []string{},
		OffersByCurrency: map[string]int{}, ProviderAsOf: map[string]string{},
		Reserved1y: cs.Reserved1y, Reserved3y: cs.Reserved3y,
		ProvidersWithReserved1y: append([]string{}, cs.ProvidersWithReserved1y...),
		ProvidersWithReserved3y: append([]string{}, cs.ProvidersWithReserved3y...),
		FXAsOf:                  cs.FXAsOf, FX: cs.FX, ProvidersByCountry: cs.ProvidersByCountry,
		FreshnessWindowDays: catalog.DefaultFreshnessDays, FreshOffers: cs.Fresh, FarBelowMedian: cs.FarBelowMedian,
		ChineseProviders: []string{}}
	// The oldest and newest price: offers only, so a provider record with
	// no offers (kept for users' price sheets) dates nothing.
	for _, o := range c.Offers {
		if o.AsOf != "" && (s.OldestAsOf == "" || o.AsOf < s.OldestAsOf) {
			s.OldestAsOf = o.AsOf
		}
		if o.AsOf > s.NewestAsOf {
			s.NewestAsOf = o.AsOf
		}
		s.OffersByCurrency[o.Currency]++
		if o.GPUCount == 8 {
			s.Offers8GPU++
			if o.NetworkGbps > 0 {
				s.Offers8GPUWithNetwork++
			}
		}
	}
	for _, p := range c.Providers {
		s.ProviderAsOf[p.ID] = p.AsOf
		if p.Country == "CN" && len(c.OffersByProvider(p.ID)) > 0 {
			s.ChineseProviders = append(s.ChineseProviders, p.ID)
		}
		if p.StaleAt(now()) {
			s.StaleProviders = append(s.StaleProviders, p.ID)
		}
	}
	for _, p := range cs.ByProvider {
		s.ByProvider = append(s.ByProvider, providerStatsJSON{ID: p.ID, Kind: p.Kind, Country: p.Country, Currency: p.Currency,
			AsOf: p.AsOf, AsOfEstimated: p.AsOfEstimated, AgeBucket: p.AgeBucket, Offers: p.Offers,
			OffersAsOfEstimated: p.OffersAsOfEstimated, OffersByAge: p.OffersByAge, Reserved1y: p.Reserved1y,
			Reserved3y: p.Reserved3y, Spot: p.Spot, SpotInterruption: p.SpotRisk, Network: p.Network,
			Fresh: p.Fresh, FarBelowMedian: p.FarBelowMedian})
	}
	if asJSON {
		b, _ := json.MarshalIndent(s, "", "  ")
		fmt.Fprintf(w, "%s\n", b)
		return 0
	}
	fmt.Fprintf(w, "gpus %d (%d with speed figures)\nmodels %d\nproviders %d (%d with offers)\noffers %d\nhosted APIs %d\noldest as_of %s\nnewest as_of %s\noffers with estimated as_of %d\n",
		s.GPUs, s.GPUsWithSpeed, s.Models, s.Providers, s.ProvidersWithOffers, s.Offers, s.HostedAPIs, s.OldestAsOf, s.NewestAsOf, s.EstimatedAsOf)
	fmt.Fprintf(w, "offers by age:")
	for _, b := range catalog.AgeBuckets {
		fmt.Fprintf(w, " %s %d", b, s.OffersByAge[b])
	}
	fmt.Fprintf(w, "\noffers with a dated price within %d days: %d of %d; under half the other providers' median per GPU-hour: %d\n",
		s.FreshnessWindowDays, s.FreshOffers, s.Offers, s.FarBelowMedian)
	fmt.Fprintf(w, "8-GPU offers with an inter-node network figure: %d of %d\nChinese providers and regions with offers: %s\n",
		s.Offers8GPUWithNetwork, s.Offers8GPU, strings.Join(s.ChineseProviders, " "))
	cur := make([]string, 0, len(s.OffersByCurrency))
	for k := range s.OffersByCurrency {
		cur = append(cur, k)
	}
	sort.Strings(cur)
	for _, k := range cur {
		fmt.Fprintf(w, "offers in %s %d\n", k, s.OffersByCurrency[k])
	}
	fmt.Fprintf(w, "FX rates of %s:", s.FXAsOf)
	fx := make([]string, 0, len(s.FX))
	for k := range s.FX {
		fx = append(fx, k)
	}
	sort.Strings(fx)
	for _, k := range fx {
		fmt.Fprintf(w, " %s %g", k, s.FX[k])
	}
	fmt.Fprintf(w, " per USD\nreserved 1y: %d offers from %s\nreserved 3y: %d offers from %s\n",
		s.Reserved1y, strings.Join(s.ProvidersWithReserved1y, " "), s.Reserved3y, strings.Join(s.ProvidersWithReserved3y, " "))
	fmt.Fprintf(w, "%-16s %-13s %-2s %-3s %-11s %-8s %6s %5s %5s %4s %4s %4s %4s", "provider", "kind", "cc", "cur", "as_of", "age", "offers", "est", "fresh", "low", "1y", "3y", "risk")
	for _, b := range catalog.AgeBuckets {
		fmt.Fprintf(w, " %8s", b)
	}
	fmt.Fprintln(w)
	for _, p := range s.ByProvider {
		est := ""
		if p.AsOfEstimated {
			est = "~"
		}
		fmt.Fprintf(w, "%-16s %-13s %-2s %-3s %-11s %-8s %6d %5d %5d %4d %4d %4d %4d", p.ID, p.Kind, p.Country, p.Currency, est+p.AsOf, p.AgeBucket,
			p.Offers, p.OffersAsOfEstimated, p.Fresh, p.FarBelowMedian, p.Reserved1y, p.Reserved3y, p.SpotInterruption)
		for _, b := range catalog.AgeBuckets {
			fmt.Fprintf(w, " %8d", p.OffersByAge[b])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "providers with prices older than 90 days: %s\n", strings.Join(s.StaleProviders, " "))
	return 0
}

func refreshUsage() string {
	var b strings.Builder
	b.WriteString(`usage: rightsize catalog refresh [-dir DIR] [--dry-run] [--providers a,b] [--fx SOURCE] [--replay DIR] [--from-skypilot DIR]

Re-reads each provider's public price source, dates every refreshed price with today's date
(-as-of) and the source, merges provider by provider, validates, prints a diff summary
(offers added, offers the source no longer lists, prices moved more than 10%) and writes
providers.json, offers.json and fx.json (not with --dry-run). A provider whose source fails
(network error, HTTP error, rate limit after retries, malformed or empty answer, rows that do
not validate) keeps its previous data and gets one line saying why. Then run
'go generate ./catalog' and the tests.

providers (--providers NAME,...; default all):
`)
	for _, a := range source.Adapters {
		env := ""
		if a.Env != "" {
			env = " [needs " + a.Env + "]"
		}
		fmt.Fprintf(&b, "  %-18s %s%s\n", a.Name, a.Doc, env)
	}
	b.WriteString("\nFX (--fx NAME; default cbr; none to skip):\n")
	for _, s := range source.FXSources {
		fmt.Fprintf(&b, "  %-18s %s\n", s.Name, s.Doc)
	}
	b.WriteString(`
--from-skypilot DIR  also import a skypilot-catalog checkout (same as import-skypilot)
--replay DIR         answer every request from DIR/replay.json (recorded responses; see
                     catalog/source/testdata/refresh) instead of the network
`)
	return b.String()
}

type refreshOpts struct {
	dir, providers, fx, replay, skypilot, asOf, note string
	dryRun                                           bool
}

// runRefresh implements "rightsize catalog refresh". It exits 0 when the
// result validates (some providers may have failed: the summary says which
// and their data is unchanged), 2 on bad flags, 1 when every adapter failed.
func runRefresh(f *source.Files, o refreshOpts, stdout, stderr io.Writer) int {
	adapters := source.Adapters
	if o.providers != "" {
		adapters = nil
		for _, name := range strings.Split(o.providers, ",") {
			i := slices.IndexFunc(source.Adapters, func(a source.Adapter) bool { return a.Name == strings.TrimSpace(name) })
			if i < 0 {
				fmt.Fprintf(stderr, "rightsize catalog refresh: unknown provider %q; want one of %s\n", name, strings.Join(source.AdapterNames(), ", "))
				return 2
			}
			adapters = append(adapters, source.Adapters[i])
		}
	}
	var fxs *source.FXSource
	if o.fx != "none" {
		i := slices.IndexFunc(source.FXSources, func(s source.FXSource) bool { return s.Name == o.fx })
		if i < 0 {
			fmt.Fprintf(stderr, "rightsize catalog refresh: unknown --fx %q; want cbr, ecb, pboc or none\n", o.fx)
			return 2
		}
		fxs = &source.FXSources[i]
	}
	today, _ := catalog.AsOfTime(o.asOf)
	fetch := &source.Fetcher{Client: &http.Client{Timeout: 5 * time.Minute}, Today: today, Getenv: os.Getenv, Retries: 3,
		Sleep: time.Sleep, MaxBytes: 1 << 30}
	if o.replay != "" {
		t, err := source.NewReplayTransport(o.replay)
		if err != nil {
			fmt.Fprintf(stderr, "rightsize catalog refresh: %v\n", err)
			return 2
		}
		fetch.Client = &http.Client{Transport: t}
		fetch.Sleep = func(time.Duration) {}
	}
	ctx := context.Background()
	reports := f.Refresh(ctx, fetch, adapters, now())
	if o.skypilot != "" {
		res, err := f.ImportSkyPilot(os.DirFS(o.skypilot), o.asOf, o.note)
		if err != nil {
			fmt.Fprintf(stdout, "%-14s %-9s %v\n", "skypilot", "failed", err)
		} else {
			fmt.Fprintf(stdout, "%-14s %-9s %d changes, %d skipped, %d kept unchanged\n", "skypilot", "updated", len(res.Changes), len(res.Skipped), len(res.Missing))
		}
	}
	source.WriteSummary(stdout, reports)
	wroteFX := false
	if fxs != nil {
		r := f.RefreshFX(ctx, fetch, *fxs, now())
		if r.Err != nil {
			fmt.Fprintf(stdout, "fx %s: failed: %v\n", r.Source, r.Err)
		} else {
			wroteFX = true
			fmt.Fprintf(stdout, "fx %s: rates of %s; changed: %s; kept: %s\n", r.Source, r.AsOf, orNone(r.Changed), orNone(r.Kept))
		}
	}
	if _, err := f.Catalog(now()); err != nil {
		fmt.Fprintln(stderr, "rightsize catalog refresh: result does not validate; nothing written")
		return printErrors(stderr, err)
	}
	failed := 0
	for _, r := range reports {
		if r.Status == "failed" || r.Status == "skipped" {
			failed++
		}
	}
	if o.dryRun {
		fmt.Fprintln(stdout, "dry run: nothing written")
	} else {
		if err := f.WriteFiles(o.dir); err != nil {
			fmt.Fprintf(stderr, "rightsize catalog refresh: %v\n", err)
			return 2
		}
		if wroteFX {
			if err := f.WriteFX(o.dir); err != nil {
				fmt.Fprintf(stderr, "rightsize catalog refresh: %v\n", err)
				return 2
			}
		}
		fmt.Fprintf(stdout, "wrote %s; run 'go generate ./catalog' to update the tables\n", o.dir)
	}
	if len(adapters) > 0 && failed == len(adapters) {
		return 1
	}
	return 0
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
