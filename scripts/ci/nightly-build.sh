#!/usr/bin/env bash
# Build job of the nightly GPU workflow (.github/workflows/nightly-gpu.yml),
# on a machine with cargo (and nvcc for the cuda runners): builds the harness
# and the variants' runners, then packs what a GPU host without cargo needs
# into one tarball: the checkout's tracked files (the harness recomputes the
# runners' fingerprints from them), the harness binary and the runners just
# built, in their fingerprint-keyed cache. A tarball, not loose files, so the
# executable bits survive the artifact store. docs/ci.md describes the flow.
#
#   scripts/ci/nightly-build.sh BUNDLE.tar.gz
#
# Environment:
#   NIGHTLY_VARIANTS       variants to build (default: "gpu gpu-all")
#   PHASELINE_RUNNERS_DIR  the runner cache, [build] cache_dir (default: target/phaseline-runners)
#   PHASELINE_BIN          use this harness binary instead of building one
# Exit codes: 0 bundle written, 2 any failure.
set -euo pipefail
trap 'echo "::error title=nightly build::the bundle could not be made (line $LINENO)"; exit 2' ERR
bundle="${1:?usage: nightly-build.sh BUNDLE.tar.gz}"
case "$bundle" in /*) ;; *) bundle="$PWD/$bundle" ;; esac
cd "$(dirname "$0")/../.."
read -r -a variants <<< "${NIGHTLY_VARIANTS:-gpu gpu-all}"
runners="${PHASELINE_RUNNERS_DIR:-target/phaseline-runners}"

if [ -n "${PHASELINE_BIN:-}" ]; then
  harness="$PHASELINE_BIN"
else
  cargo build --release -p phaseline --bin phaseline
  harness="${CARGO_TARGET_DIR:-target}/release/phaseline"
fi
build_args=()
for v in "${variants[@]}"; do build_args+=(--variant "$v"); done
# One line per variant: NAME [FEATURES] FINGERPRINT cached|built PATH.
built="$("$harness" build "${build_args[@]}")"
echo "$built"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$stage"
# The bundle has no .git: the harness reads the commit of its runs from this file.
{ git rev-parse HEAD; if [ -n "$(git status --porcelain --untracked-files=no)" ]; then echo dirty; fi; } > "$stage/.phaseline-commit"
mkdir -p "$stage/target/release"
cp "$harness" "$stage/target/release/phaseline"
while read -r line; do
  [ -n "$line" ] || continue
  fp="$(awk '{print $(NF-2)}' <<< "$line")"
  mkdir -p "$stage/$runners"
  cp -R "$runners/$fp" "$stage/$runners/$fp"
done <<< "$built"
# Debug sections are most of a runner's size; the fingerprint is a string and stays.
if command -v strip > /dev/null; then
  find "$stage/$runners" "$stage/target/release" -type f -perm -u+x -exec strip --strip-debug {} \; 2> /dev/null || true
fi
mkdir -p "$(dirname "$bundle")"
tar -czf "$bundle.tmp" -C "$stage" .
mv "$bundle.tmp" "$bundle"
echo "bundle: $bundle ($(du -h "$bundle" | cut -f1))"
