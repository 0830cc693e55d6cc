#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""grout (github:DPDK/grout, built outside the tree) on bench/feed.sh's
pcap feed, measured as bench/ethdev-rate.py measures the others.

    bench/grout-rate.py --grout PATH [--grcli PATH] --pcap FILE
                        --conf FILE --out DIR [--seconds S]
                        [--warmup S] [--start-timeout S] [--mem MB]
                        [--json FILE] [--print]

grout cannot set a MAC on a net_pcap port and drops frames not sent to
its own: the feed's frames are rewritten to the MAC net_pcap gives the
first port, 02:70:63:61:70:00 (DIR/grout-FILE). The listack
configuration (--conf, bench/dut/traffic.py conf) becomes grcli commands
(DIR/grout.cli): net_pcap0 replaying the file forever and net_null1 as
ports p0 and p1, the addresses, the gateway as a static next hop, every
route via it. grout runs on CPU 1 alone (`taskset -c 1 grout -t -p`:
test mode, no hugepages; poll mode, no micro-sleeps): its control and
its datapath thread share the CPU, as listack-fwd's chores share its
worker's. grout turns DPDK telemetry off, so the rate is p1's
tx_good_packets from `grcli -j stats show hardware`, read --warmup
seconds after the first packet out and --seconds later; the CPU time of
grout's busiest thread over the same interval gives the CPU share.
`grcli stats show software` (its nodes' cycles a packet) goes to
DIR/grout-software.txt at the end. --print: write the files and print
the commands only. --json FILE: the figures, as ethdev-rate.py's.
"""
import argparse
import importlib.util
import json
import os
import struct
import subprocess
import sys
import time

PCAP_MAC = bytes.fromhex("027063617000")


def rewrite_pcap(src, dst):
    """Copy a pcap file with every frame's destination MAC set."""
    if os.path.exists(dst) and os.path.getmtime(dst) >= \
            os.path.getmtime(src):
        return
    with open(src, "rb") as f:
        data = bytearray(f.read())
    magic = data[:4]
    endian = "<" if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") \
        else ">"
    off = 24
    while off + 16 <= len(data):
        incl = struct.unpack_from(endian + "I", data, off + 8)[0]
        if incl >= 6 and off + 16 + incl <= len(data):
            data[off + 16:off + 22] = PCAP_MAC
        off += 16 + incl
    with open(dst + ".tmp", "wb") as f:
        f.write(data)
    os.rename(dst + ".tmp", dst)


def grcli_commands(conf, pcap):
    """grcli commands for a listack configuration's addresses, neighbours
    and routes (bench/dut/traffic.py conf's lines)."""
    cmds = ["interface add port p0 devargs net_pcap0,rx_pcap=%s,"
            "infinite_rx=1" % pcap,
            "interface add port p1 devargs net_null1,no-rx=1"]
    routes = []
    for line in open(conf):
        w = line.split()
        if len(w) >= 5 and w[:2] == ["address", "add"] and w[3] == "port":
            cmds.append("address add %s iface p%s" % (w[2], w[4]))
        elif len(w) >= 5 and w[:2] == ["neigh", "add"] and w[3] == "lladdr":
            # the gateway is on port 1 in traffic.py's addressing
            cmds.append("nexthop add l3 iface p1 address %s mac %s"
                        % (w[2], w[4]))
        elif len(w) >= 5 and w[:2] == ["route", "add"] and w[3] == "via":
            routes.append("route add %s via %s" % (w[2], w[4]))
    if len(routes) > 65536:
        # room in the main VRF's RIB (grout's smoke/fib4_fullview test)
        cmds.append("interface set vrf main rib4-routes %d"
                    % (len(routes) + 16))
    return cmds + routes


# bench/ethdev-rate.py's per-thread CPU reader
_spec = importlib.util.spec_from_file_location(
    "ethdev_rate", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "ethdev-rate.py"))
ethdev_rate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ethdev_rate)
thread_cpu = ethdev_rate.thread_cpu


def tx_packets(grcli, sock):
    r = subprocess.run([grcli, "-s", sock, "-j", "-p", "stats", "show",
                        "hardware"], capture_output=True, text=True,
                       timeout=30)
    if r.returncode != 0:
        raise RuntimeError("grcli stats show hardware: %s" % r.stderr)
    stats = json.loads(r.stdout)
    for key in ("p1.tx_good_packets", "p1.tx_packets"):
        if key in stats:
            return int(stats[key])
    raise RuntimeError("no p1.tx_good_packets in %s" % sorted(stats))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grout", required=True)
    ap.add_argument("--grcli")
    ap.add_argument("--pcap", required=True)
    ap.add_argument("--conf", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seconds", type=float, default=3)
    ap.add_argument("--warmup", type=float, default=0.5)
    ap.add_argument("--start-timeout", type=float, default=30)
    ap.add_argument("--mem", type=int, default=0)
    ap.add_argument("--json")
    ap.add_argument("--print", action="store_true")
    a = ap.parse_args()
    grcli = a.grcli or os.path.join(os.path.dirname(a.grout), "grcli")
    out = os.path.abspath(a.out)
    pcap = os.path.join(out, "grout-" + os.path.basename(a.pcap))
    rewrite_pcap(a.pcap, pcap)
    cli = os.path.join(out, "grout.cli")
    with open(cli, "w") as f:
        f.write("\n".join(grcli_commands(a.conf, pcap)) + "\n")
    sock = os.path.join(out, "grout.sock")
    cmd = ["taskset", "-c", "1", a.grout, "-t", "-p", "-s", sock]
    if a.mem:
        cmd += ["--", "-m", str(a.mem)]
    setup = [grcli, "-s", sock, "-e", "-f", cli]
    if a.print:
        print(" ".join(cmd))
        print(" ".join(setup))
        return 0
    for p in (a.grout, grcli):
        if not os.access(p, os.X_OK):
            sys.exit("grout-rate.py: no %s" % p)
    if os.path.exists(sock):
        os.unlink(sock)
    log = open(os.path.join(out, "grout.log"), "w")
    t_launch = time.monotonic()
    app = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    try:
        while not os.path.exists(sock):
            if app.poll() is not None or \
                    time.monotonic() - t_launch > a.start_timeout:
                sys.exit("grout-rate.py: grout did not open %s (see %s)"
                         % (sock, log.name))
            time.sleep(0.1)
        r = subprocess.run(setup, capture_output=True, text=True,
                           timeout=60 + a.start_timeout)
        if r.returncode != 0:
            sys.exit("grout-rate.py: %s: %s%s" % (" ".join(setup), r.stdout,
                                                  r.stderr))
        while tx_packets(grcli, sock) == 0:
            if app.poll() is not None or \
                    time.monotonic() - t_launch > a.start_timeout:
                sys.exit("grout-rate.py: grout sent nothing in %.0f s"
                         % a.start_timeout)
            time.sleep(0.1)
        started = time.monotonic() - t_launch
        time.sleep(a.warmup)
        t0 = time.monotonic()
        c0 = thread_cpu(app.pid)
        p0 = tx_packets(grcli, sock)
        time.sleep(a.seconds)
        p1 = tx_packets(grcli, sock)
        c1 = thread_cpu(app.pid)
        t1 = time.monotonic()
        with open(os.path.join(out, "grout-software.txt"), "w") as f:
            subprocess.run([grcli, "-s", sock, "-p", "stats", "show",
                            "software"], stdout=f, stderr=subprocess.STDOUT,
                           timeout=30)
    finally:
        app.terminate()  # SIGTERM (a no-op once it exited), then SIGKILL
        try:
            app.wait(timeout=10)
        except subprocess.TimeoutExpired:
            app.kill()
    app.wait()
    threads = {k: c1[k] - c0.get(k, 0.0) for k in c1}
    busy = max(threads.values()) if threads else 0.0
    pps = (p1 - p0) / (t1 - t0)
    res = {"command": cmd, "port": 1, "packets": p1 - p0,
           "seconds": t1 - t0, "mpps": pps / 1e6, "start_seconds": started,
           "threads_cpu_s": threads, "workers": 1, "workers_cpu_s": busy,
           "workers_cpu_share": busy / (t1 - t0)}
    line = "grout: %.3f Mpps on p1 (%d packets in %.2f s)" % (
        pps / 1e6, p1 - p0, t1 - t0)
    if busy > 0:
        res["mpps_per_worker_cpu_s"] = (p1 - p0) / busy / 1e6
        line += "; its busiest thread had %.0f %% of a CPU, %.3f Mpps per " \
            "CPU-second" % (100 * res["workers_cpu_share"],
                            res["mpps_per_worker_cpu_s"])
    if a.json:
        with open(a.json, "w") as f:
            f.write(json.dumps(res, indent=1) + "\n")
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
