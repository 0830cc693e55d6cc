#!/usr/bin/python3
"""dpdk-dumpcap attached to a running listack-fwd.

    /usr/bin/python3 tests/integration/test_dumpcap.py build/listack-fwd [-v]

dpdk-dumpcap is a secondary DPDK process: it needs hugepages (EAL has no
multi-process support without them) and a primary started with the same
--file-prefix that called rte_pdump_init. As root this makes 2 MiB
hugepages when too few are free (and mounts hugetlbfs when none is
mounted), starts listack-fwd with `--file-prefix lskdump-PID -m 256
--base-virtaddr BASE` on net_pcap ports replaying frames (infinite_rx),
and runs `dpdk-dumpcap -i 0` then `-i 1` for a bounded count: what port 0
received must be the frames fed, what port 1 sent the frames forwarded
from them.

A secondary maps the primary's memory at the primary's addresses. Left
to itself, an ASan-built primary puts it among the shared libraries
(ASan's shadow takes DPDK's default base), where a dpdk-dumpcap's own
libraries may sit at random: its EAL then fails. BASE is above ASan's
shadow and far below where libraries go, in every process.

A secondary that failed so (its EAL crashed in its cleanup) was once
seen to leave EAL's shared memory lock held, and listack-fwd then never
stopped: its rte_eal_cleanup waited for the lock. A dpdk-dumpcap made to
die holding that lock (dumpcap_die_locked.c, preloaded) comes last, and
listack-fwd must still stop on SIGTERM, exit 0 with mbufs_in_use == 0.
Its hugepage files are removed after; the pages themselves are left to
the system. Every wait is bounded.

Skipped (exit 77) when not root, when dpdk-dumpcap is missing, or when
hugepages cannot be had.
"""

import argparse
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsk  # noqa: E402
from lsk import check  # noqa: E402
from test_capture import read_pcapng  # noqa: E402

SKIP = 77
PAGES = "/sys/kernel/mm/hugepages/hugepages-2048kB"
WANT_FREE = 160         # -m 256 takes 128 pages, dumpcap its own pool
COUNT = 64
WAIT = 30
# where listack-fwd's EAL memory goes (--base-virtaddr): above ASan's high
# shadow (which ends at 0x10007fff8000), below executables (0x55...) and
# libraries (0x7f...)
BASE = 0x200000000000


def read_int(path):
    with open(path) as f:
        return int(f.read().strip())


def hugepages():
    """'' once enough 2 MiB pages are free and hugetlbfs is mounted, else
    why not."""
    try:
        free = read_int(os.path.join(PAGES, "free_hugepages"))
        if free < WANT_FREE:
            total = read_int(os.path.join(PAGES, "nr_hugepages"))
            with open(os.path.join(PAGES, "nr_hugepages"), "w") as f:
                f.write("%d\n" % (total + WANT_FREE - free))
            free = read_int(os.path.join(PAGES, "free_hugepages"))
        if free < WANT_FREE:
            return "only %d free 2 MiB hugepages" % free
    except OSError as e:
        return "no 2 MiB hugepages: %s" % e
    with open("/proc/mounts") as f:
        if any(line.split()[2] == "hugetlbfs" for line in f if line.split()):
            return ""
    os.makedirs("/dev/hugepages", exist_ok=True)
    r = subprocess.run(["mount", "-t", "hugetlbfs", "nodev", "/dev/hugepages"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return "" if r.returncode == 0 else "cannot mount hugetlbfs: %s" % r.stdout


def dumpcap(prefix, port, path, root, env=None):
    # in listack-fwd's directory: the secondary probes the same vdevs,
    # whose file names are relative
    return subprocess.run(["dpdk-dumpcap", "--file-prefix=%s" % prefix,
                           "-i", str(port), "-c", str(COUNT), "-w", path],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, timeout=WAIT, cwd=root,
                          env=env)


def die_locked(prefix, root):
    """A dpdk-dumpcap that attaches, takes EAL's shared memory lock and
    dies holding it (what happens to the primary is seen when it
    stops)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        print("SKIP dumpcap_dies_holding_lock: no C compiler for the shim")
        return
    shim = os.path.join(root, "die_locked.so")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "dumpcap_die_locked.c")
    reasons = []
    try:
        r = subprocess.run([cc, "-shared", "-fPIC", "-o", shim, src, "-ldl"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=WAIT)
        if r.returncode != 0:
            reasons.append("shim: %s" % r.stdout[-200:])
        else:
            r = dumpcap(prefix, 0, os.path.join(root, "locked.pcapng"),
                        root, dict(os.environ, LD_PRELOAD=shim))
            if r.returncode != 3 or "dying with it" not in r.stdout:
                reasons.append("dumpcap did not die holding the lock "
                               "(exit %d): %s" % (r.returncode,
                                                  r.stdout[-300:]))
    except subprocess.TimeoutExpired:
        reasons.append("did not end in %d s" % WAIT)
    check("dumpcap_dies_holding_lock", reasons)


def run(fwd_bin, root):
    frames = [lsk.frame(dst="10.9.%d.1" % i, tag="dump%d" % i,
                        plen=50 + 20 * i) for i in range(8)]
    out1 = set(lsk.forwarded(f, 1, lsk.B_MAC) for f in frames)
    lsk.write_pcap(os.path.join(root, "in0.pcap"), frames)
    lsk.write_pcap(os.path.join(root, "in1.pcap"), [])
    lsk.write_config(os.path.join(root, "test.conf"), lsk.fixture_conf())
    prefix = "lskdump-%d" % os.getpid()
    cmd = [fwd_bin, "--file-prefix", prefix, "-m", "256", "--no-pci",
           "--base-virtaddr", "0x%x" % BASE,
           "-l", "0,1", "--log-level=*:warning",
           "--vdev", "net_pcap0,rx_pcap=in0.pcap,tx_pcap=out0.pcap,"
           "infinite_rx=1",
           "--vdev", "net_pcap1,rx_pcap=in1.pcap,tx_pcap=out1.pcap",
           "--", "--config", "test.conf", "--stats-json", "stats.json",
           "--ctl-socket", "none"]
    out = open(os.path.join(root, "fwd.out"), "w")
    err = open(os.path.join(root, "fwd.err"), "w")
    proc = subprocess.Popen(cmd, cwd=root, stdout=out, stderr=err,
                            start_new_session=True)
    try:
        ready = False
        end = time.monotonic() + WAIT
        while time.monotonic() < end and proc.poll() is None:
            with open(os.path.join(root, "fwd.out")) as f:
                if "listack-fwd: 2 ports" in f.read():
                    ready = True
                    break
            time.sleep(0.1)
        with open(os.path.join(root, "fwd.err")) as f:
            fwd_err = f.read()
        check("fwd_starts_with_hugepages", "" if ready else
              "did not start: %s" % fwd_err[-300:])
        check("pdump_init", "" if "no capture by dpdk-dumpcap" not in fwd_err
              else fwd_err[-300:])
        if not ready:
            return
        for port, want, kind in ((0, set(frames), 1), (1, out1, 2)):
            path = os.path.join(root, "port%d.pcapng" % port)
            reasons = []
            try:
                r = dumpcap(prefix, port, path, root)
                if r.returncode != 0:
                    reasons.append("dumpcap exit %d: %s"
                                   % (r.returncode, r.stdout[-300:]))
                _, pkts = read_pcapng(path)
                if len(pkts) < COUNT:
                    reasons.append("%d packets of %d" % (len(pkts), COUNT))
                for i, p in enumerate(pkts):
                    if p["data"] not in want or p["flags"] != kind:
                        reasons.append("packet %d (flags %r) not %s: %s"
                                       % (i, p["flags"],
                                          "fed" if port == 0 else "sent",
                                          lsk.describe(p["data"])))
                        break
            except (OSError, ValueError, subprocess.TimeoutExpired) as e:
                reasons.append(str(e))
            check("dumpcap_port%d" % port, reasons)
        die_locked(prefix, root)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            rc = proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            rc = "killed after SIGTERM timed out"
            proc.wait()
        out.close()
        err.close()
        with open(os.path.join(root, "fwd.err")) as f:
            fwd_err = f.read()
        if "shutdown stuck" in fwd_err:
            print("listack-fwd's teardown was bounded: %s"
                  % fwd_err.strip().splitlines()[-1])
        for f in glob.glob("/dev/hugepages/%smap_*" % prefix):
            os.unlink(f)
        shutil.rmtree("/var/run/dpdk/%s" % prefix, ignore_errors=True)
    st = lsk.read_stats(os.path.join(root, "stats.json"))
    check("fwd_stops_clean", lsk.stop_reasons(rc, st))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fwd")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    if os.geteuid() != 0:
        print("SKIP: dpdk-dumpcap needs hugepages, which need root")
        return SKIP
    if shutil.which("dpdk-dumpcap") is None:
        print("SKIP: no dpdk-dumpcap (Debian's dpdk-dev package)")
        return SKIP
    why = hugepages()
    if why:
        print("SKIP: %s" % why)
        return SKIP
    root = tempfile.mkdtemp(prefix="lsk-dumpcap-")
    try:
        run(os.path.abspath(args.fwd), root)
    finally:
        status = lsk.finish(root, keep=args.v)
    return status


if __name__ == "__main__":
    sys.exit(main())
