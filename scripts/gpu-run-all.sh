#!/usr/bin/env bash
# Runs on a GPU host from a bundle made by scripts/gpu-bundle.sh: the GPU
# tests for real (a missing device is a failure here), then a measurement
# matrix, writing everything under RESULTS_DIR:
#   gpu-tests.log, gpu-setup-tests.log, results.jsonl (every record, appended), run.log (appended),
#   nvidia-smi.txt
#
#   ./run-all.sh RESULTS_DIR
# Options (environment): TESTS=0 skips the tests; CIRCUITS ("small medium"),
# PARTS ("1 10"), VARIANTS (the bundle's, "off pin par-bg2 window-tune all"),
# REPS (3), WARMUP (1), CPU=1 adds the CPU backend (first variant, `off` by default) with
# CPU_REPS / CPU_WARMUP (default REPS / WARMUP), PARAMS_DIR (a scratch folder
# for the parameter cache), SETUP=0 to reuse the parameters already there.
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
  # "off" first: it also runs setup and the CPU backend.
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

run() { # variant backend circuit parts reps warmup
  local v=$1 be=$2 c=$3 p=$4 j="$OUT/rec.tmp"
  rm -f "$j"
  local t0=$(date +%s.%N)
  "$HERE/bin/phaseline-prover-$v" prove --backend "$be" --circuit "$c" --partitions "$p" \
    --reps "$5" --warmup "$6" --params-dir "$PARAMS_DIR" --json "$j" >>"$LOG" 2>&1
  local rc=$?
  local t1=$(date +%s.%N)
  [ -f "$j" ] && cat "$j" >>"$OUT/results.jsonl"
  rm -f "$j"
  log "prove $v $be $c x$p rc=$rc wall=$(awk "BEGIN{print $t1 - $t0}")s"
  [ $rc = 0 ] || fails=$((fails + 1))
}

for c in $CIRCUITS; do
  if [ "${SETUP:-1}" = 1 ]; then
    t0=$(date +%s)
    "$HERE/bin/phaseline-prover-$first" setup --circuit "$c" --params-dir "$PARAMS_DIR" \
      --json "$OUT/setup.tmp" >>"$LOG" 2>&1 \
      || { log "setup $c failed"; fails=$((fails + 1)); continue; }
    [ -f "$OUT/setup.tmp" ] && cat "$OUT/setup.tmp" >>"$OUT/results.jsonl"
    rm -f "$OUT/setup.tmp"
    log "setup $c done in $(($(date +%s) - t0))s"
  fi
  for p in $PARTS; do
    for v in $VARIANTS; do
      run "$v" cuda "$c" "$p" "$REPS" "$WARMUP"
    done
    if [ "$CPU" = 1 ]; then
      run "$first" cpu "$c" "$p" "$CPU_REPS" "$CPU_WARMUP"
    fi
  done
done
log "done, failures: $fails"
exit $((fails > 0))
