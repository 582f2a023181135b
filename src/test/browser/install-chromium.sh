#!/usr/bin/env bash
# Provisions the headless browser the browser tests drive: Debian's chromium package, installed once per machine
# by the build itself (phase generate-test-resources) when it runs as root with apt-get, as CI and a fresh
# development machine do. Elsewhere it says what to install, and the browser tests fail naming the package.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Debian's chromium for the browser tests (once per machine)"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
else
  echo "the browser tests need Debian's chromium package: apt-get install -y chromium (as root)" >&2
fi
