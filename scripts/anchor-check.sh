#!/usr/bin/env bash
# Format, lint and test the supraseal anchor (anchors/supraseal), which lives
# outside the root workspace. Needs nvcc (see docs/anchors.md), no GPU: the GPU
# test is ignored without one (run it with `-- --ignored` on a GPU host).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/anchor-env.sh
source "$root/scripts/anchor-env.sh"
anchor_cuda_env || exit 2
cd "$root/anchors/supraseal"
cargo fmt --check
cargo clippy --release --locked --all-targets -- -D warnings
# A test binary may keep a reference into the driver stub (anchor-env.sh).
LD_LIBRARY_PATH="${ANCHOR_LINK_STUB:+$ANCHOR_LINK_STUB:}${LD_LIBRARY_PATH:-}" cargo test --release --locked
