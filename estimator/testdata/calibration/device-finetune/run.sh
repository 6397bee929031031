#!/usr/bin/env bash
# One command for a lent GPU machine, from the repository root: the kernel
# timings of ../device-kernels (budget 270 s, ended at 330 s) and then the
# fine-tune memory jobs of ft.py (budget 110 s, ended at 160 s), inside a
# 600 s command. Writes to $OUT: nvidia-smi.txt, kernels.json, kernels.log,
# check.txt, ft.json, ft.log.
set -u
C=estimator/testdata/calibration
OUT="${OUT:-$PWD/device-out}"; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
{ date -u +%Y-%m-%dT%H:%M:%SZ; nvidia-smi; nvidia-smi -q -d CLOCK,PERFORMANCE,POWER; } > "$OUT/nvidia-smi.txt" 2>&1
timeout -k 10 330 python3 -u $C/device-kernels/kernels.py --budget-s 270 --out "$OUT" > "$OUT/kernels.log" 2>&1
echo "kernels.py exit status $?" >> "$OUT/kernels.log"
[ -f "$OUT/kernels.json" ] && python3 $C/device-kernels/kernels.py --check "$OUT/kernels.json" > "$OUT/check.txt" 2>&1
tail -n 4 "$OUT/check.txt" 2>/dev/null
timeout -k 5 160 python3 -u $C/device-finetune/ft.py --budget-s 110 --out "$OUT" > "$OUT/ft.log" 2>&1
echo "ft.py exit status $?" >> "$OUT/ft.log"
tail -c 3000 "$OUT/ft.log"
