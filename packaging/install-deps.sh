#!/bin/sh
# Installs every Debian 12 package Kinetoscope needs to build, test and run. Idempotent.
set -eu
PACKAGES="build-essential cmake ninja-build pkg-config \
  qt6-base-dev libqcustomplot-dev libsimdjson-dev libcli11-dev libeigen3-dev zlib1g-dev libisal-dev libsqlite3-dev \
  libgl-dev fonts-dejavu-core xvfb xauth python3 \
  chromium"
# chromium: the tests open the HTML report in a real browser (headless) and look at what it draws.

missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
# shellcheck disable=SC2086
$SUDO apt-get install -y --no-install-recommends $missing
