#!/usr/bin/env bash
# The one command for a lent GPU machine, from the repository root, no arguments:
#   bash estimator/testdata/calibration/device-kernels/run.sh
# Writes kernels.json, kernels.log and nvidia-smi.txt to $OUT (./device-kernels-out
# when OUT is unset). The script stops starting points at 420 s; the outer
# timeout ends it at 540 s whatever happens, inside a 600 s command.
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${OUT:-$PWD/device-kernels-out}"
mkdir -p "$OUT"
export OUT
PY="$(command -v python3 || command -v python)"
{
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvidia-smi || echo "nvidia-smi unavailable"
  nvidia-smi -q -d CLOCK,PERFORMANCE,POWER || true
} > "$OUT/nvidia-smi.txt" 2>&1
"$PY" -m py_compile "$HERE/kernels.py" || { echo "kernels.py does not compile"; exit 2; }
timeout -k 10 540 "$PY" -u "$HERE/kernels.py" --budget-s 420 --out "$OUT" 2>&1 | tee "$OUT/kernels.log"
rc=${PIPESTATUS[0]}
echo "kernels.py exit status $rc" | tee -a "$OUT/kernels.log"
if [ -f "$OUT/kernels.json" ]; then
  "$PY" "$HERE/kernels.py" --check "$OUT/kernels.json" > "$OUT/check.txt" 2>&1
  # The script prints its own summary when it ends by itself; after a timeout
  # only the check's copy of it exists.
  if [ "$rc" -eq 0 ]; then tail -n 3 "$OUT/check.txt"; else cat "$OUT/check.txt"; fi
else
  echo "no kernels.json in $OUT"
fi
exit "$rc"
