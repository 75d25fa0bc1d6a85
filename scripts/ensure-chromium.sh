#!/usr/bin/env bash
# Browser tests drive Debian's Chromium; test tools cannot download browsers of their own here.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$chromium" ] && exit 0

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium is missing: installing Debian's chromium package for the browser tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi

cat >&2 <<MSG
The browser tests need Chromium at $chromium, and it is not there.
Install it, then run the tests again:
  Debian/Ubuntu:  sudo apt-get install chromium
  elsewhere:      install Chromium and set CHROMIUM_PATH to its executable
MSG
exit 1
