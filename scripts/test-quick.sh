#!/usr/bin/env bash
# npm run test:quick [-- <base>]: the developer's loop after a change, not the whole check.
# Every unit file, then the integration and reliability files that import (directly or through
# any module) a file changed since <base> (default main: its commits, staged, unstaged and
# untracked files), found by vitest's --changed over the import graph. Browser (e2e) files are
# left to `npm run test:e2e` and `npm test`. Redis must run; TEST_DATABASE_URL adds PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-main}"
export PGLITE_DIR="${PGLITE_DIR:-memory://}"
echo "== unit files"
npx vitest run --project unit
echo "== files that import what changed since ${base}"
npx vitest run --project integration --project serial --changed "$base" --passWithNoTests
