#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run a DPDK application and measure what one port transmits.

    bench/ethdev-rate.py [--port 1] [--warmup 0.5] [--seconds 2]
                         [--cpu] [--json FILE] [--start-timeout S]
                         [--at-end SHELL-CMD] -- CMD...

CMD must give EAL a --file-prefix (its telemetry socket is found under
/var/run/dpdk/PREFIX/). The rate is read from DPDK telemetry
(/ethdev/stats,PORT opackets) over the interval after the warm-up; the
application is then stopped with SIGINT. The interval starts --warmup
seconds after the port's first packet out (not after start-up, which a
large mbuf pool or a pcap file can make long). cycles/packet is TSC cycles of
one forwarding core over the packets it forwarded (pass --ghz, which
listack-bench prints as "TSC ... GHz").

--cpu also reads the CPU time each of the application's threads got over
the interval (/proc/PID/task/*/stat) and prints the forwarded packets per
second of CPU time given to its lcore worker threads (EAL names them
rte-worker-N; with none, the busiest thread): on a machine shared with other work, a worker that lost its
CPU to another process shows here, not as a slower stack. --json FILE
writes the figures (and each thread's CPU seconds) as one object.
--start-timeout S (default 30) is how long the application may take to
send its first packet (a 1M-route table loads for a minute on a busy
machine). --at-end runs a shell command after the interval, while the
application still runs (e.g. `listack-ctl -s SOCK show runtime`); its
output goes to the JSON's "at_end". "start_seconds" is the time from the
launch to the first packet out (the table's load, for a large one).

Used to put DPDK's l3fwd next to listack-bench on the same pcap feed (the
bench prints the l3fwd command line); see bench/RESULTS.md.
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time


def telemetry(path, cmd):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect(path)
    s.recv(16384)  # greeting
    s.send(cmd.encode())
    reply = json.loads(s.recv(1 << 20))
    s.close()
    return reply


def thread_cpu(pid):
    """{thread name (tid): CPU seconds} of every thread of pid."""
    hz = os.sysconf("SC_CLK_TCK")
    out = {}
    tdir = "/proc/%d/task" % pid
    for tid in os.listdir(tdir):
        try:
            with open("%s/%s/stat" % (tdir, tid)) as f:
                st = f.read()
        except OSError:
            continue
        name = st[st.index("(") + 1:st.rindex(")")]
        fields = st[st.rindex(")") + 2:].split()
        out["%s (%s)" % (name, tid)] = (int(fields[11]) + int(fields[12])) / hz
    return out


def file_prefix(cmd):
    for i, a in enumerate(cmd):
        if a == "--file-prefix" and i + 1 < len(cmd):
            return cmd[i + 1]
        if a.startswith("--file-prefix="):
            return a.split("=", 1)[1]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=1)
    ap.add_argument("--warmup", type=float, default=0.5)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--ghz", type=float, default=0.0,
                    help="TSC GHz, for cycles/packet")
    ap.add_argument("--cpu", action="store_true",
                    help="CPU time of the lcore workers over the interval")
    ap.add_argument("--json", help="write the figures to this file")
    ap.add_argument("--start-timeout", type=float, default=30.0)
    ap.add_argument("--at-end", help="shell command run before the stop")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    prefix = file_prefix(cmd)
    if not cmd or prefix is None:
        ap.error("give the command after --, with an EAL --file-prefix")
    sock = "/var/run/dpdk/%s/dpdk_telemetry.v2" % prefix
    log = open("%s.log" % prefix, "w")
    launched = time.monotonic()
    app = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + a.start_timeout
        while not os.path.exists(sock):
            if app.poll() is not None or time.monotonic() > deadline:
                sys.exit("%s did not start: see %s.log" % (cmd[0], prefix))
            time.sleep(0.05)
        # the socket is there from rte_eal_init on, before the
        # application has set up and started its ports: wait for the
        # first packet out, then warm up
        q = "/ethdev/stats,%d" % a.port
        while True:
            if app.poll() is not None or time.monotonic() > deadline:
                sys.exit("%s sent nothing on port %d: see %s.log"
                         % (cmd[0], a.port, prefix))
            try:
                if telemetry(sock, q)["/ethdev/stats"]["opackets"] > 0:
                    started = time.monotonic() - launched
                    break
            except (OSError, KeyError, TypeError, ValueError):
                pass    # port not there yet
            time.sleep(0.05)
        time.sleep(a.warmup)
        t0 = time.monotonic()
        c0 = thread_cpu(app.pid) if a.cpu else {}
        p0 = telemetry(sock, q)["/ethdev/stats"]["opackets"]
        time.sleep(a.seconds)
        p1 = telemetry(sock, q)["/ethdev/stats"]["opackets"]
        c1 = thread_cpu(app.pid) if a.cpu else {}
        t1 = time.monotonic()
        if a.at_end:
            at_end = subprocess.run(a.at_end, shell=True, text=True,
                                    stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT).stdout
    finally:
        if app.poll() is None:
            app.send_signal(signal.SIGINT)
            try:
                app.wait(timeout=10)
            except subprocess.TimeoutExpired:
                app.kill()
                app.wait()
    pps = (p1 - p0) / (t1 - t0)
    line = "%s: %.3f Mpps on port %d (%d packets in %.2f s)" % (
        os.path.basename(cmd[0]), pps / 1e6, a.port, p1 - p0, t1 - t0)
    if a.ghz > 0 and pps > 0:
        line += ", %.1f cycles/packet" % (a.ghz * 1e9 / pps)
    res = {"command": cmd, "port": a.port, "packets": p1 - p0,
           "seconds": t1 - t0, "mpps": pps / 1e6, "start_seconds": started}
    if a.at_end:
        res["at_end"] = at_end
    if a.cpu:
        threads = {k: c1[k] - c0.get(k, 0.0) for k in c1}
        workers = [v for k, v in threads.items()
                   if k.startswith("rte-worker-")]
        if not workers and threads:
            # one lcore (l3fwd -l 1): the main thread forwards; the
            # busiest thread stands for it
            workers = [max(threads.values())]
        busy = sum(workers)
        res["threads_cpu_s"] = threads
        res["workers"] = len(workers)
        res["workers_cpu_s"] = busy
        res["workers_cpu_share"] = busy / (t1 - t0) / max(len(workers), 1)
        if busy > 0:
            res["mpps_per_worker_cpu_s"] = (p1 - p0) / busy / 1e6
            line += "; %d workers had %.0f %% of their CPUs, %.3f Mpps " \
                "per worker CPU-second" % (len(workers),
                                           100 * res["workers_cpu_share"],
                                           res["mpps_per_worker_cpu_s"])
    print(line)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
