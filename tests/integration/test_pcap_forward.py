#!/usr/bin/python3
"""pcap integration tests of listack-fwd: forwarding, local delivery, L2,
malformed headers (ip_rcv_core), martians, routes, mixed bursts.

    /usr/bin/python3 tests/integration/test_pcap_forward.py build/listack-fwd [-k SUBSTR] [--keep] [-v]

What every case checks and how (both modes, byte for byte, the
counters, no mbuf left): pcap_harness.py.
"""

import collections
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lsk  # noqa: E402
from lsk import (ALLHOSTS_MAC, A_MAC, BCAST_MAC, B_MAC, P0_MAC, P1_MAC, frame,  # noqa: E402
                 ip_field, patch_ip, with_options)
import pcap_harness as rt  # noqa: E402
from pcap_harness import (D, F, FRAG_NEEDED, L, LSRR, NET_UNREACH, NOPS, RA,  # noqa: E402
                          RR_FREE, SSRR, TIME_EXCEEDED, case, fwd, fwd_frag,
                          ipdrop, l2drop, local, unresolved)
from scapy.layers.l2 import Dot1Q, Ether  # noqa: E402
from scapy.packet import Raw  # noqa: E402


# ---------------------------------------------------------------- forward

def _c14(n):
    fr = frame(tag=n, plen=1000, ident=1)
    assert ip_field(fr, "csum") == 0x21E7, hex(ip_field(fr, "csum"))
    p = fwd(fr, 1, B_MAC)
    out = p.outputs[0][1]
    assert ip_field(out, "ttl") == 63 and ip_field(out, "csum") == 0x22E7
    assert out[:12] == lsk.mac_bytes(B_MAC) + lsk.mac_bytes(P1_MAC)
    assert out[14 + 20:] == fr[14 + 20:]   # UDP header+payload untouched
    return p


def _c15(n):
    fr = frame(tag=n, plen=573, ident=0xA192, ttl=195)
    assert ip_field(fr, "tot_len") == 601
    assert ip_field(fr, "csum") == 0xFEFF, hex(ip_field(fr, "csum"))
    p = fwd(fr, 1, B_MAC)
    out = p.outputs[0][1]
    assert ip_field(out, "ttl") == 194 and ip_field(out, "csum") == 0x0000
    return p


def _ttl2(n):
    fr = frame(tag=n, plen=1000, ident=1, ttl=2)
    assert ip_field(fr, "csum") == 0x5FE7
    p = fwd(fr, 1, B_MAC)
    assert ip_field(p.outputs[0][1], "csum") == 0x60E7
    return p


case("fwd_c14_baseline", "main", _c14)
case("fwd_c15_csum_edge", "main", _c15)
case("fwd_c17_ttl2", "main", _ttl2)
D("fwd_c16_ttl1_dropped", ["InHdrErrors"], icmp=TIME_EXCEEDED, ttl=1)
D("fwd_ttl0_dropped", ["InHdrErrors"], icmp=TIME_EXCEEDED, ttl=0)
F("fwd_via_gateway", dst="10.9.3.4")
F("fwd_p1_to_p0", egress=0, nh=A_MAC, in_port=1, dst="10.0.0.1")
F("fwd_p1_to_p0_remote_src", egress=0, nh=A_MAC, in_port=1, src="10.9.7.7",
  dst="10.0.0.1")
F("fwd_tcp", proto="tcp", plen=100)
F("fwd_icmp", proto="icmp", plen=56)
F("fwd_proto_253", proto=253, plen=40)
F("fwd_df_clear", df=False)
F("fwd_tos_ecn_kept", tos=0xB9)
F("fwd_ttl255", ttl=255)
F("fwd_fragment_first", df=False, mf=True, plen=800)
F("fwd_fragment_later", df=False, mf=False, frag=185, proto=17, plen=300)
F("fwd_fragment_middle", df=False, mf=True, frag=100, plen=400)
case("fwd_short_42_not_padded", "main",
     lambda n: fwd(frame(plen=0, sport=4242, dport=4242), 1, B_MAC))


def _padding(n):
    fr = frame(payload=b"P", sport=1111)
    assert len(fr) == 43
    fr = lsk.pad_to(fr, 60)
    p = fwd(fr, 1, B_MAC)
    assert len(p.outputs[0][1]) == 43
    return p


def _trailer(n):
    fr = frame(tag=n, plen=1000)
    fr = fr + bytes((i * 13 + 5) & 0xFF for i in range(100))
    p = fwd(fr, 1, B_MAC)
    assert len(p.outputs[0][1]) == 14 + 1028
    return p


def _hdr_only(pad):
    def b(n):
        fr = frame(plen=0, ident=2020 + pad)
        fr = patch_ip(fr, tot_len=20, l3_len=20)
        if pad:
            fr = lsk.pad_to(fr, 60)
        p = fwd(fr, 1, B_MAC)
        assert len(p.outputs[0][1]) == 34
        return p
    return b


case("fwd_a11_padding_trimmed", "main", _padding)
case("fwd_b9_trailer_trimmed", "main", _trailer)
case("fwd_b8_header_only", "main", _hdr_only(False))
case("fwd_b8_header_only_padded", "main", _hdr_only(True))
F("fwd_mtu_1500_exact", plen=1500 - 28)
D("fwd_mtu_1501_df_fragfails", ["FragFails"], icmp=FRAG_NEEDED(1500),
  plen=1501 - 28)
# DF clear: fragmented (docs/configuration.md "What happens to a packet"); this case
# expected FragFails before listack fragmented
case("fwd_mtu_1501_nodf_fragmented", "main", lambda n: fwd_frag(
    frame(tag=n, plen=1501 - 28, df=False), 1, B_MAC, 1500))



def _opt_fwd(opts):
    return lambda n: fwd(with_options(frame(tag=n), opts), 1, B_MAC)


def _opt_drop(opts, *counters, **kw):
    return lambda n: ipdrop(with_options(frame(tag=n, **kw), opts), *counters)


case("fwd_b11_options_nop", "main", _opt_fwd(NOPS))
case("fwd_options_record_route_unchanged", "main", _opt_fwd(RR_FREE))
case("fwd_options_router_alert", "main", _opt_fwd(RA))
case("fwd_options_max_ihl15", "main", _opt_fwd(b"\x01" * 39 + b"\x00"))
case("drop_lsrr", "main", _opt_drop(LSRR, "InDiscards"))
case("drop_ssrr", "main", _opt_drop(SSRR, "InDiscards"))
case("drop_lsrr_local", "main",
     _opt_drop(LSRR, "InDiscards", dst="10.0.0.254"))
case("drop_option_len0", "main",
     _opt_drop(b"\x1e\x00\x00\x00", "InHdrErrors"))
case("drop_option_len1", "main",
     _opt_drop(b"\x1e\x01\x00\x00", "InHdrErrors"))
case("drop_option_past_header", "main",
     _opt_drop(b"\x07\x0c\x04\x00", "InHdrErrors"))
case("drop_option_past_header_local", "main",
     _opt_drop(b"\x01\x44\x0c\x05", "InHdrErrors", dst="10.0.0.254"))

F("fwd_a9_prio_tag_leaves_untagged", vlan=0, pcp=5)
L("local_a9_prio_tag", vlan=0, pcp=5, dst="10.0.0.254")

# ---------------------------------------------------------------- local

L("local_own_address", dst="10.0.0.254")
L("local_c23_weak_host_other_port", dst="10.0.1.254")
L("local_weak_host_from_p1", in_port=1, dst="10.0.0.254")
L("local_own_address_from_p1", in_port=1, dst="10.0.1.254")
L("local_b18_subnet_bcast", dst="10.0.0.255", dst_mac=BCAST_MAC)
L("local_subnet_bcast_unicast_mac", dst="10.0.0.255")
L("local_other_subnet_bcast", dst="10.0.1.255", dst_mac=BCAST_MAC)
L("local_b19_limited_bcast", dst="255.255.255.255", dst_mac=BCAST_MAC)
L("local_b20_dhcp_zero_source", src="0.0.0.0", sport=68, dport=67,
  dst="255.255.255.255", dst_mac=BCAST_MAC)
L("local_b21_ttl0", dst="10.0.0.254", ttl=0)
L("local_b21_ttl1", dst="10.0.0.254", ttl=1)
case("local_b8_header_only", "main", lambda n: local(
    patch_ip(frame(dst="10.0.0.254", plen=0, sport=808), tot_len=20,
             l3_len=20)))
L("local_a3_l2_bcast", dst="10.0.0.254", dst_mac=BCAST_MAC)
L("local_a5_l2_mcast", dst="10.0.0.254", dst_mac=ALLHOSTS_MAC)
case("local_b11_options", "main", lambda n: local(
    with_options(frame(tag=n, dst="10.0.0.254"), NOPS)))
case("local_padding", "main", lambda n: local(
    lsk.pad_to(frame(dst="10.0.0.254", payload=b"Q", sport=3333), 60)))
L("local_big", dst="10.0.1.254", plen=1472)

# ---------------------------------------------------------------- L2

def _eth(n, type_, dst_mac=P0_MAC, body=None):
    body = body if body is not None else lsk.tag_payload("|%s|" % n, 46)
    return bytes(Ether(dst=dst_mac, src=A_MAC, type=type_) / Raw(body))


case("l2_a2_foreign_mac", "main", lambda n: l2drop(
    frame(tag=n, dst_mac="02:00:00:00:99:99"), "NotForUs"))
case("l2_other_port_mac", "main", lambda n: l2drop(
    frame(tag=n, dst_mac=P1_MAC), "NotForUs"))
case("l2_mcast_not_joined", "main", lambda n: l2drop(
    frame(tag=n, dst="239.1.2.3", dst_mac="01:00:5e:01:02:03"), "NotForUs"))
case("l2_foreign_mac_bad_ip", "main", lambda n: l2drop(
    patch_ip(frame(tag=n, dst_mac="02:00:00:00:99:99"), csum="bad"),
    "NotForUs"))
D("l2_a4_bcast_frame_unicast_ip_fwd", ["InAddrErrors"], dst_mac=BCAST_MAC)
D("l2_a5_mcast_frame_unicast_ip_fwd", ["InAddrErrors"],
  dst_mac=ALLHOSTS_MAC)
case("l2_a6_unknown_ethertype", "main",
     lambda n: l2drop(_eth(n, 0x88B5), "UnknownType"))
# IPv6's ethertype is no longer unknown: its frames are test_pcap_ip6.py's
case("l2_a7_8023_length", "main",
     lambda n: l2drop(_eth(n, 0x0040), "UnknownType"))
case("l2_8023_length_max", "main",
     lambda n: l2drop(_eth(n, 0x05DC), "UnknownType"))
case("l2_a8_vlan_100", "main", lambda n: l2drop(
    frame(tag=n, dst="10.0.0.254", vlan=100), "UnknownVlan"))
case("l2_prio_tag_unknown_type", "main", lambda n: l2drop(bytes(
    Ether(dst=P0_MAC, src=A_MAC) / Dot1Q(vlan=0, type=0x88B5) /
    Raw(lsk.tag_payload("|%s|" % n, 46))), "UnknownType"))
case("l2_runt_13", "main",
     lambda n: l2drop(lsk.mac_bytes(P0_MAC) + lsk.mac_bytes(A_MAC) + b"\x08",
                      "Runts"))
case("l2_runt_1", "main", lambda n: l2drop(b"\x02", "Runts"))
case("l2_eth_header_only_ipv4", "main", lambda n: ipdrop(
    lsk.mac_bytes(P0_MAC) + lsk.mac_bytes(A_MAC) + b"\x08\x00",
    "InHdrErrors"))

# ------------------------------------------------ malformed (ip_rcv_core)

def _mal(counters, dst="10.0.1.1", plen=32, **patch):
    def b(n):
        fr = frame(tag=n, dst=dst, plen=plen)
        return ipdrop(patch_ip(fr, **patch), *counters)
    return b


case("b1_l3_19_bytes", "main", lambda n: ipdrop(
    frame(plen=0, sport=1919)[:14 + 19], "InHdrErrors"))
case("b2_version6", "main", _mal(["InHdrErrors"], ver=6))
case("b2_version0", "main", _mal(["InHdrErrors"], ver=0))
case("b3_ihl4", "main", _mal(["InHdrErrors"], ihl=4))
case("b3_ihl0", "main", _mal(["InHdrErrors"], ihl=0))
case("b4_ihl15_past_l3", "main",
     _mal(["InHdrErrors"], plen=12, ihl=15, tot_len=40))
case("b5_bad_csum", "main", _mal(["InCsumErrors", "InHdrErrors"],
                                 csum="bad"))
case("b5_bad_csum_local", "main", _mal(["InCsumErrors", "InHdrErrors"],
                                       dst="10.0.0.254", csum="bad"))
case("b5_zero_csum", "main", _mal(["InCsumErrors", "InHdrErrors"], csum=0))
case("b6_truncated", "main",
     _mal(["InTruncatedPkts"], plen=1000, l3_len=600))
case("b6_truncated_by_one", "main",
     _mal(["InTruncatedPkts"], plen=100, l3_len=127))
case("b7_totlen_lt_header", "main", lambda n: ipdrop(lsk.pad_to(
    patch_ip(frame(tag=n, plen=8), tot_len=16), 60), "InHdrErrors"))
case("b7_totlen_19", "main",
     _mal(["InHdrErrors"], tot_len=19))
case("b10_csum_over_options", "main", lambda n: ipdrop(
    with_options(frame(tag=n), NOPS, csum="fix20"),
    "InCsumErrors", "InHdrErrors"))
case("order_version_before_csum", "main",
     _mal(["InHdrErrors"], ver=6, csum="bad"))
case("order_ihl_before_csum", "main",
     _mal(["InHdrErrors"], ihl=4, csum="bad"))
case("order_csum_before_truncated", "main",
     _mal(["InCsumErrors", "InHdrErrors"], plen=1000, l3_len=600,
          csum="bad"))
case("order_csum_before_short_totlen", "main",
     _mal(["InCsumErrors", "InHdrErrors"], tot_len=16, csum="bad"))
case("order_csum_before_martian", "main",
     _mal(["InCsumErrors", "InHdrErrors"], src="127.0.0.1", csum="bad"))
case("order_truncated_before_martian", "main",
     _mal(["InTruncatedPkts"], src="127.0.0.1", plen=500, l3_len=300))
D("order_martian_before_noroute", ["InAddrErrors"], src="224.0.0.5",
  dst="192.168.77.1")
D("order_noroute_before_ttl", ["InNoRoutes"], icmp=NET_UNREACH, ttl=1,
  dst="192.168.77.1")
D("order_blackhole_before_ttl", ["InDiscards"], ttl=1, dst="192.0.2.9")
D("order_martian_before_ttl", ["InAddrErrors"], ttl=1, src="127.0.0.1")
D("order_ttl_before_unresolved", ["InHdrErrors"], icmp=TIME_EXCEEDED, ttl=1,
  dst="10.0.1.7")
D("order_ttl_before_mtu", ["InHdrErrors"], icmp=TIME_EXCEEDED, ttl=1,
  plen=1501 - 28)
D("order_l2bcast_before_mtu", ["InAddrErrors"], dst_mac=BCAST_MAC,
  plen=1501 - 28)
L("local_ttl0_in_l2_bcast", ttl=0, dst="10.0.0.254", dst_mac=BCAST_MAC)

# ---------------------------------------------------------------- martians

D("c1_src_mcast_local", ["InAddrErrors"], src="224.0.0.5", dst="10.0.0.254")
D("c1_src_mcast_fwd", ["InAddrErrors"], src="224.0.0.5")
D("c1_src_class_e", ["InAddrErrors"], src="240.0.0.1")
D("c1_src_class_e_high", ["InAddrErrors"], src="254.1.2.3",
  dst="10.0.0.254")
D("c2_src_limited_bcast", ["InAddrErrors"], src="255.255.255.255",
  dst="10.0.0.254")
D("c3_src_zero_unicast", ["InAddrErrors"], src="0.0.0.0", dst="10.0.0.254")
D("c3_src_zero_subnet_bcast", ["InAddrErrors"], src="0.0.0.0",
  dst="10.0.0.255", dst_mac=BCAST_MAC)
D("c3_src_zero_fwd", ["InAddrErrors"], src="0.0.0.0")
D("c4_src_zeronet", ["InAddrErrors"], src="0.1.2.3", dst="10.0.0.254")
D("c4_src_zeronet_fwd", ["InAddrErrors"], src="0.255.255.255")
D("c5_dst_zeronet", ["InAddrErrors"], dst="0.1.2.3")
D("c5_dst_zero", ["InAddrErrors"], dst="0.0.0.0")
D("c6_dst_loopback", ["InAddrErrors"], dst="127.0.0.1")
D("c6_dst_loopback_net", ["InAddrErrors"], dst="127.200.1.1")
D("c6_src_loopback", ["InAddrErrors"], src="127.0.0.1", dst="10.0.0.254")
D("c6_src_loopback_fwd", ["InAddrErrors"], src="127.255.0.1")
D("c7_src_own_address", ["InAddrErrors"], src="10.0.0.254")
D("c7_src_own_address_local", ["InAddrErrors"], src="10.0.0.254",
  dst="10.0.0.254")
D("c7_src_other_port_address", ["InAddrErrors"], src="10.0.1.254")
D("c7_src_own_address_from_p1", ["InAddrErrors"], in_port=1,
  src="10.0.1.254", dst="10.0.0.1")
D("src_subnet_bcast", ["InAddrErrors"], src="10.0.0.255")
D("src_other_subnet_bcast", ["InAddrErrors"], src="10.0.1.255",
  dst="10.0.0.254")
D("c13_dst_mcast_allhosts", ["InDiscards"], dst="224.0.0.1",
  dst_mac=ALLHOSTS_MAC)
D("c13_dst_mcast_unicast_mac", ["InDiscards"], dst="239.1.1.1")

# ---------------------------------------------------------------- routes

D("c9_no_route", ["InNoRoutes"], icmp=NET_UNREACH, dst="192.168.77.1")
D("no_route_from_p1", ["InNoRoutes"], icmp=NET_UNREACH, in_port=1,
  dst="172.16.0.1")
D("c12_blackhole", ["InDiscards"], dst="192.0.2.7")
D("blackhole_from_p1", ["InDiscards"], in_port=1, dst="192.0.2.255")
case("unresolved_connected_neighbour", "main",
     lambda n: unresolved(frame(tag=n, dst="10.0.1.7")))
case("unresolved_connected_from_p1", "main",
     lambda n: unresolved(frame(tag=n, port=1, dst="10.0.0.9"), in_port=1))

# MTU: port 1 mtu 1000
F("mtu_fwd_exact_1000", grp="mtu", plen=1000 - 28)
D("mtu_1001_df", ["FragFails"], grp="mtu", icmp=FRAG_NEEDED(1000),
  plen=1001 - 28)
D("mtu_c18_1028_df", ["FragFails"], grp="mtu", icmp=FRAG_NEEDED(1000),
  plen=1000)
case("mtu_c18_1028_nodf_fragmented", "mtu", lambda n: fwd_frag(
    frame(tag=n, plen=1000, df=False), 1, B_MAC, 1000))
case("mtu_nodf_3_fragments", "mtu", lambda n: fwd_frag(
    frame(tag=n, plen=2400, df=False), 1, B_MAC, 1000))
# a forwarded fragment too big for the egress: cut further, offsets
# counted from its own, MF kept on the last piece
case("mtu_fragment_refragmented", "mtu", lambda n: fwd_frag(
    frame(tag=n, plen=1400, df=False, mf=True, frag=64), 1, B_MAC, 1000))
case("mtu_last_fragment_refragmented", "mtu", lambda n: fwd_frag(
    frame(tag=n, plen=1400, df=False, mf=False, frag=200), 1, B_MAC, 1000))
D("mtu_ttl1_before_mtu", ["InHdrErrors"], grp="mtu", icmp=TIME_EXCEEDED,
  plen=1000, ttl=1)
D("mtu_frag_needed_from_p1_other_egress", ["FragFails"], grp="mtu",
  icmp=FRAG_NEEDED(1000), in_port=1, src="10.9.7.7", dst="10.0.1.1",
  plen=1200)
F("mtu_other_egress_unaffected", grp="mtu", egress=0, nh=A_MAC, in_port=1,
  dst="10.0.0.1", plen=1400)
L("mtu_local_not_limited", grp="mtu", dst="10.0.1.254", plen=1400)
F("mtu_small_still_forwarded", grp="mtu", plen=200)

# route add/del, more specific prefixes (input on P0 only)
F("route_more_specific_than_connected", grp="routes", egress=0, nh=A_MAC,
  dst="10.0.1.200")
F("route_connected_beside_specific", grp="routes", dst="10.0.1.1")
F("route_specific_boundary_high", grp="routes", egress=0, nh=A_MAC,
  dst="10.0.1.128")
case("route_specific_boundary_low_connected", "routes",
     lambda n: unresolved(frame(tag=n, dst="10.0.1.127")))
F("route_more_specific_than_16", grp="routes", egress=0, nh=A_MAC,
  dst="10.9.5.9")
F("route_16_beside_specific", grp="routes", dst="10.9.6.9")
D("route_del_via", ["InNoRoutes"], grp="routes", icmp=NET_UNREACH,
  dst="10.7.1.1")
D("route_del_blackhole", ["InNoRoutes"], grp="routes", icmp=NET_UNREACH,
  dst="10.6.1.1")
case("route_gateway_unresolved", "routes",
     lambda n: unresolved(frame(tag=n, dst="10.8.1.1"), via="10.0.1.2"))
D("route_blackhole_more_specific", ["InDiscards"], grp="routes",
  dst="10.5.0.9")
F("route_beside_blackhole", grp="routes", dst="10.5.1.9")
F("route_readded_after_del", grp="routes", egress=0, nh=A_MAC,
  dst="10.4.1.1")
F("route_hairpin_same_port", grp="routes", egress=0, nh=A_MAC,
  src="10.0.0.2", dst="10.0.0.1")

# default route
F("default_route_fwd", grp="default", dst="192.168.77.1")
F("default_route_class_a", grp="default", dst="8.8.8.8")
D("default_dst_loopback_martian", ["InAddrErrors"], grp="default",
  dst="127.0.0.1")
D("default_dst_zeronet_martian", ["InAddrErrors"], grp="default",
  dst="0.1.2.3")
D("default_dst_mcast_discard", ["InDiscards"], grp="default",
  dst="239.1.1.1")
L("default_limited_bcast_local", grp="default", dst="255.255.255.255",
  dst_mac=BCAST_MAC)
L("default_own_address_local", grp="default", dst="10.0.1.254")

# config syntax: comments, blank lines, tabs, extra spaces, no final newline
F("config_syntax_comments_whitespace", grp="syntax", dst="10.9.1.1")


# ---------------------------------------------------------------- mixed

def _mixed(n):
    """One burst of 40 frames on P0: five flows to two egress ports
    interleaved with local deliveries and drops (some drops reuse a flow's
    5-tuple). Per-flow order is checked on each output."""
    rng = random.Random(4242)
    flows = {
        "F1": dict(dst="10.0.1.1", sport=1001),
        "F2": dict(dst="10.9.0.7", sport=1002),
        "F3": dict(src="10.0.0.3", dst="10.9.200.1", proto="tcp",
                   sport=1003, dport=53),
        "F4": dict(src="10.0.0.2", dst="10.0.0.1", sport=1004),   # hairpin
        "F5": dict(src="10.0.0.4", dst="10.0.0.1", proto="icmp",
                   sport=1005),
    }
    egress = {"F1": (1, B_MAC), "F2": (1, B_MAC), "F3": (1, B_MAC),
              "F4": (0, A_MAC), "F5": (0, A_MAC)}
    kinds = ([k for k in flows for _ in range(6)] +
             ["local", "local", "badcsum", "ttl1", "noroute", "notforus",
              "martian", "unresolved", "bcastfwd", "blackhole"])
    rng.shuffle(kinds)
    ids = collections.Counter()
    parts = []
    for i, k in enumerate(kinds):
        tag = "%s#%d" % (n, i)
        plen = rng.choice([0, 18, 64, 200, 700, 1400])
        if k in flows:
            ids[k] += 1
            fr = frame(tag=tag, ident=ids[k], plen=max(plen, 20), **flows[k])
            parts.append(fwd(fr, *egress[k]))
        elif k == "local":
            parts.append(local(frame(tag=tag, dst="10.0.0.254", sport=1001)))
        elif k == "badcsum":
            parts.append(ipdrop(patch_ip(frame(tag=tag, **flows["F1"]),
                                         csum="bad"),
                                "InCsumErrors", "InHdrErrors"))
        elif k == "ttl1":
            parts.append(ipdrop(frame(tag=tag, ttl=1, **flows["F2"]),
                                "InHdrErrors", icmp=TIME_EXCEEDED))
        elif k == "noroute":
            parts.append(ipdrop(frame(tag=tag, dst="198.51.100.1"),
                                "InNoRoutes", icmp=NET_UNREACH))
        elif k == "notforus":
            parts.append(l2drop(frame(tag=tag, dst_mac="02:00:00:00:99:99",
                                      **flows["F1"]), "NotForUs"))
        elif k == "martian":
            parts.append(ipdrop(frame(tag=tag, src="127.0.0.1",
                                      dst="10.0.1.1"), "InAddrErrors"))
        elif k == "unresolved":
            parts.append(unresolved(frame(tag=tag, dst="10.0.1.77")))
        elif k == "bcastfwd":
            parts.append(ipdrop(frame(tag=tag, dst_mac=BCAST_MAC,
                                      **flows["F2"]), "InAddrErrors"))
        elif k == "blackhole":
            parts.append(ipdrop(frame(tag=tag, dst="192.0.2.1"),
                                "InDiscards"))
    return parts


case("mixed_burst_per_flow_order", "mixed", _mixed)


if __name__ == "__main__":
    sys.exit(rt.main())
