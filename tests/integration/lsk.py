"""Helpers for listack-fwd pcap integration tests.

Run with Debian's /usr/bin/python3 (scapy comes from python3-scapy).

What is here:
  - the fixture tests/unit/unit_common.h shares (MACs, addresses, config);
  - frame builders (scapy, plus byte-level patches for malformed headers);
  - expected-output builders (forwarded frame = input with TTL-1, full
    header checksum recompute, neighbour/egress MACs, L2 trailer trimmed;
    fragments; ICMP errors, echo replies, UDP echo replies and ARP by
    the rules docs/configuration.md states);
  - canon() / out_key(): how output frames are compared (IP ID and header
    checksum of what listack originates masked) and which order they keep;
  - write_pcap / read_pcap (exact bytes, classic pcap, LINKTYPE_ETHERNET);
  - run_fwd: run listack-fwd in a directory and collect exit status, stderr,
    output frames per port and the stats JSON.

Nothing here looks at listack's output to build an expectation.
"""

import argparse
import ipaddress
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

from scapy.layers.inet import ICMP, IP, TCP, UDP
from scapy.layers.l2 import ARP, Dot1Q, Ether
from scapy.packet import Raw
from scapy.utils import RawPcapReader, RawPcapWriter, checksum

# ---------------------------------------------------------------- fixture

P0_MAC = "02:00:00:00:00:fe"
P1_MAC = "02:00:00:00:01:fe"
A_MAC = "02:00:00:00:00:01"  # peer 10.0.0.1 on P0
B_MAC = "02:00:00:00:01:01"  # peer 10.0.1.1 on P1
BCAST_MAC = "ff:ff:ff:ff:ff:ff"
ALLHOSTS_MAC = "01:00:5e:00:00:01"

PORT_MAC = {0: P0_MAC, 1: P1_MAC}
PEER_MAC = {0: A_MAC, 1: B_MAC}
PEER_IP = {0: "10.0.0.1", 1: "10.0.1.1"}
PORT_IP = {0: "10.0.0.254", 1: "10.0.1.254"}
# second address of port 0 in the `twoaddr` group (used nowhere else)
P0_SECOND_IP = "10.0.2.254"
# every address listack has in some group: a frame from one of them is one
# listack originated (forwarded frames never carry our source: martian)
OUR_IPS = frozenset(list(PORT_IP.values()) + [P0_SECOND_IP])
# our subnets' broadcasts and the limited broadcast
BCAST_IPS = frozenset(["10.0.0.255", "10.0.1.255", "255.255.255.255"])
L2_GROUP_MACS = frozenset([BCAST_MAC, ALLHOSTS_MAC])
# static neighbours of the fixture: address -> (port, MAC)
FIXTURE_NEIGH = {"10.0.0.1": (0, A_MAC), "10.0.1.1": (1, B_MAC)}


def fixture_conf(p1_mtu=1500, extra=""):
    """Config text of the shared fixture (MACs always explicit)."""
    return (
        "# listack pcap test fixture (linux-cases.md section 0)\n"
        "port 0 mtu 1500 mac 02:00:00:00:00:fe\n"
        "port 1 mtu %d mac 02:00:00:00:01:fe\n"
        "address add 10.0.0.254/24 port 0\n"
        "address add 10.0.1.254/24 port 1\n"
        "neigh add 10.0.0.1 lladdr 02:00:00:00:00:01\n"
        "neigh add 10.0.1.1 lladdr 02:00:00:00:01:01\n"
        "route add 10.9.0.0/16 via 10.0.1.1\n" % p1_mtu
    ) + extra


# ---------------------------------------------------------------- counters

IP_FIELDS = [
    "InReceives", "InHdrErrors", "InTruncatedPkts", "InCsumErrors",
    "InAddrErrors", "InNoRoutes", "InDiscards", "InUnknownProtos",
    "ForwDatagrams", "OutDiscards", "InDelivers", "OutNoRoutes", "FragFails",
    "FragOKs", "FragCreates", "ReasmReqds", "ReasmOKs", "ReasmFails",
]
ETH_FIELDS = ["InFrames", "NotForUs", "UnknownType", "UnknownVlan", "Runts"]
ARP_FIELDS = ["InRequests", "InReplies", "InErrors", "OutRequests",
              "OutReplies", "Updates", "ResFailed", "UnresolvedDiscards",
              "TableFulls", "Evictions", "OutDiscards"]
UDP_FIELDS = ["InDatagrams", "NoPorts", "InErrors", "InCsumErrors",
              "RcvbufErrors", "OutDatagrams", "IgnoredMulti"]
ICMP_FIELDS = ["InMsgs", "InErrors", "InCsumErrors", "InEchos", "InEchoReps",
               "InDestUnreachs", "InTimeExcds", "OutMsgs", "OutErrors",
               "OutEchoReps", "OutDestUnreachs", "OutTimeExcds",
               "OutRateLimited"]
FILTER_FIELDS = ["Dropped"]
# Every section whose counters a case's expectation covers (all of them
# are compared, zero unless a case says otherwise). gro, gso and
# route_cache are not: they depend on the variant and the mode.
SECTIONS = {"ip": IP_FIELDS, "eth": ETH_FIELDS, "arp": ARP_FIELDS,
            "udp": UDP_FIELDS, "icmp": ICMP_FIELDS, "filter": FILTER_FIELDS}
# What the ICMP rate limit makes depend on timing (see icmp_error()).
ICMP_OUT_LIMITED = ["icmp.OutMsgs", "icmp.OutDestUnreachs",
                    "icmp.OutTimeExcds", "icmp.OutRateLimited"]
ICMP_BURST = 50     # icmp_msgs_burst: errors a worker sends before limiting
# Every IPv4 packet received lands in exactly one of these.
DISPOSITIONS = [
    "ForwDatagrams", "InDelivers", "InHdrErrors", "InTruncatedPkts",
    "InAddrErrors", "InNoRoutes", "InDiscards", "InUnknownProtos",
    "FragFails",
]
STAGE_NAMES = ["eth_input", "ip4_input", "ip4_route", "ip4_local",
               "ip4_forward", "tx"]
PORT_FIELDS = ["rx", "tx", "rx_dropped", "tx_dropped"]


def zero_counters():
    return {"%s.%s" % (s, f): 0 for s, fs in SECTIONS.items() for f in fs}


def flat_counters(stats):
    """{'ip.InReceives': n, ...} from a stats JSON object (None if absent)."""
    out = {}
    for s, fs in SECTIONS.items():
        sec = stats.get(s) or {}
        for f in fs:
            out["%s.%s" % (s, f)] = sec.get(f)
    return out


# ---------------------------------------------------------------- frames

def mac_bytes(mac):
    return bytes(int(x, 16) for x in mac.split(":"))


def tag_payload(tag, length):
    """Payload of exactly `length` bytes that starts with the tag."""
    t = tag.encode() if isinstance(tag, str) else tag
    if length < len(t):
        return t[:length]
    fill = bytes((i * 7 + 3) & 0xFF for i in range(length - len(t)))
    return t + fill


def frame(dst="10.0.1.1", src=None, port=0, *, ttl=64, ident=1, df=True,
          mf=False, frag=0, tos=0, proto="udp", sport=1000, dport=2000,
          plen=32, tag="", payload=None, dst_mac=None, src_mac=None,
          vlan=None, pcp=0):
    """A valid Ethernet/IPv4 frame as bytes.

    proto: 'udp', 'tcp', 'icmp', or an int (raw payload after IP).
    vlan: None (untagged) or a VID (0 = priority tag) inserted with 0x8100.
    """
    if src is None:
        src = PEER_IP[port]
    if payload is None:
        payload = tag_payload("|%s|" % tag if tag else "", plen)
    flags = (2 if df else 0) | (1 if mf else 0)
    ip = IP(src=src, dst=dst, ttl=ttl, id=ident, flags=flags, frag=frag,
            tos=tos)
    if proto == "udp":
        l3 = ip / UDP(sport=sport, dport=dport) / Raw(payload)
    elif proto == "tcp":
        l3 = ip / TCP(sport=sport, dport=dport, flags="PA", seq=1000,
                      ack=2000) / Raw(payload)
    elif proto == "icmp":
        l3 = ip / ICMP(type=8, code=0, id=sport, seq=dport) / Raw(payload)
    else:
        ip.proto = int(proto)
        l3 = ip / Raw(payload)
    eth = Ether(dst=dst_mac or PORT_MAC[port], src=src_mac or PEER_MAC[port])
    if vlan is not None:
        pkt = eth / Dot1Q(vlan=vlan, prio=pcp) / l3
    else:
        pkt = eth / l3
    return bytes(pkt)


def arp_request(port=0, target=None):
    t = target or PORT_IP[port]
    return bytes(Ether(dst=BCAST_MAC, src=PEER_MAC[port]) /
                 ARP(op=1, hwsrc=PEER_MAC[port], psrc=PEER_IP[port],
                     pdst=t))


def l2_offset(fr):
    """Offset of the L3 header: 14, or 18 behind one 802.1Q tag."""
    et = struct.unpack("!H", fr[12:14])[0]
    return 18 if et == 0x8100 else 14


def ip_csum(hdr):
    """Full IPv4 header checksum of hdr (whose checksum field is ignored)."""
    h = bytearray(hdr)
    h[10:12] = b"\x00\x00"
    return checksum(bytes(h))


def patch_ip(fr, *, ver=None, ihl=None, tot_len=None, ttl=None, proto=None,
             src=None, csum="fix", l3_len=None, trailer=b""):
    """Rewrite IPv4 header fields of a frame at byte level.

    csum: 'fix' recompute over the (new) ihl*4 bytes, 'keep' leave as is,
          'fix20' recompute over the first 20 bytes only, 'bad' correct
          checksum plus one, or an int to store.
    l3_len: cut the L3 part to this many bytes (before adding trailer).
    trailer: bytes appended after the L3 part.
    """
    off = l2_offset(fr)
    b = bytearray(fr)
    if ver is not None or ihl is not None:
        v = b[off] >> 4 if ver is None else ver
        i = b[off] & 15 if ihl is None else ihl
        b[off] = (v << 4) | i
    if tot_len is not None:
        b[off + 2:off + 4] = struct.pack("!H", tot_len)
    if ttl is not None:
        b[off + 8] = ttl
    if proto is not None:
        b[off + 9] = proto
    if src is not None:
        b[off + 12:off + 16] = bytes(int(x) for x in src.split("."))
    hlen = (b[off] & 15) * 4
    if csum == "fix":
        c = ip_csum(b[off:off + hlen])
    elif csum == "fix20":
        c = ip_csum(b[off:off + 20])
    elif csum == "bad":
        c = (ip_csum(b[off:off + hlen]) + 1) & 0xFFFF
    elif csum == "keep":
        c = None
    else:
        c = int(csum)
    if c is not None:
        b[off + 10:off + 12] = struct.pack("!H", c)
    if l3_len is not None:
        b = b[:off + l3_len]
    return bytes(b) + trailer


def with_options(fr, opts, csum="fix"):
    """Insert IP option bytes (padded to 4 with zeros) after the 20-byte
    header; ihl, tot_len and (by default) the checksum are updated."""
    off = l2_offset(fr)
    opts = bytes(opts)
    opts += b"\x00" * (-len(opts) % 4)
    b = bytearray(fr[:off + 20] + opts + fr[off + 20:])
    ihl = 5 + len(opts) // 4
    b[off] = (b[off] & 0xF0) | ihl
    tot = struct.unpack("!H", b[off + 2:off + 4])[0] + len(opts)
    b[off + 2:off + 4] = struct.pack("!H", tot)
    return patch_ip(bytes(b), csum=csum)


def pad_to(fr, size, fill=b"\x00"):
    """Ethernet padding (bytes after the IP datagram) up to `size`."""
    return fr + fill * max(0, size - len(fr))


def ip_field(fr, name):
    off = l2_offset(fr)
    if name == "ttl":
        return fr[off + 8]
    if name == "csum":
        return struct.unpack("!H", fr[off + 10:off + 12])[0]
    if name == "tot_len":
        return struct.unpack("!H", fr[off + 2:off + 4])[0]
    raise KeyError(name)


def forwarded(fr, egress, next_hop_mac):
    """The frame listack must send for input frame `fr` forwarded out
    port `egress` to `next_hop_mac`: an untagged Ethernet II header with
    the neighbour's and the egress port's MACs, then the IP datagram cut to
    tot_len with TTL-1 and its header checksum recomputed in full; every
    other byte unchanged."""
    off = l2_offset(fr)
    l3 = fr[off:]
    ihl = (l3[0] & 15) * 4
    tot = struct.unpack("!H", l3[2:4])[0]
    ip = bytearray(l3[:tot])
    ip[8] -= 1
    ip[10:12] = struct.pack("!H", ip_csum(ip[:ihl]))
    eth = bytes(Ether(dst=next_hop_mac, src=PORT_MAC[egress], type=0x0800))
    return eth + bytes(ip)


# ------------------------------------------------ what listack originates
#
# ICMP errors, echo replies, UDP replies and ARP are built here from the
# input frame with scapy, by the rules docs/configuration.md states, never from
# listack's output. listack numbers the IP IDs of what it originates from
# per-worker (ICMP) or per-endpoint (UDP) counters, so comparisons mask the
# ID and the header checksum (canon()); ip_hdr_ok() checks the checksum of
# every such frame separately.

def ip_str(b4):
    return ".".join(str(x) for x in b4[:4])


def l3_of(fr):
    """The IP datagram of an input frame (behind the Ethernet header and
    a priority tag), cut to its total length (padding removed)."""
    off = l2_offset(fr)
    l3 = fr[off:]
    tot = struct.unpack("!H", l3[2:4])[0]
    return bytes(l3[:tot])


_NET_10_9 = ipaddress.ip_network("10.9.0.0/16")


def fixture_route(dst):
    """(egress port, next-hop MAC) by which the fixture reaches dst with a
    static neighbour, or None (the cases only make listack answer hosts it
    can reach without ARP)."""
    if dst in FIXTURE_NEIGH:
        return FIXTURE_NEIGH[dst]
    if ipaddress.ip_address(dst) in _NET_10_9:
        return FIXTURE_NEIGH["10.0.1.1"]
    return None


def _eth_to(dst_ip, route):
    r = (route or fixture_route)(dst_ip)
    if r is None:
        raise ValueError("no static route back to %s in the test fixture"
                         % dst_ip)
    port, mac = r
    return port, Ether(dst=mac, src=PORT_MAC[port], type=0x0800)


def icmp_error(fr, type_, code, mtu=0, in_port=0, quote=None, route=None):
    """(egress port, frame) of the ICMP error listack owes for input frame
    fr (arrived on in_port): source = the original destination when it was
    ours, else in_port's address; TOS (tos & 0x1e) | 0xc0, TTL 64, DF clear
    (ID 0: masked); the original IP header and data quoted up to 576 bytes
    in all. quote: the datagram as listack held it when it gave up, if not
    the input's (e.g. TTL already decreased, UDP trimmed)."""
    ip = quote if quote is not None else l3_of(fr)
    osrc, odst = ip_str(ip[12:16]), ip_str(ip[16:20])
    src = odst if odst in OUR_IPS else PORT_IP[in_port]
    port, eth = _eth_to(osrc, route)
    icmp = ICMP(type=type_, code=code)
    if type_ == 3 and code == 4:
        icmp.nexthopmtu = mtu
    pkt = eth / IP(src=src, dst=osrc, tos=(ip[1] & 0x1E) | 0xC0, ttl=64,
                   flags=0, id=0) / icmp / Raw(ip[:576 - 28])
    return port, bytes(pkt)


def echo_reply(fr, route=None):
    """(egress port, frame): the echo reply to the echo request in fr:
    addresses swapped, type 0, same TOS, id, sequence and data, TTL 64,
    DF clear, ICMP checksum recomputed (IP ID masked)."""
    ip = l3_of(fr)
    ihl = (ip[0] & 15) * 4
    osrc, odst = ip_str(ip[12:16]), ip_str(ip[16:20])
    icmp = bytearray(ip[ihl:])
    icmp[0] = 0
    icmp[2:4] = b"\x00\x00"
    icmp[2:4] = struct.pack("!H", checksum(bytes(icmp)))
    port, eth = _eth_to(osrc, route)
    pkt = eth / IP(src=odst, dst=osrc, tos=ip[1], ttl=64, flags=0, id=0,
                   proto=1) / Raw(bytes(icmp))
    return port, bytes(pkt)


def udp_fields(ip):
    """(ihl, sport, dport, ulen) of an IPv4/UDP datagram."""
    ihl = (ip[0] & 15) * 4
    sport, dport, ulen = struct.unpack("!HHH", ip[ihl:ihl + 6])
    return ihl, sport, dport, ulen


def udp_echo_reply(fr, src_ip, route=None):
    """(egress port, frame): what the `echo` service sends back for the
    datagram in fr: from src_ip and the port it was sent to, to where it
    came from, the same payload (cut to the UDP length), TOS 0, TTL 64, DF
    set, UDP checksum computed (IP ID masked)."""
    ip = l3_of(fr)
    ihl, sport, dport, ulen = udp_fields(ip)
    osrc = ip_str(ip[12:16])
    port, eth = _eth_to(osrc, route)
    pkt = eth / IP(src=src_ip, dst=osrc, ttl=64, flags="DF", id=0, tos=0) / \
        UDP(sport=dport, dport=sport) / Raw(ip[ihl + 8:ihl + ulen])
    return port, bytes(pkt)


def arp_frame(op, port, psrc, pdst, hwsrc, hwdst, eth_dst, eth_src=None):
    return bytes(Ether(dst=eth_dst, src=eth_src or hwsrc) /
                 ARP(op=op, hwsrc=hwsrc, psrc=psrc, hwdst=hwdst, pdst=pdst))


def arp_request_from_us(port, target, to_mac=None, psrc=None):
    """listack's request for target out of port: broadcast (or unicast
    to_mac), sender our port's MAC and our address on target's subnet
    (psrc, by default the port's fixture address), target MAC zero,
    42 B."""
    return arp_frame(1, port, psrc or PORT_IP[port], target, PORT_MAC[port],
                     "00:00:00:00:00:00", to_mac or BCAST_MAC)


def arp_reply_from_us(port, our_ip, peer_ip, peer_mac):
    """listack's reply (from port) to peer_ip/peer_mac asking for our_ip."""
    return arp_frame(2, port, our_ip, peer_ip, PORT_MAC[port], peer_mac,
                     peer_mac)


def fragments(ip, mtu):
    """An IP datagram cut into fragments for an egress MTU the way Linux's
    ip_fragment cuts it: data in pieces of (mtu - ihl) rounded down to 8,
    the header copied (no options in these cases), MF on all but the last
    (and on the last if the datagram was a non-last fragment itself),
    offsets added to the datagram's own, checksums recomputed."""
    ihl = (ip[0] & 15) * 4
    hdr, data = ip[:ihl], ip[ihl:]
    fo = struct.unpack("!H", ip[6:8])[0]
    size = (mtu - ihl) // 8 * 8
    out = []
    for k in range(0, len(data), size):
        chunk = data[k:k + size]
        last = k + size >= len(data)
        h = bytearray(hdr)
        h[2:4] = struct.pack("!H", ihl + len(chunk))
        mf = (not last) or (fo & 0x2000)
        h[6:8] = struct.pack("!H", (fo & 0x4000) | (0x2000 if mf else 0) |
                             ((fo & 0x1FFF) + k // 8))
        h[10:12] = struct.pack("!H", ip_csum(h))
        out.append(bytes(h) + chunk)
    return out


def forwarded_fragments(fr, egress, next_hop_mac, mtu):
    """The frames listack sends for fr forwarded out egress when it is too
    big for mtu with DF clear: TTL-1, then fragments."""
    ip = forwarded(fr, egress, next_hop_mac)[14:]
    eth = bytes(Ether(dst=next_hop_mac, src=PORT_MAC[egress], type=0x0800))
    return [eth + f for f in fragments(ip, mtu)]


def _is_ip4(b):
    return len(b) >= 34 and b[12:14] == b"\x08\x00"


def is_arp(b):
    return len(b) >= 14 and b[12:14] == b"\x08\x06"


def originated(b):
    """Did listack make this frame itself (ARP, or IPv4 from one of our
    addresses)? Forwarded datagrams never carry our source (martian)."""
    if is_arp(b):
        return True
    return _is_ip4(b) and ip_str(b[26:30]) in OUR_IPS


def canon(b):
    """A frame as compared: IP ID and header checksum of what listack
    originates masked (ip_hdr_ok() checks that checksum)."""
    if _is_ip4(b) and ip_str(b[26:30]) in OUR_IPS:
        x = bytearray(b)
        x[18:20] = b"\x00\x00"
        x[24:26] = b"\x00\x00"
        return bytes(x)
    return bytes(b)


def ip_hdr_ok(b):
    """Is the IPv4 header checksum of frame b right?"""
    if not _is_ip4(b):
        return True
    ihl = (b[14] & 15) * 4
    return checksum(bytes(b[14:14 + ihl])) == 0


def icmp_type_of(b):
    """ICMP type of an untagged IPv4/ICMP frame, else None."""
    if not _is_ip4(b) or b[23] != 1:
        return None
    ihl = (b[14] & 15) * 4
    return b[14 + ihl] if len(b) > 14 + ihl else None


def is_icmp_error(b):
    return originated(b) and icmp_type_of(b) in (3, 11, 12)


def out_key(in_port, b):
    """The 'flow' whose order an output frame must keep: forwarded frames
    by ingress port and 5-tuple; ICMP errors by the flow they quote; echo
    replies by peer and id; ARP by operation and target; UDP we send by
    its 5-tuple."""
    if is_arp(b):
        return ("arp", b[21], b[38:42])
    if originated(b):
        t = icmp_type_of(b)
        if t in (3, 11, 12):
            inner = b[14 + (b[14] & 15) * 4 + 8:]
            return ("icmp-error", in_port, flow_key(b"\x00" * 12 + b"\x08\x00"
                                                    + inner))
        if t is not None:
            return ("icmp", in_port, b[30:34], t)
        return ("sent", flow_key(b))
    return (in_port, flow_key(b))


# ---------------------------------------------------------------- describe

def flow_key(b):
    """(src, dst, proto, sport, dport) of an IPv4 frame, or None."""
    try:
        off = l2_offset(b)
        if struct.unpack("!H", b[off - 2:off])[0] != 0x0800:
            return None
        l3 = b[off:]
        ihl = (l3[0] & 15) * 4
        src, dst, proto = l3[12:16], l3[16:20], l3[9]
        ports = (None, None)
        if proto in (6, 17) and len(l3) >= ihl + 4:
            ports = struct.unpack("!HH", l3[ihl:ihl + 4])
        return (src, dst, proto) + ports
    except Exception:
        return None


def find_tag(b, tags):
    for t in tags:
        if ("|%s|" % t).encode() in b:
            return t
    return None


def describe(b):
    try:
        s = Ether(b).summary()
    except Exception:
        s = "unparsable"
    extra = ""
    try:
        off = l2_offset(b)
        if struct.unpack("!H", b[off - 2:off])[0] == 0x0800:
            extra = " ttl=%d csum=0x%04x tot_len=%d" % (
                ip_field(b, "ttl"), ip_field(b, "csum"),
                ip_field(b, "tot_len"))
    except Exception:
        pass
    return "[%d B %s%s]" % (len(b), s, extra)


def first_diff(a, b):
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n if len(a) != len(b) else None


# ---------------------------------------------------------------- pcap

def write_pcap(path, frames):
    """Classic pcap, LINKTYPE_ETHERNET, each frame written byte for byte
    (an empty list gives a file with just the global header)."""
    w = RawPcapWriter(path, linktype=1, sync=True)
    try:
        if not frames:
            w._write_header(None)
        for f in frames:
            w.write(bytes(f))
    finally:
        w.close()


def read_pcap(path):
    """Frames of a pcap file as a list of bytes; None if the file is
    missing; [] if it is empty or has only a header."""
    if not os.path.exists(path):
        return None
    if os.path.getsize(path) < 24:
        return []
    out = []
    r = RawPcapReader(path)
    try:
        for data, _meta in r:
            out.append(bytes(data))
    finally:
        r.close()
    return out


# ---------------------------------------------------------------- files

def write_config(path, text):
    with open(path, "w") as f:
        f.write(text)


def read_stats(path):
    """The --stats-json object, or None if the file is missing."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def stop_reasons(rc, st):
    """Why a stopped listack-fwd did not stop clean: its exit status rc
    (0), its stats st (read_stats: there, with mbufs_in_use 0)."""
    return ["exit %r" % (rc,) if rc != 0 else "",
            "no stats" if st is None else "",
            "mbufs_in_use %r" % st.get("mbufs_in_use")
            if st is not None and st.get("mbufs_in_use") != 0 else ""]


# ---------------------------------------------------------------- running

# At most two listack-fwd processes at a time (2-core machine).
RUN_SLOTS = threading.Semaphore(2)


class RunResult:
    def __init__(self):
        self.rc = None
        self.stdout = ""
        self.stderr = ""
        self.outputs = {}   # port -> list of bytes (None if no file)
        self.stats = None   # dict or None
        self.stats_error = None
        self.timed_out = False
        self.workdir = None
        self.cmd = None

    def stderr_tail(self, n=400):
        s = self.stderr.strip()
        return s[-n:].replace("\n", " | ")


def fwd_cmd(binary, nports=2, mode="list", lcores="0", conf="test.conf",
            stats="stats.json", idle_exit=300, extra_args=None,
            app_args=None):
    cmd = [binary, "--no-huge", "--no-pci", "-m", "512", "--no-shconf",
           "--log-level=*:warning"]
    for p in range(nports):
        cmd += ["--vdev", "net_pcap%d,rx_pcap=in%d.pcap,tx_pcap=out%d.pcap"
                % (p, p, p)]
    cmd += ["-l", lcores]
    if extra_args:
        cmd += list(extra_args)
    cmd += ["--"]
    if app_args is not None:
        cmd += list(app_args)
    else:
        if conf is not None:
            cmd += ["--config", conf]
        if mode is not None:
            cmd += ["--mode", mode]
        if stats is not None:
            cmd += ["--stats-json", stats]
        if idle_exit is not None:
            cmd += ["--idle-exit", str(idle_exit)]
    return cmd


def run_fwd(binary, workdir, conf_text=None, inputs=None, *, nports=2,
            mode="list", lcores="0", conf_name="test.conf", idle_exit=300,
            app_args=None, timeout=90, sigterm_after=None):
    """Write the config and one input pcap per port into workdir, run
    listack-fwd there, collect the results.

    inputs: {port: [frame bytes]}; ports without inputs get an empty pcap.
    app_args: replaces the arguments after '--' entirely (bad options).
    sigterm_after: send SIGTERM after this many seconds (then wait).
    """
    os.makedirs(workdir, exist_ok=True)
    if conf_text is not None:
        write_config(os.path.join(workdir, conf_name), conf_text)
    inputs = inputs or {}
    for p in range(nports):
        write_pcap(os.path.join(workdir, "in%d.pcap" % p), inputs.get(p, []))
    stats_path = os.path.join(workdir, "stats.json")
    if os.path.exists(stats_path):
        os.unlink(stats_path)
    cmd = fwd_cmd(binary, nports=nports, mode=mode, lcores=lcores,
                  conf=conf_name, idle_exit=idle_exit, app_args=app_args)
    res = RunResult()
    res.workdir = workdir
    res.cmd = cmd
    with RUN_SLOTS:
        for attempt in range(20):
            try:
                proc = subprocess.Popen(cmd, cwd=workdir,
                                        stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE,
                                        start_new_session=True)
                break
            except OSError:
                # the binary may be being rebuilt (ETXTBSY, ENOENT)
                if attempt == 19:
                    raise
                time.sleep(0.5)
        try:
            if sigterm_after is not None:
                try:
                    out, err = proc.communicate(timeout=sigterm_after)
                except subprocess.TimeoutExpired:
                    proc.terminate()
                    out, err = proc.communicate(timeout=timeout)
            else:
                out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            res.timed_out = True
            try:
                os.killpg(proc.pid, 9)
            except OSError:
                proc.kill()
            out, err = proc.communicate()
    res.rc = proc.returncode
    res.stdout = out.decode(errors="replace")
    res.stderr = err.decode(errors="replace")
    for p in range(nports):
        try:
            res.outputs[p] = read_pcap(os.path.join(workdir, "out%d.pcap" % p))
        except Exception as e:  # unreadable pcap
            res.outputs[p] = None
            res.stats_error = "out%d.pcap unreadable: %s" % (p, e)
    try:
        res.stats = read_stats(stats_path)
        if res.stats is None:
            res.stats_error = "no stats.json written"
    except Exception as e:
        res.stats_error = "stats.json unreadable: %s" % e
    return res

# ---------------------------------------------------------------- checks
# of a running listack-fwd (test_ctl.py, test_metrics.py, test_trace.py,
# test_capture.py, test_dumpcap.py)

CTL_WAIT = 20               # bound on a start, a stop, a listack-ctl run
RESULTS = []                # (name, reasons) of every check made
VERBOSE = False             # listack-ctl's runs logged on stderr


def check(name, reasons):
    """Record a check: reasons is a list of what was wrong (empty: pass)."""
    if isinstance(reasons, str):
        reasons = [reasons]
    reasons = [r for r in reasons if r]
    RESULTS.append((name, reasons))
    if reasons:
        print("FAIL %s: %s" % (name, "; ".join(reasons)), flush=True)
    else:
        print("PASS %s" % name, flush=True)


def summary():
    """Print `N passed, N failed` of the checks made; 1 if any failed."""
    failed = sum(1 for _, r in RESULTS if r)
    print("%d passed, %d failed" % (len(RESULTS) - failed, failed))
    return 1 if failed else 0


def ctl_args(doc):
    """The arguments of a test against a running listack-fwd: its binary,
    listack-ctl's, -v (listack-ctl's runs logged, work directory kept)."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("fwd")
    ap.add_argument("ctl")
    ap.add_argument("-v", action="store_true")
    return ap


def check_groups(groups, errors=(OSError, ValueError,
                                 subprocess.TimeoutExpired)):
    """Run each (name, fn) of groups; one that breaks with one of errors
    is a failed check of that name."""
    for name, fn in groups:
        try:
            fn()
        except errors as e:
            check(name, "%s: %s" % (type(e).__name__, e))


def run_in_workdir(args, prefix, runs):
    """Each of runs, fn(fwd binary, ctl binary, work directory), in a
    fresh directory named from prefix; then finish(). args: ctl_args'."""
    fwd_bin, ctl_bin = os.path.abspath(args.fwd), os.path.abspath(args.ctl)
    root = tempfile.mkdtemp(prefix=prefix)
    try:
        for fn in runs:
            fn(fwd_bin, ctl_bin, root)
    finally:
        status = finish(root, keep=args.v)
    return status


def finish(root, keep=False):
    """summary(); the work directory root removed unless keep or a check
    failed (then its path is said). Returns summary()'s status."""
    failed = summary()
    if failed or keep:
        sys.stderr.write("work directory kept: %s\n" % root)
    else:
        shutil.rmtree(root, ignore_errors=True)
    return failed


class Fwd:
    """listack-fwd in workdir, serving sock."""

    def __init__(self, binary, workdir, sock, lcores="0", extra_ctl=None,
                 inputs=None, infinite=False, vdevs=None):
        """vdevs: {port: --vdev} instead of pcap ports (net_memif with no
        peer refuses every frame sent; net_pcap on a veth takes frames
        when the test sends them); EAL then runs with a file prefix of
        its own, as memif needs the multi-process channel that
        --no-shconf turns off. lcores with an '@' is --lcores."""
        self.workdir = workdir
        self.sock = sock
        os.makedirs(workdir, exist_ok=True)
        write_config(os.path.join(workdir, "test.conf"),
                         fixture_conf())
        inputs = inputs or {}
        for p in range(2):
            write_pcap(os.path.join(workdir, "in%d.pcap" % p),
                           inputs.get(p, []))
        vdevs = vdevs or {}
        self.prefix = None if not vdevs else \
            "lsk-fwdtest-%d-%d" % (os.getpid(), id(self))
        shconf = ["--no-shconf"] if not vdevs else \
            ["--file-prefix", self.prefix]
        cmd = [binary, "--no-huge", "--no-pci", "-m", "512"] + shconf + \
            ["--log-level=*:warning",
             "--lcores" if "@" in lcores else "-l", lcores]
        for p in range(2):
            inf = ",infinite_rx=1" if infinite and inputs.get(p) else ""
            if p in vdevs:
                cmd += ["--vdev", vdevs[p]]
                continue
            cmd += ["--vdev", "net_pcap%d,rx_pcap=in%d.pcap,tx_pcap=out%d.pcap%s"
                    % (p, p, p, inf)]
        cmd += ["--", "--config", "test.conf", "--stats-json", "stats.json"]
        cmd += extra_ctl if extra_ctl is not None else ["--ctl-socket", sock]
        self.cmd = cmd
        self.out = open(os.path.join(workdir, "fwd.out"), "w")
        self.err = open(os.path.join(workdir, "fwd.err"), "w")
        # a sanitizer's report stops the run (and fails its checks)
        env = dict(os.environ)
        env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=1")
        self.proc = subprocess.Popen(cmd, cwd=workdir, stdout=self.out,
                                     stderr=self.err, start_new_session=True,
                                     env=env)
        self.rc = None

    def wait_ready(self):
        """True once the startup line is out (the socket is then served)."""
        end = time.monotonic() + CTL_WAIT
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                return False
            with open(os.path.join(self.workdir, "fwd.out")) as f:
                if "listack-fwd: 2 ports" in f.read():
                    return True
            time.sleep(0.1)
        return False

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.rc = self.proc.wait(timeout=CTL_WAIT)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.rc = self.proc.wait()
            self.rc = "killed after SIGTERM timed out"
        self.out.close()
        self.err.close()
        if self.prefix is not None:     # EAL's run-time files
            for d in ("/var/run/dpdk", os.path.join(
                    os.environ.get("XDG_RUNTIME_DIR", "/nonexistent"),
                    "dpdk")):
                shutil.rmtree(os.path.join(d, self.prefix),
                              ignore_errors=True)
        return self.rc

    def kill(self):
        """SIGKILL to its process group if it still runs (a test that
        broke off)."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)

    def stderr(self):
        with open(os.path.join(self.workdir, "fwd.err")) as f:
            return f.read()

    def stats(self):
        return read_stats(os.path.join(self.workdir, "stats.json"))


class Ctl:
    def __init__(self, binary, sock):
        self.binary = binary
        self.sock = sock

    def run(self, *words, json_out=False, batch=None, stdin=None):
        cmd = [self.binary, "-s", self.sock]
        if json_out:
            cmd.append("-j")
        if batch is not None:
            cmd += ["-f", batch]
        cmd += list(words)
        r = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=CTL_WAIT,
                           universal_newlines=True)
        if VERBOSE:
            sys.stderr.write("$ %s -> %d\n%s%s" % (" ".join(cmd), r.returncode,
                                                  r.stdout, r.stderr))
        return r
