#!/usr/bin/env bash
# Nightly detection trials: does `phaseline nightly` catch a slowdown planted
# in the code of a candidate checkout, and does it stay quiet on A/A nights?
# Each trial is one night: the candidate checkout's runners measured
# interleaved with the reference checkout's (the same-sitting reference, from
# the shared runner cache), against a baseline saved by a first night in the
# reference checkout. A/A nights run in the reference checkout itself.
#
# usage: scripts/nightly-trials.sh REF_CHECKOUT CAND_CHECKOUT TRIALS OUT_DIR [NIGHTLY OPTIONS...]
#   e.g. scripts/nightly-trials.sh . ../plant 20 /tmp/trials --suite synth --circuit small
# env:   PHASELINE   the harness binary (default REF_CHECKOUT/target/release/phaseline)
#        PHASE=NAME  also report, per night, that phase's ratio and 95% interval
#                    (the widest-moving variant and case), from compare.json
#        LOAD=1      run `cargo build` of the workspace in a loop beside the
#                    nights (its own target directory, its own process group,
#                    ended by id afterwards)
# Both checkouts' runners must be in REF_CHECKOUT's runner cache (or buildable).
# Output: one CSV line per night: kind, trial, exit, regressed rows, settle
# rounds, undecided rows, wall seconds (and with PHASE, that phase's ratio,
# interval and verdict).
set -euo pipefail
ref=$(cd "$1" && pwd) cand=$(cd "$2" && pwd) trials=$3 out=$4
shift 4
opts=("$@")
bin=${PHASELINE:-$ref/target/release/phaseline}
mkdir -p "$out"
cache=$ref/target/phaseline-runners
mkdir -p "$cand/target" "$ref/params"
[ -e "$cand/target/phaseline-runners" ] || ln -s "$cache" "$cand/target/phaseline-runners"
[ -e "$cand/params" ] || ln -s "$ref/params" "$cand/params"
name="trial-$$"
load_pid=
cleanup() {
  if [ -n "$load_pid" ]; then kill -TERM -- "-$load_pid" 2>/dev/null || true; wait "$load_pid" 2>/dev/null || true; fi
  rm -f "$ref/baselines/"*"/$name.json" "$cand/baselines/"*"/$name.json"
}
trap cleanup EXIT
night() { # DIR TAG
  local s rc
  s=$(date +%s)
  set +e
  (cd "$1" && "$bin" nightly --baseline "$name" --progress quiet --out "$out/$2" "${opts[@]}") >"$out/$2.log" 2>&1
  rc=$?
  set -e
  PHASE=${PHASE:-} python3 - "$out/$2" "$2" "$rc" "$(( $(date +%s) - s ))" <<'PY'
import json, os, sys
night, tag, rc, wall = sys.argv[1:]
phase = os.environ["PHASE"]
try:
    n = json.load(open(f"{night}/nightly.json"))
except Exception as e:
    print(f"{tag.split('-')[0]},{tag},{rc},no nightly.json ({e}),,,{wall}"); sys.exit()
regs = " ".join(f"{r['variant']}/{r['phase']}" for r in n["regressions"])
s = n.get("settle") or {}
line = f"{tag.split('-')[0]},{tag},{rc},{regs},{s.get('rounds','')},{len(s.get('undecided', []))},{wall}"
if phase:
    try:
        rows = [r for r in json.load(open(f"{night}/compare.json"))["rows"] if r["phase"] == phase]
        r = max(rows, key=lambda r: abs(r["ratio"] - 1))
        line += f",{r['ratio']:.4f},{r['ci_low']:.4f},{r['ci_high']:.4f},{r['verdict']}"
    except Exception as e:
        line += f",no {phase} row ({e}),,,"
print(line)
PY
}
# The baseline: a first night in the reference checkout.
(cd "$ref" && "$bin" nightly --baseline "$name" --progress quiet --out "$out/base" "${opts[@]}") >"$out/base.log" 2>&1
for f in "$ref"/baselines/*/"$name.json"; do
  mkdir -p "$cand/$(dirname "${f#"$ref"/}")"
  cp "$f" "$cand/${f#"$ref"/}"
done
if [ "${LOAD:-0}" = 1 ]; then
  setsid bash -c "while true; do cargo build --release --workspace --target-dir '$out/load-target' -q >/dev/null 2>&1; rm -rf '$out/load-target/release/.fingerprint'; done" &
  load_pid=$!
  sleep 20
fi
header="kind,trial,exit,regressed,settle_rounds,undecided,wall_s"
[ -z "${PHASE:-}" ] || header="$header,${PHASE}_ratio,${PHASE}_ci_low,${PHASE}_ci_high,${PHASE}_verdict"
echo "$header"
for i in $(seq 1 "$trials"); do
  night "$cand" "plant-$i"
  night "$ref" "aa-$i"
done
