#!/bin/sh
# Install what listack needs from Debian 12 (when missing) and build it.
#   scripts/setup.sh [BUILD_DIR [meson options...]]
set -eu
cd "$(dirname "$0")/.."

PKGS="dpdk dpdk-dev libdpdk-dev libnuma-dev libpcap-dev libcmocka-dev \
meson ninja-build pkg-config gcc python3-scapy iproute2 \
iputils-ping traceroute ethtool clang-14 libclang-rt-14-dev"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "installing:$missing"
	if [ "$(id -u)" -ne 0 ]; then
		echo "run as root (or with sudo) to install packages" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

build="${1:-build}"
[ $# -gt 0 ] && shift
if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" "$@" >/dev/null
fi
ninja -C "$build" >/dev/null
echo "built $build"
