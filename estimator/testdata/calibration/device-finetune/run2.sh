#!/usr/bin/env bash
# The second command for a lent GPU machine, from the repository root: ft.py's
# second job set (optimizer implementation, mixed precision, dropout, longer
# sequences), budget 150 s, ended at 200 s, then prefill.py (whole-model
# prefill times), budget 70 s, ended at 100 s. Writes ft2.json, ft2.log,
# prefill.json and prefill.log to $OUT.
set -u
C=estimator/testdata/calibration
OUT="${OUT:-$PWD/device-out}"; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
timeout -k 5 200 python3 -u $C/device-finetune/ft.py --set 2 --budget-s 150 --out "$OUT" > "$OUT/ft2.log" 2>&1
echo "ft.py exit status $?" >> "$OUT/ft2.log"
tail -c 4000 "$OUT/ft2.log"
timeout -k 5 100 python3 -u $C/device-finetune/prefill.py --budget-s 70 --out "$OUT" > "$OUT/prefill.log" 2>&1
echo "prefill.py exit status $?" >> "$OUT/prefill.log"
tail -c 3000 "$OUT/prefill.log"
