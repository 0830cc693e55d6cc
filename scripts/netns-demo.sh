#!/bin/sh
# listack-fwd as the router of two Linux hosts, in network namespaces on
# this machine (as root, no NIC needed):
#
#   netns lsk-h1                  root namespace                  netns lsk-h2
#   eth0 10.1.0.2/24 <-veth-> lsk-lan [listack-fwd] lsk-wan <-veth-> eth0 10.2.0.2/24
#   gw 10.1.0.1               port 0 "lan"  af_packet  port 1 "wan"    gw 10.2.0.1
#
#   scripts/netns-demo.sh [--batch] [--build DIR]
#
# It builds listack into build/ if needed (scripts/setup.sh; --build DIR
# takes listack-fwd and listack-ctl from DIR as they are), makes the two
# hosts, starts listack-fwd on the root ends of their veths, pings h2 from
# h1 through it and sends a UDP datagram that h2 echoes back, then opens
# listack-ctl on its control socket. --batch (or no terminal on stdin)
# prints a few views instead and ends. On the way out (also on Ctrl-C or
# SIGTERM) it stops listack-fwd with SIGTERM, checks that every mbuf came
# back (mbufs_in_use 0 in its --stats-json) and removes the namespaces and
# veths. What a killed run left behind is removed first.
#
# LSK_DEMO_PREFIX (default lsk: up to 10 lower-case letters and digits)
# names the namespaces (PREFIX-h1, PREFIX-h2), the veths (PREFIX-lan,
# PREFIX-wan) and listack-fwd's EAL file prefix, so that a test can run
# beside a demo. Exit status: 0 when everything answered and no mbuf was
# left in use, 1 otherwise (130 or 143 when SIGINT or SIGTERM ended it
# before the prompt).
set -eu

batch=0
build=""
while [ $# -gt 0 ]; do
	case "$1" in
	--batch) batch=1 ;;
	--build) [ $# -ge 2 ] || { echo "netns-demo: --build needs a directory" >&2; exit 2; }
		build="$2"; shift ;;
	-h|--help) sed -n '2,26s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "netns-demo: unknown argument '$1' (try --help)" >&2; exit 2 ;;
	esac
	shift
done
[ -t 0 ] || batch=1
case "$build" in
''|/*) ;;
*) build="$(pwd)/$build" ;;
esac
cd "$(dirname "$0")/.."

p="${LSK_DEMO_PREFIX:-lsk}"
case "$p" in
''|*[!a-z0-9]*) echo "netns-demo: LSK_DEMO_PREFIX '$p': lower-case letters and digits only" >&2; exit 2 ;;
esac
[ ${#p} -le 10 ] || { echo "netns-demo: LSK_DEMO_PREFIX '$p': at most 10 characters" >&2; exit 2; }

if [ "$(id -u)" -ne 0 ]; then
	echo "netns-demo: needs root (it makes network namespaces and veths, and listack-fwd opens them with af_packet): run it as root or with sudo" >&2
	echo "netns-demo: without root, scripts/demo.sh runs listack-fwd on pcap files" >&2
	exit 1
fi

h1="$p-h1"
h2="$p-h2"
lan="$p-lan"
wan="$p-wan"
prefix="$p-netns-demo"
pidfile="/run/$prefix.pid"
py=/usr/bin/python3
[ -x "$py" ] || py=python3

if [ -z "$build" ]; then
	scripts/setup.sh build
	build=build
fi
fwd="$build/listack-fwd"
ctl="$build/listack-ctl"
for f in "$fwd" "$ctl"; do
	[ -x "$f" ] || { echo "netns-demo: $f not found (build listack first)" >&2; exit 1; }
done
for t in ip ethtool ping "$py"; do
	command -v "$t" >/dev/null 2>&1 || { echo "netns-demo: '$t' not found (scripts/install-deps.sh installs it)" >&2; exit 1; }
done

say() { printf '\n== %s ==\n' "$*"; }

# A process that runs: one that is gone, or a zombie (exited, not yet
# waited for), does not. A status file that can no longer be read (the
# shell reaped the process between two looks) counts as gone.
alive() {
	state=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$1/status" 2>/dev/null) || return 1
	[ -n "$state" ] && [ "$state" != Z ]
}

# Undo what a run (this one, or one that was killed) made. Only the
# listack-fwd whose pid the pid file holds, and only if it is the one with
# this demo's file prefix.
fwd_pid=""
tmp=""
remove_all() {
	if [ -f "$pidfile" ]; then
		read -r old_pid old_tmp <"$pidfile" || true
		if [ -n "${old_pid:-}" ] &&
			{ tr '\0' ' ' <"/proc/$old_pid/cmdline"; } 2>/dev/null |
			grep -q -- "--file-prefix $prefix "; then
			echo "netns-demo: stopping listack-fwd $old_pid left by an earlier run"
			kill -TERM "$old_pid" 2>/dev/null || true
			i=0
			while alive "$old_pid" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
			kill -KILL "$old_pid" 2>/dev/null || true
		fi
		case "${old_tmp:-}" in
		/tmp/$prefix.*) rm -rf "$old_tmp" ;;
		esac
		rm -f "$pidfile"
	fi
	for ns in "$h1" "$h2"; do
		ip netns del "$ns" 2>/dev/null || true
	done
	for l in "$lan" "$wan"; do
		ip link del "$l" 2>/dev/null || true
	done
	rm -rf "/var/run/dpdk/$prefix"
}

# Stop listack-fwd with SIGTERM: exit 0 and mbufs_in_use 0 in its stats,
# or say what went wrong (1).
stop_fwd() {
	[ -n "$fwd_pid" ] || return 0
	kill -TERM "$fwd_pid" 2>/dev/null || true
	i=0
	while alive "$fwd_pid"; do
		if [ $i -ge 300 ]; then
			echo "netns-demo: listack-fwd did not stop in 30 s after SIGTERM; killed" >&2
			kill -KILL "$fwd_pid" 2>/dev/null || true
			fwd_pid=""
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
	rc=0
	wait "$fwd_pid" || rc=$?
	fwd_pid=""
	say "listack-fwd stopped (SIGTERM): exit status $rc"
	if [ $rc -ne 0 ]; then
		tail -n 20 "$tmp/fwd.log" >&2
		return 1
	fi
	"$py" - "$tmp/stats.json" <<'EOF' || return 1
import json, sys
try:
    with open(sys.argv[1]) as f:
        n = json.load(f).get("mbufs_in_use")
except (OSError, ValueError) as e:
    print("netns-demo: no stats from listack-fwd: %s" % e, file=sys.stderr)
    sys.exit(1)
print("mbufs_in_use %s" % n)
sys.exit(0 if n == 0 else 1)
EOF
}

status=0
on_exit() {
	# a command that failed under set -e ends the script here too
	[ $? -eq 0 ] || [ $status -ne 0 ] || status=1
	trap - EXIT INT TERM
	set +e
	stop_fwd || status=1
	remove_all
	rm -rf "$tmp"
	echo "namespaces $h1 $h2 and veths $lan $wan removed"
	exit $status
}

remove_all
tmp=$(mktemp -d "/tmp/$prefix.XXXXXX")
trap on_exit EXIT
trap 'status=130; exit' INT
trap 'status=143; exit' TERM

say "two hosts: $h1 (10.1.0.2/24) and $h2 (10.2.0.2/24), routed by listack-fwd"
for n in 1 2; do
	if [ $n -eq 1 ]; then ns=$h1 root=$lan; else ns=$h2 root=$wan; fi
	ip netns add "$ns"
	ip link add "$root" type veth peer name eth0 netns "$ns"
	# the root end carries only what listack-fwd sends and receives:
	# no address, no IPv6, no GRO (af_packet wants wire-sized frames)
	sysctl -qw "net.ipv6.conf.$root.disable_ipv6=1" 2>/dev/null || true
	ethtool -K "$root" gro off >/dev/null 2>&1 || true
	# every veth end at 1500: af_packet on DPDK 22.11 takes frames up to
	# 1518 bytes, and its ring frames (framesz=2048 below) must hold them
	ip link set "$root" mtu 1500 up
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 2>/dev/null || true
	ip netns exec "$ns" ip link set lo up
	ip netns exec "$ns" ip link set eth0 mtu 1500
	# checksums made in software: else veth hands af_packet UDP frames
	# whose checksum holds only the pseudo-header sum (and the far host
	# drops them)
	ip netns exec "$ns" ethtool -K eth0 tx off >/dev/null
	ip netns exec "$ns" ip addr add "10.$n.0.2/24" dev eth0
	ip netns exec "$ns" ip link set eth0 up
	ip netns exec "$ns" ip route add default via "10.$n.0.1"
done

cat >"$tmp/listack.conf" <<EOF
# written by scripts/netns-demo.sh
port 0 name lan
port 1 name wan
address add 10.1.0.1/24 port lan
address add 10.2.0.1/24 port wan
EOF
sock="$tmp/ctl.sock"
say "listack-fwd on $lan (port 0, lan) and $wan (port 1, wan), af_packet"
sed 's/^/    /' "$tmp/listack.conf"
ring="qpairs=1,blocksz=4096,framesz=2048,framecnt=512,qdisc_bypass=1"
# its own session: Ctrl-C at the prompt is for listack-ctl, and this
# script stops listack-fwd itself
setsid "$fwd" --no-huge --no-pci -m 512 --file-prefix "$prefix" \
	--no-telemetry --log-level='*:warning' -l 0 \
	--vdev="net_af_packet0,iface=$lan,$ring" \
	--vdev="net_af_packet1,iface=$wan,$ring" \
	-- --config "$tmp/listack.conf" --stats-json "$tmp/stats.json" \
	--ctl-socket "$sock" </dev/null >"$tmp/fwd.log" 2>&1 &
fwd_pid=$!
echo "$fwd_pid $tmp" >"$pidfile"
i=0
until grep -q '^listack-fwd: [0-9]* ports' "$tmp/fwd.log" 2>/dev/null; do
	if ! alive "$fwd_pid" || [ $i -ge 300 ]; then
		echo "netns-demo: listack-fwd did not start:" >&2
		tail -n 20 "$tmp/fwd.log" >&2
		status=1
		exit
	fi
	sleep 0.1
	i=$((i + 1))
done
echo "listack-fwd is up (pid $fwd_pid), control socket $sock"

say "each host pings its gateway, listack-fwd"
ip netns exec "$h1" ping -c 1 -W 2 10.1.0.1 || status=1
ip netns exec "$h2" ping -c 1 -W 2 10.2.0.1 || status=1

say "$h1 pings $h2 through listack-fwd"
ip netns exec "$h1" ping -c 3 -i 0.3 -W 2 10.2.0.2 || status=1

say "UDP: $h1 sends a datagram to $h2 port 7777, $h2 echoes it back"
ip netns exec "$h2" "$py" -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("10.2.0.2", 7777))
s.settimeout(15)
open("'"$tmp"'/udp-ready", "w").close()
try:
    data, peer = s.recvfrom(2048)
    s.sendto(data, peer)
    print("%s: got %r from %s:%d, sent it back" % ("'"$h2"'", data, peer[0], peer[1]))
except socket.timeout:
    print("'"$h2"': no datagram in 15 s")
' &
echo_pid=$!
i=0
while [ ! -e "$tmp/udp-ready" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
ip netns exec "$h1" "$py" -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
msg = b"hello through listack"
s.settimeout(2)
for attempt in range(3):
    s.sendto(msg, ("10.2.0.2", 7777))
    try:
        data, peer = s.recvfrom(2048)
    except socket.timeout:
        continue
    ok = data == msg
    print("%s: %r echoed back by %s:%d%s" % ("'"$h1"'", data, peer[0], peer[1],
          "" if ok else " (not what was sent)"))
    sys.exit(0 if ok else 1)
print("'"$h1"': no echo from 10.2.0.2:7777")
sys.exit(1)
' || status=1
wait "$echo_pid" || status=1

if [ $batch -eq 1 ]; then
	for view in "show interfaces" "show routes" "show neigh" "show stats"; do
		say "listack-ctl $view"
		# shellcheck disable=SC2086
		"$ctl" -s "$sock" $view || status=1
	done
else
	say "listack-ctl: the router's prompt"
	cat <<EOF
Try: show interfaces, show routes, show neigh, show stats, show pipeline,
help. From another terminal, the hosts: ip netns exec $h1 ping 10.2.0.2
End with quit, Ctrl-D or Ctrl-C: listack-fwd is then stopped and the hosts
removed.
EOF
	trap 'exit 0' INT
	"$ctl" -s "$sock" || true
fi
