#!/bin/sh
# The generator against a device under test over memif, on this machine:
#   bench/gen/loopback.sh testpmd|fwd|impair [BUILD_DIR] -- [--generate options]
# Generator on CPU 0 (memif servers), the device on CPU 1 (clients);
# prints the generator's output. fwd runs listack-fwd on the configuration
# the generator writes (list mode; LSK_FWD_MODE=single for the other);
# impair runs listack-bench --impair (LSK_IMPAIR=drop=100,swap=37,dup=53).
set -eu
dut=$1
shift
build=build
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
	build=$1
	shift
fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
cd "$(dirname "$0")/../.."
tag=lsk-loop-$$
bench=$build/bench/listack-bench
work=$(mktemp -d /tmp/$tag.XXXX)
trap 'rm -rf "$work"' EXIT
memif() {
	echo "--vdev net_memif0,role=$1,socket=/tmp/$tag-0.sock${MEMIF_OPTS-,rsize=14}" \
	     "--vdev net_memif1,role=$1,socket=/tmp/$tag-1.sock${MEMIF_OPTS-,rsize=14}"
}
eal="--no-huge --no-pci --log-level=*:warning"
# shellcheck disable=SC2046
$bench -l 0 $eal -m 256 --file-prefix $tag-gen $(memif server) -- \
	--generate --linger 600 --dut-config "$work/dut.conf" "$@" \
	>"$work/gen.out" 2>&1 &
gen=$!
i=0
while ! grep -q "waiting for the link" "$work/gen.out"; do
	i=$((i + 1))
	if [ $i -gt 300 ] || ! kill -0 $gen 2>/dev/null; then
		cat "$work/gen.out"
		exit 1
	fi
	sleep 0.1
done
case $dut in
testpmd)
	# shellcheck disable=SC2046
	# testpmd waits for a line on stdin (its main lcore blocks in read,
	# not spinning on the forwarding lcore's CPU): a FIFO we hold open
	mkfifo "$work/stdin"
	exec 3<>"$work/stdin"
	dpdk-testpmd --lcores '0@1,1@1' $eal -m 1024 \
		--file-prefix $tag-dut $(memif client) -- --forward-mode=io \
		--auto-start --total-num-mbufs 16384 --nb-cores=1 \
		<&3 >"$work/dut.out" 2>&1 &
	;;
fwd)
	# shellcheck disable=SC2046
	$build/listack-fwd -l 1 $eal -m 512 --file-prefix $tag-dut \
		$(memif client) -- --config "$work/dut.conf" \
		--mode "${LSK_FWD_MODE:-list}" --ctl-socket none \
		>"$work/dut.out" 2>&1 &
	;;
impair)
	# shellcheck disable=SC2046
	$bench -l 1 $eal -m 256 --file-prefix $tag-dut $(memif client) -- \
		--impair "${LSK_IMPAIR:-drop=100,swap=37,dup=53}" \
		>"$work/dut.out" 2>&1 &
	;;
*)
	echo "loopback.sh: testpmd, fwd or impair, not '$dut'" >&2
	kill $gen
	exit 2
	;;
esac
dut_pid=$!
# the device stops first, while the generator lingers: a memif client
# whose server goes away under it may fault in the PMD
while kill -0 $gen 2>/dev/null && ! grep -q "generator: done" "$work/gen.out"; do
	sleep 0.1
done
kill -TERM $dut_pid 2>/dev/null || true
wait $dut_pid 2>/dev/null || true
kill -TERM $gen 2>/dev/null || true
rc=0
wait $gen || rc=$?
grep -v '^TELEMETRY' "$work/gen.out"
echo "--- device under test ($dut):"
grep -E "mbufs|impair:|RX-packets|TX-packets" "$work/dut.out" | tail -4 || true
exit $rc
