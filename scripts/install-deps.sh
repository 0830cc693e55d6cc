#!/bin/sh
# Install from Debian 12 what listack needs to build, test and fuzz,
# those packages only that are missing (curl, prometheus's promtool and
# graphviz's dot: the metrics and pipeline tests; debhelper and fakeroot:
# the Debian packages, scripts/test_package.sh; frr: the routed-network
# test tests/netns/run_netns_frr.py and the recorder of zebra's FPM frames,
# tests/unit/serve/fpm_frames/record.py). setup.sh and fuzz.sh run it.
set -eu

PKGS="dpdk dpdk-dev libdpdk-dev libnuma-dev libpcap-dev libcmocka-dev \
meson ninja-build pkg-config gcc python3-scapy iproute2 \
iputils-ping traceroute ethtool clang-14 libclang-rt-14-dev libedit-dev \
curl prometheus graphviz tshark tcpdump libsystemd-dev debhelper \
dpkg-dev fakeroot frr"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
if [ "$(id -u)" -ne 0 ]; then
	echo "run as root (or with sudo) to install packages" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null
