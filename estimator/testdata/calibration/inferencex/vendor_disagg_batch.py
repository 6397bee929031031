#!/usr/bin/env python3
"""Vendor inferencex_disagg_decode_batch.csv: the decode workers' max_batch_size
of InferenceX's disaggregated TensorRT-LLM (dynamo-trt) search-space entries.

Source: SemiAnalysisAI/InferenceX `.github/configs/nvidia-master.yaml`, every
version from 2025-11-01 to 2026-07-01 (the last of each day). Each dynamo-trt
search-space entry names its recipe: either `CONFIG_FILE=recipes/trtllm/...
ctxP_genD_{dep,tep,tp}G_batchB_...yaml` (NVIDIA srt-slurm recipes, whose
generation worker sets `max_batch_size: B`, per attention-DP rank with DP), or,
in the 2025 entries, `DECODE_MAX_BATCH_SIZE=B` in the decode side's settings.
An entry is keyed by GPU, precision, lengths, MTP, concurrency and both
sides' layouts; a row of inferencex_disagg_points.csv takes the batch of the
last config version on or before its run date (no key's batch ever changed).

Usage: vendor_disagg_batch.py INFERENCEX_GIT_DIR > inferencex_disagg_decode_batch.csv
"""
import csv, re, subprocess, sys, os
import yaml

CFG = '.github/configs/nvidia-master.yaml'
HERE = os.path.dirname(os.path.abspath(__file__))


def entries(repo):
    log = subprocess.run(['git', '-C', repo, 'log', '--all', '--format=%H %cs', '--', CFG],
                         capture_output=True, text=True, check=True).stdout.split('\n')
    byday = {}
    for line in log:
        if line:
            h, d = line.split()
            if '2025-11-01' <= d <= '2026-07-01' and d not in byday:
                byday[d] = h  # newest first: the day's last version
    for d in sorted(byday):
        text = subprocess.run(['git', '-C', repo, 'show', byday[d] + ':' + CFG], capture_output=True, text=True).stdout
        try:
            y = yaml.safe_load(text) or {}
        except yaml.YAMLError:
            continue
        for name, e in y.items():
            if not isinstance(e, dict) or e.get('framework') != 'dynamo-trt':
                continue
            for s in e.get('seq-len-configs', []):
                for ss in s.get('search-space', []):
                    p, dd = ss.get('prefill', {}), ss.get('decode', {})
                    dm = [str(a) for a in (dd.get('additional-settings') or []) if str(a).startswith('DECODE_MAX_BATCH_SIZE=')]
                    cf = [str(a) for side in (p, dd) for a in (side.get('additional-settings') or []) if 'CONFIG_FILE=' in str(a)]
                    if dm:
                        recipe, batch = dm[0], int(dm[0].split('=')[1])
                    elif cf and (m := re.search(r'gen\d+_(?:dep|tep|tp)\d+_batch(\d+)', cf[0])):
                        recipe, batch = cf[0].split('=', 1)[1], int(m.group(1))
                    else:
                        continue
                    for c in ss.get('conc-list') or []:
                        yield dict(day=d, commit=byday[d], hardware=name.split('-')[2], precision=e.get('precision'),
                                   isl=int(s['isl']), osl=int(s['osl']), spec=ss.get('spec-decoding', 'none'), conc=int(c),
                                   p=(p.get('num-worker'), p.get('tp'), p.get('ep'), bool(p.get('dp-attn'))),
                                   d=(dd.get('num-worker'), dd.get('tp'), dd.get('ep'), bool(dd.get('dp-attn'))),
                                   recipe=recipe, batch=batch)


def main():
    idx = {}
    for e in entries(sys.argv[1]):
        k = (e['hardware'], e['precision'], e['isl'], e['osl'], e['spec'], e['conc'], e['p'], e['d'])
        idx.setdefault(k, []).append(e)
    rows = list(csv.DictReader(open(os.path.join(HERE, 'inferencex_disagg_points.csv'))))
    tf = lambda v: v.lower() == 'true'
    out = {}
    for r in rows:
        if r['framework'] != 'dynamo-trt' or not r['gpus_per_prefill_worker'] or not r['gpus_per_decode_worker']:
            continue
        k = (r['hardware'], r['precision'], int(r['isl']), int(r['osl']), r['spec_decoding'], int(r['conc']),
             (int(r['prefill_num_workers']), int(r['gpus_per_prefill_worker']), int(r['prefill_ep'] or 1), tf(r['prefill_dp_attention'])),
             (int(r['decode_num_workers']), int(r['gpus_per_decode_worker']), int(r['decode_ep'] or 1), tf(r['decode_dp_attention'])))
        es = [e for e in idx.get(k, []) if e['day'] <= r['run_date']]
        if not es:
            continue
        if len({e['batch'] for e in es}) > 1:
            sys.exit('batch changed over time for %r' % (k,))
        first = min(es, key=lambda e: e['day'])
        key = (r['hardware'], r['precision'], r['isl'], r['osl'], r['spec_decoding'], r['conc'], r['prefill_num_workers'],
               r['gpus_per_prefill_worker'], r['prefill_ep'], r['prefill_dp_attention'].lower(), r['decode_num_workers'],
               r['gpus_per_decode_worker'], r['decode_ep'], r['decode_dp_attention'].lower())
        out[key] = (first['batch'], first['recipe'], first['commit'], first['day'])
    w = csv.writer(sys.stdout, lineterminator='\n')
    w.writerow(['hardware', 'precision', 'isl', 'osl', 'spec_decoding', 'conc', 'prefill_num_workers', 'gpus_per_prefill_worker',
                'prefill_ep', 'prefill_dp_attention', 'decode_num_workers', 'gpus_per_decode_worker', 'decode_ep',
                'decode_dp_attention', 'decode_max_batch', 'recipe', 'config_commit', 'config_date'])
    for k in sorted(out):
        w.writerow(list(k) + list(out[k]))


if __name__ == '__main__':
    main()
