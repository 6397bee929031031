#!/usr/bin/env python3
"""Merge the ec2instances.info extracts staged on 2025-11-25 (../shared/data/market:
aws_reserved_1y.csv, aws_spot_vantage.csv, aws_china_gpu_prices.csv, instance_networks.csv;
each has a .SOURCE.md) into catalog/data:

* AWS 1-year commitments: reserved_1y_per_hour = the 1-year Standard Reserved Instance,
  All Upfront, effective hourly rate (upfront / 8760 h), Linux, shared tenancy, in the offer's
  on-demand region, as the 3-year column already holds the 3-year Standard All Upfront rate.
  p5.48xlarge has a 1-year Convertible RI only: it takes that, and its note says so. The
  3-year column is filled from the same file where the offer had none (p3 family).
* AWS spot interruption: the Spot Instance Advisor bucket of 2025-11-30 (ec2instances.info)
  for the offer's spot region replaces the 2025-06-28 bucket (spotinfo) where the newer file
  has that region; offers without a bucket take it where it exists.
* AWS China: provider aws-cn (Beijing, operated by Sinnet; Ningxia, operated by NWCD), CNY
  prices of 2026-01-21; one offer per instance type and region whose GPU the catalog has (M60
  and K80 rows are left out), each with that region's own on-demand price and Standard RI
  commitments (none where the source lists none for the region: Beijing's local zone
  cn-north-1-pkx-1 has Savings rates only). A type priced in several regions has one offer
  a region, its ID ending in the region (aws-cn-<type>-cn-north-1), as from_snapshot.py
  names the other providers' per-region offers; a type priced in one region keeps the
  plain ID. Network: the instance type's bandwidth (an instance-type property, from
  instance_networks.csv).

Idempotent; run from the repository root:
  python3 catalog/internal/bootstrap/aws_vantage.py MARKET_DIR
then `rightsize catalog format` and `go generate ./catalog`.
"""
import csv, json, sys, collections

MARKET = sys.argv[1] if len(sys.argv) > 1 else "../shared/data/market"
DATA = "catalog/data"

def rows(name):
    with open(f"{MARKET}/{name}", newline="") as f:
        return list(csv.DictReader(f))

def num(s):
    try:
        x = float(s)
    except (TypeError, ValueError):
        return 0.0
    return x if x > 0 else 0.0

offers_doc = json.load(open(f"{DATA}/offers.json"))
offers = offers_doc["offers"]
prov_doc = json.load(open(f"{DATA}/providers.json"))

VANTAGE = "ec2instances.info (instances.vantage.sh/instances.json, from the AWS Price List API) as committed by github.com/tsaol/aws-gpu data/gpu_instances_raw.json@2d0108c7bd26"
RI_NOTE = "reserved 1y: 1yr %s RI, All Upfront, effective hourly (upfront/8760 h), Linux, shared tenancy, %s, " + VANTAGE + " (2025-11-30; on-demand and 1yr Standard No Upfront re-confirmed 2026-01-21)"

def add_note(o, note):
    n = o.get("notes", "")
    parts = [p for p in n.split("; ") if p and not p.startswith(note.split(":")[0] + ":")]
    parts.append(note)
    o["notes"] = "; ".join(parts)

# ---- AWS 1-year (and missing 3-year) commitments.
ri = {(r["instance_type"], r["region"]): r for r in rows("aws_reserved_1y.csv")}
n1 = n3 = 0
for o in offers:
    if o["provider"] != "aws" or not o.get("regions"):
        continue
    r = ri.get((o["instance_type"], o["regions"][0]))
    if r is None:
        continue
    od = o.get("on_demand_per_hour", 0)
    y1, cls = num(r["ri_std_1y_all_upfront"]), "Standard"
    if not y1:
        y1, cls = num(r["ri_conv_1y_all_upfront"]), "Convertible"
    if y1 and (not od or y1 <= od):
        o["reserved_1y_per_hour"] = y1
        add_note(o, RI_NOTE % (cls, o["regions"][0]))
        n1 += 1
    y3 = num(r["ri_std_3y_all_upfront"])
    if y3 and not o.get("reserved_3y_per_hour") and (not od or y3 <= od):
        o["reserved_3y_per_hour"] = y3
        add_note(o, "reserved 3y: 3yr Standard RI, All Upfront, effective hourly, Linux, shared tenancy, %s, %s (2025-11-30)" % (o["regions"][0], VANTAGE))
        n3 += 1

# ---- Spot Advisor buckets of 2025-11-30.
SPOT_SRC = "AWS Spot Instance Advisor bucket as of 2025-11-30 (" + VANTAGE + ")"
spot = {(r["instance_type"], r["region"]): r for r in rows("aws_spot_vantage.csv")}
n_spot = 0
for o in offers:
    if o["provider"] != "aws" or not o.get("spot_region"):
        continue
    r = spot.get((o["instance_type"], o["spot_region"]))
    if r and r["interruption_bucket"]:
        o["spot_interruption"] = r["interruption_bucket"]
        o["spot_interruption_source"] = SPOT_SRC
        n_spot += 1

# ---- Networks (instance-type properties) for the China offers.
net = {r["instance_type"]: r for r in rows("instance_networks.csv") if r["provider"] == "aws"}

# ---- AWS China (CNY).
CN_SRC = "ec2instances.info (instances.vantage.sh/instances-cn.json, from the AWS China Price List) as committed by github.com/tsaol/aws-gpu data/gpu_instances_raw_cn.json@7412fd256c5e (2026-01-21)"
GPU = {"NVIDIA T4 Tensor Core": "t4", "NVIDIA A10G": "a10g", "NVIDIA Tesla V100": "v100-16gb", "NVIDIA A100": "a100-40gb-sxm"}
REGION = {"cn-north-1": "Beijing, Sinnet", "cn-northwest-1": "Ningxia, NWCD", "cn-north-1-pkx-1": "Beijing local zone"}
cn = collections.defaultdict(list)
skipped = set()
for r in rows("aws_china_gpu_prices.csv"):
    if r["gpu_model_in_source"] not in GPU:
        skipped.add(f'{r["instance_type"]} ({r["gpu_model_in_source"]})')
        continue
    if num(r["on_demand_per_hour"]):
        cn[r["instance_type"]].append(r)
offers[:] = [o for o in offers if o["provider"] != "aws-cn"]
n_cn = 0
for it, rs in sorted(cn.items()):
    for r in sorted(rs, key=lambda r: (num(r["on_demand_per_hour"]), r["region"])):
        region = r["region"]
        count = float(r["gpu_count"])
        o = {"id": "aws-cn-" + it + ("-" + region if len(rs) > 1 else ""), "provider": "aws-cn", "instance_type": it,
             "gpu": GPU[r["gpu_model_in_source"]], "gpu_count": int(count) if count == int(count) else count,
             "gpu_memory_gb": float(r["gpu_memory_total_in_source"]) / count,
             "vcpus": int(r["vcpus"]), "ram_gib": float(r["ram_gib"])}
        if o["gpu"] == "a100-40gb-sxm":
            o["interconnect"] = "nvlink"
        n = net.get(it)
        if n and n["gbps_per_node"]:
            o["network_gbps"] = float(n["gbps_per_node"])
            if n["gpu_fabric_gbps"]:
                o["network_fabric"] = "efa"
        o["on_demand_per_hour"] = num(r["on_demand_per_hour"])
        notes = [f"on-demand in {region} ({REGION[region]})"]
        y1, y3 = num(r["ri_std_1y_all_upfront"]), num(r["ri_std_3y_all_upfront"])
        if y1 and y1 <= o["on_demand_per_hour"]:
            o["reserved_1y_per_hour"] = y1
            notes.append(f"reserved 1y: 1yr Standard RI, All Upfront, effective hourly, {region}")
        if y3 and y3 <= o["on_demand_per_hour"]:
            o["reserved_3y_per_hour"] = y3
            notes.append(f"reserved 3y: 3yr Standard RI, All Upfront, effective hourly, {region}")
        other = [x["region"] for x in rs if x is not r and (num(x["ri_std_1y_all_upfront"]) or num(x["ri_std_3y_all_upfront"]))]
        if not (y1 or y3) and other:
            notes.append(f"no reserved price: the source lists no Standard RI in {region}" +
                         (" (Savings rates only)" if any(num(r[k]) for k in r if k.startswith("savings_")) else "") +
                         f"; the Standard RI of {' and '.join(other)} does not apply here")
        if n:
            notes.append("network: instance-type bandwidth from aws/karpenter-provider-aws zz_generated.bandwidth.go@7f27b4e8 (2026-08-18)")
        notes.append("VAT basis not stated by the source")
        o.update({"currency": "CNY", "billing_granularity": "second", "regions": [region],
                  "as_of": "2026-01-21", "source": CN_SRC, "notes": "; ".join(notes)})
        offers.append(o)
        n_cn += 1
offers.sort(key=lambda o: o["id"])

provs = prov_doc["providers"]
provs[:] = [p for p in provs if p["id"] != "aws-cn"]
provs.insert([p["id"] for p in provs].index("aws") + 1, {"id": "aws-cn", "name": "Amazon Web Services China (Beijing, Ningxia)", "kind": "hyperscaler",
              "country": "CN", "currency": "CNY", "url": "https://www.amazonaws.cn/en/ec2/pricing/",
              "source": CN_SRC, "as_of": "2026-01-21",
              "notes": "AWS regions in mainland China, billed in CNY: Beijing (cn-north-1) operated by Beijing Sinnet Technology, Ningxia (cn-northwest-1) operated by Ningxia Western Cloud Data Technology (NWCD). GPU types with no catalog GPU (g3/g3s Tesla M60, p2 Tesla K80) are not imported. Whether the CNY list prices include VAT is not stated by the source."})
json.dump(prov_doc, open(f"{DATA}/providers.json", "w"), indent=2, ensure_ascii=False)
json.dump(offers_doc, open(f"{DATA}/offers.json", "w"), ensure_ascii=False)
print(f"aws 1y: {n1}; aws 3y filled: {n3}; spot buckets 2025-11-30: {n_spot}; aws-cn offers: {n_cn}; not imported: {sorted(skipped)}")
