#!/usr/bin/env bash
# The fourth command for a lent GPU machine, from the repository root:
# moe_layer.py (one MoE layer's pieces under CUDA graphs) then
# moe_prefill.py (whole MoE models' prefill through HF transformers).
set -u
OUT="${OUT:-$PWD/device-out}"; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
D=estimator/testdata/calibration/device-finetune
nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem,power.draw,power.limit,driver_version --format=csv > "$OUT/nvidia-smi.txt" 2>&1
timeout -k 5 140 python3 -u $D/moe_layer.py --budget-s 110 --out "$OUT" > "$OUT/moe_layer.log" 2>&1
echo "moe_layer.py exit status $?" >> "$OUT/moe_layer.log"
timeout -k 5 200 python3 -u $D/moe_prefill.py --budget-s 150 --out "$OUT" > "$OUT/moe_prefill.log" 2>&1
echo "moe_prefill.py exit status $?" >> "$OUT/moe_prefill.log"
tail -c 3000 "$OUT/moe_layer.log"; tail -c 2500 "$OUT/moe_prefill.log"
