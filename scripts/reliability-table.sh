#!/usr/bin/env bash
# Regenerates docs/reliability.md: runs every bad input and fault of
# harness/tests/reliability.rs through `phaseline` and writes the table.
set -euo pipefail
cd "$(dirname "$0")/.."
PHASELINE_RELIABILITY_DOC="$PWD/docs/reliability.md" \
  cargo test --release -p phaseline --test reliability -- --nocapture "$@"
