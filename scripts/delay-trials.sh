#!/usr/bin/env bash
# Harness self-test: how often does `phaseline compare` catch a delay injected
# into one phase, and how often does it raise a false alarm without one?
# Each trial is one run with two variants of identical features, `ref` and
# `slow`, interleaved (ref slow ref slow ...); `slow` gets the delay. The
# comparison is `compare RUN --variants ref,slow`.
#
# usage: scripts/delay-trials.sh SUITE CIRCUIT PHASE MS TRIALS REPS [RUN OPTIONS...]
#        (extra options go to `phaseline run`, e.g. --runner for the mock runner)
# env:   PHASELINE (the phaseline binary; default target/release/phaseline)
#        TRIALS_DIR (where the runs are kept; default a new temporary directory)
# Output: one CSV line per trial: exit code of `compare`, the regressed phases,
# and PHASE's median ratio slow/ref with its bootstrap 95% interval.
set -euo pipefail
suite=$1 circuit=$2 phase=$3 ms=$4 trials=$5 reps=$6
shift 6
bin=${PHASELINE:-target/release/phaseline}
out=${TRIALS_DIR:-$(mktemp -d)}
mkdir -p "$out"
echo "kind,trial,exit,regressed_phases,ratio,ci_low,ci_high"
for kind in delay none; do
  for i in $(seq 1 "$trials"); do
    delay=()
    if [ "$kind" = delay ]; then delay=(--inject-delay "slow:$phase=$ms"); fi
    "$bin" run --suite "$suite" --circuit "$circuit" --reps "$reps" --variant ref= --variant slow= \
      --progress quiet --out "$out/$kind-$i" "${delay[@]}" "$@" >/dev/null 2>&1 || { echo "$kind,$i,run-failed,"; continue; }
    set +e
    "$bin" compare "$out/$kind-$i" --variants ref,slow --format csv >"$out/$kind-$i.csv"
    code=$?
    set -e
    regressed=$(awk -F, 'NR > 1 && $20 == "regressed" { printf "%s ", $9 }' "$out/$kind-$i.csv")
    interval=$(awk -F, -v p="$phase" 'NR > 1 && $9 == p { printf "%.4f,%.4f,%.4f", $14, $15, $16 }' "$out/$kind-$i.csv")
    echo "$kind,$i,$code,$regressed,$interval"
  done
done
echo "# runs kept in $out" >&2
