#!/bin/sh
# Every listack-bench scenario on a few packets: each run must spot-check
# its output clean and end with no mbufs in use (the bench exits 1
# otherwise). Figures are not looked at: timings belong to bench/RESULTS.md.
set -u
bench=$1
eal="--no-huge --no-pci --no-shconf -m 1024 -l 0,1"
failed=0

run() {
	echo "== listack-bench $*"
	if ! "$bench" $eal -- --packets 20000 --warmup 0 "$@" >/tmp/lsk-bench-smoke.$$ 2>&1; then
		cat /tmp/lsk-bench-smoke.$$
		echo "FAILED: listack-bench $*"
		failed=1
	else
		grep -E "^(variant|[a-z0-9+/-]+ +[0-9.]+ |[a-z0-9/]+ +route changes)" /tmp/lsk-bench-smoke.$$
	fi
}

run --scenario fwd
run --scenario fwd --feed pcap
run --scenario udp-local
run --scenario udp-local --drain worker
run --scenario udp-recv
run --scenario gro-fwd
run --scenario gro-fwd --flows 10 --rx-order scattered
run --scenario gro-fwd --feed pcap
run --scenario gro-adversarial --flows 5000
run --scenario gro-adversarial --flows 5000 --feed pcap
run --scenario route-cache --routes 4096
run --scenario route-churn
# --table (bench/table.h): nested prefixes of several lengths, the next
# hop of every frame checked against its longest match, on both feeds
table=/tmp/lsk-bench-smoke-table.$$
printf '20.0.0.0/8\n20.1.0.0/16\n20.1.2.0/24\n20.1.2.128/25\n30.0.0.0/24\n40.0.0.0/22\n' >"$table"
run --scenario route-churn --table "$table" --flows 4096
# the pcap feed's pool beside three FIBs of route-churn's capacity (1.1M
# routes): more than -m 1024 (the later -m wins)
eal_was=$eal
eal="$eal -m 2048"
run --scenario route-churn --feed pcap --table "$table" --flows 4096
eal=$eal_was
rm -f /tmp/lsk-bench-smoke.$$ "$table"
exit $failed
