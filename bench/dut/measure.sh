# SPDX-License-Identifier: BSD-3-Clause
# measure NAME N CMD...: one measurement of CMD for bench/cores.sh and
# bench/feed.sh (sourced by both): bench/ethdev-rate.py --cpu reads port
# 1's opackets and the threads' CPU time, the line it prints goes out as
# "NAME xN: ...", and its figures with NAME, N and the load before it are
# appended to $out/runs.jsonl; the command to $out/commands.txt. Uses
# $here (bench/), $out, $seconds, $ghz, $quiet (1: wait for idle CPUs
# first) and $script (the caller's name, for errors); $start, when set,
# the seconds the device may take to send its first packet (default 30),
# $at_end a shell command ethdev-rate.py runs before it stops the device.
measure() {
	name=$1 n=$2
	shift 2
	[ "$quiet" = 1 ] && "$here/run-quiet.sh" true
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	echo "$*" >> "$out/commands.txt"
	(cd "$out" && timeout -k 10 $((${start:-30} + 30 + ${seconds%.*})) \
		python3 "$here/ethdev-rate.py" --cpu --start-timeout "${start:-30}" \
		${at_end:+--at-end "$at_end"} \
		--seconds "$seconds" --ghz "$ghz" --json "$out/one.json" -- "$@") \
		> "$out/one.txt" 2>&1 || {
		cat "$out/one.txt" >&2
		echo "$script: $name x$n failed (see $out/*.log)" >&2
		exit 1
	}
	sed "s/^/$name x$n: /" "$out/one.txt"
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.update(name=sys.argv[2], n=int(sys.argv[3]), load=sys.argv[4]); print(json.dumps(d))' \
		"$out/one.json" "$name" "$n" "$load" >> "$out/runs.jsonl"
}
