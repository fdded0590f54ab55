#!/usr/bin/env bash
# The README's second command (and what CI runs): install what is needed, make sure Redis and
# PostgreSQL run, then lint, typecheck, build the client and run every test file (unit,
# integration on PGlite and PostgreSQL, end-to-end in Chromium) under vitest.
set -euo pipefail
cd "$(dirname "$0")/.."
export ONNXRUNTIME_NODE_INSTALL=skip
bash scripts/ensure-deps.sh redis-server chromium poppler-utils postgresql unzip dcmtk dicom3tools pixelmed-apps orthanc orthanc-dicomweb

# Redis: the tests' shared instance (fault-injection tests start their own on other ports).
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  echo "Starting Redis on 127.0.0.1:6379"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  for _ in $(seq 50); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.1; done
fi

# PostgreSQL: the server-mode backend. Without it the DB tests still run on PGlite, loudly.
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && command -v pg_ctlcluster >/dev/null; then
  echo "Starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  for _ in $(seq 50); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 0.2; done
fi
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
if ! psql "$TEST_DATABASE_URL" -qtAc 'select 1' >/dev/null 2>&1; then
  # We cannot log in (a fresh Debian install asks TCP logins for a password we do not know):
  # never change the host's password, run a private cluster of our own instead.
  . scripts/private-postgres.sh
  echo "Cannot log in to PostgreSQL at ${TEST_DATABASE_URL##*@}: starting a private cluster" >&2
  start_private_postgres || true
fi
if ! psql "$TEST_DATABASE_URL" -qtAc 'select 1' >/dev/null 2>&1; then
  echo "WARNING: ********************************************************************" >&2
  echo "WARNING: no PostgreSQL to test against: database tests run on PGlite only" >&2
  echo "WARNING: ********************************************************************" >&2
  unset TEST_DATABASE_URL
fi
# TEST_SH_DB_ONLY=1: stop here, after choosing the database (checks this part of the script).
if [ "${TEST_SH_DB_ONLY:-}" = 1 ]; then echo "TEST_DATABASE_URL=${TEST_DATABASE_URL:-unset (PGlite)}"; exit 0; fi

echo "== lint (eslint, prettier)"; npm run --silent lint
echo "== typecheck"; npx tsc -p . && npx tsc -p client
echo "== build client"; npm run --silent build

echo "== python lint and tests (models/train)"
# Best effort: the training package's lint and tests need Debian's python3 with flake8, numpy and
# pytest; a box without them (or not root to install them) skips each loudly instead of failing.
bash scripts/ensure-deps.sh flake8 python3-numpy python3-pytest >/dev/null 2>&1 || true
if ! /usr/bin/python3 -m flake8 --version >/dev/null 2>&1; then
  echo "SKIPPED: Python lint (models/train): /usr/bin/python3 lacks flake8 (apt-get install flake8)" >&2
else
  # Config in models/train/.flake8 (ruff would be preferred; Debian bookworm has no package of it).
  (cd models/train && /usr/bin/python3 -m flake8)
fi
if ! /usr/bin/python3 -c 'import numpy, pytest' >/dev/null 2>&1; then
  echo "SKIPPED: Python tests (models/train/tests): /usr/bin/python3 lacks numpy or pytest (apt-get install python3-numpy python3-pytest)" >&2
else
  # Without torch the files that import it skip themselves (-rs prints why); torch is never required.
  /usr/bin/python3 -c 'import torch' >/dev/null 2>&1 || echo "NOTE: torch not importable: the Python tests that need it are skipped" >&2
  /usr/bin/python3 -m pytest -q -rs -p no:cacheprovider models/train/tests
fi

echo "== tests"
export PGLITE_DIR=memory://
# Every file under tests/ in the order and parallelism vitest.config.ts sets (unit and
# integration files two at a time, the timing file alone, the e2e files two at a time, the fault
# files one at a time), with a
# coverage summary of server, worker, contracts and common that fails under its floor.
npx vitest run --coverage
