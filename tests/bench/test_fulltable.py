#!/usr/bin/python3
"""bench/dut/fulltable.py's BGP-like table and traffic.py over it.

    /usr/bin/python3 tests/bench/test_fulltable.py [bench/dut]

Checks, in seconds: the table is the same for a seed and another for
another seed (in the module and by its command line); its length
histogram is DIST's within a tolerance, /24 about 60 %, few shorter than
/16 and few longer than /24; every prefix aligned, distinct and outside
the reserved ranges; about half of them more specifics of another;
uniform destinations lie in the table's prefixes, the Zipf hot set is
at most --hot destinations and its hottest takes about 1/H(hot) of the
frames; traffic.py accepts --routes 1000000 (the l3fwd rule file has a
million distinct prefixes) and refuses what is out of range; a pcap over
the table has its frames to the table's prefixes.

Output: `PASS name` / `FAIL name: reason`; exit 1 if any failed.
"""

import os
import struct
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
dut = sys.argv[1] if len(sys.argv) > 1 else \
    os.path.join(here, "..", "..", "bench", "dut")
sys.path.insert(0, dut)
import fulltable  # noqa: E402

failed = 0


def check(name, ok, why=""):
    global failed
    if ok:
        print("PASS %s" % name)
    else:
        failed += 1
        print("FAIL %s: %s" % (name, why))


def covering(table_set, addr, plen):
    """The longest prefix of table_set shorter than plen covering addr."""
    for l in range(plen - 1, 7, -1):
        a = addr & ~((1 << (32 - l)) - 1) & 0xffffffff
        if a << 6 | l in table_set:
            return l
    return None


def lookup(table_set, addr):
    for l in range(32, 7, -1):
        a = addr & ~((1 << (32 - l)) - 1) & 0xffffffff
        if a << 6 | l in table_set:
            return l
    return None


def run(*args):
    return subprocess.run([sys.executable] + list(args), text=True,
                          capture_output=True)


N = 100000
t1 = fulltable.generate(N, 7)
check("deterministic", t1 == fulltable.generate(N, 7), "seed 7 twice differs")
check("seeded", t1 != fulltable.generate(N, 8), "seeds 7 and 8 give one table")
ft = os.path.join(dut, "fulltable.py")
a, b = (run(ft, "prefixes", "--routes", "3000", "--seed", "3")
        for _ in range(2))
check("deterministic-cli", a.returncode == 0 and a.stdout == b.stdout
      and len(a.stdout.splitlines()) == 3000, a.stderr)

check("size", len(t1) == N, "%d prefixes" % len(t1))
keys = {addr << 6 | l for addr, l in t1}
check("distinct", len(keys) == N, "%d distinct" % len(keys))
bad = [(a, l) for a, l in t1 if a & ((1 << (32 - l)) - 1)]
check("aligned", not bad, "%d unaligned, first %r" % (len(bad), bad[:1]))
res = [(a, l) for a, l in t1 if not fulltable.unicast(a, l)]
check("unicast", not res, "%d in reserved space, first %s/%d" % (
    len(res), fulltable.ntoa(res[0][0]), res[0][1]) if res else "")

h = fulltable.histogram(t1)
total = sum(c for _, c in fulltable.DIST)
off = []
for l, c in fulltable.DIST:
    want = N * c / total
    if abs(h.get(l, 0) - want) > max(2, 0.02 * want):
        off.append("/%d %d (want %.0f)" % (l, h.get(l, 0), want))
check("histogram", not off and set(h) <= {l for l, _ in fulltable.DIST},
      ", ".join(off))
s24 = h.get(24, 0) / N
check("mostly-24", 0.55 <= s24 <= 0.65, "/24 share %.3f" % s24)
longer = sum(c for l, c in h.items() if l > 24) / N
shorter = sum(c for l, c in h.items() if l < 16) / N
check("few-longer", 0 < longer < 0.01, "longer than /24: %.4f" % longer)
check("few-shorter", 0 < shorter < 0.01, "shorter than /16: %.4f" % shorter)
nested = sum(1 for a, l in t1 if covering(keys, a, l)) / N
check("more-specifics", 0.35 <= nested <= 0.65,
      "%.3f of the prefixes covered by another" % nested)

d = fulltable.destinations(t1, 20000, "uniform", seed=7)
out = [x for x in d if lookup(keys, x) is None]
check("uniform-routed", len(d) == 20000 and not out,
      "%d of %d unrouted" % (len(out), len(d)))
check("uniform-spread", len(set(d)) > 19000, "%d distinct" % len(set(d)))
hot = 1000
z = fulltable.destinations(t1, 50000, "zipf", hot=hot, zipf_s=1.0, seed=7)
cnt = {}
for x in z:
    cnt[x] = cnt.get(x, 0) + 1
top = max(cnt.values()) / len(z)
want = 1 / sum(k ** -1.0 for k in range(1, hot + 1))
check("zipf", len(cnt) <= hot and abs(top - want) < 0.15 * want
      and all(lookup(keys, x) is not None for x in cnt),
      "%d distinct, hottest %.4f of the frames (want %.4f)"
      % (len(cnt), top, want))
check("zipf-deterministic", z == fulltable.destinations(
    t1, 50000, "zipf", hot=hot, zipf_s=1.0, seed=7), "differs")

tr = os.path.join(dut, "traffic.py")
with tempfile.TemporaryDirectory() as tmp:
    r = run(tr, "l3fwd-rules", "--routes", "1000000", tmp + "/r")
    lines = open(tmp + "/r.v4").read().splitlines() if r.returncode == 0 \
        else []
    check("routes-1000000", r.returncode == 0 and len(lines) == 1000000
          and len(set(lines)) == 1000000 and lines[0].startswith("R"),
          r.stderr + " %d lines" % len(lines))
    for args in (["--routes", "2097153"], ["--routes", "0"],
                 ["--routes", "65537", "--table", "plain"]):
        r = run(tr, "conf", *args)
        check("refused " + " ".join(args), r.returncode == 2
              and "--routes" in r.stderr, r.stderr)
    r = run(tr, "conf", "--routes", "1000", "--table", "bgp", "--seed", "5",
            "--route-cache", "4096")
    conf = r.stdout.splitlines()
    t5 = fulltable.generate(1000, 5)
    want = ["route add %s/%d via 10.0.1.2" % (fulltable.ntoa(a), l)
            for a, l in t5]
    check("conf", r.returncode == 0 and
          [x for x in conf if x.startswith("route add")] == want and
          conf[-1] == "route-cache on entries 4096", r.stderr)
    pc = tmp + "/z.pcap"
    r = run(tr, "pcap", "--routes", "1000", "--table", "bgp", "--seed", "5",
            "--dist", "zipf", "--hot", "100", "--count", "500", pc)
    k5 = {a << 6 | l for a, l in t5}
    data = open(pc, "rb").read() if r.returncode == 0 else b""
    pos, dsts = 24, []
    while pos + 16 <= len(data):
        n = struct.unpack_from("<I", data, pos + 8)[0]
        fr = data[pos + 16:pos + 16 + n]
        dsts.append(struct.unpack_from("!I", fr, 14 + 16)[0])
        pos += 16 + n
    check("pcap", len(dsts) == 500 and len(set(dsts)) <= 100 and
          all(lookup(k5, x) is not None for x in dsts),
          "%s; %d frames" % (r.stderr, len(dsts)))

sys.exit(1 if failed else 0)
