package catalog

import (
	"slices"
	"strconv"
	"strings"
)

// InstanceName is offer o's instance as people name it, for display: its
// InstanceType, except where that is a broker's encoded listing ID.
// SkyPilot's Prime Intellect catalog
// (skypilot-org/skypilot-catalog catalogs/v8/primeintellect/vms.csv) names
// each listing PROVIDER__NxGPU_MEMORY__VCPUS__RAM
// ("datacrunch__8xH200_141GB__176__1450"), which reached the plan's table
// and its reasons as it stands. Such an offer is named from the fields the
// offer already carries, which the importer read from the same row: the
// cloud behind the broker (UnderlyingProvider, by its catalog name where
// the catalog lists it), the GPU count and model (the catalog GPU's name
// without its vendor, its memory added where the name lacks it), and the
// host's vCPUs and RAM where given, which tell two listings of one GPU
// apart: "datacrunch 8× H200 SXM 141GB (176 vCPU, 1450 GiB RAM)". The
// offer's ID and InstanceType stay as they are (links, price sheets and
// SkyPilot use them). The page and the CLI show this name
// (plan.Offer.InstanceName, set by PlanOffers).
//
// An instance type its provider prices in several regions, one offer a
// region (AWS China's Beijing and Ningxia), is named with the offer's
// region, "g5.xlarge (cn-north-1)": two rows of one name at two prices
// would not say which is which.
func (c *Catalog) InstanceName(o Offer) string {
	return c.instanceName(o, func(o Offer) bool {
		return slices.ContainsFunc(c.Offers, func(x Offer) bool {
			return x.InstanceType == o.InstanceType && x.Provider == o.Provider && x.ID != o.ID && !slices.Equal(x.Regions, o.Regions)
		})
	})
}

// regionalTypes is the provider and instance type (regionalKey) of every
// type c lists under more than one list of regions (InstanceName's test:
// an offer of one region is named with it where another offer of its
// type lists other regions, or none): one pass
// over the offers, for PlanOffers, which names each of them (a scan per
// offer, as InstanceName does for one, made naming a 100,000-row price
// sheet's plan quadratic: seconds of the page's main thread).
func (c *Catalog) regionalTypes() map[string]bool {
	first := map[string][]string{}
	several := map[string]bool{}
	for i := range c.Offers {
		o := &c.Offers[i]
		k := regionalKey(*o)
		if r, ok := first[k]; !ok {
			first[k] = o.Regions
		} else if !slices.Equal(r, o.Regions) {
			several[k] = true
		}
	}
	return several
}

func regionalKey(o Offer) string { return o.Provider + "\x00" + o.InstanceType }

// instanceName is InstanceName with regional telling whether o's type is
// priced in another region too.
func (c *Catalog) instanceName(o Offer, regional func(Offer) bool) string {
	if !strings.Contains(o.InstanceType, "__") {
		if len(o.Regions) == 1 && regional(o) {
			return o.InstanceType + " (" + o.Regions[0] + ")"
		}
		return o.InstanceType
	}
	var b strings.Builder
	if u := o.UnderlyingProvider; u != "" {
		if p, ok := c.Provider(u); ok && p.Name != "" {
			u = p.Name
		}
		b.WriteString(u + " ")
	}
	b.WriteString(strconv.FormatFloat(o.GPUCount, 'f', -1, 64) + "× ")
	name := o.GPU
	if g, ok := c.GPU(o.GPU); ok {
		name = strings.TrimSpace(strings.TrimPrefix(g.Name, g.Vendor+" "))
		if !strings.Contains(name, "GB") && g.Memory > 0 {
			// The memory as the listing and the GPU's own name write it:
			// GiB, marked "GB" ("L40S_48GB", "H200 SXM 141GB").
			name += " " + strconv.FormatFloat(float64(g.Memory)/(1<<30), 'f', 0, 64) + "GB"
		}
	}
	b.WriteString(name)
	var host []string
	if o.VCPUs > 0 {
		host = append(host, strconv.Itoa(o.VCPUs)+" vCPU")
	}
	if o.RAMGiB > 0 {
		host = append(host, strconv.FormatFloat(o.RAMGiB, 'f', -1, 64)+" GiB RAM")
	}
	if len(host) > 0 {
		b.WriteString(" (" + strings.Join(host, ", ") + ")")
	}
	return b.String()
}
