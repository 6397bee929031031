#!/usr/bin/env python3
"""Merge the sourced market extracts (../shared/data/market, see its README and
each file's .SOURCE.md) into catalog/data: FX rates (fx.json), hosted-API
token prices (hosted_apis.json), and on offers.json: GCP list prices with 1- and
3-year commitments (Cyclenerd pricing.yml), AWS Spot Advisor interruption
buckets, and inter-node network per instance type. Idempotent; run from the
repository root:  python3 catalog/internal/bootstrap/market.py MARKET_DIR
then `go generate ./catalog`.
"""
import csv, json, re, sys, collections

MARKET = sys.argv[1] if len(sys.argv) > 1 else "../shared/data/market"
DATA = "catalog/data"

def rows(name):
    with open(f"{MARKET}/{name}", newline="") as f:
        return list(csv.DictReader(f))

offers_doc = json.load(open(f"{DATA}/offers.json"))
offers = offers_doc["offers"]
by_key = {(o["provider"], o["instance_type"]): o for o in offers}

# ---- FX: Bank of Russia official rates of 2026-08-22 (one date for all; EUR
# and CNY per USD are the CBR cross rates USD/RUB ÷ EUR/RUB, USD/RUB ÷ CNY/RUB).
fx = {(r["base"], r["quote"], r["kind"], r["date"]): float(r["rate"]) for r in rows("fx_rates.csv")}
d = "2026-08-22"
usd_rub = fx[("USD", "RUB", "daily_latest", d)]
cbr = "Bank of Russia official rates of 2026-08-22 (cbr.ru XML_dynamic, via github.com/solovmm/fin_calc data/fx_daily.json@03271e6a)"
rates = [
    {"currency": "USD", "per_usd": 1, "as_of": d, "source": "identity"},
    {"currency": "RUB", "per_usd": usd_rub, "as_of": d, "source": cbr + ": USD/RUB"},
]
for cur in ["EUR", "CNY", "GBP", "INR"]:
    k = (cur, "RUB", "daily_latest", d)
    if k in fx:
        rates.append({"currency": cur, "per_usd": round(usd_rub / fx[k], 6), "as_of": d,
                      "source": cbr + f": cross rate USD/RUB {usd_rub} / {cur}/RUB {fx[k]}"})
json.dump({"comment": "Reference exchange rates: units of currency per 1 USD. One date for all, so converted prices share one basis. Cross-check (fx_test.go): the ECB reference rate of 2026-04-13 and the Fed H.10 monthly average of 2026-06 for EUR and CNY lie within 5%.",
           "rates": rates}, open(f"{DATA}/fx.json", "w"), indent=2, ensure_ascii=False)
open(f"{DATA}/fx.json", "a").write("\n")

# ---- GCP: Cyclenerd pricing.yml list prices, per region; on-demand and
# commitments from the cheapest on-demand region, spot from the cheapest spot
# region. Replaces the SkyPilot composite (its H100/H200 accelerator rows are
# not the on-demand price: a3-highgpu-8g us-central1 $43.07 vs $88.49 listed).
GCP_SRC = "github.com/Cyclenerd/google-cloud-pricing-cost-calculator pricing.yml@fd66b26f (Google Cloud Billing Catalog SKUs, generated 2026-07-30)"
gcp = collections.defaultdict(list)
for r in rows("gcp_commitments.csv"):
    gcp[r["machine_or_accelerator"]].append(r)
n_gcp = 0
for it, rs in gcp.items():
    o = by_key.get(("gcp", it))
    if o is None:
        continue
    od = min((r for r in rs if r["hour"]), key=lambda r: float(r["hour"]))
    sp = [r for r in rs if r["hour_spot"] and float(r["hour_spot"]) > 0]
    o["on_demand_per_hour"] = round(float(od["hour"]), 6)
    o["regions"] = [od["region"]]
    o.pop("reserved_1y_per_hour", None); o.pop("reserved_3y_per_hour", None)
    if od["hour_1y_derived"]:
        o["reserved_1y_per_hour"] = float(od["hour_1y_derived"])
    if od["hour_3y_derived"]:
        o["reserved_3y_per_hour"] = float(od["hour_3y_derived"])
    if sp:
        s = min(sp, key=lambda r: float(r["hour_spot"]))
        o["spot_per_hour"] = round(float(s["hour_spot"]), 6)
        o["spot_region"] = s["region"]
        o.pop("spot_above_on_demand", None)
    o["vcpus"] = int(od["vcpus"]); o.pop("ram_gb", None); o["ram_gib"] = float(od["ram_gb"])
    o["as_of"] = "2026-07-30"
    o.pop("as_of_estimated", None)
    o["source"] = GCP_SRC
    note = (f"on-demand, spot and resource-based commitments (1y/3y month price / 730) per region from pricing.yml; "
            f"cheapest on-demand region {od['region']}, over {len(rs)} regions")
    if it.startswith("a3-"):
        note += ("; replaces the SkyPilot v9 composite (host row + H100/H200 accelerator row = 43.07 for a3-highgpu-8g in "
                 "us-central1, about the DWS flex-start rate, against Google's 88.49 on-demand list price)")
    if it.startswith("g4-"):
        note += "; includes the RTX PRO 6000 (the SkyPilot machine row did not)"
    o["notes"] = note
    n_gcp += 1

# ---- AWS Spot Instance Advisor buckets for the offer's spot region.
SPOT_SRC = "AWS Spot Instance Advisor data, trailing month to 2025-06-28 (github.com/alexei-led/spotinfo internal/spot/data/spot-advisor-data.json@5eedf20a)"
spot = {(r["instance_type"], r["region"]): r["interruption_bucket"] for r in rows("aws_spot_interruption.csv")}
n_spot = 0
for o in offers:
    o.pop("spot_interruption", None); o.pop("spot_interruption_source", None)
    if o["provider"] == "aws" and o.get("spot_region"):
        b = spot.get((o["instance_type"], o["spot_region"]))
        if b:
            o["spot_interruption"] = b
            o["spot_interruption_source"] = SPOT_SRC
            n_spot += 1

# ---- Inter-node network per instance type.
n_net = 0
def fabric(r):
    t = r["network_type"]
    if "InfiniBand" in t:
        return "infiniband"
    if "RoCE" in t:
        return "roce"
    if r["provider"] == "aws":
        return "efa" if r["gpu_fabric_gbps"] or r["instance_type"] in ("p4de.24xlarge",) else ""
    if "TCPX" in t or "no GPU-to-GPU RDMA" in t:
        return "ethernet"
    return ""
net = {}
for r in rows("instance_networks.csv"):
    net[(r["provider"], r["instance_type"])] = r
# GCP family maxima apply to the largest machine of the family only.
gcp_max = {"a2-highgpu/megagpu/ultragpu (max)": ["a2-highgpu-8g", "a2-megagpu-16g", "a2-ultragpu-8g"],
           "g2-standard-* (max)": ["g2-standard-96"], "g4-standard-* (max)": ["g4-standard-384"]}
for k, its in gcp_max.items():
    r = net.get(("gcp", k))
    if r:
        for it in its:
            net[("gcp", it)] = r
# Only the clouds this file covers (and aws-cn, which aws_vantage.py fills): the
# other providers' figures come from networks.py.
net_providers = {p for p, _ in net} | {"aws-cn"}
for o in offers:
    if o["provider"] not in net_providers:
        continue
    o.pop("network_gbps", None); o.pop("network_fabric", None)
    r = net.get((o["provider"], o["instance_type"]))
    if r and r["gbps_per_node"]:
        o["network_gbps"] = float(r["gbps_per_node"])
        f = fabric(r)
        if f:
            o["network_fabric"] = f
        n_net += 1

json.dump(offers_doc, open("/tmp/offers_market.json", "w"))
print(f"gcp offers repriced: {n_gcp}; aws spot buckets: {n_spot}; network: {n_net}")

# ---- Hosted APIs: open-weight rows whose model maps to a catalog model, and
# the closed reference rows (ModelID "").
models = {m["id"] for m in json.load(open(f"{DATA}/models.json"))["models"]}
API_SRC = "BerriAI/litellm model_prices_and_context_window.json (main, 2026-07-24..08-01; copy github.com/Prajwalsrinvas/token-tariff@77b87226)"
def norm(s):
    s = s.lower().split("/")[-1]
    s = re.sub(r"^(meta-llama-|meta-|accounts-fireworks-models-)", "", s)
    s = s.replace("_", "-").replace(":", "-")
    s = re.sub(r"-(instruct|chat|it|hf|fp8|turbo|v1-0|maas|preview)\b", "", s)
    s = re.sub(r"^llama-v(\d)p(\d)", r"llama-\1.\2", s)
    s = re.sub(r"^llama(\d)", r"llama-\1", s)
    s = s.replace("p", "p") 
    return s
out, seen = [], set()
for r in rows("hosted_api_prices.csv"):
    n = norm(r["model"])
    mid = ""
    for cand in [n, re.sub(r"-\d{4}$", "", n), n.replace("-instruct", "")]:
        if cand in models:
            mid = cand
            break
    if not mid and r["category"] == "open_weight_hosted":
        continue
    if (r["mode"] not in ("chat", "completion")) or not float(r["input_usd_per_mtok"] or 0) and not float(r["output_usd_per_mtok"] or 0):
        continue
    rid = (r["provider"] + "-" + r["model"].split("/")[-1]).lower()
    rid = re.sub(r"[^a-z0-9._-]", "-", rid)
    if rid in seen:
        continue
    seen.add(rid)
    out.append({"id": rid, "provider": r["provider"], "model": r["model"], "model_id": mid,
                "input_per_million": float(r["input_usd_per_mtok"]), "output_per_million": float(r["output_usd_per_mtok"] or 0),
                "currency": "USD", "as_of": r["as_of"], "source": API_SRC})
out.sort(key=lambda x: x["id"])
with open(f"{DATA}/hosted_apis.json", "w") as f:
    f.write('{\n  "comment": "Hosted model API list prices, USD per million tokens, base tier (no batch or cache discount). model_id names the catalog model served, empty for proprietary models kept as reference.",\n  "prices": [\n')
    f.write(",\n".join("    " + json.dumps(x, ensure_ascii=False) for x in out))
    f.write("\n  ]\n}\n")
print(f"hosted API rows: {len(out)} ({sum(1 for x in out if x['model_id'])} mapped)")

# ---- Azure: Microsoft retail pay-as-you-go and spot prices in EU regions
# (azure-pricing-radar snapshot 2026-08-22). The shipped Azure offers come
# from an undated 2024-25 SkyPilot fork; where the EU snapshot lists the same
# VM size, its cheapest EU region replaces them (prices, region, date).
AZ_SRC = "Azure Retail Prices API (Consumption, EU regions) via github.com/andy-diericks/azure-pricing-radar data/latest@cf741f25 (2026-08-22)"
offers_doc = json.load(open("/tmp/offers_market.json"))
offers = offers_doc["offers"]
def azkey(s):
    return re.sub(r"[^a-z0-9]", "", s.lower().replace("standard_", ""))
od, sp = {}, {}
for r in rows("azure_eu_gpu_payg.csv"):
    name = r["sku_name"].replace(" Low Priority", "").replace(" Spot", "")
    k, p = azkey(name), float(r["usd_per_hour"])
    if p <= 0:
        continue
    tgt = od if r["price_type"] == "on_demand" else sp if r["price_type"] == "spot" else None
    if tgt is not None and (k not in tgt or p < tgt[k][0]):
        tgt[k] = (p, r["region"])
n_az = 0
for o in offers:
    if o["provider"] != "azure":
        continue
    k = azkey(o["instance_type"])
    if k not in od:
        continue
    o["on_demand_per_hour"], o["regions"] = od[k][0], [od[k][1]]
    o.pop("spot_per_hour", None); o.pop("spot_region", None); o.pop("spot_above_on_demand", None)
    if k in sp and sp[k][0] <= od[k][0]:
        o["spot_per_hour"], o["spot_region"] = sp[k][0], sp[k][1]
    o["as_of"] = "2026-08-22"; o.pop("as_of_estimated", None)
    o["source"] = AZ_SRC
    o["notes"] = "cheapest of the EU regions in the snapshot (westeurope, northeurope, francecentral, swedencentral); Linux pay-as-you-go; spot is Azure Spot, low-priority left out"
    n_az += 1
have = {o["id"] for o in offers}
# VM sizes the old snapshot lacked: GPU count, vCPUs and memory from the
# Microsoft Learn size pages (ND H200 v5, ND MI300X v5: 8 GPUs, 96 vCPUs, 1850 GiB).
for it, gpu, k in [("Standard_ND96isr_H200_v5", "h200-sxm", "nd96isrh200v5"), ("Standard_ND96isr_MI300X_v5", "mi300x", "nd96isrmi300xv5")]:
    oid = "azure-" + it.lower()
    if oid in have or k not in od:
        continue
    o = {"id": oid, "provider": "azure", "instance_type": it, "gpu": gpu, "gpu_count": 8, "vcpus": 96, "ram_gib": 1850,
         "interconnect": "nvlink" if gpu.startswith("h") else "infinity-fabric", "on_demand_per_hour": od[k][0], "currency": "USD",
         "billing_granularity": "second", "regions": [od[k][1]], "as_of": "2026-08-22", "source": AZ_SRC,
         "notes": "size facts (8 GPUs, 96 vCPUs, 1850 GiB) from Microsoft Learn GPU-accelerated VM size pages; cheapest EU region"}
    if k in sp and sp[k][0] < od[k][0]:
        o["spot_per_hour"], o["spot_region"] = sp[k][0], sp[k][1]
    r = net.get(("azure", it))
    if r:
        o["network_gbps"], o["network_fabric"] = float(r["gbps_per_node"]), fabric(r)
    offers.append(o); n_az += 1
offers.sort(key=lambda o: o["id"])
json.dump(offers_doc, open("/tmp/offers_market.json", "w"))
print(f"azure offers from the EU snapshot: {n_az}")
