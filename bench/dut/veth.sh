#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The veth wire of bench/compare.sh: two veth pairs, the generator's ends
# (PREFIXg0, PREFIXg1) in the root namespace for net_af_packet, the
# device's ends (PREFIXd0, PREFIXd1) in namespace PREFIX-dut.
#
#   bench/dut/veth.sh up PREFIX linux|dpdk [--routes R]
#   bench/dut/veth.sh down PREFIX
#
# linux: the namespace forwards (ip_forward=1) with bench/dut/traffic.py's
#        addressing: d0 10.0.0.1/24 (mac 02:00:00:00:00:01), d1 10.0.1.1/24
#        (02:00:00:00:01:01), R routes 198.18.1.0/24 + k*256 via 10.0.1.2
#        and a static neighbour for it (02:00:00:00:02:02, g1's MAC).
# dpdk:  no addresses, ip_forward=0: a DPDK device (listack-fwd with
#        net_af_packet) opens d0 and d1 inside the namespace.
# Both: the generator's ends carry the generator's MACs (g0
# 02:00:00:00:00:02, g1 02:00:00:00:02:02), GRO and offloads off on all
# four ends, IPv6 off, one MTU (1500). Frames the generator sends into g0
# are received by d0 on CPU 1 (RPS), the device's CPU; what d1 sends is
# received by g1 on CPU 0 (RPS), the generator's.
set -eu
[ $# -ge 2 ] || { awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "$0" >&2; exit 2; }
op=$1 p=$2
ns=$p-dut
shift 2
if [ ${#p} -gt 12 ]; then
	echo "veth.sh: PREFIX '$p' is longer than 12 characters (interface names)" >&2
	exit 2
fi
if [ "$(id -u)" != 0 ]; then
	echo "veth.sh: needs root (ip netns, veth)" >&2
	exit 1
fi

down() {
	ip netns del "$ns" 2>/dev/null || true
	ip link del "${p}g0" 2>/dev/null || true
	ip link del "${p}g1" 2>/dev/null || true
}

quiet_end() {	# NETNS-PREFIX IFACE: an end that carries test traffic only
	$1 sysctl -qw "net.ipv6.conf.$2.disable_ipv6=1"
	$1 ethtool -K "$2" gro off gso off tso off tx off rx off >/dev/null 2>&1 || true
	$1 ip link set "$2" mtu 1500 up
}

case $op in
down)
	down
	exit 0
	;;
up)
	mode=${1:-}
	shift || true
	routes=1
	while [ $# -gt 0 ]; do
		case $1 in
		--routes) routes=$2; shift ;;
		*) echo "veth.sh: unknown option $1" >&2; exit 2 ;;
		esac
		shift
	done
	case $mode in
	linux|dpdk) ;;
	*) echo "veth.sh up: MODE is linux or dpdk" >&2; exit 2 ;;
	esac
	;;
*)
	echo "veth.sh: up or down, not '$op'" >&2
	exit 2
	;;
esac

command -v ethtool >/dev/null || { echo "veth.sh: no ethtool (apt-get install ethtool)" >&2; exit 1; }
down
ip netns add "$ns"
n="ip netns exec $ns"
ip link add "${p}g0" address 02:00:00:00:00:02 type veth peer name "${p}d0" address 02:00:00:00:00:01
ip link add "${p}g1" address 02:00:00:00:02:02 type veth peer name "${p}d1" address 02:00:00:00:01:01
ip link set "${p}d0" netns "$ns"
ip link set "${p}d1" netns "$ns"
$n ip link set lo up
for i in g0 g1; do
	quiet_end "" "$p$i"
	ip link set "$p$i" promisc on
done
for i in d0 d1; do
	quiet_end "$n" "$p$i"
done
# the receive side's softirq work on the CPU of whoever receives
$n sh -c "echo 2 > /sys/class/net/${p}d0/queues/rx-0/rps_cpus"
echo 1 > "/sys/class/net/${p}g1/queues/rx-0/rps_cpus"
if [ "$mode" = linux ]; then
	$n sysctl -qw net.ipv4.ip_forward=1
	$n sysctl -qw net.ipv4.conf.all.rp_filter=0
	$n sysctl -qw "net.ipv4.conf.${p}d0.rp_filter=0"
	$n sysctl -qw net.ipv4.conf.all.send_redirects=0
	$n ip addr add 10.0.0.1/24 dev "${p}d0"
	$n ip addr add 10.0.1.1/24 dev "${p}d1"
	$n ip neigh replace 10.0.1.2 lladdr 02:00:00:00:02:02 dev "${p}d1" nud permanent
	python3 "$(dirname "$0")/traffic.py" linux-routes --routes "$routes" | $n ip -batch -
else
	$n sysctl -qw net.ipv4.ip_forward=0
fi
echo "veth.sh: $ns up ($mode): ${p}g0 -> ${p}d0 | ${p}d1 -> ${p}g1"
