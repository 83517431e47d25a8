#!/usr/bin/env bash
# Setup measurements on a GPU host, from a folder made by
# scripts/h200-setup-bundle.sh (no Rust toolchain needed there):
#
#   h200-setup.sh BUNDLE OUT PLAN [LIMIT_S]
#
# PLAN `check`: the GPU test binaries (tests/gpu_setup.rs, tests/gpu.rs) with
# --include-ignored and PHASELINE_REQUIRE_GPU=1, then `setup --backend
# cuda:W` on `medium` for several window sizes W.
# PLAN `all`: the essentials of both in one sitting (see below).
# PLAN `xxl`: `setup --backend cuda` for xxl alone, when the disk allows.
# PLAN `measure`: `setup` on the GPU backend for medium, large and xl (shape
# recorded, then again with the shape loaded), a proof of xl on the GPU with
# the xl parameters just made (verified by the runner), setup on the CPU
# backend for medium and large, bellperson's generator for medium, then xxl
# on the GPU when the time and the disk allow.
# Items run in order; before each the script checks that its estimate fits
# in LIMIT_S (default 540) and skips it otherwise, and each runs under a
# timeout of the time left, so a partial run still returns every finished
# item. OUT gets records.jsonl (every record, appended as each item ends),
# items.jsonl (name, rc, wall ms, or skipped), tests.txt, env.txt, log.txt.
set -uo pipefail
B=$(cd "${1:?usage: h200-setup.sh BUNDLE OUT PLAN [LIMIT_S]}" && pwd)
mkdir -p "${2:?usage: h200-setup.sh BUNDLE OUT PLAN [LIMIT_S]}"
O=$(cd "$2" && pwd)
PLAN=${3:?usage: h200-setup.sh BUNDLE OUT PLAN [LIMIT_S]}
LIMIT=${4:-540}
BIN=$B/phaseline-prover
W=$(mktemp -d) # parameter folders, one per item
T0=$(date +%s%N)
elapsed() { echo $((($(date +%s%N) - T0) / 1000000000)); }
log() { echo "$(date -u +%H:%M:%S) [$(elapsed)s] $*" >>"$O/log.txt"; }

{
    date -u
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit,compute_cap --format=csv
    lscpu | grep -E "Model name|^CPU\(s\)"
    free -g | head -2
    df -h /tmp | tail -1
    "$BIN" info --json | tr -d '\n '
    echo
} >"$O/env.txt" 2>&1

# run NAME EST_S COMMAND...: the guard, a timeout of the time left, the log.
run() {
    local name=$1 est=$2
    shift 2
    local e left t rc w
    e=$(elapsed)
    left=$((LIMIT - e))
    if [ $((e + est)) -gt "$LIMIT" ]; then
        log "skip $name (estimate ${est}s, ${left}s left)"
        echo "{\"item\":\"$name\",\"skipped\":true,\"estimate_s\":$est,\"left_s\":$left}" >>"$O/items.jsonl"
        return 1
    fi
    log "start $name: $*"
    t=$(date +%s%N)
    timeout -k 5 "$((left - 3))" "$@" >>"$O/log.txt" 2>&1
    rc=$?
    w=$((($(date +%s%N) - t) / 1000000))
    log "end $name rc=$rc wall=${w}ms"
    echo "{\"item\":\"$name\",\"rc\":$rc,\"wall_ms\":$w,\"estimate_s\":$est}" >>"$O/items.jsonl"
    return $rc
}

# rec NAME EST_S SUBCOMMAND ARGS...: a runner item whose records are kept.
rec() {
    local name=$1 est=$2
    shift 2
    rm -f "$W/rec.jsonl"
    run "$name" "$est" "$BIN" "$@" --json "$W/rec.jsonl"
    local rc=$?
    [ -f "$W/rec.jsonl" ] && sed "s/^{/{\"item\":\"$name\",/" "$W/rec.jsonl" >>"$O/records.jsonl"
    return $rc
}

tests() {
    local t=$1 est=$2
    run "test-$t" "$est" env PHASELINE_REQUIRE_GPU=1 "$B/$t" --include-ignored --test-threads 1
    local rc=$?
    grep -E "^test |test result" "$O/log.txt" | tail -n 40 >>"$O/tests.txt"
    return $rc
}

case $PLAN in
check)
    tests gpu-setup-tests 150
    for w in 10 12 13 16; do
        rec "cuda$w-medium" 40 setup --circuit medium --backend "cuda:$w" --toxic-seed 1 --params-dir "$W/m"
    done
    tests gpu-tests 120
    ;;
measure)
    for c in medium large xl; do
        est=$(case $c in medium) echo 20 ;; large) echo 40 ;; xl) echo 120 ;; esac)
        rec "cuda-$c" "$est" setup --circuit $c --backend cuda --toxic-seed 1 --params-dir "$W/$c"
        rec "cuda-$c-loaded" "$est" setup --circuit $c --backend cuda --toxic-seed 1 --params-dir "$W/$c"
        [ $c = xl ] || rm -f "$W/$c"/*.params
    done
    rec prove-xl-cuda 150 prove --circuit xl --backend cuda --params-dir "$W/xl" --reps 1 --warmup 0
    rm -rf "$W/xl"
    for c in medium large; do
        rec "cpu-$c" "$( [ $c = medium ] && echo 30 || echo 90)" setup --circuit $c --backend cpu --toxic-seed 1 --params-dir "$W/$c"
        rm -f "$W/$c"/*.params
    done
    rec bellperson-medium 90 setup --circuit medium --generator bellperson --toxic-seed 1 --params-dir "$W/bp"
    rm -rf "$W/bp"
    free_gb=$(df -BG --output=avail "$W" | tail -1 | tr -dc 0-9)
    log "disk free: ${free_gb} GiB"
    if [ "${free_gb:-0}" -gt 30 ]; then
        rec cuda-xxl 280 setup --circuit xxl --backend cuda --toxic-seed 1 --params-dir "$W/xxl"
    fi
    ;;
all)
    # One sitting, most needed first: the new GPU tests, the GPU setup at
    # large and xl, the xl proof, the comparisons at medium and large, then
    # window sizes, the cached-shape repeat and synthesis while time is left.
    tests gpu-setup-tests 60
    rec cuda-medium 15 setup --circuit medium --backend cuda --toxic-seed 1 --params-dir "$W/medium"
    rec cuda-large 30 setup --circuit large --backend cuda --toxic-seed 1 --params-dir "$W/large"
    rec cuda-xl 80 setup --circuit xl --backend cuda --toxic-seed 1 --params-dir "$W/xl"
    rec prove-xl-cuda 120 prove --circuit xl --backend cuda --params-dir "$W/xl" --reps 1 --warmup 0
    rm -f "$W/xl"/*.params
    rec cpu-medium 20 setup --circuit medium --backend cpu --toxic-seed 1 --params-dir "$W/medium"
    rec cpu-large 50 setup --circuit large --backend cpu --toxic-seed 1 --params-dir "$W/large"
    rec bellperson-medium 70 setup --circuit medium --generator bellperson --toxic-seed 1 --params-dir "$W/bp"
    rm -rf "$W/bp"
    for w in 10 13 16; do
        rec "cuda$w-large" 20 setup --circuit large --backend "cuda:$w" --toxic-seed 1 --params-dir "$W/large"
    done
    rec cuda-xl-loaded 50 setup --circuit xl --backend cuda --toxic-seed 1 --params-dir "$W/xl"
    # Synthesis since the allocator and engine fixes (medium x10 took
    # 3.4-4.2 s here before them, supraseal-c2's whole proof 2.2 s).
    rec synth-medium-x10 40 synth --circuit medium --partitions 10 --reps 3 --warmup 1
    rec synth-medium-x1 15 synth --circuit medium --reps 5 --warmup 1
    ;;
xxl)
    # 2^26 on its own: about 24 GB of parameters, so the disk is checked first.
    free_gb=$(df -BG --output=avail "$W" | tail -1 | tr -dc 0-9)
    log "disk free: ${free_gb} GiB"
    if [ "${free_gb:-0}" -gt 30 ]; then
        rec cuda-xxl $((LIMIT - 20)) setup --circuit xxl --backend cuda --toxic-seed 1 --params-dir "$W/xxl"
    else
        echo "{\"item\":\"cuda-xxl\",\"skipped\":true,\"disk_free_gib\":${free_gb:-0}}" >>"$O/items.jsonl"
    fi
    ;;
*)
    echo "unknown plan $PLAN (check, measure, all, xxl)" >&2
    exit 2
    ;;
esac
rm -rf "$W"
log "done"
