#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The instruction counts of issue 21's speed rule, in one command: listack's
# own instructions per forwarded 64 B packet (listack-fwd, list mode, 1
# flow) and gro-adversarial's per datagram (GRO off and fraglist), counted
# by callgrind the way bench/RESULTS.md measures them ("Forwarding path,
# second pass"; "gro-adversarial with the fast path").
#
#   bench/callgrind.sh [--seconds S] [--all] [--keep DIR] BUILD_DIR
#
# BUILD_DIR: a build of listack-fwd and listack-bench with
#   meson setup BUILD_DIR -Dbuildtype=release -Ddebug=true
#   ninja -C BUILD_DIR -j2
# --seconds S  how long each listack-fwd run forwards under callgrind
#              before the script sends it SIGINT (default 5; per packet the
#              counts do not depend on the run's length)
# --all        also fwd single (1 flow), fwd list at 64 frames a poll
#              (list-1flow-rx64: own@32 - own@64 is what a burst costs apart
#              from its packets, / 64), fwd list at 4096 flows over 1024
#              routes, and the same with the 1000 filter rules that match
#              nothing (list-4096flows-filter1000: many destinations to
#              screen, issue 25 item 3)
# --keep DIR   keep the callgrind files, stats JSON, configs and logs there
#              (else everything is in a temporary directory, removed at exit)
#
# listack-fwd (rows "fwd ..."): the fwd scenario's pcap file, written by
# listack-bench, replayed forever by net_pcap (infinite_rx) into a net_null
# sink, one lcore that polls, `--toggle-collect=fwd_worker_poll`. Packets
# are ForwDatagrams of --stats-json. Whole loop = every instruction
# collected; feed = the inclusive count of rte_eth_rx_burst inlined in
# fwd_worker_poll (net_pcap's copy); tx = fwd_tx_shared's (net_null frees);
# listack's own = whole loop - feed - tx.
#
# listack-bench (rows "gro-adversarial ..."): `--scenario gro-adversarial
# --feed pcap --packets 100000 --warmup 0`, one variant a run,
# `--toggle-collect=bench_worker_loop`. Packets are the bench's counted
# datagrams (its JSON); the loop also runs the warm-up's first 512, so
# every figure is about 0.5 % above a true per-datagram count, as in
# RESULTS.md. Whole loop = every instruction collected; feed = the inlined
# rte_eth_rx_burst in bench_worker_loop with the RX callback that does the
# NIC's checksums and hash (bench/rx_cksum.c); tx = the bench's TX hook
# with the sink (pcap_tx_checked); listack's own = lsk_worker_input +
# lsk_worker_flush - tx (RESULTS.md, gro-fwd "Instructions").
#
# The functions can be renamed by the environment when the tree moves them:
# CG_POLL_FN (fwd_worker_poll), CG_TX_FN (fwd_tx_shared), CG_BENCH_LOOP_FN
# (bench_worker_loop), CG_BENCH_TX_FN (pcap_tx_checked), CG_INPUT_FN
# (lsk_worker_input), CG_FLUSH_FN (lsk_worker_flush). A function that is
# not found stops the script: a figure is never printed without its parts.
set -eu
usage() {
	echo "usage: bench/callgrind.sh [--seconds S] [--all] [--keep DIR] BUILD_DIR" >&2
	exit 2
}
seconds=5 all=0 keep='' build=''
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) [ $# -ge 2 ] || usage; seconds=$2; shift ;;
	--all) all=1 ;;
	--keep) [ $# -ge 2 ] || usage; keep=$2; shift ;;
	-h|--help) awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "$0"; exit 0 ;;
	-*) echo "callgrind.sh: unknown option $1" >&2; usage ;;
	*) [ -z "$build" ] || usage; build=$1 ;;
	esac
	shift
done
[ -n "$build" ] || usage
case $seconds in
''|*[!0-9.]*) echo "callgrind.sh: --seconds: '$seconds' is not a number" >&2; exit 2 ;;
esac
poll_fn=${CG_POLL_FN:-fwd_worker_poll}
tx_fn=${CG_TX_FN:-fwd_tx_shared}
loop_fn=${CG_BENCH_LOOP_FN:-bench_worker_loop}
hook_fn=${CG_BENCH_TX_FN:-pcap_tx_checked}
input_fn=${CG_INPUT_FN:-lsk_worker_input}
flush_fn=${CG_FLUSH_FN:-lsk_worker_flush}

fwd="$build/listack-fwd"
bench="$build/bench/listack-bench"
for x in "$fwd" "$bench"; do
	[ -x "$x" ] || { echo "callgrind.sh: no $x (ninja -C $build)" >&2; exit 1; }
done
for x in valgrind callgrind_annotate python3; do
	command -v "$x" >/dev/null || { echo "callgrind.sh: $x not found" >&2; exit 1; }
done
# the figures of RESULTS.md are of -Dbuildtype=release -Ddebug=true
python3 - "$build" <<'EOF' || exit 1
import json, os, sys
p = os.path.join(sys.argv[1], "meson-info", "intro-buildoptions.json")
try:
    opts = {o["name"]: o["value"] for o in json.load(open(p))}
except OSError:
    sys.exit(0)             # not a meson build dir: nothing to check
if opts.get("buildtype") != "release" or opts.get("debug") is not True:
    sys.stderr.write("callgrind.sh: %s is buildtype=%s debug=%s; the figures "
                     "are of -Dbuildtype=release -Ddebug=true\n"
                     % (sys.argv[1], opts.get("buildtype"), opts.get("debug")))
    sys.exit(1)
EOF

tmp=$(mktemp -d /tmp/listack-cg.XXXXXX)
prefix="lsk-cg-$$"
vg=
cleanup() {
	if [ -n "$vg" ] && kill -0 "$vg" 2>/dev/null; then
		kill -INT "$vg" 2>/dev/null || true
		wait "$vg" 2>/dev/null || true
	fi
	if [ -n "$keep" ]; then
		mkdir -p "$keep" && cp -R "$tmp"/. "$keep"/
	fi
	rm -rf "$tmp" "/var/run/dpdk/$prefix" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

eal="--no-huge --no-pci --no-shconf -m 1024 --file-prefix $prefix"
: > "$tmp/rows"

# parts NAME.cg FN...: callgrind_annotate's inclusive counts, one line
# "key count" per wanted part: total, and for each FN its own inclusive
# count (the largest of its file:function entries) and "FN@rte_ethdev.h"
# (what of FN is inlined from rte_ethdev.h: the rx or tx burst)
parts() {
	f=$1
	shift
	callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$f" \
		> "$f.annotate"
	python3 - "$f.annotate" "$@" <<'EOF'
import re, sys
path, fns = sys.argv[1], sys.argv[2:]
line_re = re.compile(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(\S+)")
total, fn_max, inl = None, {}, {}
for line in open(path):
    m = line_re.match(line)
    if not m:
        continue
    n = int(m.group(1).replace(",", ""))
    what = m.group(2)
    if what == "PROGRAM":
        total = n
        continue
    if ":" not in what:
        continue
    file, fn = what.rsplit(":", 1)
    fn_max[fn] = max(fn_max.get(fn, 0), n)
    if file.endswith("/rte_ethdev.h"):
        inl[fn] = inl.get(fn, 0) + n
print("total", total if total is not None else 0)
for fn in fns:
    print(fn, fn_max.get(fn, 0))
    print(fn + "@rte_ethdev.h", inl.get(fn, 0))
EOF
}

# part FILE KEY: one count of a parts file; a missing part is fatal
part() {
	v=$(awk -v k="$2" '$1 == k { print $2 }' "$1")
	if [ -z "$v" ] || [ "$v" = 0 ]; then
		echo "callgrind.sh: no count for $2 in $1 (renamed? see the CG_* variables)" >&2
		exit 1
	fi
	echo "$v"
}

# fwd_run NAME FLOWS ROUTES MODE [EXTRA_CONF [PCAP]]: EXTRA_CONF's lines
# after the bench's config; PCAP replayed instead of the scenario's;
# FWD_ARGS (a variable, empty unless set) added to listack-fwd's options
fwd_run() {
	name=$1 flows=$2 routes=$3 mode=$4
	d="$tmp/$name"
	mkdir -p "$d"
	pcap="$tmp/fwd-${flows}f-${routes}r.pcap"
	if [ ! -f "$pcap" ]; then
		# the fwd scenario's traffic and its routes, written by the bench
		"$bench" $eal -- --scenario fwd --feed pcap --flows "$flows" \
			--routes "$routes" --pcap "$pcap" --seconds 0.3 \
			--variant list > "$tmp/fwd-${flows}f-${routes}r.bench.log" 2>&1 ||
			{ echo "callgrind.sh: listack-bench failed writing $pcap:" >&2
			  tail -5 "$tmp/fwd-${flows}f-${routes}r.bench.log" >&2; exit 1; }
	fi
	# the bench's ports, addresses and neighbour; its routes
	{
		echo "port 0 mtu 1500 mac 02:00:00:00:00:01"
		echo "port 1 mtu 1500 mac 02:00:00:00:01:01"
		echo "address add 10.0.0.1/24 port 0"
		echo "address add 10.0.1.1/24 port 1"
		echo "neigh add 10.0.1.2 lladdr 02:00:00:00:02:02"
		sed -n 's/^R\([0-9.]*\/[0-9]*\) .*/route add \1 via 10.0.1.2/p' \
			"$pcap.l3fwd-v4.rules"
		[ -z "${5:-}" ] || cat "$5"
	} > "$d/fwd.conf"
	[ -z "${6:-}" ] || pcap=$6
	echo "== $name: listack-fwd --mode $mode, $flows flows, $routes routes, ${seconds} s under callgrind" >&2
	valgrind --tool=callgrind --toggle-collect="$poll_fn" \
		--callgrind-out-file="$d/cg.out" "$fwd" -l 0 $eal \
		--vdev "net_pcap0,rx_pcap=$pcap,infinite_rx=1" \
		--vdev 'net_null1,no-rx=1' -- --config "$d/fwd.conf" \
		--mode "$mode" --ctl-socket none --stats-json "$d/stats.json" \
		${FWD_ARGS:-} > "$d/log" 2>&1 &
	vg=$!
	# forwarding starts after the banner; valgrind takes a few seconds
	# to get there
	i=0
	until grep -q "workers, $mode mode" "$d/log"; do
		if ! kill -0 "$vg" 2>/dev/null || [ $i -ge 300 ]; then
			echo "callgrind.sh: listack-fwd did not start:" >&2
			tail -5 "$d/log" >&2
			exit 1
		fi
		sleep 1
		i=$((i + 1))
	done
	sleep "$seconds"
	kill -INT "$vg"
	rc=0
	wait "$vg" || rc=$?
	vg=
	# under valgrind on a loaded machine the teardown can outlast
	# listack-fwd's bound (src/app/main.c, TEARDOWN_S) after the stats
	# are written: their run counts whole, the exit is 1
	if [ "$rc" -ne 0 ] && grep -q 'shutdown stuck' "$d/log" &&
	   [ -s "$d/stats.json" ]; then
		echo "callgrind.sh: $name: the teardown outlasted listack-fwd's bound under valgrind; stats and counts are whole" >&2
		rc=0
	fi
	[ "$rc" -eq 0 ] || { echo "callgrind.sh: listack-fwd exited $rc:" >&2; tail -5 "$d/log" >&2; exit 1; }
	grep -q '^mbufs_in_use 0$' "$d/log" ||
		{ echo "callgrind.sh: $name: mbufs left in use (see $d/log)" >&2; exit 1; }
	pkts=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["ip"]["ForwDatagrams"])' "$d/stats.json")
	parts "$d/cg.out" "$poll_fn" "$tx_fn" > "$d/parts"
	whole=$(part "$d/parts" total)
	feed=$(part "$d/parts" "$poll_fn@rte_ethdev.h")
	tx=$(part "$d/parts" "$tx_fn")
	echo "fwd $name $pkts $whole $feed $tx $((whole - feed - tx)) -" >> "$tmp/rows"
}

# gro_run VARIANT
gro_run() {
	v=$1
	d="$tmp/gro-adversarial-$v"
	mkdir -p "$d"
	echo "== gro-adversarial $v: listack-bench --packets 100000 under callgrind" >&2
	valgrind --tool=callgrind --toggle-collect="$loop_fn" \
		--callgrind-out-file="$d/cg.out" "$bench" -l 0 $eal -- \
		--scenario gro-adversarial --feed pcap --pcap "$tmp/gro-adv.pcap" \
		--packets 100000 --warmup 0 --variant "$v" \
		--json "$d/bench.json" > "$d/log" 2>&1 &
	vg=$!
	rc=0
	wait "$vg" || rc=$?
	vg=
	[ "$rc" -eq 0 ] || { echo "callgrind.sh: listack-bench exited $rc:" >&2; tail -5 "$d/log" >&2; exit 1; }
	set -- $(python3 - "$d/bench.json" <<'EOF'
import json, sys
x = json.load(open(sys.argv[1]))["variants"][0]
ok = not x["failed"] and x["mbufs_in_use"] == 0
print(x["packets"], ok)
EOF
)
	[ "$2" = True ] ||
		{ echo "callgrind.sh: gro-adversarial $v failed or left mbufs (see $d/log)" >&2; exit 1; }
	pkts=$1
	parts "$d/cg.out" "$loop_fn" "$hook_fn" "$input_fn" "$flush_fn" \
		bench_rx_cksum_cb > "$d/parts"
	whole=$(part "$d/parts" total)
	feed=$(part "$d/parts" "$loop_fn@rte_ethdev.h")
	tx=$(part "$d/parts" "$hook_fn")
	input=$(part "$d/parts" "$input_fn")
	flush=$(part "$d/parts" "$flush_fn")
	cb=$(part "$d/parts" bench_rx_cksum_cb)
	echo "gro gro-adversarial-$v $pkts $whole $feed $tx $((input + flush - tx)) $cb" >> "$tmp/rows"
}

fwd_run "list-1flow" 1 1 list
if [ "$all" = 1 ]; then
	fwd_run "single-1flow" 1 1 single
	FWD_ARGS="--rx-burst 64"
	fwd_run "list-1flow-rx64" 1 1 list
	FWD_ARGS=
	fwd_run "list-4096flows" 4096 1024 list
fi
gro_run off
gro_run fraglist

# fast path features (issue 25 item 3), on the list-1flow run's traffic:
# the route cache; the filter with 1000 rules that match none of it
# (UDP to ports 1-1000 of 192.0.2.0/24); VLAN 100 on port 0 in and
# VLAN 101 on port 1 out (the pcap's frames tagged 100, the route via a
# neighbour on VLAN 101)
echo "route-cache on" > "$tmp/cache.conf"
fwd_run "list-1flow-cache" 1 1 list "$tmp/cache.conf"
i=1
while [ $i -le 1000 ]; do
	echo "filter add drop proto udp dst 192.0.2.0/24 dport $i"
	i=$((i + 1))
done > "$tmp/filter.conf"
fwd_run "list-1flow-filter1000" 1 1 list "$tmp/filter.conf"
# the filter's screen with many destinations: list-4096flows' traffic
[ "$all" = 0 ] ||
	fwd_run "list-4096flows-filter1000" 4096 1024 list "$tmp/filter.conf"
{
	echo "address add 10.100.0.1/24 port 0 vlan 100"
	echo "address add 10.101.0.1/24 port 1 vlan 101"
	echo "neigh add 10.101.0.2 lladdr 02:00:00:00:03:02"
	sed -n 's/^R\([0-9.]*\/[0-9]*\) .*/route replace \1 via 10.101.0.2/p' \
		"$tmp/fwd-1f-1r.pcap.l3fwd-v4.rules"
} > "$tmp/vlan.conf"
python3 - "$tmp/fwd-1f-1r.pcap" "$tmp/fwd-1f-1r-vlan100.pcap" <<'EOF'
import struct, sys
src, dst = open(sys.argv[1], "rb").read(), open(sys.argv[2], "wb")
order = "<" if src[:4] == b"\xd4\xc3\xb2\xa1" else ">"
dst.write(src[:24])
off = 24
while off + 16 <= len(src):
    ts, tu, incl, orig = struct.unpack(order + "IIII", src[off:off + 16])
    frame = src[off + 16:off + 16 + incl]
    dst.write(struct.pack(order + "IIII", ts, tu, incl + 4, orig + 4))
    dst.write(frame[:12] + b"\x81\x00\x00\x64" + frame[12:])
    off += 16 + incl
EOF
fwd_run "list-1flow-vlan" 1 1 list "$tmp/vlan.conf" \
	"$tmp/fwd-1f-1r-vlan100.pcap"

# the tree the build was configured from (meson-info), not this script's
src=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["directories"]["source"])' \
	"$build/meson-info/meson-info.json" 2>/dev/null || true)
tree=$( { [ -n "$src" ] && git -C "$src" describe --always --dirty 2>/dev/null; } || echo "${src:-?}")
python3 - "$tmp/rows" "$tree" <<'EOF'
import sys
rows = [l.split() for l in open(sys.argv[1])]
print("\nInstructions per packet, callgrind (bench/callgrind.sh; build of %s)\n"
      % sys.argv[2])
print("| run | packets | total Ir | whole loop | feed | tx | listack's own |")
print("|---|---:|---:|---:|---:|---:|---:|")
for kind, name, pkts, whole, feed, tx, own, cb in rows:
    p = int(pkts)
    per = lambda v: "%.1f" % (int(v) / p)
    label = ("fwd " + name) if kind == "fwd" else name
    print("| %s | %d | %s | %.2f | %s | %s | **%s** |"
          % (label, p, format(int(whole), ","), int(whole) / p, per(feed),
             per(tx), per(own)))
print()
print("fwd: packets = ForwDatagrams; feed = net_pcap rx burst; tx = "
      "fwd_tx_shared (net_null); own = whole - feed - tx.")
print("gro-adversarial: packets = the bench's counted datagrams; feed = rx "
      "burst with the NIC-checksum callback; tx = TX hook with the sink; "
      "own = lsk_worker_input + lsk_worker_flush - tx.")
for kind, name, pkts, whole, feed, tx, own, cb in rows:
    if kind == "gro":
        print("  %s: of the feed, the checksum callback %.1f"
              % (name, int(cb) / int(pkts)))
own = {name: int(o) / int(p) for kind, name, p, whole, feed, tx, o, cb in rows}
# own@B = a packet's + a burst's / B, so own@32 - own@64 = a burst's / 64
if "list-1flow" in own and "list-1flow-rx64" in own:
    print("  a burst apart from its packets (list-1flow at 32 and 64 a poll): "
          "64 x (%.1f - %.1f) = %.0f instructions"
          % (own["list-1flow"], own["list-1flow-rx64"],
             64 * (own["list-1flow"] - own["list-1flow-rx64"])))
for base, other in (("list-1flow", "list-1flow-filter1000"),
                    ("list-4096flows", "list-4096flows-filter1000")):
    if base in own and other in own:
        print("  %s against %s: %.3f x" % (other, base, own[other] / own[base]))
EOF
