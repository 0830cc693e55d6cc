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
# layer does.
#
# For a full table (bench/feed.sh --routes 1000000, bench/dut/fulltable.py)
# three sizes are raised, all in the copied source (l3fwd_lpm.c, main.c):
# - IPV4_L3FWD_LPM_MAX_RULES 1024 -> 2097152 (2M) rules, the most
#   bench/dut/traffic.py writes (rte_lpm keeps 8 bytes a rule: 16 MiB);
# - IPV4_L3FWD_LPM_NUMBER_TBL8S 256 -> 65536 tbl8 groups (a /24 that holds
#   longer prefixes takes one; 1 KiB each: 64 MiB beside the 64 MiB tbl24);
#   the BGP-like 1M table needs about 1,000;
# - l3fwd_fib.c's IPv4 max_routes (1 << 16) -> (1 << 21), for
#   `--lookup fib` (rte_fib DIR-24-8 with 4-byte next hops, listack's
#   library; feed.sh's device l3fwd-fib);
# - the mbuf pool's floor, NB_MBUF's 8192, is read from the environment
#   variable L3FWD_MBUFS when set: net_pcap with infinite_rx keeps its
#   whole file in mbufs of that pool (feed.sh sets it as it sets
#   listack-fwd's --mbufs). Unset, l3fwd sizes its pool as before.
# The forwarding code is untouched: the same lookups, the same loop.
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
 -e 's/(unsigned)8192)/(unsigned)(getenv("L3FWD_MBUFS") ? atoi(getenv("L3FWD_MBUFS")) : 8192))/' \
 main.c
sed -i \
 -e 's/^#define IPV4_L3FWD_LPM_MAX_RULES .*/#define IPV4_L3FWD_LPM_MAX_RULES (1 << 21)/' \
 -e 's/^#define IPV4_L3FWD_LPM_NUMBER_TBL8S .*/#define IPV4_L3FWD_LPM_NUMBER_TBL8S (1 << 16)/' \
 l3fwd_lpm.c
sed -i 's/^\tconfig_ipv4.max_routes = (1 << 16);$/\tconfig_ipv4.max_routes = (1 << 21);/' \
 l3fwd_fib.c
grep -q 'config_ipv4.max_routes = (1 << 21);' l3fwd_fib.c
grep -q 'rxmode.offloads &= dev_info.rx_offload_capa' main.c
grep -q 'getenv("L3FWD_MBUFS")' main.c
grep -q 'IPV4_L3FWD_LPM_MAX_RULES (1 << 21)' l3fwd_lpm.c
grep -q 'IPV4_L3FWD_LPM_NUMBER_TBL8S (1 << 16)' l3fwd_lpm.c
make >/dev/null
echo "$dir/l3fwd/build/l3fwd"
