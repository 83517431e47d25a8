#!/usr/bin/env bash
# Delay trials with the delay given as a share of the phase's median on this
# host: one A/A run (two variants of identical features, REPS each) measures
# PHASE's median, then scripts/delay-trials.sh runs TRIALS trials with a delay
# of PCT percent of it and TRIALS without. For hosts without cargo, pass a
# prebuilt runner: `--runner PATH` (and PHASELINE=path/to/phaseline).
#
# usage: scripts/delay-trials-pct.sh SUITE CIRCUIT PHASE PCT TRIALS REPS OUTDIR [RUN OPTIONS...]
# Writes OUTDIR/aa (the A/A run), OUTDIR/trials.csv, OUTDIR/delay.txt.
set -euo pipefail
suite=$1 circuit=$2 phase=$3 pct=$4 trials=$5 reps=$6 outdir=$7
shift 7
here=$(cd "$(dirname "$0")" && pwd)
bin=${PHASELINE:-target/release/phaseline}
mkdir -p "$outdir"
"$bin" run --suite "$suite" --circuit "$circuit" --reps "$reps" --variant ref= --variant slow= \
  --progress quiet --out "$outdir/aa" "$@" >"$outdir/aa.txt" 2>&1
median=$(awk -F, -v p="$phase" 'NR > 1 && $3 == "ref" && $8 == p { print $11 }' "$outdir/aa/summary.csv")
if [ -z "$median" ]; then
  echo "phase $phase not found in $outdir/aa/summary.csv" >&2
  exit 2
fi
ms=$(awk -v m="$median" -v p="$pct" 'BEGIN { printf "%.3f", m * p / 100 }')
echo "phase $phase median $median ms; delay $pct% = $ms ms" | tee "$outdir/delay.txt"
TRIALS_DIR="$outdir/runs" PHASELINE="$bin" "$here/delay-trials.sh" "$suite" "$circuit" "$phase" "$ms" \
  "$trials" "$reps" "$@" | tee "$outdir/trials.csv"
