#!/usr/bin/env bash
# The fifth command for a lent GPU machine, from the repository root:
# moe_layer.py --set 2 (decode-sized MoE steps piece by piece, the combine
# as a gather and a sum, and a dense MLP beside them).
set -u
OUT="${OUT:-$PWD/device-out}"; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
D=estimator/testdata/calibration/device-finetune
timeout -k 5 150 python3 -u $D/moe_layer.py --set 2 --budget-s 120 --out "$OUT" > "$OUT/moe_layer2.log" 2>&1
echo "moe_layer.py --set 2 exit status $?" >> "$OUT/moe_layer2.log"
tail -c 6000 "$OUT/moe_layer2.log"
