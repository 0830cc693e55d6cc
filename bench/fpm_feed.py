#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A full Internet table over FPM, as FRR's zebra (dplane_fpm_nl, nexthop
groups on) sends it to a routing dataplane: for bench/fpm_load.sh.

    fpm_feed.py gen [--routes N] [--seed S] FILE
    fpm_feed.py send [--addr ADDR:PORT] [--oif IFINDEX] [--hold S] FILE

Together they send the byte stream zebra would send after connecting:
three RTM_NEWNEXTHOPs (ids 1 and 2: gateways 10.0.1.2 and 10.0.1.3 on
--oif, the ifindex of the TAP of the port they are on, made by send as
it changes with each TAP; id 3: the group of both, weights 1 and 1),
then the N RTM_NEWROUTEs gen writes into FILE (proto bgp, table 254, metric 20,
RTA_NH_ID: 45 % id 1, 45 % id 2, 10 % the ECMP group) in prefix order as
zebra's dump walks its table, then one last route, 192.0.2.0/24 via id 2,
which bench/fpm_load.sh waits for. Each message in an FPM frame of its
own (version 1, type netlink), byte for byte as zebra frames them: the
layout of tests/unit/serve/fpm_frames/nhg_add.bin and bgp_weighted.bin
(recorded from FRR 8.4.4). It prints the prefix-length histogram it made.

The prefix lengths follow the IPv4 default-free table's: about 1.0M
prefixes, 60 % of them /24s, then /22 (12 %), /23 (10 %), /21 (5.4 %),
/20 (4.3 %), /19 (2.7 %), /16 (1.5 %), /18 (1.5 %), /17 (0.9 %) and a
few hundred shorter. These shares are rounded, from memory of Geoff
Huston's published BGP table reports (bgp.potaroo.net, AS65000's view,
and his yearly "BGP in 20xx" articles, 2023-24), not downloaded here (this
machine has no Internet): the figure depends on the shape (mostly /24,
each a DIR-24-8 tbl24 entry; the shorter ones many entries each), which
they have, not on the exact counts. The prefixes are random within
1.0.0.0-223.255.255.255, outside 10/8, 127/8, 198.18/15 (the bench's
traffic) and 192.0.2.0/24 (the last route).

send connects to listack-fwd's `fpm listen` (zebra is the client), writes
the nexthops and then FILE with sendfile, prints {"connected": T, "sent":
T, "bytes": N} (time.monotonic()), and keeps the connection open --hold
seconds (default 3600; --addr default 127.0.0.1:2620; a closed
connection is a zebra gone).
"""
import argparse
import json
import random
import socket
import struct
import sys
import time

# share of the table per prefix length, per mille (see above)
SHARE = {8: 0.016, 9: 0.013, 10: 0.04, 11: 0.1, 12: 0.3, 13: 0.65,
         14: 1.2, 15: 2.0, 16: 14.6, 17: 9.2, 18: 15.0, 19: 27.0,
         20: 43.0, 21: 54.0, 22: 120.0, 23: 100.0}
NH_GW = ("10.0.1.2", "10.0.1.3")
LAST = ("192.0.2.0", 24)
RTPROT_BGP = 186
RTPROT_ZEBRA = 11
NLM_F = 0x501               # REQUEST | REPLACE | CREATE, as zebra sends


def excluded(addr, length):
    """Prefixes the table leaves out (see the docstring)."""
    top = addr >> 24
    if top == 0 or top == 10 or top == 127 or top >= 224:
        return True
    if length >= 15 and addr >> 17 == (198 << 7 | 18 >> 1):
        return True
    return length >= 24 and addr >> 8 == (192 << 16 | 2)


def prefixes(n, rng):
    """n distinct (addr, length) with the table's length shares."""
    counts = {ln: int(round(n * s / 1000.0)) for ln, s in SHARE.items()}
    counts[24] = n - sum(counts.values())
    out = []
    for ln, k in sorted(counts.items()):
        got = set()
        while len(got) < k:
            for v in rng.sample(range(1 << ln), min(1 << ln, 2 * (k -
                                                                 len(got)))):
                a = v << (32 - ln)
                if not excluded(a, ln):
                    got.add(a)
                    if len(got) == k:
                        break
        out += [(a, ln) for a in got]
    out.sort()
    return out, counts


def frame(nl_type, body, seq):
    nl = struct.pack("=IHHII", 16 + len(body), nl_type, NLM_F, seq, 0) + body
    return struct.pack("!BBH", 1, 1, 4 + len(nl)) + nl


def rta(t, payload):
    return struct.pack("=HH", 4 + len(payload), t) + payload


def newnexthop(nh_id, gw, oif, seq):
    body = struct.pack("=BBBBI", socket.AF_INET, 0, RTPROT_ZEBRA, 0, 0)
    body += rta(1, struct.pack("=I", nh_id))
    body += rta(6, socket.inet_aton(gw)) + rta(5, struct.pack("=I", oif))
    return frame(104, body, seq)


def newgroup(nh_id, members, seq):
    body = struct.pack("=BBBBI", socket.AF_UNSPEC, 0, RTPROT_ZEBRA, 0, 0)
    body += rta(1, struct.pack("=I", nh_id))
    # struct nexthop_grp: id, weight - 1, two reserved
    body += rta(2, b"".join(struct.pack("=IBBH", m, 0, 0, 0)
                            for m in members))
    return frame(104, body, seq)


def newroute(addr, length, nh_id, seq):
    body = struct.pack("=BBBBBBBBI", socket.AF_INET, length, 0, 0, 254,
                       RTPROT_BGP, 0, 1, 0)
    body += rta(1, struct.pack("!I", addr)) + rta(6, struct.pack("=I", 20))
    body += rta(30, struct.pack("=I", nh_id))
    return frame(24, body, seq)


def cmd_gen(a):
    rng = random.Random(a.seed)
    table, counts = prefixes(a.routes, rng)
    seq = 4                 # after send's three nexthops
    with open(a.file, "wb") as f:
        chunk = []
        for addr, ln in table:
            r = rng.random()
            chunk.append(newroute(addr, ln, 1 if r < 0.45 else
                                  2 if r < 0.9 else 3, seq))
            seq += 1
            if len(chunk) == 4096:
                f.write(b"".join(chunk))
                chunk = []
        last = struct.unpack("!I", socket.inet_aton(LAST[0]))[0]
        chunk.append(newroute(last, LAST[1], 2, seq))
        f.write(b"".join(chunk))
    print(json.dumps({"routes": len(table) + 1, "lengths": {
        "/%d" % ln: sum(1 for _a, x in table if x == ln)
        for ln in sorted(counts)}}))


def cmd_send(a):
    host, port = a.addr.rsplit(":", 1)
    nhs = b"".join(newnexthop(i + 1, gw, a.oif, i + 1)
                   for i, gw in enumerate(NH_GW)) + newgroup(3, (1, 2), 3)
    s = socket.create_connection((host, int(port)), timeout=10)
    t0 = time.monotonic()
    s.sendall(nhs)
    with open(a.file, "rb") as f:
        n = s.sendfile(f)
    t1 = time.monotonic()
    print(json.dumps({"connected": t0, "sent": t1, "bytes": n}), flush=True)
    time.sleep(a.hold)
    s.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("--routes", type=int, default=1000000)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("file")
    s = sub.add_parser("send")
    s.add_argument("--addr", default="127.0.0.1:2620")
    s.add_argument("--oif", type=int, default=2)
    s.add_argument("--hold", type=float, default=3600)
    s.add_argument("file")
    a = ap.parse_args()
    if a.cmd == "gen":
        if not 1 <= a.routes <= 4000000:
            sys.exit("--routes: 1 to 4000000")
        cmd_gen(a)
    else:
        cmd_send(a)


if __name__ == "__main__":
    main()
