#!/usr/bin/env bash
# The third command for a lent GPU machine, from the repository root:
# chunked.py (chunked-prefill attention over a cached prefix, and a
# whole-model prefill kept busy for 20 s), ended at 150 s.
set -u
OUT="${OUT:-$PWD/device-out}"; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
timeout -k 5 150 python3 -u estimator/testdata/calibration/device-finetune/chunked.py --budget-s 90 --out "$OUT" > "$OUT/chunked.log" 2>&1
echo "chunked.py exit status $?" >> "$OUT/chunked.log"
tail -c 5000 "$OUT/chunked.log"
