#!/usr/bin/python3
"""pcap integration tests of listack-fwd: filters: `filter add accept|drop
...`.

    /usr/bin/python3 tests/integration/test_pcap_filter.py build/listack-fwd [-k SUBSTR] [--keep] [-v]

What every case checks and how (both modes, byte for byte, the
counters, no mbuf left): pcap_harness.py.
"""

import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lsk  # noqa: E402
from lsk import B_MAC, frame, patch_ip  # noqa: E402
import pcap_harness as rt  # noqa: E402
from pcap_harness import case, echo, fwd, group, ipdrop  # noqa: E402


# ======================================================================
# Filter: `filter add accept|drop ...`, first match wins, default accept;
# a drop counts ip.InDiscards and filter.Dropped for every datagram

FILTER_CONF = lsk.fixture_conf(extra=(
    "filter add accept proto udp src 10.0.0.1/32 dport 5353\n"
    "filter add drop proto udp dport 5353\n"
    "filter add drop proto udp dst 10.9.0.0/16 dport 53\n"
    "filter add drop proto tcp dport 23\n"
    "filter add drop src 10.0.0.66/32\n"
    "filter add drop proto icmp dst 10.0.0.254/32\n"
    "filter add drop proto 253\n"
    "filter add drop proto udp sport 6000-6009 dst 10.0.1.0/24\n"
    "filter add drop dst 203.0.113.0/24\n"))
group("filter", FILTER_CONF, variants=("gro+cache",))


def filtered(fr, in_port=0):
    return ipdrop(fr, "InDiscards", "filter.Dropped", in_port=in_port)


def FD(name, **kw):
    case(name, "filter", lambda n: filtered(frame(tag=n, **kw)))


def FF(name, **kw):
    case(name, "filter", lambda n: fwd(frame(tag=n, **kw), 1, B_MAC))


FD("filter_drop_udp_dst_dport", dst="10.9.1.1", dport=53)
FF("filter_other_dport_accepted", dst="10.9.1.1", dport=54)
FF("filter_other_dst_accepted", dst="10.0.1.1", dport=53)
FF("filter_first_match_accept", dst="10.0.1.1", dport=5353)
FD("filter_first_match_drop", src="10.0.0.2", dst="10.0.1.1", dport=5353)
FD("filter_tcp_dport", proto="tcp", dst="10.0.1.1", dport=23)
FF("filter_udp_not_tcp_rule", dst="10.0.1.1", dport=23)
FD("filter_src_host_udp", src="10.0.0.66", dst="10.0.1.1")
FD("filter_src_host_icmp", src="10.0.0.66", dst="10.0.1.1", proto="icmp")
FD("filter_src_host_to_us", src="10.0.0.66", dst="10.0.0.254")
FD("filter_icmp_to_us", proto="icmp", dst="10.0.0.254")
case("filter_icmp_other_address_answered", "filter", lambda n: echo(
    frame(tag=n, proto="icmp", dst="10.0.1.254")))
FD("filter_proto_253", proto=253, dst="10.0.1.1")
FD("filter_proto_253_to_us_no_icmp", proto=253, dst="10.0.0.254")
FD("filter_sport_range_low", sport=6000, dst="10.0.1.1")
FD("filter_sport_range_mid", sport=6005, dst="10.0.1.1")
FD("filter_sport_range_high", sport=6009, dst="10.0.1.1")
FF("filter_sport_range_above", sport=6010, dst="10.0.1.1")
FF("filter_sport_range_below", sport=5999, dst="10.0.1.1")
FF("filter_sport_range_other_dst", sport=6005, dst="10.9.1.1")
# PRE_ROUTING: before routing (no ICMP for a dropped no-route or TTL 1)
FD("filter_before_route_no_icmp", dst="203.0.113.5")
FD("filter_before_ttl_no_icmp", dst="10.9.1.1", dport=53, ttl=1)
# after the header checks
case("filter_after_ip_checks", "filter", lambda n: ipdrop(
    patch_ip(frame(tag=n, dst="10.9.1.1", dport=53), csum="bad"),
    "InCsumErrors", "InHdrErrors"))
# a non-first fragment has no ports to match
FF("filter_non_first_fragment_no_ports", dst="10.9.1.1", df=False,
   frag=100, proto=17,
   payload=struct.pack("!HHHH", 1000, 53, 40, 0) + b"x" * 32)
case("filter_train_dropped", "filter", lambda n: [filtered(
    frame(tag="%s#%d" % (n, i), dst="10.9.2.2", dport=53, sport=7000,
          ident=i + 1, plen=200)) for i in range(8)])
case("filter_train_accepted", "filter", lambda n: [fwd(
    frame(tag="%s#%d" % (n, i), dst="10.9.2.2", dport=55, sport=7001,
          ident=i + 1, plen=200), 1, B_MAC) for i in range(8)])
case("filter_trains_interleaved", "filter", lambda n: [
    (filtered if i % 2 else lambda f: fwd(f, 1, B_MAC))(
        frame(tag="%s#%d" % (n, i), dst="10.9.3.3", dport=53 if i % 2 else
              56, sport=7002, ident=i + 1, plen=100)) for i in range(10)])


if __name__ == "__main__":
    sys.exit(rt.main())
