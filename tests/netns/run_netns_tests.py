#!/usr/bin/python3
"""Real-client tests of listack-fwd: Linux hosts in network namespaces use
listack-fwd as their router, with their own tools (ping, traceroute, UDP
sockets).

    /usr/bin/python3 tests/netns/run_netns_tests.py build/listack-fwd [build/listack-ctl] [-v] [--keep-logs]

Layout (names carry this process's pid, so parallel runs do not clash):

    netns lsk-cli-PID             root namespace                  netns lsk-srv-PID
    eth0 10.1.0.2/24  <-veth->  lskcPID  [listack-fwd]  lsksPID  <-veth->  eth0 10.2.0.2/24
    gw 10.1.0.1                  port 0     af_packet    port 1              gw 10.2.0.1

listack-fwd is configured with the two addresses, `port 1 mtu 1400`, the
echo service on 10.1.0.1:7 and no static neighbours: the hosts and the
router find each other with ARP. It runs twice on the same hosts:

1. net_af_packet ports (devargs of shared/notes/real-clients.md): ping of
   the router and through it, traceroute -U (time exceeded), UDP to a
   closed port (ECONNREFUSED), the echo service, UDP and UDP_SEGMENT to
   the server, ping -M do at and above the 1400 egress MTU (frag needed,
   the client learns the MTU); then the counters of --stats-json.
2. net_pcap ports (rx_iface_in/tx_iface on the same veths): large UDP with
   DF clear, sent as 1500-byte fragments (listack must fragment them to
   1400) and as 1400-byte fragments (forwarded as they are); the server
   must get the datagram whole. Not on af_packet: DPDK 22.11's af_packet
   PMD joins a PACKET_FANOUT group with PACKET_FANOUT_FLAG_DEFRAG, so the
   kernel reassembles IPv4 fragments before listack sees them and cuts the
   result to the 2 KiB ring frame (listack then counts InTruncatedPkts).
4. (with listack-ctl) net_af_packet ports again, changed while the hosts
   use them, through the control socket: `route del` of the route to a
   subnet behind the server (the client sees ICMP net unreachable), `route
   add` (pings come back), `address add` of a new subnet (answered by ARP
   and ping), `neigh flush` (resolved again), `udp listen` then `udp
   close` (echo, then port unreachable), `port 1 mtu` (the client is told
   the new MTU in frag needed).
3. net_tap ports with `gro fraglist`, the two tap devices moved into
   hosts of their own (same addresses): the tap PMD verifies checksums
   and flags them as a NIC does, so back-to-back datagrams of a
   UDP_SEGMENT send cross listack as trains; the server must get all 60
   whole and in order, and the gro/gso counters must show trains.

Output: one line per check, `PASS name` or `FAIL name: reason`, then
`N passed, N failed` as the last line; exit status 1 if any check failed.
Where namespaces cannot be made (not root, no `ip netns`, no veth) it prints
`SKIP netns: reason` and exits 77 (meson's skip code). Namespaces, veths
and listack-fwd are removed in a finally block (also on SIGTERM/SIGINT),
and every wait is bounded.

The script also runs inside the namespaces as its own helper
(`--helper NAME ...`, through `ip netns exec`): the UDP sockets of the
client and the server are plain Python sockets.
"""

import argparse
import errno
import hashlib
import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

SELF = os.path.abspath(__file__)
PY = "/usr/bin/python3"

CLIENT_IP = "10.1.0.2"
SERVER_IP = "10.2.0.2"
GW_CLIENT = "10.1.0.1"
GW_SERVER = "10.2.0.1"
BEHIND_IP = "10.3.0.2"     # run 4: an address behind the server (its lo)
BEHIND_NET = "10.3.0.0/24"
NEW_GW = "10.4.0.1"        # run 4: a subnet added live on port 0
NEW_HOST = "10.4.0.2"
LIVE_MTU = 1300            # run 4: port 1's MTU, changed live
EGRESS_MTU = 1400          # listack's MTU towards the server (port 1)

# listack-fwd's port on a kernel interface (the devargs of
# shared/notes/real-clients.md): AF_PACKET % (port, interface)
AF_PACKET = ("net_af_packet%d,iface=%s,qpairs=1,blocksz=4096,"
             "framesz=2048,framecnt=1024,qdisc_bypass=1")

SOL_UDP = 17
UDP_SEGMENT = 103
IP_MTU_DISCOVER = 10
IP_PMTUDISC_DONT = 0
IP_PMTUDISC_DO = 2


def payload(n, seed):
    """n bytes of a pattern that differs per seed and per offset."""
    return bytes(((i * 7 + (i >> 8) * 13 + seed * 31) & 0xFF) for i in range(n))


def digest(b):
    return hashlib.sha256(b).hexdigest()[:16]


# ======================================================================
# Helpers: run inside a namespace as `run_netns_tests.py --helper NAME`.
# Each prints one JSON object per line on stdout.


def out(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def udp_sink(family, sa, lifetime, src_text):
    """Print every datagram received on sa (a socket of family) for
    lifetime seconds, its source as src_text(address) says; ready
    first."""
    s = socket.socket(family, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.bind(sa)
    end = time.monotonic() + float(lifetime)
    out({"ready": True})
    while True:
        left = end - time.monotonic()
        if left <= 0:
            break
        s.settimeout(left)
        try:
            data, src = s.recvfrom(70000)
        except socket.timeout:
            break
        out({"len": len(data), "sha": digest(data), "src": src_text(src)})


def helper_udp_sink(addr, port, lifetime):
    """Print every datagram received on addr:port, for lifetime seconds."""
    udp_sink(socket.AF_INET, (addr, int(port)), lifetime,
             lambda src: "%s:%d" % src)


def helper_udp_send(dst, port, spec):
    """Send datagrams; spec is JSON: {"mode": ..., ...}; print what was sent."""
    spec = json.loads(spec)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    mode = spec["mode"]
    sent = []
    try:
        if mode == "plain":
            for i, n in enumerate(spec["sizes"]):
                b = payload(n, spec.get("seed", 0) + i)
                s.sendto(b, (dst, int(port)))
                sent.append({"len": n, "sha": digest(b)})
                time.sleep(0.02)
        elif mode == "gso":
            gso, n = spec["gso"], spec["len"]
            s.setsockopt(SOL_UDP, UDP_SEGMENT, gso)
            b = payload(n, spec.get("seed", 0))
            s.sendto(b, (dst, int(port)))
            for off in range(0, n, gso):
                seg = b[off:off + gso]
                sent.append({"len": len(seg), "sha": digest(seg)})
        elif mode == "dfclear":
            s.setsockopt(socket.IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_DONT)
            n = spec["len"]
            b = payload(n, spec.get("seed", 0))
            s.sendto(b, (dst, int(port)))
            sent.append({"len": n, "sha": digest(b)})
        else:
            raise ValueError("unknown mode " + mode)
        out({"sent": sent})
    except OSError as e:
        out({"error": "%s: %s" % (errno.errorcode.get(e.errno, e.errno), e)})


def helper_udp_closed(dst, port, wait):
    """connect + send + recv on a port with no listener: expect ECONNREFUSED."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.connect((dst, int(port)))
    s.settimeout(float(wait))
    try:
        s.send(b"is anybody there?")
        data = s.recv(2048)
        out({"result": "data", "len": len(data)})
    except ConnectionRefusedError:
        out({"result": "ECONNREFUSED"})
    except socket.timeout:
        out({"result": "timeout"})
    except OSError as e:
        out({"result": errno.errorcode.get(e.errno, str(e.errno))})


def helper_udp_echo(dst, port, wait, sizes):
    """Send payloads to an echo service, print what came back and from where."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", 0))
    res = []
    for i, n in enumerate(json.loads(sizes)):
        b = payload(n, 100 + i)
        s.sendto(b, (dst, int(port)))
        end = time.monotonic() + float(wait)
        r = {"len": n, "result": "timeout"}
        while True:
            left = end - time.monotonic()
            if left <= 0:
                break
            s.settimeout(left)
            try:
                data, src = s.recvfrom(70000)
            except socket.timeout:
                break
            except OSError as e:
                r = {"len": n, "result": errno.errorcode.get(e.errno, str(e))}
                break
            r = {"len": n, "src": "%s:%d" % src, "got": len(data),
                 "result": "ok" if data == b else "mismatch"}
            break
        res.append(r)
    out({"echo": res})


HELPERS = {
    "udp-sink": helper_udp_sink,
    "udp-send": helper_udp_send,
    "udp-closed": helper_udp_closed,
    "udp-echo": helper_udp_echo,
}


# ======================================================================
# The harness.


class Checks:
    """The checks of one run, shared by the netns scripts: each printed as
    it ends (`PASS name` or `FAIL name: reason`), a check that raises is
    a failed check, and the summary line and exit status at the end."""

    def __init__(self, verbose=False):
        self.results = []
        self.verbose = verbose
        self.t0 = time.monotonic()
        self.interrupted = False

    @staticmethod
    def catch_signals():
        """SIGTERM (meson's timeout) and SIGINT unwind through finally."""
        def on_signal(sig, _frame):
            raise KeyboardInterrupt("signal %d" % sig)
        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)

    def record(self, name, reason):
        self.results.append((name, reason))
        print(("PASS %s" % name) if reason is None else
              ("FAIL %s: %s" % (name, reason)), flush=True)

    def run(self, name, fn, *a):
        """Run check fn(*a) (None: passed, else the reason); True if it
        passed."""
        if self.verbose:
            print("-- %s (%.1f s)" % (name, time.monotonic() - self.t0),
                  flush=True)
        try:
            reason = fn(*a)
        except Exception as e:  # a broken check is a failed check
            reason = "%s: %s" % (type(e).__name__, e)
        self.record(name, reason)
        return reason is None

    def interrupt(self, e):
        self.interrupted = True
        self.record("interrupted", str(e) or "interrupted")

    def failed_any(self):
        return any(r is not None for _n, r in self.results)

    def summary(self):
        """Print `N passed, N failed`; the exit status."""
        passed = sum(1 for _n, r in self.results if r is None)
        failed = len(self.results) - passed
        print("%d passed, %d failed" % (passed, failed))
        return 1 if failed or self.interrupted else 0


class Skip(Exception):
    pass


class Env:
    """Namespaces, veths and the listack-fwd process; cleanup() undoes all."""

    def __init__(self, fwd, verbose, ctl=None):
        pid = os.getpid()
        self.ctl = ctl
        self.sock = None
        self.run_no = 0
        self.fwd = fwd
        self.verbose = verbose
        self.cli = "lsk-cli-%d" % pid
        self.srv = "lsk-srv-%d" % pid
        self.veth_c = "lskc%d" % pid            # root side, port 0
        self.veth_s = "lsks%d" % pid            # root side, port 1
        # run 3: net_tap ports, moved into hosts of their own
        self.tap_c = "lsktc%d" % pid
        self.tap_s = "lskts%d" % pid
        self.tap_cli = "lsk-tcli-%d" % pid
        self.tap_srv = "lsk-tsrv-%d" % pid
        self.prefix = "lsk-netns-%d" % pid
        self.tmp = tempfile.mkdtemp(prefix="lsk-netns-")
        self.stats = None
        self.log = None
        self.proc = None
        self.logf = None
        self.bg = []                            # helper processes
        self.made_ns = []
        self.made_links = []

    # -- commands ------------------------------------------------------

    link_tag = "lk"     # the veths' names (a script of its own sets its own)

    def link(self, ns_a, name_a, ns_b, name_b):
        """A veth pair between two namespaces, named inside them."""
        pid = os.getpid()
        a, b = "%s%da%d" % (self.link_tag, len(self.made_links), pid), \
            "%s%db%d" % (self.link_tag, len(self.made_links), pid)
        self.run(["ip", "link", "add", a, "type", "veth", "peer", "name", b])
        self.made_links.append(a)
        self.run(["ip", "link", "set", a, "netns", ns_a])
        self.run(["ip", "link", "set", b, "netns", ns_b])
        self.ns(ns_a, ["ip", "link", "set", a, "name", name_a])
        self.ns(ns_b, ["ip", "link", "set", b, "name", name_b])

    def run(self, argv, timeout=10, check=True):
        if self.verbose:
            print("  $ " + " ".join(argv), flush=True)
        try:
            r = subprocess.run(argv, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=timeout,
                               universal_newlines=True)
        except subprocess.TimeoutExpired as e:
            raise RuntimeError("%s: timed out after %ss" % (" ".join(argv),
                                                           timeout)) from e
        if self.verbose and r.stdout.strip():
            print("    " + r.stdout.strip().replace("\n", "\n    "),
                  flush=True)
        if check and r.returncode != 0:
            raise RuntimeError("%s: exit %d: %s" % (" ".join(argv),
                                                   r.returncode,
                                                   r.stdout.strip()))
        return r

    def ns(self, ns, argv, timeout=10, check=True):
        return self.run(["ip", "netns", "exec", ns] + argv, timeout, check)

    # -- set-up --------------------------------------------------------

    def no_ipv6(self, ns, conf):
        """Only test traffic on the links: no IPv6 (router solicitations,
        MLD). /proc/sys/net is the namespace's own; absent without IPv6."""
        argv = ["sh", "-c", "f=/proc/sys/net/ipv6/conf/%s/disable_ipv6; "
                "[ ! -e $f ] || echo 1 > $f" % conf]
        if ns is None:
            self.run(argv)
        else:
            self.ns(ns, argv)

    def make_hosts(self):
        for tool in ("ip", "ethtool"):
            if shutil.which(tool) is None:
                raise Skip("%s not found (scripts/setup.sh installs it)"
                           % tool)
        for ns in (self.cli, self.srv):
            r = self.run(["ip", "netns", "add", ns], check=False)
            if r.returncode != 0:
                raise Skip("cannot create a network namespace: "
                           + r.stdout.strip())
            self.made_ns.append(ns)
        for root_end, ns in ((self.veth_c, self.cli), (self.veth_s, self.srv)):
            peer = root_end + "p"
            r = self.run(["ip", "link", "add", root_end, "type", "veth",
                          "peer", "name", peer], check=False)
            if r.returncode != 0:
                raise Skip("cannot create a veth pair: " + r.stdout.strip())
            self.made_links.append(root_end)
            self.run(["ip", "link", "set", peer, "netns", ns])
            self.ns(ns, ["ip", "link", "set", peer, "name", "eth0"])
        for ns, addr, gw in ((self.cli, CLIENT_IP, GW_CLIENT),
                             (self.srv, SERVER_IP, GW_SERVER)):
            self.host_up(ns, "eth0", addr, gw)
        for dev in (self.veth_c, self.veth_s):
            self.no_ipv6(None, dev)
            self.run(["ethtool", "-K", dev, "gro", "off"], check=False)
            self.run(["ip", "link", "set", dev, "mtu", "1500", "up"])

    def host_up(self, ns, dev, addr, gw):
        """A Linux host in ns on dev: IPv4 only, addr/24, default via gw."""
        for conf in ("all", "default"):
            self.no_ipv6(ns, conf)
        self.ns(ns, ["ip", "link", "set", "lo", "up"])
        self.ns(ns, ["ip", "link", "set", dev, "mtu", "1500"])
        # without this, veth hands AF_PACKET UDP with a partial checksum
        # and GSO sends as one oversized frame (and a tap gets frames
        # whose checksum the kernel left to the device)
        self.ns(ns, ["ethtool", "-K", dev, "tx", "off"])
        self.ns(ns, ["ip", "addr", "add", addr + "/24", "dev", dev])
        self.ns(ns, ["ip", "link", "set", dev, "up"])
        self.ns(ns, ["ip", "route", "add", "default", "via", gw])

    def tap_hosts(self):
        """Move listack-fwd's two tap devices into hosts of their own
        (the client and server of run 3) and make those the hosts the
        checks use."""
        for ns, dev, addr, gw in ((self.tap_cli, self.tap_c, CLIENT_IP,
                                   GW_CLIENT),
                                  (self.tap_srv, self.tap_s, SERVER_IP,
                                   GW_SERVER)):
            self.run(["ip", "netns", "add", ns])
            self.made_ns.append(ns)
            self.run(["ip", "link", "set", dev, "netns", ns])
            self.host_up(ns, dev, addr, gw)
        self.cli, self.srv = self.tap_cli, self.tap_srv

    def start_router(self, pmd, extra_conf=""):
        """Start listack-fwd with pmd (af_packet or pcap on the two
        root-side veth ends, or tap: two tap devices of its own); None when
        it is up, else what went wrong."""
        self.run_no += 1
        tag = "%d-%s" % (self.run_no, pmd)
        self.stats = os.path.join(self.tmp, "stats-%s.json" % tag)
        self.log = os.path.join(self.tmp, "listack-fwd-%s.log" % tag)
        conf = os.path.join(self.tmp, "listack.conf")
        with open(conf, "w") as f:
            f.write("# written by tests/netns/run_netns_tests.py\n"
                    "address add %s/24 port 0\n"
                    "address add %s/24 port 1\n"
                    "port 1 mtu %d\n"
                    "udp listen %s:7 echo\n"
                    % (GW_CLIENT, GW_SERVER, EGRESS_MTU, GW_CLIENT)
                    + extra_conf)
        ifaces = (self.veth_c, self.veth_s)
        if pmd == "af_packet":
            vdev = AF_PACKET.replace("%s", "{0}")
        elif pmd == "tap":
            vdev = "net_tap%d,iface={0}"
            ifaces = (self.tap_c, self.tap_s)
        else:
            vdev = "net_pcap%d,rx_iface_in={0},tx_iface={0}"
        # a socket of this run's own: runs in parallel do not meet
        self.sock = os.path.join(self.tmp, "ctl-%s.sock" % tag)
        return self.launch([(vdev % i).format(ifaces[i]) for i in (0, 1)],
                           conf)

    def launch(self, vdevs, conf, ns=None):
        """Start listack-fwd (in namespace ns, else in this one) on the
        devices vdevs (--vdev arguments) with the config file conf, its
        stats, log and control socket at self.stats, self.log and
        self.sock: the start every netns script shares. None when it is
        up, else what went wrong."""
        argv = [self.fwd, "-l", "0-1", "--no-huge", "--no-pci", "-m", "1024",
                "--no-telemetry", "--file-prefix",
                "%s-%d" % (self.prefix, self.run_no)]
        argv += ["--vdev=" + v for v in vdevs]
        argv += ["--", "--config", conf, "--stats-json", self.stats,
                 "--ctl-socket", self.sock]
        if ns is not None:
            argv = ["ip", "netns", "exec", ns] + argv
        if self.verbose:
            print("  $ " + " ".join(argv), flush=True)
        if self.logf is not None:
            self.logf.close()
        self.logf = open(self.log, "w")
        self.proc = subprocess.Popen(argv, stdout=self.logf,
                                     stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)
        end = time.monotonic() + 30
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                return "exited with status %d: %s" % (self.proc.returncode,
                                                      self.log_tail())
            with open(self.log) as f:
                if re.search(r"^listack-fwd: \d+ ports", f.read(), re.M):
                    return None
            time.sleep(0.1)
        return "not ready after 30 s: " + self.log_tail()

    def log_tail(self, n=6):
        try:
            with open(self.log) as f:
                lines = [l.rstrip() for l in f if l.strip()]
        except (OSError, TypeError):
            return "(no log)"
        return " | ".join(lines[-n:])

    def stop_router(self, timeout=20):
        """SIGTERM, wait; returns the exit status (None if it had to be killed)."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
                return None
        return self.proc.returncode

    def ctl_cmd(self, *words, json_out=False):
        """listack-ctl against this run's socket: (exit, stdout, stderr)."""
        argv = [self.ctl, "-s", self.sock] + (["-j"] if json_out else []) \
            + list(words)
        if self.verbose:
            print("  $ " + " ".join(argv), flush=True)
        r = subprocess.run(argv, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=30,
                           universal_newlines=True)
        if self.verbose and (r.stdout.strip() or r.stderr.strip()):
            print("    " + (r.stdout + r.stderr).strip().replace(
                "\n", "\n    "), flush=True)
        return r.returncode, r.stdout, r.stderr

    # -- helpers in namespaces -----------------------------------------

    # the script whose --helper NAME runs in the namespaces (a script
    # that subclasses Env sets its own)
    script = SELF

    def helper(self, ns, name, *args, timeout=15):
        """Run helper name in ns to its end: the last JSON line it
        printed."""
        r = self.ns(ns, [PY, self.script, "--helper", name] +
                    [str(a) for a in args], timeout=timeout, check=False)
        for line in reversed(r.stdout.splitlines()):
            try:
                return json.loads(line)
            except ValueError:
                pass
        raise RuntimeError("helper %s: exit %d, no result: %s"
                           % (name, r.returncode, r.stdout.strip()[-300:]))

    def bg_queue(self, ns, name, *args):
        """Start helper name in ns, which prints {"ready": true} first:
        the process and a queue of what it prints after (each JSON line,
        else {"noise": line}; None at its end)."""
        p = subprocess.Popen(["ip", "netns", "exec", ns, PY, self.script,
                              "--helper", name] + [str(a) for a in args],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL,
                             universal_newlines=True)
        self.bg.append(p)
        q = queue.Queue()

        def reader():
            for line in p.stdout:
                try:
                    q.put(json.loads(line))
                except ValueError:
                    q.put({"noise": line.strip()})
            q.put(None)
        threading.Thread(target=reader, daemon=True).start()
        first = self._get(q, 10)
        if not first or not first.get("ready"):
            raise RuntimeError("helper %s in %s did not start: %r"
                               % (name, ns, first))
        return p, q

    def start_sink(self, port, lifetime=20):
        return self.bg_queue(self.srv, "udp-sink", SERVER_IP, port,
                             lifetime)

    @staticmethod
    def _get(q, timeout):
        try:
            return q.get(timeout=max(timeout, 0.01))
        except queue.Empty:
            return None

    def collect(self, q, n, timeout):
        """Up to n datagrams from a sink queue, waiting at most timeout s."""
        got = []
        end = time.monotonic() + timeout
        while len(got) < n:
            item = self._get(q, end - time.monotonic())
            if item is None:
                break
            if "len" in item:
                got.append(item)
        return got

    def stop_bg(self):
        for p in self.bg:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(timeout=5)
        self.bg = []

    # -- teardown ------------------------------------------------------

    def cleanup(self, keep_logs=False):
        try:
            self.stop_bg()
        except Exception:
            pass
        try:
            if self.proc is not None and self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait(timeout=10)
        except Exception:
            pass
        if self.logf is not None:
            self.logf.close()
        for ns in self.made_ns:
            subprocess.run(["ip", "netns", "del", ns], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=10)
        for dev in self.made_links:
            # normally gone with its peer's namespace
            subprocess.run(["ip", "link", "del", dev], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=10)
        for i in range(1, self.run_no + 1):
            shutil.rmtree("/var/run/dpdk/%s-%d" % (self.prefix, i),
                          ignore_errors=True)
        if keep_logs:
            print("logs kept in " + self.tmp)
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)


# ======================================================================
# Checks. Each returns None (pass) or a reason string (fail).


def ping_summary(text):
    m = re.search(r"(\d+) packets transmitted, (\d+) received", text)
    return (int(m.group(1)), int(m.group(2))) if m else (None, None)


def short(text, n=400):
    text = " | ".join(l.strip() for l in text.strip().splitlines() if l.strip())
    return text if len(text) <= n else text[:n] + "..."


def need(tool):
    if shutil.which(tool) is None:
        return "%s is not installed (scripts/setup.sh installs it)" % tool
    return None


def ping3_from_client(env, dst):
    """Three pings of dst from the client, all answered."""
    if need("ping"):
        return need("ping")
    r = env.ns(env.cli, ["ping", "-c", "3", "-W", "1", dst],
               timeout=15, check=False)
    tx, rx = ping_summary(r.stdout)
    if tx == 3 and rx == 3:
        return None
    return "ping -c 3 %s: %s/%s replies: %s" % (dst, rx, tx, short(r.stdout))


def check_ping_router(env):
    return ping3_from_client(env, GW_CLIENT)


def check_ping_server(env):
    return ping3_from_client(env, SERVER_IP)


def check_traceroute(env):
    if need("traceroute"):
        return need("traceroute")
    r = env.ns(env.cli, ["traceroute", "-U", "-n", "-q", "1", "-w", "1",
                         "-m", "5", SERVER_IP], timeout=20, check=False)
    hops = {}
    for line in r.stdout.splitlines():
        m = re.match(r"\s*(\d+)\s+(\S+)", line)
        if m:
            hops[int(m.group(1))] = m.group(2)
    if hops.get(1) == GW_CLIENT and hops.get(2) == SERVER_IP:
        return None
    return ("expected hop 1 %s (time exceeded from the router) and hop 2 %s, "
            "got %s: %s" % (GW_CLIENT, SERVER_IP, hops or "no hops",
                           short(r.stdout)))


def check_udp_closed_port(env):
    res = env.helper(env.cli, "udp-closed", GW_CLIENT, 9999, 3)
    if res.get("result") == "ECONNREFUSED":
        return None
    return ("connect+send+recv to %s:9999 (no listener): %s, expected "
            "ECONNREFUSED (ICMP port unreachable)" % (GW_CLIENT, res.get("result")))


def check_udp_echo(env, sizes=(1, 64, 1000, 1472)):
    sizes = list(sizes)
    res = env.helper(env.cli, "udp-echo", GW_CLIENT, 7, 2, json.dumps(sizes))
    bad = []
    for r in res.get("echo", []):
        if r.get("result") != "ok":
            bad.append("%d bytes: %s" % (r["len"], r.get("result")))
        elif r.get("src") != GW_CLIENT + ":7":
            bad.append("%d bytes: reply from %s, not %s:7"
                       % (r["len"], r.get("src"), GW_CLIENT))
    if len(res.get("echo", [])) != len(sizes):
        bad.append("helper answered %r" % (res,))
    return "; ".join(bad) if bad else None


def send_and_collect(env, port, spec, expect_n, wait=5):
    _p, q = env.start_sink(port)
    res = env.helper(env.cli, "udp-send", SERVER_IP, port, json.dumps(spec))
    if "error" in res:
        return None, None, "client send failed: " + res["error"]
    sent = res["sent"]
    got = env.collect(q, expect_n, wait)
    # anything extra that trickles in
    got += env.collect(q, 10, 0.3)
    env.stop_bg()
    return sent, got, None


def compare(sent, got, what):
    want = [(s["len"], s["sha"]) for s in sent]
    have = [(g["len"], g["sha"]) for g in got]
    if want == have:
        return None
    if sorted(want) == sorted(have):
        return "%s: all arrived intact but reordered: %s" % (what, have)
    missing = [w for w in want if w not in have]
    extra = [h for h in have if h not in want]
    return ("%s: sent %d datagrams %s, server got %d %s (missing %s, "
            "unexpected %s)" % (what, len(want), [w[0] for w in want],
                                len(have), [h[0] for h in have],
                                [m[0] for m in missing], [e[0] for e in extra]))


def check_udp_to_server(env):
    # 1372 + 28 = 1400: exactly the router's egress MTU
    sizes = [1, 100, 512, 1000, 1372]
    sent, got, err = send_and_collect(env, 5001, {"mode": "plain",
                                                  "sizes": sizes, "seed": 1},
                                      len(sizes))
    return err or compare(sent, got, "plain UDP")


def check_udp_gso(env):
    sent, got, err = send_and_collect(env, 5002, {"mode": "gso", "gso": 1000,
                                                  "len": 3000, "seed": 2}, 3)
    if err:
        return err
    return compare(sent, got, "UDP_SEGMENT 1000, 3000-byte send")


def check_udp_gso_trains(env):
    """60 datagrams from one UDP_SEGMENT send: back to back, so listack
    (gro fraglist) forwards them as trains; the server must get each one
    whole and in order."""
    sent, got, err = send_and_collect(env, 5005, {"mode": "gso", "gso": 1000,
                                                  "len": 60000, "seed": 5},
                                      60)
    if err:
        return err
    return compare(sent, got, "UDP_SEGMENT 1000, 60000-byte send")


def server_reasm_oks(env):
    r = env.ns(env.srv, ["nstat", "-az", "IpReasmOKs"], check=False)
    m = re.search(r"IpReasmOKs\s+(\d+)", r.stdout)
    return int(m.group(1)) if m else None


def check_udp_df_clear(env, port, frag_size):
    """A 3000-byte datagram with DF clear (IP_PMTUDISC_DONT): the client
    sends fragments of frag_size bytes; the server must reassemble it."""
    mtu, route = client_route_mtu(env)
    if (mtu or 1500) != frag_size:
        return ("cannot test: the client's path MTU to %s is %s, not %d "
                "(ip route get: %s)" % (SERVER_IP, mtu, frag_size, route))
    before = server_reasm_oks(env)
    sent, got, err = send_and_collect(env, port, {"mode": "dfclear",
                                                  "len": 3000, "seed": port},
                                      1)
    if err:
        return err
    what = ("3000-byte UDP, DF clear, client fragments of %d bytes, router "
            "egress MTU %d" % (frag_size, EGRESS_MTU))
    reason = compare(sent, got, what)
    after = server_reasm_oks(env)
    if reason is None and before is not None and after is not None \
            and after <= before:
        reason = "%s: arrived, but the server reassembled nothing " \
                 "(IpReasmOKs %d -> %d)" % (what, before, after)
    return reason


def client_route_mtu(env):
    r = env.ns(env.cli, ["ip", "route", "get", SERVER_IP], check=False)
    m = re.search(r"\bmtu (?:lock )?(\d+)", r.stdout)
    return (int(m.group(1)) if m else None), short(r.stdout)


def check_pmtu(env):
    if need("ping"):
        return need("ping")
    # 1450 + 28 = 1478 bytes: fits the client's 1500 link, not the
    # router's egress MTU 1400 towards the server
    r = env.ns(env.cli, ["ping", "-M", "do", "-s", "1450", "-c", "2", "-W",
                         "1", SERVER_IP], timeout=15, check=False)
    text = r.stdout
    mtu, route = client_route_mtu(env)
    frag_needed = re.search(r"frag(mentation)? needed.*mtu\s*=\s*%d" %
                            EGRESS_MTU, text, re.I)
    local_err = re.search(r"message too long, mtu\s*=\s*%d" % EGRESS_MTU,
                          text, re.I)
    _tx, rx = ping_summary(text)
    problems = []
    if rx:
        problems.append("%d echo replies came back through a %d-byte MTU"
                        % (rx, EGRESS_MTU))
    if not (frag_needed or local_err):
        problems.append("no 'Frag needed ... mtu = %d' in ping's output"
                        % EGRESS_MTU)
    if mtu != EGRESS_MTU:
        problems.append("client did not learn mtu %d (ip route get: %s)"
                        % (EGRESS_MTU, route))
    if problems:
        return "; ".join(problems) + ": ping said: " + short(text)
    return None


def check_ping_at_mtu(env):
    """DF set and exactly the egress MTU: must pass (1372 + 28 = 1400)."""
    if need("ping"):
        return need("ping")
    r = env.ns(env.cli, ["ping", "-M", "do", "-s", str(EGRESS_MTU - 28), "-c",
                         "2", "-W", "1", SERVER_IP], timeout=15, check=False)
    tx, rx = ping_summary(r.stdout)
    if tx == 2 and rx == 2:
        return None
    return "ping -M do -s %d: %s/%s replies: %s" % (EGRESS_MTU - 28, rx, tx,
                                                    short(r.stdout))


# ---- run 4: changed live through the control socket ------------------

def ctl_ok(env, *words):
    """None if listack-ctl WORDS exits 0, else why."""
    rc, out, err = env.ctl_cmd(*words)
    if rc == 0:
        return None
    return "listack-ctl %s: exit %d: %s" % (" ".join(words), rc,
                                            short(err or out))


def ping(env, ns, dst, count=2, extra=()):
    r = env.ns(ns, ["ping", "-c", str(count), "-W", "1"] + list(extra)
               + [dst], timeout=20, check=False)
    tx, rx = ping_summary(r.stdout)
    return tx, rx, r.stdout


def check_live_route_before(env):
    tx, rx, text = ping(env, env.cli, BEHIND_IP, 3)
    if tx == 3 and rx == 3:
        return None
    return "ping %s through route %s: %s/%s replies: %s" % (
        BEHIND_IP, BEHIND_NET, rx, tx, short(text))


def check_live_route_del(env):
    why = ctl_ok(env, "route", "del", BEHIND_NET)
    if why:
        return why
    tx, rx, text = ping(env, env.cli, BEHIND_IP, 2)
    if rx:
        return "%d replies after route del: %s" % (rx, short(text))
    if not re.search(r"From %s .*Destination Net Unreachable"
                     % re.escape(GW_CLIENT), text):
        return ("no 'From %s ... Destination Net Unreachable' after route "
                "del: %s" % (GW_CLIENT, short(text)))
    return None


def check_live_route_add(env):
    why = ctl_ok(env, "route", "add", BEHIND_NET, "via", SERVER_IP)
    if why:
        return why
    tx, rx, text = ping(env, env.cli, BEHIND_IP, 3)
    if tx == 3 and rx == 3:
        return None
    return "after route add: %s/%s replies: %s" % (rx, tx, short(text))


def check_live_address_add(env):
    why = ctl_ok(env, "address", "add", NEW_GW + "/24", "port", "0")
    if why:
        return why
    env.ns(env.cli, ["ip", "addr", "add", NEW_HOST + "/24", "dev", "eth0"])
    try:
        tx, rx, text = ping(env, env.cli, NEW_GW, 3, ("-I", NEW_HOST))
        r = env.ns(env.cli, ["ip", "neigh", "show", NEW_GW], check=False)
    finally:
        env.ns(env.cli, ["ip", "addr", "del", NEW_HOST + "/24", "dev",
                         "eth0"], check=False)
    problems = []
    if not (tx == 3 and rx == 3):
        problems.append("ping %s from %s: %s/%s replies: %s"
                        % (NEW_GW, NEW_HOST, rx, tx, short(text)))
    if "lladdr" not in r.stdout:
        problems.append("the client did not resolve %s by ARP (ip neigh: "
                        "%s)" % (NEW_GW, short(r.stdout)))
    return "; ".join(problems) or None


def neigh_listed(env, addr):
    rc, out, err = env.ctl_cmd("show", "neigh")
    if rc != 0:
        return None, "show neigh: exit %d: %s" % (rc, short(err))
    return re.search(r"(^|\s)%s(\s|$)" % re.escape(addr), out, re.M) \
        is not None, None


def check_live_neigh_flush(env):
    tx, rx, text = ping(env, env.cli, SERVER_IP, 1)
    listed, why = neigh_listed(env, SERVER_IP)
    if why:
        return why
    if not listed:
        return "show neigh does not list %s after a ping" % SERVER_IP
    why = ctl_ok(env, "neigh", "flush")
    if why:
        return why
    listed, why = neigh_listed(env, SERVER_IP)
    if why or listed:
        return why or "show neigh still lists %s after neigh flush" % \
            SERVER_IP
    tx, rx, text = ping(env, env.cli, SERVER_IP, 3)
    if not (tx == 3 and rx == 3):
        return "after neigh flush: %s/%s replies: %s" % (rx, tx, short(text))
    listed, why = neigh_listed(env, SERVER_IP)
    if why or not listed:
        return why or "%s not resolved again after neigh flush" % SERVER_IP
    return None


def check_live_udp_listen_close(env):
    port = 5555
    why = ctl_ok(env, "udp", "listen", "%s:%d" % (GW_CLIENT, port), "echo")
    if why:
        return why
    res = env.helper(env.cli, "udp-echo", GW_CLIENT, port, 2, "[100]")
    echo = res.get("echo") or [{}]
    if echo[0].get("result") != "ok":
        return "echo on %s:%d opened live: %r" % (GW_CLIENT, port, echo)
    why = ctl_ok(env, "udp", "close", "%s:%d" % (GW_CLIENT, port))
    if why:
        return why
    res = env.helper(env.cli, "udp-closed", GW_CLIENT, port, 3)
    if res.get("result") != "ECONNREFUSED":
        return "after udp close: %r, expected ECONNREFUSED (port " \
               "unreachable)" % res
    return None


def check_live_port_mtu(env):
    size = LIVE_MTU + 50 - 28      # fits the old MTU, not the new one
    env.ns(env.cli, ["ip", "route", "flush", "cache"], check=False)
    tx, rx, text = ping(env, env.cli, SERVER_IP, 2, ("-M", "do", "-s",
                                                     str(size)))
    if rx != 2:
        return "before port 1 mtu %d: ping -M do -s %d: %s/%s replies: %s" \
               % (LIVE_MTU, size, rx, tx, short(text))
    why = ctl_ok(env, "port", "1", "mtu", str(LIVE_MTU))
    if why:
        return why
    tx, rx, text = ping(env, env.cli, SERVER_IP, 2, ("-M", "do", "-s",
                                                     str(size)))
    mtu, route = client_route_mtu(env)
    problems = []
    # the device follows: af_packet's interface has the new MTU too
    link = subprocess.run(["ip", "-o", "link", "show", "dev", env.veth_s],
                          capture_output=True, text=True).stdout
    if not re.search(r"\bmtu %d\b" % LIVE_MTU, link):
        problems.append("%s is not at mtu %d: %s"
                        % (env.veth_s, LIVE_MTU, short(link)))
    if rx:
        problems.append("%d replies through the %d-byte MTU" % (rx, LIVE_MTU))
    if not re.search(r"(frag(mentation)? needed|message too long).*mtu\s*="
                     r"\s*%d" % LIVE_MTU, text, re.I):
        problems.append("no frag needed with mtu = %d" % LIVE_MTU)
    if mtu != LIVE_MTU:
        problems.append("the client did not learn mtu %d (%s)"
                        % (LIVE_MTU, route))
    if problems:
        return "; ".join(problems) + ": ping said: " + short(text)
    return None


def read_stats(env):
    with open(env.stats) as f:
        return json.load(f)


def stat(st, key):
    cur = st
    for part in key.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return None
        cur = cur[part]
    return cur


def script_args(doc, name, needs=(), helpers=None):
    """The arguments of a netns script, `SCRIPT listack-fwd listack-ctl
    [-v]`; with helpers (a script that runs its own helpers in the
    namespaces, and a Linux router in place of listack-fwd for reference)
    also --keep-logs, --linux and --helper NAME ARGS (run here, then exit
    0). Exits 77 (`SKIP name: why`) when not root or when a need
    ((bool, why), ...) is false."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    opt = "?" if helpers is not None else None
    ap.add_argument("fwd", nargs=opt, help="path to listack-fwd")
    ap.add_argument("ctl", nargs=opt, help="path to listack-ctl")
    ap.add_argument("-v", "--verbose", action="store_true")
    if helpers is not None:
        ap.add_argument("--keep-logs", action="store_true")
        ap.add_argument("--linux", action="store_true",
                        help="a Linux router in place of listack-fwd")
        ap.add_argument("--helper", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    if helpers is not None and args.helper:
        helpers[args.helper[0]](*args.helper[1:])
        sys.exit(0)
    if os.geteuid() != 0:
        print("SKIP %s: not root (network namespaces need root)" % name)
        sys.exit(77)
    for ok, why in needs:
        if not ok:
            print("SKIP %s: %s" % (name, why))
            sys.exit(77)
    if helpers is not None and not args.linux and \
            not (args.fwd and args.ctl):
        ap.error("listack-fwd and listack-ctl are required (or --linux)")
    return args


def begin(doc, name, needs=()):
    """A netns script of the two hosts started: its arguments
    (script_args), its Checks (signals caught) and its Env."""
    args = script_args(doc, name, needs)
    checks = Checks(args.verbose)
    checks.catch_signals()
    env = Env(os.path.abspath(args.fwd), args.verbose,
              os.path.abspath(args.ctl))
    return args, checks, env


class Run:
    """The frame of a netns script's run, around its set-up and checks:
    `with Run(env, checks, verbose, name) as run: ...`, then
    `return run.status()`. A Skip from the set-up prints `SKIP name: why`
    (status 77); SystemExit (a run given up) and an interrupt end the
    checks; always, the log's tail (verbose), the cleanups (FRR's daemons)
    and env.cleanup()."""

    def __init__(self, env, checks, verbose, name="netns", keep_logs=False,
                 cleanups=()):
        self.env, self.checks, self.verbose = env, checks, verbose
        self.name, self.keep_logs, self.cleanups = name, keep_logs, cleanups
        self.skipped = False

    def __enter__(self):
        return self

    def __exit__(self, et, e, tb):
        try:
            if et is Skip:
                print("SKIP %s: %s" % (self.name, e))
                self.skipped = True
            elif et is not None and issubclass(et, KeyboardInterrupt):
                self.checks.interrupt(e)
        finally:
            env = self.env
            if self.verbose and env.proc is not None:
                print("  listack-fwd log: " + env.log_tail(30))
            for fn in self.cleanups:
                fn()
            env.cleanup(keep_logs=self.keep_logs or (
                self.checks.failed_any() and self.verbose))
        return et is not None and issubclass(et, (Skip, SystemExit,
                                                  KeyboardInterrupt))

    def status(self):
        return 77 if self.skipped else self.checks.summary()


def stop_and_count(env, record, suffix, wants, verbose):
    """Stop listack-fwd with SIGTERM; check its exit and its counters."""
    env.stop_bg()
    status = env.stop_router()
    record("router-exit" + suffix, None if status == 0 else
           "listack-fwd exit status %s after SIGTERM: %s"
           % (status, env.log_tail()))
    try:
        st = read_stats(env)
    except (OSError, ValueError) as e:
        record("stats-json" + suffix, "cannot read %s: %s" % (env.stats, e))
        return
    for name, key, op, want in wants:
        v = stat(st, key)
        ok = v is not None and (v == want if op == "==" else v >= want)
        record(name + suffix, None if ok else "%s = %s, expected %s %s"
               % (key, v, op, want))
    if verbose:
        for sec in ("ip", "icmp", "arp", "udp", "eth", "ports"):
            print("  %s: %s" % (sec, json.dumps(st.get(sec))))


# ======================================================================


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fwd", nargs="?", help="path to listack-fwd")
    ap.add_argument("ctl", nargs="?", help="path to listack-ctl (run 4)")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--keep-logs", action="store_true")
    ap.add_argument("--helper", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    if args.helper:
        HELPERS[args.helper[0]](*args.helper[1:])
        return 0
    if not args.fwd:
        ap.error("the path to listack-fwd is required")
    fwd = os.path.abspath(args.fwd)
    if not os.access(fwd, os.X_OK):
        print("FAIL setup: %s is not an executable" % fwd)
        print("0 passed, 1 failed")
        return 1
    if os.geteuid() != 0:
        print("SKIP netns: not root (network namespaces need root)")
        return 77
    if shutil.which("ip") is None:
        print("SKIP netns: no `ip` (iproute2)")
        return 77

    checks = Checks(args.verbose)
    checks.catch_signals()
    record, run_check = checks.record, checks.run

    ctl = os.path.abspath(args.ctl) if args.ctl else None
    env = Env(fwd, args.verbose, ctl)
    with Run(env, checks, args.verbose, keep_logs=args.keep_logs) as run:
        try:
            env.make_hosts()
        except RuntimeError as e:
            record("setup", str(e))
            raise SystemExit

        # ---- run 1: net_af_packet ports -----------------------------
        err = env.start_router("af_packet")
        if err:
            record("router-start", err)
        else:
            run_check("ping-router", check_ping_router, env)
            run_check("ping-server", check_ping_server, env)
            run_check("traceroute", check_traceroute, env)
            run_check("udp-closed-port", check_udp_closed_port, env)
            run_check("udp-echo", check_udp_echo, env)
            run_check("udp-to-server", check_udp_to_server, env)
            run_check("udp-gso", check_udp_gso, env)
            run_check("ping-df-at-mtu", check_ping_at_mtu, env)
            run_check("pmtu-frag-needed", check_pmtu, env)
            stop_and_count(env, record, "", (
                ("stats-mbufs", "mbufs_in_use", "==", 0),
                ("stats-arp-requests", "arp.OutRequests", ">=", 1),
                ("stats-icmp-echo-replies", "icmp.OutEchoReps", ">=", 3),
                ("stats-icmp-time-exceeded", "icmp.OutTimeExcds", ">=", 1),
                ("stats-icmp-dest-unreach", "icmp.OutDestUnreachs", ">=", 1),
            ), args.verbose)

        # ---- run 2: net_pcap ports, for IP fragments ----------------
        # DPDK 22.11's af_packet PMD joins a PACKET_FANOUT group with
        # PACKET_FANOUT_FLAG_DEFRAG: the kernel reassembles IPv4 fragments
        # before listack sees them (and cuts the result to the 2 KiB
        # frame), so fragments cannot cross listack on af_packet. net_pcap
        # on the same veths (libpcap, no fanout) hands them over as sent.
        for ns in (env.cli, env.srv):
            env.ns(ns, ["ip", "neigh", "flush", "all"], check=False)
        # forget the path MTU the client may have learned in run 1
        env.ns(env.cli, ["ip", "route", "flush", "cache"], check=False)
        err = env.start_router("pcap")
        if err:
            record("router-start-pcap", err)
        else:
            run_check("pcap-ping-server", check_ping_server, env)
            # 16 KB and 64 KB to the echo service: Linux sends 12 and 45
            # fragments, listack reassembles them and sends the answer
            # in as many
            run_check("pcap-udp-echo-16k-64k", check_udp_echo, env,
                      (16000, 65507))
            # The client's path MTU is pinned with a locked host route
            # (whatever run 1 taught it). Fragments of 1500 bytes, egress
            # MTU 1400: listack must fragment the fragments.
            for name, port, size in (
                    ("udp-df-clear-router-fragments", 5003, 1500),
                    # fragments of 1400 bytes fit: forwarded as they are
                    ("udp-df-clear-forward-fragments", 5004, EGRESS_MTU)):
                env.ns(env.cli, ["ip", "route", "replace", SERVER_IP + "/32",
                                 "via", GW_CLIENT, "mtu", "lock", str(size)])
                run_check(name, check_udp_df_clear, env, port, size)
            env.ns(env.cli, ["ip", "route", "del", SERVER_IP + "/32"],
                   check=False)
            stop_and_count(env, record, "-pcap", (
                ("stats-mbufs", "mbufs_in_use", "==", 0),
                ("stats-frag-oks", "ip.FragOKs", ">=", 1),
                ("stats-frag-creates", "ip.FragCreates", ">=", 2),
            ), args.verbose)

        # ---- run 4: af_packet again, changed live -------------------
        if ctl is not None:
            for ns in (env.cli, env.srv):
                env.ns(ns, ["ip", "neigh", "flush", "all"], check=False)
            env.ns(env.cli, ["ip", "route", "flush", "cache"], check=False)
            env.ns(env.srv, ["ip", "addr", "add", BEHIND_IP + "/24", "dev",
                             "lo"])
            err = env.start_router("af_packet", "route add %s via %s\n"
                                   % (BEHIND_NET, SERVER_IP))
            if err:
                record("router-start-live", err)
            else:
                run_check("live-route-before", check_live_route_before, env)
                run_check("live-route-del", check_live_route_del, env)
                run_check("live-route-add", check_live_route_add, env)
                run_check("live-address-add", check_live_address_add, env)
                run_check("live-neigh-flush", check_live_neigh_flush, env)
                run_check("live-udp-listen-close",
                          check_live_udp_listen_close, env)
                run_check("live-port-mtu", check_live_port_mtu, env)
                stop_and_count(env, record, "-live", (
                    ("stats-mbufs", "mbufs_in_use", "==", 0),
                    ("stats-icmp-dest-unreach", "icmp.OutDestUnreachs",
                     ">=", 3),
                    ("stats-arp-requests", "arp.OutRequests", ">=", 2),
                ), args.verbose)
            env.ns(env.srv, ["ip", "addr", "del", BEHIND_IP + "/24", "dev",
                             "lo"], check=False)
            env.ns(env.cli, ["ip", "route", "flush", "cache"], check=False)

        # ---- run 3: net_tap ports and fraglist GRO ------------------
        # The tap PMD verifies checksums and says so in the mbuf flags,
        # as sfc does: runs of a flow become trains before eth_input
        # (the path af_packet and pcap, which set no flags, never take).
        err = env.start_router("tap", "gro fraglist\n")
        if err:
            record("router-start-tap", err)
        else:
            env.tap_hosts()
            run_check("tap-ping-server", check_ping_server, env)
            run_check("tap-udp-to-server", check_udp_to_server, env)
            run_check("tap-udp-gso-trains", check_udp_gso_trains, env)
            stop_and_count(env, record, "-tap", (
                ("stats-mbufs", "mbufs_in_use", "==", 0),
                ("stats-gro-trains", "gro.Trains", ">=", 1),
                ("stats-gro-merged", "gro.Merged", ">=", 1),
                ("stats-gso-segments", "gso.Segments", ">=", 2),
            ), args.verbose)
    return run.status()


if __name__ == "__main__":
    sys.exit(main())
