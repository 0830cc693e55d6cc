#!/usr/bin/python3
"""listack-bench --feed ports (bench/feed_ports.c) as the device under test
of listack-bench --generate over memif: what bench/pktgen/run.sh --dut
bench does with pktgen, with the bench's own generator, so CI checks the
feed without pktgen.

    /usr/bin/python3 tests/bench/test_bench_ports.py build/bench/listack-bench

The generator (memif servers, CPU 0; --wait 0: it sends nothing but its
trial) writes the device's configuration; the device (memif clients,
CPU 1, one lcore) forwards until the generator is done and SIGTERM stops
it, then writes --stats-json. The counts must agree exactly:
  - the generator's sent == the device's port 0 ipackets + imissed +
    ierrors (its ethdev counters, read before its ports stop);
  - the device's port 1 opackets == the generator's received + foreign
    (all it took on its RX port);
  - the stack's port 0 rx == ethdev ipackets, port 1 tx == opackets,
    ip.ForwDatagrams == port 1 tx + tx_dropped;
  - lost (sent - received) == the drops the device names (RX, stack, TX);
  - mbufs_in_use == 0; the report has the whole run's table.
A stop before the measured interval ends (more --packets than are sent)
fails the run (exit 1, "partial interval") and still counts every frame.
The bench refuses --feed ports without ports, --stats-json without
--feed ports, more than one variant, --repeat, a scenario that delivers.

Output: `PASS name` / `FAIL name: reason`; exit 1 if any failed.
"""

import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genpair  # noqa: E402


def agreement(g, s):
    """The checks of the module's docstring: a list of what differs."""
    eth, ports, ip = s["ethdev"], s["ports"], s["ip"]
    sent, received = g["sent"], g["received"]
    at_rx = eth[0]["imissed"] + eth[0]["ierrors"]
    in_stack = ports[0]["rx"] - ip["ForwDatagrams"]
    at_tx = ports[1]["tx_dropped"]
    checks = [
        ("sent == port 0 ipackets + imissed + ierrors", sent,
         eth[0]["ipackets"] + at_rx),
        ("port 1 opackets == received + foreign", eth[1]["opackets"],
         received + g["foreign"]),
        ("stack port 0 rx == ethdev ipackets", ports[0]["rx"],
         eth[0]["ipackets"]),
        ("stack port 1 tx == ethdev opackets", ports[1]["tx"],
         eth[1]["opackets"]),
        ("ip.ForwDatagrams == port 1 tx + tx_dropped", ip["ForwDatagrams"],
         ports[1]["tx"] + at_tx),
        ("lost == the device's named drops", sent - received,
         at_rx + in_stack + at_tx),
        ("mbufs_in_use", s["mbufs_in_use"], 0),
    ]
    why = ["%s: %s, not %s" % (w, got, want) for w, got, want in checks
           if got != want]
    if sent == 0:
        why.append("nothing was sent")
    return why


def run_case(bench, work, name, gen_args, dev_args, want_rc, want_text):
    c = genpair.case(bench, work, name, "bench-ports", ["--wait", "0"] +
                     gen_args)
    dev_cmd = ([bench] + genpair.eal("lsk-bpd-" + c["tag"], 1, "client",
                                     c["base"], 512) +
               ["--", "--scenario", "fwd", "--feed", "ports", "--config",
                c["conf"], "--warmup", "0", "--stats-json", c["stats"]] +
               dev_args)
    why, gen_rc, dev_rc, logs = genpair.run(work, name, c["gen_cmd"],
                                            dev_cmd)
    if why:
        return why, logs
    if gen_rc != 0:
        why.append("generator exit %s" % gen_rc)
    if dev_rc != want_rc:
        why.append("listack-bench exit %s, not %s" % (dev_rc, want_rc))
    for text in want_text + ["the whole run, from the ports' start",
                             "mbufs in use after closing the ports: 0"]:
        if text not in logs[1]:
            why.append("no '%s' in its output" % text)
    got = genpair.results(c["gen_json"], c["stats"], why)
    if got is None:
        return why, logs
    return why + agreement(*got), logs


CASES = [
    ("64b-list", ["--rate", "2k", "--seconds", "1", "--flows", "16"],
     ["--variant", "list", "--packets", "200"], 0,
     ["feed ports (the EAL's ports", "list ", " ok"]),
    # the baseline (single) when no --variant is given
    ("imix-baseline", ["--rate", "2k", "--seconds", "1", "--flows", "100",
                       "--size", "imix"],
     ["--packets", "200"], 0, ["single ", " ok"]),
    # SIGTERM before the interval's packets came: a failed run, and yet
    # every frame counted
    ("stopped-early", ["--rate", "2k", "--seconds", "0.5", "--flows", "4"],
     ["--variant", "list", "--packets", "1000000"], 1,
     ["interrupted: a partial interval"]),
]

REFUSED = [
    # (EAL ports?, options, what stderr says)
    (False, ["--scenario", "fwd", "--feed", "ports"],
     "--feed ports: give the ports on the EAL command line"),
    (False, ["--scenario", "fwd", "--stats-json", "/dev/null"],
     "--stats-json is the ports feed's"),
    (True, ["--scenario", "fwd", "--feed", "ports", "--variant",
            "list,single"], "runs one variant"),
    (True, ["--scenario", "fwd", "--feed", "ports", "--repeat", "2"],
     "no --repeat"),
    (True, ["--scenario", "udp-local", "--feed", "ports"],
     "does not forward"),
    (True, ["--scenario", "fwd", "--feed", "wire"],
     "is not ring, pcap or ports"),
    (True, ["--scenario", "fwd", "--feed", "ring"],
     "makes no feed (--feed ports"),
]


def test_refused(bench):
    why = []
    for i, (ports, args, msg) in enumerate(REFUSED):
        eal = ["--no-huge", "--no-pci", "-m", "256", "--no-shconf", "-l",
               "0", "--log-level=*:warning"]
        if ports:
            eal += ["--vdev", "net_null0", "--vdev", "net_null1"]
        r = subprocess.run([bench] + eal + ["--"] + args,
                           capture_output=True, text=True, timeout=120,
                           env=genpair.env())
        if r.returncode != 2 or msg not in r.stderr:
            why.append("%s: exit %d, stderr %r" % (" ".join(args),
                                                   r.returncode,
                                                   r.stderr[-300:]))
    return why


def main():
    bench = sys.argv[1]
    failed = 0
    why = test_refused(bench)
    print("%s refusals%s" % ("FAIL" if why else "PASS",
                             ": " + "; ".join(why) if why else ""))
    failed += bool(why)
    with tempfile.TemporaryDirectory(prefix="lsk-bench-ports-") as work:
        for name, gen_args, dev_args, rc, text in CASES:
            why, logs = run_case(bench, work, name, gen_args, dev_args, rc,
                                 text)
            if why:
                failed += 1
                print("FAIL %s: %s" % (name, "; ".join(why)))
                print("--- generator:\n%s--- listack-bench:\n%s"
                      % tuple(logs))
            else:
                print("PASS %s" % name)
    print("%d failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
