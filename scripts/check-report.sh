#!/usr/bin/env bash
# Opens an HTML report in headless Chromium (Debian package `chromium`) and fails
# when the page logs anything to the console (a script error, a blocked fetch, a
# Content-Security-Policy violation) or when its charts are not in the rendered DOM.
#
#   scripts/check-report.sh REPORT.html [SCREENSHOT.png] [WIDTHxHEIGHT]
#
# Exit codes: 0 ok, 1 the page has problems, 2 bad usage, 77 chromium is not installed.
set -euo pipefail

html=${1:?usage: scripts/check-report.sh REPORT.html [SCREENSHOT.png] [WIDTHxHEIGHT]}
shot=${2:-}
size=${3:-1200x4000}
[ -f "$html" ] || { echo "check-report: no such file: $html" >&2; exit 2; }
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "SKIP: chromium is not installed (apt-get install -y chromium)"; exit 77; }

url="file://$(cd "$(dirname "$html")" && pwd)/$(basename "$html")"
profile=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$profile" "$work"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
  --disable-sync --no-first-run --disable-default-apps --user-data-dir="$profile"
  --enable-logging=stderr --v=0 --window-size="${size/x/,}")

# 1. the rendered DOM, with every console message on stderr
timeout 120 "$browser" "${flags[@]}" --dump-dom "$url" >"$work/dom.html" 2>"$work/dom.log" || {
  echo "check-report: chromium failed to render $html" >&2; tail -20 "$work/dom.log" >&2; exit 1; }

# 2. a screenshot for a person to look at
if [ -n "$shot" ]; then
  timeout 120 "$browser" "${flags[@]}" --screenshot="$(realpath -m "$shot")" "$url" >/dev/null 2>"$work/shot.log" || {
    echo "check-report: chromium failed to take a screenshot" >&2; tail -20 "$work/shot.log" >&2; exit 1; }
  [ -s "$shot" ] || { echo "check-report: no screenshot written to $shot" >&2; exit 1; }
fi

status=0
# Console messages are logged as `CONSOLE(...)` lines; the report has no script, so any is a fault.
if grep -h -E 'CONSOLE|Uncaught|Refused to|Failed to load|net::ERR_' "$work"/*.log >"$work/problems.txt"; then
  echo "check-report: the page logged problems:" >&2
  cat "$work/problems.txt" >&2
  status=1
fi
svgs=$(grep -o '<svg ' "$work/dom.html" | wc -l)
want=$(grep -o '<svg ' "$html" | wc -l)
if [ "$svgs" -lt 1 ] || [ "$svgs" -ne "$want" ]; then
  echo "check-report: the rendered page has $svgs charts, the file has $want" >&2
  status=1
fi
grep -q '<h1>phaseline report' "$work/dom.html" || { echo "check-report: no report heading in the DOM" >&2; status=1; }
if [ "$status" -eq 0 ]; then
  echo "check-report: ok: $html renders with $svgs charts and no console messages${shot:+, screenshot $shot}"
fi
exit "$status"
