#!/usr/bin/env bash
# The multi-instance test puts Debian's nginx in front of the instances, with deploy/'s configuration.
set -euo pipefail
[ -x /usr/sbin/nginx ] && exit 0

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "nginx is missing: installing Debian's nginx package for the multi-instance test..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
  exit 0
fi

cat >&2 <<MSG
The multi-instance test needs nginx at /usr/sbin/nginx, and it is not there.
Install it, then run the test again:
  Debian/Ubuntu:  sudo apt-get install nginx
MSG
exit 1
