#!/usr/bin/python3
"""listack-bench gro-fwd and gro-adversarial on the pcap feed, a few packets.

    /usr/bin/python3 tests/bench/test_gro_pcap.py build/bench/listack-bench

The pcap feed replays the scenario's traffic with net_pcap on the worker's
lcore; an RX callback flags each frame's checksums as the sfc PMD does
(bench/rx_cksum.c). Each run must exit 0 (every forwarded packet it
spot-checked was right, no mbuf left in use, nothing dropped) and its JSON
must say: packets forwarded, mbufs_in_use 0, every frame the callback saw
flagged GOOD (the bench's frames are all valid); with fraglist GRO at one
flow, trains formed before eth_input (the run pass, which only takes
frames whose checksums the PMD vouched for: eth_input sees about one entry
per burst) and none with GRO off; without `off` among the variants run,
off+acl is the +acl variants' baseline (its ratio 1). Counts only, no
timing.

Output: `PASS name` / `FAIL name: reason`; exit 1 if any failed.
"""

import json
import os
import subprocess
import sys
import tempfile

CASES = [
    ("gro-fwd", ["--scenario", "gro-fwd", "--packets", "20000"]),
    ("gro-fwd-acl", ["--scenario", "gro-fwd", "--packets", "20000",
                     "--variant", "off+acl,fraglist+acl"]),
    ("gro-fwd-10-flows", ["--scenario", "gro-fwd", "--packets", "20000",
                          "--flows", "10"]),
    ("gro-adversarial", ["--scenario", "gro-adversarial", "--packets",
                         "20000", "--flows", "5000"]),
]


def stage(v, name):
    for s in v["stages"]:
        if s["name"] == name:
            return s
    raise KeyError(name)


def check_variant(case, v):
    why = []
    name = v["name"]
    if v["failed"]:
        why.append("%s failed" % name)
    if v["mbufs_in_use"] != 0:
        why.append("%s: %d mbufs in use" % (name, v["mbufs_in_use"]))
    if v["packets"] < 20000:
        why.append("%s: %d forwarded" % (name, v["packets"]))
    cb = v["rx_cksum_callback"]
    if cb["flagged_good"] != cb["packets"]:
        why.append("%s: the checksum callback flagged %d of %d frames "
                   "GOOD" % (name, cb["flagged_good"], cb["packets"]))
    # once per frame: what the interval received, give or take the
    # burst in flight at each snapshot (a callback left behind by an
    # earlier variant's port would count the frames again)
    if abs(cb["packets"] - v["packets"]) > 64:
        why.append("%s: the checksum callback saw %d frames, %d were "
                   "forwarded" % (name, cb["packets"], v["packets"]))
    sink = v["sink"]
    if abs(sink["packets"] - v["packets"]) > 64:
        why.append("%s: the sink took %d frames, %d were forwarded"
                   % (name, sink["packets"], v["packets"]))
    eth = stage(v, "eth_input")
    per_call = eth["packets"] / eth["calls"] if eth["calls"] else 0
    if name.startswith("off"):
        if v["gro_trains"] != 0:
            why.append("%s: %d gro trains" % (name, v["gro_trains"]))
    elif case == "gro-adversarial":
        if v["gro_trains"] != 0:
            why.append("%s: %d trains of traffic that has none"
                       % (name, v["gro_trains"]))
    elif name.startswith("fraglist"):
        if v["gro_trains"] == 0:
            why.append("%s: no gro train" % name)
        elif case != "gro-fwd-10-flows":
            per_train = v["gro_merged"] / v["gro_trains"]
            if per_train < 16:
                why.append("%s: %.1f datagrams merged a train at one flow"
                           % (name, per_train))
            if per_call > 2:
                why.append("%s: eth_input saw %.1f entries a call: the "
                           "run pass made no trains" % (name, per_call))
    return why


def main():
    bench = sys.argv[1]
    failed = 0
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=1")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    with tempfile.TemporaryDirectory(prefix="lsk-gro-pcap-") as work:
        for name, args in CASES:
            out = os.path.join(work, name + ".json")
            cmd = [bench, "--no-huge", "--no-pci", "-m", "1024",
                   "--no-shconf", "--log-level=*:warning", "-l", "0,1",
                   "--", "--feed", "pcap", "--warmup", "0",
                   "--pcap", os.path.join(work, name + ".pcap"),
                   "--json", out] + args
            r = subprocess.run(cmd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, env=env, timeout=300)
            text = r.stdout.decode(errors="replace")
            why = []
            if r.returncode != 0:
                why.append("exit %d" % r.returncode)
            if "WRONG OUTPUT" in text:
                why.append("WRONG OUTPUT")
            try:
                with open(out) as f:
                    variants = json.load(f)["variants"]
            except (OSError, ValueError, KeyError) as e:
                why.append("no results: %s" % e)
                variants = []
            if not variants:
                why.append("no variant ran")
            for v in variants:
                why += check_variant(name, v)
                # off not run: each X+acl is compared with off+acl
                if name == "gro-fwd-acl" and (
                        v["ratio"] is None or
                        (v["name"] == "off+acl" and v["ratio"] != 1.0)):
                    why.append("%s: ratio %s" % (v["name"], v["ratio"]))
            if why:
                failed += 1
                print("FAIL %s: %s" % (name, "; ".join(why)))
                print(text)
            else:
                print("PASS %s" % name)
    print("%d passed, %d failed" % (len(CASES) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
