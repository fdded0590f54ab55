#!/usr/bin/env bash
# Installs what the project needs on a Debian machine that has only Node and apt:
# npm packages (without onnxruntime-node's CUDA download) and the Debian packages named as
# arguments (e.g. redis-server chromium). Not root and a package missing: says what to install.
set -euo pipefail
cd "$(dirname "$0")/.."
export ONNXRUNTIME_NODE_INSTALL=skip

missing=()
for pkg in "$@"; do
  bin="$pkg"
  case "$pkg" in
    postgresql) bin=pg_ctlcluster ;;
    poppler-utils) bin=pdftotext ;;
    dcmtk) bin=storescu ;;
    dicom3tools) bin=dciodvfy ;;
    # Java's DICOM SR validator (pixelmed): the library jar is what the tests run.
    pixelmed-apps) bin=/usr/share/java/pixelmed.jar ;;
    orthanc) bin=/usr/sbin/Orthanc ;;
    python3-numpy) bin=/usr/lib/python3/dist-packages/numpy ;;
    python3-pytest) bin=/usr/bin/pytest-3 ;;
    # A plugin, not a program: the shared library Orthanc loads.
    orthanc-dicomweb) bin=/usr/share/orthanc/plugins/libOrthancDicomWeb.so ;;
  esac
  if [[ "$bin" == /* ]]; then [ -e "$bin" ] || missing+=("$pkg"); continue; fi
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

# Install from the lock file when node_modules is absent or older than it. `npm install`, not
# `npm ci`: npm 11's ci refuses this lock over platform-only optional packages it lists for
# other systems (msgpackr-extract's), while install resolves the same versions from it.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm dependencies..."
  npm install --no-audit --no-fund --loglevel=error
fi
