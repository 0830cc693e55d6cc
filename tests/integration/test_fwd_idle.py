#!/usr/bin/python3
"""listack-fwd's main lcore sleeps while nothing needs it.

    /usr/bin/python3 tests/integration/test_fwd_idle.py build/listack-fwd

With a worker lcore, the main lcore only runs the services and the
clock checks (src/app/main.c, main_loop); where it shares a CPU with a
worker, each of its wake-ups is taken from that worker. listack-fwd runs
with two lcores on net_null ports that receive nothing and no service
bound; over 2 s the main thread's voluntary context switches (each one
a sleep) are counted from /proc. Its idle sleep grows to 1 ms, so it
wakes about 1000 times a second; a fixed 100 us sleep woke it 4000-9000
times. The bound, 2500 a second, counts wake-ups, not time: a loaded
machine makes sleeps longer and the count smaller, never larger. Then
SIGTERM: exit 0, mbufs_in_use 0.

Output: `PASS name` / `FAIL name: reason`; exit status 1 if any failed.
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

MAX_WAKEUPS_PER_S = 2500
SECONDS = 2.0


def ctxt(pid):
    with open("/proc/%d/status" % pid) as f:
        m = re.search(r"^voluntary_ctxt_switches:\s+(\d+)", f.read(), re.M)
    return int(m.group(1))


def main():
    fwd = sys.argv[1]
    failed = 0

    def check(name, ok, why=""):
        nonlocal failed
        print("PASS %s" % name if ok else "FAIL %s: %s" % (name, why))
        failed += 0 if ok else 1

    with tempfile.TemporaryDirectory(prefix="lsk-idle-") as d:
        conf = os.path.join(d, "fwd.conf")
        with open(conf, "w") as f:
            f.write("address add 10.0.0.1/24 port 0\n"
                    "address add 10.0.1.1/24 port 1\n")
        log = open(os.path.join(d, "fwd.log"), "w+")
        p = subprocess.Popen(
            [fwd, "-l", "0,1", "--no-huge", "--no-pci", "-m", "256",
             "--no-shconf", "--vdev", "net_null0,no-rx=1",
             "--vdev", "net_null1,no-rx=1", "--",
             "--config", conf, "--ctl-socket", "none"],
            stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 30
            started = False
            while time.monotonic() < deadline and p.poll() is None:
                log.seek(0)
                if re.search(r"^listack-fwd: 2 ports, 1 workers", log.read(),
                             re.M):
                    started = True
                    break
                time.sleep(0.05)
            check("starts with one worker", started, "see its output")
            if started:
                time.sleep(0.5)
                c0, t0 = ctxt(p.pid), time.monotonic()
                time.sleep(SECONDS)
                c1, t1 = ctxt(p.pid), time.monotonic()
                rate = (c1 - c0) / (t1 - t0)
                check("main lcore wakes at most %d times a second when idle"
                      % MAX_WAKEUPS_PER_S, rate <= MAX_WAKEUPS_PER_S,
                      "%.0f a second" % rate)
                check("main lcore still wakes (it serves and checks)",
                      rate >= 10, "%.0f a second" % rate)
        finally:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
            try:
                rc = p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                rc = p.wait()
        log.seek(0)
        out = log.read()
        check("exits 0 on SIGTERM", rc == 0, "exit %d" % rc)
        check("mbufs_in_use 0", re.search(r"^mbufs_in_use 0$", out, re.M)
              is not None, out[-300:])
    print("%d failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
