#!/usr/bin/python3
"""listack-bench --generate against listack-fwd over memif.

    /usr/bin/python3 tests/bench/test_gen_fwd.py build/bench/listack-bench build/listack-fwd

The generator (memif servers, CPU 0) writes the listack configuration it
prints (--dut-config: addresses, the route to 198.18.1.0/24, a static
neighbour for the gateway on the generator's MAC); listack-fwd (memif
clients, CPU 1) runs it. A trial at a low rate must come back whole:
no loss, nothing refused, reordered, duplicated or foreign, one latency
sample per frame with min <= p50 <= p90 <= p99 <= p99.9 <= max and max
under two minutes (longer than the run: a misread stamp, not a timing
figure). The drain lasts
until nothing came for 1 s (--drain 10), so that a listack-fwd that
loses its CPU on a busy machine still hands back every frame. listack-fwd must
have forwarded every frame (ForwDatagrams counts the generator's probes
too), counted no checksum or header error (the frames' checksums are
valid), and end with mbufs_in_use == 0 after SIGTERM. One case leaves
the static neighbour out: listack-fwd resolves the gateway by ARP and the
generator answers.

Output: `PASS name` / `FAIL name: reason`; exit 1 if any failed.
"""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genpair  # noqa: E402


def run_case(bench, fwd, work, name, gen_args, mode, static_neigh):
    c = genpair.case(bench, work, name, "gen-fwd", ["--wait", "60"] + gen_args)
    conf, gen_json, stats = c["conf"], c["gen_json"], c["stats"]
    fwd_cmd = ([fwd] + genpair.eal("lsk-fwd-" + c["tag"], 1, "client",
                                   c["base"], 512) +
               ["--", "--config", conf, "--mode", mode, "--ctl-socket",
                "none", "--stats-json", stats])

    def drop_neigh():
        # listack-fwd resolves the gateway by ARP; the generator answers
        with open(conf) as f:
            text = f.read()
        with open(conf, "w") as f:
            f.write("".join(l for l in text.splitlines(True)
                            if not l.startswith("neigh add")))

    why, gen_rc, fwd_rc, logs = genpair.run(
        work, name, c["gen_cmd"], fwd_cmd,
        before_device=None if static_neigh else drop_neigh)
    if why:
        return why, logs
    why = []
    if gen_rc != 0:
        why.append("generator exit %s" % gen_rc)
    if fwd_rc != 0:
        why.append("listack-fwd exit %s" % fwd_rc)
    got = genpair.results(gen_json, stats, why)
    if got is None:
        return why, logs
    g, s = got
    lat = g["latency_ns"]
    checks = [
        ("lost", g["lost"], 0),
        ("refused", g["refused"], 0),
        ("reordered", g["reordered"], 0),
        ("duplicates", g["duplicates"], 0),
        # frames of the --wait probes that came back late are stale
        # (counted foreign, not the trial's); nothing else may be
        ("foreign but stale", g["foreign"] - g["stale"], 0),
        ("received", g["received"], g["sent"]),
        ("flows_with_loss", g["flows_with_loss"], 0),
        ("latency samples", lat["samples"], g["received"]),
        ("ip.InHdrErrors", s["ip"]["InHdrErrors"], 0),
        ("ip.InCsumErrors", s["ip"]["InCsumErrors"], 0),
        ("eth.NotForUs", s["eth"]["NotForUs"], 0),
        ("mbufs_in_use", s["mbufs_in_use"], 0),
    ]
    for what, got, want in checks:
        if got != want:
            why.append("%s: %s, not %s" % (what, got, want))
    if g["sent"] == 0:
        why.append("nothing was sent")
    if s["ip"]["ForwDatagrams"] < g["sent"]:
        why.append("ForwDatagrams %d < %d sent" % (s["ip"]["ForwDatagrams"],
                                                  g["sent"]))
    # packets waiting for the gateway's MAC may overflow their hold queue
    # (probes only: the trial starts once frames come back)
    if static_neigh and s["arp"]["UnresolvedDiscards"] != 0:
        why.append("arp.UnresolvedDiscards %d with a static neighbour"
                   % s["arp"]["UnresolvedDiscards"])
    if not static_neigh and s["arp"]["InReplies"] < 1:
        why.append("listack-fwd had no ARP reply from the generator")
    order = [lat[k] for k in ("min", "p50", "p90", "p99", "p99.9", "max")]
    # no frame can have been in flight longer than the whole run: a
    # larger figure is a stamp misread, not a slow device
    if not (0 < order[0] and order == sorted(order) and order[-1] < 120e9):
        why.append("latency not sane: %s" % order)
    return why, logs


CASES = [
    ("64b-list", ["--rate", "2k", "--seconds", "1", "--flows", "16"],
     "list", True),
    ("imix-single", ["--rate", "2k", "--seconds", "1", "--flows", "100",
                     "--size", "imix"], "single", True),
    # no static neighbour: the gateway's MAC comes from the generator's
    # ARP reply (during --wait's probes, which are not the trial's)
    ("arp", ["--rate", "2k", "--seconds", "0.5", "--flows", "4"], "list",
     False),
]


def main():
    bench, fwd = sys.argv[1], sys.argv[2]
    verbose = "-v" in sys.argv
    failed = 0
    with tempfile.TemporaryDirectory(prefix="lsk-gen-fwd-") as work:
        for name, gen_args, mode, static_neigh in CASES:
            why, logs = run_case(bench, fwd, work, name, gen_args, mode,
                                 static_neigh)
            if why:
                failed += 1
                print("FAIL %s: %s" % (name, "; ".join(why)))
                print("--- generator:\n%s--- listack-fwd:\n%s" % tuple(logs))
            else:
                print("PASS %s" % name)
                if verbose:
                    print(logs[0])
    print("%d passed, %d failed" % (len(CASES) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
