#!/usr/bin/env bash
# Does host work inside the MSM spans set their spread on a GPU host? Proves
# `medium` 30 times in one process under each condition and writes the
# records to OUT_DIR/<condition>.jsonl:
#   plain        as a night runs it
#   pool1/pool4  sppark's per-GPU host thread pool cut to 1 or 4 threads
#                (SPPARK_GPU_T_AFFINITY, a CPU mask): if the MSM spans grow
#                with fewer threads, host work (sppark's bucket-row sums) is
#                inside them
#   spin         16 busy loops at nice 19 beside the runner (their own process
#                group, ended by id): how much CPU contention reaches the spans
# then 8 processes of one warm-up and 3 proofs each (as `gpu-e2e` samples), quiet
# and with the busy loops, to OUT_DIR/proc-<tag>-<i>.jsonl.
#
# usage: scripts/gpu-msm-host-diag.sh RUNNER PARAMS_DIR OUT_DIR [TAG]
#   RUNNER: a cuda runner (`target/phaseline-runners/<fingerprint>/phaseline-prover`)
# Summarize with scripts/gpu-msm-host-table.py OUT_DIR.
set -euo pipefail
runner=$1 params=$2 out=$3 tag=${4:-gpu}
mkdir -p "$params" "$out"
spin_pg=
spin_on() {
  # With job control on, a background job is its own process group (its id = its pid).
  set -m
  bash -c 'for i in $(seq "$(nproc)"); do nice -n 19 bash -c "while :; do :; done" & done; wait' &
  spin_pg=$!
  set +m
  sleep 0.5
}
spin_off() {
  kill -- "-$spin_pg" 2>/dev/null || true
  wait "$spin_pg" 2>/dev/null || true
  spin_pg=
}
trap '[ -n "$spin_pg" ] && spin_off' EXIT
prove() { # FILE [REPS WARMUP]
  "$runner" prove --backend cuda --circuit medium --reps "${2:-30}" --warmup "${3:-2}" \
    --params-dir "$params" --json "$1" > /dev/null
}
prove "$out/warm-up.jsonl" 1 0
prove "$out/$tag.jsonl"
SPPARK_GPU_T_AFFINITY=0xf0 prove "$out/$tag-pool4.jsonl"
SPPARK_GPU_T_AFFINITY=0x2 prove "$out/$tag-pool1.jsonl"
spin_on; prove "$out/$tag-spin.jsonl"; spin_off
for i in 1 2 3 4 5 6 7 8; do prove "$out/proc-$tag-$i.jsonl" 3 1; done
spin_on
for i in 1 2 3 4 5 6 7 8; do prove "$out/proc-$tag-spin-$i.jsonl" 3 1; done
spin_off
