#!/usr/bin/env bash
# Installs what the project needs on a Debian machine that has only Node and apt:
# npm packages (without onnxruntime-node's CUDA download) and the Debian packages named as
# arguments (e.g. redis-server chromium). Not root and a package missing: says what to install.
set -euo pipefail
cd "$(dirname "$0")/.."
export ONNXRUNTIME_NODE_INSTALL_CUDA=skip

missing=()
for pkg in "$@"; do
  bin="$pkg"
  case "$pkg" in
    postgresql) bin=pg_ctlcluster ;;
    poppler-utils) bin=pdftotext ;;
  esac
  command -v "$bin" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "Missing programs: ${missing[*]}. Install them with: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi

# npm ci when node_modules is absent or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm dependencies..."
  npm ci --no-audit --no-fund --loglevel=error
fi
