#!/usr/bin/env bash
# Issue 32's hostile folder: 100,000 files in one folder, analysed by the `memdiag` command
# from a folder and from a zip, with `--format json` and the text report. Not a test: it
# prints times (wall, and user + system from /usr/bin/time, the steadier figure on a shared
# machine) and says when the zip's report is not the folder's, byte for byte.
#
#   bash scripts/bench-one-folder.sh [VARIANTS] [RUNS] [FILES]
#       VARIANTS  comma-separated, default rules,paths,memory:
#                 rules   the project's .claude/rules/ holds FILES rules of one line
#                 paths   the same, each rule conditional (`paths: src/m<i>/**/*.ts`)
#                 memory  the project's memory folder holds FILES topic files, indexed
#       RUNS      default 3 (medians)
#       FILES     default 100000
#   MEMDIAG_BENCH_TREES=DIR  keep the trees in DIR (written once, reused when there)
#   MEMDIAG_BASELINE=FILE    also time another build of memdiag, interleaved
#   MEMDIAG_BIN=FILE         time this build instead of building the release one
set -euo pipefail
cd "$(dirname "$0")/.."
variants="${1:-rules,paths,memory}"
runs="${2:-3}"
count="${3:-100000}"
trees="${MEMDIAG_BENCH_TREES:-}"
if [ -z "$trees" ]; then
  trees="$(mktemp -d /tmp/memdiag-one-folder-XXXXXX)"
  trap 'rm -rf "$trees"' EXIT
fi
memdiag="${MEMDIAG_BIN:-}"
if [ -z "$memdiag" ]; then
  cargo build --release -q -p memdiag-core --features cli
  memdiag="${CARGO_TARGET_DIR:-target}/release/memdiag"
  [ "${memdiag:0:1}" = / ] || memdiag="$PWD/$memdiag"
fi

# Writes the variant's tree under $trees/<variant>-<count>/home/bench (and its zip).
write_tree() {
  local variant="$1" root="$trees/$1-$count"
  [ -f "$root/done" ] && return
  rm -rf "$root"
  python3 - "$variant" "$root/home/bench" "$count" <<'EOF'
import os, sys
variant, home, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
project = f"{home}/work/app"
os.makedirs(f"{home}/.claude", exist_ok=True)
os.makedirs(project, exist_ok=True)
open(f"{project}/CLAUDE.md", "w").write("project\n")
if variant in ("rules", "paths"):
    folder = f"{project}/.claude/rules"
    os.makedirs(folder, exist_ok=True)
    for i in range(count):
        with open(f"{folder}/r{i}.md", "w") as f:
            if variant == "paths":
                f.write(f"---\npaths: src/m{i}/**/*.ts\n---\nrule {i}\n")
            else:
                f.write(f"rule {i}\n")
elif variant == "memory":
    folder = f"{home}/.claude/projects/-home-bench-work-app/memory"
    os.makedirs(folder, exist_ok=True)
    index = []
    for i in range(count):
        with open(f"{folder}/m{i}.md", "w") as f:
            f.write(f"---\nname: m{i}\ndescription: note {i}\ntype: project\n---\nnote {i}\n")
        if i < 150:
            index.append(f"- [m{i}](m{i}.md) — note {i}")
    open(f"{folder}/MEMORY.md", "w").write("\n".join(index) + "\n")
else:
    sys.exit(f"unknown variant {variant}")
EOF
  (cd "$root/home/bench" && zip -qr "$root/home.zip" .)
  touch "$root/done"
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

baseline="${MEMDIAG_BASELINE:-}"
printf '| variant | source | format | wall s | user s | sys s | base wall s | base user s | same | load |\n|---|---|---|---:|---:|---:|---:|---:|---|---|\n'
for variant in ${variants//,/ }; do
  write_tree "$variant"
  root="$trees/$variant-$count"
  for source in folder zip; do
    local_root="$root/home/bench"
    [ "$source" = zip ] && local_root="$root/home.zip"
    args=(--home /home/bench --project /home/bench/work/app --mount "/home/bench=$local_root" --today 2026-12-07)
    for format in json text; do
      wall=(); user=(); sys=(); bwall=(0); buser=(0)
      [ -n "$baseline" ] && bwall=() && buser=()
      for _ in $(seq "$runs"); do
        if [ -n "$baseline" ]; then
          /usr/bin/time -f '%e %U %S' -o "$trees/time" "$baseline" "${args[@]}" --format "$format" > "$trees/base.$format" || true
          read -r w u _ < "$trees/time"; bwall+=("$w"); buser+=("$u")
        fi
        /usr/bin/time -f '%e %U %S' -o "$trees/time" "$memdiag" "${args[@]}" --format "$format" > "$trees/$source.$format" || true
        read -r w u s < "$trees/time"; wall+=("$w"); user+=("$u"); sys+=("$s")
      done
      same=-
      [ "$source" = zip ] && same=$(cmp -s "$trees/folder.$format" "$trees/zip.$format" && echo "zip = folder" || echo "zip ≠ folder")
      [ -n "$baseline" ] && same="$same, base $(cmp -s "$trees/base.$format" "$trees/$source.$format" && echo = || echo ≠)"
      printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$variant" "$source" "$format" \
        "$(printf '%s\n' "${wall[@]}" | median)" "$(printf '%s\n' "${user[@]}" | median)" \
        "$(printf '%s\n' "${sys[@]}" | median)" "$(printf '%s\n' "${bwall[@]}" | median)" \
        "$(printf '%s\n' "${buser[@]}" | median)" "$same" "$(cut -d' ' -f1-3 /proc/loadavg)"
    done
  done
done
