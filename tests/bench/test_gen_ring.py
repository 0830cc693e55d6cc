#!/usr/bin/python3
"""listack-bench --generate on a net_ring port that loops back to itself.

    /usr/bin/python3 tests/bench/test_gen_ring.py build/bench/listack-bench

`--vdev net_ring0,nodeaction=r0:0:CREATE` makes one port whose TX ring is
its RX ring: every frame the generator sends comes back to it, in order,
once, in the same process (no device under test, no other process). The
trial must find exactly that at every size and flow count: nothing lost
but what the ring refused, nothing reordered, duplicated, late or
foreign, one latency sample per frame, percentiles in order; at --rate 0
it must call itself generator-limited (nothing was lost). Counts only, no
timing.

Output: `PASS name` / `FAIL name: reason`; exit 1 if any failed.
"""

import json
import os
import subprocess
import sys
import tempfile

CASES = [
    ("64b-full-load", ["--rate", "0", "--size", "64", "--flows", "1"]),
    ("imix-1000-flows", ["--rate", "1M", "--size", "imix",
                         "--flows", "1000"]),
    ("1518-paced", ["--rate", "100k", "--size", "1518", "--flows", "10"]),
    ("65536-flows", ["--rate", "2M", "--size", "128", "--flows", "65536"]),
]


def main():
    bench = sys.argv[1]
    failed = 0
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=1")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    with tempfile.TemporaryDirectory(prefix="lsk-gen-ring-") as work:
        for name, args in CASES:
            out = os.path.join(work, name + ".json")
            cmd = [bench, "--no-huge", "--no-pci", "-m", "256", "--no-shconf",
                   "--log-level=*:warning", "-l", "0", "--vdev",
                   "net_ring0,nodeaction=r0:0:CREATE", "--", "--generate",
                   "--wait", "0", "--seconds", "0.5", "--json", out] + args
            r = subprocess.run(cmd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, env=env, timeout=120)
            why = []
            if r.returncode != 0:
                why.append("exit %d" % r.returncode)
            try:
                with open(out) as f:
                    g = json.load(f)["trials"][0]
            except (OSError, ValueError, KeyError, IndexError) as e:
                why.append("no results: %s" % e)
                g = None
            if g is not None:
                lat = g["latency_ns"]
                for what, got, want in [
                        ("lost", g["lost"], g["refused"]),
                        ("received", g["received"], g["sent"]),
                        ("reordered", g["reordered"], 0),
                        ("duplicates", g["duplicates"], 0),
                        ("late", g["late"], 0),
                        ("flows_with_loss", g["flows_with_loss"] > 0,
                         g["lost"] > 0),
                        ("foreign", g["foreign"], 0),
                        ("latency samples", lat["samples"], g["received"])]:
                    if got != want:
                        why.append("%s: %s, not %s" % (what, got, want))
                if g["sent"] == 0:
                    why.append("nothing sent")
                order = [lat[k] for k in ("min", "p50", "p90", "p99",
                                          "p99.9", "max")]
                if order != sorted(order) or order[0] <= 0:
                    why.append("latency percentiles out of order: %s" %
                               order)
                if (g["rate_pps"] == 0 and g["lost"] == 0 and
                        not g["generator_limited"]):
                    why.append("a lossless trial at rate 0 is not called "
                               "generator-limited")
            if why:
                failed += 1
                print("FAIL %s: %s" % (name, "; ".join(why)))
                print(r.stdout.decode(errors="replace"))
            else:
                print("PASS %s" % name)
    print("%d passed, %d failed" % (len(CASES) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
