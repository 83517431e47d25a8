#!/usr/bin/env bash
# Runs the supraseal anchor's measurement set on a GPU host, from a bundle made
# by `scripts/anchor-bundle.sh --with-runner` (this script is copied into it).
#
# usage: anchor-gpu-run.sh OUT_DIR [PRESET...]      (default presets: small medium)
# Makes the parameters of each preset with `phaseline-prover setup`, then for
# each preset proves batches of 1 and 10 partitions: one warm-up batch (the
# cold first proof of the process) and 3 measured batches, all verified.
# Each process gets an empty driver JIT cache, so its first proof pays the PTX
# JIT as on a fresh host; one extra run of the first preset reuses a filled
# cache. Writes <preset>-<partitions>.jsonl, env.txt and log.txt to OUT_DIR.
set -uo pipefail
if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
    sed -n '2,11p' "$0"
    exit 2
fi
B="$(cd "$(dirname "$0")" && pwd)"
O="$1"
shift
presets=("$@")
[[ $# -eq 0 ]] && presets=(small medium)
mkdir -p "$O"
P="$(mktemp -d)"
exec > >(tee -a "$O/log.txt") 2>&1
ms() { date +%s%3N; }
{
    date -u
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,compute_cap --format=csv
    lscpu | grep -E "Model name|^CPU\(s\)"
    free -g | head -2
    head -2 /etc/os-release
    ldd --version | head -1
    "$B/phaseline-anchor-supraseal" info
    "$B/phaseline-prover" info
} > "$O/env.txt" 2>&1
for c in "${presets[@]}"; do
    t=$(ms)
    "$B/phaseline-prover" setup --circuit "$c" --params-dir "$P" || exit 1
    echo "setup $c: $(( $(ms) - t )) ms"
done
keep=""
for c in "${presets[@]}"; do
    for n in 1 10; do
        cache=$(mktemp -d)
        t=$(ms)
        CUDA_CACHE_PATH=$cache "$B/phaseline-anchor-supraseal" prove --circuit "$c" --partitions $n \
            --warmup 1 --reps 3 --params-dir "$P" --json "$O/$c-$n.jsonl"
        echo "anchor $c x$n rc=$? process $(( $(ms) - t )) ms"
        [[ -z $keep ]] && keep=$cache
    done
done
c=${presets[0]}
t=$(ms)
CUDA_CACHE_PATH=$keep "$B/phaseline-anchor-supraseal" prove --circuit "$c" --partitions 1 \
    --warmup 1 --reps 3 --params-dir "$P" --json "$O/$c-1-jitcache.jsonl"
echo "anchor $c x1 (JIT cache warm) rc=$? process $(( $(ms) - t )) ms"
