#!/bin/sh
# Builds the .deb from an existing build folder, installs it with apt-get on this machine, runs
# the installed programs on the installed sample run, and removes the package again.
# Usage: packaging/check-deb.sh [BUILD_DIR]   (CI runs it after the tests; needs root or sudo)
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build}
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
rm -f "$BUILD"/kinetoscope_*.deb
(cd "$BUILD" && cpack -G DEB > cpack.log 2>&1) || { cat "$BUILD/cpack.log"; exit 1; }
DEB=$(ls "$BUILD"/kinetoscope_*.deb)
echo "built $DEB"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y "./$DEB" > "$BUILD/deb-install.log" 2>&1 || { cat "$BUILD/deb-install.log"; exit 1; }
trap '$SUDO apt-get remove -y kinetoscope > /dev/null 2>&1 || true' EXIT
/usr/bin/kinetoscope-cli --version
/usr/bin/kinetoscope-cli info /usr/share/kinetoscope/sample-run --format csv > "$BUILD/deb-info.csv"
test "$(wc -l < "$BUILD/deb-info.csv")" -eq 9  # a header and the sample's eight ranks
QT_QPA_PLATFORM=offscreen /usr/bin/kinetoscope --version
test -f /usr/share/applications/kinetoscope.desktop
test -f /usr/share/icons/hicolor/scalable/apps/kinetoscope.svg
test -f /usr/share/icons/hicolor/48x48/apps/kinetoscope.png
test -f /usr/share/metainfo/io.github.kinetoscope.Kinetoscope.metainfo.xml
echo "installed package works: kinetoscope-cli info read the installed sample run"
