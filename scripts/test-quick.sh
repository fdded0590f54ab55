#!/usr/bin/env bash
# npm run test:quick [-- <base>]: the developer's loop after a change, not the whole check.
# Every unit file, then the integration and reliability files that import a file changed since
# <base> (default main: its commits, staged, unstaged and new files) through any chain of modules
# short of the app itself, plus the test files of a changed service's domain
# (scripts/test-quick/list-quick-tests.ts). Browser (e2e) files are left to `npm run test:e2e` and
# `npm test`. Redis must run; TEST_DATABASE_URL adds PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-main}"
export PGLITE_DIR="${PGLITE_DIR:-memory://}"
echo "== unit files"
npx vitest run --project unit
mapfile -t files < <(node --import tsx scripts/test-quick/list-quick-tests.ts "$base")
echo "== ${#files[@]} files that import what changed since ${base}"
if [ "${#files[@]}" -gt 0 ]; then
  npx vitest run --project integration --project serial --passWithNoTests "${files[@]}"
fi
