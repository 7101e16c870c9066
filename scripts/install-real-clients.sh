#!/usr/bin/env bash
# The real clients the tests drive (test/real-codex.test.ts): Codex 0.171.0, pinned, in a folder
# of its own outside the repo ($ISOBUDGET_REAL_CLIENTS, default $TMPDIR/isobudget-real-clients).
# Needs the npm registry; without it the tests that use the binary are skipped with a line.
set -euo pipefail
dir="${ISOBUDGET_REAL_CLIENTS:-${TMPDIR:-/tmp}/isobudget-real-clients}"
if [ -x "$dir/node_modules/.bin/codex" ] && grep -q '"version": "0.171.0"' "$dir/node_modules/@openai/codex/package.json" 2>/dev/null; then
  echo "install-real-clients: Codex 0.171.0 already in $dir"
  exit 0
fi
mkdir -p "$dir"
cd "$dir"
[ -f package.json ] || echo '{"name":"isobudget-real-clients","private":true}' > package.json
npm install --no-audit --no-fund --loglevel=error @openai/codex@0.171.0
echo "install-real-clients: Codex 0.171.0 in $dir"
