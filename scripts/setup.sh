#!/bin/sh
# Install what listack needs from Debian 12 (when missing) and build it.
#   scripts/setup.sh [BUILD_DIR [meson options...]]
set -eu
cd "$(dirname "$0")/.."

scripts/install-deps.sh

build="${1:-build}"
[ $# -gt 0 ] && shift
if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$@" >/dev/null
fi
ninja -C "$build" >/dev/null
echo "built $build"
