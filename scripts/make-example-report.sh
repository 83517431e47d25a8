#!/usr/bin/env bash
# Regenerates reports/example/ from a real run on this machine: the `tiny`
# preset, synth and end-to-end suites, variants baseline and A1 (smallvec),
# 5 measured repetitions each, then the HTML report, the Markdown summary, the
# CSVs and (when chromium is installed) the headless check with a screenshot.
#
#   scripts/make-example-report.sh
#
# Absolute paths of this machine (the repository, the cargo target directory,
# the temporary run directory) are rewritten in the stored run so the
# checked-in files name none; every timing is left as measured.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
target=${CARGO_TARGET_DIR:-$root/target}
cargo build --release -p phaseline --bin phaseline
bin="$target/release/phaseline"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin" run --suite all --circuit tiny --reps 5 --variant baseline= --variant A1=smallvec \
  --out "$work/run" --progress lines

out=reports/example
rm -rf "$out"
mkdir -p "$out/run"
for f in run.json samples.csv summary.csv; do
  sed -e "s|$work/run|reports/example/run|g" -e "s|$target|\$CARGO_TARGET_DIR|g" \
    -e "s|$root/|./|g" -e "s|$root|.|g" "$work/run/$f" >"$out/run/$f"
done
"$bin" report "$out/run" --out "$out"
if command -v chromium >/dev/null; then
  scripts/check-report.sh "$out/report.html" "$out/screenshot.png" 1200x2200
else
  echo "SKIP: chromium is not installed; no screenshot taken"
fi
du -sh "$out"
