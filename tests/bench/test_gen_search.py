#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A short NDR search by listack-bench --generate against listack-fwd
over memif:

    test_gen_search.py LISTACK_BENCH LISTACK_FWD

The generator (memif servers, lcore 0) writes the device's configuration
(--dut-config) before it waits for the links; listack-fwd (memif clients,
lcore 1) starts with it, and stops first, while the generator lingers. The search is short (0.1 s trials, 1 %
resolution, one frame size). It must finish; the found NDR trial lost
nothing and the next higher trial lost or was generator-limited, or no
rate passed and the generator is reported as the limit; every trial is
in the JSON; the plot parses as SVG with listack-fwd's series; and
listack-fwd ends with no mbuf in use. No figure is judged.
"""
import json
import os
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genpair  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


def check(work, gen_rc, fwd_rc, fwd_log):
    why = []
    if gen_rc != 0:
        why.append("generator exit %s" % gen_rc)
    if fwd_rc != 0:
        why.append("listack-fwd exit %s" % fwd_rc)
    if "mbufs_in_use 0\n" not in fwd_log:
        why.append("listack-fwd's mbufs not all back")
    try:
        with open(os.path.join(work, "r.json")) as f:
            r = json.load(f)
    except (OSError, ValueError) as e:
        return why + ["no JSON result: %s" % e]
    trials = r["trials"]
    if r["mode"] != "generate" or r["device"] != "listack-fwd":
        why.append("JSON: mode %s device %s" % (r["mode"], r["device"]))
    if [t["index"] for t in trials] != list(range(len(trials))):
        why.append("JSON: trials not all there in order")
    s = r["sizes"][0]
    ndr = s["ndr"]
    if ndr["trial"] >= 0:
        found = trials[ndr["trial"]]
        if found["lost"] != 0 or found["verdict"] not in ("pass", "limited-pass"):
            why.append("the NDR trial lost %d (%s)" % (found["lost"],
                                                       found["verdict"]))
        if ndr["fail_trial"] >= 0:
            above = trials[ndr["fail_trial"]]
            if above["request"]["rate_pps"] < ndr["pps"]:
                why.append("the next trial is not higher")
            if above["lost"] == 0 and not above["generator_limited"]:
                why.append("the next higher trial lost nothing and the "
                           "generator kept up")
            # a found trial the generator could not offer in full gives
            # the rate it did offer: then the generator set the figure
            # (bench/gen/search.c; test_search.c holds the same)
            want = ("generator" if above["generator_limited"] or
                    found["verdict"] == "limited-pass" else "device")
            if ndr["limit"] != want:
                why.append("NDR limit %s, not %s" % (ndr["limit"], want))
        elif ndr["limit"] not in ("generator", "max-rate"):
            why.append("nothing above the NDR, limit %s" % ndr["limit"])
    elif ndr["limit"] != "generator":
        # nothing passed: that must be said to be the generator's doing
        # or come from trials the device failed
        fails = [t for t in trials if t["phase"] == "ndr"
                 and t["verdict"] == "fail"]
        if not fails:
            why.append("no NDR and no failed trial, limit %s"
                       % ndr["limit"])
    if s["pdr"]["pps"] < ndr["pps"]:
        why.append("PDR below NDR")
    try:
        root = ET.parse(os.path.join(work, "r.svg")).getroot()
        bars = [e for e in root.iter(SVG + "rect")
                if e.get("class") == "bar"
                and e.get("data-device") == "listack-fwd"]
        if root.tag != SVG + "svg" or len(bars) != 1:
            why.append("SVG: %s, %d bars" % (root.tag, len(bars)))
    except (OSError, ET.ParseError) as e:
        why.append("SVG: %s" % e)
    return why


def main():
    bench, fwd = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="lsk-gen-search-") as work:
        base = "/tmp/lsk-gen-search-%d" % os.getpid()
        cfg = os.path.join(work, "dut.conf")
        gen_cmd = ([bench] + genpair.eal("lsk-gs-gen-%d" % os.getpid(), 0,
                                         "server", base, 512) +
                   ["--", "--generate", "--linger", "60", "--wait", "30",
                    "--drain", "2",
                    "--dut-config", cfg, "--search", "ndr", "--sizes", "64",
                    "--trial", "0.1", "--resolution", "1%",
                    "--latency-seconds", "0.1", "--device", "listack-fwd",
                    "--json", os.path.join(work, "r.json"),
                    "--plot", os.path.join(work, "r.svg")])
        fwd_cmd = ([fwd] + genpair.eal("lsk-gs-fwd-%d" % os.getpid(), 1,
                                       "client", base, 512) +
                   ["--", "--config", cfg, "--mode", "list",
                    "--ctl-socket", "none"])
        why, gen_rc, fwd_rc, logs = genpair.run(
            work, "search", gen_cmd, fwd_cmd,
            ready=lambda: os.path.exists(cfg))
        if why:
            print("FAIL: %s" % "; ".join(why))
            print("--- generator:\n%s" % logs[0])
            return 1
        why = check(work, gen_rc, fwd_rc, logs[1])
        if why:
            print("FAIL: %s" % "; ".join(why))
            print("--- generator:\n%s--- listack-fwd:\n%s" % tuple(logs))
            return 1
        print(logs[0])
        print("PASS gen-search against listack-fwd")
        return 0


if __name__ == "__main__":
    sys.exit(main())
