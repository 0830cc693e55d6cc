#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The side-by-side goals from bench/compare.sh's results, as markdown.

    goals.py [--load LOAD.txt] DIR/json/*.json     (search results)
    goals.py --check DIR/json/*.json               (one trial each)

Each JSON is one device and case (device label "DEVICE/CASE", as
compare.sh names them: 1f, 4096f, 1460b, veth). Figures: NDR at 64 B with
1 and 4096 flows (listack list and single, l3fwd, testpmd io), listack's
list mode over l3fwd's; NDR at 1460 B with `gro fraglist` over `gro off`
(1000 filter rules each); p50 latency at 10 % of each device's own NDR,
list minus single; Linux forwarding beside listack-fwd on the veths.
Each figure says what set it: "device" (a trial just above it lost),
"generator" (the generator could not offer more: the figure says nothing
of the device), or "max-rate". A goal is judged only when the device set
both figures it compares.
"""
import argparse
import json
import os
import sys


def load(paths):
    res = {}
    for p in paths:
        with open(p) as f:
            d = json.load(f)
        label = d.get("device") or os.path.basename(p)
        res[label] = d
    return res


def size_of(d, size):
    for s in d.get("sizes", []):
        if s.get("size") == size:
            return s
    return None


def ndr(res, label, size):
    d = res.get(label)
    s = size_of(d, size) if d else None
    if not s or not s.get("ndr"):
        return None, "not run"
    if s["ndr"].get("trial", -1) < 0:
        return None, "no rate passed (%s)" % s["ndr"].get("limit", "?")
    return s["ndr"]["pps"], s["ndr"].get("limit", "?")


def p50_at(res, label, size, share):
    """(p50 ns, load pps, what set it): "device" only when the NDR it is
    a share of was the device's and the latency trial kept its
    schedule."""
    d = res.get(label)
    s = size_of(d, size) if d else None
    for pt in (s or {}).get("latency", []):
        if abs(pt.get("share", -1) - share) < 1e-9 and pt.get("samples"):
            trials = d.get("trials", [])
            t = pt.get("trial", -1)
            limited = 0 <= t < len(trials) and \
                trials[t].get("generator_limited", False)
            ndr_by = (s.get("ndr") or {}).get("limit", "?")
            by = "generator" if limited or ndr_by == "generator" else ndr_by
            return pt["p50_ns"], pt["pps"], by
    return None, None, "not run"


def mpps(v):
    return "-" if v is None else "%.3f" % (v / 1e6)


def ratio_row(out, what, a, b, goal, fmt="%.2f x"):
    (va, la), (vb, lb) = a, b
    if va is None or vb is None or vb == 0:
        out.append("| %s | - | %s / %s | not measured |" % (what, la, lb))
        return
    r = va / vb
    judged = la == "device" and lb == "device"
    verdict = ("met" if r >= goal else "missed") if judged else \
        "not judged (the %s set a figure)" % (
            "generator" if "generator" in (la, lb) else "search bound")
    out.append("| %s | %s (%s / %s Mpps) | %s / %s | %s (goal >= %.2f) |"
               % (what, fmt % r, mpps(va), mpps(vb), la, lb, verdict, goal))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--load")
    ap.add_argument("json", nargs="+")
    a = ap.parse_args()
    if a.check:
        bad = 0
        print("| device | sent | received | lost | generator limited |")
        print("|---|---:|---:|---:|---|")
        for p in a.json:
            with open(p) as f:
                d = json.load(f)["trials"][0]
            name = os.path.basename(p)[:-len(".json")]
            print("| %s | %d | %d | %d | %s |" % (
                name, d["sent"], d["received"], d["lost"],
                d.get("generator_limited")))
            if d["received"] == 0:
                bad += 1
        if bad:
            print("\n%d device(s) forwarded nothing" % bad)
        return 1 if bad else 0

    res = load(a.json)
    out = ["| figure | value | set by | goal |", "|---|---|---|---|"]
    for case, what in (("1f", "1 flow"), ("4096f", "4096 flows")):
        for dev in ("listack-list", "listack-single", "l3fwd", "testpmd-io"):
            v, lim = ndr(res, "%s/%s" % (dev, case), 64)
            if v is not None or lim != "not run":
                out.append("| NDR 64 B, %s, %s | %s Mpps | %s | |"
                           % (what, dev, mpps(v), lim))
        ratio_row(out, "NDR 64 B, %s: listack list / l3fwd" % what,
                  ndr(res, "listack-list/" + case, 64),
                  ndr(res, "l3fwd/" + case, 64), 1.05)
    for dev in ("listack-fraglist-acl", "listack-off-acl"):
        v, lim = ndr(res, dev + "/1460b", 1460)
        if v is not None:
            out.append("| NDR 1460 B, 1 flow, 1000 rules, %s | %s Mpps | %s | |"
                       % (dev, mpps(v), lim))
    ratio_row(out, "NDR 1460 B, 1000 rules: gro fraglist / off",
              ndr(res, "listack-fraglist-acl/1460b", 1460),
              ndr(res, "listack-off-acl/1460b", 1460), 2.5)
    pl, rl, bl = p50_at(res, "listack-list/1f", 64, 0.1)
    ps, rs, bs = p50_at(res, "listack-single/1f", 64, 0.1)
    if pl is not None and ps is not None:
        judged = bl == "device" and bs == "device"
        verdict = ("met" if pl - ps <= 100 else "missed") if judged else \
            "not judged (the generator set a figure)"
        out.append("| p50 at 10 %% NDR, 64 B, 1 flow: list - single | %.0f ns "
                   "(%.0f at %s Mpps - %.0f at %s Mpps) | %s / %s | %s (goal <= 100 ns) |"
                   % (pl - ps, pl, mpps(rl), ps, mpps(rs), bl, bs, verdict))
    else:
        out.append("| p50 at 10 % NDR: list - single | - | | not measured |")
    for dev in ("linux", "listack-veth"):
        v, lim = ndr(res, dev + "/veth", 64)
        if v is not None:
            out.append("| NDR 64 B over veth + af_packet, %s | %s Mpps | %s | |"
                       % (dev, mpps(v), lim))
    print("\n".join(out))
    if a.load and os.path.exists(a.load):
        print("\nLoad before each search (uptime):\n")
        with open(a.load) as f:
            for line in f:
                print("    " + line.rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
