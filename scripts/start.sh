#!/usr/bin/env bash
# The README's first command: install, build the client, then run server + worker (+ a private
# Redis when REDIS_URL is unset) on http://localhost:3000. Ctrl-C stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${REDIS_URL:-}" ]; then bash scripts/ensure-deps.sh redis-server; else bash scripts/ensure-deps.sh; fi
npm run --silent build
exec node --env-file-if-exists=.env --import tsx scripts/start.ts
