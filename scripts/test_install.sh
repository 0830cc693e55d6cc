#!/bin/sh
# The library face, tried as a new user would: build listack, install it
# into a temporary prefix, build examples/udp_count with make against that
# installation only (pkg-config listack libdpdk; a copy of the example, so
# nothing can reach the source tree's headers), feed it a pcap of UDP
# datagrams on a net_pcap port and check the count it prints.
#
# Prints "PASS install-example" or "FAIL install-example: reason", then
# "1 passed, 0 failed" or "0 passed, 1 failed"; exit status 0 or 1.
set -u
cd "$(dirname "$0")/.."
SRC=$(pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/listack-install.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

N_DGRAMS=1000		# to the bound address:port
BIND=10.0.0.254:9000	# udp_count.conf's address; gen.py sends there

fail() {
	echo "FAIL install-example: $1"
	echo "0 passed, 1 failed"
	exit 1
}

# Show the end of a log on stderr, then fail with the reason.
fail_log() {
	tail -n 30 "$2" >&2
	fail "$1 (see the log above)"
}

# Nothing from the environment may point the compiler or loader elsewhere.
unset CPATH C_INCLUDE_PATH LIBRARY_PATH LD_LIBRARY_PATH PKG_CONFIG_PATH

# -- build and install into the temporary prefix
meson setup "$TMP/build" --prefix="$TMP/prefix" >"$TMP/setup.log" 2>&1 ||
	fail_log "meson setup failed" "$TMP/setup.log"
meson install -C "$TMP/build" >"$TMP/install.log" 2>&1 ||
	fail_log "meson install failed" "$TMP/install.log"

pc=$(find "$TMP/prefix" -name listack.pc | head -n 1)
[ -n "$pc" ] || fail "no listack.pc was installed under the prefix"
for h in listack.h port.h udp.h ctl.h; do
	[ -f "$TMP/prefix/include/listack/$h" ] ||
		fail "include/listack/$h was not installed"
done
for f in bin/listack-fwd bin/listack-ctl share/man/man8/listack-fwd.8 \
	share/man/man8/listack-ctl.8 lib/systemd/system/listack.service \
	libexec/listack/listack-start \
	share/bash-completion/completions/listack-ctl; do
	[ -f "$TMP/prefix/$f" ] || fail "$f was not installed"
done
export PKG_CONFIG_PATH="$(dirname "$pc")"
flags=$(pkg-config --cflags --libs listack libdpdk 2>"$TMP/pc.log") ||
	fail_log "pkg-config cannot resolve listack libdpdk" "$TMP/pc.log"
case "$flags" in
*"$SRC"*) fail "pkg-config flags point into the source tree: $flags" ;;
esac
case "$flags" in
*"-I$TMP/prefix/include"*) ;;
*) fail "pkg-config --cflags listack lacks -I$TMP/prefix/include" ;;
esac

# -- build the example from a copy, with make and the installed files only
cp -R examples/udp_count "$TMP/udp_count"
make -C "$TMP/udp_count" >"$TMP/make.log" 2>&1 ||
	fail_log "make of examples/udp_count failed" "$TMP/make.log"
if grep -F -e "$SRC" "$TMP/make.log" >/dev/null; then
	fail "the example's build used the source tree (see $TMP/make.log)"
fi
lib=$(ldd "$TMP/udp_count/udp_count" | awk '/liblistack/ { print $3 }')
case "$lib" in
"$TMP/prefix/"*) ;;
*) fail "udp_count loads liblistack from '${lib:-nowhere}', not the prefix" ;;
esac

# -- traffic: N_DGRAMS datagrams to BIND of 1..200 payload bytes, and
# some to a port nobody binds, which must not be counted
cat >"$TMP/gen.py" <<'EOF'
import sys
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.utils import wrpcap

path, n = sys.argv[1], int(sys.argv[2])
eth = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:fe")
ip = IP(src="10.0.0.1", dst="10.0.0.254")
pkts, nbytes = [], 0
for i in range(n):
    payload = bytes([i & 0xff]) * (1 + i % 200)
    nbytes += len(payload)
    pkts.append(eth / ip / UDP(sport=10000 + i % 10, dport=9000) / payload)
    if i % 10 == 0:
        pkts.append(eth / ip / UDP(sport=10000, dport=9001) / b"x")
wrpcap(path, pkts)
print(n, nbytes)
EOF
/usr/bin/python3 "$TMP/gen.py" "$TMP/in.pcap" "$N_DGRAMS" >"$TMP/expect" \
	2>"$TMP/gen.log" ||
	fail_log "scapy could not write the pcap" "$TMP/gen.log"
read -r want_dgrams want_bytes <"$TMP/expect"

# -- run it on a net_pcap port: main lcore receives, lcore 1 is the worker
(cd "$TMP/udp_count" && timeout 40 ./udp_count \
	--no-huge --no-pci -m 512 --no-shconf --no-telemetry -l 0-1 \
	--vdev "net_pcap0,rx_pcap=$TMP/in.pcap,tx_pcap=$TMP/out.pcap" \
	-- --config udp_count.conf --bind "$BIND" --idle-exit 1 --time 20) \
	>"$TMP/run.log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail_log "udp_count exited with status $rc" "$TMP/run.log"

total=$(sed -n 's/^total: \([0-9]*\) datagrams, \([0-9]*\) bytes.*/\1 \2/p' \
	"$TMP/run.log")
[ -n "$total" ] || fail_log "udp_count printed no total line" "$TMP/run.log"
set -- $total
got_dgrams=$1 got_bytes=$2
per_second=$(awk '/^ *[0-9]+ s: / { n += $3 } END { print n + 0 }' \
	"$TMP/run.log")
if [ "$got_dgrams" != "$want_dgrams" ]; then
	fail_log "counted $got_dgrams datagrams, $want_dgrams were sent" \
		"$TMP/run.log"
elif [ "$got_bytes" != "$want_bytes" ]; then
	fail_log "counted $got_bytes bytes, $want_bytes were sent" \
		"$TMP/run.log"
elif [ "$per_second" != "$want_dgrams" ]; then
	fail_log "the per-second lines add to $per_second, not $want_dgrams" \
		"$TMP/run.log"
fi

echo "PASS install-example"
echo "1 passed, 0 failed"
exit 0
