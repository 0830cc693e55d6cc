#!/usr/bin/python3
"""Write the seed corpus of fuzz_packet (tests/fuzz/corpus/packet): one
small file per kind of traffic the fuzzer should start from, in the input
format described at the top of fuzz_packet.c. Frames are built by hand
(no scapy) so the seeds are the same on every machine.
    tests/fuzz/make_packet_seeds.py [OUT_DIR]"""
import os
import struct
import sys

P0_MAC = bytes.fromhex("0200000000fe")
P1_MAC = bytes.fromhex("0200000001fe")
P2_MAC = bytes.fromhex("0200000002fe")
A_MAC = bytes.fromhex("020000000001")
B_MAC = bytes.fromhex("020000000101")
C_MAC = bytes.fromhex("020000000201")
BCAST = b"\xff" * 6


def ip(s):
    return bytes(int(x) for x in s.split("."))


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def eth(dst, src, etype, payload, vlan=None):
    if vlan is not None:
        return dst + src + struct.pack("!HHH", 0x8100, vlan, etype) + payload
    return dst + src + struct.pack("!H", etype) + payload


def ipv4(src, dst, proto, payload, ttl=64, ident=1, df=True, mf=False,
         off=0, tot=None, opts=b""):
    ihl = 5 + len(opts) // 4
    flags = (0x4000 if df else 0) | (0x2000 if mf else 0) | (off // 8)
    tot = 4 * ihl + len(payload) if tot is None else tot
    h = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, 0, tot, ident, flags, ttl,
                    proto, 0, ip(src), ip(dst)) + opts
    h = h[:10] + struct.pack("!H", csum(h)) + h[12:]
    return h + payload


def udp(src, dst, sport, dport, data):
    ulen = 8 + len(data)
    ph = ip(src) + ip(dst) + struct.pack("!BBH", 0, 17, ulen)
    u = struct.pack("!HHHH", sport, dport, ulen, 0) + data
    c = csum(ph + u) or 0xffff
    return u[:6] + struct.pack("!H", c) + u[8:]


def udp_frame(src, dst, sport, dport, n, dmac=P0_MAC, smac=A_MAC, vlan=None,
              **kw):
    data = bytes((i * 7 + 3) & 0xff for i in range(n))
    return eth(dmac, smac, 0x0800,
               ipv4(src, dst, 17, udp(src, dst, sport, dport, data), **kw),
               vlan)


def icmp_echo(src, dst, ident=1, seq=1, n=56, dmac=P0_MAC, smac=A_MAC):
    data = bytes(i & 0xff for i in range(n))
    m = struct.pack("!BBHHH", 8, 0, 0, ident, seq) + data
    m = m[:2] + struct.pack("!H", csum(m)) + m[4:]
    return eth(dmac, smac, 0x0800, ipv4(src, dst, 1, m))


def arp(op, sha, spa, tha, tpa, dmac):
    a = struct.pack("!HHBBH6s4s6s4s", 1, 0x0800, 6, 4, op, sha, ip(spa),
                    tha, ip(tpa))
    return eth(dmac, sha, 0x0806, a)


def fragments(src, dst, sport, dport, n, size, dmac=P0_MAC, smac=A_MAC,
              ident=77):
    """A UDP datagram cut into IPv4 fragments of `size` payload bytes."""
    data = bytes((i * 7 + 3) & 0xff for i in range(n))
    payload = udp(src, dst, sport, dport, data)
    out = []
    for off in range(0, len(payload), size):
        part = payload[off:off + size]
        mf = off + size < len(payload)
        out.append(eth(dmac, smac, 0x0800,
                       ipv4(src, dst, 17, part, df=False, mf=mf, off=off,
                            ident=ident)))
    return out


# ---------------------------------------------------------------- IPv6
# fuzz_packet's IPv6 fixture: 2001:db8:a::/64 on port 0, 2001:db8:b::/64
# on port 1, 2001:db8:c::/64 on its VLAN 100; routes via b::1, via the
# link-local fe80::b1 on port 1, via the silent b::7; a blackhole.

def ip6(s):
    import ipaddress
    return ipaddress.IPv6Address(s).packed


def ipv6(src, dst, nh, payload, hlim=64, plen=None, tc=0, flow=0):
    plen = len(payload) if plen is None else plen
    return struct.pack("!IHBB16s16s", 6 << 28 | tc << 20 | flow, plen, nh,
                       hlim, ip6(src), ip6(dst)) + payload


def l4sum6(src, dst, nh, data):
    ph = ip6(src) + ip6(dst) + struct.pack("!IxxxB", len(data), nh)
    return csum(ph + data)


def udp6(src, dst, sport, dport, data, zero_csum=False):
    ulen = 8 + len(data)
    u = struct.pack("!HHHH", sport, dport, ulen, 0) + data
    c = 0 if zero_csum else (l4sum6(src, dst, 17, u) or 0xffff)
    return u[:6] + struct.pack("!H", c) + u[8:]


def icmp6(src, dst, type_, code, body):
    m = struct.pack("!BBH", type_, code, 0) + body
    return m[:2] + struct.pack("!H", l4sum6(src, dst, 58, m)) + m[4:]


def mcast_mac(dst):
    return b"\x33\x33" + ip6(dst)[12:]


def solicited(addr):
    return "ff02::1:ff%02x:%02x%02x" % tuple(ip6(addr)[13:])


def eth6(dst, payload, dmac=P0_MAC, smac=A_MAC, vlan=None):
    if dmac is None:
        dmac = mcast_mac(dst)
    return eth(dmac, smac, 0x86dd, payload, vlan)


def udp6_frame(src, dst, sport, dport, n, hlim=64, dmac=P0_MAC, smac=A_MAC,
               vlan=None, ext=b"", ext_nh=None, plen=None, zero_csum=False):
    """A UDP datagram over IPv6; ext: extension headers before it (their
    chain ends in 17; ext_nh: the first one's type)."""
    data = bytes((i * 7 + 3) & 0xff for i in range(n))
    u = udp6(src, dst, sport, dport, data, zero_csum)
    body = ext + u
    return eth6(dst, ipv6(src, dst, ext_nh if ext else 17, body, hlim,
                          plen), dmac, smac, vlan)


def echo6_frame(src, dst, n=56, hlim=64, dmac=P0_MAC, smac=A_MAC, seq=1):
    data = bytes(i & 0xff for i in range(n))
    return eth6(dst, ipv6(src, dst, 58, icmp6(
        src, dst, 128, 0, struct.pack("!HH", 0x77, seq) + data), hlim),
        dmac, smac)


def nd_opt(type_, data):
    """An ND option: type, length in 8 bytes, data padded."""
    raw = bytes([type_, 0]) + data
    raw += b"\0" * (-len(raw) % 8)
    return raw[:1] + bytes([len(raw) // 8]) + raw[2:]


def ns_frame(target, src, smac=A_MAC, opts=None, hlim=255, dst=None,
             port_mac=P0_MAC):
    dst = dst or solicited(target)
    opts = nd_opt(1, smac) if opts is None else opts
    return eth6(dst, ipv6(src, dst, 58, icmp6(
        src, dst, 135, 0, b"\0" * 4 + ip6(target) + opts), hlim), None,
        smac)


def na_frame(target, src, dst, smac, flags=0x20, opts=None, dmac=P0_MAC):
    opts = nd_opt(2, smac) if opts is None else opts
    return eth6(dst, ipv6(src, dst, 58, icmp6(
        src, dst, 136, 0, bytes([flags, 0, 0, 0]) + ip6(target) + opts),
        255), dmac, smac)


def rs_frame(src, smac=A_MAC, opts=None):
    opts = nd_opt(1, smac) if opts is None else opts
    return eth6("ff02::2", ipv6(src, "ff02::2", 58, icmp6(
        src, "ff02::2", 133, 0, b"\0" * 4 + opts), 255), None, smac)


def ra_frame(src, smac=A_MAC, opts=b""):
    body = struct.pack("!BBHII", 64, 0, 1800, 0, 0) + opts
    return eth6("ff02::1", ipv6(src, "ff02::1", 58, icmp6(
        src, "ff02::1", 134, 0, body), 255), None, smac)


def ext_hdr(nh, body):
    """A hop-by-hop, destination or routing header (length in 8 bytes)."""
    raw = bytes([nh, 0]) + body
    raw += b"\0" * (-len(raw) % 8)
    return raw[:1] + bytes([len(raw) // 8 - 1]) + raw[2:]


def frag_hdr(nh, off, more, ident):
    return struct.pack("!BBHI", nh, 0, off | int(more), ident)


def fragments6(src, dst, sport, dport, n, size, ident=0x4242, dmac=P0_MAC,
               smac=A_MAC):
    """A UDP datagram over IPv6 cut into fragments of size bytes."""
    data = bytes((i * 7 + 3) & 0xff for i in range(n))
    u = udp6(src, dst, sport, dport, data)
    out = []
    for off in range(0, len(u), size):
        part = u[off:off + size]
        more = off + size < len(u)
        out.append(eth6(dst, ipv6(src, dst, 44, frag_hdr(17, off, more,
                                                          ident) + part),
                        dmac, smac))
    return out


def seeds6():
    A, B, P0, P1 = "2001:db8:a::1", "2001:db8:b::1", "2001:db8:a::fe", \
        "2001:db8:b::fe"
    FAR, VIA_LL, SILENT = "2001:db8:9::5", "2001:db8:8::5", "2001:db8:7::5"
    P0_LL = "fe80::ff:fe00:fe"
    yield "ip6-udp-forward", seed(CS_FRAME, [frame(udp6_frame(
        A, FAR, 1000, 2000, 200))])
    yield "ip6-forward-mixed", seed(RCACHE | CS_FRAME | RSS, [
        frame(udp6_frame(A, d, 1000, 2000, 80)) for d in
        (FAR, VIA_LL, SILENT, B, "2001:db8:6::5", "2001:db8:dead::1",
         "2001:db8:77::1")] + [frame(udp_frame("10.0.0.1", "10.9.0.5",
                                               1000, 2000, 80))], burst=4)
    yield "ip6-udp-train", seed(FRAGLIST | CS_GOOD | PTYPE, [frame(
        udp6_frame(A, FAR, 1000, 2000, 500)) for _i in range(10)])
    yield "ip6-udp-to-us-echo", seed(CS_FRAME, [frame(udp6_frame(
        A, P0, 1000, 7, 64)), frame(udp6_frame(A, P0, 1000, 9999, 16)),
        frame(udp6_frame(A, P0, 1000, 7, 16, zero_csum=True))])
    yield "ip6-echo", seed(CS_FRAME, [frame(echo6_frame(A, P0)),
                                      frame(echo6_frame(A, P0_LL)),
                                      frame(echo6_frame(A, P1))])
    yield "ip6-errors", seed(CS_FRAME, [
        frame(udp6_frame(A, FAR, 1000, 2000, 50, hlim=1)),
        frame(udp6_frame(A, FAR, 1000, 2000, 50, hlim=0)),
        frame(udp6_frame(A, "2001:db8:77::1", 1000, 2000, 50)),
        frame(udp6_frame(A, FAR, 1000, 2000, 8000)),
        frame(eth6(P0, ipv6(A, P0, 253, b"\0" * 20)))])
    yield "ip6-lying-lengths", seed(CS_NONE, [
        frame(udp6_frame(A, FAR, 1000, 2000, 40, plen=1000)),
        frame(udp6_frame(A, FAR, 1000, 2000, 40, plen=10)),
        frame(udp6_frame(A, FAR, 1000, 2000, 40, plen=0)),
        frame(udp6_frame(A, P0, 1000, 7, 40, plen=30)),
        frame(udp6_frame(A, P0, 1000, 7, 40) + b"\xee" * 30)])
    chain = ext_hdr(60, b"\x01\x04\0\0\0\0") + \
        ext_hdr(43, b"\x01\x04\0\0\0\0") + \
        ext_hdr(17, bytes([0, 0]) + b"\0" * 4)
    yield "ip6-extension-chain", seed(CS_FRAME, [
        frame(udp6_frame(A, FAR, 1000, 2000, 40, ext=chain, ext_nh=60)),
        frame(udp6_frame(A, P0, 1000, 7, 40, ext=chain, ext_nh=60)),
        frame(udp6_frame(A, P0, 1000, 7, 40, ext=ext_hdr(
            17, b"\x05\x02\0\0\x01\0"), ext_nh=0)),
        frame(udp6_frame(A, FAR, 1000, 2000, 40, ext=ext_hdr(
            17, b"\x05\x02\0\0\x01\0"), ext_nh=0))])
    long_chain = b"".join(ext_hdr(60, b"\x01\x04\0\0\0\0")
                          for _i in range(30)) + ext_hdr(17, b"\0" * 6)
    yield "ip6-extension-chain-long", seed(CS_FRAME, [
        frame(udp6_frame(A, P0, 1000, 7, 8, ext=long_chain, ext_nh=60)),
        frame(udp6_frame(A, P0, 1000, 7, 8, ext=ext_hdr(60, b"\x01\xff"),
                         ext_nh=60))])
    yield "ip6-fragments-to-us", seed(CS_FRAME, [
        frame(f) for f in fragments6(A, P0, 1000, 7, 3000, 1448)])
    yield "ip6-fragments-reversed-single", seed(SINGLE | CS_FRAME, [
        frame(f) for f in reversed(fragments6(A, P0, 1000, 7, 2000, 1000))])
    yield "ip6-fragments-overlap", seed(CS_FRAME, [
        frame(f) for f in fragments6(A, P0, 1000, 7, 600, 256)[:2] +
        fragments6(A, P0, 1000, 7, 600, 128, ident=0x4242)])
    yield "ip6-fragments-forwarded", seed(CS_FRAME, [
        frame(f) for f in fragments6(A, FAR, 1000, 2000, 3000, 1448)])
    yield "ip6-fragment-atomic-and-tiny", seed(CS_FRAME, [
        frame(eth6(P0, ipv6(A, P0, 44, frag_hdr(17, 0, False, 9) +
                                 udp6(A, P0, 1000, 7, b"x" * 20)))),
        frame(eth6(P0, ipv6(A, P0, 44, frag_hdr(17, 0, True, 10) +
                                 b"\0" * 8))),
        frame(eth6(P0, ipv6(A, P0, 44, frag_hdr(17, 0, True, 11) +
                                 b"\0" * 3)))])
    big = [eth6(P0, ipv6(A, P0, 44, frag_hdr(17, off, off < 7 * 8192,
                                                  0x99) + bytes(8192)))
           for off in range(0, 8 * 8192, 8192)]
    yield "ip6-fragments-past-64k", seed(CS_FRAME, [frame(f) for f in big])
    yield "ip6-nd-solicit", seed(CS_FRAME, [
        frame(ns_frame(P0, A)),
        frame(ns_frame(P0_LL, "fe80::1")),
        frame(ns_frame(P0, "::", opts=b"")),
        frame(ns_frame("2001:db8:a::99", A)),
        frame(ns_frame(P0, "2001:db8:a::7", smac=bytes.fromhex(
            "020000000007")))])
    yield "ip6-nd-bad-options", seed(CS_FRAME, [
        frame(ns_frame(P0, A, opts=b"\x01\x00" + b"\0" * 6)),
        frame(ns_frame(P0, A, opts=b"\x01\x01\x02")),
        frame(ns_frame(P0, A, opts=b"\x01\x02" + b"\0" * 6)),
        frame(ns_frame(P0, A, hlim=64)),
        frame(ns_frame("ff02::1", A)),
        frame(ns_frame(P0, "::", opts=nd_opt(1, A_MAC)))])
    yield "ip6-nd-advert-and-resolve", seed(CS_FRAME, [
        frame(udp6_frame(B, SILENT, 1000, 2000, 100, dmac=P1_MAC,
                         smac=B_MAC), port=1),
        frame(na_frame("2001:db8:b::7", "2001:db8:b::7", "2001:db8:b::fe",
                       bytes.fromhex("020000000107"), flags=0x60,
                       dmac=P1_MAC), port=1),
        frame(na_frame(P0, A, "ff02::1", A_MAC, flags=0x20,
                       dmac=mcast_mac("ff02::1")))], burst=1)
    yield "ip6-router-solicit-advert", seed(CS_FRAME, [
        frame(rs_frame("fe80::1")), frame(rs_frame("::", opts=b"")),
        frame(ra_frame("fe80::1", opts=nd_opt(3, bytes(30)) +
                       nd_opt(5, bytes(6))))])


# the variant byte
SINGLE, FRAGLIST, MERGE, GRO_SMALL, RCACHE = 1, 1 << 1, 2 << 1, 3 << 1, 8
CS_NONE, CS_GOOD, CS_BAD, CS_FRAME = 0, 1 << 4, 2 << 4, 3 << 4
PTYPE, RSS = 0x40, 0x80


def frame(b, port=0, ipf=3, l4f=3, splits=()):
    ctl = port | (len(splits) << 2) | (ipf << 4) | (l4f << 6)
    hdr = struct.pack("!HB", len(b), ctl)
    for s in splits:
        hdr += struct.pack("!H", s - 1)	# fuzz_packet: 1 + value % (len-1)
    return hdr + b


def seed(variant, frames, burst=256):
    return bytes([variant, burst - 1]) + b"".join(frames)


def oversized_fragments(dst, dport):
    """8 fragments of about 8 KB (jumbo frames): 65540 bytes reassembled,
    more than an IPv4 datagram can hold (4 in a 16-bit total length)."""
    data = struct.pack("!HHHH", 1000, dport, 0xffff, 0) + bytes(
        (i * 7 + 3) & 0xff for i in range(7 * 8192 + 8176 - 8))
    return [eth(P0_MAC, A_MAC, 0x0800,
                ipv4("10.0.0.1", dst, 17, data[off:off + 8192], df=False,
                     mf=off < 7 * 8192, off=off, ident=99))
            for off in range(0, len(data), 8192)]


def death_row_fragments(n):
    """Of n datagrams, the first fragment and 6 more (all an entry of
    the reassembly table holds), then in a later burst one more fragment
    of each: every one spoils its entry, 8 mbufs each to free."""
    held, spoil = [], []
    for d in range(n):
        for k in range(8):
            f = eth(P0_MAC, A_MAC, 0x0800,
                    ipv4("10.0.0.1", "10.0.0.254", 17, bytes(8), df=False,
                         mf=True, off=8 * k, ident=1000 + d))
            (held if k < 7 else spoil).append(frame(f))
    return held, spoil


def seeds():
    held, spoil = death_row_fragments(37)
    yield "fragments-spoiling-full-entries", (
        seed(CS_FRAME, held, burst=256)[:2] + b"".join(held[:256]) +
        b"".join(held[256:]) + b"".join(spoil))
    yield "fragments-past-64k", seed(CS_FRAME, [
        frame(f) for f in oversized_fragments("10.0.0.254", 5000)])
    fwd = udp_frame("10.0.0.1", "10.9.0.5", 1000, 2000, 200)
    yield "udp-forward", seed(CS_FRAME, [frame(fwd)])
    yield "udp-forward-single-rcache", seed(SINGLE | RCACHE | CS_FRAME,
                                            [frame(fwd)] * 4)
    yield "udp-to-us-echo", seed(CS_FRAME, [frame(udp_frame(
        "10.0.0.1", "10.0.0.254", 1000, 7, 64))])
    yield "udp-to-gro-endpoint-train", seed(FRAGLIST | CS_GOOD | PTYPE | RSS, [
        frame(udp_frame("10.0.0.1", "10.0.0.254", 1000, 5000, 300, ident=i))
        for i in range(12)])
    yield "udp-forward-train-fraglist", seed(FRAGLIST | CS_FRAME, [
        frame(udp_frame("10.0.0.1", "10.9.0.5", 1000, 2000, 500, ident=i))
        for i in range(10)])
    yield "udp-forward-train-merge", seed(MERGE | CS_GOOD, [
        frame(udp_frame("10.0.0.1", "10.9.0.5", 1000, 2000, 500, ident=i))
        for i in range(10)])
    yield "udp-train-small-last", seed(GRO_SMALL | CS_GOOD | PTYPE, [
        frame(udp_frame("10.0.0.1", "10.9.0.5", 1000, 2000, 400, ident=i))
        for i in range(6)] + [frame(udp_frame("10.0.0.1", "10.9.0.5", 1000,
                                              2000, 30, ident=9))])
    yield "udp-train-then-runt", seed(FRAGLIST | CS_GOOD, [
        frame(udp_frame("10.0.0.1", "10.9.0.5", 1000, 2000, 100, ident=i))
        for i in range(3)] + [frame(fwd[:14])])
    yield "udp-train-two-flows-merge-fragment", seed(MERGE | CS_FRAME, [
        frame(udp_frame("10.0.0.1", dst, 1000, 2000, 600, ident=i, df=False))
        for i in range(4) for dst in ("10.9.0.5", "10.8.0.5")])
    yield "fragments-to-us", seed(CS_FRAME, [
        frame(f) for f in fragments("10.0.0.1", "10.0.0.254", 1000, 5000,
                                    3000, 1480)])
    yield "fragments-to-us-reversed-single", seed(SINGLE | CS_FRAME, [
        frame(f) for f in reversed(fragments("10.0.0.1", "10.0.0.254", 1000,
                                             7, 2000, 1000))])
    yield "fragments-forwarded", seed(CS_FRAME, [
        frame(f) for f in fragments("10.0.0.1", "10.9.0.5", 1000, 2000,
                                    3000, 1480)])
    yield "fragment-duplicates", seed(CS_FRAME, [
        frame(f) for f in fragments("10.0.0.1", "10.0.0.254", 1000, 5000,
                                    100, 64)[:1] * 3])
    yield "fragment-to-small-mtu", seed(CS_FRAME, [frame(udp_frame(
        "10.0.0.1", "10.8.0.5", 1000, 2000, 1400, df=False))])
    yield "df-too-big", seed(CS_FRAME, [frame(udp_frame(
        "10.0.0.1", "10.8.0.5", 1000, 2000, 1400, df=True))])
    yield "arp-request-for-us", seed(CS_NONE, [frame(arp(
        1, A_MAC, "10.0.0.1", b"\0" * 6, "10.0.0.254", BCAST))])
    yield "arp-unresolved-gateway-then-reply", seed(CS_FRAME, [
        frame(udp_frame("10.0.1.1", "10.7.0.5", 1000, 2000, 100, ident=i,
                        dmac=P1_MAC, smac=B_MAC), port=1) for i in range(5)] +
        [frame(arp(2, bytes.fromhex("020000000107"), "10.0.1.7", P1_MAC,
                   "10.0.1.254", P1_MAC), port=1)], burst=3)
    yield "arp-new-host", seed(CS_FRAME, [
        frame(udp_frame("10.0.0.1", "10.0.1.50", 1000, 2000, 100)),
        frame(arp(1, bytes.fromhex("020000000150"), "10.0.1.50", b"\0" * 6,
                  "10.0.1.254", BCAST), port=1)])
    yield "vlan-to-us", seed(CS_FRAME, [frame(udp_frame(
        "10.0.3.1", "10.0.3.254", 1000, 53, 40, dmac=P1_MAC,
        smac=bytes.fromhex("020000000301"), vlan=100), port=1)])
    yield "vlan-forward-and-back", seed(PTYPE | CS_FRAME, [
        frame(udp_frame("10.0.0.1", "10.6.0.5", 1000, 2000, 100)),
        frame(udp_frame("10.0.3.1", "10.9.0.5", 1000, 2000, 100,
                        dmac=P1_MAC, smac=bytes.fromhex("020000000301"),
                        vlan=100), port=1),
        frame(udp_frame("10.0.3.1", "10.0.3.254", 1000, 53, 10,
                        dmac=P1_MAC, vlan=999), port=1)])
    yield "icmp-echo", seed(CS_FRAME, [frame(icmp_echo("10.0.0.1",
                                                       "10.0.0.254"))])
    yield "icmp-errors", seed(CS_FRAME, [
        frame(udp_frame("10.0.0.1", "10.9.0.5", 1000, 2000, 50, ttl=1)),
        frame(udp_frame("10.0.0.1", "172.16.0.1", 1000, 2000, 50)),
        frame(udp_frame("10.0.0.1", "10.0.0.254", 1000, 4444, 50)),
        frame(eth(P0_MAC, A_MAC, 0x0800, ipv4("10.0.0.1", "10.0.0.254", 6,
                                              b"\0" * 20)))])
    yield "blackhole-filter", seed(CS_FRAME, [
        frame(udp_frame("10.0.0.1", "192.0.2.1", 1000, 2000, 50)),
        frame(udp_frame("10.0.0.1", "10.9.0.5", 1000, 6666, 50)),
        frame(udp_frame("10.0.0.66", "10.9.0.5", 1000, 2000, 50)),
        frame(udp_frame("10.0.0.1", "10.9.0.5", 1500, 6666, 50))])
    yield "broadcast", seed(CS_FRAME, [
        frame(udp_frame("10.0.0.1", "10.0.0.255", 1000, 9, 20, dmac=BCAST)),
        frame(udp_frame("10.0.0.1", "255.255.255.255", 1000, 5000, 20,
                        dmac=BCAST)),
        frame(udp_frame("10.0.0.1", "10.9.0.5", 1000, 2000, 20,
                        dmac=BCAST))])
    yield "runts", seed(CS_GOOD, [frame(fwd[:n]) for n in
                                  (0, 1, 13, 14, 20, 33, 34, 41)])
    yield "bad-checksums", seed(CS_BAD, [frame(fwd), frame(udp_frame(
        "10.0.0.1", "10.0.0.254", 1000, 7, 30))])
    yield "ip-options-truncated", seed(CS_NONE, [
        frame(udp_frame("10.0.0.1", "10.9.0.5", 1000, 2000, 40,
                        opts=b"\x01\x01\x01\x00")),
        frame(udp_frame("10.0.0.1", "10.9.0.5", 1000, 2000, 40,
                        tot=1000))])
    yield "segments-odd-split-no-flags", seed(CS_NONE, [
        frame(udp_frame("10.0.0.1", "10.0.0.254", 1000, 5000, 301),
              splits=(43,)),
        frame(udp_frame("10.0.0.1", "10.0.0.254", 1000, 7, 300),
              splits=(20, 101))])
    yield "segments-odd-split", seed(CS_FRAME, [
        frame(udp_frame("10.0.0.1", "10.0.0.254", 1000, 5000, 301),
              splits=(43,)),
        frame(udp_frame("10.0.0.1", "10.0.0.254", 1000, 7, 300),
              splits=(20, 101)),
        frame(udp_frame("10.0.0.1", "10.9.0.5", 1000, 2000, 300),
              splits=(14, 200))])
    yield "padded-frame", seed(CS_FRAME, [frame(udp_frame(
        "10.0.0.1", "10.0.0.254", 1000, 5000, 4) + b"\xee" * 20)])
    yield "small-bursts-mixed", seed(RCACHE | CS_FRAME | RSS, [
        frame(udp_frame("10.0.0.1", d, 1000, 2000, 80, ident=i))
        for i, d in enumerate(["10.9.0.5", "10.9.1.5", "10.8.0.5",
                               "10.6.0.5", "10.7.0.9", "10.0.1.1"] * 2)],
        burst=4)


# Seeds that crash the stack of issue 10 go to regress/packet under the
# finding's name instead (a crashing corpus stops libFuzzer at start-up);
# once the finding is fixed they may rejoin the corpus.
KNOWN = {
    "udp-forward-train-merge": "finding-04-gro-merge-use-after-free",
    "udp-train-two-flows-merge-fragment": "finding-04-gro-merge-two-flows",
    "udp-train-then-runt": "finding-03-gro-continues-runt",
    "fragments-past-64k": "finding-01-reassembly-past-64k",
    "fragments-spoiling-full-entries": "finding-02-death-row-overflow",
    "segments-odd-split-no-flags": "finding-05-odd-split-csum-error",
}


def all_seeds():
    yield from seeds()
    yield from seeds6()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        here, "corpus", "packet")
    regress = os.path.join(here, "regress", "packet")
    os.makedirs(out, exist_ok=True)
    for name, data in all_seeds():
        path = os.path.join(out, name)
        if name in KNOWN and len(sys.argv) == 1:
            path = os.path.join(regress, KNOWN[name])
        with open(path, "wb") as f:
            f.write(data)


main()
