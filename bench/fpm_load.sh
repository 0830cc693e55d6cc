#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A full Internet table over FPM while listack-fwd forwards: how fast the
# routes are installed, and what the load costs forwarding (issue 23).
#
#   bench/fpm_load.sh [--routes N] [--seconds S] [--flows F] [--lcores L]
#                     [--no-tap] [--mem 'EAL OPTIONS'] [--zebra-cpu C]
#                     [--build DIR] [--out DIR]
#
# listack-fwd forwards a net_pcap port replaying a file forever to a
# net_null port (bench/feed.sh's feed; --flows F flows over 64 configured
# routes), with `port 1 host-if lskfpm1` (the TAP zebra's nexthops name)
# and `fpm listen 127.0.0.1:2620`, on lcores L (default 0,1: the control
# thread, which serves FPM, on CPU 0; the worker on CPU 1). --no-tap
# leaves the TAP out (the nexthops then name an ifindex listack does not
# know, and their gateways' subnet gives the port). --mem gives EAL's
# memory options (default '--no-huge -m 3072': ordinary pages, each
# touched first at a fault; '-m 1024' or '' takes hugepages).
# --zebra-cpu C pins the sender (zebra's stand-in) and listack-ctl's
# polls to CPU C (e.g. 0, the control thread's); by default the kernel
# places them. Then:
#
# 1. the forwarding rate without load: port 1's TX packets over S s
#    (default 3), read with `listack-ctl -j show interfaces`;
# 2. bench/fpm_feed.py sends N routes (default 1M, generated once into
#    --out; the nexthops name the TAP's ifindex) as zebra frames them, and the clock
#    runs from the connection to the moment `listack-ctl -j route get
#    192.0.2.1` (the last route sent) answers 192.0.2.0/24 (polled every
#    50 ms): routes/s = (N + 1) / that time; the forwarding rate over the
#    same interval;
# 3. the forwarding rate again, with the table installed, over S s;
#    `show routes` is counted once, and the fpm section of `show stats`.
#
# Each rate is also given per second of CPU time the worker thread
# (rte-worker-1) got, and the FPM thread's (lsk-fpm) CPU time during the
# load is reported: on a shared machine a worker that lost its CPU to
# other work shows there, not as a slower stack.
#
# Output in DIR (default /tmp/listack-fpm): fpm_load.md, fpm_load.json,
# commands.txt, listack-fwd.log. Root (the TAP). The machine's other load
# shows in the figures: run it on a quiet machine (bench/run-quiet.sh).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
routes=1000000 seconds=3 flows=64 lcores=0,1 build="$top/build"
out=/tmp/listack-fpm tap=1 mem='--no-huge -m 3072' zcpu=
while [ $# -gt 0 ]; do
	case $1 in
	--routes) routes=$2; shift ;;
	--seconds) seconds=$2; shift ;;
	--flows) flows=$2; shift ;;
	--lcores) lcores=$2; shift ;;
	--no-tap) tap=0 ;;
	--mem) mem=$2; shift ;;
	--zebra-cpu) zcpu=$2; shift ;;
	--build) build=$2; shift ;;
	--out) out=$2; shift ;;
	-h|--help) awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "$0"; exit 0 ;;
	*) echo "fpm_load.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done
fwd="$build/listack-fwd"
ctl="$build/listack-ctl"
[ -x "$fwd" ] && [ -x "$ctl" ] || { echo "fpm_load.sh: no $fwd or $ctl (ninja -C $build, or --build DIR)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "fpm_load.sh: run as root (listack-fwd makes a TAP)" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
pcap="$out/feed-${flows}f.pcap"
conf="$out/fwd.conf"
sock="$out/ctl.sock"
python3 "$here/dut/traffic.py" pcap --flows "$flows" --routes 64 --size 64 "$pcap"
{
	python3 "$here/dut/traffic.py" conf --routes 64
	echo "neigh add 10.0.1.3 lladdr 02:00:00:00:02:03"
	[ "$tap" = 0 ] || echo "port 1 host-if lskfpm1"
	echo "fpm listen 127.0.0.1:2620"
} > "$conf"
fwd_pid=
feed_pid=
cleanup() {
	[ -n "$feed_pid" ] && kill "$feed_pid" 2>/dev/null || true
	if [ -n "$fwd_pid" ]; then
		kill -TERM "$fwd_pid" 2>/dev/null || true
		wait "$fwd_pid" 2>/dev/null || true
	fi
	rm -rf /var/run/dpdk/lsk-fpm 2>/dev/null || true
}
trap cleanup EXIT INT TERM

argv="$fwd -l $lcores $mem --no-pci --file-prefix lsk-fpm --vdev net_pcap0,rx_pcap=$pcap,infinite_rx=1 --vdev net_null1,no-rx=1 -- --config $conf --ctl-socket $sock"
echo "$argv" > "$out/commands.txt"
# shellcheck disable=SC2086
$argv > "$out/listack-fwd.log" 2>&1 &
fwd_pid=$!
i=0
until grep -q '^listack-fwd: [0-9]* ports' "$out/listack-fwd.log" 2>/dev/null &&
	{ [ "$tap" = 0 ] || [ -e /sys/class/net/lskfpm1/ifindex ]; }; do
	i=$((i + 1))
	if [ $i -gt 300 ] || ! kill -0 "$fwd_pid" 2>/dev/null; then
		echo "fpm_load.sh: listack-fwd did not start:" >&2
		tail -5 "$out/listack-fwd.log" >&2
		exit 1
	fi
	sleep 0.1
done
oif=2
[ "$tap" = 0 ] || oif=$(cat /sys/class/net/lskfpm1/ifindex)
table="$out/table-$routes.fpm"
if [ ! -s "$table" ]; then
	echo "generating $routes routes (bench/fpm_feed.py gen, once) ..."
	python3 "$here/fpm_feed.py" gen --routes "$routes" "$table.tmp" > "$out/table.json"
	mv "$table.tmp" "$table"
fi
pin=
[ -z "$zcpu" ] || pin="taskset -c $zcpu"
echo "$pin python3 $here/fpm_feed.py send --addr 127.0.0.1:2620 --oif $oif $table" >> "$out/commands.txt"

$pin python3 - "$ctl" "$sock" "$here/fpm_feed.py" "$table" "$routes" "$seconds" "$out" "$oif" "$fwd_pid" <<'EOF' | tee "$out/fpm_load.md"
import json, os, subprocess, sys, time
ctl, sock, feed, table, routes, seconds, out, oif, pid = sys.argv[1:]
routes, seconds = int(routes), float(seconds)
HZ = os.sysconf("SC_CLK_TCK")

def threads(name):
    for t in os.listdir("/proc/%s/task" % pid):
        with open("/proc/%s/task/%s/comm" % (pid, t)) as f:
            if f.read().strip() == name:
                yield t

def cpu(name):
    """CPU seconds the threads called name have had."""
    s = 0
    for t in threads(name):
        with open("/proc/%s/task/%s/stat" % (pid, t)) as f:
            v = f.read().rsplit(")", 1)[1].split()
        s += (int(v[11]) + int(v[12])) / HZ
    return s

def ctl_json(*words):
    r = subprocess.run([ctl, "-s", sock, "-j"] + list(words),
                       capture_output=True, text=True, timeout=60)
    return json.loads(r.stdout) if r.returncode == 0 else None

def tx1():
    for i in ctl_json("show", "interfaces") or []:
        if i.get("port") == 1 and i.get("vlan") == 0:
            return i["tx"]["packets"]
    raise SystemExit("no TX counter for port 1")

def rate(s):
    """(packets/s, packets per second of the worker's CPU time)"""
    c0, t0, w0 = tx1(), time.monotonic(), cpu("rte-worker-1")
    time.sleep(s)
    c1, t1, w1 = tx1(), time.monotonic(), cpu("rte-worker-1")
    return (c1 - c0) / (t1 - t0), (c1 - c0) / max(w1 - w0, 1e-3)

def last_visible():
    a = ctl_json("route", "get", "192.0.2.1")
    return a is not None and a.get("prefix") == "192.0.2.0/24"

time.sleep(1)                       # the feed's start-up
before = rate(seconds)
c0, t0, w0, f0 = tx1(), time.monotonic(), cpu("rte-worker-1"), cpu("lsk-fpm")
feeder = subprocess.Popen([sys.executable, feed, "send", "--hold", "600",
                           "--oif", oif, table], stdout=subprocess.PIPE,
                          text=True)
sent = json.loads(feeder.stdout.readline())
t_end = None
while time.monotonic() < sent["connected"] + 300:
    if last_visible():
        t_end = time.monotonic()
        break
    time.sleep(0.05)
c1, t1, w1, f1 = tx1(), time.monotonic(), cpu("rte-worker-1"), cpu("lsk-fpm")
if t_end is None:
    feeder.kill()
    raise SystemExit("the last route is not visible after 300 s")
took = t_end - sent["connected"]
during = ((c1 - c0) / (t1 - t0), (c1 - c0) / max(w1 - w0, 1e-3))
after = rate(seconds)
n = len(ctl_json("show", "routes") or [])
stats = ctl_json("show", "stats") or {}
feeder.kill()
res = {"routes_sent": routes + 1, "seconds": round(took, 3),
       "routes_per_s": round((routes + 1) / took),
       "send_seconds": round(sent["sent"] - sent["connected"], 3),
       "fpm_thread_cpu_s": round(f1 - f0, 3),
       "mpps_before": round(before[0] / 1e6, 3),
       "mpps_during": round(during[0] / 1e6, 3),
       "mpps_after": round(after[0] / 1e6, 3),
       "mpps_per_worker_cpu_s_before": round(before[1] / 1e6, 3),
       "mpps_per_worker_cpu_s_during": round(during[1] / 1e6, 3),
       "mpps_per_worker_cpu_s_after": round(after[1] / 1e6, 3),
       "show_routes_lines": n,
       "fpm": stats.get("fpm"),
       "load": open("/proc/loadavg").read().split()[:3]}
json.dump(res, open(out + "/fpm_load.json", "w"), indent=1)
print("| routes | install s | routes/s | FPM thread CPU s | Mpps before "
      "| during | after (table in) | per worker CPU-s: before | during "
      "| after | show routes lines | load |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
print("| %d | %.2f | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f "
      "| %d | %s |" % (
    routes + 1, took, res["routes_per_s"], res["fpm_thread_cpu_s"],
    res["mpps_before"], res["mpps_during"], res["mpps_after"],
    res["mpps_per_worker_cpu_s_before"], res["mpps_per_worker_cpu_s_during"],
    res["mpps_per_worker_cpu_s_after"], n, " ".join(res["load"])))
print("\nfpm counters: %s" % json.dumps(res["fpm"]))
EOF
