#!/usr/bin/env python3
"""Azure 1-year commitment rates and provider VAT bases (2026-11-23, second
market pass). Idempotent; run from the repository root:

    python3 catalog/internal/bootstrap/commitments.py
    go run ./cmd/rightsize catalog format && go generate ./catalog

* Azure: `extracts/azure_eu_gpu_savings_plan_1y.csv` holds, for every Linux
  NC/ND/NV/NG meter of the four EU regions, Microsoft's retail pay-as-you-go
  price and the 1-year Azure savings plan for compute price (the Retail Prices
  API's `savingsPlan[term == "1 Year"].retailPrice`, USD per hour), as
  azure-pricing-radar stored them in data/latest/vm-<region>.json at
  cf741f25 (2026-08-22 21:00 UTC, the same snapshot the Azure on-demand
  prices come from; its fetch_prices.py keeps only the 1-year term). An offer
  gets `reserved_1y_per_hour` only where the row's region and pay-as-you-go
  price are exactly the offer's, so the commitment rate belongs to the same
  meter as the on-demand price. Savings plans are an hourly-spend commitment,
  like the AWS Savings Plan rows of the 3-year column.
* VAT: Yandex Cloud's ruble prices include VAT; the SKU dump of 2026-03-09
  equals yandex-cloud/docs ru/_pricing/compute/rub-from-23-01-2026.md, whose
  rates are the 2025 ones scaled from 20% to 22% VAT (Russia's rate from
  2026-01-01), see ../../../../shared/data/extra_offers.md "Yandex Cloud".
"""
import csv, json, re, os

DATA = "catalog/data"
HERE = os.path.dirname(os.path.abspath(__file__))
AZ_SP_SRC = ("Azure Retail Prices API savingsPlan 1 Year (Linux, EU regions) via "
             "github.com/andy-diericks/azure-pricing-radar data/latest@cf741f25 (2026-08-22)")

def azkey(s):
    return re.sub(r"[^a-z0-9]", "", s.lower().replace("standard_", ""))

sp = {}
with open(os.path.join(HERE, "extracts", "azure_eu_gpu_savings_plan_1y.csv"), newline="") as f:
    for r in csv.DictReader(f):
        sp[(r["region"], azkey(r["sku_name"]), float(r["payg_usd_per_hour"]))] = float(r["savings_plan_1y_usd_per_hour"])

doc = json.load(open(f"{DATA}/offers.json"))
n = 0
for o in doc["offers"]:
    if o["provider"] != "azure" or not o.get("on_demand_per_hour") or not o.get("regions"):
        continue
    k = (o["regions"][0], azkey(o["instance_type"]), o["on_demand_per_hour"])
    if k not in sp:
        continue
    o["reserved_1y_per_hour"] = sp[k]
    note = "1-year: Azure savings plan for compute, same region and meter as the pay-as-you-go price (" + AZ_SP_SRC + ")"
    notes = o.get("notes", "")
    if "1-year: Azure savings plan" not in notes:
        o["notes"] = (notes + "; " if notes else "") + note
    n += 1
json.dump(doc, open(f"{DATA}/offers.json", "w"), indent=2, ensure_ascii=False)
print(f"azure offers with a 1-year savings-plan rate: {n}")

pdoc = json.load(open(f"{DATA}/providers.json"))
for p in pdoc["providers"]:
    if p["id"] == "yandex":
        p["prices_include_vat"] = True
        p["vat_rate"] = 0.22
        p["notes"] = ("prices include VAT (22% from 2026-01-01; the 2026-03-09 SKU rates equal yandex-cloud/docs "
                      "ru/_pricing/compute/rub-from-23-01-2026.md, the 20%-VAT rates scaled to 22%), rebuilt from per-GPU/vCPU/RAM SKU rates")
json.dump(pdoc, open(f"{DATA}/providers.json", "w"), indent=2, ensure_ascii=False)
print("yandex: prices_include_vat, vat_rate 0.22")
