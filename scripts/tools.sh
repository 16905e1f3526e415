# shellcheck shell=bash
#
# Tool installer, sourced by scripts/serve.sh and scripts/test.sh (never run on
# its own). Every `ensure_*` function checks first and installs only what is
# missing or at the wrong version, printing one line per tool, for example
#   trunk 0.21.14: present
#   trunk 0.21.14: installing (cargo install trunk --version 0.21.14 --locked) ...
#   trunk 0.21.14: installed in 812s
#
# Only package registries are needed (crates.io, npm, Debian): nothing here
# downloads from GitHub, and Trunk is configured offline (Trunk.toml) so that it
# uses these tools instead of fetching its own.
#
# By hand:  bash -c 'source scripts/tools.sh; ensure_all'

MEMDIAG_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Versions. wasm-bindgen-cli is not listed: it must equal the wasm-bindgen
# crate in Cargo.lock and is read from there. The npm tools (binaryen for
# wasm-opt, playwright-core for the end-to-end test) are pinned exactly in
# scripts/npm/package.json and package-lock.json.
MEMDIAG_TRUNK_VERSION="0.21.14"
MEMDIAG_GECKODRIVER_VERSION="0.37.1"
MEMDIAG_WASM_OPT_VERSION="132"      # keep equal to binaryen in scripts/npm/package.json and Trunk.toml
MEMDIAG_APT_BROWSER_PACKAGES=(chromium chromium-driver firefox-esr)

MEMDIAG_TOOLS_DIR="$MEMDIAG_ROOT/.tools"   # gitignored; holds node_modules from scripts/npm
MEMDIAG_CARGO_BIN="${CARGO_HOME:-$HOME/.cargo}/bin"
export MEMDIAG_CHROMIUM="/usr/bin/chromium"
export MEMDIAG_CHROMEDRIVER="/usr/bin/chromedriver"
export MEMDIAG_FIREFOX="/usr/bin/firefox-esr"
export MEMDIAG_GECKODRIVER="$MEMDIAG_CARGO_BIN/geckodriver"
export MEMDIAG_PLAYWRIGHT="$MEMDIAG_TOOLS_DIR/node_modules/playwright-core"
# The pinned Claude Code (scripts/npm/package.json holds the one pin). npm ci runs with
# --ignore-scripts, so the wrapper's postinstall never copies the native binary over its
# placeholder: the conformance suite runs the platform package's binary directly.
case "$(uname -m)" in
  aarch64 | arm64) _memdiag_claude_arch=arm64 ;;
  *) _memdiag_claude_arch=x64 ;;
esac
export MEMDIAG_CLAUDE="$MEMDIAG_TOOLS_DIR/node_modules/@anthropic-ai/claude-code-linux-$_memdiag_claude_arch/claude"

# Local npm tools first (wasm-opt 132 must shadow any older system wasm-opt),
# then cargo-installed tools (trunk, wasm-bindgen, geckodriver).
case ":$PATH:" in
  *":$MEMDIAG_TOOLS_DIR/node_modules/.bin:$MEMDIAG_CARGO_BIN:"*) ;;
  *) export PATH="$MEMDIAG_TOOLS_DIR/node_modules/.bin:$MEMDIAG_CARGO_BIN:$PATH" ;;
esac

# Nothing below may wait for a keyboard: CI runs with no stdin.
export DEBIAN_FRONTEND=noninteractive
export CARGO_TERM_PROGRESS_WHEN=never
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

_tools_say() { printf '%s\n' "$*"; }
_tools_die() { printf 'tools.sh: %s\n' "$*" >&2; return 1; }

# Runs a command as root: directly when we are root, else through sudo -n.
_tools_as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo -n -E "$@"
  else
    _tools_die "need root (or passwordless sudo) to run: $*"
  fi
}

# _tools_timed LABEL CMD... : runs CMD with stdin closed, then prints
# "LABEL: installed in Ns" or fails with "LABEL: install FAILED".
_tools_timed() {
  local label="$1" start rc
  shift
  start=$(date +%s)
  if "$@" </dev/null; then
    _tools_say "$label: installed in $(($(date +%s) - start))s"
  else
    rc=$?
    _tools_say "$label: install FAILED (exit $rc): $*" >&2
    return "$rc"
  fi
}

# _tools_expect LABEL ACTUAL WANT: after an install, ACTUAL (a `--version`
# line) must be WANT, possibly followed by more words.
_tools_expect() {
  case "$2" in
    "$3" | "$3 "*) return 0 ;;
  esac
  _tools_die "$1: after the install, the version says '${2:-nothing}' (is ${CARGO_HOME:-$HOME/.cargo}/bin first on PATH?)"
}

# " over <what was there>", for the "installing" line.
_tools_replacing() { if [ -n "$1" ]; then printf ' over "%s"' "$1"; fi; }

# The wasm-bindgen version in Cargo.lock (the installed CLI must equal it).
wasm_bindgen_lock_version() {
  awk '
    /^\[\[package\]\]/ { in_wb = 0 }
    /^name = "wasm-bindgen"$/ { in_wb = 1 }
    in_wb && /^version = / { gsub(/"/, "", $3); print $3; exit }
  ' "$MEMDIAG_ROOT/Cargo.lock"
}

# First line of `TOOL --version`, or empty when the tool is missing or broken.
_tools_version_of() {
  command -v "$1" >/dev/null 2>&1 || return 0
  "$1" --version </dev/null 2>/dev/null | head -n 1 || true
}

ensure_rust_components() {
  local missing=()
  cargo fmt --version >/dev/null 2>&1 || missing+=(rustfmt)
  cargo clippy --version >/dev/null 2>&1 || missing+=(clippy)
  if [ "${#missing[@]}" -eq 0 ]; then
    _tools_say "rustfmt + clippy: present"
  else
    _tools_say "${missing[*]}: installing (rustup component add) ..."
    _tools_timed "${missing[*]}" rustup component add "${missing[@]}"
  fi
}

ensure_wasm_target() {
  local sysroot
  sysroot="$(rustc --print sysroot)" || return
  if [ -d "$sysroot/lib/rustlib/wasm32-unknown-unknown/lib" ]; then
    _tools_say "rust target wasm32-unknown-unknown: present"
  else
    _tools_say "rust target wasm32-unknown-unknown: installing (rustup target add) ..."
    _tools_timed "rust target wasm32-unknown-unknown" rustup target add wasm32-unknown-unknown
  fi
}

ensure_trunk() {
  local want="$MEMDIAG_TRUNK_VERSION" have
  have="$(_tools_version_of trunk)"
  if [ "$have" = "trunk $want" ]; then
    _tools_say "trunk $want: present"
    return 0
  fi
  _tools_say "trunk $want: installing (cargo install trunk --version $want --locked, about 15 min cold)$(_tools_replacing "$have") ..."
  _tools_timed "trunk $want" cargo install trunk --version "$want" --locked --force || return
  _tools_expect "trunk $want" "$(_tools_version_of trunk)" "trunk $want"
}

ensure_wasm_bindgen() {
  local want have runner
  want="$(wasm_bindgen_lock_version)"
  [ -n "$want" ] || { _tools_die "no wasm-bindgen package in Cargo.lock"; return 1; }
  have="$(_tools_version_of wasm-bindgen)"
  runner="$(_tools_version_of wasm-bindgen-test-runner)"
  # `wasm-bindgen --version` prints "wasm-bindgen 0.2.130" (newer CLIs may add
  # a commit hash after it), and the test runner ships in the same crate.
  case "$have" in
    "wasm-bindgen $want" | "wasm-bindgen $want "*)
      case "$runner" in
        *" $want" | *" $want "*)
          _tools_say "wasm-bindgen-cli $want: present"
          return 0 ;;
      esac ;;
  esac
  # Not --locked: the CLI's own lock file asks for a webpki-roots release that
  # crates.io does not have.
  _tools_say "wasm-bindgen-cli $want: installing (cargo install wasm-bindgen-cli --version $want, about 5 min)$(_tools_replacing "$have") ..."
  _tools_timed "wasm-bindgen-cli $want" cargo install wasm-bindgen-cli --version "$want" --force || return
  _tools_expect "wasm-bindgen-cli $want" "$(_tools_version_of wasm-bindgen)" "wasm-bindgen $want"
}

# True when .tools holds exactly what scripts/npm pins.
_tools_npm_current() {
  local dir="$MEMDIAG_TOOLS_DIR" man="$MEMDIAG_ROOT/scripts/npm"
  cmp -s "$man/package.json" "$dir/package.json" || return 1
  cmp -s "$man/package-lock.json" "$dir/package-lock.json" || return 1
  # npm writes this after a successful install; compare it with the lock.
  [ -f "$dir/node_modules/.package-lock.json" ] || return 1
  [ -x "$dir/node_modules/.bin/wasm-opt" ] || return 1
  [ -f "$dir/node_modules/playwright-core/package.json" ] || return 1
  [ -f "$dir/node_modules/axe-core/axe.min.js" ] || return 1
  [ -x "$MEMDIAG_CLAUDE" ] || return 1
  node -e '
    const fs = require("fs");
    const [lockPath, root] = process.argv.slice(1);
    const lock = JSON.parse(fs.readFileSync(lockPath, "utf8")).packages;
    for (const [key, entry] of Object.entries(lock)) {
      if (!key) continue;
      // Optional packages for other platforms (Claude Code ships one per OS) are not installed.
      if (entry.optional && !fs.existsSync(root + "/" + key)) continue;
      const pj = JSON.parse(fs.readFileSync(root + "/" + key + "/package.json", "utf8"));
      if (pj.version !== entry.version) process.exit(1);
    }
  ' "$man/package-lock.json" "$dir" 2>/dev/null
}

# npm tools: binaryen (wasm-opt), playwright-core, axe-core and Claude Code, installed with `npm ci`
# from the committed manifest into the gitignored .tools/ folder.
ensure_npm_tools() {
  local label wasm_opt playwright axe claude
  wasm_opt="$(node -p 'require(process.argv[1]).dependencies.binaryen' "$MEMDIAG_ROOT/scripts/npm/package.json")" || return
  playwright="$(node -p 'require(process.argv[1]).dependencies["playwright-core"]' "$MEMDIAG_ROOT/scripts/npm/package.json")" || return
  axe="$(node -p 'require(process.argv[1]).dependencies["axe-core"]' "$MEMDIAG_ROOT/scripts/npm/package.json")" || return
  claude="$(memdiag_claude_pin)" || return
  label="npm tools (binaryen $wasm_opt, playwright-core $playwright, axe-core $axe, Claude Code $claude)"
  if _tools_npm_current; then
    _tools_say "$label: present"
    return 0
  fi
  _tools_say "$label: installing (npm ci --prefix .tools) ..."
  mkdir -p "$MEMDIAG_TOOLS_DIR" || return
  cp "$MEMDIAG_ROOT/scripts/npm/package.json" "$MEMDIAG_ROOT/scripts/npm/package-lock.json" "$MEMDIAG_TOOLS_DIR/" || return
  # --ignore-scripts: no package needs an install script, and none may download
  # anything (playwright-core never fetches browsers by itself; Claude Code's
  # postinstall only copies its native binary, which MEMDIAG_CLAUDE runs in place).
  _tools_timed "$label" npm ci --prefix "$MEMDIAG_TOOLS_DIR" --ignore-scripts --no-audit --no-fund --loglevel=error || return
  _tools_npm_current || _tools_die "$label: .tools does not match scripts/npm after npm ci"
}

# The Claude Code release scripts/npm/package.json pins.
memdiag_claude_pin() {
  node -p 'require(process.argv[1]).dependencies["@anthropic-ai/claude-code"]' "$MEMDIAG_ROOT/scripts/npm/package.json"
}

# The pinned Claude Code, for the conformance suite: installed by ensure_npm_tools; this
# checks that the binary runs and is the pinned release.
ensure_claude_code() {
  ensure_npm_tools || return
  local want have
  want="$(memdiag_claude_pin)" || return
  have="$("$MEMDIAG_CLAUDE" --version </dev/null 2>/dev/null | head -n 1 || true)"
  case "$have" in
    "$want (Claude Code)"*) _tools_say "claude-code $want: present ($MEMDIAG_CLAUDE)" ;;
    *) _tools_die "claude-code $want: $MEMDIAG_CLAUDE says '${have:-nothing}'" ;;
  esac
}

ensure_wasm_opt() {
  ensure_npm_tools || return
  local want="$MEMDIAG_WASM_OPT_VERSION" have path
  path="$(command -v wasm-opt || true)"
  have="$(_tools_version_of wasm-opt)"
  # binaryen prints "wasm-opt version 132 (version_132)".
  case "$have" in
    "wasm-opt version $want" | "wasm-opt version $want "*)
      if [ "$path" = "$MEMDIAG_TOOLS_DIR/node_modules/.bin/wasm-opt" ]; then
        _tools_say "wasm-opt $want: present ($path)"
        return 0
      fi ;;
  esac
  _tools_die "wasm-opt $want: expected $MEMDIAG_TOOLS_DIR/node_modules/.bin/wasm-opt first on PATH, found '${path:-nothing}' saying '${have:-nothing}'"
}

# The Debian browsers and chromedriver. chromium-driver is built from the same
# source package as chromium, so apt keeps the two at the same version.
ensure_browsers() {
  local pkg missing=() status
  for pkg in "${MEMDIAG_APT_BROWSER_PACKAGES[@]}"; do
    status="$(dpkg-query -W -f='${Status} ${Version}' "$pkg" 2>/dev/null || true)"
    case "$status" in
      "install ok installed "*) _tools_say "$pkg ${status#install ok installed }: present" ;;
      *) missing+=("$pkg") ;;
    esac
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    _tools_say "${missing[*]}: installing (apt-get install --no-install-recommends) ..."
    _tools_as_root apt-get update -qq </dev/null || { _tools_die "apt-get update failed"; return 1; }
    _tools_timed "${missing[*]}" _tools_as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" || return
  fi
  local exe
  for exe in "$MEMDIAG_CHROMIUM" "$MEMDIAG_CHROMEDRIVER" "$MEMDIAG_FIREFOX"; do
    [ -x "$exe" ] || { _tools_die "$exe missing after install"; return 1; }
  done
}

ensure_geckodriver() {
  local want="$MEMDIAG_GECKODRIVER_VERSION" have
  have="$(_tools_version_of "$MEMDIAG_GECKODRIVER")"
  # geckodriver prints "geckodriver 0.37.1" or "geckodriver 0.37.1 (<hash> <date>)".
  case "$have" in
    "geckodriver $want" | "geckodriver $want "*)
      _tools_say "geckodriver $want: present"
      return 0 ;;
  esac
  _tools_say "geckodriver $want: installing (cargo install geckodriver --version $want --locked, about 5 min)$(_tools_replacing "$have") ..."
  _tools_timed "geckodriver $want" cargo install geckodriver --version "$want" --locked --force || return
  _tools_expect "geckodriver $want" "$(_tools_version_of "$MEMDIAG_GECKODRIVER")" "geckodriver $want"
}

# Trunk runs cargo with --offline (Trunk.toml), so every crate for every
# target must already be in the cargo cache.
ensure_cargo_fetch() {
  local start
  start=$(date +%s)
  if (cd "$MEMDIAG_ROOT" && cargo fetch --quiet </dev/null); then
    _tools_say "crates (cargo fetch): present ($(($(date +%s) - start))s)"
  else
    _tools_die "cargo fetch failed"
  fi
}

# What scripts/serve.sh needs: everything to run `trunk build --release`.
ensure_build_tools() {
  ensure_wasm_target || return
  ensure_trunk || return
  ensure_wasm_bindgen || return
  ensure_wasm_opt || return
  ensure_cargo_fetch
}

# What scripts/test.sh needs. MEMDIAG_SKIP_BROWSER=1 leaves out the browsers.
ensure_all() {
  ensure_rust_components || return
  ensure_build_tools || return
  ensure_claude_code || return
  if [ "${MEMDIAG_SKIP_BROWSER:-0}" = "1" ]; then
    _tools_say "browsers: skipped (MEMDIAG_SKIP_BROWSER=1)"
  else
    ensure_browsers || return
    ensure_geckodriver || return
  fi
}

# A static file server for Node (always present here, so nothing to install):
#   node -e "$MEMDIAG_STATIC_SERVER_JS" DIR PORT [PORTFILE]
# serves DIR on http://127.0.0.1:PORT/. PORT 0 picks a free port; the chosen
# port is written to PORTFILE. The query string is ignored, so /?demo serves
# index.html. Each file goes out with the headers DIR/_headers lists for its
# path (scripts/headers.cjs), as Netlify and Cloudflare Pages send them. Start
# it with node directly (not through a function) when it runs in the
# background, so that $! is the server itself.
# shellcheck disable=SC2016  # JavaScript, not shell
MEMDIAG_STATIC_SERVER_JS='
    const http = require("http"), fs = require("fs"), path = require("path");
    const [root, port, portFile] = process.argv.slice(1);
    const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
      ".mjs": "text/javascript; charset=utf-8", ".wasm": "application/wasm", ".css": "text/css; charset=utf-8",
      ".json": "application/json", ".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon",
      ".txt": "text/plain; charset=utf-8", ".map": "application/json", ".woff2": "font/woff2", ".zip": "application/zip" };
    const base = path.resolve(root);
    const { readHeaders, headersFor } = require(process.env.MEMDIAG_HEADERS_JS);
    const rules = readHeaders(base);
    const server = http.createServer((req, res) => {
      let rel;
      try { rel = decodeURIComponent(new URL(req.url, "http://x").pathname); } catch { rel = "/"; }
      let file = path.join(base, rel);
      if (file !== base && !file.startsWith(base + path.sep)) { res.writeHead(403).end(); return; }
      try { if (fs.statSync(file).isDirectory()) file = path.join(file, "index.html"); } catch {}
      const headers = headersFor(rules, rel);
      fs.readFile(file, (err, body) => {
        if (err) { res.writeHead(404, { ...headers, "content-type": "text/plain" }).end("not found\n"); return; }
        res.writeHead(200, { ...headers, "content-type": types[path.extname(file).toLowerCase()] || "application/octet-stream",
          "cache-control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : body);
      });
    });
    server.on("error", (e) => {
      console.error("cannot serve on 127.0.0.1:" + port + ": " + e.message + " (set PORT to use another port)");
      process.exit(1);
    });
    server.listen(Number(port), "127.0.0.1", () => {
      const p = server.address().port;
      if (portFile) fs.writeFileSync(portFile, String(p));
      console.log("serving " + base + " on http://127.0.0.1:" + p + "/");
    });
    for (const s of ["SIGINT", "SIGTERM"]) process.on(s, () => process.exit(0));
'

# The `_headers` reader the static server requires (the tests' server shares it).
export MEMDIAG_HEADERS_JS="$MEMDIAG_ROOT/scripts/headers.cjs"

memdiag_static_server() { node -e "$MEMDIAG_STATIC_SERVER_JS" "$@"; }

# Builds the page into dist/ (`trunk build --release`) with the build's own paths left out
# of the wasm: panic locations name source files by absolute path, and the page would
# otherwise carry the builder's home folder and cargo registry (privacy, reproducible
# builds) and more first-paint bytes. Trunk has no setting for rustflags, so
# they come from RUSTFLAGS here.
memdiag_trunk_build() {
  local index flags="--remap-path-prefix=$PWD=."
  for index in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do
    [ -d "$index" ] && flags="$flags --remap-path-prefix=$index="
  done
  RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }$flags" trunk build --release "$@"
}

# Prints the size of the release .wasm and .js in DIR, raw and gzipped.
memdiag_print_sizes() {
  local dir="$1" f raw gz found=0
  for f in "$dir"/*.wasm "$dir"/*.js "$dir"/snippets/*/*.js; do
    [ -f "$f" ] || continue
    found=1
    raw=$(wc -c <"$f")
    gz=$(gzip -9 -c "$f" | wc -c)
    printf 'size: %-40s %9d bytes  (%d KB raw, %d KB gzipped)\n' \
      "${f#"$MEMDIAG_ROOT"/}" "$raw" $(((raw + 1023) / 1024)) $(((gz + 1023) / 1024))
  done
  [ "$found" = 1 ] || _tools_die "no .wasm or .js in $dir"
  # First paint downloads the page's wasm and JS; the analysis worker's come when it starts.
  _memdiag_gz_total() { local t=0 g; for g in "$@"; do [ -f "$dir/$g" ] && t=$((t + $(gzip -9 -c "$dir/$g" | wc -c))); done; echo "$t"; }
  local first worker
  # shellcheck disable=SC2046 # the snippets' paths hold no spaces
  first=$(_memdiag_gz_total memdiag-web_bg.wasm memdiag-web.js loader.js $(_memdiag_snippets "$dir" memdiag-web.js))
  # shellcheck disable=SC2046
  worker=$(_memdiag_gz_total memdiag-engine_bg.wasm memdiag-engine.js worker.js $(_memdiag_snippets "$dir" memdiag-engine.js))
  printf 'size: first paint (memdiag-web wasm + JS and snippets, loader.js)     %d KB gzipped\n' $(((first + 1023) / 1024))
  printf 'size: analysis worker (memdiag-engine wasm + JS and snippets, worker.js) %d KB gzipped\n' $(((worker + 1023) / 1024))
  # Nothing is analysed (and no file previewed) before the worker has loaded as well.
  printf 'size: usable, the first report (first paint + worker)      %d KB gzipped\n' $(((first + worker + 1023) / 1024))
}

# The JS snippets (wasm-bindgen `inline_js`) that the bindings file JS in DIR imports, as
# paths relative to DIR: they load with it.
_memdiag_snippets() {
  grep -o "snippets/[^'\"]*\.js" "$1/$2" 2>/dev/null | sort -u
}

# Fails when first paint in DIR (memdiag-web wasm + JS and the snippets it imports,
# loader.js, gzip -9) exceeds MAX_KB (default 350, issue 13's goal: the fifth size pass
# reached 348 KB).
memdiag_check_first_paint() {
  local dir="$1" max="${2:-350}" total=0 f
  # shellcheck disable=SC2046 # the snippets' paths hold no spaces
  for f in memdiag-web_bg.wasm memdiag-web.js loader.js $(_memdiag_snippets "$dir" memdiag-web.js); do
    [ -f "$dir/$f" ] || { _tools_die "no $f in $dir"; return 1; }
    total=$((total + $(gzip -9 -c "$dir/$f" | wc -c)))
  done
  total=$(((total + 1023) / 1024))
  if [ "$total" -gt "$max" ]; then
    echo "size: first paint is $total KB gzipped, over its budget of $max KB"; return 1
  fi
  echo "size: first paint is $total KB gzipped (budget $max KB)"
}

# Checks that the page's first-paint wasm in DIR holds none of the analysis engine's
# libraries: no YAML parser, no zip reader, no inflate (each found by a message only that
# library holds). The engine lives in memdiag-engine_bg.wasm, which must hold them all.
memdiag_check_split() {
  local dir="$1" needle bad=0
  local -a needles=(
    "deserializing from YAML containing more than one document"
    "Variable-length field extends beyond file boundary"
    "invalid stored block lengths"
  )
  for needle in "${needles[@]}"; do
    if grep -q -a -F "$needle" "$dir/memdiag-web_bg.wasm"; then
      echo "split: the first-paint wasm holds engine code: '$needle'"; bad=1
    fi
    if ! grep -q -a -F "$needle" "$dir/memdiag-engine_bg.wasm"; then
      echo "split: the engine wasm lacks '$needle' (is the check still looking for engine code?)"; bad=1
    fi
  done
  [ "$bad" = 0 ] && echo "split: memdiag-web_bg.wasm holds no YAML, zip or inflate code"
  return "$bad"
}
