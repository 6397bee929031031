package source

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Google Cloud's SkyPilot catalog prices a GPU machine in two kinds of row:
// the machine ("host": InstanceType set, no accelerator) and the GPUs
// (AcceleratorName and AcceleratorCount set, no InstanceType), each per
// region and zone. composeGCP turns them into one priced row per machine
// type and region, by the rules the catalog's GCP offers were built with:
//
//   - A2 / A3 / A4: host row + the accelerator row of the machine's GPU and
//     count, same region (A4's host row is 0.0).
//   - G2 (L4): g2-standard-4's host price scaled linearly by vCPU (8 vCPU =
//     2×) + the L4 row for the size's GPU count.
//   - N1 + T4 / P4 / P100 / V100: a fixed n1-highmem-8 host (SkyPilot's
//     default) + the GPU row for the count.
//   - G4 (RTX PRO 6000): the catalog has no accelerator row, so the price
//     is the machine row alone and may exclude the GPU.
//   - A3 (H100, H100 Mega, H200): spot only. SkyPilot's on-demand H100/H200
//     accelerator rows are not Google's on-demand list price: host + 8 × H100
//     gives $43.07/h for a3-highgpu-8g in us-central1, where Google's SKUs
//     (Cyclenerd pricing.yml, 2026-07-30) give $88.49/h, and SkyPilot's own
//     H100 spot row is above its on-demand row; $43.07 is about the DWS
//     flex-start rate. A2 (A100) totals agree with pricing.yml to the cent.
//     On-demand A3 prices come from pricing.yml (internal/bootstrap/market.py).
//
// Where an accelerator row for a count is absent, the count-1 row × count
// is used for the GPUs whose price is linear in count (L4, T4, P4, P100,
// V100). Totals are rounded to 6 decimals.

// gcpAccel is the GPU part of a GCP machine type.
type gcpAccel struct {
	name  string  // AcceleratorName in the catalog
	count float64 // AcceleratorCount
	gpu   string  // Rightsize GPU ID
}

// gcpHostAccel pairs GCP's accelerator-optimized machine types with their
// GPUs. The GPUs in A2/A3/A4 machines are SXM parts, so the GPU ID names
// the form factor that the bare accelerator name leaves open.
var gcpHostAccel = map[string]gcpAccel{
	"a2-highgpu-1g": {"A100", 1, "a100-40gb-sxm"}, "a2-highgpu-2g": {"A100", 2, "a100-40gb-sxm"},
	"a2-highgpu-4g": {"A100", 4, "a100-40gb-sxm"}, "a2-highgpu-8g": {"A100", 8, "a100-40gb-sxm"},
	"a2-megagpu-16g": {"A100", 16, "a100-40gb-sxm"},
	"a2-ultragpu-1g": {"A100-80GB", 1, "a100-80gb-sxm"}, "a2-ultragpu-2g": {"A100-80GB", 2, "a100-80gb-sxm"},
	"a2-ultragpu-4g": {"A100-80GB", 4, "a100-80gb-sxm"}, "a2-ultragpu-8g": {"A100-80GB", 8, "a100-80gb-sxm"},
	"a3-highgpu-1g": {"H100", 1, "h100-sxm"}, "a3-highgpu-2g": {"H100", 2, "h100-sxm"},
	"a3-highgpu-4g": {"H100", 4, "h100-sxm"}, "a3-highgpu-8g": {"H100", 8, "h100-sxm"},
	"a3-edgegpu-8g":  {"H100", 8, "h100-sxm"},
	"a3-megagpu-8g":  {"H100-MEGA", 8, "h100-sxm"},
	"a3-ultragpu-8g": {"H200", 8, "h200-sxm"},
	"a4-highgpu-8g":  {"B200", 8, "b200"},
}

// gcpSpotOnly are the accelerator rows whose on-demand price is not the
// list price (see the package comment above composeGCP).
var gcpSpotOnly = map[string]bool{"H100": true, "H100-MEGA": true, "H200": true}

// gcpLinearAccels are the accelerators whose price is linear in count.
var gcpLinearAccels = map[string]bool{"L4": true, "T4": true, "P4": true, "P100": true, "V100": true}

const (
	gcpG2Base = "g2-standard-4"
	gcpN1Host = "n1-highmem-8"
)

// gcpG2Sizes maps g2-standard-N's vCPU count N to its L4 count.
var gcpG2Sizes = map[int]float64{4: 1, 8: 1, 12: 1, 16: 1, 32: 1, 24: 2, 48: 4, 96: 8}

// gcpG4Sizes maps g4-standard-N's vCPU count N to its RTX PRO 6000 share.
var gcpG4Sizes = map[int]float64{6: 0.125, 12: 0.25, 24: 0.5, 48: 1, 96: 2, 192: 4, 384: 8}

// gcpN1Attach lists the GPUs attached to the N1 host and their counts.
var gcpN1Attach = []struct {
	name   string
	counts []float64
}{{"T4", []float64{1, 2, 4}}, {"P4", []float64{1, 2, 4}}, {"P100", []float64{1, 2, 4}}, {"V100", []float64{1, 2, 4, 8}}}

// gcpGPUFamilies are machine-type prefixes whose machines carry GPUs; a
// host row of one of them that no rule composes is reported, not ignored.
var gcpGPUFamilies = []string{"a2-", "a3-", "a4-", "a4x-", "g2-", "g4-"}

const (
	gcpNoteHost = "GCP price = machine (host) row + accelerator row, same region"
	gcpNoteG2   = "GCP G2: host price scaled linearly from g2-standard-4 + L4 accelerator rows"
	gcpNoteN1   = "GCP N1 + attached GPU; host fixed to n1-highmem-8 (8 vCPU, 52 GB) as in SkyPilot; other N1 hosts change the total"
	gcpNoteG4   = "G4: catalog has no separate RTX PRO 6000 accelerator row; price is the machine row only and may exclude the GPU - verify before use"
)

type gcpKey struct {
	name   string
	count  float64
	region string
}

// composeGCP returns one row per composed machine type and region (sorted by
// instance type, then region) and the lines for SkyPilotImport.Skipped.
func composeGCP(rows []vmRow) ([]vmRow, []string) {
	hosts := map[[2]string]vmRow{} // (instance type, region) -> first row
	accels := map[gcpKey]vmRow{}   // cheapest on-demand row per region
	var skipped []string
	both := map[string]bool{}
	for _, r := range rows {
		switch {
		case r.instance != "" && r.accel == "":
			k := [2]string{r.instance, r.region}
			if _, ok := hosts[k]; !ok {
				hosts[k] = r
			}
		case r.instance == "" && r.accel != "" && r.count > 0:
			k := gcpKey{r.accel, r.count, r.region}
			if old, ok := accels[k]; !ok || r.hasPrice && (!old.hasPrice || r.price < old.price) {
				accels[k] = r
			}
		case r.instance != "" && r.accel != "":
			both[r.instance] = true
		}
	}
	for _, it := range sortedKeys(both) {
		skipped = append(skipped, fmt.Sprintf("gcp %s: row names both a machine type and an accelerator; not composed", it))
	}

	used := map[gcpKey]bool{}
	accelFor := func(name string, count float64, region string) (vmRow, bool) {
		k := gcpKey{name, count, region}
		if a, ok := accels[k]; ok {
			used[k] = true
			return a, true
		}
		k1 := gcpKey{name, 1, region}
		if a1, ok := accels[k1]; ok && gcpLinearAccels[name] {
			used[k1] = true
			a1.price, a1.spot, a1.count = a1.price*count, a1.spot*count, count
			return a1, true
		}
		return vmRow{}, false
	}

	var out []vmRow
	add := func(it, accel string, count float64, gpu, note string, host vmRow, hostScale float64, acc *vmRow) {
		r := vmRow{instance: it, accel: accel, region: host.region, count: count, vcpus: host.vcpus, memGiB: host.memGiB,
			gpu: gpu, note: note}
		r.price, r.hasPrice = host.price*hostScale, host.hasPrice
		r.spot, r.hasSpot = host.spot*hostScale, host.hasSpot
		if acc != nil {
			r.price, r.hasPrice = r.price+acc.price, r.hasPrice && acc.hasPrice
			r.spot, r.hasSpot = r.spot+acc.spot, r.hasSpot && acc.hasSpot
		}
		if !r.hasPrice {
			r.price = 0
		}
		if !r.hasSpot {
			r.spot = 0
		}
		r.price, r.spot = round6(r.price), round6(r.spot)
		out = append(out, r)
	}

	hostKeys := make([][2]string, 0, len(hosts))
	for k := range hosts {
		hostKeys = append(hostKeys, k)
	}
	slices.SortFunc(hostKeys, func(a, b [2]string) int {
		if c := strings.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[1], b[1])
	})
	noAccel := map[string][]string{} // machine type -> regions without its accelerator row
	priced := map[string]bool{}
	spotOnly := map[string]bool{}
	var unknown []string
	var g2Bases []vmRow
	var n1Hosts []vmRow
	for _, k := range hostKeys {
		it, h := k[0], hosts[k]
		if a, ok := gcpHostAccel[it]; ok {
			acc, ok := accelFor(a.name, a.count, h.region)
			if !ok {
				noAccel[it] = append(noAccel[it], h.region)
				continue
			}
			priced[it] = true
			if gcpSpotOnly[a.name] {
				acc.hasPrice = false
				if !spotOnly[it] {
					spotOnly[it] = true
					skipped = append(skipped, fmt.Sprintf("gcp %s: the %s accelerator row is not the on-demand list price (DWS flex-start level); on-demand not imported, spot only", it, a.name))
				}
			}
			add(it, a.name, a.count, a.gpu, gcpNoteHost, h, 1, &acc)
			continue
		}
		switch {
		case it == gcpG2Base:
			g2Bases = append(g2Bases, h)
		case it == gcpN1Host:
			n1Hosts = append(n1Hosts, h)
		case strings.HasPrefix(it, "g4-standard-"):
			n, _ := strconv.Atoi(strings.TrimPrefix(it, "g4-standard-"))
			if cnt, ok := gcpG4Sizes[n]; ok {
				priced[it] = true
				add(it, "RTXPRO6000", cnt, "rtx-pro-6000", gcpNoteG4, h, 1, nil)
			} else if !slices.Contains(unknown, it) {
				unknown = append(unknown, it)
			}
		case strings.HasPrefix(it, "g2-standard-"):
			// Derived from g2-standard-4 below, as the catalog's G2 offers are;
			// a size outside gcpG2Sizes is reported.
			n, _ := strconv.Atoi(strings.TrimPrefix(it, "g2-standard-"))
			if _, ok := gcpG2Sizes[n]; !ok && !slices.Contains(unknown, it) {
				unknown = append(unknown, it)
			}
		default:
			for _, p := range gcpGPUFamilies {
				if strings.HasPrefix(it, p) && !slices.Contains(unknown, it) {
					unknown = append(unknown, it)
				}
			}
		}
	}
	sizes := sortedKeys(gcpG2Sizes)
	for _, h := range g2Bases {
		for _, v := range sizes {
			cnt := gcpG2Sizes[v]
			acc, ok := accelFor("L4", cnt, h.region)
			it := fmt.Sprintf("g2-standard-%d", v)
			if !ok {
				noAccel[it] = append(noAccel[it], h.region)
				continue
			}
			priced[it] = true
			hv := h
			hv.vcpus, hv.memGiB = float64(v), 4*float64(v)
			add(it, "L4", cnt, skyPilotGPUs["L4"], gcpNoteG2, hv, float64(v)/4, &acc)
		}
	}
	for _, h := range n1Hosts {
		for _, at := range gcpN1Attach {
			for _, cnt := range at.counts {
				// An N1 host is a plain machine: regions without the GPU are
				// not an error, the GPU is just not offered there.
				if acc, ok := accelFor(at.name, cnt, h.region); ok {
					it := fmt.Sprintf("%s+%gx%s", gcpN1Host, cnt, at.name)
					add(it, at.name, cnt, skyPilotGPUs[at.name], gcpNoteN1, h, 1, &acc)
				}
			}
		}
	}

	for _, it := range unknown {
		skipped = append(skipped, fmt.Sprintf("gcp %s: no rule pairs this machine type with an accelerator; not imported", it))
	}
	for _, it := range sortedKeys(noAccel) {
		name, count := gcpHostAccel[it].name, gcpHostAccel[it].count
		if n, err := strconv.Atoi(strings.TrimPrefix(it, "g2-standard-")); err == nil {
			name, count = "L4", gcpG2Sizes[n]
		}
		if priced[it] {
			skipped = append(skipped, fmt.Sprintf("gcp %s: no %s x%g accelerator row in %s; not priced there", it, name, count, strings.Join(noAccel[it], " ")))
		} else {
			skipped = append(skipped, fmt.Sprintf("gcp %s: no %s x%g accelerator row in any region of its machine rows; not imported", it, name, count))
		}
	}
	// Accelerator rows no machine type used: where the key was used in other
	// regions, list the regions; otherwise list the key once.
	partly := map[string][]string{}
	var never []string
	usedKey := map[[2]string]bool{}
	for k := range used {
		usedKey[[2]string{k.name, strconv.FormatFloat(k.count, 'g', -1, 64)}] = true
	}
	accKeys := make([]gcpKey, 0, len(accels))
	for k := range accels {
		accKeys = append(accKeys, k)
	}
	slices.SortFunc(accKeys, func(a, b gcpKey) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if a.count != b.count {
			return cmp.Compare(a.count, b.count)
		}
		return strings.Compare(a.region, b.region)
	})
	for _, k := range accKeys {
		if used[k] {
			continue
		}
		label := fmt.Sprintf("%s x%g", k.name, k.count)
		if usedKey[[2]string{k.name, strconv.FormatFloat(k.count, 'g', -1, 64)}] {
			partly[label] = append(partly[label], k.region)
		} else if !slices.Contains(never, label) {
			never = append(never, label)
		}
	}
	for _, label := range sortedKeys(partly) {
		skipped = append(skipped, fmt.Sprintf("gcp accelerator %s: no machine row to pair with in %s; not used there", label, strings.Join(partly[label], " ")))
	}
	if len(never) > 0 {
		skipped = append(skipped, fmt.Sprintf("gcp accelerators no rule pairs with a machine type (not imported): %s", strings.Join(never, ", ")))
	}

	slices.SortStableFunc(out, func(a, b vmRow) int {
		if c := strings.Compare(a.instance, b.instance); c != 0 {
			return c
		}
		return strings.Compare(a.region, b.region)
	})
	return out, skipped
}

// round6 rounds a composed price to 6 decimals, as the catalog stores them.
func round6(x float64) float64 {
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 6, 64), 64)
	return y
}

func sortedKeys[K interface{ ~string | ~int }, V any](m map[K]V) []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
