#!/usr/bin/python3
"""pcap integration tests of listack-fwd: UDP delivery to `udp listen`
services, reassembly, jumbo datagrams.

    /usr/bin/python3 tests/integration/test_pcap_udp.py build/listack-fwd [-k SUBSTR] [--keep] [-v]

What every case checks and how (both modes, byte for byte, the
counters, no mbuf left): pcap_harness.py.
"""

import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lsk  # noqa: E402
from lsk import A_MAC, BCAST_MAC, P0_MAC, frame, patch_ip  # noqa: E402
import pcap_harness as rt  # noqa: E402
from pcap_harness import (L, Part, _udp_raw, case, group, ipdrop, local,  # noqa: E402
                          udp_deliver)
from scapy.layers.inet import IP  # noqa: E402
from scapy.layers.l2 import Ether  # noqa: E402
from scapy.packet import Raw  # noqa: E402


# ======================================================================
# UDP delivery: `udp listen` services

ECHO7 = "10.0.0.254:7"
ECHO17 = "0.0.0.0:17"


def U(name, svc, reply_from=None, pcap=None, in_port=0, **kw):
    """A datagram delivered to service svc."""
    case(name, "udp", lambda n: udp_deliver(
        frame(tag=n, port=in_port, **kw), svc, in_port=in_port,
        reply_from=reply_from, pcap=pcap))


def _udp_drop(fr, *counters, in_port=0):
    return ipdrop(fr, "InDelivers", *counters, in_port=in_port)


U("udp_echo_reply", ECHO7, "10.0.0.254", dst="10.0.0.254", dport=7)
U("udp_echo_reply_from_p1", ECHO7, "10.0.0.254", in_port=1,
  dst="10.0.0.254", dport=7)
U("udp_echo_reply_tos_ttl_not_copied", ECHO7, "10.0.0.254",
  dst="10.0.0.254", dport=7, tos=0xB8, ttl=9, df=False)
U("udp_echo_wildcard_other_address", ECHO17, "10.0.1.254",
  dst="10.0.1.254", dport=17)
# a broadcast is answered from the egress port's address
U("udp_echo_wildcard_subnet_bcast", ECHO17, "10.0.0.254",
  dst="10.0.0.255", dport=17, dst_mac=BCAST_MAC)
U("udp_echo_wildcard_other_subnet_bcast", ECHO17, "10.0.0.254",
  dst="10.0.1.255", dport=17, dst_mac=BCAST_MAC)
U("udp_echo_wildcard_limited_bcast_p1", ECHO17, "10.0.1.254", in_port=1,
  dst="255.255.255.255", dport=17, dst_mac=BCAST_MAC)
U("udp_echo_empty", ECHO7, "10.0.0.254", dst="10.0.0.254", dport=7, plen=0,
  sport=1001)
U("udp_echo_1472", ECHO7, "10.0.0.254", dst="10.0.0.254", dport=7,
  plen=1472, sport=1002)
U("udp_echo_ttl1", ECHO7, "10.0.0.254", dst="10.0.0.254", dport=7, ttl=1,
  sport=1003)
U("udp_echo_l2_bcast_unicast_ip", ECHO7, "10.0.0.254", dst="10.0.0.254",
  dport=7, dst_mac=BCAST_MAC, sport=1004)
case("udp_echo_zero_csum_accepted", "udp", lambda n: udp_deliver(
    _udp_raw("10.0.0.254", 7, b"|%s|" % n.encode(), csum=0, sport=1005),
    ECHO7, reply_from="10.0.0.254"))
case("udp_echo_short_ulen_trimmed", "udp", lambda n: udp_deliver(
    _udp_raw("10.0.0.254", 7, b"|%s|" % n.encode(), sport=1006,
             extra=b"NOT-PART-OF-THE-DATAGRAM"), ECHO7,
    reply_from="10.0.0.254"))
case("udp_echo_padded", "udp", lambda n: udp_deliver(lsk.pad_to(
    frame(dst="10.0.0.254", dport=7, payload=b"u", sport=1007), 60),
    ECHO7, reply_from="10.0.0.254"))
case("udp_echo_train", "udp", lambda n: [udp_deliver(
    frame(tag="%s#%d" % (n, i), dst="10.0.0.254", dport=7, sport=1008,
          ident=i + 1, plen=300), ECHO7, reply_from="10.0.0.254")
    for i in range(6)])
U("udp_discard_wildcard", "0.0.0.0:9", dst="10.0.0.254", dport=9)
U("udp_discard_specific_beats_wildcard", "10.0.1.254:9", dst="10.0.1.254",
  dport=9)
U("udp_discard_bcast_to_wildcard_only", "0.0.0.0:9", in_port=1,
  dst="10.0.1.255", dport=9, dst_mac=BCAST_MAC)
U("udp_pcap_specific", "10.0.0.254:5000", pcap="spec5000.pcap",
  dst="10.0.0.254", dport=5000)
U("udp_pcap_wildcard_other_address", "0.0.0.0:5000", pcap="wild5000.pcap",
  dst="10.0.1.254", dport=5000)
U("udp_pcap_wildcard_subnet_bcast", "0.0.0.0:5000", pcap="wild5000.pcap",
  dst="10.0.0.255", dport=5000, dst_mac=BCAST_MAC)
U("udp_pcap_wildcard_limited_bcast", "0.0.0.0:5000", pcap="wild5000.pcap",
  in_port=1, dst="255.255.255.255", dport=5000, dst_mac=BCAST_MAC)
case("udp_pcap_padding_trimmed", "udp", lambda n: udp_deliver(lsk.pad_to(
    frame(dst="10.0.0.254", dport=5000, payload=b"p", sport=1009), 60),
    "10.0.0.254:5000", pcap="spec5000.pcap"))
case("udp_pcap_trailer_trimmed", "udp", lambda n: udp_deliver(
    frame(tag=n, dst="10.0.0.254", dport=5000, plen=200) +
    bytes(range(50)), "10.0.0.254:5000", pcap="spec5000.pcap"))
case("udp_pcap_train_members", "udp", lambda n: [udp_deliver(
    frame(tag="%s#%d" % (n, i), dst="10.0.0.254", dport=5000, sport=1010,
          ident=100 + i, plen=200 if i < 4 else 80), "10.0.0.254:5000",
    pcap="spec5000.pcap") for i in range(5)])
L("udp_specific_gets_no_bcast", grp="udp", dst="10.0.0.255", dport=5001,
  dst_mac=BCAST_MAC)
L("udp_specific_other_address_noport", grp="udp", dst="10.0.1.254",
  dport=5001)
L("udp_noport_icmp", grp="udp", dst="10.0.0.254", dport=3999)
L("udp_noport_subnet_bcast_ignored", grp="udp", dst="10.0.0.255",
  dport=3999, dst_mac=BCAST_MAC)
L("udp_noport_limited_bcast_ignored", grp="udp", dst="255.255.255.255",
  dport=3999, dst_mac=BCAST_MAC)
case("udp_len_lt_8", "udp", lambda n: _udp_drop(
    _udp_raw("10.0.0.254", 7, b"|%s|" % n.encode(), ulen=4),
    "udp.InErrors"))
case("udp_len_0", "udp", lambda n: _udp_drop(
    _udp_raw("10.0.0.254", 7, b"|%s|" % n.encode(), ulen=0),
    "udp.InErrors"))
case("udp_len_gt_ip_payload", "udp", lambda n: _udp_drop(
    _udp_raw("10.0.0.254", 7, b"|%s|" % n.encode(), ulen=8 + 100 + 200),
    "udp.InErrors"))
case("udp_header_cut_by_ip_length", "udp", lambda n: _udp_drop(
    patch_ip(frame(dst="10.0.0.254", dport=7, plen=0, sport=1011),
             tot_len=24, l3_len=24), "udp.InErrors"))
case("udp_bad_csum_to_listener", "udp", lambda n: _udp_drop(
    _udp_raw("10.0.0.254", 7, b"|%s|" % n.encode(), csum="bad"),
    "udp.InCsumErrors", "udp.InErrors"))
# the checksum is checked before the port: no NoPorts, no ICMP
case("udp_bad_csum_no_port", "udp", lambda n: _udp_drop(
    _udp_raw("10.0.0.254", 3993, b"|%s|" % n.encode(), csum="bad"),
    "udp.InCsumErrors", "udp.InErrors"))
case("udp_bad_csum_short_ulen", "udp", lambda n: _udp_drop(
    _udp_raw("10.0.0.254", 7, b"|%s|" % n.encode(), csum="bad",
             extra=b"tail"), "udp.InCsumErrors", "udp.InErrors"))


def _frags_of(whole, size, order=None):
    ip = lsk.l3_of(whole)
    frs = [bytes(Ether(dst=P0_MAC, src=A_MAC, type=0x0800)) + f
           for f in lsk.fragments(ip, 20 + size)]
    return [frs[i] for i in order] if order else frs


def _reasm_echo(order=None, plen=900, size=512):
    """Fragments of a datagram to the echo service (in the given order):
    reassembled, delivered once, echoed whole."""
    def b(n):
        whole = frame(dst="10.0.0.254", dport=7, sport=1012, df=False,
                      ident=4242 + plen, tag=n, plen=plen)
        frs = _frags_of(whole, size, order)
        p = Part([(0, f) for f in frs], [lsk.udp_echo_reply(whole,
                                                            "10.0.0.254")],
                 {"InReceives": len(frs), "ReasmReqds": len(frs),
                  "ReasmOKs": 1, "InDelivers": 1, "udp.InDatagrams": 1,
                  "udp.OutDatagrams": 1})
        p.svc_counts[ECHO7] += 1
        return p
    return b


def _reasm_noport(n):
    """A reassembled datagram to a closed port: port unreachable quoting
    the reassembled datagram (its header: whole length, no fragment
    bits)."""
    whole = frame(dst="10.0.0.254", dport=3990, sport=1013, df=False,
                  ident=777, tag=n, plen=1200)
    frs = _frags_of(whole, 256)
    p = Part([(0, f) for f in frs], [],
             {"InReceives": len(frs), "ReasmReqds": len(frs), "ReasmOKs": 1,
              "InDelivers": 1, "udp.NoPorts": 1})
    return p.error(whole, 3, 3)


def _reasm_incomplete(n):
    """The first fragment alone: held for reassembly, nothing delivered
    (and nothing leaks at exit)."""
    whole = frame(dst="10.0.0.254", dport=7, sport=1014, df=False,
                  ident=778, tag=n, plen=900)
    frs = _frags_of(whole, 512)[:1]
    return Part([(0, f) for f in frs], [],
                {"InReceives": 1, "ReasmReqds": 1})


def _reasm_ping(plen, size, ident):
    """An echo request of plen bytes of data in fragments of size bytes
    (`ping -s 1700` on a 1500-byte link cut smaller on the way; `ping -s
    3072` in three 1500-byte frames, the issue's case, whose datagram an
    mbuf cannot hold): reassembled, answered, and the reply, larger than
    port 0's MTU with DF clear, leaves in fragments as Linux's ip_fragment
    cuts them."""
    def b(n):
        whole = frame(proto="icmp", dst="10.0.0.254", df=False, ident=ident,
                      tag=n, plen=plen, sport=20)
        frs = _frags_of(whole, size)
        port, reply = lsk.echo_reply(whole)
        eth = reply[:14]
        outs = [(port, eth + f) for f in lsk.fragments(reply[14:], 1500)]
        return Part([(0, f) for f in frs], outs,
                    {"InReceives": len(frs), "ReasmReqds": len(frs),
                     "ReasmOKs": 1, "InDelivers": 1, "icmp.InMsgs": 1,
                     "icmp.InEchos": 1, "icmp.OutMsgs": 1,
                     "icmp.OutEchoReps": 1, "FragOKs": 1,
                     "FragCreates": len(outs)})
    return b


case("icmp_echo_reassembled_reply_fragmented", "icmp",
     _reasm_ping(1700, 512, 779))
case("icmp_echo_3072_reassembled_reply_fragmented", "icmp",
     _reasm_ping(3072, 1480, 780))
case("udp_reassembled_then_echoed", "udp", _reasm_echo())
case("udp_reassembled_out_of_order", "udp", _reasm_echo([2, 0, 1], 1100))
case("udp_reassembled_8_fragments", "udp", _reasm_echo(None, 1300, 168))
case("udp_reassembled_noport_icmp", "udp", _reasm_noport)
case("udp_reassembly_incomplete_held", "udp", _reasm_incomplete)

# Jumbo fragments on a 9000-byte port (net_pcap hands listack frames over
# 2 KB as multi-segment mbufs): the largest datagram is reassembled and
# delivered; one whose fragments would reassemble past 65535 bytes is
# dropped whole, ip.ReasmFails, as Linux's ip_frag_reasm drops it
# ("Oversized IP packet"). These crashed or delivered it cut (issue 10,
# finding 1).
JUMBO_CONF = lsk.fixture_conf(extra="udp listen 10.0.0.254:9 discard\n") \
    .replace("port 0 mtu 1500", "port 0 mtu 9000")
group("jumbo", JUMBO_CONF)
DISCARD9 = "10.0.0.254:9"


def _jumbo_frags(ident, data, piece=8192):
    """The IP payload `data` to 10.0.0.254 from A in fragments of `piece`
    bytes but the last, which takes the rest (at most 8980: MTU 9000);
    the offset of the last may not pass 65528."""
    out, off = [], 0
    while off < len(data):
        n = len(data) - off if len(data) - off <= 8980 else piece
        ip = IP(src="10.0.0.1", dst="10.0.0.254", id=ident, proto=17,
                flags="MF" if off + n < len(data) else 0, frag=off // 8)
        out.append(bytes(Ether(dst=P0_MAC, src=A_MAC) / ip /
                         Raw(data[off:off + n])))
        off += n
    return out


def _jumbo_65535(n):
    whole = frame(dst="10.0.0.254", dport=9, sport=1015, df=False,
                  ident=7001, tag=n, plen=65535 - 28)
    frs = _jumbo_frags(7001, lsk.l3_of(whole)[20:])
    p = Part([(0, f) for f in frs], [],
             {"InReceives": len(frs), "ReasmReqds": len(frs), "ReasmOKs": 1,
              "InDelivers": 1, "udp.InDatagrams": 1})
    p.svc_counts[DISCARD9] += 1
    return p


def _jumbo_oversized(total, ulen, ident):
    """Fragments of `total` bytes of IP payload: a UDP header of length
    ulen (no checksum) to the discard service, then the payload."""
    def b(n):
        data = struct.pack("!HHHH", 1016, 9, ulen, 0) + \
            lsk.tag_payload("|%s|" % n, total - 8)
        frs = _jumbo_frags(ident, data)
        return Part([(0, f) for f in frs], [],
                    {"InReceives": len(frs), "ReasmReqds": len(frs),
                     "ReasmFails": 1})
    return b


case("udp_jumbo_reassembled_65535", "jumbo", _jumbo_65535)
# the total length DPDK writes would be 0..19: under the header
case("udp_jumbo_past_65535_dropped_wraps_under_header", "jumbo",
     _jumbo_oversized(57344 + 8176, 0xFFFF, 7002))
case("udp_jumbo_past_65535_dropped_one_byte_over", "jumbo",
     _jumbo_oversized(65535 - 20 + 1, 0xFFFF, 7003))
# ... or a short datagram, delivered cut to its UDP length
case("udp_jumbo_past_65535_dropped_would_be_cut", "jumbo",
     _jumbo_oversized(65536 + 100, 80, 7004))
case("udp_jumbo_past_65535_dropped_longest", "jumbo",
     _jumbo_oversized(57344 + 8980, 1000, 7005))

case("icmp_err_port_unreach_quote_cut_to_udp_length", "udp",
     lambda n: local(_udp_raw("10.0.0.254", 3992, b"|%s|" % n.encode(),
                              extra=b"BEYOND-THE-UDP-LENGTH")))


if __name__ == "__main__":
    sys.exit(rt.main())
