// Package catalog is Rightsize's reviewed catalog of GPUs, models, providers
// and cloud offers.
//
// The data is edited as JSON under catalog/data, strictly decoded and
// validated by the native package rightsize/catalog/source, and compiled into
// Go composite literals in zz_generated.go by "go generate ./catalog". This
// package is what app.wasm imports: it holds only those tables and lookup
// functions (standard library and rightsize/estimator only), so the browser
// pays no JSON decoding at start-up and links no JSON library for it.
//
// Prices are whole-instance prices per hour in the offer's own Currency.
// FXRates is a dated, sourced table of reference rates; convert with
// (*Catalog).FX and show the rate's AsOf next to any converted price.
package catalog

//go:generate go run ./internal/gen

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"rightsize/estimator"
)

// StaleAfter is how old a provider's prices may be before the UI should warn.
const StaleAfter = 90 * 24 * time.Hour

// DateLayout is the layout of every AsOf field: a calendar date, UTC.
const DateLayout = "2006-01-02"

// Catalog is the full set of records. Slices are sorted by ID.
type Catalog struct {
	GPUs      []GPU
	Models    []Model
	Providers []Provider
	Offers    []Offer
	// FXRates are reference exchange rates, one per currency (USD is 1).
	FXRates []FXRate
	// HostedAPIs are per-token prices of hosted model APIs, to compare
	// renting a GPU with paying per token.
	HostedAPIs []HostedAPIPrice
}

// FXRate is one reference exchange rate.
type FXRate struct {
	Currency string  // ISO 4217
	PerUSD   float64 // units of Currency per 1 USD
	AsOf     string
	Source   string
}

// HostedAPIPrice is the list price of one hosted model API, per million
// tokens, base tier (no batch or cache discounts).
type HostedAPIPrice struct {
	ID, Provider, Model string
	// ModelID is the catalog Model.ID it serves, or "" when the catalog has
	// no such model (or the hosted one is a proprietary variant).
	ModelID                           string
	InputPerMillion, OutputPerMillion float64
	Currency                          string
	AsOf, Source                      string
}

// FX returns the reference rate for currency (USD always has PerUSD 1).
func (c *Catalog) FX(currency string) (FXRate, bool) {
	for _, r := range c.FXRates {
		if r.Currency == currency {
			return r, true
		}
	}
	if currency == "USD" {
		return FXRate{Currency: "USD", PerUSD: 1}, true
	}
	return FXRate{}, false
}

// Currencies is USD and every currency the FX table converts, in the
// table's order: the page's currency picker and the CLI's --currency list
// the same.
func (c *Catalog) Currencies() []string {
	out := []string{"USD"}
	for _, r := range c.FXRates {
		if r.Currency != "USD" {
			out = append(out, r.Currency)
		}
	}
	return out
}

// ToUSD converts an amount in currency to US dollars with the catalog's
// reference rate; ok is false when the catalog has no rate for it.
func (c *Catalog) ToUSD(amount float64, currency string) (usd float64, rate FXRate, ok bool) {
	r, ok := c.FX(currency)
	if !ok || r.PerUSD <= 0 {
		return 0, r, false
	}
	return amount / r.PerUSD, r, true
}

// GPU is one accelerator SKU as its vendor's datasheet describes it.
// Throughput figures are dense peak (not the 2:4-sparse headline); 0 means
// the datasheet gives no figure or the format is unsupported.
type GPU struct {
	ID           string // kebab-case, e.g. "h100-sxm"
	Name         string // display name
	Vendor       string // NVIDIA, AMD, Intel
	Architecture string // Hopper, Ada Lovelace, CDNA3, ...
	FormFactor   string // SXM5, PCIe, OAM, ...
	Memory       estimator.Bytes
	// ECCMemory is the memory CUDA sees with ECC on, as nvidia-smi prints
	// its total, where that is less than Memory: GDDR GPUs keep their ECC
	// bits in the same DRAM (an A10G's 24 GiB shows as 23,028 MiB); 0 when
	// ECC takes nothing (HBM) or no source gives the figure. ECCSource is
	// where the figure was read.
	ECCMemory  estimator.Bytes
	ECCSource  string
	MemoryType string // HBM3, GDDR6, ...
	// MemoryBandwidthBytesPerSecond is the datasheet peak memory bandwidth.
	MemoryBandwidthBytesPerSecond float64

	FP32TFLOPS float64 // non-tensor FP32
	TF32TFLOPS float64 // dense TF32 tensor
	BF16TFLOPS float64 // dense BF16 tensor
	FP16TFLOPS float64 // dense FP16 tensor (FP32 accumulate where the vendor distinguishes)
	// FP16Acc16TFLOPS is the dense FP16 tensor rate with FP16
	// accumulation where the vendor gives it above FP16TFLOPS (GeForce
	// cards: twice the FP32-accumulate rate); 0 where both are one rate
	// or no source gives it.
	FP16Acc16TFLOPS float64
	FP8TFLOPS       float64 // dense FP8 tensor
	INT8TOPS        float64 // dense INT8 tensor

	FP4TFLOPS float64 // dense FP4 tensor (Blackwell NVFP4/MXFP4, MI355X MXFP4)

	SupportsBF16 bool
	SupportsFP8  bool
	SupportsFP4  bool

	Interconnect string  // "nvlink", "pcie", "infinity-fabric", ...
	NVLinkGBps   float64 // per-GPU NVLink (or equivalent) bandwidth, GB/s, both directions; 0 = none
	// NVLinkDomain is how many GPUs share one NVLink (or Infinity Fabric)
	// domain: 8 on HGX/OAM boards, 72 on GB200 NVL72, 2 on bridged pairs,
	// 0 for PCIe-only parts.
	NVLinkDomain int
	PCIeGen      int
	MIGSlices    int      // maximum MIG instances; 0 = no MIG
	MIGProfiles  []string // MIG profiles the vendor lists, e.g. "1g.10gb"
	TDPWatts     int      // maximum board/module power; 0 = not sourced

	Source string
	AsOf   string
	Notes  string
}

// Model is one model checkpoint with the architecture config the estimator
// reads.
type Model struct {
	ID      string // kebab-case, e.g. "llama-3.1-8b"
	Name    string
	Family  string
	License string
	// Task is what the model is for: "text-generation", "fill-mask",
	// "text2text", "image-classification", "image-generation",
	// "speech-recognition", "sentence-embedding", "text-ranking",
	// "text-to-video".
	Task          string
	ContextLength int
	// PublishedParams is the parameter count from the model card or paper
	// (total parameters for mixture-of-experts models; for multimodal
	// configs the text model plus the vision tower). Validation checks it
	// against estimator.ParseConfig's count of Config.
	PublishedParams int64
	// ActiveParams is the parameters used per token for mixture-of-experts
	// models, from the model card; 0 for dense models.
	ActiveParams int64
	// ModelType is the model_type estimator.ParseConfig reports ("llama",
	// "qwen2", ..., the text model's for multimodal configs, or
	// "rightsize-generic").
	ModelType string
	// Config is the Hugging Face config.json text (compact JSON), or a
	// rightsize-generic config for architectures the estimator does not
	// model layer by layer: {"model_type":"rightsize-generic",
	// "num_parameters":N,"hidden_size":H,"num_hidden_layers":L,"seq_len":S}.
	Config       string
	ConfigSource string
	Source       string // where PublishedParams, license and context come from
	AsOf         string
	// WeightsDType is the precision the published checkpoint stores its
	// weights in where that is not 16-bit ("fp8": DeepSeek-V3 and R1,
	// Kimi K2, whose config.json carries an FP8 quantization_config);
	// "" for a 16-bit checkpoint. Engines serve such a checkpoint in its
	// own format (vLLM and SGLang read its quantization_config whatever
	// --dtype says), so it is the precision a plan starts from.
	// WeightsSource says where it comes from.
	WeightsDType, WeightsSource string
	// RopeScaling is the rope_scaling (compact JSON) the model card says to
	// add to config.json to reach ContextLength where the config declares
	// less (Qwen2.5-14B and 72B: YaRN, factor 4, from 32,768 to 131,072
	// tokens); RopeScalingSource says where. "" for none.
	RopeScaling, RopeScalingSource string
	// ServedContext is the context the checkpoint a serving launch loads
	// (launch's instruction-tuned sibling of the pretrained repository)
	// declares in its config.json where it is less than Config's
	// (Qwen2.5-7B and 32B: 131,072 pretrained, 32,768 -Instruct);
	// ServedContextSource says where. 0 for the same context.
	ServedContext       int
	ServedContextSource string
	Notes               string
}

// ScaleContext tells a, parsed from m's config, of the context its served
// checkpoint declares where less (estimator.Arch.ServedPositions), of
// the longer context m's card reaches with the RoPE scaling that config
// leaves out (estimator.Arch.ScaledContext), so that a request over the
// served context is refused with the setting that admits it, and of the
// shorter context m's card gives where the config declares more
// (estimator.Arch.CardContext), so that a request past it is planned
// with a note.
func (m Model) ScaleContext(a *estimator.Arch) {
	if m.ServedContext > 0 && m.ServedContext < a.MaxPositions {
		a.ServedPositions = m.ServedContext
	}
	if m.RopeScaling != "" && m.ContextLength > a.ServeContext() {
		a.ScaledContext, a.ScaledRope = m.ContextLength, m.RopeScaling
	}
	if m.ContextLength > 0 && m.ContextLength < a.ServeContext() {
		a.CardContext = m.ContextLength
	}
}

// StoredWeights is the precision m's published checkpoint stores its
// weights in (WeightsDType) and true, or false for a 16-bit checkpoint
// (or a WeightsDType the estimator does not read; the catalog's
// validation refuses such a value).
func (m Model) StoredWeights() (estimator.DType, bool) {
	if m.WeightsDType == "" {
		return 0, false
	}
	d, err := estimator.ParseDType(m.WeightsDType)
	return d, err == nil
}

// Provider kinds.
const (
	KindHyperscaler   = "hyperscaler"
	KindGPUCloud      = "gpu-cloud"
	KindMarketplace   = "marketplace"
	KindBroker        = "broker"
	KindDecentralized = "decentralized"
)

// KindOwn is the kind of a provider only the user's own price sheet names
// (their on-premises cluster, a contract with a cloud the catalog lacks, a
// reseller): PriceMerge.Own adds it, named as the sheet writes it. It is
// not one of Kinds: no catalog file holds such a provider, and the kind
// filter never drops the user's own prices (plan.Offer.UserPrice).
const KindOwn = "own"

// Kinds are every provider kind, in the order the page lists them.
var Kinds = []string{KindHyperscaler, KindGPUCloud, KindMarketplace, KindBroker, KindDecentralized}

// DefaultKinds are the provider kinds a plan rests on unless the user
// widens them: hyperscalers, GPU clouds and the brokers that resell their
// capacity, each with a contract, an SLA and invoiced billing. Marketplaces
// (hosts listed by third parties, prices "from" the cheapest listing) and
// decentralised networks (capacity from anonymous hosts, no SLA) are one
// choice away, not the first answer: a production plan's first answer an
// infrastructure engineer signs runs on a provider that answers for it.
var DefaultKinds = []string{KindHyperscaler, KindGPUCloud, KindBroker}

// AnyKind asks for every provider kind (the page's "any" and the CLI's
// --kind any).
const AnyKind = "any"

// KindsFilter is the planner's kind filter for a user's choice: "" is
// DefaultKinds, AnyKind every kind (nil), else the comma-separated kinds,
// each one of Kinds: a kind no provider has would leave the plan without
// offers and without a word of why.
func KindsFilter(choice string) ([]string, error) {
	switch choice = strings.TrimSpace(choice); choice {
	case "":
		return slices.Clone(DefaultKinds), nil
	case AnyKind:
		return nil, nil
	}
	var out []string
	for _, k := range strings.Split(choice, ",") {
		if k = strings.TrimSpace(k); k == "" {
			continue
		}
		if !slices.Contains(Kinds, k) {
			return nil, fmt.Errorf("%q: not a provider kind; want %s or %s", k, strings.Join(Kinds, ","), AnyKind)
		}
		out = append(out, k)
	}
	return out, nil
}

// Provider is a company selling GPU time.
type Provider struct {
	ID       string
	Name     string
	Kind     string // one of the Kind* constants
	Country  string // ISO 3166-1 alpha-2 of the headquarters
	Currency string // ISO 4217 currency of its price list
	URL      string
	Source   string
	// PricesIncludeVAT reports that the list prices include VAT (or GST)
	// at VATRate (a fraction, e.g. 0.20); false = prices exclude tax.
	PricesIncludeVAT bool
	VATRate          float64
	// AsOf is the date of the newest price the catalog holds for this
	// provider (the date its price source was read or published).
	AsOf string
	// AsOfEstimated reports that AsOf is an estimate (an undated snapshot
	// dated by its content); the UI should show it as "about".
	AsOfEstimated bool
	// BillingMinimumSeconds is the shortest run the provider bills an
	// instance for, where its own documentation states one (0: none
	// known); BillingMinimumSource names that page and the date it was
	// read. The plan bills a shorter job this long (plan.BilledHours).
	BillingMinimumSeconds float64
	BillingMinimumSource  string
	// AccountsLocalOnly reports that the provider opens accounts only to
	// legal entities registered in Country, as its sign-up terms say
	// (AccountsLocalSource: that page and the date read): AWS's China
	// regions. A plan on it says so (plan.Offer.AccountsLocalOnly).
	AccountsLocalOnly   bool
	AccountsLocalSource string
	Notes               string
}

// Offer is one purchasable instance type at one provider. Prices are for the
// whole instance per hour in Currency; 0 means not offered or unknown.
type Offer struct {
	ID           string // "<provider>-<instance type>", lower-case
	Provider     string // Provider.ID
	InstanceType string
	GPU          string // GPU.ID
	// GPUCount is the number of GPUs; fractional for vGPU slices
	// (e.g. 0.125 of an L4).
	GPUCount float64
	VCPUs    int
	RAMGiB   float64
	// Interconnect between the instance's GPUs: "nvlink", "pcie",
	// "infinity-fabric", or "" when single-GPU or unknown.
	Interconnect string
	// NetworkGbps is the instance's inter-node network bandwidth, Gbit/s
	// (p5.48xlarge: EFA 3200); 0 = unknown. NetworkFabric is "efa",
	// "infiniband", "roce", "ethernet", or "" unknown.
	NetworkGbps   float64
	NetworkFabric string
	// NVLinkDomain is the GPUs whose NVLink joins this offer's instances
	// where they are trays of a rack the provider rents with the rack's
	// NVLink switched on between its trays (CoreWeave's GB200 NVL72
	// instances: 4-GPU trays deployed as whole racks of 18, "all Nodes in a
	// single rack share the same NVLink domain": 72); 0, the default, ends
	// the NVLink domain at the instance. It is set from the provider's own
	// statement (NVLinkDomainSource) only: a GPU whose NVLink reaches 72
	// (GPU.NVLinkDomain) may be rented as trays whose NVLink the provider
	// does not join (a standalone GB200 NVL4 board, or VMs of one rack in
	// separate partitions), so the GPU's figure alone does not make one.
	NVLinkDomain       int
	NVLinkDomainSource string
	// RentalUnitInstances is how many of this offer's instances the
	// provider rents together, the smallest order it takes (CoreWeave's
	// GB200 NVL72: 4-GPU trays "must be deployed as full racks of 18
	// Nodes", node pools in multiples of 18): every plan on it rents, and
	// pays for, a multiple of it whatever it uses. 0 (the default) or 1:
	// each instance rents alone. Set from the provider's own statement
	// (RentalUnitSource) only.
	RentalUnitInstances int
	RentalUnitSource    string

	OnDemandPerHour   float64
	SpotPerHour       float64
	Reserved1yPerHour float64 // effective hourly rate of a 1-year commitment
	Reserved3yPerHour float64 // effective hourly rate of a 3-year commitment
	// MonthlyPrice is a flat monthly price for the whole instance where the
	// provider sells by the month; 0 otherwise.
	MonthlyPrice float64
	Currency     string
	// BillingGranularity is the smallest billed unit: "second", "minute",
	// "hour", "month", or "" when the source does not say.
	BillingGranularity string
	Regions            []string // cheapest on-demand region first
	SpotRegion         string
	// SpotInterruption is the AWS Spot Instance Advisor bucket of monthly
	// interruption frequency ("<5%", "5-10%", "10-15%", "15-20%", ">20%")
	// for SpotRegion, or "" unknown; SpotInterruptionSource says where from.
	SpotInterruption       string
	SpotInterruptionSource string
	// UnderlyingProvider is the cloud that actually runs the machine, for
	// offers sold through a broker.
	UnderlyingProvider string

	AsOf string
	// AsOfEstimated reports that AsOf is an estimate (see Provider).
	AsOfEstimated bool
	// AsOfLowerBound reports that an estimated AsOf is the earliest the
	// price can date from by its source's own history, not a guess: the
	// price is at most as old as AsOf says, so its age is graded from it
	// as a dated price's is (FreshWithin). SkyPilot's v9 catalog files
	// cannot predate 2026-07-09, the day skypilot-catalog PR #185 created
	// the v9 schema (catalog/data/offers.json notes; shared data README
	// §1); an undated snapshot whose date is inferred from its content is
	// estimated without a bound.
	AsOfLowerBound bool
	Source         string
	Notes          string
	// PriceOpen marks a price its own record leaves open
	// (NotesLeavePriceOpen of Notes), set when the catalog is loaded: the
	// generated tables carry it, so app.wasm, which carries no Notes,
	// judges as the CLI does.
	PriceOpen bool
	// UserPrice marks a price from the user's own sheet (PriceMerge.Own):
	// the planner neither flags it against the market nor passes it over
	// for its date. Never part of the catalog's data.
	UserPrice bool `json:"-"`
}

// Default returns the embedded, validated catalog. The result is shared:
// callers must not modify it.
func Default() *Catalog { return &defaultCatalog }

// GPU returns the GPU with the given ID.
func (c *Catalog) GPU(id string) (GPU, bool) {
	if i := find(len(c.GPUs), id, func(i int) string { return c.GPUs[i].ID }); i >= 0 {
		return c.GPUs[i], true
	}
	return GPU{}, false
}

// Model returns the model with the given ID.
func (c *Catalog) Model(id string) (Model, bool) {
	if i := find(len(c.Models), id, func(i int) string { return c.Models[i].ID }); i >= 0 {
		return c.Models[i], true
	}
	return Model{}, false
}

// Provider returns the provider with the given ID.
func (c *Catalog) Provider(id string) (Provider, bool) {
	if i := find(len(c.Providers), id, func(i int) string { return c.Providers[i].ID }); i >= 0 {
		return c.Providers[i], true
	}
	return Provider{}, false
}

// Offer returns the offer with the given ID.
func (c *Catalog) Offer(id string) (Offer, bool) {
	if i := find(len(c.Offers), id, func(i int) string { return c.Offers[i].ID }); i >= 0 {
		return c.Offers[i], true
	}
	return Offer{}, false
}

// find is the index of the first of n elements whose key is id, or -1.
// It works on indexes, not on a generic slice, so the four tables share
// one search in app.wasm instead of a search and a binary search compiled
// for each element type.
func find(n int, id string, key func(i int) string) int {
	if i, ok := sort.Find(n, func(i int) int { return strings.Compare(id, key(i)) }); ok {
		return i
	}
	// Catalogs built by hand (tests, price sheets) may be unsorted.
	for i := range n {
		if key(i) == id {
			return i
		}
	}
	return -1
}

// OffersForGPU returns the offers with the given GPU, in ID order.
func (c *Catalog) OffersForGPU(gpuID string) []Offer {
	var out []Offer
	for _, o := range c.Offers {
		if o.GPU == gpuID {
			out = append(out, o)
		}
	}
	return out
}

// Forms are the IDs of the entries that name id's chip in a form factor
// (SXM, PCIe, NVL) where id is the catalog's entry for that chip in none:
// a100-80gb's are a100-80gb-pcie and a100-80gb-sxm, h200-141gb's
// h200-nvl and h200-sxm. A provider that does not say which form it
// rents is filed under the unspecified entry (catalog/source merge), so
// an A100 80GB is sold under three IDs; a plan for "an A100 80GB" takes
// them all (plan.Offer.Chip, Chips). None for an ID with a form factor, and
// none where no entry matches: a sibling has the same vendor,
// architecture and memory, and every word of id's name in its own
// (V100S is not a V100 32GB, an H100 NVL of 94 GB not an H100 80GB).
func (c *Catalog) Forms(id string) []string {
	u, ok := c.GPU(id)
	if !ok || !u.formUnspecified() {
		return nil
	}
	var out []string
	for _, g := range c.GPUs {
		if g.ID != u.ID && !g.formUnspecified() && g.Vendor == u.Vendor && g.Architecture == u.Architecture &&
			g.Memory == u.Memory && nameHolds(g.Name, u.Name) {
			out = append(out, g.ID)
		}
	}
	return out
}

// Chips maps each GPU ID that names a form factor to the ID of its chip
// in none, where the catalog has one (Forms): a100-80gb-sxm to a100-80gb.
func (c *Catalog) Chips() map[string]string {
	chip := map[string]string{}
	for _, g := range c.GPUs {
		for _, f := range c.Forms(g.ID) {
			chip[f] = g.ID
		}
	}
	return chip
}

// formUnspecified reports whether the catalog's entry names the chip in
// no form factor ("unspecified (PCIe figures)").
func (g GPU) formUnspecified() bool { return strings.HasPrefix(g.FormFactor, "unspecified") }

// nameHolds reports whether every word of part is a word of name.
func nameHolds(name, part string) bool {
	words := strings.Fields(name)
	for _, w := range strings.Fields(part) {
		if !slices.Contains(words, w) {
			return false
		}
	}
	return true
}

// OffersByProvider returns the offers of the given provider, in ID order.
func (c *Catalog) OffersByProvider(providerID string) []Offer {
	var out []Offer
	for _, o := range c.Offers {
		if o.Provider == providerID {
			out = append(out, o)
		}
	}
	return out
}

// OldestAsOf returns the oldest AsOf date over providers and offers
// ("" for an empty catalog).
func (c *Catalog) OldestAsOf() string {
	d, _ := c.asOfRange()
	return d
}

// NewestAsOf returns the newest AsOf date over providers and offers.
func (c *Catalog) NewestAsOf() string {
	_, d := c.asOfRange()
	return d
}

func (c *Catalog) asOfRange() (oldest, newest string) {
	see := func(d string) {
		if d == "" {
			return
		}
		if oldest == "" || d < oldest {
			oldest = d
		}
		if d > newest {
			newest = d
		}
	}
	for _, p := range c.Providers {
		see(p.AsOf)
	}
	for _, o := range c.Offers {
		see(o.AsOf)
	}
	return oldest, newest
}

// AsOfTime parses an AsOf date ("2006-01-02", UTC). A well-formed date
// is read by hand: time.Parse is a large function, and its first call in
// the page's WebAssembly (cold code) cost about 75 ms of start-up. Any
// other text goes to time.Parse, for its exact error; FuzzAsOfTime holds
// both paths to the same answers.
func AsOfTime(asOf string) (time.Time, error) {
	if y, m, d, ok := splitDate(asOf); ok {
		return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC), nil
	}
	return time.Parse(DateLayout, asOf)
}

// splitDate reads "YYYY-MM-DD" with a month of 1–12 and a day that exists
// in that month; ok is false for anything else.
func splitDate(s string) (y, m, d int, ok bool) {
	if len(s) != len(DateLayout) || s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, false
	}
	num := func(a, b int) (int, bool) {
		n := 0
		for i := a; i < b; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	y, ok1 := num(0, 4)
	m, ok2 := num(5, 7)
	d, ok3 := num(8, 10)
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 {
		return 0, 0, 0, false
	}
	// The month's last day: day 0 of the next month.
	if d > time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return 0, 0, 0, false
	}
	return y, m, d, true
}

// Age returns how old the provider's prices are at now; 0 if AsOf is not a date.
func (p Provider) Age(now time.Time) time.Duration {
	t, err := AsOfTime(p.AsOf)
	if err != nil {
		return 0
	}
	return now.Sub(t)
}

// StaleAt reports whether the provider's prices are older than StaleAfter at
// now, or undated.
func (p Provider) StaleAt(now time.Time) bool {
	t, err := AsOfTime(p.AsOf)
	return err != nil || now.Sub(t) > StaleAfter
}

// StaleAt reports whether the offer's price is older than StaleAfter at now,
// or undated.
func (o Offer) StaleAt(now time.Time) bool {
	t, err := AsOfTime(o.AsOf)
	return err != nil || now.Sub(t) > StaleAfter
}

// PerGPUHour divides a whole-instance hourly price by the GPU count
// (0 when either is 0).
func (o Offer) PerGPUHour(instancePerHour float64) float64 {
	if o.GPUCount <= 0 || instancePerHour <= 0 {
		return 0
	}
	return instancePerHour / o.GPUCount
}

// PriceToVerify reports whether the offer's own record leaves its price
// open (PriceOpen). Such a price is listed, never the headline while a
// confirmed price runs the job (plan.Offer.ToVerify). A user's own price
// is never open.
func (o Offer) PriceToVerify() bool { return !o.UserPrice && o.PriceOpen }

// NotesLeavePriceOpen reports whether an offer's notes leave its price
// open: the catalog's transcriptions close a caveat their source did not
// settle with "verify" (a footnote not captured, as Paperspace's A100-80G
// "$ 1.15** / hour"; a column read one of two ways; a region under 70% of
// the others'; two sources for one seller's machine far apart), and quote
// a floor in the source's words ("Starting at", "Starting from": Akash's
// GPU page lists the lowest of its providers' bids, "floor prices, not
// quotes" (the transcription's README); Vultr's prepaid bare metal).
func NotesLeavePriceOpen(notes string) bool {
	n := strings.ToLower(notes)
	return slices.ContainsFunc(openPriceMarkers, func(m string) bool { return strings.Contains(n, m) })
}

// openPriceMarkers are the words, lower case, with which an offer's notes
// leave its price open (NotesLeavePriceOpen).
var openPriceMarkers = []string{"verify", `"starting at"`, `"starting from`}

// OnDemandPerGPUHour is the on-demand price per GPU-hour, in Currency.
func (o Offer) OnDemandPerGPUHour() float64 { return o.PerGPUHour(o.OnDemandPerHour) }

// SpotPerGPUHour is the spot price per GPU-hour, in Currency.
func (o Offer) SpotPerGPUHour() float64 { return o.PerGPUHour(o.SpotPerHour) }

// TotalGPUMemory is the instance's GPU memory: count × per-GPU memory.
func (o Offer) TotalGPUMemory(g GPU) estimator.Bytes {
	return estimator.Bytes(o.GPUCount * float64(g.Memory))
}
