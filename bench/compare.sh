#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# listack beside other routers: the same search, the same generator and
# the same wire against every device under test, one table, one plot.
#
#   bench/compare.sh [--quick] [--check] [--out DIR] [--devices LIST]
#                    [--cases LIST] [--build DIR] [--nice N] [--timeout S]
#
# Devices (--devices, comma-separated; default all):
#   memif wire:  listack-list, listack-single, l3fwd, testpmd-io (1 flow
#                and 4096 flows over 1024 routes), listack-fraglist-acl
#                and listack-off-acl (1460-byte frames, 1 flow, `gro
#                fraglist` / `gro off` with 1000 filter rules)
#   veth wire:   linux (the kernel forwarding in a namespace) and
#                listack-veth (listack-fwd on the same veths with
#                net_af_packet); needs root
# The generator (listack-bench --generate --search ndr) runs on CPU 0,
# the device on CPU 1 (bench/dut/run.sh); memif: the device serves two
# sockets, the generator connects once the device is up; veth: the
# generator opens its ends with net_af_packet (bench/dut/veth.sh).
#
# --cases: of 1f, 4096f, 1460b, veth, 1f6, 4096f6 (default all that a
#          device has). 1f6 and 4096f6: the same over IPv6 (the
#          generator's --ip6, bench/traffic6.c; listack gets the IPv6
#          addresses and routes, l3fwd its --rule_ipv6 file of the same
#          routes); frames of 84 bytes at least (the stamp behind the
#          IPv6 header), 84 and 1518 in the full run.
# --quick: 64-byte frames only, 0.2 s trials, 2 % resolution (a minute or
#          two for every device); the full run: more sizes, 1 s trials.
# --check: no search: one trial at 10 kpps per device, which must come
#          back (each device forwards the generator's traffic).
# --nice N: run generator and device under `nice -n N` (a shared machine).
# --timeout S: the longest one search may take (default 300, quick 120).
#
# Output in DIR (default /tmp/listack-compare): json/DEVICE.CASE.json
# (every trial), table.md and compare.svg (listack-bench --from over all
# of them), goals.md (the figures bench/RESULTS.md asks for),
# commands.sh (every command as it ran), load.txt (uptime before each
# search), log/ (each process's output). Exit 1 if any device failed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
quick=0 check=0 out=/tmp/listack-compare devices="" build="$top/build"
cases="1f 4096f 1460b veth 1f6 4096f6"
nice_n="" tmo=""
all_devices="listack-list listack-single l3fwd testpmd-io listack-fraglist-acl listack-off-acl linux listack-veth"
args="$*"
while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1 ;;
	--check) check=1 ;;
	--out) out=$2; shift ;;
	--devices) devices=$(echo "$2" | tr ',' ' '); shift ;;
	--cases) cases=$(echo "$2" | tr ',' ' '); shift ;;
	--build) build=$2; shift ;;
	--nice) nice_n=$2; shift ;;
	--timeout) tmo=$2; shift ;;
	-h|--help) awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "$0"; exit 0 ;;
	*) echo "compare.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done
[ -n "$devices" ] || devices=$all_devices
for c in $cases; do
	case $c in
	1f|4096f|1460b|veth|1f6|4096f6) ;;
	*) echo "compare.sh: no case '$c' (cases: 1f 4096f 1460b veth 1f6 4096f6)" >&2; exit 2 ;;
	esac
done
for d in $devices; do
	case " $all_devices " in
	*" $d "*) ;;
	*) echo "compare.sh: no device '$d' (devices: $all_devices)" >&2; exit 2 ;;
	esac
done
[ -n "$tmo" ] || { [ $quick = 1 ] && tmo=120 || tmo=300; }

# what is missing, said before anything starts
bench="$build/bench/listack-bench"
missing() { echo "compare.sh: $*" >&2; exit 1; }
[ -x "$bench" ] || missing "no $bench (ninja -C $build, or --build DIR)"
[ -x "$build/listack-fwd" ] || missing "no $build/listack-fwd (ninja -C $build)"
command -v taskset >/dev/null || missing "no taskset (apt-get install util-linux)"
L3FWD=${L3FWD:-/tmp/dpdk-examples/l3fwd/build/l3fwd}
export L3FWD BUILD="$build"
for d in $devices; do
	case $d in
	l3fwd) [ -x "$L3FWD" ] || missing "DPDK l3fwd is not built at $L3FWD: run bench/build-l3fwd.sh [DIR] (builds DIR/l3fwd/build/l3fwd, default /tmp/dpdk-examples), give L3FWD=PATH if elsewhere, or leave l3fwd out of --devices" ;;
	testpmd-io) command -v dpdk-testpmd >/dev/null || missing "no dpdk-testpmd (apt-get install dpdk), or leave testpmd-io out of --devices" ;;
	linux|listack-veth)
		[ "$(id -u)" = 0 ] || missing "$d needs root (network namespaces, veth): run as root or leave linux,listack-veth out of --devices"
		command -v ethtool >/dev/null || missing "no ethtool for the veth wire (apt-get install ethtool)" ;;
	esac
done
if [ $check = 0 ] && "$bench" --no-huge --no-pci -m 64 --no-shconf -- \
	--generate --search ndr --wait 0 2>&1 | grep -q "unrecognized option '--search'"; then
	missing "$bench has no --search (the generator's searches are not in this build); --check runs without them"
fi

mkdir -p "$out/json" "$out/log"
out=$(cd "$out" && pwd)
rm -f "$out"/json/*.json
sock="$out/sock"		# memif socket names (abstract: no files)
# names of this run's own: two runs at once do not meet
veth=lc$$			# veth.sh PREFIX: lc<pid>g0/lc<pid>d0, ...g1/d1
gen_prefix=lskcmp-gen-$$
export DUT_PREFIX=lskcmp-dut-$$
. "$here/dut/lib.sh"
: > "$out/commands.sh"
: > "$out/load.txt"
: > "$out/failed.txt"
echo "# bench/compare.sh $args ($(date -u +%FT%TZ), commit $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?'))" >> "$out/commands.sh"
nice_cmd=""
[ -n "$nice_n" ] && nice_cmd="nice -n $nice_n"

dut_pid="" gen_pid="" veth_up=0
cleanup() {
	[ -n "$gen_pid" ] && kill "$gen_pid" 2>/dev/null || true
	if [ -n "$dut_pid" ]; then
		kill -TERM "$dut_pid" 2>/dev/null || true
		sleep 1
		kill -KILL "$dut_pid" 2>/dev/null || true
	fi
	[ $veth_up = 1 ] && "$here/dut/veth.sh" down "$veth" || true
	rm -rf "/var/run/dpdk/$gen_prefix" "/var/run/dpdk/$DUT_PREFIX" 2>/dev/null || true
}
trap 'cleanup' EXIT
trap 'exit 130' INT TERM

if [ $quick = 1 ]; then
	search="--trial 0.2 --latency-seconds 0.2 --resolution 2% --drain 0.05"
	sizes_1f=64 sizes_veth=64 sizes_1f6=84
else
	search="--trial 1 --latency-seconds 1"
	sizes_1f=64,1518,imix sizes_veth=64,1518 sizes_1f6=84,1518
fi
af="qpairs=1,blocksz=4096,framesz=2048,framecnt=1024,qdisc_bypass=1"
gen_eal="-l 0 --no-huge --no-pci -m 1024 --file-prefix $gen_prefix"
gen_memif="--vdev net_memif0,role=client,socket=$sock/gen0.sock,rsize=14,mac=02:00:00:00:00:02 --vdev net_memif1,role=client,socket=$sock/gen1.sock,rsize=14,mac=02:00:00:00:02:02"
gen_veth="--vdev net_af_packet0,iface=${veth}g0,$af --vdev net_af_packet1,iface=${veth}g1,$af"

# wait until the device serves the generator: its memif sockets listen,
# or listack-fwd said it runs; give up after 30 s or if it died
dut_ready() {	# DEVICE WIRE LOG
	i=0
	while [ $i -lt 300 ]; do
		kill -0 "$dut_pid" 2>/dev/null || return 1
		# each device's line once its ports are started (a memif
		# server refuses a client before that, and the client does
		# not try again)
		case $1 in
		linux) break ;;
		l3fwd) pat="^Checking link status" ;;
		testpmd-io) pat="start packet forwarding" ;;
		*) pat="^listack-fwd: .* ports" ;;
		esac
		if grep -q "$pat" "$3"; then
			[ "$2" = veth ] && break
			grep -q "@$sock/gen0.sock" /proc/net/unix &&
				grep -q "@$sock/gen1.sock" /proc/net/unix && break
		fi
		sleep 0.1
		i=$((i + 1))
	done
	[ $i -lt 300 ] || return 1
	sleep 1		# its workers past their first polls
}


dut_stop() {	# LOG: the device stopped (bench/dut/lib.sh)
	[ -n "$dut_pid" ] || return 0
	dut_stop_pid
	# DPDK 22.11's memif PMD unmaps a peer's rings when the peer leaves
	# while the device's worker may still be in rx_burst on them: a
	# device could die of SIGSEGV as the generator exited (the reason
	# for --linger above). Its figures are in by then; it is said, not
	# failed.
	if [ $drc -gt 128 ] && [ $drc -ne 143 ]; then
		echo "note: the device exited on signal $((drc - 128)) (see $1)" | tee -a "$1"
	fi
}

run_one() {	# DEVICE CASE WIRE FLOWS ROUTES SIZES
	dev=$1 case=$2 wire=$3 flows=$4 routes=$5 sizes=$6
	case " $cases " in
	*" $case "*) ;;
	*) return 0 ;;
	esac
	label="$dev $case"
	json="$out/json/$dev.$case.json"
	dlog="$out/log/$dev.$case.dut.log" glog="$out/log/$dev.$case.gen.log"
	echo "== $label ($(uptime | sed 's/.*load/load/'))"
	echo "$label: $(uptime)" >> "$out/load.txt"
	if [ "$wire" = veth ]; then
		mode=dpdk
		[ "$dev" = linux ] && mode=linux
		veth_up=1
		"$here/dut/veth.sh" up "$veth" $mode --routes "$routes" > "$out/log/$dev.$case.veth.log"
		echo "$here/dut/veth.sh up $veth $mode --routes $routes" >> "$out/commands.sh"
		w="veth:$veth" gports=$gen_veth
	else
		w="memif:$sock" gports=$gen_memif
	fi
	fam=""
	case $case in *6) fam=--ip6 ;; esac
	dcmd=$("$here/dut/run.sh" "$dev" "$w" "$out/dut/$dev.$case" --routes "$routes" $fam --print)
	cmd_line "$nice_cmd $dcmd &" >> "$out/commands.sh"
	# shellcheck disable=SC2086 # the command is split on spaces on purpose
	(set -f; exec $nice_cmd $dcmd) > "$dlog" 2>&1 &
	dut_pid=$!
	if ! dut_ready "$dev" "$wire" "$dlog"; then
		echo "compare.sh: $label did not come up; the end of $dlog:" >&2
		tail -5 "$dlog" >&2
		echo "$label: did not start" >> "$out/failed.txt"
		dut_stop "$dlog"
		return 0
	fi
	if [ $check = 1 ]; then
		gargs="--generate $fam --rate 10k --seconds 0.5 --size ${sizes%%,*} --flows $flows --routes $routes --json $json --linger 60"
	else
		gargs="--generate $fam --search ndr --sizes $sizes --flows $flows --routes $routes $search --device $dev/$case --json $json --linger 60"
	fi
	gcmd="timeout -k 10 $tmo $nice_cmd taskset -c 0 $bench $gen_eal $gports -- $gargs"
	cmd_line "$gcmd" >> "$out/commands.sh"
	rc=0
	(set -f; exec $gcmd) > "$glog" 2>&1 &
	gen_pid=$!
	# the generator lingers with its ports up once its trials are done:
	# the device stops first, then the generator (SIGTERM ends its
	# linger), so that no device polls a memif ring its peer unmapped
	while kill -0 "$gen_pid" 2>/dev/null &&
	      ! grep -q "^generator: done; ports up" "$glog"; do
		sleep 0.2
	done
	dut_stop "$dlog"
	kill -TERM "$gen_pid" 2>/dev/null || true
	wait "$gen_pid" || rc=$?
	gen_pid=""
	if [ "$wire" = veth ]; then
		"$here/dut/veth.sh" down "$veth"
		veth_up=0
	fi
	# a generator that dies on the way out (the memif PMD, as above)
	# has written its JSON before: whole JSON is a result
	if [ $rc -ne 0 ] && [ $rc -ne 124 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$json" 2>/dev/null; then
		echo "note: the generator exited with status $rc after writing $json" | tee -a "$glog"
		rc=0
	fi
	if [ $rc -ne 0 ] || [ ! -s "$json" ]; then
		[ $rc = 124 ] && why="timed out after $tmo s" || why="exit $rc"
		echo "compare.sh: the generator against $label failed ($why); the end of $glog:" >&2
		tail -5 "$glog" >&2
		echo "$label: generator $why" >> "$out/failed.txt"
		rm -f "$json"
		return 0
	fi
	grep -E "^(size|[0-9]+ |imix )|WARNING|limit" "$glog" | head -12 || true
}

for dev in $devices; do
	case $dev in
	listack-list|listack-single|l3fwd|testpmd-io)
		run_one "$dev" 1f memif 1 1 "$sizes_1f"
		run_one "$dev" 4096f memif 4096 1024 64
		run_one "$dev" 1f6 memif 1 1 "$sizes_1f6"
		run_one "$dev" 4096f6 memif 4096 1024 84 ;;
	listack-fraglist-acl|listack-off-acl)
		run_one "$dev" 1460b memif 1 1 1460 ;;
	linux|listack-veth)
		run_one "$dev" veth veth 1 1 "$sizes_veth" ;;
	esac
done

ls "$out"/json/*.json >/dev/null 2>&1 || { echo "compare.sh: no device gave a result" >&2; exit 1; }
if [ $check = 1 ]; then
	python3 "$here/dut/goals.py" --check "$out"/json/*.json | tee "$out/check.md"
else
	files=$(ls "$out"/json/*.json | paste -sd, -)
	echo "$bench --from $files --plot $out/compare.svg --table-md $out/table.md" >> "$out/commands.sh"
	"$bench" --from "$files" --plot "$out/compare.svg" --table-md "$out/table.md" > "$out/log/merge.log" 2>&1 ||
		{ cat "$out/log/merge.log" >&2; echo "merge: failed" >> "$out/failed.txt"; }
	python3 "$here/dut/goals.py" --load "$out/load.txt" "$out"/json/*.json > "$out/goals.md" || true
	[ -f "$out/table.md" ] && cat "$out/table.md"
	cat "$out/goals.md"
fi
echo "compare.sh: results in $out (table.md, compare.svg, goals.md, commands.sh)"
if [ -s "$out/failed.txt" ]; then
	echo "compare.sh: failed:" >&2
	cat "$out/failed.txt" >&2
	exit 1
fi
