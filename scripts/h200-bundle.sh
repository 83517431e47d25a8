#!/usr/bin/env bash
# Builds, on a machine without a GPU, the folder that scripts/h200-matrix.sh
# runs from on a GPU host: the runner once per GPU feature set (`off` = cuda
# only, `pin`, `par-bg2`, `window-tune`, `all` = the three), the runner with
# no features at all (`cpu`: our CPU backend, bellperson's prover, setup), and
# the supraseal-c2 anchor; all stripped, under 64 MiB.
#
#   scripts/h200-bundle.sh [DIR]        (default: target/h200-bundle)
#
# Needs nvcc (docs/gpu.md). CARGO_TARGET_DIR is used for the runner builds,
# ANCHOR_TARGET_DIR (default anchors/supraseal/target) for the anchor's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
DIR=${1:-target/h200-bundle}
TARGET=${CARGO_TARGET_DIR:-target}
mkdir -p "$DIR"
for v in off pin par-bg2 window-tune all cpu; do
    case $v in
        off) f=(--features cuda) ;;
        all) f=(--features cuda,pin,par-bg2,window-tune) ;;
        cpu) f=() ;;
        *) f=(--features "cuda,$v") ;;
    esac
    cargo build --release --locked "${f[@]}" --bin phaseline-prover
    strip --strip-debug -o "$DIR/phaseline-prover-$v.tmp" "$TARGET/release/phaseline-prover"
    mv -f "$DIR/phaseline-prover-$v.tmp" "$DIR/phaseline-prover-$v"
done
# shellcheck source=scripts/anchor-env.sh
source scripts/anchor-env.sh
anchor_cuda_env || exit 2
atarget=${ANCHOR_TARGET_DIR:-anchors/supraseal/target}
CARGO_TARGET_DIR=$atarget cargo build --release --locked --manifest-path anchors/supraseal/Cargo.toml
strip -o "$DIR/phaseline-anchor-supraseal.tmp" "$atarget/release/phaseline-anchor-supraseal"
mv -f "$DIR/phaseline-anchor-supraseal.tmp" "$DIR/phaseline-anchor-supraseal"
cp scripts/h200-matrix.sh "$DIR/h200-matrix.sh"
size=$(du -sb "$DIR" | cut -f1)
echo "bundle: $DIR ($((size / 1048576)) MiB)"
if [ "$size" -ge $((64 * 1048576)) ]; then
    echo "bundle is over 64 MiB" >&2
    exit 1
fi
