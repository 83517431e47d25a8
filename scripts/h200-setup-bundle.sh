#!/usr/bin/env bash
# Builds, on a machine without a GPU, the folder scripts/h200-setup.sh runs
# from on a GPU host: the runner with `--features cuda`, the GPU test
# binaries (tests/gpu_setup.rs, tests/gpu.rs) and the script, debug info
# stripped, under 64 MiB.
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
for t in gpu_setup gpu; do
    exe=$(cargo test --release --locked --features cuda --test "$t" --no-run --message-format=json | python3 -c '
import json, sys
want = sys.argv[1]
for line in sys.stdin:
    m = json.loads(line)
    t = m.get("target", {})
    if m.get("reason") == "compiler-artifact" and t.get("name") == want and "test" in t.get("kind", []):
        print(m.get("executable") or "")
' "$t")
    if [ -z "$exe" ]; then
        echo "could not find the test binary $t" >&2
        exit 2
    fi
    strip --strip-debug -o "$DIR/${t//_/-}-tests" "$exe"
done
cp scripts/h200-setup.sh "$DIR/h200-setup.sh"
chmod +x "$DIR/h200-setup.sh"
size=$(du -sb "$DIR" | cut -f1)
echo "bundle: $DIR ($((size / 1048576)) MiB)"
if [ "$size" -ge $((64 * 1048576)) ]; then
    echo "bundle is over 64 MiB" >&2
    exit 1
fi
