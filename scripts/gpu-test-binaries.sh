#!/usr/bin/env bash
# Builds the GPU test binaries (tests/gpu.rs, tests/gpu_setup.rs) with
# `--features cuda` and copies each, debug info stripped, to DEST/<name>-tests
# (gpu-tests, gpu-setup-tests). Used by the GPU bundle scripts.
#
#   scripts/gpu-test-binaries.sh DEST [CARGO OPTIONS...]
set -euo pipefail
dest=$1
shift
mkdir -p "$dest"
for t in gpu gpu_setup; do
  exe=$(cargo test --release "$@" --features cuda --test "$t" --no-run --message-format=json | T="$t" python3 -c '
import json, os, sys
for line in sys.stdin:
    m = json.loads(line)
    t = m.get("target", {})
    if m.get("reason") == "compiler-artifact" and t.get("name") == os.environ["T"] and "test" in t.get("kind", []):
        print(m.get("executable") or "")
')
  if [ -z "$exe" ]; then
    echo "could not find the GPU test binary $t" >&2
    exit 2
  fi
  strip --strip-debug -o "$dest/$(echo "$t" | tr _ -)-tests" "$exe"
done
