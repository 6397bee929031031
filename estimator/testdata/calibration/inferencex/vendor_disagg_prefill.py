#!/usr/bin/env python3
"""Vendor inferencex_disagg_prefill.csv: the PREFILL workers' scheduling settings
of the recipe that ran each row of inferencex_disagg_points.csv, and, in the
`decode_*` columns after `config_date`, the DECODE workers' settings of the
same recipe (step 4; they take no part in the matching).

Sources (local git mirrors, read with `git show`; nothing is fetched):
  - SemiAnalysisAI/InferenceX: `.github/configs/nvidia-master.yaml` and
    `.github/configs/amd-master.yaml`, every version (all branches) from
    2025-11-01 to 2026-07-01; at the matched version also the runners
    (`runners/launch_*.sh`), the AMD benchmark scripts and launcher
    (`benchmarks/[multi_node/]dsr1_*_mi355x_sglang-disagg.sh`,
    `benchmarks/multi_node/amd_utils/{models.yaml,env.sh,submit.sh,server.sh,
    server_sglang.sh}`) and the recipe overlay
    `benchmarks/multi_node/srt-slurm-recipes/`.
  - NVIDIA/srt-slurm: the `recipes/...` file an entry names with
    `CONFIG_FILE=recipes/<path>[:<selector>]`.
  - billishyahao/sglang_disagg: `sglang_disagg_server.sh` (AMD, January 2026).

Method
  1. Match. A row's layout is GPU, precision, lengths, MTP and both sides'
     (workers, tp, ep, dp-attn) exactly as the config's search-space entry
     states them (the points' `*_tp` / `*_ep` are the entry's). It takes the
     entries of that layout on the last day, on or before its run date, that
     has one listing its concurrency; where none lists it (the recipes of
     the H200 / B300 / 2025 GB200 TensorRT-LLM entries run concurrencies of
     their own, e.g. 3584 for conc-list [512]), the last day's entries of the
     layout whose recipe's `benchmark.concurrencies` hold it (or all of them
     where they agree). A recipe stating `resources.prefill_workers` /
     `decode_workers` must agree with the row. Several versions of one day
     must agree on the values, else the mainline (first-parent HEAD) one is
     taken, else the row is left out.
  2. Recipe, by what the entry names:
     - `CONFIG_FILE=recipes/P[:S]` (dynamo-sglang, dynamo-trt; 2026): the
       InferenceX overlay `benchmarks/multi_node/srt-slurm-recipes/P'` where
       the commit carries it and a runner copies that folder (B200 FP4
       SGLang, 2026-06-11, InferenceX 263aace86); otherwise NVIDIA/srt-slurm
       at the branch the runners cloned:
       * runs before 2026-04-19: ishandhanani/srt-slurm `sa-submission-q1-2026`
         (every NVIDIA runner from 2026-01-28; InferenceX 2e9cecf91 moved them
         to NVIDIA/srt-slurm `sa-submission-q2-2026` on 2026-04-19). The
         branch is not in the mirror; NVIDIA/srt-slurm squash-merged it into
         main twice, 5063eb43 (2026-03-03, #202) and 4a22a181 (2026-03-25,
         #228), and main took the branch's pull requests until 2026-02-07.
         Read: main's (first parent) last commit on or before the run date
         that has the file, for runs before 2026-03-03; else the last squash
         on or before the run date that has it; else the first later squash
         that has it (stderr names these, e.g. the B200 SGLang recipes of
         2026-02-07..13 exist only in 5063eb43). Where the later squash
         disagrees on a prefill value, stderr says so (the earlier is kept).
       * runs from 2026-04-19: `sa-submission-q2-2026`, else main, last commit
         on or before the run date.
       Files with `base:` and `override_*` / `zip_override_*` sections (B200
       SGLang from 2026-03-04) are expanded as srtctl does
       (src/srtctl/core/config.py: deep merge of base and the selected
       variant; a zip section's lists give variant i's value, length-1 lists
       broadcast).
     - `PREFILL_MAX_NUM_TOKENS=` / `PREFILL_MAX_BATCH_SIZE=` (dynamo-trt GB200,
       2025): the config itself, with tp and dp-attn of the entry (passed as
       arguments to ai-dynamo/dynamo's performance_sweeps); the prefill
       memory fraction was set inside ai-dynamo/dynamo (not mirrored): empty.
     - dynamo-sglang GB200 of 2025 (`SCRIPT_MODE=` or none): ai-dynamo/dynamo's
       slurm_jobs scripts, not mirrored: left out.
     - AMD `sglang-disagg` (the points' mori-sglang), the launcher at the
       matched config version:
       * InferenceX `amd_utils` (from 2026-02-19): `models.yaml` entry named
         by MODEL_NAME (the benchmark script's or runner's literal, else the
         basename of the config's `model`), prefill `dp` / `no_dp` block by
         the entry's dp-attn; `chunked_prefill_size` formulas evaluated with
         submit.sh's PREFILL_TP_SIZE (PREFILL_NODES x tp / workers, or
         x GPUS_PER_NODE=8) and env.sh's MORI_MAX_DISPATCH_TOKENS_PREFILL
         (its `if [[ "$MODEL_NAME" == *mxfp4* ]]` tests evaluated as bash
         does, case-sensitively); `max_total_tokens` where the server script
         passes it; server_sglang.sh's DP+EP override (max-running-requests =
         the entry's largest concurrency) where the script has it.
       * before: the cloned billishyahao/sglang_disagg `sglang_disagg_server.sh`
         (branch `sa-260107`, last commit on or before the run date; flags
         composed as the script does: base, DP, prefill; the last wins).
         Clones the mirror lacks (cquil11 `cam/sa-260114`, `sa-260203`,
         `sa-260211`, commits 21c60a1, 953f7c5, 14606ff; `main` after the
         mirror's newest commit, 2026-01-11) are left out.
  3. Extracted (prefill side; empty where the recipe does not set it):
     SGLang `chunked-prefill-size`, `max-prefill-tokens`,
     `max-running-requests`, `dp-size` (`data-parallel-size`; 1 if unset),
     `enable-dp-attention`, `mem-fraction-static`, `max-total-tokens`;
     TensorRT-LLM `max_num_tokens`, `max_batch_size` (both per attention-DP
     rank), `enable_attention_dp` (-> enable_dp_attention), dp_size = the
     context worker's `tensor_parallel_size` with attention DP, else 1, and
     `kv_cache_config.free_gpu_memory_fraction`. stderr notes where the
     recipe's tp or attention DP differs from the row's.
  4. Decode side, from the same recipe (the one the matched version names;
     empty where it does not set a value):
     - SGLang (dynamo-sglang): the `sglang_config.decode` section of the
       expanded recipe (a zip variant's list already gives the selected
       variant's value, as srtctl does): `max-running-requests` (global, all
       DP ranks), `chunked-prefill-size`, `dp-size` (`data-parallel-size`; 1
       if unset), `mem-fraction-static`, `max-total-tokens`,
       `cuda-graph-max-bs` (else the largest of a `cuda-graph-bs` list),
       `enable-dp-attention` (-> decode_enable_attention_dp). A list still
       left after expansion takes the item of `benchmark.concurrencies` that
       runs the row's concurrency (one value per item), else is left empty
       (stderr).
     - TensorRT-LLM (dynamo-trt): the `trtllm_config.decode` (generation)
       worker's `max_batch_size`, `max_num_tokens` (per attention-DP rank),
       `kv_cache_config.free_gpu_memory_fraction`, `kv_cache_config.dtype`,
       `enable_attention_dp`. The 2025 GB200 entries: the decode side's
       `DECODE_MAX_BATCH_SIZE`, `DECODE_MAX_NUM_TOKENS`,
       `DECODE_GPU_MEM_FRACTION` and the entry's decode dp-attn; the KV dtype
       was set inside ai-dynamo/dynamo: empty.
     - AMD in-tree launcher: server_sglang.sh's (else server.sh's) decode
       flags at the matched config version: the models.yaml `decode` block of
       its 3-way choice (DP attention > EP only > neither) with the script's
       defaults, DECODE_TP_SIZE from submit.sh (DECODE_NODES x tp / workers),
       max-running-requests = the block's value, or cuda_graph_bs_range's end
       x DECODE_TP_SIZE where the DP branch says so, or the entry's largest
       concurrency where the script has the DP+EP override;
       `--chunked-prefill-size` only where DECODE_MODE_FLAGS passes it (its
       formula evaluated with env.sh's MORI_MAX_DISPATCH_TOKENS_DECODE);
       cuda-graph max = the range's end; dp-size = DECODE_TP_SIZE with DP.
     - billishyahao/sglang_disagg: the decode flags composed as the script
       does (base, DP, decode; the last wins), DECODE_TP_SIZE = 8 x
       DECODE_NODES / workers.
     - Both sides' expert exchange and the decode side's MTP drafts (2026-12-02):
       SGLang `moe-a2a-backend` ('none' where unset, SGLang's default) and
       `ep-size` (1 where unset) of each section -> prefill_/decode_moe_a2a_backend,
       prefill_/decode_ep_size; decode_draft_tokens = SGLang
       `speculative-num-steps` where `speculative-algorithm` is set, TensorRT-LLM
       `speculative_config.num_nextn_predict_layers`, else 0. Empty for the AMD
       launchers and the 2025 GB200 TensorRT-LLM entries.
     stderr notes decode values that differ between the candidate versions
     that agree on the prefill side (the chosen one is kept), between the
     q1 squashes, and a recipe's decode tp or attention DP unlike the row's.

Output: one line per distinct (row key, framework, run date); `recipe` is
repo:path[:selector]@commit, `config_commit` / `config_date` the config version
that named it, then the decode columns. Unmatched rows are counted on stderr by
framework, GPU and reason.

Usage: vendor_disagg_prefill.py INFERENCEX_GIT_DIR SRT_SLURM_GIT_DIR [SGLANG_DISAGG_GIT_DIR] \
           > inferencex_disagg_prefill.csv
"""
import collections, copy, csv, fnmatch, os, re, shlex, subprocess, sys
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
CFGS = ['.github/configs/nvidia-master.yaml', '.github/configs/amd-master.yaml']
FRAMEWORKS = {'dynamo-sglang': 'dynamo-sglang', 'dynamo-trt': 'dynamo-trt', 'sglang-disagg': 'mori-sglang'}
# NVIDIA/srt-slurm squash merges of ishandhanani/srt-slurm sa-submission-q1-2026 into main
Q1_SQUASHES = [('2026-03-03', '5063eb432640574bd93410ae2697591a7d15f57c'),   # (#202)
               ('2026-03-25', '4a22a1816f8e1ca6bc41dfca0fbf709782a45fee')]   # (#228)
Q2_FROM = '2026-04-19'  # InferenceX 2e9cecf91 (#1000): NVIDIA runners clone NVIDIA/srt-slurm sa-submission-q2-2026
Q2_BRANCH = 'sa-submission-q2-2026'
KEY = ['hardware', 'precision', 'isl', 'osl', 'spec_decoding', 'conc', 'prefill_num_workers', 'gpus_per_prefill_worker',
       'prefill_ep', 'prefill_dp_attention', 'decode_num_workers', 'gpus_per_decode_worker', 'decode_ep', 'decode_dp_attention']
VALS = ['chunked_prefill_size', 'max_prefill_tokens', 'max_running_requests', 'dp_size', 'enable_dp_attention',
        'mem_fraction_static', 'max_total_tokens', 'max_num_tokens', 'max_batch_size', 'free_gpu_memory_fraction']
# decode side (appended after config_date); they never take part in matching
DVALS = ['decode_max_running_requests', 'decode_chunked_prefill_size', 'decode_dp_size', 'decode_mem_fraction_static',
         'decode_max_total_tokens', 'decode_cuda_graph_max_bs', 'decode_max_batch_size', 'decode_max_num_tokens',
         'decode_free_gpu_memory_fraction', 'decode_kv_dtype', 'decode_enable_attention_dp',
         'prefill_moe_a2a_backend', 'prefill_ep_size', 'decode_moe_a2a_backend', 'decode_ep_size', 'decode_draft_tokens']
Loader = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)


class Unmatched(Exception):
    pass


def git(repo, *args, check=True):
    p = subprocess.run(['git', '-C', repo] + list(args), capture_output=True, text=True)
    if check and p.returncode:
        raise RuntimeError('git %s: %s' % (' '.join(args), p.stderr))
    return p.stdout if p.returncode == 0 else None


_show = {}


def show(repo, rev, path):
    k = (repo, rev, path)
    if k not in _show:
        _show[k] = git(repo, 'show', '%s:%s' % (rev, path), check=False)
    return _show[k]


def ls(repo, rev, prefix):
    return (git(repo, 'ls-tree', '-r', '--name-only', rev, '--', prefix, check=False) or '').split()


def history(repo, ref, first_parent=True):
    """[(date, commit)] of ref, oldest first (committer dates and times)."""
    args = ['log', '--format=%ct %cs %H'] + (['--first-parent'] if first_parent else []) + [ref]
    return [(d, c) for t, d, c in sorted((tuple(l.split()) for l in git(repo, *args).splitlines()), key=lambda x: int(x[0]))]


def last_on_or_before(hist, day, repo=None, path=None):
    """Last commit of hist dated on or before day (that has path, if given)."""
    for d, c in reversed(hist):
        if d <= day and (path is None or show(repo, c, path) is not None):
            return c
    return None


# ---------------------------------------------------------------- config entries

def cat_batch(repo, names):
    """Contents of blob names (sha or rev:path) via one `git cat-file --batch`."""
    p = subprocess.run(['git', '-C', repo, 'cat-file', '--batch'], input=''.join(n + '\n' for n in names).encode(),
                       capture_output=True, check=True)
    out, buf, i = [], p.stdout, 0
    for _ in names:
        j = buf.index(b'\n', i)
        head = buf[i:j].split()
        if len(head) < 3 or head[1] != b'blob':
            out.append((None, None))
            i = j + 1
            continue
        n = int(head[2])
        out.append((head[0].decode(), buf[j + 1:j + 1 + n].decode()))
        i = j + 1 + n + 1
    return out


_blocks = {}


def top_blocks(text):
    """(name, entry) of a config file, each top-level block parsed once over all versions
    (the files use no anchors, so blocks parse independently)."""
    block, out = [], []
    for line in text.splitlines(True) + ['~end:\n']:
        if line[:1] not in ' \t#\n' and block:
            b = ''.join(block)
            if b not in _blocks:
                _blocks[b] = None
                if b.startswith('dsr1-') and ('dynamo-' in b or 'sglang-disagg' in b):
                    try:
                        y = yaml.load(b, Loader=Loader)
                        if isinstance(y, dict) and len(y) == 1 and isinstance(list(y.values())[0], dict):
                            _blocks[b] = list(y.items())[0]
                    except yaml.YAMLError:
                        pass
            if _blocks[b]:
                out.append(_blocks[b])
            block = []
        block.append(line)
    return out


def config_entries(ix, want):
    """Search-space entries of every config version in the window whose layout is in want:
    yields (layout key, entry) with entry['versions'] = [(day, time, commit)], one entry per distinct
    (layout, name, model, conc-list, settings)."""
    merged = {}
    for cfg in CFGS:
        log = [l.split() for l in git(ix, 'log', '--all', '--format=%H %cs %ct', '--', cfg).splitlines()]
        log = [(c, d, int(t)) for c, d, t in log if '2025-11-01' <= d <= '2026-07-01']
        byblob = collections.defaultdict(list)
        heads = subprocess.run(['git', '-C', ix, 'cat-file', '--batch-check'], capture_output=True, check=True,
                               input=''.join('%s:%s\n' % (c, cfg) for c, d, t in log).encode()).stdout.decode().splitlines()
        for (c, d, t), h in zip(log, heads):
            if h.split()[1:2] == ['blob']:
                byblob[h.split()[0]].append((d, t, c))
        blobs = sorted(byblob)
        for blob, (_, text) in zip(blobs, cat_batch(ix, blobs)):
            for name, e in top_blocks(text or ''):
                if e.get('framework') not in FRAMEWORKS or e.get('model-prefix') != 'dsr1':
                    continue
                seqs = e.get('seq-len-configs') or (e.get('scenarios') or {}).get('fixed-seq-len') or []
                for s in seqs:
                    for ss in s.get('search-space') or []:
                        p, dd = ss.get('prefill') or {}, ss.get('decode') or {}
                        side = lambda x: (x.get('num-worker'), x.get('tp'), x.get('ep'), bool(x.get('dp-attn')))
                        lk = (FRAMEWORKS[e['framework']], name.split('-')[2], e.get('precision'), int(s['isl']), int(s['osl']),
                              ss.get('spec-decoding') or 'none', side(p), side(dd))
                        if lk not in want:
                            continue
                        ent = dict(versions=[], name=name, model=e.get('model', ''),
                                   framework=lk[0], precision=lk[2], concs=[int(c) for c in ss.get('conc-list') or []],
                                   p=lk[6], d=lk[7], pset=[str(a) for a in p.get('additional-settings') or []],
                                   dset=[str(a) for a in dd.get('additional-settings') or []])
                        mk = (lk, name, ent['model'], tuple(ent['concs']), tuple(ent['pset']), tuple(ent['dset']))
                        merged.setdefault(mk, ent)['versions'].extend(byblob[blob])
    for mk in sorted(merged, key=repr):
        merged[mk]['versions'] = sorted(set(merged[mk]['versions']))
        yield mk[0], merged[mk]


def setting(e, name):
    for a in e['pset'] + e['dset']:
        if a.startswith(name + '='):
            return a.split('=', 1)[1]
    return None


# ---------------------------------------------------------------- srt-slurm recipes

def deep_merge(base, over):
    out = copy.deepcopy(base)
    for k, v in over.items():
        if v is None:
            out.pop(k, None)
        elif isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def zip_slice(d, i):
    return {k: (v[0 if len(v) == 1 else i] if isinstance(v, list) else zip_slice(v, i) if isinstance(v, dict) else v)
            for k, v in d.items()}


def expand(raw, selector):
    """The one config a selector picks from a recipe file (srtctl generate_override_configs)."""
    if 'base' not in raw:
        if selector:
            raise Unmatched('selector %s on a single-variant recipe' % selector)
        return raw
    if not selector:
        raise Unmatched('multi-variant recipe without a selector')
    if selector == 'base':
        return raw['base']
    m = re.fullmatch(r'(zip_override_[\w-]+)\[(\d+)\]', selector)
    if m:
        z = raw.get(m.group(1))
        if z is None:
            raise Unmatched('recipe lacks %s' % m.group(1))
        return deep_merge(raw['base'], zip_slice(z, int(m.group(2))))
    if selector.startswith('override_') and selector in raw:
        return deep_merge(raw['base'], raw[selector])
    raise Unmatched('unsupported selector %s' % selector)


def norm(d):
    return {str(k).replace('_', '-'): v for k, v in (d or {}).items()}


def sglang_values(cfg):
    sg = norm(cfg)
    dp = sg.get('dp-size', sg.get('data-parallel-size'))
    return dict(chunked_prefill_size=sg.get('chunked-prefill-size'), max_prefill_tokens=sg.get('max-prefill-tokens'),
                max_running_requests=sg.get('max-running-requests'), dp_size=dp if dp is not None else 1,
                enable_dp_attention=bool(sg.get('enable-dp-attention', False)),
                mem_fraction_static=sg.get('mem-fraction-static'), max_total_tokens=sg.get('max-total-tokens'),
                prefill_moe_a2a_backend=sg.get('moe-a2a-backend', 'none'), prefill_ep_size=sg.get('ep-size', sg.get('expert-parallel-size', 1)),
                _tp=sg.get('tp-size', sg.get('tensor-parallel-size')))


def trt_values(cfg):
    tp, adp = cfg.get('tensor_parallel_size'), bool(cfg.get('enable_attention_dp', False))
    return dict(max_num_tokens=cfg.get('max_num_tokens'), max_batch_size=cfg.get('max_batch_size'),
                enable_dp_attention=adp, dp_size=(tp if adp else 1) if tp is not None else None,
                free_gpu_memory_fraction=(cfg.get('kv_cache_config') or {}).get('free_gpu_memory_fraction'), _tp=tp)


def graph_max(v):
    """cuda-graph-bs: a list (or a space/comma separated string) of batch sizes -> the largest."""
    if v is None:
        return None
    items = v if isinstance(v, list) else re.split(r'[\s,]+', str(v).strip())
    nums = [int(x) for x in items if str(x).strip().isdigit()]
    return max(nums) if nums else None


def sglang_decode_values(cfg):
    sg = norm(cfg)
    dp = sg.get('dp-size', sg.get('data-parallel-size'))
    gmax = sg.get('cuda-graph-max-bs')
    if gmax is None:
        gmax = graph_max(sg.get('cuda-graph-bs'))
    return dict(decode_max_running_requests=sg.get('max-running-requests'),
                decode_chunked_prefill_size=sg.get('chunked-prefill-size'), decode_dp_size=dp if dp is not None else 1,
                decode_mem_fraction_static=sg.get('mem-fraction-static'), decode_max_total_tokens=sg.get('max-total-tokens'),
                decode_cuda_graph_max_bs=gmax, decode_enable_attention_dp=bool(sg.get('enable-dp-attention', False)),
                decode_moe_a2a_backend=sg.get('moe-a2a-backend', 'none'), decode_ep_size=sg.get('ep-size', sg.get('expert-parallel-size', 1)),
                decode_draft_tokens=sg.get('speculative-num-steps', 0) if sg.get('speculative-algorithm') else 0,
                _dtp=sg.get('tp-size', sg.get('tensor-parallel-size')))


def trt_decode_values(cfg):
    kv = cfg.get('kv_cache_config') or {}
    return dict(decode_max_batch_size=cfg.get('max_batch_size'), decode_max_num_tokens=cfg.get('max_num_tokens'),
                decode_free_gpu_memory_fraction=kv.get('free_gpu_memory_fraction'), decode_kv_dtype=kv.get('dtype'),
                decode_enable_attention_dp=bool(cfg.get('enable_attention_dp', False)), _dtp=cfg.get('tensor_parallel_size'),
                decode_draft_tokens=(cfg.get('speculative_config') or {}).get('num_nextn_predict_layers', 0))


def conc_items(c):
    """benchmark.concurrencies as its ordered items, each the set of concurrencies it runs."""
    if c is None:
        return None
    items = c if isinstance(c, list) else [c]
    return [{int(x) for x in re.split(r'[x,\s]+', str(i)) if x.strip().isdigit()} for i in items]


def concs_of(c):
    if c is None:
        return None
    items = c if isinstance(c, list) else [c]
    return {int(x) for i in items for x in re.split(r'[x,\s]+', str(i)) if x.strip().isdigit()}


def recipe_values(text, selector):
    cfg = expand(yaml.load(text, Loader=Loader), selector)
    be = cfg.get('backend') or {}
    if (be.get('sglang_config') or {}).get('prefill') is not None:
        v = sglang_values(be['sglang_config']['prefill'])
        dec, extract = (be['sglang_config'].get('decode'), sglang_decode_values)
    elif (be.get('trtllm_config') or {}).get('prefill') is not None:
        v = trt_values(be['trtllm_config']['prefill'])
        dec, extract = (be['trtllm_config'].get('decode'), trt_decode_values)
    else:
        raise Unmatched('recipe has no prefill section')
    if isinstance(dec, dict):
        v.update(extract(dec))
    else:
        v['_dnote'] = 'recipe has no decode section'
    res = cfg.get('resources') or {}
    v['_workers'] = (res.get('prefill_workers'), res.get('decode_workers'))
    v['_concs'] = concs_of((cfg.get('benchmark') or {}).get('concurrencies'))
    v['_conc_items'] = conc_items((cfg.get('benchmark') or {}).get('concurrencies'))
    return v


class Srt:
    def __init__(self, ix, srt):
        self.ix, self.srt = ix, srt
        self.main = history(srt, 'main')
        self.q2 = history(srt, Q2_BRANCH) if git(srt, 'rev-parse', '--verify', '-q', Q2_BRANCH, check=False) else []

    def overlay(self, commit, path):
        rest = path.split('/', 1)[1]
        rel = 'benchmarks/multi_node/srt-slurm-recipes/' + rest
        text = show(self.ix, commit, rel)
        if text is None:
            return None
        folder = 'srt-slurm-recipes/' + '/'.join(rest.split('/')[:3])
        if not any(folder in (show(self.ix, commit, f) or '') for f in ls(self.ix, commit, 'runners/')):
            return None
        return text, 'SemiAnalysisAI/InferenceX:%s@%s' % (rel, commit)

    def resolve(self, e, commit, day, notes):
        spec = setting(e, 'CONFIG_FILE')
        path, _, selector = spec.partition(':')
        sel = selector or None
        ov = self.overlay(commit, path)
        if ov:
            return recipe_values(ov[0], sel), ov[1] + (':' + selector if selector else '')
        tag = lambda c: 'NVIDIA/srt-slurm:%s%s@%s' % (path, ':' + selector if selector else '', c)
        if day >= Q2_FROM:
            c = last_on_or_before(self.q2, day, self.srt, path) or last_on_or_before(self.main, day, self.srt, path)
            if not c:
                raise Unmatched('recipe %s not in srt-slurm on or before the run date' % path)
            return recipe_values(show(self.srt, c, path), sel), tag(c)
        # sa-submission-q1-2026: main until the first squash, then the squashes
        snaps = []
        if day < Q1_SQUASHES[0][0]:
            c = last_on_or_before(self.main, day, self.srt, path)
            if c:
                snaps.append((day, c))
        snaps += [(d, c) for d, c in Q1_SQUASHES if show(self.srt, c, path) is not None]
        before = [s for s in snaps if s[0] <= day]
        after = [s for s in snaps if s[0] > day]
        if not snaps:
            raise Unmatched('recipe %s not in srt-slurm main before the run date nor in a q1 squash' % path)
        chosen = before[-1] if before else after[0]
        v = recipe_values(show(self.srt, chosen[1], path), sel)
        if not before:
            notes.append('%s%s: run %s read from the later q1 squash %s (%s); no earlier version in the mirror'
                         % (path, ':' + selector if selector else '', day, chosen[1][:8], chosen[0]))
        if before and after:
            va = recipe_values(show(self.srt, after[0][1], path), sel)
            diff = {k: (v[k], va[k]) for k in VALS if v.get(k) != va.get(k)}
            if diff:
                notes.append('%s%s: %s (run %s) vs q1 squash %s differ, first kept: %s'
                             % (path, ':' + selector if selector else '', chosen[1][:8], day, after[0][1][:8], diff))
            ddiff = {k: (v.get(k), va.get(k)) for k in DVALS if v.get(k) != va.get(k)}
            if ddiff:
                notes.append('%s%s: %s (run %s) vs q1 squash %s differ on the decode side, first kept: %s'
                             % (path, ':' + selector if selector else '', chosen[1][:8], day, after[0][1][:8], ddiff))
        return v, tag(chosen[1])


# ---------------------------------------------------------------- AMD launcher

def flags(s):
    """--flag value pairs of a command line (bare flags -> True); the last wins."""
    out, toks, i = {}, shlex.split(s), 0
    while i < len(toks):
        t = toks[i]
        if t.startswith('--'):
            if i + 1 < len(toks) and not toks[i + 1].startswith('--'):
                out[t[2:]] = toks[i + 1]
                i += 1
            else:
                out[t[2:]] = True
        i += 1
    return out


def num(v):
    if v is None or isinstance(v, bool):
        return v
    try:
        f = float(v)
    except (TypeError, ValueError):
        return v
    return int(f) if f == int(f) and '.' not in str(v) else f


def shell_value(text, var, env):
    """The value a sourced shell script leaves in var: follows `export var=N` / `var=N` through
    if/elif/else/fi blocks whose tests compare a variable of env (== / != with a glob, -z / -n);
    a test on anything else that guards an assignment of var raises Unmatched."""
    val, stack = None, []  # stack: [taken_any, active, known]

    def test(cond):
        m = re.fullmatch(r'\[\[\s*"?\$\{?(\w+)\}?"?\s*(==|!=)\s*"?([^"\]]*?)"?\s*\]\]', cond.strip())
        if m and m.group(1) in env:
            r = fnmatch.fnmatchcase(str(env[m.group(1)]), m.group(3))
            return r if m.group(2) == '==' else not r
        m = re.fullmatch(r'\[\[\s*-(z|n)\s*"?\$\{?(\w+)\}?"?\s*\]\]', cond.strip())
        if m and m.group(2) in env:
            return (str(env[m.group(2)]) == '') == (m.group(1) == 'z')
        return None

    active = lambda: all(s[1] for s in stack)
    known = lambda: all(s[2] for s in stack)
    for line in text.splitlines():
        ln = line.split('#', 1)[0].strip() if not line.strip().startswith('#') else ''
        m = re.match(r'(if|elif)\s+(.*?);\s*then$', ln)
        if m:
            t = test(m.group(2))
            if m.group(1) == 'if':
                stack.append([bool(t), bool(t), t is not None])
            else:
                s = stack[-1]
                s[1] = (not s[0]) and bool(t)
                s[0] = s[0] or bool(t)
                s[2] = s[2] and t is not None
            continue
        if ln == 'else':
            s = stack[-1]
            s[1], s[0] = not s[0], True
            continue
        if ln == 'fi':
            stack.pop()
            continue
        m = re.match(r'(?:export\s+)?%s=\$?\(?\(?"?([^"\s]+?)"?\)?\)?$' % var, ln)
        if m:
            if not known():
                raise Unmatched('%s set under an unresolvable test' % var)
            if active():
                val = m.group(1)
    return val


def amd_intree(ix, e, commit):
    base = 'benchmarks/multi_node/amd_utils/'
    models = yaml.load(show(ix, commit, base + 'models.yaml'), Loader=Loader)
    runner = ''.join(show(ix, commit, f) or '' for f in ls(ix, commit, 'runners/') if 'mi355x' in f)
    bench = show(ix, commit, 'benchmarks/multi_node/dsr1_%s_mi355x_sglang-disagg.sh' % e['precision']) or ''
    lit = re.search(r'export MODEL_NAME="([\w.-]+)"', bench) or re.search(r'export MODEL_NAME="([\w.-]+)"', runner)
    if lit:
        name = lit.group(1)
    elif re.search(r'MODEL_NAME=\$\{MODEL##\*/\}', runner):
        name = e['model'].split('/')[-1]
    else:
        raise Unmatched('cannot tell the MODEL_NAME the runner sets')
    if name not in models:
        raise Unmatched('models.yaml lacks %s' % name)
    m = models[name]
    nodes, workers, tp, ep, dp = amd_layout(e)
    server = show(ix, commit, base + 'server_sglang.sh') or show(ix, commit, base + 'server.sh') or ''
    submit = show(ix, commit, base + 'submit.sh') or ''
    mm = re.search(r'export PREFILL_TP_SIZE=\$\(\((.*?)\)\)', submit)
    if not mm:
        raise Unmatched('submit.sh sets no PREFILL_TP_SIZE')
    ns = {'PREFILL_NODES': nodes, 'PREFILL_WORKERS': workers, 'PREFILL_TP': tp, 'GPUS_PER_NODE': 8}
    ptp = int(eval(mm.group(1).replace('$', ''), {'__builtins__': {}}, ns))
    env = {'MODEL_NAME': name, 'ENGINE': 'sglang-disagg', 'GPUS_PER_NODE': '8',
           'PREFILL_ENABLE_DP': 'true' if dp else 'false', 'PREFILL_ENABLE_EP': 'true' if ep != 1 else 'false'}
    disp = shell_value(show(ix, commit, base + 'env.sh') or '', 'MORI_MAX_DISPATCH_TOKENS_PREFILL', env)
    ns = {'PREFILL_TP_SIZE': ptp, 'xP': workers, 'PREFILL_NODES': nodes}
    if disp is not None:
        ns['MORI_MAX_DISPATCH_TOKENS_PREFILL'] = int(disp)
    pf = m.get('prefill') or {}
    blk = pf.get('dp' if dp else 'no_dp') or {}
    cps = blk.get('chunked_prefill_size', 262144)
    if isinstance(cps, str):
        cps = int(eval(cps, {'__builtins__': {}}, ns))
    mrr = blk.get('max_running_requests', 24 if dp else 128)
    if dp and ep != 1 and re.search(r'prefill_max_running_requests=\$BENCH_MAX_CONC_VALUE', server):
        mrr = max(e['concs'])  # server_sglang.sh DP+EP override: the job's largest concurrency
    mtt = blk.get('max_total_tokens') if dp and 'PREFILL_MAX_TOTAL_TOKENS_DP' in server else None
    f = flags(m.get('base_flags', '') + ' ' + (m.get('dp_flags', '') if dp else ''))
    v = dict(chunked_prefill_size=cps, max_prefill_tokens=num(f.get('max-prefill-tokens')), max_running_requests=mrr,
             dp_size=ptp if dp else 1, enable_dp_attention=bool(dp), mem_fraction_static=pf.get('mem_fraction_static', 0.8),
             max_total_tokens=mtt, _tp=ptp)
    try:
        v.update(amd_intree_decode(e, m, name, server, submit, show(ix, commit, base + 'env.sh') or ''))
    except Unmatched as x:
        v['_dnote'] = str(x)
    return v, 'SemiAnalysisAI/InferenceX:%smodels.yaml[%s]@%s' % (base, name, commit)


# server_sglang.sh / server.sh: the defaults its inline Python gives each decode block (max_running_requests,
# chunked_prefill_size, cuda_graph_bs_range) and the decode memory fraction; the same in every version read
AMD_DECODE_DEFAULTS = {'dp': (4096, 262144, '1-160'), 'ep_only': (256, 262144, '1-256'), 'no_dp': (128, 262144, '1-128')}


def amd_intree_decode(e, m, name, server, submit, envtext):
    """The decode worker's flags as server_sglang.sh (or server.sh) composes them: the models.yaml decode block
    of the 3-way choice DP > EP-only > no DP, the DP branch's max-running-requests (the block's value, or
    cuda_graph_bs_range's end x DECODE_TP_SIZE where the script says so), the DP+EP override (the job's largest
    concurrency) where the script has it, and --chunked-prefill-size only where DECODE_MODE_FLAGS passes it."""
    dnodes = setting(e, 'DECODE_NODES')
    if dnodes is None:
        raise Unmatched('entry has no DECODE_NODES')
    workers, tp, ep, dp = e['d']
    mm = re.search(r'export DECODE_TP_SIZE=\$\(\((.*?)\)\)', submit)
    if not mm:
        raise Unmatched('submit.sh sets no DECODE_TP_SIZE')
    ns = {'DECODE_NODES': int(dnodes), 'DECODE_WORKERS': workers, 'DECODE_TP': tp, 'GPUS_PER_NODE': 8}
    dtp = int(eval(mm.group(1).replace('$', ''), {'__builtins__': {}}, ns))
    kind = 'dp' if dp else ('ep_only' if ep != 1 else 'no_dp')
    dd = m.get('decode') or {}
    blk = dd.get(kind) or {}
    dmrr, dcps, drange = AMD_DECODE_DEFAULTS[kind]
    rng = str(blk.get('cuda_graph_bs_range', drange))
    gend = int(rng.split('-')[1]) if '-' in rng else int(drange.split('-')[1])
    # the branch of the 3-way block that sets decode_max_running_requests
    branch = re.search(r'if \[\[ "\$DECODE_ENABLE_DP" == "true" \]\]; then\n(.*?)\nelif \[\[ "\$DECODE_ENABLE_EP" == "true" \]\]; then\n'
                       r'(.*?)\nelse\n(.*?)\nfi', server, re.S)
    if not branch:
        raise Unmatched('server script has no DP / EP-only / no-DP decode block')
    text = branch.group({'dp': 1, 'ep_only': 2, 'no_dp': 3}[kind])
    a = re.search(r'decode_max_running_requests=(.*?)\s*$', text, re.M)
    if not a:
        raise Unmatched('decode block sets no decode_max_running_requests')
    upper = kind.upper()
    if a.group(1) == '$((DECODE_CUDA_GRAPH_BS_%s_END * DECODE_TP_SIZE))' % upper:
        mrr = gend * dtp
    elif a.group(1) == '$DECODE_MAX_RUNNING_REQUESTS_%s' % upper:
        mrr = blk.get('max_running_requests', dmrr)
    else:
        raise Unmatched('unknown decode_max_running_requests=%s' % a.group(1))
    if dp and ep != 1 and re.search(r'\[\[ "\$DECODE_ENABLE_DP" == "true" \]\] && \[\[ "\$DECODE_ENABLE_EP" == "true" \]\]; then\s*\n'
                                   r'\s*decode_max_running_requests=\$BENCH_MAX_CONC_VALUE', server):
        mrr = max(e['concs'])  # DP+EP override: the job's largest concurrency
    mode = re.search(r'^DECODE_MODE_FLAGS="([^"]*)"', server, re.M)
    if not mode:
        raise Unmatched('server script sets no DECODE_MODE_FLAGS')
    cps = None
    if re.search(r'--chunked-prefill-size \$\{decode_chunked_prefill_size\}', mode.group(1)):
        cps = blk.get('chunked_prefill_size', dcps)
        if isinstance(cps, str):
            env = {'MODEL_NAME': name, 'ENGINE': 'sglang-disagg', 'GPUS_PER_NODE': '8',
                   'DECODE_ENABLE_DP': 'true' if dp else 'false', 'DECODE_ENABLE_EP': 'true' if ep != 1 else 'false'}
            disp = shell_value(envtext, 'MORI_MAX_DISPATCH_TOKENS_DECODE', env)
            ns = {'DECODE_TP_SIZE': dtp, 'yD': workers, 'DECODE_NODES': int(dnodes)}
            if disp is not None:
                ns['MORI_MAX_DISPATCH_TOKENS_DECODE'] = int(disp)
            cps = int(eval(cps, {'__builtins__': {}}, ns))
    sub = {'DECODE_MEM_FRACTION_STATIC': str(dd.get('mem_fraction_static', 0.85)), 'decode_max_running_requests': str(mrr),
           'decode_chunked_prefill_size': str(cps), 'decode_cuda_graph_bs[*]': str(gend)}
    spec = re.sub(r'\$\{([\w\[\]*]+)\}', lambda x: sub.get(x.group(1), x.group(0)), mode.group(1))
    f = flags(m.get('base_flags', '') + ' ' + (m.get('dp_flags', '') if dp else '') + ' ' + spec)
    return dict(decode_max_running_requests=num(f.get('max-running-requests')),
                decode_chunked_prefill_size=num(f.get('chunked-prefill-size')), decode_dp_size=dtp if dp else 1,
                decode_mem_fraction_static=num(f.get('mem-fraction-static')), decode_max_total_tokens=num(f.get('max-total-tokens')),
                decode_cuda_graph_max_bs=num(f.get('cuda-graph-max-bs', f.get('cuda-graph-bs'))),
                decode_enable_attention_dp=bool(dp), _dtp=dtp)


def amd_layout(e):
    nodes = setting(e, 'PREFILL_NODES')
    if nodes is None:
        raise Unmatched('entry has no PREFILL_NODES')
    workers, tp, ep, dp = e['p']
    return int(nodes), workers, tp, ep, dp


def bash_assoc(text, var, key):
    m = re.search(r'declare -A %s=\((.*?)\n\s*\)' % var, text, re.S)
    if not m:
        return ''
    k = re.search(r'\["%s"\]="([^"]*)"' % re.escape(key), m.group(1))
    return k.group(1) if k else ''


def amd_sglang_disagg(ix, sgd, e, commit, day):
    bench = [f for f in ls(ix, commit, 'benchmarks/') if re.search(r'dsr1_%s_mi355x_sglang-disagg' % e['precision'], f)]
    text = ''.join(show(ix, commit, f) or '' for f in bench)
    runner = ''.join(show(ix, commit, f) or '' for f in ls(ix, commit, 'runners/') if 'mi355x' in f)
    m = re.search(r'^\s*git clone --branch (\S+) https://github.com/(\S+?)/sglang_disagg', text, re.M)
    pin = re.search(r'^COMMIT_ID="([0-9a-f]{40})"', text, re.M)
    if not sgd:
        raise Unmatched('billishyahao/sglang_disagg mirror not given (third argument)')
    have = lambda ref: git(sgd, 'rev-parse', '--verify', '-q', ref + '^{commit}', check=False)
    if m and m.group(2) == 'billishyahao' and have(m.group(1)):
        newest = max(git(sgd, 'log', '--all', '-1', '--format=%cs', '--date-order').split())
        if day > newest:
            raise Unmatched('cloned billishyahao/sglang_disagg branch %s after the mirror (newest commit %s)' % (m.group(1), newest))
        src = last_on_or_before(history(sgd, m.group(1)), day)
    elif pin and have(pin.group(1)):
        src = pin.group(1)
    else:
        what = ('%s/sglang_disagg branch %s' % (m.group(2), m.group(1))) if m else ('commit %s' % pin.group(1)[:7] if pin else '?')
        raise Unmatched('cloned %s, not in the sglang_disagg mirror' % what)
    server = show(sgd, src, 'sglang_disagg_server.sh')
    mm = re.search(r'export MODEL_NAME="([^"]+)"', text) or re.search(r'export MODEL_NAME="([^"]+)"', runner)
    name = mm.group(1) if mm else 'DeepSeek-R1'
    nodes, workers, tp, ep, dp = amd_layout(e)
    ptp = 8 * nodes // workers  # submit_disagg.sh: PREFILL_TP_SIZE = 8 GPUs x nodes / workers
    blk = re.search(r'if \[\[ "\$PREFILL_ENABLE_DP" == "true" \]\]; then\n(.*?)\nelse\n(.*?)\nfi', server, re.S)
    var = dict(re.findall(r'(prefill_\w+)=(\S+)', blk.group(1 if dp else 2))) if blk else {}
    spec = bash_assoc(server, 'MODEL_PREFILL_CONFIGS', name)
    for k, val in var.items():
        spec = spec.replace('${%s[*]}' % k, '1').replace('${%s}' % k, val)
    f = flags(bash_assoc(server, 'MODEL_BASE_CONFIGS', name) + ' ' +
              (bash_assoc(server, 'MODEL_DP_CONFIGS', name) if dp else '') + ' ' + spec)
    if any('$' in str(x) for x in f.values()):
        raise Unmatched('unresolved variable in sglang_disagg flags')
    v = dict(chunked_prefill_size=num(f.get('chunked-prefill-size')), max_prefill_tokens=num(f.get('max-prefill-tokens')),
             max_running_requests=num(f.get('max-running-requests')), dp_size=ptp if dp else 1,
             enable_dp_attention=bool(dp), mem_fraction_static=num(f.get('mem-fraction-static')),
             max_total_tokens=num(f.get('max-total-tokens')), _tp=ptp)
    try:
        v.update(sglang_disagg_decode(server, name, e))
    except Unmatched as x:
        v['_dnote'] = str(x)
    return v, 'billishyahao/sglang_disagg:sglang_disagg_server.sh[%s]@%s' % (name, src)


def sglang_disagg_decode(server, name, e):
    """sglang_disagg_server.sh's decode flags: base, DP (with DP attention), decode; the last wins."""
    dnodes = setting(e, 'DECODE_NODES')
    if dnodes is None:
        raise Unmatched('entry has no DECODE_NODES')
    workers, tp, ep, dp = e['d']
    dtp = 8 * int(dnodes) // workers  # submit_disagg.sh: DECODE_TP_SIZE = 8 GPUs x nodes / workers
    blk = re.search(r'if \[\[ "\$DECODE_ENABLE_DP" == "true" \]\]; then\n(.*?)\nelse\n(.*?)\nfi', server, re.S)
    if not blk:
        raise Unmatched('sglang_disagg_server.sh has no decode DP block')
    text = blk.group(1 if dp else 2)
    var = dict(re.findall(r'(decode_\w+)=(\S+)', text))
    g = re.search(r'decode_cuda_graph_bs=\(\$\(seq (\d+) (\d+)\)\)', text)
    spec = bash_assoc(server, 'MODEL_DECODE_CONFIGS', name)
    if g:
        spec = spec.replace('${decode_cuda_graph_bs[*]}', g.group(2))
    for k, val in var.items():
        spec = spec.replace('${%s}' % k, val)
    f = flags(bash_assoc(server, 'MODEL_BASE_CONFIGS', name) + ' ' +
              (bash_assoc(server, 'MODEL_DP_CONFIGS', name) if dp else '') + ' ' + spec)
    if any('$' in str(x) for x in f.values()):
        raise Unmatched('unresolved variable in sglang_disagg decode flags')
    return dict(decode_max_running_requests=num(f.get('max-running-requests')),
                decode_chunked_prefill_size=num(f.get('chunked-prefill-size')), decode_dp_size=dtp if dp else 1,
                decode_mem_fraction_static=num(f.get('mem-fraction-static')), decode_max_total_tokens=num(f.get('max-total-tokens')),
                decode_cuda_graph_max_bs=num(f.get('cuda-graph-max-bs', f.get('cuda-graph-bs'))),
                decode_enable_attention_dp=bool(dp), _dtp=dtp)


# ---------------------------------------------------------------- main

def resolve(srtr, ix, sgd, e, commit, day, notes):
    if e['framework'] == 'mori-sglang':
        if show(ix, commit, 'benchmarks/multi_node/amd_utils/models.yaml') is not None:
            return amd_intree(ix, e, commit)
        return amd_sglang_disagg(ix, sgd, e, commit, day)
    if setting(e, 'CONFIG_FILE'):
        return srtr.resolve(e, commit, day, notes)
    if e['framework'] == 'dynamo-trt' and setting(e, 'PREFILL_MAX_NUM_TOKENS'):
        _, tp, _, dp = e['p']
        v = dict(max_num_tokens=num(setting(e, 'PREFILL_MAX_NUM_TOKENS')), max_batch_size=num(setting(e, 'PREFILL_MAX_BATCH_SIZE')),
                 enable_dp_attention=dp, dp_size=tp if dp else 1, _tp=tp)
        # decode: the entry's DECODE_* settings (passed to the same performance_sweeps); the KV dtype is set there: empty
        v.update(decode_max_batch_size=num(setting(e, 'DECODE_MAX_BATCH_SIZE')),
                 decode_max_num_tokens=num(setting(e, 'DECODE_MAX_NUM_TOKENS')),
                 decode_free_gpu_memory_fraction=num(setting(e, 'DECODE_GPU_MEM_FRACTION')),
                 decode_enable_attention_dp=e['d'][3])
        return v, 'SemiAnalysisAI/InferenceX:.github/configs/nvidia-master.yaml[%s PREFILL_MAX_NUM_TOKENS,PREFILL_MAX_BATCH_SIZE]@%s' % (e['name'], commit)
    if e['framework'] == 'dynamo-sglang':
        raise Unmatched('ai-dynamo/dynamo slurm_jobs scripts (SCRIPT_MODE=%s; not mirrored)' % (setting(e, 'SCRIPT_MODE') or 'default'))
    raise Unmatched('entry names no recipe')


def fmt(v):
    if v is None:
        return ''
    if isinstance(v, bool):
        return 'true' if v else 'false'
    return str(v)


def decode_row(v, conc, note):
    """The decode values of v for a row at concurrency conc: a list left by the recipe (one value per
    benchmark.concurrencies item) gives the item's that runs conc."""
    out = {}
    for k in DVALS:
        x = v.get(k)
        if isinstance(x, list):
            items = v.get('_conc_items') or []
            hit = [i for i, s in enumerate(items) if conc in s]
            if len(items) == len(x) and hit:
                x = x[hit[0]]
            else:
                note('%s %s: not one value per benchmark.concurrencies item %s holding conc %d; empty'
                     % (k, x, [sorted(i) for i in items], conc))
                x = None
        out[k] = x
    return out


def row_layout(r):
    tf = lambda v: v.lower() == 'true'
    return (r['framework'], r['hardware'], r['precision'], int(r['isl']), int(r['osl']), r['spec_decoding'],
            (int(r['prefill_num_workers']), int(r['prefill_tp']), int(r['prefill_ep'] or 1), tf(r['prefill_dp_attention'])),
            (int(r['decode_num_workers']), int(r['decode_tp']), int(r['decode_ep'] or 1), tf(r['decode_dp_attention'])))


def main():
    ix, srt = sys.argv[1], sys.argv[2]
    sgd = sys.argv[3] if len(sys.argv) > 3 else None
    srtr = Srt(ix, srt)
    mainline = {c for _, c in history(ix, 'HEAD')}
    rows = list(csv.DictReader(open(os.path.join(HERE, 'inferencex_disagg_points.csv'))))
    want = {row_layout(r) for r in rows if r['gpus_per_prefill_worker'] and r['gpus_per_decode_worker']}
    idx = collections.defaultdict(list)  # layout -> [(day, time, commit, entry)]
    for lk, e in config_entries(ix, want):
        for d, t, c in e['versions']:
            idx[lk].append((d, t, c, e))
    out, unmatched, notes, cache = {}, collections.Counter(), [], {}

    def get(e, c, day):
        k = (id(e), c, day)
        if k not in cache:
            try:
                cache[k] = resolve(srtr, ix, sgd, e, c, day, notes)
            except Unmatched as x:
                cache[k] = x
        return cache[k]

    for r in rows:
        fw, hw, conc = r['framework'], r['hardware'], int(r['conc'])
        key = tuple(r[c].lower() for c in KEY)
        try:
            if not r['gpus_per_prefill_worker'] or not r['gpus_per_decode_worker']:
                raise Unmatched('row has no GPUs per worker')
            cands = [x for x in idx.get(row_layout(r), []) if x[0] <= r['run_date']]
            if not cands:
                raise Unmatched('no config entry with this layout on or before the run date')
            exact = [x for x in cands if conc in x[3]['concs']]
            pool, how = (exact, '') if exact else (cands, 'layout')
            chosen, err, fallback = None, None, None
            for day in sorted({x[0] for x in pool}, reverse=True):
                res = [(x, get(x[3], x[2], r['run_date'])) for x in sorted(pool, key=lambda x: (-x[1], x[2])) if x[0] == day]
                ok = [(x, v) for x, v in res if not isinstance(v, Unmatched)]
                if not ok:
                    err = err or res[0][1]
                    break
                # a recipe that states its workers or concurrencies must agree with the row
                fit = [(x, v) for x, v in ok
                       if (v[0].get('_workers', (None, None))[0] in (None, int(r['prefill_num_workers'])))
                       and (v[0].get('_workers', (None, None))[1] in (None, int(r['decode_num_workers'])))
                       and (v[0].get('_concs') is None or conc in v[0]['_concs'] or not how)]
                if not fit:
                    fallback = fallback or ok
                    continue  # layout match whose recipes ran other concurrencies: an earlier version
                if len({tuple(fmt(v[0].get(c)) for c in VALS) for x, v in fit}) > 1:
                    narrowed = [(x, v) for x, v in fit if v[0].get('_concs') and conc in v[0]['_concs']]
                    if narrowed:
                        fit = narrowed
                if len({tuple(fmt(v[0].get(c)) for c in VALS) for x, v in fit}) > 1:
                    mains = [(x, v) for x, v in fit if x[2] in mainline]
                    if mains and len({tuple(fmt(v[0].get(c)) for c in VALS) for x, v in mains}) == 1:
                        fit = mains
                    else:
                        raise Unmatched('config versions of %s name recipes with different prefill values' % day)
                chosen = fit
                break
            if chosen is None and fallback and len({tuple(fmt(v[0].get(c)) for c in VALS) for x, v in fallback}) == 1:
                chosen = fallback  # no recipe ran this concurrency, but every layout match agrees
                how = 'layout; no recipe lists the concurrency, all agree'
            if chosen is None:
                raise err or Unmatched('no recipe of a layout match ran this concurrency')
            mains = [xv for xv in chosen if xv[0][2] in mainline]
            (d, t, c, e), (v, recipe) = max(mains or chosen, key=lambda xv: xv[0][1])
            dnote = lambda m: notes.append('%s %s %s conc %d (%s): %s' % (fw, hw, r['run_date'], conc, recipe, m))
            dv = decode_row(v, conc, dnote)
            others = {tuple(fmt(y) for y in decode_row(v2, conc, lambda m: None).values()) for x2, (v2, _) in chosen}
            if len(others) > 1:
                dnote('decode values differ between the candidates that agree on the prefill side (the latest kept): %s'
                      % sorted(others))
            if v.get('_dnote'):
                dnote('decode side left empty: ' + v['_dnote'])
            gpd = int(r['gpus_per_decode_worker'])
            if v.get('_dtp') is not None and int(v['_dtp']) != gpd:
                dnote('recipe decode tp %s != row GPUs per decode worker %d' % (v['_dtp'], gpd))
            if dv.get('decode_enable_attention_dp') is not None and \
                    dv['decode_enable_attention_dp'] != (r['decode_dp_attention'].lower() == 'true'):
                dnote('recipe decode attention DP %s != row %s' % (fmt(dv['decode_enable_attention_dp']), r['decode_dp_attention'].lower()))
            if how:
                notes.append('%s %s %s conc %d: concurrency not in the entry conc-list; matched by %s (%s)'
                             % (fw, hw, r['run_date'], conc, how, recipe))
            gpw = int(r['gpus_per_prefill_worker'])
            if v.get('_tp') is not None and int(v['_tp']) != gpw:
                notes.append('%s %s %s: recipe prefill tp %s != row GPUs per prefill worker %d' % (fw, hw, recipe, v['_tp'], gpw))
            if v.get('enable_dp_attention') != (r['prefill_dp_attention'].lower() == 'true'):
                notes.append('%s %s %s: recipe prefill attention DP %s != row %s'
                             % (fw, hw, recipe, fmt(v['enable_dp_attention']), r['prefill_dp_attention'].lower()))
            out[key + (fw, r['run_date'])] = [fmt(v.get(x)) for x in VALS] + [recipe, c, d] + [fmt(dv.get(x)) for x in DVALS]
        except Unmatched as x:
            unmatched[(fw, hw, str(x))] += 1
    w = csv.writer(sys.stdout, lineterminator='\n')
    w.writerow(KEY + ['framework', 'run_date'] + VALS + ['recipe', 'config_commit', 'config_date'] + DVALS)
    for k in sorted(out, key=lambda k: (k[14], k[0], k[1], int(k[2]), int(k[3]), k[4], int(k[5])) + k[6:14] + (k[15],)):
        w.writerow(list(k) + out[k])
    matched = collections.Counter()
    for r in rows:
        if tuple(r[c].lower() for c in KEY) + (r['framework'], r['run_date']) in out:
            matched[(r['framework'], r['hardware'])] += 1
    print('matched rows: %d of %d (%d lines)' % (sum(matched.values()), len(rows), len(out)), file=sys.stderr)
    for k in sorted(matched):
        print('  matched   %-14s %-7s %3d' % (k + (matched[k],)), file=sys.stderr)
    print('unmatched rows: %d' % sum(unmatched.values()), file=sys.stderr)
    for k in sorted(unmatched):
        print('  unmatched %-14s %-7s %3d  %s' % (k[0], k[1], unmatched[k], k[2]), file=sys.stderr)
    for n in sorted(set(notes)):
        print('note: ' + n, file=sys.stderr)


if __name__ == '__main__':
    main()
