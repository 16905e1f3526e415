#!/usr/bin/env bash
#
# The test command: installs what is missing (see scripts/tools.sh), then runs
# every check and test, failing fast with "FAILED: <step>".
#
#   bash scripts/test.sh
#
# For local iteration only (CI=true ignores both):
#   MEMDIAG_SKIP_BROWSER=1  skip the browser component tests and the end-to-end
#                           test (and the browser installs)
#   MEMDIAG_SKIP_E2E=1      skip only the end-to-end test
#
# The end-to-end test (tests/e2e/*.test.mjs, run with `node --test`) gets:
#   MEMDIAG_PLAYWRIGHT  absolute path of the playwright-core package in .tools/
#                       (tests/e2e has no dependencies of its own). Load it with
#                         import { createRequire } from 'node:module';
#                         const require = createRequire(import.meta.url);
#                         const { chromium } = require(process.env.MEMDIAG_PLAYWRIGHT
#                           ?? new URL('../../.tools/node_modules/playwright-core', import.meta.url).pathname);
#                       NODE_PATH also points at .tools/node_modules, so a plain
#                       require('playwright-core') from createRequire works too;
#                       an ESM `import 'playwright-core'` does NOT (ESM ignores NODE_PATH).
#   MEMDIAG_CHROMIUM    /usr/bin/chromium, for chromium.launch({ executablePath })
#                       (never `npx playwright install`: no browser downloads here)
#   MEMDIAG_DIST        absolute path of dist/ (the release build just made),
#                       which the test serves itself on 127.0.0.1
#   MEMDIAG_FIXTURES    absolute path of fixtures/
#   MEMDIAG_E2E_ARTIFACTS  tests/e2e/artifacts/ (gitignored) for screenshots etc.

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/tools.sh
source scripts/tools.sh

SKIP_BROWSER="${MEMDIAG_SKIP_BROWSER:-0}"
SKIP_E2E="${MEMDIAG_SKIP_E2E:-0}"
if [ "${CI:-}" = "true" ] && { [ "$SKIP_BROWSER" != 0 ] || [ "$SKIP_E2E" != 0 ]; }; then
  echo "note: CI=true, ignoring MEMDIAG_SKIP_BROWSER / MEMDIAG_SKIP_E2E: CI runs everything"
  SKIP_BROWSER=0
  SKIP_E2E=0
fi
export MEMDIAG_SKIP_BROWSER="$SKIP_BROWSER"
if [ "$SKIP_BROWSER" = 1 ]; then SKIP_E2E=1; fi

# Browser runs: generous timeouts (a cold Firefox start on 2 cores is slow) and
# the extra browser flags in webdriver.json (.cargo/config.toml points the
# runner at it through WASM_BINDGEN_TEST_WEBDRIVER_JSON).
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-180}"
export WASM_BINDGEN_TEST_DRIVER_TIMEOUT="${WASM_BINDGEN_TEST_DRIVER_TIMEOUT:-60}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

STEPS_DONE=()
STEPS_SKIPPED=()
TOTAL_START=$(date +%s)

# step NAME CMD... : runs CMD in a subshell with `set -e` in force (a function
# run inside `if` would silently ignore it), times it, and stops everything
# with "FAILED: NAME" if it fails.
step() {
  local name="$1" start rc
  shift
  printf '\n==> %s\n' "$name"
  start=$(date +%s)
  set +e
  (set -e; "$@") </dev/null
  rc=$?
  set -e
  if [ "$rc" -ne 0 ]; then
    printf '\nFAILED: %s (exit %d after %ds)\n' "$name" "$rc" "$(($(date +%s) - start))"
    exit "$rc"
  fi
  STEPS_DONE+=("$name ($(($(date +%s) - start))s)")
  printf '<== %s: ok in %ds\n' "$name" "$(($(date +%s) - start))"
}

skip() {
  printf '\n==> %s: SKIPPED (%s)\n' "$1" "$2"
  STEPS_SKIPPED+=("$1")
}

# The wasm-bindgen test runner takes the first of GECKODRIVER, SAFARIDRIVER,
# CHROMEDRIVER it finds (the *_REMOTE forms first): clear them all and set
# exactly the one meant.
browser_tests() {
  local var="$1" driver="$2"
  env -u GECKODRIVER -u SAFARIDRIVER -u CHROMEDRIVER -u MSEDGEDRIVER \
      -u GECKODRIVER_REMOTE -u SAFARIDRIVER_REMOTE -u CHROMEDRIVER_REMOTE -u MSEDGEDRIVER_REMOTE \
      -u NO_HEADLESS \
      "$var=$driver" \
      cargo test -p memdiag-web --target wasm32-unknown-unknown
}

# Runs the real program on every conformance case against the loopback stand-in. The
# managed-policy cases need /etc/claude-code for the length of one run, hence root.
conformance_live() {
  if [ "$(id -u)" -ne 0 ]; then
    _tools_as_root env PATH="$PATH" MEMDIAG_CLAUDE="$MEMDIAG_CLAUDE" node tests/conformance/run.mjs
  else
    MEMDIAG_CLAUDE="$MEMDIAG_CLAUDE" node tests/conformance/run.mjs
  fi
}

# The plugin inside the pinned Claude Code (tests/plugin/live.test.mjs): its hooks, its MCP
# server and `memdiag verify`, with the `memdiag` command `cargo test` built on PATH.
plugin_live() {
  cargo build -p memdiag-core --features cli
  MEMDIAG_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug" \
  MEMDIAG_CLAUDE="$MEMDIAG_CLAUDE" \
    node --test tests/plugin/live.test.mjs
}

# The end-to-end test serves dist/ itself (see the contract at the top).
e2e() {
  local files=()
  mapfile -t files < <(find tests/e2e -path tests/e2e/node_modules -prune -o \
    -type f \( -name '*.test.mjs' -o -name '*.test.js' \) -print | sort)
  if [ "${#files[@]}" -eq 0 ]; then
    echo "no end-to-end tests found (tests/e2e/*.test.mjs)"
    return 1
  fi
  [ -f dist/index.html ] || { echo "dist/index.html missing: trunk build did not run"; return 1; }
  mkdir -p tests/e2e/artifacts
  MEMDIAG_DIST="$PWD/dist" \
  MEMDIAG_FIXTURES="$PWD/fixtures" \
  MEMDIAG_E2E_ARTIFACTS="$PWD/tests/e2e/artifacts" \
  NODE_PATH="$MEMDIAG_TOOLS_DIR/node_modules${NODE_PATH:+:$NODE_PATH}" \
    node --test "${files[@]}"
}

step "install tools" ensure_all
step "cargo fmt --check" cargo fmt --all -- --check
# The release watch's listing (tests/conformance/watch.mjs) against a recorded registry
# answer (fixtures/registry/claude-code.json): no network, well under a second.
step "release watch listing" node --test tests/conformance/watch.test.mjs
step "clippy (native)" cargo clippy --workspace --all-targets -- -D warnings
step "clippy (wasm32)" cargo clippy --workspace --all-targets --target wasm32-unknown-unknown -- -D warnings
# The page's first-paint wasm is memdiag-web without its `engine` feature (index.html).
step "clippy (wasm32, page without engine)" cargo clippy -p memdiag-web --lib --bin memdiag-web --no-default-features --target wasm32-unknown-unknown -- -D warnings
step "cargo test (native)" cargo test --workspace
# The pinned Claude Code itself, on every case of fixtures/conformance/: fails when what the
# program loads no longer matches a case's recorded capture (see tests/conformance/run.mjs).
step "conformance (live, Claude Code $(memdiag_claude_pin))" conformance_live
step "plugin (live, Claude Code $(memdiag_claude_pin))" plugin_live
step "benchmarks build" cargo bench -p memdiag-core --no-run
step "core builds for wasm32" cargo build -p memdiag-core --target wasm32-unknown-unknown
if [ "$SKIP_BROWSER" = 1 ]; then
  skip "browser tests (Chromium)" "MEMDIAG_SKIP_BROWSER=1"
  skip "browser tests (Firefox)" "MEMDIAG_SKIP_BROWSER=1"
else
  step "browser tests (Chromium)" browser_tests CHROMEDRIVER "$MEMDIAG_CHROMEDRIVER"
  step "browser tests (Firefox)" browser_tests GECKODRIVER "$MEMDIAG_GECKODRIVER"
fi
step "trunk build --release" memdiag_trunk_build
step "release size" memdiag_print_sizes dist
step "first-paint wasm holds no engine" memdiag_check_split dist
# Issue 13's goal is 350 KB (docs/benchmarks.md, "First paint").
step "first paint within its size budget" memdiag_check_first_paint dist 350
if [ "$SKIP_E2E" = 1 ]; then
  skip "end-to-end test" "MEMDIAG_SKIP_BROWSER=1 or MEMDIAG_SKIP_E2E=1"
else
  step "end-to-end test" e2e
fi

printf '\nSUMMARY: all %d steps passed in %ds' "${#STEPS_DONE[@]}" "$(($(date +%s) - TOTAL_START))"
if [ "${#STEPS_SKIPPED[@]}" -gt 0 ]; then
  printf ' (%d SKIPPED: %s)' "${#STEPS_SKIPPED[@]}" "$(IFS=,; echo "${STEPS_SKIPPED[*]}")"
fi
printf '\n'
for s in "${STEPS_DONE[@]}"; do printf '  ok  %s\n' "$s"; done
