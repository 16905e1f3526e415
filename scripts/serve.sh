#!/usr/bin/env bash
#
# The serve command: installs what the build needs (see scripts/tools.sh),
# builds the release page with Trunk, prints its size, and serves dist/ on
# http://127.0.0.1:8080/ (or $PORT). Stop it with Ctrl-C.
#
#   bash scripts/serve.sh
#   PORT=9000 bash scripts/serve.sh
#
# The page runs entirely in the browser: the server only hands out static
# files, and nothing you open in the page is uploaded anywhere.

set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=scripts/tools.sh
source scripts/tools.sh

PORT="${PORT:-8080}"

# Fail before the build, not after it, when the port is taken.
if ! node -e '
  const s = require("net").createServer();
  s.once("error", () => process.exit(1));
  s.listen(Number(process.argv[1]), "127.0.0.1", () => s.close());
' "$PORT"; then
  echo "port $PORT on 127.0.0.1 is in use: set PORT to use another, e.g. PORT=8081 bash scripts/serve.sh" >&2
  exit 1
fi

ensure_build_tools

echo
echo "==> trunk build --release"
start=$(date +%s)
memdiag_trunk_build </dev/null
echo "<== built in $(($(date +%s) - start))s"
memdiag_print_sizes dist

echo
echo "Open http://127.0.0.1:$PORT/        (the demo shows on a first visit)"
echo "     http://127.0.0.1:$PORT/?demo   (always opens the demo)"
echo
exec node -e "$MEMDIAG_STATIC_SERVER_JS" "$PWD/dist" "$PORT"
