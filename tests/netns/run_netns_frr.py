#!/usr/bin/python3
"""listack-fwd as a router between FRR neighbours: routes learned over FPM
from the router's own zebra, the host path to the kernel (TAP mirrors),
ECMP, OSPF; everything started by this test in network namespaces, no
systemd.

    /usr/bin/python3 tests/netns/run_netns_frr.py build/listack-fwd \
        build/listack-ctl [-v] [--keep-logs] [--linux]

Layout (namespace names carry this process's pid):

                         netns R (the router)
    peer1 (AS 65001)     listack-fwd, af_packet ports,      peer2 (AS 65002)
    eth0 10.1.0.2 <-> lp0 port 0 host-if lsk0 10.1.0.1      eth0 10.2.0.2
    eth1 10.3.0.1        lp1 port 1 host-if lsk1 10.2.0.1 <-> (lp1)
      |                  lp2 port 2 host-if lsk2 10.4.0.1 <-> client 10.4.0.2
    host 10.3.0.2        zebra -M dplane_fpm_nl (fpm to listack's
                         `fpm listen 127.0.0.1:2620`), bgpd, ospfd on
                         the TAPs; AS 65000; ip_forward 0

The peers run zebra, bgpd (and peer1 ospfd) and forward as Linux does.
Both announce 100.64.0.0/24 (100.64.0.1 on their lo, a blackhole for the
rest): the router's ECMP prefix. peer1 also announces 100.65.1.0/24,
100.67.0.0/24 (withdrawn by a check) and 10.3.0.0/24 (the host behind
it), and has 100.66.1.1/32 in OSPF; peer2 announces 100.65.2.0/24. The
router announces the client's 10.4.0.0/24.

IPv6 beside it: 2001:db8:1::/64, 2001:db8:2::/64 and 2001:db8:4::/64 on
the ports (the client 2001:db8:4::2); peer1 has 2001:db8:64::1 and
2001:db8:65::1 on its lo, peer2 2001:db8:64::1 too. The router's staticd
(zebra's statics reach listack over FPM as IPv4's routes do) has
`ipv6 route` 2001:db8:65::/48 and 2001:db8:66::/48 via peer1, the ECMP
2001:db8:64::/48 via both peers, 2001:db8:dead::/48 blackhole.

Checks: the BGP sessions come up over the host path; the prefixes appear
in `listack-ctl show routes` as bgp; ping and UDP from the client to
them are forwarded by listack (the router namespace's ip_forward is 0);
100.64 has two paths and 64 UDP flows are split over both peers (each
peer's UDP sink says which flows it got), and `route get` of a flow
names the peer it reached; learned routes stay out of `show config`, and
a configured route for a learned prefix stands in front of it until
deleted; a withdrawal removes the route; TCP to the router's address
reaches the kernel; the kernel's own ping from the router works; OSPF
reaches Full with peer1 and its route is installed as ospf; the router's
zebra, bgpd and ospfd restarted (bgpd with zebra: FRRouting/frr#22362),
the routes come back; the IPv6 statics appear in `show routes` as static
(the ECMP one with both gateways, the blackhole as one), ping -6 from the
client reaches peer1's addresses through them, 64 UDP flows to the ECMP
one are split over both peers as IPv4's, `no ipv6 route` removes one; listack-fwd exits 0 on SIGTERM with mbufs_in_use
0, its ip.ForwDatagrams and host.ToKernel/FromKernel counted, zebra's
two FPM connections and no bad frame or message counted.

--linux runs the same topology and checks with a plain Linux router in R
(zebra programs the kernel, ip_forward 1, fib_multipath_hash_policy 1) in
place of listack-fwd: the reference the harness was validated against
(listack-only checks are left out there).

Output as run_netns_tests.py's (PASS/FAIL lines, `N passed, N failed`);
exit 77 when not root or FRR (/usr/lib/frr/zebra, bgpd, ospfd, vtysh) is
not installed. Every wait is bounded; namespaces, daemons, their files and
what FRR left in /var/tmp/frr are removed in a finally block.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_netns_tests as nt  # noqa: E402

SELF = os.path.abspath(__file__)
PY = "/usr/bin/python3"
FRR = "/usr/lib/frr"
FPM_PORT = 2620
ASN = 65000

# port: (router address, neighbour address, TAP name)
PORTS = [("10.1.0.1", "10.1.0.2", "lsk0"),
         ("10.2.0.1", "10.2.0.2", "lsk1"),
         ("10.4.0.1", "10.4.0.2", "lsk2")]
CLIENT = "10.4.0.2"
HOST = "10.3.0.2"
ECMP_NET, ECMP_ADDR = "100.64.0.0/24", "100.64.0.1"
P1_NET, P1_ADDR = "100.65.1.0/24", "100.65.1.1"
P2_NET, P2_ADDR = "100.65.2.0/24", "100.65.2.1"
GONE_NET, GONE_ADDR = "100.67.0.0/24", "100.67.0.1"
OSPF_NET, OSPF_ADDR = "100.66.1.1/32", "100.66.1.1"
HOST_NET = "10.3.0.0/24"
# IPv6: (router address, neighbour address) of ports 0..2
PORTS6 = [("2001:db8:1::1", "2001:db8:1::2"),
          ("2001:db8:2::1", "2001:db8:2::2"),
          ("2001:db8:4::1", "2001:db8:4::2")]
CLIENT6 = PORTS6[2][1]
ECMP6_NET, ECMP6_ADDR = "2001:db8:64::/48", "2001:db8:64::1"
P1_6_NET, P1_6_ADDR = "2001:db8:65::/48", "2001:db8:65::1"
GONE6_NET = "2001:db8:66::/48"
HOLE6_NET = "2001:db8:dead::/48"
ECMP_PORT = 5555
TCP_PORT = 7070
FLOWS = 64


out = nt.out


# ======================================================================
# Helpers: run inside a namespace as `run_netns_frr.py --helper NAME ...`


def helper_flow_sink(port, lifetime, family="4"):
    """Count the UDP flows (source ports) that reach port (over IPv6 when
    family is 6), until lifetime s have passed or 2 s were quiet after
    the first datagram."""
    v6 = family == "6"
    s = socket.socket(socket.AF_INET6 if v6 else socket.AF_INET,
                      socket.SOCK_DGRAM)
    s.bind(("::" if v6 else "0.0.0.0", int(port)))
    out({"ready": True})
    end = time.monotonic() + float(lifetime)
    flows = {}
    while time.monotonic() < end:
        s.settimeout(max(0.05, min(2.0, end - time.monotonic())))
        try:
            _data, src = s.recvfrom(2048)
        except socket.timeout:
            if flows:
                break
            continue
        flows[src[1]] = flows.get(src[1], 0) + 1
    out({"flows": flows})


def helper_flow_send(dst, port, n, per_flow):
    """n UDP flows (source ports 40000..) to dst:port, per_flow datagrams
    each; over IPv6 when dst is an IPv6 address."""
    v6 = ":" in dst
    socks = []
    for i in range(int(n)):
        s = socket.socket(socket.AF_INET6 if v6 else socket.AF_INET,
                          socket.SOCK_DGRAM)
        s.bind(("::" if v6 else "0.0.0.0", 40000 + i))
        socks.append(s)
    for k in range(int(per_flow)):
        for i, s in enumerate(socks):
            s.sendto(b"flow %d datagram %d" % (i, k), (dst, int(port)))
        time.sleep(0.05)
    out({"sent": int(n) * int(per_flow)})


def helper_tcp_server(addr, port, lifetime):
    """Accept TCP connections; echo what each sends once it has sent all
    (shut its side down)."""
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((addr, int(port)))
    srv.listen(4)
    srv.settimeout(float(lifetime))
    out({"ready": True})
    try:
        while True:
            c, _ = srv.accept()
            c.settimeout(5)
            data = b""
            try:
                while True:
                    b = c.recv(65536)
                    if not b:
                        break
                    data += b
                c.sendall(data)
            except OSError:
                pass
            c.close()
    except socket.timeout:
        pass


def helper_tcp_client(addr, port, size):
    data = bytes(i & 0xff for i in range(int(size)))
    try:
        c = socket.create_connection((addr, int(port)), timeout=5)
        c.sendall(data)
        c.shutdown(socket.SHUT_WR)
        got = b""
        while len(got) < len(data):
            b = c.recv(65536)
            if not b:
                break
            got += b
        out({"result": "ok" if got == data else "got %d bytes" % len(got)})
    except OSError as e:
        out({"result": str(e)})


HELPERS = {
    "flow-sink": helper_flow_sink,
    "flow-send": helper_flow_send,
    "tcp-server": helper_tcp_server,
    "tcp-client": helper_tcp_client,
}


# ======================================================================
# The harness.


class Env(nt.Env):
    """run_netns_tests.Env's commands and helpers, with this topology and
    the FRR daemons."""

    script = SELF
    link_tag = "lf"

    def __init__(self, fwd, ctl, verbose, linux):
        super().__init__(fwd, verbose, ctl)
        pid = os.getpid()
        self.linux = linux
        self.r = "lsk-frr-r-%d" % pid
        self.p1 = "lsk-frr-p1-%d" % pid
        self.p2 = "lsk-frr-p2-%d" % pid
        self.cli = "lsk-frr-c-%d" % pid
        self.host = "lsk-frr-h-%d" % pid
        self.prefix = "lsk-frr-%d" % pid
        self.frr_dirs = {}              # ns -> its daemons' directory
        self.var_tmp_before = set(var_tmp_frr())
        self.sinks = []

    # -- helpers in namespaces (this script's: Env.script) ----------------

    def my_helper(self, ns, name, *args, timeout=30):
        return self.helper(ns, name, *args, timeout=timeout)

    def bg_helper(self, ns, name, *args):
        """Start a helper that prints {"ready": true} first; the process."""
        p = subprocess.Popen(["ip", "netns", "exec", ns, PY, SELF, "--helper",
                              name] + [str(a) for a in args],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True)
        self.bg.append(p)
        line = p.stdout.readline()
        if '"ready"' not in line:
            raise RuntimeError("helper %s did not start: %s" % (name, line))
        return p

    # -- topology --------------------------------------------------------

    def make_topology(self):
        for tool in ("ip", "ethtool", "ping"):
            if shutil.which(tool) is None:
                raise nt.Skip("%s not found" % tool)
        for ns in (self.r, self.p1, self.p2, self.cli, self.host):
            r = self.run(["ip", "netns", "add", ns], check=False)
            if r.returncode != 0:
                raise nt.Skip("cannot create a network namespace: "
                              + r.stdout.strip())
            self.made_ns.append(ns)
            for conf in ("all", "default"):
                self.no_ipv6(ns, conf)
            self.ns(ns, ["ip", "link", "set", "lo", "up"])
        self.link(self.r, "lp0", self.p1, "eth0")
        self.link(self.r, "lp1", self.p2, "eth0")
        self.link(self.r, "lp2", self.cli, "eth0")
        self.link(self.p1, "eth1", self.host, "eth0")
        for i, (_ra, _na, _tap) in enumerate(PORTS):
            dev = "lp%d" % i
            self.no_ipv6(self.r, dev)
            self.ns(self.r, ["ethtool", "-K", dev, "gro", "off"],
                    check=False)
            self.ns(self.r, ["ip", "link", "set", dev, "mtu", "1500", "up"])
        # the neighbours: one subnet each to the router
        for ns, (ra, na, _tap) in zip((self.p1, self.p2, self.cli), PORTS):
            self.ns(ns, ["ethtool", "-K", "eth0", "tx", "off"])
            self.ns(ns, ["ip", "addr", "add", na + "/24", "dev", "eth0"])
            self.ns(ns, ["ip", "link", "set", "eth0", "up"])
        self.ns(self.cli, ["ip", "route", "add", "default", "via",
                           PORTS[2][0]])
        self.ns(self.p1, ["ip", "addr", "add", "10.3.0.1/24", "dev", "eth1"])
        self.ns(self.p1, ["ip", "link", "set", "eth1", "up"])
        self.ns(self.p1, ["sysctl", "-qw", "net.ipv4.ip_forward=1"])
        self.host_up(self.host, "eth0", HOST, "10.3.0.1")
        self.ip6_topology()
        # what the peers announce: addresses on lo, blackholes for the rest
        for ns, nets in ((self.p1, ((ECMP_NET, ECMP_ADDR), (P1_NET, P1_ADDR),
                                    (GONE_NET, GONE_ADDR),
                                    (OSPF_NET, OSPF_ADDR))),
                         (self.p2, ((ECMP_NET, ECMP_ADDR),
                                    (P2_NET, P2_ADDR)))):
            for net, addr in nets:
                self.ns(ns, ["ip", "addr", "add", addr + "/32", "dev", "lo"])
                if not net.endswith("/32"):
                    self.ns(ns, ["ip", "route", "add", "blackhole", net])
        if self.linux:
            for i, (ra, _na, _tap) in enumerate(PORTS):
                self.ns(self.r, ["ip", "addr", "add", ra + "/24", "dev",
                                 "lp%d" % i])
            self.ns(self.r, ["sysctl", "-qw", "net.ipv4.ip_forward=1"])
            self.ns(self.r, ["sysctl", "-qw",
                             "net.ipv4.fib_multipath_hash_policy=1"])
        else:
            # listack forwards; the kernel of the router must not
            self.ns(self.r, ["sysctl", "-qw", "net.ipv4.ip_forward=0"])

    def ip6_on(self, ns, dev):
        """IPv6 on dev only (the namespace's default is off), no DAD."""
        for key, v in (("disable_ipv6", 0), ("accept_dad", 0),
                       ("accept_ra", 0)):
            self.ns(ns, ["sysctl", "-qw", "net.ipv6.conf.%s.%s=%d"
                         % (dev, key, v)])

    def ip6_topology(self):
        """The IPv6 addresses: the neighbours' on their links (and on
        lo what the statics lead to), routes back to the client."""
        for ns, (ra, na) in zip((self.p1, self.p2, self.cli), PORTS6):
            self.ip6_on(ns, "eth0")
            self.ns(ns, ["ip", "-6", "addr", "add", na + "/64", "dev",
                         "eth0", "nodad"])
        self.ns(self.cli, ["ip", "-6", "route", "add", "default", "via",
                           PORTS6[2][0]])
        for ns, (ra, _na), addrs in ((self.p1, PORTS6[0],
                                      (ECMP6_ADDR, P1_6_ADDR)),
                                     (self.p2, PORTS6[1], (ECMP6_ADDR,))):
            self.ip6_on(ns, "lo")
            for a in addrs:
                self.ns(ns, ["ip", "-6", "addr", "add", a + "/128", "dev",
                             "lo"])
            self.ns(ns, ["ip", "-6", "route", "add", "2001:db8:4::/64",
                         "via", ra])
        if self.linux:
            for i, (ra, _na) in enumerate(PORTS6):
                self.ip6_on(self.r, "lp%d" % i)
                self.ns(self.r, ["ip", "-6", "addr", "add", ra + "/64",
                                 "dev", "lp%d" % i, "nodad"])
            self.ns(self.r, ["sysctl", "-qw",
                             "net.ipv6.conf.all.forwarding=1"])
            self.ns(self.r, ["sysctl", "-qw",
                             "net.ipv6.fib_multipath_hash_policy=1"])

    def dev(self, port):
        """The router's kernel interface for a port: the TAP listack
        makes, or (--linux) the veth end itself."""
        return "lp%d" % port if self.linux else PORTS[port][2]

    # -- listack-fwd ----------------------------------------------------

    def start_listack(self):
        self.run_no += 1
        self.stats = os.path.join(self.tmp, "stats.json")
        self.log = os.path.join(self.tmp, "listack-fwd.log")
        conf = os.path.join(self.tmp, "listack.conf")
        with open(conf, "w") as f:
            f.write("# written by tests/netns/run_netns_frr.py\n")
            for i, (ra, _na, tap) in enumerate(PORTS):
                f.write("address add %s/24 port %d\n" % (ra, i))
                f.write("address add %s/64 port %d\n" % (PORTS6[i][0], i))
                f.write("port %d host-if %s\n" % (i, tap))
            f.write("fpm listen 127.0.0.1:%d\n" % FPM_PORT)
        self.sock = os.path.join(self.tmp, "ctl.sock")
        err = self.launch([nt.AF_PACKET % (i, "lp%d" % i)
                           for i in range(len(PORTS))], conf, ns=self.r)
        if err:
            return err
        # the TAPs, with the ports' addresses, are what zebra needs
        for i, (ra, _na, tap) in enumerate(PORTS):
            if not wait_for(lambda: ra in self.ns(
                    self.r, ["ip", "-4", "addr", "show", "dev", tap],
                    check=False).stdout, 10):
                return "no TAP %s with %s/24 after 10 s" % (tap, ra)
            # zebra takes an IPv6 route via an interface only when the
            # kernel has IPv6 on it (docs/frr.md); listack's TAPs carry
            # no IPv6 address, hence the statics' onlink
            self.ip6_on(self.r, tap)
        return None

    # -- FRR --------------------------------------------------------------

    def frr_dir(self, ns):
        if ns not in self.frr_dirs:
            d = os.path.join(self.tmp, "frr-" + ns)
            os.makedirs(d)
            shutil.chown(d, "frr", "frr")
            self.frr_dirs[ns] = d
        return self.frr_dirs[ns]

    def frr_start(self, ns, daemon, conf, extra=()):
        d = self.frr_dir(ns)
        path = os.path.join(d, daemon + ".conf")
        with open(path, "w") as f:
            f.write(conf)
        shutil.chown(path, "frr", "frr")
        # -d returns once the daemon is up (shared/notes/frr-here.md)
        self.ns(ns, [os.path.join(FRR, daemon), "-d", "-u", "frr", "-g",
                     "frr", "-P", "0"] + list(extra) +
                ["-f", path, "-i", os.path.join(d, daemon + ".pid"), "-z",
                 os.path.join(d, "zserv.api"), "--vty_socket", d],
                timeout=30)

    def frr_stop(self, ns, daemon, sig=signal.SIGTERM):
        pidfile = os.path.join(self.frr_dir(ns), daemon + ".pid")
        try:
            with open(pidfile) as f:
                pid = int(f.read().strip())
        except (OSError, ValueError):
            return
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        if not wait_for(lambda: not alive(pid), 10):
            os.kill(pid, signal.SIGKILL)
            wait_for(lambda: not alive(pid), 5)

    def vtysh(self, ns, *cmds, conf=False):
        argv = ["vtysh", "--vty_socket", self.frr_dir(ns)]
        for c in (["configure terminal"] if conf else []) + list(cmds):
            argv += ["-c", c]
        return self.ns(ns, argv, timeout=30, check=False).stdout

    def vtysh_json(self, ns, cmd):
        try:
            return json.loads(self.vtysh(ns, cmd))
        except ValueError:
            return {}

    def start_router_frr(self):
        zebra = "hostname r\n"
        if not self.linux:
            zebra += "fpm address 127.0.0.1 port %d\n" % FPM_PORT
        self.frr_start(self.r, "zebra", zebra,
                       [] if self.linux else ["-M", "dplane_fpm_nl"])
        self.frr_start(self.r, "bgpd", bgp_conf(
            ASN, PORTS[2][0], [(PORTS[0][1], 65001), (PORTS[1][1], 65002)],
            ["10.4.0.0/24"]))
        self.frr_start(self.r, "ospfd", ospf_conf(PORTS[2][0], self.dev(0),
                                                  ["10.1.0.0/24"]))
        self.frr_start(self.r, "staticd", static6_conf(self.dev))

    def stop_router_frr(self):
        for daemon in ("staticd", "ospfd", "bgpd", "zebra"):
            self.frr_stop(self.r, daemon)

    def start_peers(self):
        self.frr_start(self.p1, "zebra", "hostname p1\n")
        self.frr_start(self.p1, "bgpd", bgp_conf(
            65001, PORTS[0][1], [(PORTS[0][0], ASN)],
            [ECMP_NET, P1_NET, GONE_NET, HOST_NET]))
        self.frr_start(self.p1, "ospfd", ospf_conf(
            PORTS[0][1], "eth0", ["10.1.0.0/24", OSPF_NET]))
        self.frr_start(self.p2, "zebra", "hostname p2\n")
        self.frr_start(self.p2, "bgpd", bgp_conf(
            65002, PORTS[1][1], [(PORTS[1][0], ASN)], [ECMP_NET, P2_NET]))

    def cleanup_frr(self):
        for ns, d in self.frr_dirs.items():
            for daemon in ("staticd", "ospfd", "bgpd", "zebra"):
                try:
                    self.frr_stop(ns, daemon)
                except Exception:
                    pass
        for f in set(var_tmp_frr()) - self.var_tmp_before:
            shutil.rmtree(os.path.join("/var/tmp/frr", f), ignore_errors=True)

    # -- the router's routes, from listack or (--linux) the kernel --------

    def routes(self, prefix):
        """(proto, [gateways]) of prefix in the router's table, or None."""
        if self.linux:
            r = self.ns(self.r, ["ip", "-j", "-6" if ":" in prefix else "-4",
                                 "route", "show", "exact", prefix],
                        check=False)
            try:
                rows = json.loads(r.stdout or "[]")
            except ValueError:
                return None
            if not rows:
                return None
            row = rows[0]
            hops = row.get("nexthops") or [row]
            return row.get("protocol"), [h["gateway"] for h in hops
                                         if "gateway" in h]
        rc, text, _err = self.ctl_cmd("show", "routes", json_out=True)
        if rc != 0:
            return None
        return listack_route(json.loads(text), prefix)


def listack_route(rows, prefix):
    """(proto, [gateways]) of prefix in `listack-ctl -j show routes`."""
    proto, gws, seen = None, [], False
    for row in rows:
        if row.get("dst") != prefix:
            continue
        seen = True
        proto = row.get("proto", proto)
        for p in row.get("nexthops") or [row]:
            if p.get("gateway"):
                gws.append(p["gateway"])
    return (proto, gws) if seen else None


def bgp_conf(asn, router_id, neighbors, networks):
    """bgpd.conf of shared/notes/frr-here.md's quick settings."""
    c = ("hostname bgp%d\nrouter bgp %d\n bgp router-id %s\n"
         " no bgp ebgp-requires-policy\n no bgp network import-check\n"
         " bgp bestpath as-path multipath-relax\n timers bgp 3 9\n"
         % (asn, asn, router_id))
    for addr, ras in neighbors:
        c += (" neighbor %s remote-as %d\n neighbor %s timers connect 1\n"
              " neighbor %s advertisement-interval 0\n"
              % (addr, ras, addr, addr))
    c += " address-family ipv4 unicast\n  maximum-paths 4\n"
    c += "".join("  network %s\n" % n for n in networks)
    return c + " exit-address-family\nexit\n"


def ospf_conf(router_id, dev, networks):
    """ospfd.conf: point-to-point with a 1 s hello on dev (Full in a few
    seconds: no DR election)."""
    return ("hostname ospf\ninterface %s\n ip ospf network point-to-point\n"
            " ip ospf hello-interval 1\n ip ospf dead-interval 4\nexit\n"
            "router ospf\n ospf router-id %s\n%sexit\n"
            % (dev, router_id, "".join(" network %s area 0\n" % n
                                       for n in networks)))


def static6_conf(dev):
    """staticd.conf: the IPv6 statics, each gateway with its interface
    and onlink (zebra then needs no connected prefix for the gateway:
    listack's TAPs have no IPv6 address)."""
    p1, p2 = PORTS6[0][1], PORTS6[1][1]
    return ("hostname static\n"
            "ipv6 route %s %s %s onlink\n" % (P1_6_NET, p1, dev(0)) +
            "ipv6 route %s %s %s onlink\n" % (GONE6_NET, p1, dev(0)) +
            "ipv6 route %s %s %s onlink\n" % (ECMP6_NET, p1, dev(0)) +
            "ipv6 route %s %s %s onlink\n" % (ECMP6_NET, p2, dev(1)) +
            "ipv6 route %s blackhole\n" % HOLE6_NET)


def var_tmp_frr():
    """FRR's daemons leave a directory each in /var/tmp/frr."""
    try:
        return os.listdir("/var/tmp/frr")
    except OSError:
        return []


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def wait_for(cond, timeout, step=0.25):
    end = time.monotonic() + timeout
    while True:
        try:
            if cond():
                return True
        except (RuntimeError, ValueError, KeyError):
            pass
        if time.monotonic() >= end:
            return False
        time.sleep(step)


# ======================================================================
# Checks. Each returns None (pass) or a reason string (fail).


def established(env):
    peers = env.vtysh_json(env.r, "show bgp ipv4 unicast summary json") \
        .get("peers", {})
    return sorted(a for a, p in peers.items()
                  if p.get("state") == "Established")


def check_bgp_up(env):
    want = [PORTS[0][1], PORTS[1][1]]
    if wait_for(lambda: established(env) == want, 60, 0.5):
        return None
    return "Established after 60 s: %s of %s" % (established(env), want)


def route_is(env, prefix, proto, n_paths=None):
    r = env.routes(prefix)
    return r is not None and r[0] == proto and \
        (n_paths is None or len(r[1]) == n_paths)


def check_routes(env, nets, proto, timeout=30):
    if wait_for(lambda: all(route_is(env, n, proto) for n in nets),
                timeout):
        return None
    return "; ".join("%s: %s" % (n, env.routes(n)) for n in nets
                     if not route_is(env, n, proto)) + \
        " (want proto %s within %d s)" % (proto, timeout)


def ping(env, ns, dst, count=3):
    r = env.ns(ns, ["ping", "-c", str(count), "-i", "0.2", "-W", "1", dst],
               timeout=20, check=False)
    tx, rx = nt.ping_summary(r.stdout)
    return None if rx == count else "ping %s from %s: %s/%s replies" % (
        dst, ns, rx, tx)


def check_forwarding(env):
    fwd = env.ns(env.r, ["sysctl", "-n", "net.ipv4.ip_forward"]).stdout
    if not env.linux and fwd.strip() != "0":
        return "ip_forward is %s in the router namespace" % fwd.strip()
    for dst in (HOST, P1_ADDR, P2_ADDR):
        err = ping(env, env.cli, dst)
        if err:
            return err
    return None


def check_udp_forwarded(env):
    sink = env.bg_helper(env.host, "flow-sink", ECMP_PORT, 15)
    env.my_helper(env.cli, "flow-send", HOST, ECMP_PORT, 4, 2)
    got = json.loads(sink.stdout.readline() or "{}").get("flows", {})
    if sum(got.values()) != 8:
        return "the host got %s of 4 flows x 2 datagrams" % got
    return None


def check_ecmp_paths(env):
    want = sorted([PORTS[0][1], PORTS[1][1]])
    if wait_for(lambda: sorted(env.routes(ECMP_NET)[1]) == want, 30):
        if env.verbose and not env.linux:
            print(env.ctl_cmd("show", "routes")[1], end="")
        return None
    return "%s: %s, want paths via %s" % (ECMP_NET, env.routes(ECMP_NET),
                                          want)


def ecmp_split(env, addr):
    """64 flows to addr (on both peers' lo): each flow reaches one peer
    only, and each peer gets a fair share (at least 16 of 64: 4 standard
    deviations below 32 when each flow's path is a coin toss). The
    problems, and the flows each peer got."""
    sinks = [env.bg_helper(ns, "flow-sink", ECMP_PORT, 20,
                           "6" if ":" in addr else "4")
             for ns in (env.p1, env.p2)]
    env.my_helper(env.cli, "flow-send", addr, ECMP_PORT, FLOWS, 3)
    got = [json.loads(s.stdout.readline() or "{}").get("flows", {})
           for s in sinks]
    a, b = set(got[0]), set(got[1])
    problems = []
    if a & b:
        problems.append("flows at both peers: %s" % sorted(a & b))
    if len(a | b) != FLOWS:
        problems.append("%d of %d flows arrived" % (len(a | b), FLOWS))
    if min(len(a), len(b)) < FLOWS // 4:
        problems.append("split %d/%d" % (len(a), len(b)))
    if any(v != 3 for g in got for v in g.values()):
        problems.append("datagrams per flow %s" % got)
    if env.verbose:
        print("  ECMP split to %s: peer1 %d flows, peer2 %d" % (
            addr, len(a), len(b)))
    return problems, a, b


def check_ecmp_split(env):
    problems, a, b = ecmp_split(env, ECMP_ADDR)
    env.flows_at = {PORTS[0][1]: a, PORTS[1][1]: b}
    return "; ".join(problems) or None


def check_ip6_ecmp_split(env):
    """The same over the IPv6 static with both peers' gateways, once
    both neighbours are known: before, a path's first datagrams wait in
    ND's hold queue, 3 a neighbour (LSK_NEIGH_HOLD, src/l2/l2.h), and the
    rest are dropped. IPv4's peers are known from their BGP sessions."""
    err = ping6(env, env.cli, PORTS6[0][1], 1) or \
        ping6(env, env.cli, PORTS6[1][1], 1)
    if err:
        return err
    return "; ".join(ecmp_split(env, ECMP6_ADDR)[0]) or None


def check_route_get_flow(env):
    """`route get ADDR from A proto udp sport S dport D` names the
    gateway of the peer that flow reached in check_ecmp_split."""
    at = getattr(env, "flows_at", None)
    if not at:
        return "no ECMP split to compare with"
    wrong = []
    if env.verbose:
        print(env.ctl_cmd("route", "get", ECMP_ADDR, "from", CLIENT, "proto",
                          "udp", "sport", "40000", "dport",
                          str(ECMP_PORT))[1], end="")
    for sport in range(40000, 40000 + 16):
        rc, text, err = env.ctl_cmd(
            "route", "get", ECMP_ADDR, "from", CLIENT, "proto", "udp",
            "sport", str(sport), "dport", str(ECMP_PORT), json_out=True)
        if rc != 0:
            return "route get: exit %d: %s" % (rc, err.strip())
        gw = json.loads(text).get("gateway")
        if str(sport) not in {str(p) for p in at.get(gw, ())}:
            wrong.append("sport %d: route get says %s" % (sport, gw))
    return "; ".join(wrong) or None


def check_configured_wins(env):
    """A route of the configuration for a learned prefix stands in front
    of it; deleted, the learned one is back."""
    rc, _out, err = env.ctl_cmd("route", "add", P2_NET, "blackhole")
    if rc != 0:
        return "route add %s blackhole: %s" % (P2_NET, err.strip())
    try:
        if ping(env, env.cli, P2_ADDR, 1) is None:
            return "%s answers through a blackhole route" % P2_ADDR
        _rc, text, _err = env.ctl_cmd("show", "routes", P2_NET,
                                      json_out=True)
        rows = json.loads(text)
        if not any(r.get("shadowed") and r.get("proto") == "bgp"
                   for r in rows):
            return "the learned route is not shown shadowed: %s" % rows
    finally:
        rc, _out, err = env.ctl_cmd("route", "del", P2_NET)
    if rc != 0:
        return "route del %s: %s" % (P2_NET, err.strip())
    if not route_is(env, P2_NET, "bgp", 1):
        return "after route del: %s" % (env.routes(P2_NET),)
    return ping(env, env.cli, P2_ADDR)


def check_not_in_config(env):
    """Learned routes stay out of `show config` (FRR gives them again)."""
    rc, text, err = env.ctl_cmd("show", "config")
    if rc != 0:
        return "show config: exit %d: %s" % (rc, err.strip())
    found = [n for n in (P1_NET, P2_NET, ECMP_NET, HOST_NET) if n in text]
    return "learned routes in show config: %s" % found if found else None


def check_withdraw(env):
    env.vtysh(env.p1, "router bgp 65001", "address-family ipv4 unicast",
              "no network " + GONE_NET, conf=True)
    if not wait_for(lambda: env.routes(GONE_NET) is None, 15):
        return "%s still %s 15 s after its withdrawal" % (
            GONE_NET, env.routes(GONE_NET))
    if ping(env, env.cli, GONE_ADDR, 1) is None:
        return "%s still answers after its withdrawal" % GONE_ADDR
    return None


def ping6(env, ns, dst, count=3):
    r = env.ns(ns, ["ping", "-6", "-c", str(count), "-i", "0.2", "-W", "1",
                    dst], timeout=20, check=False)
    tx, rx = nt.ping_summary(r.stdout)
    return None if rx == count else "ping -6 %s from %s: %s/%s replies" % (
        dst, ns, rx, tx)


def check_ip6_statics(env):
    """zebra's IPv6 statics, learned over FPM: proto static, the ECMP
    one with both gateways, the blackhole with none."""
    err = check_routes(env, [P1_6_NET, GONE6_NET, ECMP6_NET, HOLE6_NET],
                       "static")
    if err:
        return err
    want = sorted([PORTS6[0][1], PORTS6[1][1]])
    # both paths, as Linux's
    if not wait_for(lambda: sorted(env.routes(ECMP6_NET)[1]) == want, 10):
        return "%s: %s, want paths via %s" % (ECMP6_NET,
                                              env.routes(ECMP6_NET), want)
    if env.routes(P1_6_NET)[1] != [PORTS6[0][1]]:
        return "%s: %s" % (P1_6_NET, env.routes(P1_6_NET))
    return None


def check_ip6_forwarding(env):
    fwd = env.ns(env.r, ["sysctl", "-n", "net.ipv6.conf.all.forwarding"],
                 check=False).stdout.strip()
    if not env.linux and fwd not in ("0", ""):
        return "IPv6 forwarding is %s in the router namespace" % fwd
    return ping6(env, env.cli, P1_6_ADDR) or \
        ping6(env, env.cli, ECMP6_ADDR)


def check_ip6_withdraw(env):
    env.vtysh(env.r, "no ipv6 route %s %s %s onlink" % (
        GONE6_NET, PORTS6[0][1], env.dev(0)), conf=True)
    if not wait_for(lambda: env.routes(GONE6_NET) is None, 15):
        return "%s still %s 15 s after `no ipv6 route`" % (
            GONE6_NET, env.routes(GONE6_NET))
    return ping6(env, env.cli, P1_6_ADDR)


def check_tcp_router(env):
    env.bg_helper(env.r, "tcp-server", PORTS[2][0], TCP_PORT, 20)
    res = env.my_helper(env.cli, "tcp-client", PORTS[2][0], TCP_PORT, 20000)
    return None if res.get("result") == "ok" else "TCP echo to %s:%d: %s" % (
        PORTS[2][0], TCP_PORT, res.get("result"))


def check_kernel_ping(env):
    for dst in (PORTS[0][1], CLIENT, HOST):
        err = ping(env, env.r, dst)
        if err:
            return err
    return None


def check_ospf(env):
    def full():
        nbrs = env.vtysh_json(env.r, "show ip ospf neighbor json") \
            .get("neighbors", {})
        return any(n.get("nbrState", n.get("state", "")).startswith("Full")
                   for lst in nbrs.values() for n in lst)
    if not wait_for(full, 40, 0.5):
        return "no OSPF neighbour Full after 40 s: %s" % env.vtysh(
            env.r, "show ip ospf neighbor")
    return check_routes(env, [OSPF_NET], "ospf") or \
        ping(env, env.cli, OSPF_ADDR)


def check_restart(env):
    """zebra, bgpd and ospfd of the router restarted (bgpd and ospfd with
    zebra, as watchfrr does: FRRouting/frr#22362): everything comes back."""
    env.stop_router_frr()
    env.start_router_frr()
    err = check_bgp_up(env)
    if err:
        return "after the restart: " + err
    err = check_routes(env, [P1_NET, P2_NET, HOST_NET], "bgp", 30) or \
        check_routes(env, [OSPF_NET], "ospf", 40) or check_ecmp_paths(env)
    if err:
        return "after the restart: " + err
    if env.routes(GONE_NET) is not None:
        return "the withdrawn %s is back: %s" % (GONE_NET,
                                                 env.routes(GONE_NET))
    err = check_routes(env, [P1_6_NET, ECMP6_NET], "static", 30)
    if err:
        return "after the restart: " + err
    return ping(env, env.cli, HOST) or ping(env, env.cli, OSPF_ADDR)


# ======================================================================


def main():
    args = nt.script_args(__doc__, "netns-frr", [
        (os.access(os.path.join(FRR, f), os.X_OK),
         "FRR is not installed (%s/%s)" % (FRR, f))
        for f in ("zebra", "bgpd", "ospfd", "staticd")] + [
            (shutil.which("vtysh") is not None,
             "no vtysh (FRR is not installed)")], HELPERS)
    fwd = os.path.abspath(args.fwd) if args.fwd else None
    ctl = os.path.abspath(args.ctl) if args.ctl else None

    checks = nt.Checks(args.verbose)
    record, run_check = checks.record, checks.run

    env = Env(fwd, ctl, args.verbose, args.linux)
    os.chmod(env.tmp, 0o755)    # the daemons (user frr) reach their dirs
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    with nt.Run(env, checks, args.verbose, "netns-frr", args.keep_logs,
                (env.cleanup_frr,)) as run:
        env.make_topology()
        if not args.linux:
            err = env.start_listack()
            if err:
                record("router-start", err)
                raise SystemExit
        record("router-start", None)
        env.start_peers()
        env.start_router_frr()
        # the rest needs the sessions: without them, only the exit and
        # the mbufs are checked
        if run_check("bgp-established", check_bgp_up, env):
            run_check("routes-bgp", check_routes, env,
                      [P1_NET, P2_NET, GONE_NET, HOST_NET], "bgp")
            run_check("forward-ping", check_forwarding, env)
            run_check("forward-udp", check_udp_forwarded, env)
            run_check("ecmp-paths", check_ecmp_paths, env)
            run_check("ecmp-split", check_ecmp_split, env)
            if not args.linux:
                run_check("route-get-flow", check_route_get_flow, env)
                run_check("learned-not-in-config", check_not_in_config, env)
                run_check("configured-wins", check_configured_wins, env)
            run_check("ip6-static-routes", check_ip6_statics, env)
            run_check("ip6-forward-ping", check_ip6_forwarding, env)
            run_check("ip6-ecmp-split", check_ip6_ecmp_split, env)
            run_check("ip6-static-withdraw", check_ip6_withdraw, env)
            run_check("bgp-withdraw", check_withdraw, env)
            run_check("tcp-to-router", check_tcp_router, env)
            run_check("kernel-ping", check_kernel_ping, env)
            run_check("ospf-full-routes", check_ospf, env)
            run_check("frr-restart", check_restart, env)
        env.stop_bg()
        if not args.linux:
            # listack forwarded the flows (not the kernel), the sessions
            # crossed the host path both ways, zebra connected twice (the
            # restart) and sent nothing wrong
            nt.stop_and_count(env, record, "", (
                ("stats-mbufs", "mbufs_in_use", "==", 0),
                ("stats-forwarded", "ip.ForwDatagrams", ">=", FLOWS * 3),
                ("stats-forwarded6", "ip6.OutForwDatagrams", ">=",
                 FLOWS * 3),
                ("stats-host-to-kernel", "host.ToKernel", ">=", 20),
                ("stats-host-from-kernel", "host.FromKernel", ">=", 20),
                ("stats-fpm-connections", "fpm.Connections", ">=", 2),
                ("stats-fpm-bad-frames", "fpm.ErrFrames", "==", 0),
                ("stats-fpm-bad-messages", "fpm.ErrMessages", "==", 0),
            ), args.verbose)
    return run.status()


if __name__ == "__main__":
    sys.exit(main())
