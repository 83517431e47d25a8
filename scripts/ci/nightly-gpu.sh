#!/usr/bin/env bash
# GPU job of the nightly GPU workflow (.github/workflows/nightly-gpu.yml): runs
# inside the unpacked bundle of scripts/ci/nightly-build.sh, with no cargo.
# Keeps the directories named in NIGHTLY_KEEP (the stored baselines, the
# history) in STATE_DIR, which the workflow restores from and saves to the
# runner's cache; runs `phaseline nightly`; appends compare.md to the job
# summary; exits with the nightly's code and says what it means.
#
#   scripts/ci/nightly-gpu.sh OUT_DIR [STATE_DIR]
#
# Environment:
#   NIGHTLY_ARGS  arguments of `phaseline nightly` (default: the GPU night,
#                 "--suite gpu-e2e --variant gpu --variant gpu-all --require-gpu --baseline nightly-gpu")
#   NIGHTLY_KEEP  directories kept in STATE_DIR (default: "baselines history")
#   GITHUB_STEP_SUMMARY  where compare.md goes (set by GitHub Actions)
# Exit codes: 0 no regression, 1 regression, 2 error (as `phaseline nightly`).
set -uo pipefail
out="${1:?usage: nightly-gpu.sh OUT_DIR [STATE_DIR]}"
state="${2:-}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
case "$state" in /* | "") ;; *) state="$PWD/$state" ;; esac
cd "$(dirname "$0")/../.." || exit 2
harness=target/release/phaseline
if [ ! -x "$harness" ]; then
  echo "::error title=nightly error::no harness binary at $harness: is this an unpacked bundle?"
  exit 2
fi
if [ -n "$state" ]; then
  read -r -a keep <<< "${NIGHTLY_KEEP:-baselines history}"
  for d in "${keep[@]}"; do
    mkdir -p "$state/$d" || exit 2
    rm -rf "$d" && ln -s "$state/$d" "$d" || exit 2
  done
fi
read -r -a args <<< "${NIGHTLY_ARGS:---suite gpu-e2e --variant gpu --variant gpu-all --require-gpu --baseline nightly-gpu}"
"$harness" nightly "${args[@]}" --out "$out"
rc=$?
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    echo "## Nightly (exit $rc)"
    if [ -f "$out/compare.md" ]; then cat "$out/compare.md"; else echo "No comparison was written; see the job log."; fi
  } >> "$GITHUB_STEP_SUMMARY"
fi
case "$rc" in
  0) echo "nightly: no regression" ;;
  1) echo "::error title=nightly regression::exit 1: at least one phase regressed; compare.md is in the job summary, nightly.json (next steps) in the report artifact" ;;
  2) echo "::error title=nightly error::exit 2: the night could not be judged (bad input, no GPU, failed runs or an unreadable baseline); see the log above" ;;
  *) echo "::error title=nightly error::exit $rc: the nightly was stopped (a signal?)" ;;
esac
exit "$rc"
