#!/usr/bin/env bash
# The native benchmark of issue 13: the memdiag command against `find` + `cat` of the files
# that matter, on the page benchmark's synthetic trees (a ~/.claude of N entries, mostly
# sparse transcripts, and a project of 0.43 N entries, mostly node_modules/ and dist/).
# Not a test: it prints times, it asserts none (but it says when the lazy listing's report
# is not the whole listing's, byte for byte).
#
#   bash scripts/bench-native.sh [SIZES] [RUNS]     # default: 3000,30000 and 5 runs
#   MEMDIAG_BENCH_TREES=DIR bash scripts/bench-native.sh ...   # reuse trees written before
#                                                   # by bench.mjs --trees-only DIR
#   MEMDIAG_BASELINE=FILE bash scripts/bench-native.sh ...     # also time another build of
#                                                   # memdiag (a copy of main's), interleaved
#
# `find` lists both trees whole and `cat` reads exactly the files the report says were read.
# memdiag lists lazily (only the folders the analysis looks into, and sizes only the files it
# looks at), so it can beat the floor on trees whose bulk is in folders nobody opens. memdiag
# runs from a release build (`cargo build --release -p memdiag-core --features cli`). Each
# figure is the median of RUNS runs; the load average is printed beside it, since the machine
# is shared. "whole" is the same command listing every folder first (MEMDIAG_LIST_WHOLE, the
# command before it listed lazily; it stops at 200,000 entries, so at 300,000 its report
# differs), and "same" says whether its report is byte-identical to the lazy one's.
# With MEMDIAG_BASELINE, "base ms" and "base ratio" are that build's, run between the others,
# and "same" also compares its report with this build's.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes="${1:-3000,30000}"
runs="${2:-5}"
scratch="$(mktemp -d /tmp/memdiag-native-XXXXXX)"
trap 'rm -rf "$scratch"' EXIT

cargo build --release -q -p memdiag-core --features cli
memdiag="${CARGO_TARGET_DIR:-target}/release/memdiag"
trees="${MEMDIAG_BENCH_TREES:-}"
if [ -z "$trees" ]; then
  trees="$scratch"
  NODE_PATH="${NODE_PATH:-$PWD/.tools/node_modules}" node tests/e2e/bench.mjs --files "$sizes" --trees-only "$trees" >&2
fi

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
now() { date +%s%N; }

baseline="${MEMDIAG_BASELINE:-}"
printf '| entries | memdiag ms | find + cat ms | ratio | whole ms | base ms | base ratio | same | files read | load |\n|---:|---:|---:|---:|---:|---:|---:|---|---:|---|\n'
for size in ${sizes//,/ }; do
  home="$trees/tree-$size/home/bench"
  args=(--home /home/bench --project /home/bench/work/app --mount "/home/bench=$home" --format json)
  # The files that matter: every row the report says was read, as local paths.
  "$memdiag" "${args[@]}" > "$scratch/report.json" || true
  MEMDIAG_LIST_WHOLE=1 "$memdiag" "${args[@]}" > "$scratch/whole.json" || true
  same=$(cmp -s "$scratch/report.json" "$scratch/whole.json" && echo yes || echo NO)
  if [ -n "$baseline" ]; then
    "$baseline" "${args[@]}" > "$scratch/base.json" || true
    same="$same/$(cmp -s "$scratch/report.json" "$scratch/base.json" && echo yes || echo NO)"
  fi
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const f of r.files) if (f.size !== null && f.status !== "skipped" && f.path.startsWith("/home/bench/"))
      console.log(process.argv[2] + f.path.slice("/home/bench".length));
  ' "$scratch/report.json" "$home" | sort -u > "$scratch/matter.txt"
  ours=(); floor=(); whole=(); base=(0)
  [ -n "$baseline" ] && base=()
  for _ in $(seq "$runs"); do
    if [ -n "$baseline" ]; then
      t=$(now); "$baseline" "${args[@]}" > /dev/null || true; base+=($(( ($(now) - t) / 1000000 )))
    fi
    t=$(now); "$memdiag" "${args[@]}" > /dev/null || true; ours+=($(( ($(now) - t) / 1000000 )))
    t=$(now); find "$home" -type f > /dev/null; xargs -d '\n' cat < "$scratch/matter.txt" > /dev/null
    floor+=($(( ($(now) - t) / 1000000 )))
    t=$(now); MEMDIAG_LIST_WHOLE=1 "$memdiag" "${args[@]}" > /dev/null || true; whole+=($(( ($(now) - t) / 1000000 )))
  done
  a=$(printf '%s\n' "${ours[@]}" | median); b=$(printf '%s\n' "${floor[@]}" | median)
  w=$(printf '%s\n' "${whole[@]}" | median)
  c=$(printf '%s\n' "${base[@]}" | median)
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$size" "$a" "$b" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f×", (b > 0 ? a / b : 0) }')" "$w" "$c" \
    "$(awk -v a="$c" -v b="$b" 'BEGIN { printf "%.2f×", (b > 0 ? a / b : 0) }')" "$same" \
    "$(wc -l < "$scratch/matter.txt")" "$(cut -d' ' -f1-3 /proc/loadavg)"
done
