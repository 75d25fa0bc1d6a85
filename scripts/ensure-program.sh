#!/usr/bin/env bash
# ensure-program.sh PATH PACKAGE PURPOSE [HINT]: the tests drive some of Debian's programs (Chromium
# for the browser tests, nginx for the multi-instance test), since test tools cannot download their
# own here. Installs PACKAGE when PATH is missing and this is a Debian machine run as root;
# otherwise says what to install.
set -euo pipefail
program="$1" package="$2" purpose="$3" hint="${4:-}"
[ -x "$program" ] && exit 0

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "$program is missing: installing Debian's $package package for $purpose..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null
  exit 0
fi

cat >&2 <<MSG
For $purpose, $program is needed, and it is not there.
Install it, then run the tests again:
  Debian/Ubuntu:  sudo apt-get install $package
$hint
MSG
exit 1
