#!/usr/bin/python3
"""pcap integration tests of listack-fwd: IPv6 frames made with scapy in,
frames out checked field by field (as bytes built here by the rules, never
copied from listack's output): forwarding (hop limit decreased, MACs
rewritten, nothing else touched; extension headers, fragments, a
link-local gateway), neighbour solicitations answered, echo (to a global
and a link-local address, and a fragmented one answered in fragments),
the ICMPv6 errors (time exceeded, no route, packet too big, port
unreachable, parameter problem) and the drops of malformed headers, each
with its counters.

    /usr/bin/python3 tests/integration/test_pcap_ip6.py build/listack-fwd [-k SUBSTR] [--keep] [-v]

Every group of cases is one listack-fwd run in --mode list and one in
--mode single: both must give the expected frames (forwarded frames in
input order, those listack originates in their own order), the same
frames as each other, and the same counters; each run ends with
mbufs_in_use == 0.

Our addresses pass duplicate address detection before they are used
(RFC 4862): port 0's input is a FIFO that listack-fwd reads as a pcap
file, and this script holds the cases back behind a few bursts of filler
frames (an unknown ethertype, counted eth.UnknownType) with pauses
between them, so that the worker's timer has run the detection to its end
before the first case arrives (--idle-exit is longer than the pauses; the
pipe holds less than a burst of fillers, so a pause begins only once
listack-fwd reads).
What listack sends for the detection (neighbour solicitations from ::,
multicast listener reports) is checked for its form and kept apart from
the cases' frames.

Output: `PASS name` / `FAIL name: reason` per case, `N passed, N failed`;
exit status 1 if any failed. A group that fails is rerun case by case to
pin the failures.
"""

import argparse
import collections
import fcntl
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lsk  # noqa: E402
from lsk import A_MAC, B_MAC, P0_MAC, P1_MAC  # noqa: E402
from scapy.layers.inet import UDP  # noqa: E402
from scapy.layers.inet6 import (ICMPv6DestUnreach, ICMPv6EchoReply,  # noqa: E402
                                ICMPv6EchoRequest, ICMPv6ND_NA, ICMPv6ND_NS,
                                ICMPv6NDOptDstLLAddr, ICMPv6NDOptSrcLLAddr,
                                ICMPv6PacketTooBig, ICMPv6ParamProblem,
                                ICMPv6TimeExceeded, IPv6, IPv6ExtHdrDestOpt,
                                IPv6ExtHdrFragment, PadN)
from scapy.layers.l2 import Ether  # noqa: E402
from scapy.packet import Raw  # noqa: E402
from scapy.utils import RawPcapWriter  # noqa: E402

C_MAC = "02:00:00:00:01:02"     # the link-local gateway fe80::b1 on port 1
D_MAC = "02:00:00:00:00:07"     # a host on port 0 listack learns by its NS
E_MAC = "02:00:00:00:00:a7"     # another, by its link-local address

P0_G = "2001:db8:a::fe"         # our addresses
P1_G = "2001:db8:b::fe"
A_G = "2001:db8:a::1"           # the peers (static neighbours)
B_G = "2001:db8:b::1"
D_G = "2001:db8:a::7"           # not static: learnt from its NS
A_LL = "fe80::1"                # static too (port 0)
E_LL = "fe80::a7"
GW_LL = "fe80::b1"
FAR = "2001:db8:9::5"           # via B_G
FAR_LL = "2001:db8:8::5"        # via fe80::b1 port 1
NOROUTE = "2001:db8:77::1"
ECHO_PORT = 7
HLIM = 64                       # what listack's own packets carry (Linux's)
MIN_MTU = 1280                  # an ICMPv6 error fits in it (RFC 4443 2.4)


def ll_of(mac):
    """A MAC's link-local address (modified EUI-64)."""
    b = lsk.mac_bytes(mac)
    iid = bytes([b[0] ^ 2]) + b[1:3] + b"\xff\xfe" + b[3:6]
    import ipaddress
    return str(ipaddress.IPv6Address(b"\xfe\x80" + b"\0" * 6 + iid))


P0_LL = ll_of(P0_MAC)
P1_LL = ll_of(P1_MAC)
OURS = {P0_G, P1_G, P0_LL, P1_LL}


def conf(p1_mtu=1500):
    return lsk.fixture_conf(p1_mtu=p1_mtu, extra=(
        "address add %s/64 port 0\n"
        "address add %s/64 port 1\n"
        "neigh add %s lladdr %s\n"
        "neigh add %s lladdr %s\n"
        "neigh add %s lladdr %s port 1\n"
        "neigh add %s lladdr %s port 0\n"
        "route add 2001:db8:9::/48 via %s\n"
        "route add 2001:db8:8::/48 via %s port 1\n"
        "route add 2001:db8:dead::/48 blackhole\n"
        "udp listen [%s]:%d echo\n"
        % (P0_G, P1_G, A_G, A_MAC, B_G, B_MAC, GW_LL, C_MAC, A_LL, A_MAC,
           B_G, GW_LL, P0_G, ECHO_PORT)))


GROUPS = {"main": conf(), "mtu": conf(p1_mtu=MIN_MTU),
          # fraglist GRO on (udp/udp6_gro.c): in list mode trains form
          # (their counters, gro and gso, are not among flat()'s)
          "gro": conf() + "gro fraglist flows 64 segs 64\n"}

# ======================================================================
# Frames


def eth(port, src_mac=None, dst_mac=None):
    return Ether(dst=dst_mac or lsk.PORT_MAC[port],
                 src=src_mac or lsk.PEER_MAC[port])


def tagged(tag, n=32):
    """A payload naming its case, n bytes."""
    return lsk.tag_payload(tag, n)


def udp6(tag, dst=FAR, src=A_G, hlim=64, size=32, sport=1000, dport=2000,
         port=0, ext=None):
    ip = IPv6(src=src, dst=dst, hlim=hlim)
    if ext is not None:
        ip = ip / ext
    return bytes(eth(port) / ip / UDP(sport=sport, dport=dport) /
                 Raw(tagged(tag, size)))


def echo6(tag, dst, src=A_G, hlim=64, size=32, ident=0x1234, seq=1,
          port=0, src_mac=None):
    return bytes(eth(port, src_mac) / IPv6(src=src, dst=dst, hlim=hlim) /
                 ICMPv6EchoRequest(id=ident, seq=seq, data=tagged(tag, size)))


def l3(fr):
    return fr[14:]


def forwarded(fr, egress, nh_mac):
    """fr as it leaves egress: new MACs, hop limit - 1."""
    ip = bytearray(l3(fr))
    plen = struct.unpack("!H", ip[4:6])[0]
    ip = ip[:40 + plen]             # padding trimmed
    ip[7] -= 1
    return lsk.mac_bytes(nh_mac) + lsk.mac_bytes(lsk.PORT_MAC[egress]) + \
        b"\x86\xdd" + bytes(ip)


def icmp6_error(fr, msg, src=P0_G, in_port=0):
    """The ICMPv6 error msg (a scapy ICMPv6 header) about fr, sent back
    out in_port to its sender: quoting as much as fits in 1280 bytes."""
    ip = l3(fr)
    orig_src = str(IPv6(ip[:40]).src)
    quote = ip[:MIN_MTU - 48]
    return bytes(Ether(dst=lsk.PEER_MAC[in_port],
                       src=lsk.PORT_MAC[in_port]) /
                 IPv6(src=src, dst=orig_src, hlim=HLIM) / msg / Raw(quote))


def echo_reply(fr, port=0, dst_mac=None):
    ip = IPv6(l3(fr))
    req = ip[ICMPv6EchoRequest]
    return bytes(Ether(dst=dst_mac or lsk.PEER_MAC[port],
                       src=lsk.PORT_MAC[port]) /
                 IPv6(src=ip.dst, dst=ip.src, hlim=HLIM) /
                 ICMPv6EchoReply(id=req.id, seq=req.seq, data=req.data))


def ns(target, src, src_mac, port=0, hlim=255, slla=True, dst=None):
    """A neighbour solicitation for target from src (multicast to the
    target's solicited-node group)."""
    tb = IPv6(dst=target).dst
    import ipaddress
    t = ipaddress.IPv6Address(tb).packed
    sn = dst or str(ipaddress.IPv6Address(
        bytes.fromhex("ff0200000000000000000001ff") + t[13:]))
    mac = "33:33:%02x:%02x:%02x:%02x" % tuple(
        ipaddress.IPv6Address(sn).packed[12:])
    p = Ether(dst=mac, src=src_mac) / IPv6(src=src, dst=sn, hlim=hlim) / \
        ICMPv6ND_NS(tgt=target)
    if slla:
        p = p / ICMPv6NDOptSrcLLAddr(lladdr=src_mac)
    return bytes(p)


def na(target, dst, dst_mac, port=0):
    """Our answer to a solicitation: solicited, router, override, with
    our MAC."""
    return bytes(Ether(dst=dst_mac, src=lsk.PORT_MAC[port]) /
                 IPv6(src=target, dst=dst, hlim=255) /
                 ICMPv6ND_NA(R=1, S=1, O=1, tgt=target) /
                 ICMPv6NDOptDstLLAddr(lladdr=lsk.PORT_MAC[port]))


def frag6(fr, mtu, ident):
    """fr's IPv6 datagram cut into fragments of at most mtu bytes."""
    ip = IPv6(l3(fr))
    body = bytes(ip.payload)
    nh = ip.nh
    step = (mtu - 48) // 8 * 8
    out = []
    for off in range(0, len(body), step):
        piece = body[off:off + step]
        more = off + step < len(body)
        f = IPv6(src=ip.src, dst=ip.dst, hlim=ip.hlim, nh=44) / \
            IPv6ExtHdrFragment(nh=nh, offset=off // 8, m=int(more),
                               id=ident) / Raw(piece)
        out.append(fr[:14] + bytes(f))
    return out


def reassemble(frames):
    """IPv6 datagrams (L3 bytes, no fragment header) out of fragment
    frames; what is not a fragment passes as it is."""
    whole, parts = [], collections.OrderedDict()
    for fr in frames:
        ip = l3(fr)
        if len(ip) < 48 or ip[6] != 44:
            whole.append(ip)
            continue
        nh, off_m, ident = ip[40], struct.unpack("!H", ip[42:44])[0], \
            struct.unpack("!I", ip[44:48])[0]
        key = (ip[8:40], ident)
        parts.setdefault(key, [ip[:40], nh, {}, None])
        parts[key][2][off_m & ~7] = ip[48:]
        if not off_m & 1:
            parts[key][3] = (off_m & ~7) + len(ip) - 48
    for (_k, (hdr, nh, pieces, total)) in parts.items():
        body = b"".join(pieces[o] for o in sorted(pieces))
        if total is None or len(body) != total:
            whole.append(b"incomplete")
            continue
        h = bytearray(hdr)
        h[4:6] = struct.pack("!H", len(body))
        h[6] = nh
        whole.append(bytes(h) + body)
    return whole


# ======================================================================
# Cases: a Part is input frames and what they must cause


class Part:
    def __init__(self, inputs, outputs=(), counters=None, reasm=()):
        self.inputs = list(inputs)          # [(port, bytes)]
        self.outputs = list(outputs)        # [(port, bytes)] in order
        # [(port, L3 bytes)]: datagrams listack sends in fragments (their
        # identification is its own): compared once reassembled
        self.reasm = list(reasm)
        self.counters = collections.Counter(counters or {})


CASES = []      # (name, group, build)


def case(name, group="main"):
    def deco(fn):
        CASES.append((name, group, fn))
        return fn
    return deco


def fwd(fr, egress=1, nh=B_MAC, **extra):
    c = {"ip6.InReceives": 1, "ip6.OutForwDatagrams": 1}
    c.update(extra)
    return Part([(0, fr)], [(egress, forwarded(fr, egress, nh))], c)


def error(fr, msg, counters, src=P0_G):
    c = {"ip6.InReceives": 1, "icmp6.OutMsgs": 1}
    c.update(counters)
    return Part([(0, fr)], [(0, icmp6_error(fr, msg, src))], c)


def drop(fr, counters):
    c = {"ip6.InReceives": 1}
    c.update(counters)
    return Part([(0, fr)], [], c)


@case("fwd-udp")
def _(n):
    return fwd(udp6(n))


def _gro_train(n):
    """Two flows of UDP/IPv6 datagrams interleaved, one shorter last,
    and a datagram with a destination options header between: each
    forwarded as it came, per flow in order (flows may pass each other,
    so one flow's datagrams go first in a block of their own)."""
    a = [udp6("%s-a%d" % (n, i), size=200) for i in range(12)]
    a.append(udp6("%s-a-last" % n, size=80))
    b = [udp6("%s-b%d" % (n, i), size=120, sport=1001) for i in range(6)]
    opt = udp6("%s-opt" % n, ext=IPv6ExtHdrDestOpt(
        options=[PadN(optdata=b"\0" * 4)]))
    return [fwd(fr) for fr in a] + [fwd(fr) for fr in b] + [fwd(opt)]


@case("fwd-udp-train")
def _(n):
    return _gro_train(n)


@case("gro-udp-train", group="gro")
def _(n):
    return _gro_train(n)


@case("fwd-echo-through")
def _(n):
    return fwd(echo6(n, FAR))


@case("fwd-connected")
def _(n):
    return fwd(udp6(n, dst=B_G))


@case("fwd-link-local-gateway")
def _(n):
    return fwd(udp6(n, dst=FAR_LL), nh=C_MAC)


@case("fwd-dest-options")
def _(n):
    return fwd(udp6(n, ext=IPv6ExtHdrDestOpt(options=[PadN(optdata=b"\0"
                                                             * 4)])))


@case("fwd-fragment")
def _(n):
    # a fragment of someone else's datagram passes as it is
    fr = bytes(eth(0) / IPv6(src=A_G, dst=FAR) /
               IPv6ExtHdrFragment(nh=17, offset=100, m=1, id=0xabcd) /
               Raw(tagged(n, 64)))
    return fwd(fr)


@case("fwd-hop-limit-2")
def _(n):
    return fwd(udp6(n, hlim=2))


@case("fwd-padding-trimmed")
def _(n):
    # a small frame padded to 60 bytes and more behind the payload
    return fwd(udp6(n, size=0) + b"\0" * 20)


@case("time-exceeded-hop-limit-1")
def _(n):
    fr = udp6(n, hlim=1)
    return error(fr, ICMPv6TimeExceeded(code=0),
                 {"ip6.InHdrErrors": 1, "icmp6.OutTimeExcds": 1})


@case("time-exceeded-hop-limit-0")
def _(n):
    fr = udp6(n, hlim=0)
    return error(fr, ICMPv6TimeExceeded(code=0),
                 {"ip6.InHdrErrors": 1, "icmp6.OutTimeExcds": 1})


@case("no-route")
def _(n):
    fr = udp6(n, dst=NOROUTE)
    return error(fr, ICMPv6DestUnreach(code=0),
                 {"ip6.InNoRoutes": 1, "icmp6.OutDestUnreachs": 1})


@case("echo-global")
def _(n):
    fr = echo6(n, P0_G)
    return Part([(0, fr)], [(0, echo_reply(fr))], {
        "ip6.InReceives": 1, "ip6.InDelivers": 1, "icmp6.InMsgs": 1,
        "icmp6.InEchos": 1, "icmp6.OutMsgs": 1, "icmp6.OutEchoReplies": 1})


@case("echo-far-address")
def _(n):
    # port 1's address, asked on port 0: answered out port 0
    fr = echo6(n, P1_G)
    return Part([(0, fr)], [(0, echo_reply(fr))], {
        "ip6.InReceives": 1, "ip6.InDelivers": 1, "icmp6.InMsgs": 1,
        "icmp6.InEchos": 1, "icmp6.OutMsgs": 1, "icmp6.OutEchoReplies": 1})


@case("ns-then-echo-link-local")
def _(n):
    # a host asks for our link-local address (we learn it), then pings it
    s = ns(P0_LL, E_LL, E_MAC)
    e = echo6(n, P0_LL, src=E_LL, src_mac=E_MAC)
    return Part([(0, s), (0, e)], [(0, na(P0_LL, E_LL, E_MAC)),
                                   (0, echo_reply(e, dst_mac=E_MAC))], {
        "ip6.InReceives": 2, "ip6.InDelivers": 2, "icmp6.InMsgs": 2,
        "icmp6.InNeighborSolicits": 1, "icmp6.InEchos": 1,
        "icmp6.OutMsgs": 2, "icmp6.OutNeighborAdvertisements": 1,
        "icmp6.OutEchoReplies": 1, "nd.Updates": 1})


@case("ns-global-learnt")
def _(n):
    s = ns(P0_G, D_G, D_MAC)
    e = echo6(n, P0_G, src=D_G, src_mac=D_MAC)
    return Part([(0, s), (0, e)], [(0, na(P0_G, D_G, D_MAC)),
                                   (0, echo_reply(e, dst_mac=D_MAC))], {
        "ip6.InReceives": 2, "ip6.InDelivers": 2, "icmp6.InMsgs": 2,
        "icmp6.InNeighborSolicits": 1, "icmp6.InEchos": 1,
        "icmp6.OutMsgs": 2, "icmp6.OutNeighborAdvertisements": 1,
        "icmp6.OutEchoReplies": 1, "nd.Updates": 1})


@case("ns-not-ours")
def _(n):
    # to a solicited-node group we did not join: dropped before ICMPv6
    return Part([(0, ns("2001:db8:a::99", A_G, A_MAC))], [], {
        "ip6.InReceives": 1, "ip6.InDiscards": 1})


@case("ns-hop-limit-not-255")
def _(n):
    # RFC 4861 7.1.1: discarded, no answer; listack counts it an input
    # error (Linux: only InMsgs and InNeighborSolicits)
    return Part([(0, ns(P0_G, A_G, A_MAC, hlim=64))], [], {
        "ip6.InReceives": 1, "ip6.InDelivers": 1, "icmp6.InMsgs": 1,
        "icmp6.InNeighborSolicits": 1, "icmp6.InErrors": 1})


@case("link-local-source-beyond-scope")
def _(n):
    # a link-local source may not leave its link (RFC 4291 2.5.6)
    fr = udp6(n, src=A_LL)
    return error(fr, ICMPv6DestUnreach(code=2),
                 {"ip6.InAddrErrors": 1, "icmp6.OutDestUnreachs": 1},
                 src=P0_LL)


@case("blackhole")
def _(n):
    return drop(udp6(n, dst="2001:db8:dead::1"), {"ip6.InDiscards": 1})


@case("udp-port-unreachable")
def _(n):
    fr = udp6(n, dst=P0_G, dport=9999)
    p = error(fr, ICMPv6DestUnreach(code=4),
              {"ip6.InDelivers": 1, "udp6.NoPorts": 1,
               "icmp6.OutDestUnreachs": 1})
    return p


@case("udp-echo-endpoint")
def _(n):
    fr = udp6(n, dst=P0_G, dport=ECHO_PORT, sport=4000)
    ip = IPv6(l3(fr))
    rep = bytes(Ether(dst=A_MAC, src=P0_MAC) /
                IPv6(src=P0_G, dst=A_G, hlim=HLIM) /
                UDP(sport=ECHO_PORT, dport=4000) / Raw(bytes(ip[UDP].payload)))
    return Part([(0, fr)], [(0, rep)], {
        "ip6.InReceives": 1, "ip6.InDelivers": 1, "udp6.InDatagrams": 1,
        "udp6.OutDatagrams": 1})


@case("unknown-next-header")
def _(n):
    fr = bytes(eth(0) / IPv6(src=A_G, dst=P0_G, nh=253) / Raw(tagged(n)))
    return error(fr, ICMPv6ParamProblem(code=1, ptr=6),
                 {"ip6.InUnknownProtos": 1, "icmp6.OutParmProblems": 1})


@case("echo-fragmented-3000")
def _(n):
    # three fragments of a 3000-byte echo request: reassembled, answered
    # in fragments of the port's 1500 (the large ping of issue 24)
    fr = echo6(n, P0_G, size=3000)
    frags = frag6(fr, 1500, 0x5151)
    rep = echo_reply(fr)
    return Part([(0, f) for f in frags], [], {
        "ip6.InReceives": 3, "ip6.ReasmReqds": 3, "ip6.ReasmOKs": 1,
        "ip6.InDelivers": 1, "icmp6.InMsgs": 1, "icmp6.InEchos": 1,
        "icmp6.OutMsgs": 1, "icmp6.OutEchoReplies": 1, "ip6.FragOKs": 1,
        "ip6.FragCreates": 3}, reasm=[(0, l3(rep))])


@case("udp-echo-fragmented-3000")
def _(n):
    fr = udp6(n, dst=P0_G, dport=ECHO_PORT, sport=4001, size=3000)
    frags = frag6(fr, 1280, 0x5252)
    ip = IPv6(l3(fr))
    rep = bytes(Ether(dst=A_MAC, src=P0_MAC) /
                IPv6(src=P0_G, dst=A_G, hlim=HLIM) /
                UDP(sport=ECHO_PORT, dport=4001) / Raw(bytes(ip[UDP].payload)))
    return Part([(0, f) for f in frags], [], {
        "ip6.InReceives": len(frags), "ip6.ReasmReqds": len(frags),
        "ip6.ReasmOKs": 1, "ip6.InDelivers": 1, "udp6.InDatagrams": 1,
        "udp6.OutDatagrams": 1, "ip6.FragOKs": 1, "ip6.FragCreates": 3},
        reasm=[(0, l3(rep))])


# the header checks, Linux's counters (ipv6_rcv)
def _patched(fr, off, data):
    b = bytearray(fr)
    b[14 + off:14 + off + len(data)] = data
    return bytes(b)


@case("bad-version")
def _(n):
    return drop(_patched(udp6(n), 0, b"\x40"), {"ip6.InHdrErrors": 1})


@case("payload-length-lies")
def _(n):
    fr = udp6(n)
    plen = len(fr) - 54 + 100
    return drop(_patched(fr, 4, struct.pack("!H", plen)),
                {"ip6.InTruncatedPkts": 1})


@case("source-multicast")
def _(n):
    return drop(udp6(n, src="ff02::1"), {"ip6.InHdrErrors": 1})


@case("destination-loopback")
def _(n):
    return drop(udp6(n, dst="::1"), {"ip6.InHdrErrors": 1})


@case("too-big", group="mtu")
def _(n):
    fr = udp6(n, size=1400)
    return error(fr, ICMPv6PacketTooBig(mtu=MIN_MTU),
                 {"ip6.InTooBigErrors": 1, "ip6.FragFails": 1,
                  "icmp6.OutPktTooBigs": 1})


@case("fits-1280", group="mtu")
def _(n):
    return fwd(udp6(n, size=MIN_MTU - 48))


# ======================================================================
# Running: port 0's input through a FIFO, after the filler bursts

FILLER = bytes(Ether(dst=P0_MAC, src=A_MAC, type=0x88b5) / Raw(b"\0" * 46))
PREROLL = (256, 1.2, 256, 1.2, 256)     # fillers, pause, fillers, ...
N_FILL = sum(x for x in PREROLL if isinstance(x, int))


def feed_fifo(path, frames, errors):
    try:
        w = RawPcapWriter(path, linktype=1, sync=True)
        # the pipe holds 4 KiB, less than a burst of fillers: each pause
        # starts once listack-fwd reads (however long it takes to start)
        fcntl.fcntl(w.f.fileno(), fcntl.F_SETPIPE_SZ, 4096)
        w._write_header(None)
        for step in PREROLL:
            if isinstance(step, float):
                time.sleep(step)
                continue
            for _i in range(step):
                w.write(FILLER)
            w.f.flush()
        for f in frames:
            w.write(f)
        w.close()
    except Exception as e:  # broken pipe: listack-fwd died
        errors.append("feeding port 0: %s" % e)


def run(binary, workdir, conf_text, inputs, mode):
    os.makedirs(workdir)
    lsk.write_config(os.path.join(workdir, "test.conf"), conf_text)
    fifo = os.path.join(workdir, "in0.pcap")
    os.mkfifo(fifo)
    lsk.write_pcap(os.path.join(workdir, "in1.pcap"), inputs.get(1, []))
    cmd = lsk.fwd_cmd(binary, nports=2, mode=mode, idle_exit=3000)
    errors = []
    feeder = threading.Thread(target=feed_fifo, daemon=True,
                              args=(fifo, inputs.get(0, []), errors))
    res = lsk.RunResult()
    res.workdir, res.cmd = workdir, cmd
    with lsk.RUN_SLOTS:
        feeder.start()
        proc = subprocess.Popen(cmd, cwd=workdir, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            out, err = proc.communicate(timeout=90)
        except subprocess.TimeoutExpired:
            res.timed_out = True
            os.killpg(proc.pid, 9)
            out, err = proc.communicate()
        if feeder.is_alive():
            # listack never opened its end: open it to let the thread go
            try:
                os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
            except OSError:
                pass
            feeder.join(5)
    res.rc = proc.returncode
    res.stdout = out.decode(errors="replace")
    res.stderr = err.decode(errors="replace") + "".join(errors)
    for p in range(2):
        res.outputs[p] = lsk.read_pcap(os.path.join(workdir,
                                                    "out%d.pcap" % p)) or []
    res.stats = lsk.read_stats(os.path.join(workdir, "stats.json"))
    return res


# ======================================================================
# Checking


def is_ip6(fr):
    return len(fr) >= 54 and fr[12:14] == b"\x86\xdd"


def src6(fr):
    return str(IPv6(l3(fr)[:40]).src)


def nd_startup(fr):
    """A frame of our own neighbour discovery upkeep, not of a case: DAD's
    solicitations (from ::), multicast listener reports, router
    solicitations; what it is wrong with (None: well-formed)."""
    if not is_ip6(fr) or fr[0] & 1 == 0:
        return False
    ip = l3(fr)
    nh = ip[6]
    if nh == 0 and len(ip) > 48:        # hop-by-hop (router alert): MLD
        nh = ip[40]
        t = ip[40 + (ip[41] + 1) * 8] if len(ip) > 48 + ip[41] * 8 else None
    else:
        t = ip[40] if len(ip) > 40 else None
    return nh == 58 and t in (133, 135, 143, 131)


def dad_problem(fr):
    """A DAD solicitation as RFC 4862 5.4.2 makes it, or what is wrong."""
    p = IPv6(l3(fr))
    if ICMPv6ND_NS not in p:
        return None
    if p.src != "::":
        return "an NS to a multicast group from %s, not :: (DAD)" % p.src
    if p.hlim != 255:
        return "DAD NS with hop limit %d" % p.hlim
    if p[ICMPv6ND_NS].tgt not in OURS:
        return "DAD NS for %s, not one of ours" % p[ICMPv6ND_NS].tgt
    if ICMPv6NDOptSrcLLAddr in p:
        return "DAD NS with a source link-layer option"
    return None


def split_output(frames):
    """(forwarded, originated, nd upkeep) frames of one port."""
    fw, orig, upkeep = [], [], []
    for fr in frames:
        if nd_startup(fr):
            upkeep.append(fr)
        elif is_ip6(fr) and src6(fr) in OURS:
            orig.append(fr)
        else:
            fw.append(fr)
    return fw, orig, upkeep


def describe(fr):
    try:
        return Ether(fr).summary()
    except Exception:
        return fr[:64].hex()


ZERO_UNLESS = ["ip6.InHdrErrors", "ip6.InTooBigErrors", "ip6.InNoRoutes",
               "ip6.InAddrErrors", "ip6.InUnknownProtos",
               "ip6.InTruncatedPkts", "ip6.InDiscards", "ip6.OutDiscards",
               "ip6.ReasmFails", "icmp6.InErrors", "icmp6.OutErrors",
               "icmp6.InCsumErrors", "icmp6.OutRateLimited", "udp6.InErrors",
               "udp6.InCsumErrors", "nd.ResFailed", "nd.UnresolvedDiscards"]


def flat(st):
    out = {}
    for sec in ("ip6", "icmp6", "udp6", "nd", "eth", "ip"):
        for k, v in (st.get(sec) or {}).items():
            out["%s.%s" % (sec, k)] = v
    return out


def check_run(res, parts):
    """What one run did against what parts expect: reasons."""
    if res.timed_out:
        return ["timed out: %s" % res.stderr[-300:]]
    bad = []
    if res.rc != 0:
        bad.append("exit %s: %s" % (res.rc, res.stderr.strip()[-300:]))
    st = res.stats
    if st is None:
        return bad + ["no stats.json"]
    if st.get("mbufs_in_use") != 0:
        bad.append("mbufs_in_use %r" % st.get("mbufs_in_use"))
    n_upkeep = {"icmp6.OutMsgs": 0, "icmp6.OutNeighborSolicits": 0}
    for p in range(2):
        fw, orig, upkeep = split_output(res.outputs[p])
        for fr in upkeep:
            why = dad_problem(fr)
            if why:
                bad.append("port %d: %s" % (p, why))
            ip = IPv6(l3(fr))
            if ICMPv6ND_NS in ip:
                n_upkeep["icmp6.OutNeighborSolicits"] += 1
            n_upkeep["icmp6.OutMsgs"] += 1
        want = [b for pt in parts for q, b in pt.outputs if q == p]
        want_fw = [b for b in want if not (is_ip6(b) and src6(b) in OURS)]
        want_or = [b for b in want if is_ip6(b) and src6(b) in OURS]
        bad += compare("port %d forwarded" % p, want_fw, fw)
        want_re = [b for pt in parts for q, b in pt.reasm if q == p]
        singles = [b for b in orig if l3(b)[6] != 44]
        frags = [b for b in orig if l3(b)[6] == 44]
        # what we originate comes in its own order (errors after each
        # burst in list mode): compared as a set of frames
        bad += compare("port %d originated" % p, sorted(want_or),
                       sorted(singles))
        for fr in frags:
            mtu = 1500 if p == 0 else 1500
            if len(fr) - 14 > mtu:
                bad.append("port %d: a fragment of %d bytes" % (p, len(fr)))
        got_re = reassemble(frags)
        if sorted(got_re) != sorted(want_re):
            bad.append("port %d: sent in fragments %s, expected %s" % (
                p, [len(x) for x in got_re], [len(x) for x in want_re]))
    got = flat(st)
    exp = collections.Counter()
    for pt in parts:
        exp.update(pt.counters)
    exp["eth.UnknownType"] += N_FILL
    for k, v in n_upkeep.items():
        exp[k] += v
    keys = set(exp) | set(ZERO_UNLESS)
    d = ["%s %s (expected %d)" % (k, got.get(k), exp[k]) for k in sorted(keys)
         if got.get(k) != exp[k]]
    if d:
        bad.append("counters: " + ", ".join(d))
    return bad


def compare(what, want, got):
    if want == got:
        return []
    missing = [b for b in want if b not in got]
    extra = [b for b in got if b not in want]
    msg = "%s: %d frames, expected %d" % (what, len(got), len(want))
    if missing:
        msg += "; missing e.g. %s" % describe(missing[0])
    if extra:
        msg += "; unexpected e.g. %s" % describe(extra[0])
        if missing:
            d = lsk.first_diff(missing[0], extra[0])
            msg += " (first difference at byte %s: expected %s got %s)" % (
                d, missing[0][d:d + 4].hex() if d is not None else "",
                extra[0][d:d + 4].hex() if d is not None else "")
    if not missing and not extra:
        msg += "; same frames in another order"
    return [msg]


def compare_modes(rl, rs):
    bad = []
    for p in range(2):
        a, b = split_output(rl.outputs[p]), split_output(rs.outputs[p])
        if a[0] != b[0]:
            bad.append("list and single: port %d forwarded different frames"
                       % p)
        # fragments of our own datagrams carry an identification of
        # the worker's (random): compared once reassembled
        for what, part in (("frames", lambda o: sorted(
                x for x in o if l3(x)[6] != 44)),
                           ("datagrams in fragments", lambda o: sorted(
                               reassemble([x for x in o
                                           if l3(x)[6] == 44])))):
            if part(a[1]) != part(b[1]):
                bad.append("list and single: port %d originated different "
                           "%s" % (p, what))
    if rl.stats and rs.stats:
        fl, fs = flat(rl.stats), flat(rs.stats)
        d = [k for k in fl if fl[k] != fs.get(k)]
        if d:
            bad.append("list and single counters differ: %s" % ", ".join(
                "%s %s/%s" % (k, fl[k], fs.get(k)) for k in d))
    return bad


class Ctx:
    def __init__(self, binary, root, verbose):
        self.binary, self.root, self.verbose = binary, root, verbose
        self.n = 0
        self.deadline = time.monotonic() + 150
        self.lock = threading.Lock()

    def workdir(self, label):
        with self.lock:
            self.n += 1
            return os.path.join(self.root, "%03d-%s" % (self.n, label[:40]))


def run_cases(ctx, group, cases):
    """Run cases [(name, parts)] together in both modes; reasons."""
    inputs = collections.defaultdict(list)
    parts = [pt for _n, ps in cases for pt in ps]
    for pt in parts:
        for q, b in pt.inputs:
            inputs[q].append(b)
    label = group if len(cases) > 1 else cases[0][0]
    results = {}

    def one(mode):
        try:
            results[mode] = run(ctx.binary, ctx.workdir(label + "-" + mode),
                                GROUPS[group], inputs, mode)
        except Exception:
            results[mode] = traceback.format_exc()
    ts = [threading.Thread(target=one, args=(m,)) for m in ("list",
                                                             "single")]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    bad = []
    for mode in ("list", "single"):
        r = results[mode]
        if isinstance(r, str):
            bad.append("%s: harness error %s" % (mode, r))
            continue
        bad += ["%s: %s" % (mode, x) for x in check_run(r, parts)]
    if not any(isinstance(r, str) for r in results.values()):
        bad += compare_modes(results["list"], results["single"])
        if group == "gro" and results["list"].stats and \
                not (results["list"].stats.get("gro") or {}).get("Trains"):
            bad.append("list: no train formed (gro.Trains 0)")
    if ctx.verbose:
        sys.stderr.write("%s (%d cases): %s\n" % (label, len(cases),
                                                  bad or "ok"))
    fatal = any(not isinstance(r, str) and r.rc == 2
                for r in results.values())
    return bad, fatal


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("-k", dest="filter", default=None)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    root = tempfile.mkdtemp(prefix="lsk-pcap6-")
    ctx = Ctx(binary, root, args.v)
    results = {}
    by_group = collections.OrderedDict()
    for name, group, build in CASES:
        if args.filter and args.filter not in name:
            continue
        try:
            p = build(name)
            by_group.setdefault(group, []).append(
                (name, p if isinstance(p, list) else [p]))
        except Exception:
            results[name] = "test build error: " + \
                traceback.format_exc().strip().splitlines()[-1]

    def do_group(group, cases):
        bad, fatal = run_cases(ctx, group, cases)
        if not bad:
            for n, _p in cases:
                results[n] = None
            return
        if len(cases) == 1 or fatal or time.monotonic() > ctx.deadline:
            for n, _p in cases:
                results[n] = "; ".join(bad)
            return
        # pin the failures: each case alone (within the time budget)
        for c in cases:
            if time.monotonic() > ctx.deadline:
                results[c[0]] = "failed in group %s (not rerun alone: time "\
                    "budget spent): %s" % (group, "; ".join(bad))
                continue
            b, _f = run_cases(ctx, group, [c])
            results[c[0]] = "; ".join(b) if b else None
        if all(results[n] is None for n, _p in cases):
            for n, _p in cases:
                results[n] = "fails only with the rest of group %s: %s" % (
                    group, "; ".join(bad))
    threads = [threading.Thread(target=do_group, args=g)
               for g in by_group.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    npass = nfail = 0
    for name, _g, _b in CASES:
        if name not in results:
            continue
        r = results[name]
        if r is None:
            npass += 1
            print("PASS %s" % name)
        else:
            nfail += 1
            print("FAIL %s: %s" % (name, " ".join(str(r).split())))
    if args.keep:
        sys.stderr.write("work directories kept in %s\n" % root)
    else:
        shutil.rmtree(root, ignore_errors=True)
    print("%d passed, %d failed" % (npass, nfail))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
