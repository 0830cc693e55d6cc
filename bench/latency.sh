#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The latency lists add at low load, paired: one listack-fwd and one
# generator stay up over memif while trials alternate list, single, list,
# single ... at one low rate, listack-ctl switching the device's mode
# before each trial (`mode list|single`). Each pair's difference (list -
# single, of the p50 and of the mean) cancels what drifts slower than a
# pair; the median of the differences is the figure (bench/gen/ab.h).
#
#   bench/latency.sh [--pairs N] [--seconds S] [--rate PPS|N%] [--ndr PPS]
#                    [--size N] [--flows F] [--out DIR] [--build DIR]
#                    [--nice N] [--timeout S]
#
# --pairs N     pairs of trials (default 20)
# --seconds S   each trial's sending time (default 1)
# --rate        PPS, or N% of the NDR (default 10%)
# --ndr PPS     the NDR the share is of; without it the generator finds it
#               first with a short search in list mode
# --size, --flows  the frames (default 64 bytes, 1 flow)
# --nice N      run generator and device under `nice -n N`
# --timeout S   the longest the generator may take (default 900)
#
# The wire is bench/compare.sh's: the device (bench/dut/run.sh
# listack-list, CPU 1) serves two memif sockets with rings of 2^14 slots,
# and is started first; the generator (CPU 0) connects once they listen.
# The device stops first, while the generator lingers, then the
# generator (a memif peer that leaves under a polling one may crash it).
#
# Output in DIR (default /tmp/listack-latency): ab.json (every trial and
# the summary), table.txt, modes.txt (`show config`'s mode line after
# every switch), commands.sh, load.txt (uptime before and after), log/.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
pairs=20 seconds=1 rate="" ndr="" size=64 flows=1
out=/tmp/listack-latency build="$top/build" nice_n="" tmo=900
args="$*"
while [ $# -gt 0 ]; do
	case $1 in
	--pairs) pairs=$2; shift ;;
	--seconds) seconds=$2; shift ;;
	--rate) rate=$2; shift ;;
	--ndr) ndr=$2; shift ;;
	--size) size=$2; shift ;;
	--flows) flows=$2; shift ;;
	--out) out=$2; shift ;;
	--build) build=$2; shift ;;
	--nice) nice_n=$2; shift ;;
	--timeout) tmo=$2; shift ;;
	-h|--help) awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "$0"; exit 0 ;;
	*) echo "latency.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
	shift
done
bench="$build/bench/listack-bench" ctl="$build/listack-ctl"
for b in "$bench" "$build/listack-fwd" "$ctl"; do
	[ -x "$b" ] || { echo "latency.sh: no $b (ninja -C $build, or --build DIR)" >&2; exit 1; }
done
command -v taskset >/dev/null || { echo "latency.sh: no taskset (apt-get install util-linux)" >&2; exit 1; }

mkdir -p "$out/log" "$out/dut"
out=$(cd "$out" && pwd)
rm -f "$out/ab.json" "$out/table.txt"
sock="$out/sock"		# memif socket names (abstract: no files)
ctl_sock="$out/ctl.sock"
gen_prefix=lsklat-gen-$$
export DUT_PREFIX=lsklat-dut-$$ DUT_CTL="$ctl_sock" BUILD="$build"
dlog="$out/log/dut.log" glog="$out/log/gen.log"
: > "$out/modes.txt"
. "$here/dut/lib.sh"
echo "# bench/latency.sh $args ($(date -u +%FT%TZ), commit $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?'))" > "$out/commands.sh"
echo "before: $(uptime)" > "$out/load.txt"
nice_cmd=""
[ -n "$nice_n" ] && nice_cmd="nice -n $nice_n"

dut_pid="" gen_pid=""
cleanup() {
	[ -n "$gen_pid" ] && kill "$gen_pid" 2>/dev/null || true
	if [ -n "$dut_pid" ]; then
		kill -TERM "$dut_pid" 2>/dev/null || true
		sleep 1
		kill -KILL "$dut_pid" 2>/dev/null || true
	fi
	rm -rf "/var/run/dpdk/$gen_prefix" "/var/run/dpdk/$DUT_PREFIX" 2>/dev/null || true
}
trap 'cleanup' EXIT
trap 'exit 130' INT TERM

# the switch the generator runs before each trial: the mode, then what
# the device's configuration says of it (the check that it switched)
cat > "$out/between.sh" <<EOF
#!/bin/sh
"$ctl" -s "$ctl_sock" mode "\$1" || exit 1
"$ctl" -s "$ctl_sock" show config | grep '^mode ' >> "$out/modes.txt"
EOF
chmod +x "$out/between.sh"

dcmd=$("$here/dut/run.sh" listack-list "memif:$sock" "$out/dut" --print)
cmd_line "DUT_CTL=$ctl_sock $nice_cmd $dcmd &" >> "$out/commands.sh"
# shellcheck disable=SC2086 # the command is split on spaces on purpose
(set -f; exec $nice_cmd $dcmd) > "$dlog" 2>&1 &
dut_pid=$!
i=0
while [ $i -lt 300 ]; do
	kill -0 "$dut_pid" 2>/dev/null || break
	if grep -q "^listack-fwd: .* ports" "$dlog" && [ -S "$ctl_sock" ] &&
	   grep -q "@$sock/gen0.sock" /proc/net/unix &&
	   grep -q "@$sock/gen1.sock" /proc/net/unix; then
		break
	fi
	sleep 0.1
	i=$((i + 1))
done
if [ $i -ge 300 ] || ! kill -0 "$dut_pid" 2>/dev/null; then
	echo "latency.sh: listack-fwd did not come up; the end of $dlog:" >&2
	tail -5 "$dlog" >&2
	exit 1
fi
sleep 1		# its workers past their first polls

set -- --generate --ab list,single --pairs "$pairs" --seconds "$seconds" \
	--size "$size" --flows "$flows" --device listack-fwd \
	--between "$out/between.sh {}" --json "$out/ab.json" --linger 60
[ -n "$rate" ] && set -- "$@" --rate "$rate"
[ -n "$ndr" ] && set -- "$@" --max-rate "$ndr"
gen_eal="-l 0 --no-huge --no-pci -m 1024 --file-prefix $gen_prefix"
gen_memif="--vdev net_memif0,role=client,socket=$sock/gen0.sock,rsize=14,mac=02:00:00:00:00:02 --vdev net_memif1,role=client,socket=$sock/gen1.sock,rsize=14,mac=02:00:00:00:02:02"
# shellcheck disable=SC2086 # EAL words split on spaces on purpose
echo "timeout -k 10 $tmo $nice_cmd taskset -c 0 $bench $gen_eal $gen_memif -- $*" | sed "s|$out/between.sh {}|'&'|" >> "$out/commands.sh"
# shellcheck disable=SC2086
(set -f; exec timeout -k 10 "$tmo" $nice_cmd taskset -c 0 "$bench" $gen_eal $gen_memif -- "$@") > "$glog" 2>&1 &
gen_pid=$!
while kill -0 "$gen_pid" 2>/dev/null &&
      ! grep -q "^generator: done; ports up" "$glog"; do
	sleep 0.2
done
"$ctl" -s "$ctl_sock" -j show stats > "$out/dut/stats.json" 2>/dev/null || true
echo "after: $(uptime)" >> "$out/load.txt"
# the device first (bench/dut/lib.sh), then the generator
dut_stop_pid
kill -TERM "$gen_pid" 2>/dev/null || true
rc=0
wait "$gen_pid" || rc=$?
gen_pid=""
# a generator that dies on the way out (DPDK 22.11's memif) has written
# its JSON before: whole JSON is a result
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$out/ab.json" 2>/dev/null; then
	echo "note: the generator exited with status $rc after writing ab.json" | tee -a "$glog"
	rc=0
fi
sed -n '/^pair  /,$p' "$glog" | grep -v "^generator: done" > "$out/table.txt" || true
if [ $rc -ne 0 ] || [ ! -s "$out/ab.json" ]; then
	echo "latency.sh: the generator failed (exit $rc); the end of $glog:" >&2
	tail -8 "$glog" >&2
	exit 1
fi
[ $drc -eq 0 ] || echo "note: listack-fwd exit $drc (see $dlog)"
cat "$out/table.txt"
sed 's/^/load /' "$out/load.txt"
echo "latency.sh: results in $out (ab.json, table.txt, modes.txt, commands.sh)"
