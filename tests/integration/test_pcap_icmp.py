#!/usr/bin/python3
"""pcap integration tests of listack-fwd: ICMP: echo, errors of each kind,
the cases never answered, two addresses on a port.

    /usr/bin/python3 tests/integration/test_pcap_icmp.py build/listack-fwd [-k SUBSTR] [--keep] [-v]

What every case checks and how (both modes, byte for byte, the
counters, no mbuf left): pcap_harness.py.
"""

import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lsk  # noqa: E402
from lsk import ALLHOSTS_MAC, BCAST_MAC, frame, with_options  # noqa: E402
import pcap_harness as rt  # noqa: E402
from pcap_harness import (D, FRAG_NEEDED, L, NET_UNREACH, NOPS, Part,  # noqa: E402
                          TIME_EXCEEDED, _arp_in, _arp_req_answered, case,
                          echo, fwd, group, ipdrop, local, unresolved)
from scapy.layers.inet import ICMP, IP, UDP  # noqa: E402
from scapy.layers.l2 import Ether  # noqa: E402
from scapy.packet import Raw  # noqa: E402


# ======================================================================
# ICMP: echo, errors of each kind, and the cases never answered

def _icmp_frame(type_, code=0, port=0, body=b"", **kw):
    """An ICMP message of any type (raw bytes after the 4-byte header
    start), valid checksum."""
    src = kw.pop("src", lsk.PEER_IP[port])
    dst = kw.pop("dst", "10.0.0.254")
    ttl = kw.pop("ttl", 64)
    ip = IP(src=src, dst=dst, ttl=ttl, id=kw.pop("ident", 1),
            flags=kw.pop("flags", "DF"), frag=kw.pop("frag", 0))
    pkt = Ether(dst=kw.pop("dst_mac", lsk.PORT_MAC[port]),
                src=lsk.PEER_MAC[port]) / ip / \
        ICMP(type=type_, code=code) / Raw(body)
    assert not kw, kw
    return bytes(pkt)


def _quoted(n, dst="10.9.1.1"):
    """What an ICMP error quotes: some datagram's header and 8 bytes."""
    return bytes(IP(src="10.0.0.1", dst=dst, id=7) /
                 UDP(sport=1000, dport=2000) / Raw(b"|%s|" % n.encode()))[:28]


def _echo(port=0, dst="10.0.0.254", **kw):
    return lambda n: echo(frame(tag=n, proto="icmp", port=port, dst=dst,
                                **kw), in_port=port)


def _with_icmp_csum(fr, value):
    b = bytearray(fr)
    off = lsk.l2_offset(fr)
    ihl = (b[off] & 15) * 4
    b[off + ihl + 2:off + ihl + 4] = struct.pack("!H", value)
    return bytes(b)


case("icmp_echo_reply", "icmp", _echo(plen=56))
case("icmp_echo_reply_other_port_address", "icmp",
     _echo(dst="10.0.1.254", plen=56, sport=7))
case("icmp_echo_reply_from_p1", "icmp",
     _echo(port=1, dst="10.0.1.254", plen=56))
case("icmp_echo_reply_odd_length", "icmp", _echo(plen=57, sport=9))
case("icmp_echo_reply_empty", "icmp", _echo(plen=0, sport=11, dport=5))
case("icmp_echo_reply_1472", "icmp", _echo(plen=1472, sport=12))
case("icmp_echo_reply_ttl1", "icmp", _echo(ttl=1, sport=13))
case("icmp_echo_reply_padded", "icmp", lambda n: echo(lsk.pad_to(
    frame(proto="icmp", dst="10.0.0.254", payload=b"e", sport=14), 60)))
# an L2 broadcast frame to our unicast address: answered (Linux ignores
# only IP-level broadcasts)
case("icmp_echo_reply_l2_bcast_unicast_ip", "icmp",
     _echo(dst_mac=BCAST_MAC, sport=15))
case("icmp_echo_reply_tos_copied", "icmp", _echo(tos=0xB9, sport=19))
# not answered; Linux's icmp_rcv counts them icmp.InErrors ("goto error")
case("icmp_echo_subnet_bcast_ignored", "bugs",
     _echo(dst="10.0.0.255", dst_mac=BCAST_MAC, sport=16))
case("icmp_echo_limited_bcast_ignored", "bugs",
     _echo(port=1, dst="255.255.255.255", dst_mac=BCAST_MAC, sport=17))


def _echo_nop_options(n):
    """Linux answers with the options ip_options_echo() rebuilds: record
    route, timestamp, source route; NOPs and EOL are not copied, so a
    request with only NOPs gets a reply without options (IHL 5)."""
    fr = with_options(frame(tag=n, proto="icmp", dst="10.0.0.254",
                            sport=20), NOPS)
    p = echo(fr)
    p.outputs = [lsk.echo_reply(frame(tag=n, proto="icmp", dst="10.0.0.254",
                                      sport=20))]
    return p


case("icmp_echo_reply_drops_nop_options", "bugs", _echo_nop_options)


def _arp_martian_sender(psrc):
    """Linux answers a request only if ip_route_input_noref(tip, sip)
    accepts it: a sender claiming one of our addresses or a loopback
    address is a martian source, so no reply (and nothing learnt)."""
    return lambda n: Part([(0, _arp_in(0, 1, psrc, "10.0.0.254",
                                       "02:00:00:00:00:66"))], [],
                          {"arp.InRequests": 1})


# An error that cannot be routed back is not sent: Linux counts nothing
# for it (icmp_out_count runs in __ip_make_skb, after the route lookup
# icmp_send gives up on; no IPSTATS counter either)
D("icmp_err_no_route_back_not_counted", ["InHdrErrors"], grp="bugs",
  src="198.51.100.7", ttl=1)
# ---------------------------------------------------- two addresses, port 0

group("twoaddr", lsk.fixture_conf(extra=(
    "address add 10.0.2.254/24 port 0\n"
    "neigh add 10.0.2.1 lladdr 02:00:00:00:02:01\n")))
MAC_2_1 = "02:00:00:00:02:01"


def _via_2_1(dst):
    return (0, MAC_2_1) if dst == "10.0.2.1" else lsk.fixture_route(dst)


def _from_2_1(n, **kw):
    return frame(tag=n, src="10.0.2.1", src_mac=MAC_2_1, **kw)


# an error about a forwarded packet comes from the ingress port's first
# address, whatever subnet the source is on
case("twoaddr_error_source_is_first_address", "twoaddr", lambda n: ipdrop(
    _from_2_1(n, ttl=1), "InHdrErrors").error(_from_2_1(n, ttl=1), 11, 0,
                                               route=_via_2_1))
case("twoaddr_error_source_original_destination", "twoaddr",
     lambda n: local(frame(tag=n, dst="10.0.2.254", dport=3999)))
# ARP asks from our address on the target's subnet
case("twoaddr_arp_request_from_subnet_address", "twoaddr",
     lambda n: unresolved(frame(tag=n, port=1, dst="10.0.2.7"), in_port=1,
                          port=0, psrc="10.0.2.254"))
case("twoaddr_arp_request_answered", "twoaddr", lambda n: _arp_req_answered(
    0, "10.0.2.254", psrc="10.0.2.1", hwsrc=MAC_2_1))
case("twoaddr_forward_to_second_subnet", "twoaddr", lambda n: fwd(
    frame(tag=n, port=1, dst="10.0.2.1"), 0, MAC_2_1, in_port=1))
case("twoaddr_echo_second_address", "twoaddr", lambda n: echo(
    frame(tag=n, proto="icmp", dst="10.0.2.254")))
D("twoaddr_second_address_martian_source", ["InAddrErrors"],
  grp="twoaddr", src="10.0.2.254")


case("arp_request_sender_our_address_not_answered", "bugs",
     _arp_martian_sender("10.0.1.254"))
case("arp_request_sender_loopback_not_answered", "bugs",
     _arp_martian_sender("127.0.0.1"))
case("icmp_echo_bad_csum", "icmp", lambda n: Part(
    [(0, _with_icmp_csum(frame(tag=n, proto="icmp", dst="10.0.0.254"),
                         0x1234))], [],
    {"InReceives": 1, "InDelivers": 1, "icmp.InMsgs": 1, "icmp.InErrors": 1,
     "icmp.InCsumErrors": 1}))
# 4 bytes of ICMP (type 8, code 0, a checksum right for those 4 bytes)
case("icmp_too_short", "icmp", lambda n: Part(
    [(0, frame(proto=1, dst="10.0.0.254", payload=b"\x08\x00\xf7\xff",
               ident=18))], [],
    {"InReceives": 1, "InDelivers": 1, "icmp.InMsgs": 1,
     "icmp.InErrors": 1}))
case("icmp_in_dest_unreach_counted", "icmp", lambda n: Part(
    [(0, _icmp_frame(3, 3, body=_quoted(n)))], [],
    {"InReceives": 1, "InDelivers": 1, "icmp.InMsgs": 1,
     "icmp.InDestUnreachs": 1}))
case("icmp_in_time_exceeded_counted", "icmp", lambda n: Part(
    [(0, _icmp_frame(11, 0, body=_quoted(n)))], [],
    {"InReceives": 1, "InDelivers": 1, "icmp.InMsgs": 1,
     "icmp.InTimeExcds": 1}))
case("icmp_in_echo_reply_counted", "icmp", lambda n: Part(
    [(0, _icmp_frame(0, 0, body=n.encode()))], [],
    {"InReceives": 1, "InDelivers": 1, "icmp.InMsgs": 1,
     "icmp.InEchoReps": 1}))

# errors, one case per kind and per rule of the error's source and TOS
D("icmp_err_time_exceeded", ["InHdrErrors"], grp="icmp", icmp=TIME_EXCEEDED,
  ttl=1, sport=2001)
D("icmp_err_time_exceeded_tos", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, ttl=1, tos=0xB9, sport=2002)
D("icmp_err_time_exceeded_tos_ff", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, ttl=1, tos=0xFF, sport=2003)
D("icmp_err_time_exceeded_from_p1", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, in_port=1, dst="10.0.0.1", ttl=1)
# the source of an error about a forwarded packet is the ingress port's
# address, even when the reply leaves by another port
D("icmp_err_source_is_ingress_address", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, src="10.9.7.7", dst="10.0.1.1", ttl=1)
D("icmp_err_time_exceeded_remote_src_p1", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, in_port=1, src="10.9.8.8", dst="10.0.0.1", ttl=1)
D("icmp_err_quote_cut_at_576", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, ttl=1, plen=1400, sport=2004)
D("icmp_err_quote_548_exactly", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, ttl=1, plen=548 - 28, sport=2005)
D("icmp_err_quote_tcp", ["InHdrErrors"], grp="icmp", icmp=TIME_EXCEEDED,
  ttl=1, proto="tcp", plen=40, sport=2006)
case("icmp_err_quote_options", "icmp", lambda n: ipdrop(
    with_options(frame(tag=n, ttl=1), NOPS), "InHdrErrors",
    icmp=TIME_EXCEEDED))
case("icmp_err_quote_padding_trimmed", "icmp", lambda n: ipdrop(
    lsk.pad_to(frame(payload=b"x", ttl=1, sport=2007), 60), "InHdrErrors",
    icmp=TIME_EXCEEDED))
# an echo request is no error: errors about it are sent
D("icmp_err_about_echo_request", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, proto="icmp", ttl=1, sport=2008)
D("icmp_err_first_fragment", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, ttl=1, df=False, mf=True, plen=600, sport=2009)
D("icmp_err_net_unreach", ["InNoRoutes"], grp="icmp", icmp=NET_UNREACH,
  dst="198.51.100.9", tos=0x28)
D("icmp_err_net_unreach_from_p1_remote_src", ["InNoRoutes"], grp="icmp",
  icmp=NET_UNREACH, in_port=1, src="10.9.9.9", dst="198.51.100.10")
L("icmp_err_port_unreach", grp="icmp", dst="10.0.0.254", dport=3999)
L("icmp_err_port_unreach_other_port_address", grp="icmp", dst="10.0.1.254",
  dport=3998)
L("icmp_err_port_unreach_from_p1", grp="icmp", in_port=1, dst="10.0.0.254",
  dport=3997)
L("icmp_err_port_unreach_big", grp="icmp", dst="10.0.0.254", dport=3996,
  plen=1000)
L("icmp_err_proto_unreach", grp="icmp", dst="10.0.0.254", proto=253)
L("icmp_err_proto_unreach_other_port_address", grp="icmp", in_port=1,
  dst="10.0.0.254", proto=254, plen=100)
case("icmp_err_frag_needed", "mtu", lambda n: ipdrop(
    frame(tag=n, plen=1100, tos=0x04), "FragFails", icmp=FRAG_NEEDED(1000)))

# never about: an ICMP error, a non-first fragment, an L2 or IP broadcast
# or multicast, a martian source
case("icmp_never_about_dest_unreach", "icmp", lambda n: ipdrop(
    _icmp_frame(3, 1, dst="10.0.1.1", ttl=1, body=_quoted(n)),
    "InHdrErrors"))
case("icmp_never_about_time_exceeded", "icmp", lambda n: ipdrop(
    _icmp_frame(11, 0, dst="198.51.100.11", body=_quoted(n)), "InNoRoutes"))
case("icmp_never_about_param_problem", "icmp", lambda n: ipdrop(
    _icmp_frame(12, 0, dst="10.0.1.1", ttl=0, body=_quoted(n)),
    "InHdrErrors"))
case("icmp_never_about_redirect", "icmp", lambda n: ipdrop(
    _icmp_frame(5, 1, dst="198.51.100.12", body=_quoted(n)), "InNoRoutes"))
D("icmp_never_non_first_fragment_ttl1", ["InHdrErrors"], grp="icmp",
  ttl=1, df=False, mf=True, frag=100, plen=200)
D("icmp_never_last_fragment_noroute", ["InNoRoutes"], grp="icmp",
  df=False, frag=185, dst="198.51.100.13", plen=200)
L("icmp_never_l2_bcast_port_unreach", grp="icmp", dst="10.0.0.254",
  dport=3995, dst_mac=BCAST_MAC)
L("icmp_never_l2_mcast_proto_unreach", grp="icmp", dst="10.0.0.254",
  proto=253, dst_mac=ALLHOSTS_MAC)
L("icmp_never_subnet_bcast_proto_unreach", grp="icmp", dst="10.0.0.255",
  proto=253)
L("icmp_never_limited_bcast_port_unreach", grp="icmp",
  dst="255.255.255.255", dst_mac=BCAST_MAC, dport=3994)
L("icmp_never_zero_src_proto_unreach", grp="icmp", src="0.0.0.0",
  dst="255.255.255.255", dst_mac=BCAST_MAC, proto=253)
D("icmp_never_martian_src_ttl1", ["InAddrErrors"], grp="icmp",
  src="127.0.0.1", ttl=1)
D("icmp_never_l2_bcast_ttl1", ["InAddrErrors"], grp="icmp",
  dst_mac=BCAST_MAC, ttl=1)
D("icmp_never_blackhole", ["InDiscards"], grp="icmp", dst="192.0.2.77")
D("icmp_never_mcast_dst", ["InDiscards"], grp="icmp", dst="239.1.1.2",
  ttl=1)


if __name__ == "__main__":
    sys.exit(rt.main())
