#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The searches' output files, end to end: searches against model devices
(gen-model-run) write --json and --plot; the JSON parses and holds every
trial, the found NDR trial lost nothing and the next higher one lost (or
the generator was the limit), the SVG parses as XML with a series per
device; listack-bench --from (no EAL) merges two results into one plot
and one markdown table, and refuses files that are not results;
--generate refuses bad search options before it opens a port.

usage: test_gen_output.py GEN_MODEL_RUN LISTACK_BENCH
"""
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def run(cmd, expect=0):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if p.returncode != expect:
        sys.exit("FAIL: %s exited %d, not %d\n%s%s" % (
            " ".join(cmd), p.returncode, expect, p.stdout, p.stderr))
    return p


def check_result(path, device, limit):
    with open(path) as f:
        r = json.load(f)
    assert r["mode"] == "generate" and r["version"] == 1, r["mode"]
    assert r["device"] == device and r["search"] == "ndr"
    trials = r["trials"]
    assert [t["index"] for t in trials] == list(range(len(trials)))
    for t in trials:
        for k in ("request", "sent", "received", "lost", "reordered",
                  "duplicates", "latency", "generator_limited"):
            assert k in t, k
    assert [s["size"] for s in r["sizes"]] == [64, 512, "imix"]
    for s in r["sizes"]:
        ndr, pdr = s["ndr"], s["pdr"]
        found = trials[ndr["trial"]]
        assert found["lost"] == 0 and found["verdict"] == "pass", found
        assert found["request"]["rate_pps"] == ndr["pps"]
        assert ndr["limit"] == limit, (ndr["limit"], limit)
        if ndr["fail_trial"] >= 0:
            above = trials[ndr["fail_trial"]]
            assert above["request"]["rate_pps"] >= ndr["pps"]
            assert (above["lost"] > 0 or above["generator_limited"]), above
        else:
            assert limit != "device"
        assert pdr["pps"] >= ndr["pps"]
        assert len(s["latency"]) == 4
        assert [l["load"] for l in s["latency"]] == ["min", "10%", "50%",
                                                     "90%"]
    return r


def svg_series(path):
    root = ET.parse(path).getroot()
    assert root.tag == SVG + "svg", root.tag
    bars, lines = {}, {}
    for e in root.iter(SVG + "rect"):
        if e.get("class") == "bar":
            bars.setdefault(e.get("data-device"), []).append(
                e.get("data-size"))
    for e in root.iter(SVG + "polyline"):
        if e.get("class") == "latency":
            lines.setdefault(e.get("data-device"), []).append(
                e.get("data-percentile"))
    texts = "".join(t.text or "" for t in root.iter(SVG + "text"))
    return bars, lines, texts


def main():
    model, bench = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="lsk-gen-output-") as d:
        a_json, a_svg = os.path.join(d, "a.json"), os.path.join(d, "a.svg")
        b_json = os.path.join(d, "b.json")
        common = ["--sizes", "64,512,imix", "--resolution", "2%"]
        out = run([model, "--capacity", "1e6", "--gen-max", "10e6",
                   "--json", a_json, "--plot", a_svg, "--device", "model-a"]
                  + common).stdout
        assert "NDR Mpps" in out and "p99.9" in out, out
        # the generator cannot offer the device's capacity
        out = run([model, "--capacity", "5e6", "--gen-max", "2e6",
                   "--json", b_json, "--device", "model & b"]
                  + common).stdout
        assert "generator" in out, out
        check_result(a_json, "model-a", "device")
        check_result(b_json, "model & b", "generator")
        bars, lines, texts = svg_series(a_svg)
        assert bars == {"model-a": ["64", "512", "imix"]}, bars
        assert sorted(lines["model-a"]) == ["p50", "p99", "p99.9"], lines
        assert "Mpps" in texts and "frame size" in texts, texts

        m_svg, m_md = os.path.join(d, "m.svg"), os.path.join(d, "m.md")
        run([bench, "--from", a_json + "," + b_json, "--plot", m_svg,
             "--table-md", m_md])
        bars, lines, texts = svg_series(m_svg)
        assert set(bars) == {"model-a", "model & b"}, bars
        assert set(lines) == {"model-a", "model & b"}, lines
        assert "model & b" in texts
        with open(m_md) as f:
            md = f.read().splitlines()
        assert len(md) == 2 + 6, md
        assert md[2].startswith("| model-a | 64 |"), md
        # to stdout without --table-md
        out = run([bench, "--from", a_json]).stdout
        assert out.count("\n| model-a |") == 3, out

        # what is not a result, and bad command lines
        bad = os.path.join(d, "bad.json")
        with open(bad, "w") as f:
            f.write('{"scenario": "fwd", "variants": []}')
        err = run([bench, "--from", bad], expect=1).stderr
        assert "not a listack-bench --generate result" in err, err
        run([bench, "--from", os.path.join(d, "none.json")], expect=1)
        run([bench, "--from", a_json, "--seconds", "1"], expect=2)
        run([bench, "--from", ""], expect=2)
        run([bench, "--from", a_json + ",,"], expect=2)
    # --generate refuses search options without --search, and --rate
    # with it, before it opens any port
    eal = [bench, "--no-huge", "--no-pci", "--no-shconf", "-m", "256",
           "--log-level=*:error", "--", "--generate"]
    for bad in (["--sizes", "64"], ["--search", "ndr", "--rate", "1M"],
                ["--search", "fast"], ["--search", "ndr", "--sizes", "63"],
                ["--search", "ndr", "--resolution", "0%"]):
        run(eal + bad, expect=2)
    print("test_gen_output: ok")


if __name__ == "__main__":
    main()
