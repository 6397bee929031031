#!/usr/bin/env bash
# The eighth command for a lent GPU machine, from the repository root:
# ft.py --set 4 (FSDP accumulation without the gradient sync, at 4 and 8
# ranks through the fake process group).
set -u
OUT="${OUT:-$PWD/device-out}"; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
D=estimator/testdata/calibration/device-finetune
timeout -k 5 200 python3 -u $D/ft.py --set 4 --budget-s 160 --out "$OUT" > "$OUT/ft4.log" 2>&1
echo "ft.py --set 4 exit status $?" >> "$OUT/ft4.log"
tail -c 4000 "$OUT/ft4.log"
