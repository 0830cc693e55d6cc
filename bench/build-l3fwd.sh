#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Build DPDK's l3fwd from the Debian dpdk-doc examples, for the side-by-side
# run that `listack-bench --feed pcap` prints. Debian ships no dpdk-l3fwd.
#
#   bench/build-l3fwd.sh [DIR]     (default /tmp/dpdk-examples)
#
# DPDK 22.11's l3fwd asks every port for RX checksum offloads, which the
# virtual devices lack (rte_eth_dev_configure: -EINVAL); the two-line patch
# below masks the request with what the device reports, as listack's port
# layer does. Nothing else changes.
set -e
dir=${1:-/tmp/dpdk-examples}
if [ ! -d /usr/share/dpdk/examples/l3fwd ]; then
	apt-get install -y dpdk-doc
fi
rm -rf "$dir"
cp -r /usr/share/dpdk/examples "$dir"
cd "$dir/l3fwd"
sed -i \
 -e 's/^\t\tlocal_port_conf.rx_adv_conf.rss_conf.rss_hf &=$/\t\tlocal_port_conf.rxmode.offloads \&= dev_info.rx_offload_capa;\n&/' \
 -e 's/^\t\t\trxq_conf.offloads = port_conf.rxmode.offloads;$/\t\t\trxq_conf.offloads = port_conf.rxmode.offloads \& dev_info.rx_offload_capa;/' \
 main.c
grep -q 'rxmode.offloads &= dev_info.rx_offload_capa' main.c
make >/dev/null
echo "$dir/l3fwd/build/l3fwd"
