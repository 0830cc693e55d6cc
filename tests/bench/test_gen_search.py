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
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

WAIT = 120
SVG = "{http://www.w3.org/2000/svg}"


def eal(prefix, lcore, role, base):
    return ["--no-huge", "--no-pci", "-m", "512", "--file-prefix", prefix,
            "--log-level=*:warning", "-l", str(lcore),
            "--vdev", "net_memif0,role=%s,socket=%s-0.sock" % (role, base),
            "--vdev", "net_memif1,role=%s,socket=%s-1.sock" % (role, base)]


def stop(proc, sig=signal.SIGTERM):
    if proc.poll() is None:
        proc.send_signal(sig)
    try:
        return proc.wait(timeout=WAIT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return "timed out"


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
            want = "generator" if above["generator_limited"] else "device"
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
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=1")
    with tempfile.TemporaryDirectory(prefix="lsk-gen-search-") as work:
        base = "/tmp/lsk-gen-search-%d" % os.getpid()
        cfg = os.path.join(work, "dut.conf")
        gen_cmd = ([bench] + eal("lsk-gs-gen-%d" % os.getpid(), 0, "server",
                                 base) +
                   ["--", "--generate", "--linger", "60", "--wait", "30",
                    "--drain", "2",
                    "--dut-config", cfg, "--search", "ndr", "--sizes", "64",
                    "--trial", "0.1", "--resolution", "1%",
                    "--latency-seconds", "0.1", "--device", "listack-fwd",
                    "--json", os.path.join(work, "r.json"),
                    "--plot", os.path.join(work, "r.svg")])
        gen_out = open(os.path.join(work, "gen.out"), "w+")
        fwd_out = open(os.path.join(work, "fwd.out"), "w+")
        gen = subprocess.Popen(gen_cmd, stdout=gen_out,
                               stderr=subprocess.STDOUT, env=env,
                               start_new_session=True)
        end = time.monotonic() + WAIT
        while gen.poll() is None and time.monotonic() < end:
            gen_out.seek(0)
            if "waiting for the link" in gen_out.read() and \
                    os.path.exists(cfg):
                break
            time.sleep(0.05)
        fwd_cmd = ([fwd] + eal("lsk-gs-fwd-%d" % os.getpid(), 1, "client",
                               base) +
                   ["--", "--config", cfg, "--mode", "list",
                    "--ctl-socket", "none"])
        fwd_p = subprocess.Popen(fwd_cmd, stdout=fwd_out,
                                 stderr=subprocess.STDOUT, env=env,
                                 start_new_session=True)
        # the device stops first, while the generator lingers (a memif
        # client whose server goes away under it may fault in the PMD)
        end = time.monotonic() + WAIT
        while gen.poll() is None and time.monotonic() < end:
            gen_out.seek(0)
            if "generator: done" in gen_out.read():
                break
            time.sleep(0.05)
        fwd_rc = stop(fwd_p)
        gen_rc = stop(gen)
        logs = []
        for f in (gen_out, fwd_out):
            f.seek(0)
            logs.append(f.read())
            f.close()
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
