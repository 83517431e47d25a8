#!/usr/bin/env bash
# Builds, on a machine without a GPU, everything a GPU host without a Rust
# toolchain needs: the runner once per GPU feature set and the GPU test
# binary, all with `--features cuda`, the harness (`phaseline`) and its
# config, debug info stripped, in one folder with a run script.
#
#   scripts/gpu-bundle.sh [DIR]            (default: target/gpu-bundle)
#   GPU_BUNDLE_VARIANTS="off all" scripts/gpu-bundle.sh   (subset of variants)
#
# Variants: off (cuda only), pin, par-bg2, window-tune, all (the three on).
# On the GPU host: DIR/run-all.sh RESULTS_DIR  (see the script for options).
# Needs nvcc at build time (docs/gpu.md).
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-target/gpu-bundle}
VARIANTS=${GPU_BUNDLE_VARIANTS:-"off pin par-bg2 window-tune all"}
TARGET=${CARGO_TARGET_DIR:-target}
rm -rf "$DIR"
mkdir -p "$DIR/bin"

features_of() {
  case "$1" in
    off) echo cuda ;;
    all) echo cuda,pin,par-bg2,window-tune ;;
    pin | par-bg2 | window-tune) echo "cuda,$1" ;;
    *) echo "unknown variant: $1" >&2; exit 2 ;;
  esac
}

for v in $VARIANTS; do
  f=$(features_of "$v")
  cargo build --release --features "$f" --bin phaseline-prover
  strip --strip-debug -o "$DIR/bin/phaseline-prover-$v" "$TARGET/release/phaseline-prover"
  "$DIR/bin/phaseline-prover-$v" info --json >"$DIR/bin/phaseline-prover-$v.info.json"
done

scripts/gpu-test-binaries.sh "$DIR/bin"
cargo build --release -p phaseline --bin phaseline
strip --strip-debug -o "$DIR/bin/phaseline" "$TARGET/release/phaseline"
cp phaseline.toml "$DIR/phaseline.toml"
cp scripts/gpu-run-all.sh "$DIR/run-all.sh"
chmod +x "$DIR/run-all.sh"
size=$(du -sb "$DIR" | cut -f1)
echo "bundle: $DIR ($((size / 1048576)) MiB)"
if [ "$size" -ge $((64 * 1048576)) ]; then
  echo "bundle is over 64 MiB" >&2
  exit 1
fi
