#!/usr/bin/python3
"""The ports as an operator sees them, against a running listack-fwd whose
ports are net_af_packet on veths to two Linux hosts in namespaces:

    netns lsk-ia-PID          root namespace              netns lsk-ib-PID
    eth0 10.1.0.2/24 <-veth-> liaPID [listack-fwd] libPID <-veth-> eth0 10.2.0.2/24
                              port 0                port 1 (named "srv")

    /usr/bin/python3 tests/integration/test_iface.py build/listack-fwd build/listack-ctl [-v]

- `show interfaces` (text and JSON): each port's block with its name,
  driver, link and counters; names work in commands (`address add ...
  port srv`, `port srv ...`);
- the host on port 1 sets its end down (`ip link set eth0 down`): the log
  says "port1 (srv) link down", `show interfaces` says NO-CARRIER and
  state DOWN; set up again: "link up", state UP;
- `port srv down`: the host on port 0 pings the host on port 1 in vain,
  what is routed out of port 1 is counted in its tx_dropped, `show
  config` says `port 1 down`; `port 1 up`: the pings come back;
- SIGTERM: exit 0, mbufs_in_use 0.

Before, on net_pcap ports (no root needed): a config that names port 1
and sets it down; what is routed out of it and what it receives are
dropped and counted, the log says so, nothing leaks.

Not root, or no `ip netns`: the namespace part prints `SKIP iface:
reason` (the exit status is 77 when the pcap part passed).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsk  # noqa: E402
from lsk import Ctl, check  # noqa: E402

WAIT = 10
TAG = "%d" % (os.getpid() % 100000)
NS = {0: "lsk-ia-" + TAG, 1: "lsk-ib-" + TAG}
VETH = {0: "lia" + TAG, 1: "lib" + TAG}
HOST_IP = {0: "10.1.0.2", 1: "10.2.0.2"}
GW_IP = {0: "10.1.0.1", 1: "10.2.0.1"}

CONF = """port 1 name srv
address add 10.1.0.1/24 port 0
address add 10.2.0.1/24 port srv
"""


def sh(*cmd, ns=None):
    if ns is not None:
        cmd = ("ip", "netns", "exec", ns) + cmd
    return subprocess.run(list(cmd), capture_output=True, text=True,
                          timeout=WAIT * 3)


def hosts_up():
    """The two namespaces, each with one end of a veth (the other end in
    the root namespace, for af_packet). False: they cannot be made."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        return False
    for p in (0, 1):
        if sh("ip", "netns", "add", NS[p]).returncode != 0:
            return False
        if sh("ip", "link", "add", VETH[p], "type", "veth", "peer", "name",
              "eth0", "netns", NS[p]).returncode != 0:
            return False
        sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % VETH[p])
        sh("ip", "link", "set", VETH[p], "up")
        sh("sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1", ns=NS[p])
        sh("ip", "addr", "add", HOST_IP[p] + "/24", "dev", "eth0", ns=NS[p])
        sh("ip", "link", "set", "eth0", "up", ns=NS[p])
        sh("ip", "link", "set", "lo", "up", ns=NS[p])
        sh("ip", "route", "add", "default", "via", GW_IP[p], ns=NS[p])
        sh("ethtool", "-K", "eth0", "tx", "off", ns=NS[p])
    return True


def hosts_down():
    for p in (0, 1):
        sh("ip", "link", "del", VETH[p])
        sh("ip", "netns", "del", NS[p])


def ping(count=3):
    """Pings from the host on port 0 to the host on port 1 answered."""
    r = sh("ping", "-c", str(count), "-i", "0.2", "-W", "1", HOST_IP[1],
           ns=NS[0])
    for line in r.stdout.splitlines():
        if "received" in line:
            return int(line.split(",")[1].split()[0])
    return 0


def until(pred, wait=WAIT):
    end = time.monotonic() + wait
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.2)
    return pred()


class Run:
    def __init__(self, fwd_bin, ctl_bin, work):
        self.work = work
        self.sock = os.path.join(work, "s.sock")
        lsk.write_config(os.path.join(work, "test.conf"), CONF)
        cmd = [fwd_bin, "--no-huge", "--no-pci", "-m", "512",
               "--file-prefix", "lsk-iface-" + TAG,
               "--log-level=*:warning", "-l", "0"]
        for p in (0, 1):
            cmd.append("--vdev=net_af_packet%d,iface=%s,qpairs=1,"
                       "blocksz=4096,framesz=2048,framecnt=512,"
                       "qdisc_bypass=1" % (p, VETH[p]))
        cmd += ["--", "--config", "test.conf", "--stats-json",
                "stats.json", "--ctl-socket", self.sock]
        self.out = open(os.path.join(work, "fwd.out"), "w")
        self.err = open(os.path.join(work, "fwd.err"), "w")
        self.proc = subprocess.Popen(cmd, cwd=work, stdout=self.out,
                                     stderr=self.err,
                                     start_new_session=True)
        self.ctl = Ctl(ctl_bin, self.sock)

    def log(self):
        with open(os.path.join(self.work, "fwd.out")) as f:
            return f.read()

    def ready(self):
        return until(lambda: self.proc.poll() is None and
                     "listack-fwd: 2 ports" in self.log())

    def show(self, *words, json_out=False):
        r = self.ctl.run(*words, json_out=json_out)
        if r.returncode != 0:
            return None
        return json.loads(r.stdout) if json_out else r.stdout

    def iface(self, n):
        ifs = self.show("show", "interfaces", json_out=True) or []
        return ifs[n] if len(ifs) > n else {}

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            rc = self.proc.wait(timeout=WAIT * 3)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, 9)
            rc = "killed after SIGTERM timed out"
        self.out.close()
        self.err.close()
        shutil.rmtree("/var/run/dpdk/lsk-iface-" + TAG, ignore_errors=True)
        return rc


def cases(r):
    text = r.show("show", "interfaces") or ""
    js = r.show("show", "interfaces", json_out=True) or []
    p1 = js[1] if len(js) > 1 else {}
    check("show_interfaces", [] if
          "1: port1 (srv): <UP,LOWER_UP> mtu 1500 state UP" in text and
          "driver net_af_packet" in text and "    RX: bytes packets" in text
          and p1.get("alias") == "srv" and p1.get("link") == "up" and
          p1.get("driver") == "net_af_packet" else
          ["show interfaces:\n%s\n%r" % (text, js)])

    got = ping()
    check("ping_through", [] if got == 3 else ["%d of 3 pings" % got])
    p1 = r.iface(1)
    check("counters_shown", [] if (p1.get("rx") or {}).get("packets", 0) >= 3
          and (p1.get("tx") or {}).get("packets", 0) >= 3 else
          ["port1's counters after the pings: %r" % p1])

    res = r.ctl.run("address", "add", "10.9.0.1/24", "port", "srv")
    addrs = r.show("show", "addresses") or ""
    check("name_in_commands", [] if res.returncode == 0 and
          "port1  10.9.0.1/24" in addrs else
          ["address add ... port srv: %d %s\n%s" % (res.returncode,
                                                    res.stderr, addrs)])

    # the peer takes its end down: logged, shown
    sh("ip", "link", "set", "eth0", "down", ns=NS[1])
    logged = until(lambda: "listack-fwd: port1 (srv) link down" in r.log())
    p1 = r.iface(1)
    text = r.show("show", "interfaces") or ""
    check("peer_down_logged", [] if logged and p1.get("link") == "down" and
          "1: port1 (srv): <NO-CARRIER,UP> mtu 1500 state DOWN" in text else
          ["log:\n%s\nshow interfaces:\n%s" % (r.log(), text)])
    sh("ip", "link", "set", "eth0", "up", ns=NS[1])
    # its default route went with the link
    sh("ip", "route", "add", "default", "via", GW_IP[1], ns=NS[1])
    logged = until(lambda: "listack-fwd: port1 (srv) link up" in r.log())
    p1 = r.iface(1)
    check("peer_up_logged", [] if logged and p1.get("state") == "UP" else
          ["log:\n%s\nport1: %r" % (r.log(), p1)])
    until(lambda: ping(1) == 1)

    # admin down: nothing leaves port 1, counted
    before = (r.iface(1).get("tx") or {}).get("dropped", 0)
    res = r.ctl.run("port", "srv", "down")
    got = ping()
    p1 = r.iface(1)
    conf = r.show("show", "config") or ""
    dropped = (p1.get("tx") or {}).get("dropped", 0) - before
    check("admin_down", [] if res.returncode == 0 and got == 0 and
          dropped >= 1 and p1.get("admin") == "down" and
          "\nport 1 down\n" in conf and
          "listack-fwd: port1 (srv) admin down" in r.log() else
          ["port srv down: %d %s; %d pings answered, %d tx_dropped, %r\n%s"
           % (res.returncode, res.stderr, got, dropped, p1, conf)])

    res = r.ctl.run("port", "1", "up")
    ok = until(lambda: ping(1) == 1)
    check("admin_up", [] if res.returncode == 0 and ok and
          r.iface(1).get("admin") == "up" else
          ["port 1 up: %d %s; pings %s" % (res.returncode, res.stderr, ok)])


def pcap_admin_down(fwd_bin, work):
    """`port lan down` in the config of a pcap run."""
    conf = lsk.fixture_conf(extra="port 1 name lan\nport lan down\n")
    inputs = {0: [lsk.frame(dst="10.0.1.1", port=0, ident=i)
                  for i in range(3)],
              1: [lsk.frame(dst="10.0.0.1", port=1, ident=i)
                  for i in range(2)]}
    res = lsk.run_fwd(fwd_bin, os.path.join(work, "pcap"), conf, inputs)
    st = res.stats or {}
    ports = st.get("ports") or [{}, {}]
    reasons = lsk.stop_reasons(res.rc, res.stats)
    if res.outputs.get(0) or res.outputs.get(1):
        reasons.append("frames sent: %d on port 0, %d on port 1" %
                       (len(res.outputs.get(0) or []),
                        len(res.outputs.get(1) or [])))
    if ports[1].get("tx_dropped") != 3 or ports[1].get("rx_dropped") != 2:
        reasons.append("port 1's counters: %r" % ports[1])
    want = "listack-fwd: port1 (lan) admin down (the device's link stays " \
        "as it is: the driver cannot set it)"
    if want not in res.stdout:
        reasons.append("no %r in:\n%s" % (want, res.stdout))
    check("config_port_down", reasons)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    lsk.VERBOSE = "-v" in sys.argv
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    fwd_bin, ctl_bin = (os.path.abspath(a) for a in args)
    work = tempfile.mkdtemp(prefix="lsk-iface-")
    pcap_admin_down(fwd_bin, work)
    try:
        if not hosts_up():
            print("SKIP iface: needs root, ip netns and veth")
            return lsk.finish(work, lsk.VERBOSE) or 77
        r = Run(fwd_bin, ctl_bin, work)
        try:
            if r.ready():
                cases(r)
            else:
                check("start", ["listack-fwd did not start:\n%s%s" %
                                (r.log(), open(os.path.join(
                                    work, "fwd.err")).read())])
        finally:
            rc = r.stop()
        check("stops_clean", lsk.stop_reasons(
            rc, lsk.read_stats(os.path.join(work, "stats.json"))))
    finally:
        hosts_down()
    return lsk.finish(work, lsk.VERBOSE)


if __name__ == "__main__":
    sys.exit(main())
