//go:build !js

package source_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"rightsize/catalog/source"
)

// payload is an instance name that would run a command in a launch
// script whose comment named it raw.
const payload = "gpu_8x_h100_sxm5\ntouch /tmp/pwned\n#"

// TestValidateRefusesBadNames: catalog validation fails on a name that
// holds a newline, a substitution or an escape, quoting it.
func TestValidateRefusesBadNames(t *testing.T) {
	for _, c := range []struct{ name, files, entry, want string }{
		{"instance type", "offers.json", strings.Replace(okOffer, `"instance_type":"g4dn.xlarge"`, `"instance_type":"g4dn.xlarge\ntouch /tmp/pwned\n#"`, 1),
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): instance_type "g4dn.xlarge\ntouch /tmp/pwned\n#": character '\n' is not allowed`},
		{"region", "offers.json", strings.Replace(okOffer, `"currency"`, `"regions":["us-east-1\u001b[2J"],"currency"`, 1),
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): region "us-east-1\x1b[2J": character '\x1b' is not allowed`},
		{"spot region", "offers.json", strings.Replace(okOffer, `"currency"`, `"spot_per_hour":0.2,"spot_region":"$(id)","currency"`, 1),
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): spot_region "$(id)": must start with a letter or a digit`},
		{"underlying provider", "offers.json", strings.Replace(okOffer, `"currency"`, `"underlying_provider":"aws\nenvs:","currency"`, 1),
			`catalog: offers.json: entry 0 (aws-g4dn.xlarge): underlying_provider "aws\nenvs:": character '\n' is not allowed`},
		{"provider name", "providers.json", strings.Replace(okProviders, `"name":"AWS"`, `"name":"AWS\u202e"`, 1),
			`catalog: providers.json: entry 0 (aws): name "AWS\u202e": character '\u202e' is not allowed`},
	} {
		file := c.entry
		if c.files == "offers.json" {
			file = offers(c.entry)
		}
		_, err := source.Load(fixture(map[string]string{c.files: file}), today)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant a line %s", c.name, err, c.want)
		}
	}
	// An ID that fails its own rule is quoted in the message's entry.
	_, err := source.Load(fixture(map[string]string{"offers.json": offers(strings.Replace(okOffer, `"id":"aws-g4dn.xlarge"`, `"id":"aws-g4dn\n#"`, 1))}), today)
	if err == nil || !strings.Contains(err.Error(), `catalog: offers.json: entry 0 ("aws-g4dn\n#"): id "aws-g4dn\n#" must be`) {
		t.Errorf("bad id: %v", err)
	}
}

// TestRefreshSkipsBadNames: an instance type from a provider's API that
// holds a newline is skipped with a line quoting it, the other rows are
// imported, and the summary printed to the terminal holds no raw control
// character.
func TestRefreshSkipsBadNames(t *testing.T) {
	body := `{"data":{
	  "gpu_1x_a10":{"instance_type":{"name":"gpu_1x_a10","description":"1x A10 (24 GB PCIe)","price_cents_per_hour":139,"specs":{"vcpus":30,"memory_gib":200,"gpus":1}},"regions_with_capacity_available":[{"name":"us-east-1"}]},
	  "gpu_8x_h100_sxm5\ntouch /tmp/pwned\n#":{"instance_type":{"name":"x","description":"8x H100 (80 GB SXM5)","price_cents_per_hour":2392,"specs":{"vcpus":208,"memory_gib":1800,"gpus":8}},"regions_with_capacity_available":[{"name":"us-east-1"}]},
	  "gpu_1x_h100_pcie":{"instance_type":{"name":"gpu_1x_h100_pcie","description":"1x H100 (80 GB PCIe)","price_cents_per_hour":249,"specs":{"vcpus":26,"memory_gib":200,"gpus":1}},"regions_with_capacity_available":[{"name":"us-east-1\u001b]0;pwned\u0007"}]},
	  "gpu_1x_a100":{"instance_type":{"name":"gpu_1x_a100","description":"1x A100 (40 GB PCIe)","price_cents_per_hour":199,"specs":{"vcpus":30,"memory_gib":200,"gpus":1}},"regions_with_capacity_available":[{"name":"us-east-1"}]}
	}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }))
	defer srv.Close()
	var lambda source.Adapter
	for _, a := range source.Adapters {
		if a.Name == "lambda" {
			lambda = a
		}
	}
	f := readFiles(t)
	r := f.Refresh(context.Background(), &source.Fetcher{BaseURL: srv.URL, Today: refreshDay, Getenv: func(string) string { return "k" }},
		[]source.Adapter{lambda}, refreshDay)[0]
	if r.Status != "updated" {
		t.Fatalf("status %s: %v", r.Status, r.Err)
	}
	skipped := strings.Join(r.Skipped, "\n")
	for _, want := range []string{
		`lambda "gpu_8x_h100_sxm5\ntouch /tmp/pwned\n#": instance_type "gpu_8x_h100_sxm5\ntouch /tmp/pwned\n#": character '\n' is not allowed (letters, digits, spaces and -_.:/+()@, only); not imported`,
		`lambda "gpu_1x_h100_pcie": region "us-east-1\x1b]0;pwned\a": character '\x1b' is not allowed (letters, digits, spaces and -_.:/+()@, only); not imported`,
	} {
		if !strings.Contains(skipped, want) {
			t.Errorf("skipped lacks\n%s\nhas\n%s", want, skipped)
		}
	}
	c, err := f.Catalog(refreshDay)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range c.OffersByProvider("lambda") {
		if strings.Contains(o.InstanceType, "touch") || strings.ContainsRune(strings.Join(o.Regions, ""), 0x1b) {
			t.Errorf("imported %q %q", o.InstanceType, o.Regions)
		}
	}
	if o, _ := c.Offer("lambda-gpu_1x_a10"); o.OnDemandPerHour != 1.39 {
		t.Errorf("the good row was not imported: %+v", o)
	}
	var sum bytes.Buffer
	source.WriteSummary(&sum, []source.Report{r, {Adapter: "x", Status: "failed", Err: errString("bad \x1b[2J\nsecond line"),
		Skipped: []string{"vast h100\x1b[31m: GPU name not mapped"}}})
	out := sum.String()
	if strings.ContainsAny(out, "\x1b\a\r") || strings.Contains(out, "\ntouch") {
		t.Errorf("summary holds raw control characters:\n%q", out)
	}
	if !strings.Contains(out, `bad \x1b[2J`+"\n    second line") || !strings.Contains(out, `vast h100\x1b[31m: GPU name not mapped`) {
		t.Errorf("summary:\n%s", out)
	}
}

type errString string

func (e errString) Error() string { return string(e) }
