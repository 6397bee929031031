#!/usr/bin/env bash
# The ninth command for a lent GPU machine, from the repository root:
# ft.py --set 5 (LoRA under FSDP with bf16 adapters, accumulating, at 2 and 4
# ranks through the fake process group).
set -u
OUT="${OUT:-$PWD/device-out}"; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
D=estimator/testdata/calibration/device-finetune
timeout -k 5 200 python3 -u $D/ft.py --set 5 --budget-s 160 --out "$OUT" > "$OUT/ft5.log" 2>&1
echo "ft.py --set 5 exit status $?" >> "$OUT/ft5.log"
tail -c 4000 "$OUT/ft5.log"
