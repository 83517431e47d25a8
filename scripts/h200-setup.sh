#!/usr/bin/env bash
# Setup measurements on a GPU host, from a folder made by
# scripts/h200-setup-bundle.sh (no Rust toolchain needed there):
#
#   h200-setup.sh BUNDLE OUT PLAN [LIMIT_S]
#
# Setups are measured by the harness: `phaseline run --suite gpu-setup` with
# the bundle's runner as prebuilt variants (`ours`: the GPU backend,
# `ours-cpu`: the same binary on the CPU backend, `bellperson`: bellperson's
# generator in it), each run rendered by `phaseline report` (per-phase table,
# end to end, intervals, charts): OUT/runs/NAME and OUT/reports/NAME.
#
# PLAN `check`: the GPU test binaries (tests/gpu_setup.rs, tests/gpu.rs) with
# --include-ignored and PHASELINE_REQUIRE_GPU=1, then `setup --backend
# cuda:W` on `medium` for several window sizes W (records kept as they are).
# PLAN `measure`: the `gpu-setup` suite (medium, large, xl; a warm-up that
# records the shape, then setups that load it), a proof of xl on the GPU with
# the xl parameters just made (verified by the runner), GPU against CPU at
# large, GPU against bellperson's generator at medium.
# PLAN `all`: the GPU setup tests first, then `measure`.
# PLAN `xxl`: the GPU setup of xxl alone (one warm-up, one setup), when the disk allows.
# Items run in order; before each the script checks that its estimate fits
# in LIMIT_S (default 540) and skips it otherwise, and each runs under a
# timeout of the time left, so a partial run still returns every finished
# item. OUT gets runs/, reports/, records.jsonl (records of `rec` items),
# items.jsonl (name, rc, wall ms, or skipped), tests.txt, env.txt, log.txt.
set -uo pipefail
B=$(cd "${1:?usage: h200-setup.sh BUNDLE OUT PLAN [LIMIT_S]}" && pwd)
mkdir -p "${2:?usage: h200-setup.sh BUNDLE OUT PLAN [LIMIT_S]}"
O=$(cd "$2" && pwd)
PLAN=${3:?usage: h200-setup.sh BUNDLE OUT PLAN [LIMIT_S]}
LIMIT=${4:-540}
BIN=$B/phaseline-prover
W=$(mktemp -d) # parameter folders, the harness's config and parameters
# The shipped config, with the bundle's runner as the variants of these runs.
CFG=$W/phaseline.toml
cp "$B/phaseline.toml" "$CFG"
cat >>"$CFG" <<EOF

[runners.ours]
path = "$BIN"
backend = "cuda"

[runners.ours-cpu]
path = "$BIN"
backend = "cpu"

[runners.bellperson-generator]
path = "$BIN"
backend = "bellperson"
EOF
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

# measure NAME EST_S RUN_ARGS...: `phaseline run --suite gpu-setup` into
# OUT/runs/NAME, then its report into OUT/reports/NAME.
measure() {
    local name=$1 est=$2
    shift 2
    run "$name" "$est" "$B/phaseline" --config "$CFG" run --suite gpu-setup --progress lines \
        --out "$O/runs/$name" "$@"
    local rc=$?
    if [ -f "$O/runs/$name/run.json" ]; then
        "$B/phaseline" --config "$CFG" report "$O/runs/$name" --out "$O/reports/$name" >>"$O/log.txt" 2>&1
    fi
    return $rc
}

# The measurement plan; the xl parameters are kept for the proof.
measure_all() {
    measure gpu-setup 200 --variant ours
    rec prove-xl-cuda 150 prove --circuit xl --backend cuda --params-dir "$W/params" --reps 1 --warmup 0
    rm -f "$W/params"/*.params
    measure gpu-cpu-large 150 --circuit large --variant ours --variant ours-cpu
    rm -f "$W/params"/*.params
    measure gpu-bellperson-medium 200 --circuit medium --reps 3 --variant ours --variant bellperson-generator
    rm -f "$W/params"/*.params
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
    measure_all
    ;;
all)
    tests gpu-setup-tests 60
    measure_all
    ;;
xxl)
    # 2^26 on its own: about 24 GB of parameters, so the disk is checked first.
    free_gb=$(df -BG --output=avail "$W" | tail -1 | tr -dc 0-9)
    log "disk free: ${free_gb} GiB"
    if [ "${free_gb:-0}" -gt 30 ]; then
        # One setup (the shape recorded in it): a second would need the disk twice.
        measure gpu-setup-xxl $((LIMIT - 20)) --circuit xxl --reps 1 --warmup 0 --timeout $((LIMIT - 40)) --variant ours
    else
        echo "{\"item\":\"gpu-setup-xxl\",\"skipped\":true,\"disk_free_gib\":${free_gb:-0}}" >>"$O/items.jsonl"
    fi
    ;;
*)
    echo "unknown plan $PLAN (check, measure, all, xxl)" >&2
    exit 2
    ;;
esac
rm -rf "$W"
log "done"
