#!/bin/sh
# Build listack and run listack-fwd on the bundled demo: two pcap ports,
# config/demo.conf, traffic written by tools/demo_traffic.c. No NIC needed.
set -eu
cd "$(dirname "$0")/.."
scripts/setup.sh build

out=demo-out
rm -rf "$out"
mkdir -p "$out"
build/demo-traffic "$out" 20000

echo
echo "== listack-fwd on the demo (config/demo.conf) =="
build/listack-fwd --no-huge --no-pci -m 512 --no-shconf --no-telemetry \
	--log-level='*:warning' -l 0 \
	--vdev "net_pcap0,rx_pcap=$out/in0.pcap,tx_pcap=$out/out0.pcap" \
	--vdev "net_pcap1,rx_pcap=$out/in1.pcap,tx_pcap=$out/out1.pcap" \
	-- --config config/demo.conf --stats-json "$out/stats.json" \
	--idle-exit 500
echo
echo "frames sent: $out/out0.pcap (client net), $out/out1.pcap (server net)"
echo "counters:    $out/stats.json"
