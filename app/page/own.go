package page

import (
	"rightsize/catalog"
	"rightsize/estimator"
)

// What the page's component holds of the catalog and the estimator: the
// built-in catalog and the user's price sheet merged over it, and the
// user's own model. The component reaches them through these names only,
// so it imports go-app, this package and the standard library.

// Catalog is a catalog of GPUs, models and offers (catalog.Catalog).
type Catalog = catalog.Catalog

// PriceChange is one offer a price sheet priced (catalog.PriceChange).
type PriceChange = catalog.PriceChange

// Arch is a model's architecture (estimator.Arch).
type Arch = estimator.Arch

// MaxSheetBytes bounds a price sheet read into the page, as the CLI's
// --prices.
const MaxSheetBytes = catalog.MaxOwnPriceBytes

// DefaultCatalog is the built-in catalog.
func DefaultCatalog() *Catalog { return catalog.Default() }

// ParseConfig reads a model's config.json (a Hugging Face config or a
// rightsize-generic file) with the parser the command line uses.
func ParseConfig(text string) (Arch, error) { return estimator.ParseConfig([]byte(text)) }
