#!/usr/bin/python3
"""listack-fwd tells systemd when it is ready and when it stops.

    /usr/bin/python3 tests/integration/test_notify.py build/listack-fwd build/listack-ctl [-v]

As systemd does for a Type=notify service (config/listack.service.in), the
test binds a datagram socket and gives its path to listack-fwd in
$NOTIFY_SOCKET. listack-fwd runs on the pcap fixture of lsk.py with a
worker lcore. Its first message must be READY=1, with a STATUS line
naming its ports; when it comes the ports are up and the config applied:
listack-ctl answers at once and shows the fixture's addresses. SIGHUP
(systemctl reload) brings RELOADING=1, then READY=1 once the file is
reloaded. Then SIGTERM: STOPPING=1 comes, then the exit, 0, with mbufs_in_use == 0.
A run without $NOTIFY_SOCKET starts and stops as always (nothing is
sent anywhere).

Output: `PASS name` / `FAIL name: reason` per check, then `N passed, N
failed`; exit status 1 if any failed.
"""

import os
import signal
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsk  # noqa: E402
from lsk import Ctl, Fwd, check  # noqa: E402

WAIT = 30


def receive(sock, until):
    """The next notification (a dict of its lines), None at until."""
    while time.monotonic() < until:
        sock.settimeout(max(0.05, until - time.monotonic()))
        try:
            data = sock.recv(4096)
        except socket.timeout:
            return None
        fields = {}
        for line in data.decode().split("\n"):
            if "=" in line:
                k, v = line.split("=", 1)
                fields[k] = v
        return fields
    return None


def run_notified(fwd_bin, ctl_bin, root):
    path = os.path.join(root, "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    os.environ["NOTIFY_SOCKET"] = path
    try:
        fwd = Fwd(fwd_bin, os.path.join(root, "notified"),
                  os.path.join(root, "notified", "ctl.sock"), lcores="0,1")
    finally:
        del os.environ["NOTIFY_SOCKET"]
    try:
        first = receive(sock, time.monotonic() + WAIT)
        check("READY=1 is the first message",
              [] if first and first.get("READY") == "1"
              else "got %r (stderr: %s)" % (first, fwd.stderr()[-300:]))
        check("READY=1 comes with a STATUS naming the ports and workers",
              [] if first and first.get("STATUS") ==
              "forwarding: 2 ports, 1 workers"
              else "STATUS %r" % ((first or {}).get("STATUS"),))
        r = Ctl(ctl_bin, fwd.sock).run("show", "addresses")
        check("at READY=1 the config is applied and listack-ctl answers",
              [] if r.returncode == 0 and "10.0.0.254" in r.stdout and
              "10.0.1.254" in r.stdout
              else "rc %d: %s%s" % (r.returncode, r.stdout, r.stderr))
        # systemctl reload (ExecReload: SIGHUP) waits for READY=1 again
        fwd.proc.send_signal(signal.SIGHUP)
        reloading = receive(sock, time.monotonic() + WAIT)
        again = receive(sock, time.monotonic() + WAIT)
        check("SIGHUP: RELOADING=1, then READY=1 once reloaded",
              [] if reloading and reloading.get("RELOADING") == "1" and
              again and again.get("READY") == "1"
              else "got %r, %r" % (reloading, again))
        fwd.proc.send_signal(signal.SIGTERM)
        second = receive(sock, time.monotonic() + WAIT)
        check("SIGTERM: STOPPING=1",
              [] if second and second.get("STOPPING") == "1"
              else "got %r" % (second,))
        rc = fwd.stop()
        st = fwd.stats()
        check("notified run: exit 0, mbufs_in_use 0",
              [] if rc == 0 and st.get("mbufs_in_use") == 0
              else "exit %s, mbufs_in_use %s" % (rc, st.get("mbufs_in_use")))
        check("nothing more is sent after STOPPING=1",
              [] if receive(sock, time.monotonic() + 0.2) is None
              else "a message after STOPPING=1")
    finally:
        fwd.kill()
        sock.close()


def run_unnotified(fwd_bin, ctl_bin, root):
    os.environ.pop("NOTIFY_SOCKET", None)
    fwd = Fwd(fwd_bin, os.path.join(root, "plain"),
              os.path.join(root, "plain", "ctl.sock"))
    try:
        ready = fwd.wait_ready()
        rc = fwd.stop()
        st = fwd.stats() if ready else {}
        check("without NOTIFY_SOCKET: starts, exit 0, mbufs_in_use 0",
              [] if ready and rc == 0 and st.get("mbufs_in_use") == 0
              else "ready %s, exit %s, stderr %s"
              % (ready, rc, fwd.stderr()[-300:]))
    finally:
        fwd.kill()


def main():
    args = lsk.ctl_args(__doc__).parse_args()
    lsk.VERBOSE = args.v
    return lsk.run_in_workdir(args, "lsk-notify-",
                              [run_notified, run_unnotified])


if __name__ == "__main__":
    sys.exit(main())
