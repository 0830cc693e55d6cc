#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A BGP-like IPv4 table (about 1M prefixes) and destinations drawn over
it, for bench/dut/traffic.py --table bgp (bench/feed.sh --routes 1000000):

    fulltable.py prefixes [--routes N] [--seed S]      (A.B.C.D/L lines)
    fulltable.py hist [--routes N] [--seed S]          (lengths against DIST)

The table is made deterministically from --seed (Python's random.Random:
getrandbits and random only, whose sequences Python keeps stable), so the
device, l3fwd and the pcap's destinations all see the same table.

Prefix lengths follow DIST, the prefix-length histogram of the IPv4
default-free zone as APNIC's BGP table reports publish it
(bgp.potaroo.net, "BGP Routing Table Analysis", the AS65000 view,
"prefix length distribution") and the CIDR Report (www.cidr-report.org),
early 2024, about 970k prefixes: /24 about 60 %, then /22, /23, /21,
/20, /19, /16, /18, /17, few shorter than /16 and few longer than /24
(most networks filter those). There is no internet here: the counts below
are those reports' figures rounded to three digits, written in by hand,
not fetched; they are a shape to reproduce, not one day's table.

Where prefixes lie: about half of a real table's prefixes are more
specifics of another prefix in it (the same reports' "more specifics"
section: 50-55 %), the rest cover space nothing else announces. So each
prefix of /9 or longer is, with probability NEST, a random sub-block of a
random shorter prefix already made; otherwise (and always for /8) a
random aligned block anywhere in unicast space outside RESERVED. No two
prefixes are equal.
"""
import argparse
import random
import sys

# (length, prefixes of that length in a ~970k-prefix table)
DIST = (
    (8, 16), (9, 13), (10, 37), (11, 104), (12, 290), (13, 580),
    (14, 1180), (15, 1980), (16, 13400), (17, 8200), (18, 13900),
    (19, 25300), (20, 45800), (21, 53200), (22, 127000), (23, 96000),
    (24, 585000), (25, 200), (26, 150), (27, 100), (28, 80), (29, 100),
    (30, 50), (32, 120),
)
NEST = 0.5
# Special-purpose space (RFC 6890 and its updates): never in the table.
# 0/8, 10/8, 127/8 and 224/3 are refused by their first byte.
RESERVED = (
    ("100.64.0.0", 10), ("169.254.0.0", 16), ("172.16.0.0", 12),
    ("192.0.0.0", 24), ("192.0.2.0", 24), ("192.88.99.0", 24),
    ("192.168.0.0", 16), ("198.18.0.0", 15), ("198.51.100.0", 24),
    ("203.0.113.0", 24),
)
BAD_FIRST = frozenset([0, 10, 127] + list(range(224, 256)))
MAX_ROUTES = 1 << 21


def aton(s):
    a, b, c, d = (int(x) for x in s.split("."))
    return a << 24 | b << 16 | c << 8 | d


def ntoa(a):
    return "%d.%d.%d.%d" % (a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255)


_RES = [(aton(n), l) for n, l in RESERVED]
_RES_FIRST = {}
for _n, _l in _RES:
    _RES_FIRST.setdefault(_n >> 24, []).append((_n, _l))


def unicast(addr, plen):
    """addr/plen overlaps no reserved range."""
    first = addr >> 24
    if first in BAD_FIRST:
        return False
    for n, l in _RES_FIRST.get(first, ()):
        m = min(l, plen)
        if (addr ^ n) >> (32 - m) == 0:
            return False
    return True


def counts(n):
    """How many prefixes of each length a table of n prefixes has: DIST
    scaled to n, the rounding's remainder given to /24."""
    total = sum(c for _, c in DIST)
    out = [(l, c * n // total) for l, c in DIST]
    left = n - sum(c for _, c in out)
    return [(l, c + left if l == 24 else c) for l, c in out]


def generate(n, seed=1):
    """n distinct (addr, len) prefixes, sorted by address then length."""
    rng = random.Random(seed)
    bits, rnd = rng.getrandbits, rng.random
    seen = set()
    shorter = []
    for plen, c in counts(n):
        made = []
        host = 32 - plen
        while len(made) < c:
            if shorter and plen > 8 and rnd() < NEST:
                # shorter holds only lengths below plen
                pa, pl = shorter[int(rnd() * len(shorter))]
                addr = pa | bits(plen - pl) << host
            else:
                addr = bits(plen) << host
                if not unicast(addr, plen):
                    continue
            key = addr << 6 | plen
            if key in seen:
                continue
            seen.add(key)
            made.append((addr, plen))
        shorter.extend(made)
    shorter.sort()
    return shorter


def host_in(rng, addr, plen):
    """A random address of addr/plen, not its first or last where it has
    more than two."""
    hb = 32 - plen
    if hb == 0:
        return addr
    while True:
        h = rng.getrandbits(hb)
        if hb == 1 or 0 < h < (1 << hb) - 1:
            return addr | h


def destinations(table, count, dist="uniform", hot=100000, zipf_s=1.0,
                 seed=1):
    """count destination addresses over table ((addr, len) pairs):
    uniform picks a prefix uniformly and a host in it for every frame;
    zipf makes a hot set of `hot` such destinations and draws each frame's
    from it with probability 1 / rank^s (rank 1 the hottest)."""
    rng = random.Random(seed * 7919 + 1)
    n = len(table)
    if dist == "uniform":
        return [host_in(rng, *table[int(rng.random() * n)])
                for _ in range(count)]
    hotset = [host_in(rng, *table[int(rng.random() * n)])
              for _ in range(hot)]
    cum, s = [], 0.0
    for k in range(1, hot + 1):
        s += k ** -zipf_s
        cum.append(s)
    return rng.choices(hotset, cum_weights=cum, k=count)


def histogram(table):
    h = {}
    for _, l in table:
        h[l] = h.get(l, 0) + 1
    return h


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("prefixes", "hist"))
    ap.add_argument("--routes", type=int, default=1000000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if not 1 <= a.routes <= MAX_ROUTES:
        ap.error("--routes: 1 to %d" % MAX_ROUTES)
    t = generate(a.routes, a.seed)
    out = sys.stdout
    if a.what == "prefixes":
        for addr, plen in t:
            out.write("%s/%d\n" % (ntoa(addr), plen))
        return
    want = dict(counts(a.routes))
    h = histogram(t)
    out.write("len made want share\n")
    for l in sorted(set(h) | set(want)):
        out.write("/%d %d %d %.4f\n" % (l, h.get(l, 0), want.get(l, 0),
                                         h.get(l, 0) / len(t)))


if __name__ == "__main__":
    main()
