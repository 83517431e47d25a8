#!/usr/bin/env bash
# Builds a folder of prebuilt runners, one per combination of some flags on
# top of a base feature set, for a host without cargo: `phaseline bisect flags
# --runners DIR` takes its variants from such a folder, and `phaseline run
# --variant NAME@DIR/RUNNER` runs any of them. Debug info is stripped; each
# runner's `info --json` is what the harness checks there.
#
#   scripts/prebuilt-runners.sh DIR [FLAG ...]
#     (default flags: pin par-bg2 window-tune; 2^k runners)
#   BASE_FEATURES=cuda (default) is in every runner; nvcc is needed for cuda (docs/gpu.md).
#   CUDA_ARCHS as for any cuda build (default: the build script's).
# Exit codes: 0 written, 2 any failure.
set -euo pipefail
trap 'echo "prebuilt-runners: failed at line $LINENO" >&2; exit 2' ERR
dir="${1:?usage: prebuilt-runners.sh DIR [FLAG ...]}"
shift
flags=("$@")
if [ ${#flags[@]} -eq 0 ]; then flags=(pin par-bg2 window-tune); fi
base="${BASE_FEATURES-cuda}"
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
mkdir -p "$dir"
k=${#flags[@]}
for ((mask = 0; mask < (1 << k); mask++)); do
  feats="$base"
  name="off"
  parts=()
  for ((i = 0; i < k; i++)); do
    if (( mask >> i & 1 )); then
      feats="${feats:+$feats,}${flags[$i]}"
      parts+=("${flags[$i]}")
    fi
  done
  if [ ${#parts[@]} -gt 0 ]; then name="$(IFS=+; echo "${parts[*]}")"; fi
  cargo build --release -p phaseline-prover --bin phaseline-prover --no-default-features --features "$feats"
  strip --strip-debug -o "$dir/.phaseline-prover-$name.tmp" "$target/release/phaseline-prover"
  mv -f "$dir/.phaseline-prover-$name.tmp" "$dir/phaseline-prover-$name"
  echo "runner: $dir/phaseline-prover-$name [$feats]"
done
