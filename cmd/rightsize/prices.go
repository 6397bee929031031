package main

import (
	"flag"
	"fmt"
	"os"

	"rightsize/app/page/jobspec"
	"rightsize/catalog"
)

// definePriceFlags adds the flags that choose the offers a plan ranks:
// the user's own prices and where the machines stand.
func definePriceFlags(fs *flag.FlagSet) {
	if fs.Lookup("prices") == nil {
		fs.String("prices", "", "a sheet of your own prices (CSV or JSON, the page's price-sheet format): they enter the ranking as yours, not flagged against the market")
	}
	if fs.Lookup(jobspec.Fields[jobspec.Region].Flag) == nil {
		textFlag(fs, jobspec.Region, "comma-separated region prefixes where the instances are hosted (e.g. ru, eu-west, cn-north), whoever the provider")
	}
}

// catalog is the built-in catalog with the --prices sheet merged in.
func (c *planCmd) catalog() (*catalog.Catalog, error) {
	cat := catalog.Default()
	path := c.s("prices")
	if path == "" {
		return cat, nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("--prices: %v", err)
	}
	if st.Size() > catalog.MaxOwnPriceBytes || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("--prices %q: want a regular file of at most 4 MiB", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--prices: %v", err)
	}
	out, _, err := cat.WithOwnPrices(data)
	if err != nil {
		return nil, fmt.Errorf("--prices %s: %v", path, err)
	}
	return out, nil
}
