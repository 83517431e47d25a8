#!/usr/bin/env bash
# One measurement sitting on a GPU host: setup times, the flag matrix of our
# GPU backend, our CPU backend, bellperson's CPU prover and supraseal-c2 on the
# same circuits, then an `xl` proof, all in one process tree and one sitting.
#
#   h200-matrix.sh BUNDLE OUT [LIMIT_S]
#
# BUNDLE (made by scripts/h200-bundle.sh) holds phaseline-prover-{off,pin,
# par-bg2,window-tune,all} (`--features cuda` plus the named GPU flags),
# phaseline-prover-cpu (no features) and phaseline-anchor-supraseal.
# Items run in priority order (the ITEMS list below). Before each, the script
# checks that its estimated time still fits in LIMIT_S (default 550) and
# skips it otherwise; each item also runs under a timeout of the time left,
# so the whole run ends inside LIMIT_S and every finished record is kept.
# Writes to OUT: records.jsonl (every record, appended after each item),
# items.jsonl (one line per item: name, rc, wall seconds, or skipped),
# env.txt, log.txt, gpu.csv (GPU clocks, power, temperature, utilization
# and memory once a second while the script runs).
# Options (environment): SHORT=1 (see below); DONE="name ..." skips items already measured (for a
# second sitting); ONLY="name ..." runs just those; PARAMS_DIR (scratch
# folder for parameters, kept for a later sitting on the same host;
# default TMPDIR/phaseline-h200-params).
set -uo pipefail
B=$(cd "${1:?usage: h200-matrix.sh BUNDLE OUT [LIMIT_S]}" && pwd)
mkdir -p "${2:?usage: h200-matrix.sh BUNDLE OUT [LIMIT_S]}"
O=$(cd "$2" && pwd)
LIMIT=${3:-550}
P=${PARAMS_DIR:-${TMPDIR:-/tmp}/phaseline-h200-params}
mkdir -p "$P"
BP_P=$(mktemp -d) # bellperson's generator writes here, never over ours
S=$(mktemp -d)    # scratch records of the running item
JIT=$(mktemp -d)  # driver JIT caches of the anchor, one fresh per process
T0=$(date +%s%N)
elapsed() { echo $(( ($(date +%s%N) - T0) / 1000000000 )); }
log() { echo "$(date -u +%H:%M:%S) [$(elapsed)s] $*" >>"$O/log.txt"; }

{
    date -u
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.sm,power.limit,compute_cap,persistence_mode --format=csv
    lscpu | grep -E "Model name|^CPU\(s\)|Thread|Socket|MHz"
    free -g | head -2
    nproc
    head -2 /etc/os-release
    for b in "$B"/phaseline-prover-*; do "$b" info --json | tr -d '\n '; echo; done
    "$B/phaseline-anchor-supraseal" info | tr -d '\n '; echo
} >"$O/env.txt" 2>&1

nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu,memory.used \
    --format=csv,nounits -l 1 >"$O/gpu.csv" 2>/dev/null &
SMI=$!
trap 'kill "$SMI" 2>/dev/null' EXIT

# item NAME EST_S COMMAND...: runs COMMAND with --json into scratch, appends
# the records, logs rc and wall time.
item() {
    local name=$1 est=$2
    shift 2
    case " ${DONE:-} " in *" $name "*) return ;; esac
    if [ -n "${ONLY:-}" ]; then case " $ONLY " in *" $name "*) ;; *) return ;; esac; fi
    local e left
    e=$(elapsed)
    left=$((LIMIT - e))
    if [ $((e + est)) -gt "$LIMIT" ]; then
        log "skip $name (estimate ${est}s, ${left}s left)"
        echo "{\"item\":\"$name\",\"skipped\":true,\"estimate_s\":$est,\"left_s\":$left}" >>"$O/items.jsonl"
        return
    fi
    rm -f "$S/rec.jsonl"
    log "start $name: $*"
    local t=$(date +%s%N)
    timeout -k 5 "$((left - 3))" "$@" --json "$S/rec.jsonl" >>"$O/log.txt" 2>&1
    local rc=$?
    local w=$(( ($(date +%s%N) - t) / 1000000 ))
    local n=0
    if [ -f "$S/rec.jsonl" ]; then
        n=$(wc -l <"$S/rec.jsonl")
        cat "$S/rec.jsonl" >>"$O/records.jsonl"
    fi
    log "end $name rc=$rc wall=${w}ms records=$n"
    echo "{\"item\":\"$name\",\"rc\":$rc,\"wall_ms\":$w,\"records\":$n,\"estimate_s\":$est}" >>"$O/items.jsonl"
}

# Parameters come from our GPU setup (docs/setup.md), the fast path on a GPU host.
setup() { item "setup-$1" "$2" "$B/phaseline-prover-off" setup --circuit "$1" --backend cuda --params-dir "$P"; }
gpu() { # variant circuit parts warmup reps est
    item "gpu-$1-$2-x$3" "$6" "$B/phaseline-prover-$1" prove --backend cuda --circuit "$2" \
        --partitions "$3" --warmup "$4" --reps "$5" --params-dir "$P"
}
cpu() { # backend circuit parts warmup reps est
    item "$1-$2-x$3" "$6" "$B/phaseline-prover-cpu" prove --backend "$1" --circuit "$2" \
        --partitions "$3" --warmup "$4" --reps "$5" --params-dir "$P"
}
anchor() { # circuit parts warmup reps est; an empty JIT cache, as on a fresh host
    mkdir -p "$JIT/$1-$2"
    item "supraseal-$1-x$2" "$5" env CUDA_CACHE_PATH="$JIT/$1-$2" "$B/phaseline-anchor-supraseal" \
        prove --circuit "$1" --partitions "$2" --warmup "$3" --reps "$4" --params-dir "$P"
}
flags="off pin par-bg2 window-tune all"
M=${M:-medium} L=${L:-large} X=${X:-xl}

# 1. parameters (everything below needs them)
setup $M 10
setup $L 20
# 2. one partition: GPU matrix, the anchor, our CPU backend, bellperson.
# Each line: warm-up and measured repetitions, then the time estimate.
# SHORT=1 (a sitting of about 330 s) trims repetitions on the larger circuit.
if [ "${SHORT:-0}" = 1 ]; then
    RM="1 3 8|1 3 12|1 2 14|0 2 20" RL="1 2 18|1 2 20|0 2 32|0 1 40" RX="1 1"
else
    RM="1 3 9|1 3 14|1 2 18|1 2 30" RL="1 3 24|1 3 25|1 2 50|1 2 100" RX="1 2"
fi
for c in $M $L; do
    if [ $c = "$M" ]; then r=$RM; else r=$RL; fi
    IFS='|' read -r g a k bp <<<"$r"
    for v in $flags; do gpu $v $c 1 $g; done
    anchor $c 1 $a
    cpu cpu $c 1 $k
    cpu bellperson $c 1 $bp
done
# 3. ten partitions: flags off and all on, the anchor
gpu off $M 10 $RX 16
gpu all $M 10 $RX 15
anchor $M 10 $RX 14
gpu off $L 10 $RX 45
gpu all $L 10 $RX 42
anchor $L 10 $RX 30
# 4. xl: our setup, then a verified GPU proof with those parameters
setup $X 45
gpu all $X 1 1 1 75
# 5. bellperson's generator at $M, into its own folder
item "setup-bellperson-$M" 75 "$B/phaseline-prover-cpu" setup --circuit $M \
    --generator bellperson --params-dir "$BP_P"
# 6. the rest, if time is left: each flag alone at ten partitions, CPU provers
for v in pin par-bg2 window-tune; do gpu $v $M 10 1 2 22; done
for v in pin par-bg2 window-tune; do gpu $v $L 10 1 2 60; done
cpu cpu $M 10 0 1 40
cpu bellperson $M 10 0 1 60
log "done"
