#!/usr/bin/env bash
# Runs on a GPU host from a bundle made by scripts/gpu-bundle.sh: the GPU
# tests for real (a missing device is a failure here), then the measurement
# through the harness: for each circuit and partition count, one
# `phaseline run --suite gpu-e2e` with the bundle's runners as prebuilt
# variants (interleaved repetitions, the harness's statistics), rendered by
# `phaseline report`. Everything goes under RESULTS_DIR:
#   gpu-tests.log, gpu-setup-tests.log, nvidia-smi.txt, run.log (appended),
#   runs/CIRCUIT-xPARTS (run directories), reports/CIRCUIT-xPARTS (report.html,
#   summary.md, CSVs), and with CPU=1 runs/ and reports/ cpu-CIRCUIT-xPARTS.
#
#   ./run-all.sh RESULTS_DIR
# Options (environment): TESTS=0 skips the tests; CIRCUITS ("small medium"),
# PARTS ("1 10"), VARIANTS (the bundle's, "off pin par-bg2 window-tune all";
# variant V is `cuda-V` in the runs), REPS (3), WARMUP (1), CPU=1 adds a run of
# the first variant against itself on the CPU backend (`cpu-V`) with CPU_REPS /
# CPU_WARMUP (default REPS / WARMUP), PARAMS_DIR (the parameter cache; the
# harness keeps checked cached parameters and makes missing ones),
# REGENERATE=1 to make them anew.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: run-all.sh RESULTS_DIR}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
CIRCUITS=${CIRCUITS:-"small medium"}
PARTS=${PARTS:-"1 10"}
REPS=${REPS:-3}
WARMUP=${WARMUP:-1}
CPU=${CPU:-1}
CPU_REPS=${CPU_REPS:-$REPS}
CPU_WARMUP=${CPU_WARMUP:-$WARMUP}
PARAMS_DIR=${PARAMS_DIR:-/tmp/phaseline-params}
if [ -z "${VARIANTS:-}" ]; then
  VARIANTS=$(cd "$HERE/bin" && ls phaseline-prover-* | grep -v '\.json$' | sed 's/^phaseline-prover-//' | tr '\n' ' ')
  # "off" first: it is the reference of the comparisons and runs the CPU backend.
  case " $VARIANTS " in *" off "*) VARIANTS="off $(echo " $VARIANTS " | sed 's/ off / /')" ;; esac
fi
LOG="$OUT/run.log"
log() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$LOG"; }

nvidia-smi >"$OUT/nvidia-smi.txt" 2>&1 || true
first=$(echo $VARIANTS | cut -d' ' -f1)
export PHASELINE_PROVER_BIN="$HERE/bin/phaseline-prover-$first"
fails=0

if [ "${TESTS:-1}" = 1 ]; then
  for t in gpu gpu-setup; do
    log "$t tests"
    PHASELINE_REQUIRE_GPU=1 "$HERE/bin/$t-tests" --include-ignored --test-threads=1 --nocapture >"$OUT/$t-tests.log" 2>&1
    rc=$?
    log "$t tests rc=$rc: $(grep 'test result' "$OUT/$t-tests.log" | tail -n 1)"
    [ $rc = 0 ] || fails=$((fails + 1))
  done
fi

# The shipped config with this host's parameter cache and the bundle's
# runners as variants: `cuda-V` per bundle variant, `cpu-V` on the CPU backend.
mkdir -p "$PARAMS_DIR"
CFG="$OUT/phaseline.toml"
sed "s|^params_dir = .*|params_dir = \"$PARAMS_DIR\"|" "$HERE/phaseline.toml" >"$CFG"
for v in $VARIANTS; do
  printf '\n[runners.cuda-%s]\npath = "%s"\nbackend = "cuda"\n' "$v" "$HERE/bin/phaseline-prover-$v" >>"$CFG"
done
printf '\n[runners.cpu-%s]\npath = "%s"\nbackend = "cpu"\n' "$first" "$HERE/bin/phaseline-prover-$first" >>"$CFG"

# measure NAME REPS WARMUP VARIANT... (circuit and partitions from $c and $p).
measure() {
  local name=$1 reps=$2 warmup=$3
  shift 3
  local args=() v
  for v in "$@"; do args+=(--variant "$v"); done
  [ "${REGENERATE:-0}" = 1 ] && args+=(--regenerate-params)
  log "run $name: $*"
  "$HERE/bin/phaseline" --config "$CFG" run --suite gpu-e2e --circuit "$c" --partitions "$p" \
    --reps "$reps" --warmup "$warmup" --progress lines --out "$OUT/runs/$name" "${args[@]}" >>"$LOG" 2>&1
  local rc=$?
  log "run $name rc=$rc"
  [ $rc = 0 ] || fails=$((fails + 1))
  if [ -f "$OUT/runs/$name/run.json" ]; then
    "$HERE/bin/phaseline" --config "$CFG" report "$OUT/runs/$name" --reference-variant "cuda-$first" \
      --out "$OUT/reports/$name" >>"$LOG" 2>&1 || fails=$((fails + 1))
  fi
}

for c in $CIRCUITS; do
  for p in $PARTS; do
    variants=()
    for v in $VARIANTS; do variants+=("cuda-$v"); done
    measure "$c-x$p" "$REPS" "$WARMUP" "${variants[@]}"
    if [ "$CPU" = 1 ]; then
      measure "cpu-$c-x$p" "$CPU_REPS" "$CPU_WARMUP" "cuda-$first" "cpu-$first"
    fi
  done
done
log "done, failures: $fails"
exit $((fails > 0))
