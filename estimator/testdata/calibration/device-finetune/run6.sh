#!/usr/bin/env bash
# The sixth command for a lent GPU machine, from the repository root:
# moe_tp.py (expert GEMMs with the experts split by tensor parallelism).
set -u
OUT="${OUT:-$PWD/device-out}"; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
D=estimator/testdata/calibration/device-finetune
timeout -k 5 130 python3 -u $D/moe_tp.py --budget-s 100 --out "$OUT" > "$OUT/moe_tp.log" 2>&1
echo "moe_tp.py exit status $?" >> "$OUT/moe_tp.log"
tail -c 7000 "$OUT/moe_tp.log"
