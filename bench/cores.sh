#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# listack-fwd with two workers against one, each worker with its own RX
# and TX queues, and testpmd io with one and two forwarding cores on the
# same feed (the floor): the scaling ratio.
#
#   bench/cores.sh [--runs N] [--seconds S] [--flows F] [--routes R]
#                  [--size B] [--mode list|single] [--build DIR]
#                  [--out DIR] [--no-testpmd] [--quiet-wait]
#
# The feed: net_pcap infinite_rx with one rx_pcap per worker (each is a
# queue of its own; its replay copy runs inside that worker's rx_burst,
# so each worker feeds itself and no feed thread takes a worker's CPU),
# TX to net_null (frees). The lcores, on 2 CPUs:
#   1 worker:  main and worker 1 on CPU 1              --lcores '(0,1)@1'
#   2 workers: worker 1 on CPU 0, main and worker 2 on CPU 1
#                                                      --lcores '0@1,1@0,2@1'
# The main lcore sleeps (listack-fwd, testpmd --stats-period), so both
# layouts share a CPU with it alike. Runs alternate 1, 2, 1, 2, ...
#
# Each measurement reads port 1's opackets over telemetry
# (bench/ethdev-rate.py --cpu) and the CPU time the lcore worker threads
# got: "Mpps per worker CPU-second" is what each worker forwards per
# second it ran, so a worker that lost its CPU to other work on a shared
# machine shows as a lower CPU share, not as a slower stack. The ratio is
# given both ways: wall clock (2-worker Mpps / 1-worker Mpps) and by CPU
# (2 x 2-worker Mpps per worker CPU-second / 1-worker's), medians over
# the runs. uptime is recorded before every measurement.
#
# Output in DIR (default /tmp/listack-cores): runs.jsonl (every
# measurement), cores.md (per run, medians, ratios, the commands).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
runs=3 seconds=3 flows=1 routes=1 size=64 mode=list build="$top/build"
out=/tmp/listack-cores testpmd=1 quiet=0
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift ;;
	--seconds) seconds=$2; shift ;;
	--flows) flows=$2; shift ;;
	--routes) routes=$2; shift ;;
	--size) size=$2; shift ;;
	--mode) mode=$2; shift ;;
	--build) build=$2; shift ;;
	--out) out=$2; shift ;;
	--no-testpmd) testpmd=0 ;;
	--quiet-wait) quiet=1 ;;
	-h|--help) awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "$0"; exit 0 ;;
	*) echo "cores.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done
fwd="$build/listack-fwd"
[ -x "$fwd" ] || { echo "cores.sh: no $fwd (build it: ninja -C $build, or give --build DIR)" >&2; exit 1; }
if [ $testpmd = 1 ] && ! command -v dpdk-testpmd >/dev/null; then
	echo "cores.sh: dpdk-testpmd not found (apt-get install dpdk), or give --no-testpmd" >&2
	exit 1
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
pcap="$out/feed-${flows}f-${size}b.pcap"
conf="$out/fwd.conf"
python3 "$here/dut/traffic.py" pcap --flows "$flows" --routes "$routes" --size "$size" "$pcap"
python3 "$here/dut/traffic.py" conf --routes "$routes" > "$conf"
ghz=$(awk '/^cpu MHz/{printf "%.3f", $4 / 1000; exit}' /proc/cpuinfo)
: > "$out/runs.jsonl"
: > "$out/commands.txt"
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	rm -rf /var/run/dpdk/lsk-cores-* 2>/dev/null || true
}
trap cleanup EXIT INT TERM

script=cores.sh
. "$here/dut/measure.sh"

eal="--no-huge --no-pci -m 1024"
lcores1='(0,1)@1'
lcores2='0@1,1@0,2@1'
vdev1="net_pcap0,rx_pcap=$pcap,infinite_rx=1"
vdev2="net_pcap0,rx_pcap=$pcap,rx_pcap=$pcap,infinite_rx=1"
r=1
while [ $r -le "$runs" ]; do
	echo "== run $r of $runs ($(uptime | sed 's/.*load/load/'))"
	measure listack-fwd 1 "$fwd" --lcores "$lcores1" $eal --file-prefix lsk-cores-f1 \
		--vdev "$vdev1" --vdev net_null1,no-rx=1 -- --config "$conf" \
		--mode "$mode" --ctl-socket none
	measure listack-fwd 2 "$fwd" --lcores "$lcores2" $eal --file-prefix lsk-cores-f2 \
		--vdev "$vdev2" --vdev net_null1,no-rx=1 -- --config "$conf" \
		--mode "$mode" --ctl-socket none
	if [ $testpmd = 1 ]; then
		measure testpmd-io 1 dpdk-testpmd --lcores "$lcores1" $eal \
			--file-prefix lsk-cores-t1 --vdev "$vdev1" --vdev net_null1,no-rx=1 \
			-- --forward-mode=io --auto-start --stats-period 1 --nb-cores=1
		measure testpmd-io 2 dpdk-testpmd --lcores "$lcores2" $eal \
			--file-prefix lsk-cores-t2 --vdev "$vdev2" --vdev net_null1,no-rx=1 \
			-- --forward-mode=io --auto-start --stats-period 1 --nb-cores=2 \
			--rxq=2 --txq=2
	fi
	r=$((r + 1))
done
python3 - "$out" "$flows" "$routes" "$size" "$mode" <<'EOF' | tee "$out/cores.md"
import json, statistics, sys
out, flows, routes, size, mode = sys.argv[1:]
rows = [json.loads(l) for l in open(out + "/runs.jsonl")]
print("cores: %s B, %s flows, %s routes, listack-fwd %s mode\n"
      % (size, flows, routes, mode))
print("| device | workers | Mpps | worker CPU share | Mpps per worker CPU-s | load (1/5/15 min) |")
print("|---|---|---|---|---|---|")
for d in rows:
    print("| %s | %d | %.2f | %.0f %% | %.2f | %s |" % (
        d["name"], d["n"], d["mpps"], 100 * d["workers_cpu_share"],
        d.get("mpps_per_worker_cpu_s", 0), d["load"]))
print()
print("| device | median Mpps 1 / 2 | ratio (wall clock) | median Mpps per worker CPU-s 1 / 2 | ratio (by CPU: 2 x per-CPU rate) |")
print("|---|---|---|---|---|")
for name in sorted({d["name"] for d in rows}):
    m = {}
    c = {}
    for n in (1, 2):
        sel = [d for d in rows if d["name"] == name and d["n"] == n]
        m[n] = statistics.median(d["mpps"] for d in sel) if sel else 0
        c[n] = statistics.median(d.get("mpps_per_worker_cpu_s", 0)
                                 for d in sel) if sel else 0
    print("| %s | %.2f / %.2f | %.2f | %.2f / %.2f | %.2f |" % (
        name, m[1], m[2], m[2] / m[1] if m[1] else 0, c[1], c[2],
        2 * c[2] / c[1] if c[1] else 0))
EOF
echo
echo "commands: $out/commands.txt; every measurement: $out/runs.jsonl"
