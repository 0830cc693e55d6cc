#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The device's side of bench/pktgen/run.sh, and the report.

    bench/pktgen/counters.py watch OUT DUT-SOCKET GEN-SOCKET DUT-PID GEN-PID
                             [--timeout S] [--ack-after FILE]
    bench/pktgen/counters.py report OUT [DEVICE]

watch: waits for the files bench/pktgen/fwd.lua writes in OUT and reads
the ethdev counters of both the device and pktgen over DPDK telemetry
(/ethdev/stats,0 and ,1; the two sockets) at each: window-start,
window-end (both sides' rates over one interval by one clock), stopped
(the final counters, pktgen idle for 2 s); it then writes the readings to
OUT/device.json and OUT/ack, which lets pktgen quit (with --ack-after
FILE, only once FILE exists: run.sh stops the device first, a memif
client that may fault when its server goes away, whose ports count
nothing once it has gone). At the window's
bounds it also reads the CPU time of each thread of both processes
(/proc/PID/task): on a shared machine the report says what share of a
CPU each side's busiest thread (its forwarding or generating lcore) had.

report: reads OUT/result.json (pktgen), OUT/device.json and OUT/stats.json
(the device's --stats-json, written at its exit; DEVICE, its name in the
report, is listack-fwd or listack-bench), prints a table of both
sides' figures and checks that they agree. "Agree" means exact equality
of counters both sides read after the stop, when nothing is in flight:
  - pktgen port 0 opackets == device port 0 ipackets + imissed + ierrors
    (what was sent is what the device was handed);
  - device port 1 opackets == pktgen port 1 ipackets + imissed + ierrors
    (what came back is what the device sent);
  - the device's own counters: its port 0 rx == ethdev ipackets, port 1
    tx == ethdev opackets, ip.ForwDatagrams == port 1 tx + tx_dropped;
  - lost (sent - received) == what the device dropped at RX (port 0
    imissed + ierrors), in its stack (port 0 rx - ForwDatagrams; the
    report names its ip/eth counters that are not 0), at TX (port 1
    tx_dropped), and pktgen's port 1 imissed + ierrors + rx_nombuf;
    mbufs_in_use == 0 at exit;
  - listack-bench --feed ports also writes its ports' ethdev counters at
    its exit ("ethdev"): port 0 ipackets and port 1 opackets must be what
    telemetry read after the stop (nothing moved in between).
Exit status 1 if any check fails (each is printed).
"""
import importlib.util
import json
import os
import sys
import time


# bench/ethdev-rate.py's telemetry client and per-thread CPU reader
_spec = importlib.util.spec_from_file_location(
    "ethdev_rate", os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "ethdev-rate.py"))
ethdev_rate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ethdev_rate)
telemetry = ethdev_rate.telemetry
thread_cpu = ethdev_rate.thread_cpu  # {"name (tid)": CPU seconds}


def ports(path):
    return [telemetry(path, "/ethdev/stats,%d" % p)["/ethdev/stats"]
            for p in (0, 1)]


def watch(out, sock, gen_sock, pids, timeout, ack_after=None):
    got = {}
    deadline = time.monotonic() + timeout
    for phase in ("window-start", "window-end", "stopped"):
        while not os.path.exists(os.path.join(out, phase)):
            if time.monotonic() > deadline or \
                    os.path.exists(os.path.join(out, "result.json")) and \
                    phase != "stopped" and "error" in \
                    json.load(open(os.path.join(out, "result.json"))):
                print("counters.py: no %s from pktgen" % phase,
                      file=sys.stderr)
                return 1
            time.sleep(0.02)
        got[phase] = {"t": time.monotonic(), "ports": ports(sock),
                      "gen": ports(gen_sock),
                      "cpu": [thread_cpu(p) for p in pids]}
    path = os.path.join(out, "device.json")
    with open(path + ".tmp", "w") as f:
        json.dump(got, f)
    os.rename(path + ".tmp", path)
    while ack_after and not os.path.exists(ack_after):
        if time.monotonic() > deadline:
            print("counters.py: no %s" % ack_after, file=sys.stderr)
            return 1
        time.sleep(0.02)
    open(os.path.join(out, "ack"), "w").close()
    return 0


def report(out, dev="listack-fwd"):
    def load(name):
        with open(os.path.join(out, name)) as f:
            return json.load(f)
    g, d, s = load("result.json"), load("device.json"), load("stats.json")
    if "error" in g:
        print("pktgen: " + g["error"])
        return 1
    gf, df = g["final"], d["stopped"]["ports"]
    secs = d["window-end"]["t"] - d["window-start"]["t"]
    w0, w1 = d["window-start"]["ports"], d["window-end"]["ports"]
    dev_rx = (w1[0]["ipackets"] - w0[0]["ipackets"]) / secs / 1e6
    dev_tx = (w1[1]["opackets"] - w0[1]["opackets"]) / secs / 1e6
    # pktgen's ethdev counters, read in the same instants
    v0, v1 = d["window-start"]["gen"], d["window-end"]["gen"]
    gw = (v1[0]["opackets"] - v0[0]["opackets"],
          v1[1]["ipackets"] - v0[1]["ipackets"])
    gen_tx, gen_rx = gw[0] / secs / 1e6, gw[1] / secs / 1e6
    # and its own display's per-second rates
    own_tx = sum(g["tx_per_s"]) / len(g["tx_per_s"]) / 1e6
    own_rx = sum(g["rx_per_s"]) / len(g["rx_per_s"]) / 1e6
    sent, received = gf[0]["opackets"], gf[1]["ipackets"]
    ip, sp = s["ip"], s["ports"]
    # where the lost frames went: the device's RX (ethdev imissed and
    # ierrors), its stack (received but not forwarded: the reasons are
    # its ip/eth counters), its TX (tx_dropped), pktgen's RX
    at_rx = df[0]["imissed"] + df[0]["ierrors"]
    in_stack = sp[0]["rx"] - ip["ForwDatagrams"]
    at_tx = sp[1]["tx_dropped"]
    reasons = ["%s.%s %d" % (k, n, v) for k in ("ip", "eth")
               for n, v in sorted(s[k].items())
               if v and n not in ("InReceives", "ForwDatagrams", "InFrames")]
    dev_drops = at_rx + in_stack + at_tx
    gen_drops = gf[1]["imissed"] + gf[1]["ierrors"] + gf[1]["rx_nombuf"]
    print("pktgen -> " + dev + " -> pktgen over memif, %d B, rate %d %%, "
          "%d s window" % (g["size"], g["rate"], g["seconds"]))
    print()
    # CPU share of each side's busiest thread over the window
    c0 = d["window-start"].get("cpu", [{}, {}])
    c1 = d["window-end"].get("cpu", [{}, {}])
    share = [max([c1[i][t] - c0[i].get(t, 0.0) for t in c1[i]] or [0.0]) /
             secs for i in (0, 1)]
    print("| side | sent Mpps | received Mpps | window packets sent / "
          "received | CPU share |")
    print("|---|---|---|---|---|")
    print("| pktgen (ethdev, telemetry) | %.2f | %.2f | %d / %d | %.0f %% |"
          % (gen_tx, gen_rx, gw[0], gw[1], 100 * share[1]))
    print("| %s (ethdev, telemetry) | %.2f | %.2f | %d / %d | "
          "%.0f %% |" % (dev, dev_tx, dev_rx, w1[1]["opackets"] -
                          w0[1]["opackets"], w1[0]["ipackets"] -
                          w0[0]["ipackets"], 100 * share[0]))
    print("| pktgen (its own per-second rates) | %.2f | %.2f | | |"
          % (own_tx, own_rx))
    print("\nthe window: %.2f s, both programs' counters read in the same "
          "instants (%s sent = its port 1 opackets, received = "
          "its port 0 ipackets)\n" % (secs, dev))
    print("after the stop: pktgen sent %d, received %d, lost %d; "
          "%s rx %d, forwarded %d, tx %d, drops %d, "
          "mbufs_in_use %d" % (sent, received, sent - received, dev,
                               sp[0]["rx"], ip["ForwDatagrams"], sp[1]["tx"],
                               dev_drops, s["mbufs_in_use"]))
    print("drops: device RX %d, stack %d (%s), device TX %d, pktgen RX %d\n"
          % (at_rx, in_stack, ", ".join(reasons) or "no reason counted",
             at_tx, gen_drops))
    checks = [
        ("pktgen port 0 opackets == device port 0 ipackets+imissed+ierrors",
         sent, df[0]["ipackets"] + df[0]["imissed"] + df[0]["ierrors"]),
        ("device port 1 opackets == pktgen port 1 ipackets+imissed+ierrors",
         df[1]["opackets"], received + gen_drops),
        ("device port 0 rx (its own) == ethdev ipackets",
         sp[0]["rx"], df[0]["ipackets"]),
        ("device port 1 tx (its own) == ethdev opackets",
         sp[1]["tx"], df[1]["opackets"]),
        ("ip.ForwDatagrams == port 1 tx + tx_dropped",
         ip["ForwDatagrams"], sp[1]["tx"] + sp[1]["tx_dropped"]),
        ("lost == device RX + stack + TX drops + pktgen RX drops",
         sent - received, dev_drops + gen_drops),
        ("mbufs_in_use", s["mbufs_in_use"], 0),
    ]
    if "ethdev" in s:
        checks += [
            ("device port 0 ipackets at its exit == after the stop",
             s["ethdev"][0]["ipackets"], df[0]["ipackets"]),
            ("device port 1 opackets at its exit == after the stop",
             s["ethdev"][1]["opackets"], df[1]["opackets"]),
        ]
    bad = 0
    for what, got, want in checks:
        ok = got == want
        bad += not ok
        print("%s %s: %d%s" % ("ok  " if ok else "FAIL", what, got,
                                "" if ok else " (want %d)" % want))
    if sent == 0:
        print("FAIL nothing was sent")
        bad += 1
    summary = {"size": g["size"], "rate": g["rate"],
               "pktgen_tx_mpps": gen_tx, "pktgen_rx_mpps": gen_rx,
               "pktgen_own_tx_mpps": own_tx, "pktgen_own_rx_mpps": own_rx,
               "window_s": secs, "dut_cpu_share": share[0],
               "pktgen_cpu_share": share[1],
               "dut_rx_mpps": dev_rx, "dut_tx_mpps": dev_tx, "sent": sent,
               "received": received, "device_drops": dev_drops,
               "agree": bad == 0}
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f)
    return 1 if bad else 0


def main(argv):
    if len(argv) in (6, 8, 10) and argv[0] == "watch":
        opts = dict(zip(argv[6::2], argv[7::2]))
        if set(opts) - {"--timeout", "--ack-after"}:
            print(__doc__.strip(), file=sys.stderr)
            return 2
        return watch(argv[1], argv[2], argv[3],
                     [int(argv[4]), int(argv[5])],
                     float(opts.get("--timeout", 600.0)),
                     opts.get("--ack-after"))
    if len(argv) in (2, 3) and argv[0] == "report":
        return report(*argv[1:])
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
