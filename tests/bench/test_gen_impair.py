#!/usr/bin/python3
"""listack-bench --generate against listack-bench --impair over memif.

    /usr/bin/python3 tests/bench/test_gen_impair.py build/bench/listack-bench

The impairing device (bench/gen/gen_impair.c) drops every D-th stamped
frame, holds every S-th until the next frame of its flow (a swap) and
sends every U-th twice, and counts what it did. The generator's trial
must find exactly that: lost == dropped (+ what its own port refused,
which never reached the device), reordered == swapped,
duplicates == duplicated, nothing foreign or late, every frame the
device saw sent by the generator; and both end with no mbuf in use.
Counts only, no timing: the device reports any frame its TX refused
(that would void the comparison, and fails the case).

The generator drains for up to 10 s (until nothing came for 1 s), so
that a device descheduled on a busy machine still hands back every frame
it took. Generator on CPU 0 (-l 0, memif servers), device on CPU 1 (-l 1,
clients). Output: `PASS name` / `FAIL name: reason`; exit 1 if any
failed.
"""

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genpair  # noqa: E402


def run_case(bench, work, name, gen_args, impair):
    base = "/tmp/lsk-gen-impair-%d-%s" % (os.getpid(), name)
    gen_json = os.path.join(work, name + "-gen.json")
    imp_json = os.path.join(work, name + "-impair.json")
    gen_cmd = ([bench] + genpair.eal("lsk-gen-%d-%s" % (os.getpid(), name),
                                     0, "server", base) +
               ["--", "--generate", "--linger", "60", "--wait", "0",
                "--drain", "10", "--json", gen_json] + gen_args)
    imp_cmd = ([bench] + genpair.eal("lsk-imp-%d-%s" % (os.getpid(), name),
                                     1, "client", base) +
               ["--", "--impair", impair, "--json", imp_json])
    why, gen_rc, imp_rc, logs = genpair.run(work, name, gen_cmd, imp_cmd)
    if why:
        return why, logs
    why = []
    if gen_rc != 0:
        why.append("generator exit %s" % gen_rc)
    if imp_rc != 0:
        why.append("device exit %s" % imp_rc)
    try:
        with open(gen_json) as f:
            g = json.load(f)["trials"][0]
        with open(imp_json) as f:
            d = json.load(f)
    except (OSError, ValueError, KeyError, IndexError) as e:
        why.append("no results: %s" % e)
        return why, logs
    checks = [
        ("device frames == generator sent", d["frames"], g["sent"]),
        # frames the generator's port refused (the ring to the device
        # full: it lost its CPU for a while) never reached the device
        ("lost == dropped + refused", g["lost"], d["dropped"] + g["refused"]),
        ("reordered == swapped", g["reordered"], d["swapped"]),
        ("duplicates == duplicated", g["duplicates"], d["duplicated"]),
        ("received + lost == sent + refused", g["received"] + g["lost"],
         g["sent"] + g["refused"]),
        ("foreign", g["foreign"], 0),
        ("stale", g["stale"], 0),
        ("late", g["late"], 0),
        ("device tx_refused", d["tx_refused"], 0),
        ("device no_mbuf", d["no_mbuf"], 0),
        ("device mbufs_in_use", d["mbufs_in_use"], 0),
        # drops every 100th over the flows: per flow, at most what the
        # flow was sent / 100 rounded up (checked loosely: > 0 flows)
        ("flows with loss > 0", g["flows_with_loss"] > 0,
         d["dropped"] + g["refused"] > 0),
        ("latency samples == received", g["latency_ns"]["samples"],
         g["received"]),
    ]
    for what, got, want in checks:
        if got != want:
            why.append("%s: %s, not %s" % (what, got, want))
    # no case passes by doing nothing
    for k in ("dropped", "swapped", "duplicated"):
        if ("%s=0" % {"dropped": "drop", "swapped": "swap",
                      "duplicated": "dup"}[k]) not in impair and d[k] == 0:
            why.append("the device %s nothing" % k)
    if "mbufs in use after closing the ports: 0" not in logs[1]:
        why.append("the device's mbufs not all back")
    return why, logs


CASES = [
    ("one-flow", ["--rate", "10k", "--seconds", "1", "--flows", "1"],
     "drop=100,swap=37,dup=53"),
    ("flows-imix", ["--rate", "10k", "--seconds", "1", "--flows", "100",
                    "--size", "imix"], "drop=100,swap=7,dup=11"),
    ("flows-1518", ["--rate", "10k", "--seconds", "1", "--flows", "64",
                    "--size", "1518"], "drop=100,swap=3,dup=0"),
]


def main():
    bench = sys.argv[1]
    verbose = "-v" in sys.argv
    failed = 0
    with tempfile.TemporaryDirectory(prefix="lsk-gen-impair-") as work:
        for name, gen_args, impair in CASES:
            why, logs = run_case(bench, work, name, gen_args, impair)
            if why:
                failed += 1
                print("FAIL %s: %s" % (name, "; ".join(why)))
                print("--- generator:\n%s--- device:\n%s" % tuple(logs))
            else:
                print("PASS %s" % name)
                if verbose:
                    print("%s%s" % tuple(logs))
    print("%d passed, %d failed" % (len(CASES) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
