#!/usr/bin/env bash
# Builds the supraseal anchor (anchors/supraseal) into a folder that runs on a
# GPU host without a Rust toolchain or CUDA toolkit: one stripped binary with
# the CUDA runtime linked statically (only the NVIDIA driver is needed there).
#
# usage: scripts/anchor-bundle.sh [--with-runner] [OUT_DIR]
#   OUT_DIR        default: dist/anchor-supraseal
#   --with-runner  also bundle a stripped `phaseline-prover` (CPU build), which
#                  makes the parameter files the anchor reads (`setup`).
# nvcc: $NVCC, else nvcc on PATH, else $CUDA_PATH/bin/nvcc. Honours CARGO_TARGET_DIR.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
with_runner=0
out=""
for a in "$@"; do
    case "$a" in
        --with-runner) with_runner=1 ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        -*) echo "anchor-bundle: unknown option $a" >&2; exit 2 ;;
        *) out="$a" ;;
    esac
done
out="${out:-$root/dist/anchor-supraseal}"

# shellcheck source=scripts/anchor-env.sh
source "$root/scripts/anchor-env.sh"
anchor_cuda_env || exit 2

manifest="$root/anchors/supraseal/Cargo.toml"
target="${CARGO_TARGET_DIR:-$root/anchors/supraseal/target}"
cargo build --release --locked --manifest-path "$manifest"
bin="$target/release/phaseline-anchor-supraseal"

if ldd "$bin" 2>/dev/null | grep -q 'libcudart'; then
    echo "anchor-bundle: $bin links the CUDA runtime dynamically; expected static cudart" >&2
    exit 2
fi

if readelf -d "$bin" | grep -q 'libphaseline-nocuda'; then
    echo "anchor-bundle: $bin needs the link-time driver stub; it must not call neptune's CUDA code" >&2
    exit 2
fi

mkdir -p "$out"
tmp="$out/.phaseline-anchor-supraseal.tmp$$"
strip -o "$tmp" "$bin"
mv -f "$tmp" "$out/phaseline-anchor-supraseal"

if [[ $with_runner == 1 ]]; then
    rtarget="${CARGO_TARGET_DIR:-$root/target}"
    cargo build --release --locked --manifest-path "$root/Cargo.toml" --bin phaseline-prover
    strip -o "$tmp" "$rtarget/release/phaseline-prover"
    mv -f "$tmp" "$out/phaseline-prover"
fi

cp "$root/scripts/anchor-gpu-run.sh" "$out/anchor-gpu-run.sh"
"$out/phaseline-anchor-supraseal" info > "$out/.info.json.tmp$$"
mv -f "$out/.info.json.tmp$$" "$out/anchor-info.json"
(cd "$out" && sha256sum phaseline-* > SHA256SUMS)

size_kib=$(du -sk "$out" | cut -f1)
if (( size_kib > 64 * 1024 )); then
    echo "anchor-bundle: bundle is ${size_kib} KiB, over the 64 MiB limit" >&2
    exit 2
fi
echo "anchor bundle ready in $out (${size_kib} KiB)"
