#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""What the devices under test of bench/compare.sh and bench/cores.sh are
given, for the traffic of bench/traffic.c (which the generator sends):

    traffic.py conf [TABLE] [--gro off|fraglist|merge] [--filter N] [--ip6]
                    [--route-cache N]
    traffic.py l3fwd-rules [TABLE] PREFIX   (PREFIX.v4, PREFIX.v6)
    traffic.py linux-routes [TABLE]         (ip -batch lines)
    traffic.py pcap [TABLE] [--flows F] [--size B] [--count N] [--ip6]
                    [--dist flows|uniform|zipf] [--hot H] [--zipf-s S] FILE

TABLE is [--routes R] [--table plain|bgp] [--seed S]: plain (the default
up to 65,536 routes) is the /24s below; bgp (the default above; up to
2M) is bench/dut/fulltable.py's BGP-like table of R prefixes made from
seed S (default 1), every one via the gateway. IPv6 (--ip6) is plain only.

Addressing (bench/traffic.c): port 0 10.0.0.1/24 mac 02:00:00:00:00:01,
senders 10.0.0.2-254 from 02:00:00:00:00:02; port 1 10.0.1.1/24 mac
02:00:00:00:01:01, gateway 10.0.1.2 mac 02:00:00:00:02:02; route k is
198.18.1.0/24 + k * 256 via the gateway. Flow i goes to route i % R,
host 1 + (i / R) % 254, source port 1024 + i % 64512, source host
2 + (i / 64512) % 253, destination port 9.

Destinations (pcap --dist): flows (the default) as above, --flows in
turn; uniform: every frame to a host of a prefix of the table drawn
uniformly; zipf: a hot set of --hot H (default 100,000) such destinations,
each frame's drawn from it with probability 1 / rank^S (--zipf-s, default
1.0). uniform and zipf write --count frames (default 200,000: net_pcap
keeps the file in mbufs), frame n of flow n's ports and source.

IPv6 (the generator's --ip6, bench/traffic6.c): port 0 2001:db8:a::1/64,
port 1 2001:db8:b::1/64, gateway 2001:db8:b::2; route k is the /56 whose
32 bits after 2001:db8: are route k's IPv4 /24 (2001:db8:c612:100::/56
for k = 0). conf --ip6 adds these to the IPv4 lines; l3fwd-rules writes
them to PREFIX.v6.

conf: a listack-fwd config for that; --filter N adds N accept rules that
match none of the traffic (192.0.2.0/24 and up, dport 53), as the bench's
+acl variants do, so every datagram is classified against all of them.
pcap: frames of --size bytes counting the FCS (64 = 60 bytes on file), as
the generator counts them; --count frames, flows in turn.
"""
import argparse
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fulltable  # noqa: E402

PORT_MAC = ("02:00:00:00:00:01", "02:00:00:00:01:01")
CLIENT_MAC = "02:00:00:00:00:02"
GW_MAC = "02:00:00:00:02:02"
GW = "10.0.1.2"
ROUTE_BASE = (198 << 24) | (18 << 16) | (1 << 8)
MAX_ROUTES = 1 << 16        # 198.18.1.0 .. 199.18.0.0: stays in 198/7
MAX_BGP = fulltable.MAX_ROUTES


def ip(a):
    return "%d.%d.%d.%d" % (a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255)


def route(k):
    return ROUTE_BASE + (k << 8)


def route6(k):
    """Route k's IPv6 /56 (bench/traffic6.c)."""
    r = route(k)
    return "2001:db8:%x:%x::/56" % (r >> 16, r & 0xffff)


def table(a):
    """The routes as (address, length) pairs."""
    if a.table == "bgp":
        return fulltable.generate(a.routes, a.seed)
    return [(route(k), 24) for k in range(a.routes)]


def cmd_conf(a, out):
    out.write("# bench/dut/traffic.py conf --routes %d --table %s --seed %d "
              "--gro %s --filter %d --route-cache %d%s\n"
              % (a.routes, a.table, a.seed, a.gro, a.filter, a.route_cache,
                 " --ip6" if a.ip6 else ""))
    for p in (0, 1):
        out.write("port %d mtu 1500 mac %s\n" % (p, PORT_MAC[p]))
    out.write("address add 10.0.0.1/24 port 0\n"
              "address add 10.0.1.1/24 port 1\n"
              "neigh add %s lladdr %s\n" % (GW, GW_MAC))
    for addr, plen in table(a):
        out.write("route add %s/%d via %s\n" % (ip(addr), plen, GW))
    if a.ip6:
        out.write("address add 2001:db8:a::1/64 port 0\n"
                  "address add 2001:db8:b::1/64 port 1\n"
                  "neigh add 2001:db8:b::2 lladdr %s\n" % GW_MAC)
        for k in range(a.routes):
            out.write("route add %s via 2001:db8:b::2\n" % route6(k))
    for i in range(a.filter):
        out.write("filter add accept proto udp dst %s/32 dport 53\n"
                  % ip((192 << 24 | 2 << 8) + i))
    out.write("gro %s\n" % a.gro)
    if a.route_cache:
        out.write("route-cache on entries %d\n" % a.route_cache)


def cmd_l3fwd_rules(a, out):
    with open(a.prefix + ".v4", "w") as f:
        for addr, plen in table(a):
            f.write("R%s/%d 1\n" % (ip(addr), plen))
    # l3fwd refuses an empty rule file: the bgp table's gets one route
    with open(a.prefix + ".v6", "w") as f:
        for k in range(a.routes if a.table == "plain" else 1):
            f.write("R%s 1\n" % route6(k))


def cmd_linux_routes(a, out):
    for addr, plen in table(a):
        out.write("route replace %s/%d via %s\n" % (ip(addr), plen, GW))


def csum(b):
    if len(b) & 1:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def mac(s):
    return bytes(int(x, 16) for x in s.split(":"))


def flow_dst(a, i):
    r = a.routes
    return route(i % r) | (1 + (i // r) % 254)


def frame(a, i, ident, dst):
    src = (10 << 24) | (2 + (i // 64512) % 253)
    sport = 1024 + i % 64512
    plen = a.size - 4 - 14 - 20 - 8
    payload = bytes(j & 0xff for j in range(plen))
    ulen = 8 + plen
    pseudo = struct.pack("!IIBBH", src, dst, 0, 17, ulen)
    udp = struct.pack("!HHHH", sport, 9, ulen, 0) + payload
    uc = csum(pseudo + udp) or 0xffff
    udp = udp[:6] + struct.pack("!H", uc) + udp[8:]
    iph = struct.pack("!BBHHHBBHII", 0x45, 0, 20 + ulen, ident & 0xffff, 0,
                      64, 17, 0, src, dst)
    iph = iph[:10] + struct.pack("!H", csum(iph)) + iph[12:]
    return mac(PORT_MAC[0]) + mac(CLIENT_MAC) + b"\x08\x00" + iph + udp


def frame6(a, i):
    """frame()'s flow over IPv6 (bench/traffic6.c): the 32-bit fields in
    the addresses, no IP ID."""
    r = a.routes
    dst = route(i % r) | (1 + (i // r) % 254)
    src = (10 << 24) | (2 + (i // 64512) % 253)
    sport = 1024 + i % 64512
    plen = a.size - 4 - 14 - 40 - 8
    payload = bytes(j & 0xff for j in range(plen))
    ulen = 8 + plen
    s6 = bytes.fromhex("20010db8000a0000" "00000000") + struct.pack("!I", src)
    d6 = bytes.fromhex("20010db8") + struct.pack("!I", dst) + \
        bytes.fromhex("0000000000000001")
    pseudo = s6 + d6 + struct.pack("!II", ulen, 17)
    udp = struct.pack("!HHHH", sport, 9, ulen, 0) + payload
    uc = csum(pseudo + udp) or 0xffff
    udp = udp[:6] + struct.pack("!H", uc) + udp[8:]
    iph = struct.pack("!IHBB", 6 << 28, ulen, 17, 64) + s6 + d6
    return mac(PORT_MAC[0]) + mac(CLIENT_MAC) + b"\x86\xdd" + iph + udp


def cmd_pcap(a, out):
    with open(a.file, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
        dsts = None
        if a.dist != "flows":
            dsts = fulltable.destinations(table(a), a.count, a.dist, a.hot,
                                          a.zipf_s, a.seed)
        for n in range(a.count):
            if a.ip6:
                fr = frame6(a, n % a.flows)
            elif dsts:
                fr = frame(a, n, n, dsts[n])
            else:
                fr = frame(a, n % a.flows, n, flow_dst(a, n % a.flows))
            f.write(struct.pack("<IIII", 0, n, len(fr), len(fr)) + fr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("conf")
    c.add_argument("--gro", choices=("off", "fraglist", "merge"),
                   default="off")
    c.add_argument("--filter", type=int, default=0)
    c.add_argument("--ip6", action="store_true")
    c.add_argument("--route-cache", type=int, default=0, metavar="N",
                   help="route-cache on entries N (default 0: off)")
    c.set_defaults(fn=cmd_conf)
    c2 = sub.add_parser("l3fwd-rules")
    c2.add_argument("prefix")
    c2.set_defaults(fn=cmd_l3fwd_rules)
    c3 = sub.add_parser("linux-routes")
    c3.set_defaults(fn=cmd_linux_routes)
    c4 = sub.add_parser("pcap")
    c4.add_argument("--flows", type=int, default=1)
    c4.add_argument("--size", type=int, default=64)
    c4.add_argument("--ip6", action="store_true")
    c4.add_argument("--count", type=int, default=0,
                    help="frames on file (default: flows, at least 1024; "
                    "200000 for uniform and zipf)")
    c4.add_argument("--dist", choices=("flows", "uniform", "zipf"),
                    default="flows")
    c4.add_argument("--hot", type=int, default=100000)
    c4.add_argument("--zipf-s", type=float, default=1.0)
    c4.add_argument("file")
    c4.set_defaults(fn=cmd_pcap)
    for p in (c, c2, c3, c4):
        p.add_argument("--routes", type=int, default=1)
        p.add_argument("--table", choices=("plain", "bgp"))
        p.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.table is None:
        a.table = "plain" if a.routes <= MAX_ROUTES else "bgp"
    top = MAX_ROUTES if a.table == "plain" else MAX_BGP
    if not 1 <= a.routes <= top:
        ap.error("--routes: 1 to %d with --table %s%s" % (
            top, a.table, " (--table bgp: up to %d)" % MAX_BGP
            if a.table == "plain" else ""))
    if a.table == "bgp" and getattr(a, "ip6", False):
        ap.error("--ip6: --table plain only")
    if a.cmd == "conf" and not 0 <= a.route_cache <= 1 << 24:
        ap.error("--route-cache: 0 to %d" % (1 << 24))
    if a.cmd == "conf" and not 0 <= a.filter <= 65536:
        ap.error("--filter: 0 to 65536")
    if a.cmd == "pcap":
        least = 66 if a.ip6 else 64
        if not least <= a.size <= 1518:
            ap.error("--size: %d to 1518 (counting the FCS)" % least)
        if not 1 <= a.flows <= 1 << 20:
            ap.error("--flows: 1 to %d" % (1 << 20))
        if a.dist != "flows" and a.ip6:
            ap.error("--dist %s: IPv4 only" % a.dist)
        if not 1 <= a.hot <= 1 << 20 or not 0 < a.zipf_s <= 10:
            ap.error("--hot: 1 to %d; --zipf-s: above 0, at most 10"
                     % (1 << 20))
        if a.count == 0:
            a.count = max(a.flows, 1024) if a.dist == "flows" else 200000
    a.fn(a, sys.stdout)


if __name__ == "__main__":
    main()
