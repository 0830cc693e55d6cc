#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""What the devices under test of bench/compare.sh and bench/cores.sh are
given, for the traffic of bench/traffic.c (which the generator sends):

    traffic.py conf [--routes R] [--gro off|fraglist|merge] [--filter N] [--ip6]
    traffic.py l3fwd-rules [--routes R] PREFIX   (PREFIX.v4, PREFIX.v6)
    traffic.py linux-routes [--routes R]         (ip -batch lines)
    traffic.py pcap [--routes R] [--flows F] [--size B] [--count N] [--ip6] FILE

Addressing (bench/traffic.c): port 0 10.0.0.1/24 mac 02:00:00:00:00:01,
senders 10.0.0.2-254 from 02:00:00:00:00:02; port 1 10.0.1.1/24 mac
02:00:00:00:01:01, gateway 10.0.1.2 mac 02:00:00:00:02:02; route k is
198.18.1.0/24 + k * 256 via the gateway. Flow i goes to route i % R,
host 1 + (i / R) % 254, source port 1024 + i % 64512, source host
2 + (i / 64512) % 253, destination port 9.

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
import struct
import sys

PORT_MAC = ("02:00:00:00:00:01", "02:00:00:00:01:01")
CLIENT_MAC = "02:00:00:00:00:02"
GW_MAC = "02:00:00:00:02:02"
GW = "10.0.1.2"
ROUTE_BASE = (198 << 24) | (18 << 16) | (1 << 8)
MAX_ROUTES = 1 << 16        # 198.18.1.0 .. 199.18.0.0: stays in 198/7


def ip(a):
    return "%d.%d.%d.%d" % (a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255)


def route(k):
    return ROUTE_BASE + (k << 8)


def route6(k):
    """Route k's IPv6 /56 (bench/traffic6.c)."""
    r = route(k)
    return "2001:db8:%x:%x::/56" % (r >> 16, r & 0xffff)


def cmd_conf(a, out):
    out.write("# bench/dut/traffic.py conf --routes %d --gro %s --filter %d%s\n"
              % (a.routes, a.gro, a.filter, " --ip6" if a.ip6 else ""))
    for p in (0, 1):
        out.write("port %d mtu 1500 mac %s\n" % (p, PORT_MAC[p]))
    out.write("address add 10.0.0.1/24 port 0\n"
              "address add 10.0.1.1/24 port 1\n"
              "neigh add %s lladdr %s\n" % (GW, GW_MAC))
    for k in range(a.routes):
        out.write("route add %s/24 via %s\n" % (ip(route(k)), GW))
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


def cmd_l3fwd_rules(a, out):
    with open(a.prefix + ".v4", "w") as f:
        for k in range(a.routes):
            f.write("R%s/24 1\n" % ip(route(k)))
    with open(a.prefix + ".v6", "w") as f:
        for k in range(a.routes):
            f.write("R%s 1\n" % route6(k))


def cmd_linux_routes(a, out):
    for k in range(a.routes):
        out.write("route replace %s/24 via %s\n" % (ip(route(k)), GW))


def csum(b):
    if len(b) & 1:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def mac(s):
    return bytes(int(x, 16) for x in s.split(":"))


def frame(a, i, ident):
    r = a.routes
    dst = route(i % r) | (1 + (i // r) % 254)
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
        for n in range(a.count):
            fr = frame6(a, n % a.flows) if a.ip6 else \
                frame(a, n % a.flows, n)
            f.write(struct.pack("<IIII", 0, n, len(fr), len(fr)) + fr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("conf")
    c.add_argument("--gro", choices=("off", "fraglist", "merge"),
                   default="off")
    c.add_argument("--filter", type=int, default=0)
    c.add_argument("--ip6", action="store_true")
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
                    help="frames on file (default: flows, at least 1024)")
    c4.add_argument("file")
    c4.set_defaults(fn=cmd_pcap)
    for p in (c, c2, c3, c4):
        p.add_argument("--routes", type=int, default=1)
    a = ap.parse_args()
    if not 1 <= a.routes <= MAX_ROUTES:
        ap.error("--routes: 1 to %d" % MAX_ROUTES)
    if a.cmd == "conf" and not 0 <= a.filter <= 65536:
        ap.error("--filter: 0 to 65536")
    if a.cmd == "pcap":
        least = 66 if a.ip6 else 64
        if not least <= a.size <= 1518:
            ap.error("--size: %d to 1518 (counting the FCS)" % least)
        if not 1 <= a.flows <= 1 << 20:
            ap.error("--flows: 1 to %d" % (1 << 20))
        if a.count == 0:
            a.count = max(a.flows, 1024)
    a.fn(a, sys.stdout)


if __name__ == "__main__":
    main()
