#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# listack-fwd beside DPDK l3fwd and testpmd io where the device, not a
# generator, sets the rate: each forwards a net_pcap port replaying a file
# forever (the frame copy runs inside its own rx_burst, on its own CPU) to
# a net_null port, on CPU 1 alone, in one lcore. The figure to compare with l3fwd when
# the generator over memif cannot outrun the devices (bench/RESULTS.md).
#
#   bench/feed.sh [--runs N] [--seconds S] [--flows F] [--routes R]
#                 [--size B] [--build DIR] [--out DIR] [--quiet-wait]
#                 [--ip6] [--table plain|bgp] [--seed S]
#                 [--dist flows|uniform|zipf] [--count N] [--hot H]
#                 [--zipf-s S] [--cache [N]] [--only LIST] [--mem MB]
#                 [--runtime] [--huge] [--start-timeout S]
#                 [--grout PATH [--grcli PATH]]
#
# Devices, in turn, runs alternated: listack-fwd list, listack-fwd single
# (both --rx-burst 64, 64 frames per poll; l3fwd asks for 32), listack-fwd
# list with --rx-burst 32,
# l3fwd (LPM, the same routes; bench/build-l3fwd.sh builds it), testpmd io
# (the feed and PMD floor). Each measurement reads port 1's opackets over
# telemetry (bench/ethdev-rate.py --cpu); "Mpps per CPU-s" divides by the
# CPU time the forwarding thread got, so a shared machine shows as a lower
# CPU share, not as a slower device. Ratios are of medians over the runs.
#
# --ip6: the same over IPv6 (bench/traffic6.c's addressing: listack-fwd
# gets the IPv6 addresses and /56 routes, l3fwd its --rule_ipv6 file of
# the same routes); --size defaults to 84 there.
#
# A full table (bench/RESULTS.md, issue 25): --routes above 65,536 (or
# --table bgp) loads bench/dut/fulltable.py's BGP-like table of that many
# prefixes (made from --seed) into every device; --dist uniform sends
# each frame to a host of a prefix drawn uniformly, --dist zipf draws from
# a hot set of --hot destinations (default 100,000) with Zipf exponent
# --zipf-s (default 1.0); --count frames on file (default 200,000). A file
# of more than 4096 frames sizes the mbuf pools for net_pcap, which keeps
# the file in mbufs: listack-fwd --mbufs, testpmd --total-num-mbufs and
# l3fwd's pool (L3FWD_MBUFS, bench/build-l3fwd.sh) get twice the frames
# and 16,384 more, and EAL -m grows to hold them (--mem MB sets it).
# --cache [N] adds listack-fwd list with `route-cache on entries N`
# (default 4096) at 64 and 32 a poll. The cache is asked on the fast
# path (fwd_fast) as in the stages: with --runtime, fwd_fast's cycles a
# packet with the cache stand beside those of the FIB alone (list).
# --only LIST measures only these of list,single,list-rx32,cache,
# cache-rx32,l3fwd,l3fwd-fib,testpmd-io,grout; l3fwd-fib (l3fwd
# --lookup fib: rte_fib, the library listack's FIB is, with 4-byte next
# hops) runs only when named there.
# --runtime gives each listack-fwd a control socket and keeps its `show
# runtime` (the stages' cycles a packet, over its whole run) at the end of
# the interval in runtime-NAME-RUN.txt, and its `show stats` (the route
# cache's hits and misses) in stats-NAME-RUN.txt (without --runtime:
# --ctl-socket none).
# --huge runs listack-fwd, l3fwd and testpmd on 2 MiB hugepages (EAL -m
# MB from the free pages, --huge-unlink) instead of --no-huge, as a
# router runs: a full table's DIR-24-8 (32-64 MiB) then needs 16-32 TLB
# entries, not 8,000-16,000 4 KiB pages, so a random lookup misses the
# cache once instead of the cache and the TLB. It needs hugetlbfs
# mounted and MB/2 free pages (/proc/sys/vm/nr_hugepages, as root).
# --grout PATH adds grout (github:DPDK/grout v0.17.1, built outside the
# tree: docs/benchmarks.md; the bench never builds it), its grcli beside
# it or --grcli PATH: bench/grout-rate.py runs it on the same feed (its
# frames addressed to the MAC grout's net_pcap port has), the same
# routes, CPU 1 alone, and reads its rate with grcli (grout turns
# telemetry off); its nodes' cycles a packet in grout-software-RUN.txt.
# The devices' load time (launch to first packet out) is in runs.jsonl
# ("start_seconds") and the tables' last column. Each may take 30 s, or
# with a full table 30 s + 1 s per 2,500 routes (l3fwd's LPM: per 1,000
# routes); --start-timeout S sets every device's limit.
#
# Output in DIR (default /tmp/listack-feed): runs.jsonl, feed.md (every
# run, medians, ratios to l3fwd), commands.txt.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
runs=3 seconds=3 flows=1 routes=1 size="" build="$top/build" ip6=""
out=/tmp/listack-feed quiet=0 table="" seed=1 dist=flows count="" hot=100000
zipf_s=1.0 cache="" only="" mem="" runtime=0 grout="" grcli="" huge=0
start_timeout=""
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift ;;
	--seconds) seconds=$2; shift ;;
	--flows) flows=$2; shift ;;
	--routes) routes=$2; shift ;;
	--size) size=$2; shift ;;
	--build) build=$2; shift ;;
	--out) out=$2; shift ;;
	--quiet-wait) quiet=1 ;;
	--ip6) ip6=--ip6 ;;
	--table) table=$2; shift ;;
	--seed) seed=$2; shift ;;
	--dist) dist=$2; shift ;;
	--count) count=$2; shift ;;
	--hot) hot=$2; shift ;;
	--zipf-s) zipf_s=$2; shift ;;
	--cache) cache=4096
		case ${2:-} in [0-9]*) cache=$2; shift ;; esac ;;
	--only) only=",$2," ; shift ;;
	--mem) mem=$2; shift ;;
	--runtime) runtime=1 ;;
	--huge) huge=1 ;;
	--start-timeout) start_timeout=$2; shift ;;
	--grout) grout=$2; shift ;;
	--grcli) grcli=$2; shift ;;
	-h|--help) awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "$0"; exit 0 ;;
	*) echo "feed.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done
# the devices run in --out: the build's path made absolute
build=$(cd "$build" 2>/dev/null && pwd) || { echo "feed.sh: no build directory $build" >&2; exit 1; }
[ -n "$size" ] || { [ -n "$ip6" ] && size=84 || size=64; }
fwd="$build/listack-fwd"
l3fwd=${L3FWD:-/tmp/dpdk-examples/l3fwd/build/l3fwd}
[ -x "$fwd" ] || { echo "feed.sh: no $fwd (ninja -C $build, or --build DIR)" >&2; exit 1; }
# wanted NAME: --only names it, or there is no --only
wanted() {
	[ -z "$only" ] || case $only in *",$1,"*) ;; *) return 1 ;; esac
}
# l3fwd-fib runs only when --only names it
if wanted l3fwd || { [ -n "$only" ] && wanted l3fwd-fib; }; then
	[ -x "$l3fwd" ] || { echo "feed.sh: DPDK l3fwd is not built at $l3fwd: run bench/build-l3fwd.sh (or set L3FWD)" >&2; exit 1; }
	[ "$routes" -le 1024 ] || grep -q L3FWD_MBUFS "$l3fwd" || { echo "feed.sh: $l3fwd holds 1,024 routes: build it again with bench/build-l3fwd.sh" >&2; exit 1; }
fi
[ -z "$grout" ] || [ -x "$grout" ] || { echo "feed.sh: no grout at $grout" >&2; exit 1; }
[ -z "$grout" ] || [ -x "${grcli:=$(dirname "$grout")/grcli}" ] || { echo "feed.sh: no grcli at $grcli (--grcli PATH)" >&2; exit 1; }
! wanted testpmd-io || command -v dpdk-testpmd >/dev/null || { echo "feed.sh: dpdk-testpmd not found (apt-get install dpdk)" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ -n "$table" ] || { [ "$routes" -gt 65536 ] && table=bgp || table=plain; }
tab="--routes $routes --table $table --seed $seed"
# A full table's files take minutes to write on a busy machine: those in
# DIR named for the same options and newer than the scripts are kept
tname="${routes}r-$table-$seed${ip6:+-ip6}"
pcap="$out/feed-${flows}f-${tname}-${size}b-$dist-${count:-d}c-${hot}h-${zipf_s}s.pcap"
conf="$out/fwd-$tname.conf"
fresh() {
	[ -s "$1" ] && [ -n "$(find "$1" -newer "$here/dut/traffic.py" \
		-newer "$here/dut/fulltable.py")" ]
}
fresh "$pcap" || python3 "$here/dut/traffic.py" pcap $tab --flows "$flows" \
	--size "$size" --dist "$dist" ${count:+--count "$count"} --hot "$hot" \
	--zipf-s "$zipf_s" $ip6 "$pcap"
fresh "$conf" || python3 "$here/dut/traffic.py" conf $tab $ip6 > "$conf"
if [ -n "$cache" ]; then
	# traffic.py conf --route-cache N and --filter 1 write these lines last
	{ cat "$conf"; echo "route-cache on entries $cache"; } > "$out/fwd-cache.conf"
fi
fresh "$out/l3fwd-$tname.v4" ||
	python3 "$here/dut/traffic.py" l3fwd-rules $tab "$out/l3fwd-$tname"
# frames on file: 24-byte file header, 16 a record, the frame less its FCS
frames=$(( ($(stat -c %s "$pcap") - 24) / (16 + size - 4) ))
mbufs="" tpmbufs=""
if [ "$frames" -gt 4096 ]; then
	n=$((2 * frames + 16384))
	mbufs="--mbufs $n" tpmbufs="--total-num-mbufs=$n"
	export L3FWD_MBUFS=$n
	# about 2.5 KiB an mbuf, 1 GiB for the rest, 2 with a full table
	# (listack-fwd's FIB and its RIB's nodes, l3fwd's 128 MiB LPM)
	[ -n "$mem" ] || mem=$((n * 5 / 2 / 1024 + 1024))
	[ "$routes" -le 65536 ] || mem=$((mem + 1024))
fi
[ -n "$mem" ] || mem=1024
# a full table takes a minute to load on a busy machine (l3fwd's rte_lpm
# adds a rule by scanning the rules of its length: three on this VM)
start=30 lpm_start=30
# l3fwd's rte_lpm_add scans the rules of the new one's length: a million
# take minutes on a quiet machine and more on a busy one
[ "$routes" -le 65536 ] || start=$((30 + routes / 2500)) lpm_start=$((30 + routes / 1000))
[ -z "$start_timeout" ] || start=$start_timeout lpm_start=$start_timeout
ghz=$(awk '/^cpu MHz/{printf "%.3f", $4 / 1000; exit}' /proc/cpuinfo)
: > "$out/runs.jsonl"
: > "$out/commands.txt"
trap 'rm -rf /var/run/dpdk/lsk-feed-* 2>/dev/null || true' EXIT INT TERM

script=feed.sh
. "$here/dut/measure.sh"

eal="--no-huge --no-pci -m $mem"
if [ "$huge" = 1 ]; then
	page_kb=$(awk '/^Hugepagesize:/ { print $2 }' /proc/meminfo)
	free=$(awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo)
	total=$(awk '/^HugePages_Total:/ { print $2 }' /proc/meminfo)
	need=$((mem * 1024 / page_kb))
	grep -q ' hugetlbfs ' /proc/mounts || { echo "feed.sh: --huge: no hugetlbfs mounted (mount -t hugetlbfs nodev /dev/hugepages)" >&2; exit 1; }
	[ "${free:-0}" -ge "$need" ] || { echo "feed.sh: --huge: $need free pages of $page_kb kB needed for -m $mem, ${free:-0} free (as root: echo $((total + need - ${free:-0})) > /proc/sys/vm/nr_hugepages)" >&2; exit 1; }
	eal="--no-pci -m $mem --huge-unlink"
fi
# fwd NAME CONF BURST MODE: one listack-fwd measurement, `show runtime`
# kept
fwd() {
	wanted "$1" || return 0
	sock=none at_end=""
	if [ "$runtime" = 1 ]; then
		sock="$out/ctl.sock"
		ctl="'$build/listack-ctl' -s '$sock'"
		at_end="$ctl show runtime > '$out/runtime-$1-$r.txt' 2>&1;"
		at_end="$at_end $ctl show stats > '$out/stats-$1-$r.txt' 2>&1"
	fi
	measure "listack-$1" 1 "$fwd" -l 1 $eal \
		--file-prefix lsk-feed-f --vdev "$rx" --vdev "$tx" -- \
		--config "$2" --mode "$4" --ctl-socket "$sock" --rx-burst "$3" \
		$mbufs
}
# listack-fwd and l3fwd: one lcore, CPU 1, that forwards (listack-fwd's
# main lcore runs the worker itself and its chores between polls: a
# sleeping main lcore beside a worker on the same CPU cost 5-8 % here);
# testpmd needs two: its main lcore sleeps beside the forwarding one
lcores='(0,1)@1'
# grout NAME: grout on the feed (bench/grout-rate.py), its line in
# runs.jsonl as measure's
grout_run() {
	[ -n "$grout" ] && wanted "$1" || return 0
	[ "$quiet" = 1 ] && "$here/run-quiet.sh" true
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	set -- "$here/grout-rate.py" --grout "$grout" --grcli "$grcli" \
		--pcap "$pcap" --conf "$conf" --out "$out" --seconds "$seconds" \
		--start-timeout "$start" ${mbufs:+--mem "$mem"}
	echo "$* --json $out/one.json" >> "$out/commands.txt"
	timeout -k 10 $((start + 60 + ${seconds%.*})) python3 "$@" \
		--json "$out/one.json" > "$out/one.txt" 2>&1 || {
		cat "$out/one.txt" >&2
		echo "feed.sh: grout failed (see $out/grout.log)" >&2
		exit 1
	}
	cp "$out/grout-software.txt" "$out/grout-software-$r.txt"
	sed "s/^/grout x1: /" "$out/one.txt"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.update(name="grout", n=1, load=sys.argv[2]); print(json.dumps(d))' \
		"$out/one.json" "$load" >> "$out/runs.jsonl"
}
rx="net_pcap0,rx_pcap=$pcap,infinite_rx=1"
tx="net_null1,no-rx=1"
r=1
while [ $r -le "$runs" ]; do
	echo "== run $r of $runs ($(uptime | sed 's/.*load/load/'))"
	fwd list "$conf" 64 list
	fwd single "$conf" 64 single
	# and with l3fwd's own burst, 32 frames a poll
	fwd list-rx32 "$conf" 32 list
	if [ -n "$cache" ]; then
		fwd cache "$out/fwd-cache.conf" 64 list
		fwd cache-rx32 "$out/fwd-cache.conf" 32 list
	fi
	# l3fwd's one lcore is its main lcore; the worker thread CPU time
	# ethdev-rate.py reads is that of the process's busiest thread
	at_end=""
	fwd_start=$start start=$lpm_start
	! wanted l3fwd || measure l3fwd 1 "$l3fwd" -l 1 $eal \
		--file-prefix lsk-feed-l \
		--vdev "$rx" --vdev "$tx" -- -p 0x3 --config '(0,0,1)' \
		--parse-ptype --rule_ipv4 "$out/l3fwd-$tname.v4" \
		--rule_ipv6 "$out/l3fwd-$tname.v6"
	start=$fwd_start
	[ -z "$only" ] || ! wanted l3fwd-fib || measure l3fwd-fib 1 "$l3fwd" \
		-l 1 $eal --file-prefix lsk-feed-l \
		--vdev "$rx" --vdev "$tx" -- -p 0x3 --config '(0,0,1)' \
		--parse-ptype --lookup fib --rule_ipv4 "$out/l3fwd-$tname.v4" \
		--rule_ipv6 "$out/l3fwd-$tname.v6"
	! wanted testpmd-io || measure testpmd-io 1 dpdk-testpmd \
		--lcores "$lcores" $eal \
		--file-prefix lsk-feed-t --vdev "$rx" --vdev "$tx" -- \
		--forward-mode=io --auto-start --stats-period 1 --nb-cores=1 \
		$tpmbufs
	grout_run grout
	r=$((r + 1))
done
python3 - "$out" "$flows" "$routes" "$size" "$ghz" "${ip6:+IPv6}" \
	"$table" "$dist" "$frames" <<'EOF' | tee "$out/feed.md"
import json, statistics, sys
out, flows, routes, size, ghz, fam, table, dist, frames = sys.argv[1:]
rows = [json.loads(l) for l in open(out + "/runs.jsonl")]
print("pcap feed: %s B %s frames (with FCS), %s frames on file, %s routes "
      "(table %s), destinations %s, one CPU\n"
      % (size, fam or "IPv4", frames, routes, table,
         "%s flows in turn" % flows if dist == "flows" else dist))
print("| device | Mpps | cycles/pkt | CPU share | Mpps per CPU-s | load | "
      "start s |")
print("|---|---|---|---|---|---|---|")
for d in rows:
    print("| %s | %.2f | %.0f | %.0f %% | %.2f | %s | %.1f |" % (
        # TSC cycles per packet of the one forwarding CPU
        d["name"], d["mpps"], float(ghz) * 1e3 / d["mpps"] if d["mpps"] else 0,
        100 * d.get("workers_cpu_share", 0),
        d.get("mpps_per_worker_cpu_s", 0), d["load"],
        d.get("start_seconds", 0)))
med = {}
for name in dict.fromkeys(d["name"] for d in rows):
    sel = [d for d in rows if d["name"] == name]
    med[name] = (statistics.median(d["mpps"] for d in sel),
                 statistics.median(d.get("mpps_per_worker_cpu_s", 0)
                                   for d in sel))
# against l3fwd (LPM), or l3fwd --lookup fib when only that ran
bname = "l3fwd" if "l3fwd" in med else "l3fwd-fib"
base = med.get(bname, (0, 0))
print("\n| device | median Mpps | x %s | median Mpps per CPU-s | x %s |"
      % (bname, bname))
print("|---|---|---|---|---|")
ratio = lambda a, b: "%.2f" % (a / b) if b else "-"
for name, (m, c) in med.items():
    print("| %s | %.2f | %s | %.2f | %s |" % (
        name, m, ratio(m, base[0]), c, ratio(c, base[1])))
EOF
echo
echo "commands: $out/commands.txt; every measurement: $out/runs.jsonl"
