#!/usr/bin/env bash
# Build the wheel, install it into a fresh virtual environment outside the checkout, start
# `leidraad serve --no-browser` on a free port with its own data folder and fetch the first
# page, as a club laptop would (docs/OPERATIONS.md: "On a club laptop"). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
work=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "wheel: building"
"$PYTHON" -m pip wheel --quiet --disable-pip-version-check --no-deps -w "$work/dist" . 2>&1 \
  | grep -v "^WARNING: Location" || true
rm -rf build ./*.egg-info
wheel=$(ls "$work"/dist/leidraad-*.whl)
echo "wheel: installing $(basename "$wheel") into a fresh venv"
"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "$wheel" 2>&1 \
  | grep -v "^WARNING: Location" || true

cd "$work"  # nothing of the checkout on the path from here on
"$work/venv/bin/leidraad" --version
port=$("$work/venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
LEIDRAAD_DATA_DIR="$work/data" "$work/venv/bin/leidraad" serve --no-browser --port "$port" \
  > "$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 1 120); do
  if "$work/venv/bin/python" - "$port" <<'PY' 2>/dev/null; then break; fi
import sys, urllib.request
urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/", timeout=2)
PY
  if ! kill -0 "$server" 2>/dev/null; then cat "$work/serve.log"; echo "wheel: server died"; exit 1; fi
  sleep 1
done
"$work/venv/bin/python" - "$port" <<'PY'
import sys, urllib.request
port = sys.argv[1]
page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10)
body = page.read().decode()
# A fresh install leads to the first-run page; its stylesheet comes from the app itself.
assert page.url.endswith("/setup/"), page.url
assert "Leidraad" in body and "/static/vendor/bootstrap/bootstrap.min.css" in body, body[:500]
css = urllib.request.urlopen(f"http://127.0.0.1:{port}/static/vendor/bootstrap/bootstrap.min.css", timeout=10)
assert css.status == 200 and len(css.read()) > 100_000
print(f"wheel: first page {page.url} and its static files served by the installed package")
PY
test -f "$work/data/leidraad.sqlite3"
echo "wheel: the installed leidraad command serves a fresh laptop"
