#!/usr/bin/env bash
# The seventh command for a lent GPU machine, from the repository root:
# ft.py --set 3 (FSDP at world 2–8 on one GPU through the fake process
# group: a rank's memory as on W GPUs).
set -u
OUT="${OUT:-$PWD/device-out}"; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
D=estimator/testdata/calibration/device-finetune
timeout -k 5 280 python3 -u $D/ft.py --set 3 --budget-s 230 --out "$OUT" > "$OUT/ft3.log" 2>&1
echo "ft.py --set 3 exit status $?" >> "$OUT/ft3.log"
tail -c 9000 "$OUT/ft3.log"
