#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""bench/latency.sh, short: one listack-fwd and one generator over memif,
the NDR found by a short search in list mode, then 2 pairs of 0.1 s
trials at 10 % of it, listack-ctl switching the device's mode before
each trial:

    test_gen_ab.py SOURCE_DIR BUILD_DIR

It must finish; the table has both modes in every pair and the summary;
the JSON parses with both trials of every pair (frames came back, with
latency) and the summary over them; the device's `show config` said the
mode asked for after every switch (list for the search, then list,
single, list, single); listack-fwd ends with no mbuf in use. No figure
is judged.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PAIRS = 2


def check(out, rc, text):
    why = []
    if rc != 0:
        why.append("latency.sh exit %s" % rc)
    try:
        with open(os.path.join(out, "ab.json")) as f:
            r = json.load(f)
    except (OSError, ValueError) as e:
        return why + ["no JSON result: %s" % e]
    if r["mode"] != "ab" or r["variants"] != ["list", "single"]:
        why.append("JSON: mode %s variants %s" % (r["mode"], r["variants"]))
    if r["ndr_from"] != "search" or not r["ndr_pps"]:
        why.append("JSON: NDR %s from %s" % (r["ndr_pps"], r["ndr_from"]))
    elif abs(r["rate_pps"] - 0.1 * r["ndr_pps"]) > 1:
        why.append("rate %s is not 10 %% of %s" % (r["rate_pps"],
                                                    r["ndr_pps"]))
    pairs = r["pairs"]
    if [p["index"] for p in pairs] != list(range(PAIRS)):
        why.append("JSON: pairs %s" % [p["index"] for p in pairs])
    for p in pairs:
        for v in ("a", "b"):
            t = p[v]
            if t["received"] == 0 or t["latency_ns"]["samples"] == 0:
                why.append("pair %d %s: nothing came back" % (p["index"], v))
        d = p["a"]["latency_ns"]["p50"] - p["b"]["latency_ns"]["p50"]
        if abs(d - p["p50_diff_ns"]) > 1e-6 * max(1, abs(d)):
            why.append("pair %d: p50_diff_ns %s, not a - b"
                       % (p["index"], p["p50_diff_ns"]))
    s = r["summary"]
    if s["pairs"] != PAIRS or s["p50_diff_ns"]["n"] != PAIRS:
        why.append("summary over %s pairs" % s["pairs"])
    lo, hi = s["p50_diff_ns"]["ci95"]
    if not lo <= s["p50_diff_ns"]["median"] <= hi:
        why.append("median outside its interval")
    for i in range(PAIRS):
        for m in ("list", "single"):
            if not re.search(r"^%d +%s " % (i, m), text, re.M):
                why.append("no table line for pair %d %s" % (i, m))
    if "list - single over %d pairs" % PAIRS not in text:
        why.append("no summary line")
    with open(os.path.join(out, "modes.txt")) as f:
        modes = f.read().split("\n")[:-1]
    want = ["mode list"] + ["mode list", "mode single"] * PAIRS
    if modes != want:
        why.append("show config after each switch: %s" % modes)
    with open(os.path.join(out, "log", "dut.log")) as f:
        if "mbufs_in_use 0\n" not in f.read():
            why.append("listack-fwd's mbufs not all back")
    return why


def main():
    src, build = sys.argv[1], sys.argv[2]
    out = tempfile.mkdtemp(prefix="lsk-test-ab-")
    try:
        p = subprocess.run(
            ["sh", os.path.join(src, "bench", "latency.sh"), "--pairs",
             str(PAIRS), "--seconds", "0.1", "--build", build, "--out", out,
             "--timeout", "240"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            universal_newlines=True, timeout=300)
        why = check(out, p.returncode, p.stdout)
        if why:
            print("FAIL: %s" % "; ".join(why))
            print(p.stdout)
            for name in ("gen.log", "dut.log"):
                path = os.path.join(out, "log", name)
                if os.path.exists(path):
                    with open(path) as f:
                        print("--- %s:\n%s" % (name, f.read()[-3000:]))
            return 1
        print(p.stdout)
        print("PASS latency.sh: %d pairs of list and single, the mode "
              "switched before each trial" % PAIRS)
        return 0
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
