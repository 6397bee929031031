#!/usr/bin/env python3
"""Vendors the disaggregated serving points of SemiAnalysis InferenceX that
Rightsize replays (README.md, "Disaggregated serving"): reads the shared
extract's inferencex_dashboard_points.csv and writes
inferencex_disagg_points.csv with the columns the replay reads and a
deterministic fit/test/heldback split, fixed before any row was replayed.

    python3 vendor_disagg.py <dir of the shared extract> > inferencex_disagg_points.csv
"""
import csv, sys

from vendor import split  # the same split by configuration hash

SRC = sys.argv[1]
SIDE = ['tp', 'ep', 'dp_attention', 'num_workers']
COLS = (['split', 'source_commit', 'run_date', 'run_url', 'model', 'hardware', 'framework', 'image', 'precision', 'spec_decoding'] +
        ['prefill_' + c for c in SIDE] + ['gpus_per_prefill_worker'] + ['decode_' + c for c in SIDE] + ['gpus_per_decode_worker'] +
        ['isl', 'osl', 'conc', 'ttft_mean_ms', 'ttft_median_ms', 'tpot_mean_ms', 'tpot_median_ms', 'tput_per_gpu_output_tok_s'])


def gpus(v):
    return str(int(float(v))) if v else ''


w = csv.writer(sys.stdout, lineterminator='\n')
w.writerow(COLS)
for r in csv.DictReader(open(SRC + '/inferencex_dashboard_points.csv')):
    if r['disagg'] != 'true':
        continue
    pre = [r['prefill_' + c] for c in SIDE] + [gpus(r['gpus_per_prefill_worker_derived'])]
    dec = [r['decode_' + c] for c in SIDE] + [gpus(r['gpus_per_decode_worker_derived'])]
    key = '|'.join([r['hardware'], r['framework'], r['precision'], r['spec_decoding']] + pre + dec + [r['isl'], r['osl'], r['conc']])
    w.writerow([split(key), r['source_commit'], r['run_date'], r['run_url'], r['model'], r['hardware'], r['framework'], r['image'],
                r['precision'], r['spec_decoding']] + pre + dec +
               [r[c] for c in ['isl', 'osl', 'conc', 'ttft_mean_ms', 'ttft_median_ms', 'tpot_mean_ms', 'tpot_median_ms', 'tput_per_gpu_output_tok_s']])
