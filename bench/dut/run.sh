#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Start one device under test of bench/compare.sh on CPU 1, in the
# foreground (the caller runs it in the background and stops it by pid
# with SIGTERM).
#
#   bench/dut/run.sh DEVICE WIRE WORKDIR [--routes R] [--ip6] [--print]
#
# DEVICE:  listack-list | listack-single | listack-fraglist-acl |
#          listack-off-acl | l3fwd | testpmd-io     (WIRE memif:SOCKDIR)
#          listack-veth | linux                     (WIRE veth:PREFIX)
# WIRE:    memif:SOCKDIR  two memif servers, SOCKDIR/gen0.sock (frames
#                         in) and gen1.sock (frames out), the generator
#                         their client: the device is up and polling
#                         before the generator connects and its first
#                         trial starts (a memif client cannot start
#                         before its server: it fails, and does not
#                         retry);
#          veth:PREFIX    the dut-side ends of bench/dut/veth.sh's pairs
#                         (PREFIX-dut namespace; listack-veth opens them
#                         with net_af_packet, linux forwards in the kernel:
#                         `veth.sh up PREFIX linux` did it, and this only
#                         waits)
# WORKDIR: the device's config, rules and log go here.
# --ip6: listack also gets the IPv6 addresses and routes of the
# generator's --ip6 traffic (traffic.py conf --ip6); l3fwd's IPv6 rule
# file always has them (LPM, --rule_ipv6).
# --print: print the command instead of running it.
# DUT_CTL=PATH: listack-fwd serves its control socket there (listack-ctl
# -s PATH), for bench/latency.sh's switches; default none.
#
# The addressing is bench/dut/traffic.py's (the generator's). The
# listack variants: list and single mode with R routes; fraglist-acl and
# off-acl add 1000 filter rules that match none of the traffic, with
# `gro fraglist` and `gro off` (frames of 1460 B make the fraglist case).
# l3fwd: LPM with R routes to port 1, --eth-dest the generator's RX MAC;
# its binary is $L3FWD, else /tmp/dpdk-examples/l3fwd/build/l3fwd.
# testpmd io: port 0 to port 1 untouched (the wire's floor).
set -euf	# -f: the command is one string split on spaces (no paths with
		# spaces), never globbed
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
[ $# -ge 3 ] || { awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "$0" >&2; exit 2; }
dev=$1 wire=$2 work=$3
shift 3
routes=1 print=0 ip6=""
while [ $# -gt 0 ]; do
	case $1 in
	--routes) routes=$2; shift ;;
	--ip6) ip6=--ip6 ;;
	--print) print=1 ;;
	*) echo "dut/run.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
case $dev:$wire in
listack-veth:veth:*|linux:veth:*) ;;
listack-veth:*|linux:*) echo "dut/run.sh: $dev runs on veth only" >&2; exit 2 ;;
*:veth:*) echo "dut/run.sh: $dev runs on memif only" >&2; exit 2 ;;
esac
build=${BUILD:-$top/build}
fwd=$build/listack-fwd
l3fwd=${L3FWD:-/tmp/dpdk-examples/l3fwd/build/l3fwd}
gen_rx_mac=02:00:00:00:02:02
mkdir -p "$work"

case $wire in
memif:*)
	s=${wire#memif:}
	ports="--vdev net_memif0,role=server,socket=$s/gen0.sock,rsize=14,mac=02:00:00:00:00:01 --vdev net_memif1,role=server,socket=$s/gen1.sock,rsize=14,mac=02:00:00:00:01:01"
	netns=""
	;;
veth:*)
	p=${wire#veth:}
	af="qpairs=1,blocksz=4096,framesz=2048,framecnt=1024,qdisc_bypass=1"
	ports="--vdev net_af_packet0,iface=${p}d0,$af --vdev net_af_packet1,iface=${p}d1,$af"
	netns="ip netns exec $p-dut"
	;;
*)
	echo "dut/run.sh: WIRE is memif:SOCKDIR or veth:PREFIX, not '$wire'" >&2
	exit 2
	;;
esac
eal="--no-huge --no-pci -m 1024 --file-prefix ${DUT_PREFIX:-lskcmp-dut}"

listack() {	# MODE traffic.py conf options...
	mode=$1
	shift
	[ -x "$fwd" ] || { echo "dut/run.sh: no $fwd (ninja -C $build, or BUILD=DIR)" >&2; exit 1; }
	python3 "$here/traffic.py" conf --routes "$routes" $ip6 "$@" > "$work/$dev.conf"
	cmd="taskset -c 1 $fwd --lcores (0,1)@1 $eal $ports -- --config $work/$dev.conf --mode $mode --ctl-socket ${DUT_CTL:-none}"
}

case $dev in
listack-list|listack-veth) listack list ;;
listack-single) listack single ;;
listack-fraglist-acl) listack list --gro fraglist --filter 1000 ;;
listack-off-acl) listack list --gro off --filter 1000 ;;
l3fwd)
	if [ ! -x "$l3fwd" ]; then
		echo "dut/run.sh: DPDK l3fwd is not built at $l3fwd: run" \
			"bench/build-l3fwd.sh [DIR] (it builds DIR/l3fwd/build/l3fwd," \
			"default /tmp/dpdk-examples) and give L3FWD=that path" >&2
		exit 1
	fi
	python3 "$here/traffic.py" l3fwd-rules --routes "$routes" "$work/l3fwd"
	cmd="taskset -c 1 $l3fwd -l 1 $eal $ports -- -p 0x3 --config (0,0,1),(1,0,1) --parse-ptype --eth-dest=1,$gen_rx_mac --rule_ipv4 $work/l3fwd.v4 --rule_ipv6 $work/l3fwd.v6"
	;;
testpmd-io)
	command -v dpdk-testpmd >/dev/null || { echo "dut/run.sh: no dpdk-testpmd (apt-get install dpdk)" >&2; exit 1; }
	cmd="taskset -c 1 dpdk-testpmd --lcores (0,1)@1 $eal $ports -- --forward-mode=io --auto-start --stats-period 1 --nb-cores=1 --total-num-mbufs 16384"
	;;
linux)
	# the kernel forwards (veth.sh up PREFIX linux); nothing to run
	cmd="sleep 2147483647"
	netns=""
	;;
*)
	echo "dut/run.sh: no device '$dev'" >&2
	exit 2
	;;
esac
if [ $print = 1 ]; then
	echo $netns $cmd
	exit 0
fi
exec $netns $cmd
