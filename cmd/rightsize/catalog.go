package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"time"

	"rightsize/catalog"
	"rightsize/catalog/data"
	"rightsize/catalog/source"
)

const catalogUsage = `usage: rightsize catalog <verb> [flags]
  validate [-dir DIR]                       strictly load and check the catalog JSON (exit 0 ok, 2 invalid)
  stats [-dir DIR] [--json]                 counts and the oldest/newest as_of
  export [-dir DIR] --json                  the whole validated catalog (schema rightsize-catalog/v1)
  format [-dir DIR]                         rewrite providers.json and offers.json in canonical layout
  import-skypilot [-dir DIR] [-as-of DATE] [-source NOTE] [-n] CHECKOUT
                                            update offers from CHECKOUT/catalogs/v*/<cloud>/vms.csv
  import-prices [-dir DIR] [-n] FILE        merge a CSV or JSON price sheet (format: catalog/README.md)
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

	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "rightsize catalog %s: %s\n", verb, fmt.Sprintf(format, a...))
		return 2
	}
	switch verb {
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, catalogUsage)
		return 0
	case "validate", "stats", "export", "format", "import-skypilot", "import-prices":
	default:
		return fail("unknown verb; want validate, stats, export, format, import-skypilot or import-prices")
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
	} else if want == 1 || verb == "format" {
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

	// format, import-skypilot, import-prices: edit the files, validate, write.
	f, err := source.ReadFiles(fsys)
	if err != nil {
		return printErrors(stderr, err)
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
			fmt.Fprintln(stdout, "skipped:", s)
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
}

type catalogStats struct {
	GPUs                    int                 `json:"gpus"`
	GPUsWithSpeed           int                 `json:"gpus_with_speed"`
	Models                  int                 `json:"models"`
	Providers               int                 `json:"providers"`
	Offers                  int                 `json:"offers"`
	HostedAPIs              int                 `json:"hosted_apis"`
	OldestAsOf              string              `json:"oldest_as_of"`
	NewestAsOf              string              `json:"newest_as_of"`
	EstimatedAsOf           int                 `json:"offers_with_estimated_as_of"`
	OffersByAge             map[string]int      `json:"offers_by_age"`
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
	s := catalogStats{GPUs: cs.GPUs, GPUsWithSpeed: cs.GPUsWithSpeed, Models: cs.Models, Providers: cs.Providers,
		Offers: cs.Offers, HostedAPIs: cs.HostedAPIs, OldestAsOf: c.OldestAsOf(), NewestAsOf: c.NewestAsOf(),
		EstimatedAsOf: cs.OffersAsOfEstimated, OffersByAge: cs.OffersByAge, StaleProviders: []string{},
		OffersByCurrency: map[string]int{}, ProviderAsOf: map[string]string{},
		Reserved1y: cs.Reserved1y, Reserved3y: cs.Reserved3y,
		ProvidersWithReserved1y: append([]string{}, cs.ProvidersWithReserved1y...),
		ProvidersWithReserved3y: append([]string{}, cs.ProvidersWithReserved3y...),
		FXAsOf:                  cs.FXAsOf, FX: cs.FX, ProvidersByCountry: cs.ProvidersByCountry}
	for _, o := range c.Offers {
		s.OffersByCurrency[o.Currency]++
	}
	for _, p := range c.Providers {
		s.ProviderAsOf[p.ID] = p.AsOf
		if p.StaleAt(now()) {
			s.StaleProviders = append(s.StaleProviders, p.ID)
		}
	}
	for _, p := range cs.ByProvider {
		s.ByProvider = append(s.ByProvider, providerStatsJSON{ID: p.ID, Kind: p.Kind, Country: p.Country, Currency: p.Currency,
			AsOf: p.AsOf, AsOfEstimated: p.AsOfEstimated, AgeBucket: p.AgeBucket, Offers: p.Offers,
			OffersAsOfEstimated: p.OffersAsOfEstimated, OffersByAge: p.OffersByAge, Reserved1y: p.Reserved1y,
			Reserved3y: p.Reserved3y, Spot: p.Spot, SpotInterruption: p.SpotRisk, Network: p.Network})
	}
	if asJSON {
		b, _ := json.MarshalIndent(s, "", "  ")
		fmt.Fprintf(w, "%s\n", b)
		return 0
	}
	fmt.Fprintf(w, "gpus %d (%d with speed figures)\nmodels %d\nproviders %d\noffers %d\nhosted APIs %d\noldest as_of %s\nnewest as_of %s\noffers with estimated as_of %d\n",
		s.GPUs, s.GPUsWithSpeed, s.Models, s.Providers, s.Offers, s.HostedAPIs, s.OldestAsOf, s.NewestAsOf, s.EstimatedAsOf)
	fmt.Fprintf(w, "offers by age:")
	for _, b := range catalog.AgeBuckets {
		fmt.Fprintf(w, " %s %d", b, s.OffersByAge[b])
	}
	fmt.Fprintln(w)
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
	fmt.Fprintf(w, "%-16s %-13s %-2s %-3s %-10s %-8s %6s %5s %4s %4s %4s", "provider", "kind", "cc", "cur", "as_of", "age", "offers", "est", "1y", "3y", "risk")
	for _, b := range catalog.AgeBuckets {
		fmt.Fprintf(w, " %8s", b)
	}
	fmt.Fprintln(w)
	for _, p := range s.ByProvider {
		est := ""
		if p.AsOfEstimated {
			est = "~"
		}
		fmt.Fprintf(w, "%-16s %-13s %-2s %-3s %-10s %-8s %6d %5d %4d %4d %4d", p.ID, p.Kind, p.Country, p.Currency, est+p.AsOf, p.AgeBucket,
			p.Offers, p.OffersAsOfEstimated, p.Reserved1y, p.Reserved3y, p.SpotInterruption)
		for _, b := range catalog.AgeBuckets {
			fmt.Fprintf(w, " %8d", p.OffersByAge[b])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "providers with prices older than 90 days: %s\n", strings.Join(s.StaleProviders, " "))
	return 0
}
