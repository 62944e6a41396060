#!/usr/bin/env bash
# Installs the Debian packages named that are not installed yet: `scripts/apt-install.sh WHAT PKG...`,
# where WHAT says what they are for. Uses sudo when not root, skips Recommends, and starts no service
# while installing (a policy-rc.d that refuses, removed afterwards): the tests start their own servers.
# Messages go to standard error.
set -euo pipefail

[ $# -ge 2 ] || { echo "usage: $0 WHAT PACKAGE..." >&2; exit 2; }
what=$1
shift
missing=()
for package in "$@"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -gt 0 ] || exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "Installing $what: ${missing[*]}" >&2
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
  $sudo chmod +x /usr/sbin/policy-rc.d
  trap '$sudo rm -f /usr/sbin/policy-rc.d' EXIT
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
