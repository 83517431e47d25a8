#!/usr/bin/env bash
# Builds, on a machine without a GPU, the folder scripts/h200-setup.sh runs
# from on a GPU host: the runner with `--features cuda`, the harness
# (`phaseline`) and its config, the GPU test binaries (tests/gpu_setup.rs,
# tests/gpu.rs) and the script, debug info stripped, under 64 MiB.
#
#   scripts/h200-setup-bundle.sh [DIR]     (default: target/h200-setup-bundle)
#
# Needs nvcc (docs/gpu.md).
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-target/h200-setup-bundle}
TARGET=${CARGO_TARGET_DIR:-target}
mkdir -p "$DIR"
cargo build --release --locked --features cuda --bin phaseline-prover
strip --strip-debug -o "$DIR/phaseline-prover" "$TARGET/release/phaseline-prover"
cargo build --release --locked -p phaseline --bin phaseline
strip --strip-debug -o "$DIR/phaseline" "$TARGET/release/phaseline"
cp phaseline.toml "$DIR/phaseline.toml"
scripts/gpu-test-binaries.sh "$DIR" --locked
cp scripts/h200-setup.sh "$DIR/h200-setup.sh"
chmod +x "$DIR/h200-setup.sh"
size=$(du -sb "$DIR" | cut -f1)
echo "bundle: $DIR ($((size / 1048576)) MiB)"
if [ "$size" -ge $((64 * 1048576)) ]; then
    echo "bundle is over 64 MiB" >&2
    exit 1
fi
