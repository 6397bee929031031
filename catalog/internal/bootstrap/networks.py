#!/usr/bin/env python3
"""Inter-node network for offers outside AWS, GCP and Azure (those come from
market.py and aws_vantage.py): extracts/instance_networks_more.csv, one row per
provider and instance type, with the provider's documented figure, the source
(URL or repo path@commit) and the day it was read.

* network_gbps: the instance's inter-node bandwidth in Gbit/s as the source states
  it; where the source lists a separate RDMA/InfiniBand fabric beside the VPC NIC
  (OCI cluster network), the fabric's total, as for AWS EFA and Azure InfiniBand.
  Empty where the source names the fabric but gives no figure: such rows are kept
  as a record and not applied (a named fabric alone lets the planner span
  instances at an assumed bandwidth).
* network_fabric: infiniband, roce, ethernet (a VPC network with no RDMA fabric
  named), or empty.

Every offer with that provider and instance type takes the row (an instance-type
property, like the AWS figures); its notes end with an "inter-node network: ..." clause naming the
source; prices, as_of and source are untouched. Brokers (Shadeform, Prime Intellect)
are not filled from the underlying cloud: neither documents that its instances join
that cloud's cluster fabric. Idempotent; run from the repository root after
market.py and aws_vantage.py:
  python3 catalog/internal/bootstrap/networks.py
then `rightsize catalog format` and `go generate ./catalog`.
"""
import csv, json, os, re

DATA = "catalog/data"
EXTRACT = os.path.join(os.path.dirname(__file__), "extracts", "instance_networks_more.csv")

rows = {}
with open(EXTRACT, newline="") as f:
    for r in csv.DictReader(f):
        key = (r["provider"], r["instance_type"])
        assert key not in rows, key
        assert r["network_gbps"] or r["network_fabric"], key
        assert r["network_fabric"] in ("", "infiniband", "roce", "ethernet"), key
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", r["read"]), key
        rows[key] = r

doc = json.load(open(f"{DATA}/offers.json"))
CLAUSE = re.compile(r"(; )?inter-node network: .*$")  # always the last clause
used, n_gbps, n_fabric, named_only = set(), 0, 0, set()
for o in doc["offers"]:
    r = rows.get((o["provider"], o["instance_type"]))
    notes = CLAUSE.sub("", o.get("notes", ""))
    if r is None:
        # Clear only what this script wrote before (its clause marks it).
        if notes != o.get("notes", ""):
            o.pop("network_gbps", None); o.pop("network_fabric", None)
            o["notes"] = notes
        continue
    used.add((o["provider"], o["instance_type"]))
    o.pop("network_gbps", None); o.pop("network_fabric", None)
    if not r["network_gbps"]:
        # A fabric named without a figure is recorded in the extract but not
        # applied: the planner treats a named fabric as a cluster network and
        # would plan across instances at the assumed bandwidth.
        o["notes"] = notes
        named_only.add(o["id"])
        continue
    if r["network_gbps"]:
        o["network_gbps"] = float(r["network_gbps"])
        n_gbps += 1
    if r["network_fabric"]:
        o["network_fabric"] = r["network_fabric"]
        n_fabric += 1
    what = (f'{float(r["network_gbps"]):g} Gbps' if r["network_gbps"] else "no figure given") + \
           (f' {r["network_fabric"]}' if r["network_fabric"] else "")
    clause = f'inter-node network: {what} ({r["note"]}; {r["source"]}, read {r["read"]})'
    o["notes"] = f"{notes}; {clause}" if notes else clause

unused = sorted(set(rows) - used)
json.dump(doc, open(f"{DATA}/offers.json", "w"), ensure_ascii=False)
print(f"offers with a figure: {n_gbps}; with a fabric: {n_fabric}; fabric named without a figure (not applied): {sorted(named_only)}; rows matching no offer: {unused}")
