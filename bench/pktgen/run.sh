#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# listack-fwd or listack-bench driven by an outside generator: Pktgen-DPDK
# (built outside the tree, docs/benchmarks.md) on CPU 0 serves two memif
# ports; the device under test, on CPU 1, is their client and forwards what
# pktgen's
# port 0 sends (UDP/IPv4 to 198.18.1.1, bench/dut/traffic.py's
# addressing) back to its port 1. Both sides' counters are read and
# checked against each other (bench/pktgen/counters.py says what
# "agree" means).
#
#   bench/pktgen/run.sh --pktgen PATH [--dut fwd|bench] [--mode list|single]
#                       [--size B] [--seconds N] [--rate PCT]
#                       [--build DIR] [--out DIR] [--dry-run]
#
# --pktgen   the pktgen binary (pktgen-23.06.1 with the changes of
#            docs/benchmarks.md); required unless --dry-run
# --dut      fwd: listack-fwd (the default); bench: listack-bench --feed
#            ports (bench/feed_ports.c), the fwd scenario's variant --mode
#            on dut.conf, which measures its own interval (1 s after its
#            first packet, --seconds long) and forwards until run.sh
#            stops it, after pktgen's final counters are read
# --mode     the device's mode (default list)
# --size     frame size with FCS, 64 to 1518 (default 64)
# --seconds  the measured window (default 10), after 2 s of warm-up
# --rate     pktgen's rate in percent of the link (default 100: on memif,
#            as fast as it can)
# --dry-run  write OUT/run.lua, OUT/dut.conf and OUT/commands.txt, print
#            the commands, run nothing
#
# Output in OUT (default /tmp/listack-pktgen): report.md (both sides'
# Mpps and the checks), summary.json, pktgen.log, dut.log, stats.json
# (the device's --stats-json), result.json and device.json (the raw
# counters), with --dut bench bench.json (its --json). Exit status 1 if
# the two sides disagree.
set -euf	# -f: the commands are strings split on spaces, never globbed
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$(dirname "$here")")
pktgen="" dut=fwd mode=list size=64 seconds=10 rate=100 build="$top/build"
out=/tmp/listack-pktgen dry=0
usage() {
	echo "run.sh: $1 (see --help)" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--pktgen|--dut|--mode|--size|--seconds|--rate|--build|--out)
		[ $# -ge 2 ] || usage "$1 needs a value" ;;
	esac
	case $1 in
	--pktgen) pktgen=$2; shift ;;
	--dut) dut=$2; shift ;;
	--mode) mode=$2; shift ;;
	--size) size=$2; shift ;;
	--seconds) seconds=$2; shift ;;
	--rate) rate=$2; shift ;;
	--build) build=$2; shift ;;
	--out) out=$2; shift ;;
	--dry-run) dry=1 ;;
	-h|--help) awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "$0"; exit 0 ;;
	*) usage "unknown option $1" ;;
	esac
	shift
done
int() {	# NAME VALUE MIN MAX
	case $2 in ''|*[!0-9]*) usage "$1 '$2' is not a number" ;; esac
	[ "$2" -ge "$3" ] && [ "$2" -le "$4" ] ||
		usage "$1 $2 is not in $3..$4"
}
int --size "$size" 64 1518
int --seconds "$seconds" 1 3600
int --rate "$rate" 1 100
case $dut in
fwd) dut_bin=$build/listack-fwd ;;
bench) dut_bin=$build/bench/listack-bench ;;
*) usage "--dut is fwd or bench, not '$dut'" ;;
esac
case $mode in list|single) ;; *) usage "--mode is list or single, not '$mode'" ;; esac
if [ $dry = 0 ]; then
	[ -n "$pktgen" ] || usage "--pktgen PATH is required"
	[ -x "$pktgen" ] || { echo "run.sh: no pktgen at $pktgen" >&2; exit 1; }
	[ -x "$dut_bin" ] || { echo "run.sh: no $dut_bin (ninja -C $build, or --build DIR)" >&2; exit 1; }
	command -v script >/dev/null || { echo "run.sh: no script(1) (util-linux): pktgen wants a terminal" >&2; exit 1; }
fi
# Debian's python3: a pyenv shim starts slowly and, as a wrapper, may
# outlive the kill run.sh sends its pid
py=/usr/bin/python3
[ -x $py ] || py=python3
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/ports-started "$out"/links-up "$out"/window-start "$out"/window-end "$out"/stopped \
	"$out"/ack "$out"/result.json "$out"/device.json "$out"/stats.json \
	"$out"/summary.json "$out"/bench.json "$out"/dut-stopped

# pktgen's two ports (memif servers, abstract socket names) carry the
# MACs traffic.py gives the senders and the gateway, so listack-fwd's
# static neighbour points at pktgen's port 1
sock="$out/sock"
gen_ports="--vdev net_memif0,role=server,socket=$sock/gen0.sock,rsize=14,mac=02:00:00:00:00:02 --vdev net_memif1,role=server,socket=$sock/gen1.sock,rsize=14,mac=02:00:00:00:02:02"
dut_ports="--vdev net_memif0,role=client,socket=$sock/gen0.sock,rsize=14,mac=02:00:00:00:00:01 --vdev net_memif1,role=client,socket=$sock/gen1.sock,rsize=14,mac=02:00:00:00:01:01"
$py "$top/bench/dut/traffic.py" conf --routes 1 > "$out/dut.conf"
cat > "$out/run.lua" <<LUA
-- written by bench/pktgen/run.sh: --size $size --seconds $seconds --rate $rate
lsk = {
	size = $size, rate = $rate, seconds = $seconds, warmup = 2000,
	dst_mac = "02:00:00:00:00:01", src_ip = "10.0.0.2/24",
	dst_ip = "198.18.1.1", sport = 1024, dport = 1024,
	link_wait = 60000, out = "$out",
}
dofile("$here/fwd.lua")
LUA
# pktgen: its main lcore (display, stats, this script) and its one worker
# (both ports) on CPU 0, -m 4096: its pools do not fit in less
gen_cmd="taskset -c 0 ${pktgen:-PKTGEN} --lcores 0@0,1@0 --no-huge --no-pci -m 4096 --file-prefix lsk-pktgen-gen $gen_ports -- -P -m 1.[0-1] -f $out/run.lua"
if [ $dut = fwd ]; then
	dut_cmd="taskset -c 1 $dut_bin --lcores (0,1)@1 --no-huge --no-pci -m 1024 --file-prefix lsk-pktgen-dut $dut_ports -- --config $out/dut.conf --mode $mode --ctl-socket none --stats-json $out/stats.json"
else
	# two lcores on CPU 1 as listack-fwd (a busy worker beside a main
	# lcore that sleeps gets more of a shared CPU here than one lcore
	# does); its window lies inside pktgen's (1 s warm-up against 2)
	dut_cmd="taskset -c 1 $dut_bin --lcores (0,1)@1 --no-huge --no-pci -m 1024 --file-prefix lsk-pktgen-dut $dut_ports -- --scenario fwd --feed ports --variant $mode --config $out/dut.conf --warmup 1 --seconds $seconds --stats-json $out/stats.json --json $out/bench.json"
fi
dut_name=$(basename "$dut_bin")
{ echo "$gen_cmd"; echo "$dut_cmd"; } > "$out/commands.txt"
if [ $dry = 1 ]; then
	cat "$out/commands.txt"
	exit 0
fi

gen_pid="" pg_pid="" dut_pid="" watch_pid="" sleep_pid=""
cleanup() {
	# pktgen runs under script(1) (and its shell): end it by its pid first
	for p in $pg_pid $watch_pid $dut_pid $gen_pid $sleep_pid; do kill "$p" 2>/dev/null || true; done
	# a child killed between its fork and its exec may miss the first
	sleep 0.5
	for p in $pg_pid $watch_pid $dut_pid $gen_pid $sleep_pid; do kill "$p" 2>/dev/null || true; done
	rm -rf /var/run/dpdk/lsk-pktgen-gen /var/run/dpdk/lsk-pktgen-dut
}
trap cleanup EXIT INT TERM
listening() {	# the abstract socket's name in /proc/net/unix
	grep -q "@$sock/$1\$" /proc/net/unix
}
load=$(cut -d' ' -f1-3 /proc/loadavg)
# pktgen's console needs a terminal: script(1) gives it one; its stdin
# stays open (a FIFO a sleep holds) so that script does not end at EOF
rm -f "$out/stdin"
mkfifo "$out/stdin"
sleep $((seconds + 300)) > "$out/stdin" &
sleep_pid=$!
script -qfec "$gen_cmd" /dev/null < "$out/stdin" > "$out/pktgen.log" 2>&1 &
gen_pid=$!
i=0
until listening gen0.sock && listening gen1.sock && [ -e "$out/ports-started" ]; do
	i=$((i + 1))
	[ $i -le 600 ] || { echo "run.sh: pktgen's memif ports did not start (see $out/pktgen.log)" >&2; exit 1; }
	kill -0 $gen_pid 2>/dev/null || { echo "run.sh: pktgen exited (see $out/pktgen.log)" >&2; exit 1; }
	sleep 0.1
done
# a memif client that finds its server's port not yet started gives up:
# fwd.lua, which pktgen runs once its ports are started, says when
$dut_cmd > "$out/dut.log" 2>&1 &
dut_pid=$!
# pktgen's pid: the leaf under script(1) (and the shell it may run)
pg_pid=$gen_pid
while kid=$(cat /proc/$pg_pid/task/$pg_pid/children 2>/dev/null) && [ -n "$kid" ]; do
	pg_pid=${kid%% *}
done
# the device stops before pktgen quits (the watch waits for dut-stopped):
# a memif client whose server goes away under it may fault in the PMD
# (listack-fwd did once at load 17), its ports count nothing once the
# server is gone, and listack-bench reads them at its exit
ack_after="--ack-after $out/dut-stopped"
$py "$here/counters.py" watch "$out" /var/run/dpdk/lsk-pktgen-dut/dpdk_telemetry.v2 \
	/var/run/dpdk/lsk-pktgen-gen/dpdk_telemetry.v2 $dut_pid $pg_pid \
	--timeout $((seconds + 120)) $ack_after > "$out/watch.log" 2>&1 &
watch_pid=$!
stop_dut() {
	kill -TERM $dut_pid
	wait $dut_pid || { echo "run.sh: $dut_name exit $? (see $out/dut.log)" >&2; exit 1; }
	dut_pid=""
}
# either program may die on the way (a memif peer that never came, a
# bad configuration): the watch would wait for its timeout
while kill -0 $watch_pid 2>/dev/null; do
	if [ -n "$dut_pid" ] && [ -e "$out/device.json" ]; then
		stop_dut
		: > "$out/dut-stopped"
		continue
	fi
	[ -z "$dut_pid" ] || kill -0 $dut_pid 2>/dev/null || { echo "run.sh: $dut_name exited (see $out/dut.log)" >&2; exit 1; }
	kill -0 $pg_pid 2>/dev/null || [ -e "$out/ack" ] ||
		{ echo "run.sh: pktgen exited (see $out/pktgen.log, $out/result.json)" >&2; exit 1; }
	sleep 0.2
done
wait $watch_pid || { cat "$out/watch.log" >&2; echo "run.sh: the run did not finish (see $out/*.log)" >&2; exit 1; }
watch_pid=""
wait $gen_pid || true
gen_pid="" pg_pid=""
[ -z "$dut_pid" ] || stop_dut
rc=0
$py "$here/counters.py" report "$out" "$dut_name" > "$out/report.md" || rc=$?
if [ $dut = fwd ]; then
	what="listack-fwd --mode $mode"
else
	what="listack-bench --scenario fwd --feed ports --variant $mode"
fi
{ echo; echo "device: $what; load before: $load; after: $(cut -d' ' -f1-3 /proc/loadavg)"; } >> "$out/report.md"
if [ $dut = bench ]; then
	# its own figures: the measured interval's row, the whole run's ports
	{ echo; echo "listack-bench's report (dut.log):"; echo '```'
	  grep -A1 '^variant ' "$out/dut.log" || true
	  sed -n '/^the whole run/,$p' "$out/dut.log"; echo '```'; } >> "$out/report.md"
fi
cat "$out/report.md"
exit $rc
