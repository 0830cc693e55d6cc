#!/usr/bin/python3
"""IPv6 through listack-fwd for Linux hosts in network namespaces: the
hosts find the router and each other with neighbour discovery (no static
neighbours), use it as their IPv6 router with their own tools (ping,
UDP sockets), and IPv4 runs beside it.

    /usr/bin/python3 tests/netns/run_netns_ip6.py build/listack-fwd build/listack-ctl [-v] [--keep-logs] [--linux]

Layout (namespace names carry this process's pid):

    client                      R (the router)                    server
    eth0 2001:db8:1::2/64 <-> lp0 port 0   [listack-fwd]   port 1 lp1 <-> eth0 2001:db8:2::2/64
         + SLAAC (RA)           2001:db8:1::1/64   2001:db8:2::1/64        fe80::2 (besides its own)
         10.1.0.2/24            10.1.0.1/24        10.2.0.1/24             10.2.0.2/24, mtu 1280
                                `port 0 ra on`     `port 1 mtu 1280`       lo: 2001:db8:9::1,
                                                                           2001:db8:8::1

listack-fwd runs in R on net_af_packet ports with

    address add 2001:db8:1::1/64 port 0   (and 10.1.0.1/24)
    address add 2001:db8:2::1/64 port 1   (and 10.2.0.1/24)
    port 1 mtu 1280
    port 0 ra on
    route add 2001:db8:9::/64 via 2001:db8:2::2
    route add 2001:db8:8::/64 via fe80::2 port 1
    udp listen [2001:db8:1::1]:7 echo

The client takes its address (SLAAC) and its default route (via the
router's link-local address, which must be the modified EUI-64 of the
port's MAC) from the router's advertisements; the server has a static
default route via the router's global address.

Checks, each with the counters it must move (the deltas of `listack-ctl
-j show stats` around it, in the ip6, icmp6, udp6 sections): the RA and
SLAAC; ping6 of the router's global, link-local and far addresses (echo
counters); ping6 through it both ways, and to the networks behind the
server via its global and its link-local address (OutForwDatagrams);
IPv4 ping at the same time as ping6; UDP both ways with 1 byte, and 1400
bytes from the server (fragments of its 1280 link, forwarded as they
are); `ping -t 1` answered with time exceeded from the router; ping -M
do over the 1280 link answered with packet too big (mtu=1280) and
nothing forwarded, the client's path MTU shrinks; a 1400-byte UDP
datagram to the server lost with packet too big, then sent again (the
client fragments it) and received whole; no route answered with
destination unreachable (No route); 1 and 3000 bytes to the echo
endpoint, the 3000 as three fragments reassembled and the answer
fragmented back; `route get`, `show routes` and `show neigh` (learnt
neighbours only, the server by its global and link-local address);
`listack-ctl ping ADDR6` from the router to the server (3/3, by its
global address and by its link-local one with `port 1`; in JSON with a
source of ours; icmp6.OutEchos and InEchoReplies), `traceroute ADDR6`
to the addresses behind the server (reached at hop 1: the server is
the last hop this topology has), ping's refusals;
SIGTERM, exit 0, mbufs_in_use 0, and the neighbour discovery totals.

--linux runs the same hosts and checks against a Linux router in R
(forwarding on, the same addresses, MTU and routes; a Python echo socket
on [2001:db8:1::1]:7; counters from R's /proc/net/snmp6 through nstat):
the reference the expectations were checked against. Linux sends no RA
without a daemon (radvd): there the client gets a static default route
via R's link-local address and the RA check is not run; listack-only
checks (route get, show ..., the stats at exit) are left out.

Output and exit status as run_netns_tests.py's (PASS/FAIL lines, `N
passed, N failed`; 77 without root). Every wait is bounded; namespaces
and processes go in a finally block.
"""

import ipaddress
import json
import os
import re
import select
import shutil
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_netns_tests as nt  # noqa: E402

SELF = os.path.abspath(__file__)
PY = nt.PY

CLI6 = "2001:db8:1::2"
GW6_C = "2001:db8:1::1"
SRV6 = "2001:db8:2::2"
GW6_S = "2001:db8:2::1"
SRV_LL = "fe80::2"              # the server's second link-local address
BEHIND_G = "2001:db8:9::1"      # on the server's lo, routed via SRV6
BEHIND_G_NET = "2001:db8:9::/64"
BEHIND_L = "2001:db8:8::1"      # on the server's lo, routed via fe80::2
BEHIND_L_NET = "2001:db8:8::/64"
NOROUTE = "2001:db8:77::1"
PREFIX_C = "2001:db8:1::/64"
CLI4, GW4_C, SRV4, GW4_S = "10.1.0.2", "10.1.0.1", "10.2.0.2", "10.2.0.1"
FAR_MTU = 1280
ECHO_PORT = 7


# ======================================================================
# Helpers: run inside a namespace as `run_netns_ip6.py --helper NAME`.


out = nt.out


def sockaddr(addr, port):
    """(addr, port) or, for fe80::x%dev, with its scope."""
    return socket.getaddrinfo(addr, int(port), socket.AF_INET6,
                              socket.SOCK_DGRAM)[0][4]


def helper_udp6_sink(addr, port, lifetime):
    """Print every datagram received on [addr]:port for lifetime s."""
    nt.udp_sink(socket.AF_INET6, sockaddr(addr, port), lifetime,
                lambda src: "[%s]:%d" % src[:2])


def helper_udp6_send(dst, port, sizes, seed, wait_err="0"):
    """One datagram per size to [dst]:port; print what was sent. With
    wait_err > 0, the socket stays open until an ICMPv6 error for it
    comes (or wait_err seconds): Linux learns a path MTU from packet too
    big only while the socket it names exists, and a loaded router's
    answer may come after the last send."""
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    if float(wait_err) > 0:
        s.setsockopt(socket.IPPROTO_IPV6,
                     getattr(socket, "IPV6_RECVERR", 25), 1)
    sent = []
    err = None
    try:
        for i, n in enumerate(json.loads(sizes)):
            b = nt.payload(n, int(seed) + i)
            s.sendto(b, sockaddr(dst, port))
            sent.append({"len": n, "sha": nt.digest(b)})
            time.sleep(0.02)
        poller = select.poll()
        poller.register(s, select.POLLERR)
        if float(wait_err) > 0 and poller.poll(float(wait_err) * 1000):
            s.recvmsg(2048, 512, socket.MSG_ERRQUEUE)
            err = "icmp6"
        out({"sent": sent, "icmp_error": err})
    except OSError as e:
        out({"error": str(e), "sent": sent})


def helper_udp6_echo(dst, port, wait, sizes):
    """Send payloads to an echo service; print what came back, from where."""
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    res = []
    for i, n in enumerate(json.loads(sizes)):
        b = nt.payload(n, 200 + i)
        s.sendto(b, sockaddr(dst, port))
        end = time.monotonic() + float(wait)
        r = {"len": n, "result": "timeout"}
        left = end - time.monotonic()
        if left > 0:
            s.settimeout(left)
            try:
                data, src = s.recvfrom(70000)
                r = {"len": n, "src": "[%s]:%d" % src[:2], "got": len(data),
                     "result": "ok" if data == b else "mismatch"}
            except socket.timeout:
                pass
            except OSError as e:
                r = {"len": n, "result": str(e)}
        res.append(r)
    out({"echo": res})


def helper_udp6_echo_server(addr, port, lifetime):
    """--linux: the router's echo service, a plain socket."""
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    s.bind(sockaddr(addr, port))
    end = time.monotonic() + float(lifetime)
    out({"ready": True})
    while time.monotonic() < end:
        s.settimeout(max(end - time.monotonic(), 0.01))
        try:
            data, src = s.recvfrom(70000)
        except socket.timeout:
            break
        s.sendto(data, src)


HELPERS = {
    "udp6-sink": helper_udp6_sink,
    "udp6-send": helper_udp6_send,
    "udp6-echo": helper_udp6_echo,
    "udp6-echo-server": helper_udp6_echo_server,
}


# ======================================================================
# The namespaces and the router.


def eui64_ll(mac):
    """The link-local address of a MAC (modified EUI-64, RFC 4291)."""
    b = [int(x, 16) for x in mac.split(":")]
    iid = bytes([b[0] ^ 2, b[1], b[2], 0xff, 0xfe, b[3], b[4], b[5]])
    return str(ipaddress.IPv6Address(b"\xfe\x80" + b"\0" * 6 + iid))


class Env(nt.Env):
    """run_netns_tests.Env's commands, with this topology."""

    script = SELF
    link_tag = "l6"

    def __init__(self, fwd, ctl, verbose, linux):
        super().__init__(fwd, verbose, ctl)
        pid = os.getpid()
        self.linux = linux
        self.r = "lsk6-r-%d" % pid
        self.cli = "lsk6-c-%d" % pid
        self.srv = "lsk6-s-%d" % pid
        self.prefix = "lsk6-%d" % pid
        self.router_ll = None           # of port 0 (lp0), from its MAC
        self.srv_mac = None

    def sysctl(self, ns, *kv):
        self.ns(ns, ["sysctl", "-qw"] + list(kv))

    def mac(self, ns, dev):
        r = self.ns(ns, ["ip", "-j", "link", "show", "dev", dev])
        return json.loads(r.stdout)[0]["address"]

    def make_topology(self):
        for tool in ("ip", "ethtool", "ping", "nstat"):
            if shutil.which(tool) is None:
                raise nt.Skip("%s not found" % tool)
        for ns in (self.r, self.cli, self.srv):
            r = self.run(["ip", "netns", "add", ns], check=False)
            if r.returncode != 0:
                raise nt.Skip("cannot create a network namespace: "
                              + r.stdout.strip())
            self.made_ns.append(ns)
            self.ns(ns, ["ip", "link", "set", "lo", "up"])
            for conf in ("all", "default"):
                self.sysctl(ns, "net.ipv6.conf.%s.disable_ipv6=0" % conf,
                            "net.ipv6.conf.%s.accept_dad=0" % conf)
        self.link(self.r, "lp0", self.cli, "eth0")
        self.link(self.r, "lp1", self.srv, "eth0")
        for dev, mtu in (("lp0", 1500), ("lp1", FAR_MTU)):
            self.ns(self.r, ["ethtool", "-K", dev, "gro", "off"],
                    check=False)
            # listack's ports: the router's kernel stays off them
            self.sysctl(self.r, "net.ipv6.conf.%s.disable_ipv6=%d"
                        % (dev, 0 if self.linux else 1))
            self.ns(self.r, ["ip", "link", "set", dev, "mtu", str(mtu), "up"])
        self.router_ll = eui64_ll(self.mac(self.r, "lp0"))
        for ns, mtu, a6, a4, gw4 in ((self.cli, 1500, CLI6, CLI4, GW4_C),
                                     (self.srv, FAR_MTU, SRV6, SRV4, GW4_S)):
            self.sysctl(ns, "net.ipv6.conf.eth0.disable_ipv6=0",
                        "net.ipv6.conf.eth0.accept_dad=0",
                        "net.ipv6.conf.eth0.forwarding=0")
            # without this, veth hands AF_PACKET UDP with a partial
            # checksum (as in run_netns_tests.py)
            self.ns(ns, ["ethtool", "-K", "eth0", "tx", "off"])
            self.ns(ns, ["ip", "link", "set", "eth0", "mtu", str(mtu)])
            self.ns(ns, ["ip", "addr", "add", a4 + "/24", "dev", "eth0"])
            self.ns(ns, ["ip", "-6", "addr", "add", a6 + "/64", "dev",
                         "eth0", "nodad"])
        self.sysctl(self.cli, "net.ipv6.conf.eth0.accept_ra=1",
                    "net.ipv6.conf.eth0.autoconf=1")
        # the client's link comes up once the router runs (its router
        # solicitation then finds an answer)
        self.ns(self.srv, ["ip", "link", "set", "eth0", "up"])
        self.ns(self.srv, ["ip", "route", "add", "default", "via", GW4_S])
        self.ns(self.srv, ["ip", "-6", "route", "add", "default", "via",
                           GW6_S])
        self.ns(self.srv, ["ip", "-6", "addr", "add", SRV_LL + "/64", "dev",
                           "eth0", "nodad"])
        for a in (BEHIND_G, BEHIND_L):
            self.ns(self.srv, ["ip", "-6", "addr", "add", a + "/128", "dev",
                               "lo"])
        self.srv_mac = self.mac(self.srv, "eth0")
        if self.linux:
            self.ns(self.r, ["ip", "addr", "add", GW4_C + "/24", "dev",
                             "lp0"])
            self.ns(self.r, ["ip", "addr", "add", GW4_S + "/24", "dev",
                             "lp1"])
            self.ns(self.r, ["ip", "-6", "addr", "add", GW6_C + "/64", "dev",
                             "lp0", "nodad"])
            self.ns(self.r, ["ip", "-6", "addr", "add", GW6_S + "/64", "dev",
                             "lp1", "nodad"])
            self.sysctl(self.r, "net.ipv4.ip_forward=1",
                        "net.ipv6.conf.all.forwarding=1")
            self.ns(self.r, ["ip", "-6", "route", "add", BEHIND_G_NET, "via",
                             SRV6])
            self.ns(self.r, ["ip", "-6", "route", "add", BEHIND_L_NET, "via",
                             SRV_LL, "dev", "lp1"])
        else:
            self.sysctl(self.r, "net.ipv4.ip_forward=0",
                        "net.ipv6.conf.all.forwarding=0")

    def client_up(self):
        self.ns(self.cli, ["ip", "link", "set", "eth0", "up"])
        self.ns(self.cli, ["ip", "route", "add", "default", "via", GW4_C])
        if self.linux:
            # no RA from a bare Linux router: the link-local route by hand
            self.ns(self.cli, ["ip", "-6", "route", "add", "default", "via",
                               self.router_ll, "dev", "eth0"])

    def start_listack(self):
        self.run_no += 1
        self.stats = os.path.join(self.tmp, "stats.json")
        self.log = os.path.join(self.tmp, "listack-fwd.log")
        conf = os.path.join(self.tmp, "listack.conf")
        with open(conf, "w") as f:
            f.write("# written by tests/netns/run_netns_ip6.py\n"
                    "address add %s/24 port 0\n"
                    "address add %s/24 port 1\n"
                    "address add %s/64 port 0\n"
                    "address add %s/64 port 1\n"
                    "port 1 mtu %d\n"
                    "port 0 ra on\n"
                    "route add %s via %s\n"
                    "route add %s via %s port 1\n"
                    "udp listen [%s]:%d echo\n"
                    % (GW4_C, GW4_S, GW6_C, GW6_S, FAR_MTU, BEHIND_G_NET,
                       SRV6, BEHIND_L_NET, SRV_LL, GW6_C, ECHO_PORT))
        self.sock = os.path.join(self.tmp, "ctl.sock")
        return self.launch([nt.AF_PACKET % (i, "lp%d" % i) for i in (0, 1)],
                           conf, ns=self.r)

    # -- counters: listack's, or (--linux) R's kernel's ------------------

    def counters(self):
        """{'ip6.InReceives': n, 'icmp6.InEchos': n, ...}"""
        flat = {}
        if self.linux:
            r = self.ns(self.r, ["nstat", "-asz"])
            for line in r.stdout.splitlines():
                m = re.match(r"(Ip6|Icmp6|Udp6|Ip|Icmp)(\w+)\s+(\d+)", line)
                if m:
                    sec = {"Ip6": "ip6", "Icmp6": "icmp6", "Udp6": "udp6",
                           "Ip": "ip", "Icmp": "icmp"}[m.group(1)]
                    name = m.group(2)
                    if sec == "ip" and name == "ForwDatagrams":
                        flat["ip.ForwDatagrams"] = int(m.group(3))
                    elif sec.endswith("6"):
                        flat["%s.%s" % (sec, name)] = int(m.group(3))
            return flat
        rc, text, err = self.ctl_cmd("show", "stats", json_out=True)
        if rc != 0:
            raise RuntimeError("show stats: exit %d: %s" % (rc, err.strip()))
        st = json.loads(text)
        for sec in ("ip6", "icmp6", "udp6", "nd", "ip", "icmp"):
            for k, v in (st.get(sec) or {}).items():
                if isinstance(v, int):
                    flat["%s.%s" % (sec, k)] = v
        return flat

    # -- helpers in namespaces -------------------------------------------

    def my_helper(self, ns, name, *args, timeout=20):
        return self.helper(ns, name, *args, timeout=timeout)


# ======================================================================
# Checks: each returns None (pass) or the reason.


def ping6(env, ns, dst, count=3, extra=()):
    r = env.ns(ns, ["ping", "-6", "-n", "-c", str(count), "-i", "0.2", "-W",
                    "1"] + list(extra) + [dst], timeout=30, check=False)
    tx, rx = nt.ping_summary(r.stdout)
    return tx, rx, r.stdout


def delta_problems(before, after, want):
    """want: {counter: n (exact) or (op, n)}; what the deltas break."""
    bad = []
    for k, w in want.items():
        if env_linux_skip(k):
            continue
        if k not in after:
            bad.append("%s: no such counter" % k)
            continue
        d = after[k] - before.get(k, 0)
        op, n = w if isinstance(w, tuple) else ("==", w)
        if not (d == n if op == "==" else d >= n):
            bad.append("%s +%d, expected %s %d" % (k, d, op, n))
    return bad


LINUX = [False]


def env_linux_skip(k):
    """nd.* are listack's own (Linux has no such section)."""
    return LINUX[0] and k.startswith("nd.")


def counted(env, want, fn):
    """Run fn() (None or a reason), then hold the counters to want."""
    before = env.counters()
    why = fn()
    time.sleep(0.1)
    after = env.counters()
    if env.verbose:
        print("  deltas: %s" % {k: v - before.get(k, 0)
                                for k, v in after.items()
                                if v != before.get(k, 0)})
    bad = delta_problems(before, after, want)
    if why:
        bad.insert(0, why)
    return "; ".join(bad) or None


def wait_for(cond, timeout, step=0.2):
    end = time.monotonic() + timeout
    while True:
        v = cond()
        if v or time.monotonic() >= end:
            return v
        time.sleep(step)


def check_ra_slaac(env):
    """The client's default route is the router's link-local address
    (learnt from its RA), and it made an address of the advertised
    prefix (SLAAC) besides its static one."""
    prefix = ipaddress.IPv6Network(PREFIX_C)

    def learnt():
        rt = json.loads(env.ns(env.cli, ["ip", "-j", "-6", "route", "show",
                                         "default"]).stdout or "[]")
        ad = json.loads(env.ns(env.cli, ["ip", "-j", "-6", "addr", "show",
                                         "dev", "eth0"]).stdout or "[]")
        gws = [(r.get("gateway"), r.get("protocol")) for r in rt]
        slaac = [a["local"] for i in ad for a in i.get("addr_info", [])
                 if a.get("family") == "inet6" and a.get("dynamic")
                 and ipaddress.IPv6Address(a["local"]) in prefix]
        return (gws, slaac) if gws and slaac else None
    got = wait_for(learnt, 12)
    if not got:
        rt = env.ns(env.cli, ["ip", "-6", "route"]).stdout
        ad = env.ns(env.cli, ["ip", "-6", "addr", "show", "dev",
                              "eth0"]).stdout
        # the rest needs a route to the router
        env.ns(env.cli, ["ip", "-6", "route", "replace", "default", "via",
                         env.router_ll, "dev", "eth0"], check=False)
        return ("no default route and SLAAC address from the router's RA "
                "within 12 s (routes: %s; addresses: %s)"
                % (nt.short(rt), nt.short(ad)))
    gws, slaac = got
    client_mac = env.mac(env.cli, "eth0")
    want_addr = str(ipaddress.IPv6Address(
        int(prefix.network_address) |
        int(ipaddress.IPv6Address(eui64_ll(client_mac))) & ((1 << 64) - 1)))
    bad = []
    if (env.router_ll, "ra") not in gws:
        bad.append("default route %s, expected via %s (the EUI-64 of lp0's "
                   "MAC) proto ra" % (gws, env.router_ll))
    if want_addr not in slaac:
        bad.append("SLAAC address %s, expected %s" % (slaac, want_addr))
    return "; ".join(bad) or None


def ping_check(env, ns, dst, want, count=3, extra=()):
    def run():
        tx, rx, text = ping6(env, ns, dst, count, extra)
        if tx == count and rx == count:
            return None
        return "ping %s: %s/%s replies: %s" % (dst, rx, tx, nt.short(text))
    return counted(env, want, run)


def check_ipv4_alongside(env):
    """ping (IPv4) and ping6 through the router at the same time."""
    def run():
        p4 = subprocess.Popen(["ip", "netns", "exec", env.cli, "ping", "-4",
                               "-n", "-c", "5", "-i", "0.2", "-W", "1", SRV4],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True)
        try:
            tx6, rx6, text6 = ping6(env, env.cli, SRV6, 5)
            text4, _ = p4.communicate(timeout=20)
        finally:
            if p4.poll() is None:
                p4.kill()
                p4.wait()
        tx4, rx4 = nt.ping_summary(text4)
        bad = []
        if (tx4, rx4) != (5, 5):
            bad.append("ping %s: %s/%s: %s" % (SRV4, rx4, tx4,
                                               nt.short(text4)))
        if (tx6, rx6) != (5, 5):
            bad.append("ping6 %s: %s/%s: %s" % (SRV6, rx6, tx6,
                                                nt.short(text6)))
        return "; ".join(bad) or None
    return counted(env, {"ip.ForwDatagrams": 10,
                         "ip6.OutForwDatagrams": 10}, run)


def udp_through(env, src_ns, dst_ns, dst, sizes, port, want, dgrams=None):
    """Datagrams from src_ns to a sink on [dst]:port in dst_ns, received
    whole; the counters want."""
    def run():
        _p, q = env.bg_queue(dst_ns, "udp6-sink", dst, port, 10)
        res = env.my_helper(src_ns, "udp6-send", dst, port,
                            json.dumps(sizes), port)
        got = env.collect(q, len(sizes), 5) + env.collect(q, 10, 0.3)
        env.stop_bg()
        if "error" in res:
            return "send failed: %s" % res["error"]
        return nt.compare(res["sent"], got, "UDP %s to [%s]:%d"
                          % (sizes, dst, port))
    return counted(env, want, run)


def check_hop_limit(env):
    def run():
        tx, rx, text = ping6(env, env.cli, SRV6, 1, ("-t", "1"))
        if rx or not re.search(r"From %s icmp_seq=1 Time exceeded: Hop limit"
                               % re.escape(GW6_C), text):
            return "expected 'From %s icmp_seq=1 Time exceeded: Hop limit': " \
                   "%s" % (GW6_C, nt.short(text))
        return None
    return counted(env, {"icmp6.OutTimeExcds": 1, "ip6.InHdrErrors": 1,
                         "ip6.OutForwDatagrams": 0}, run)


def check_no_route(env):
    def run():
        tx, rx, text = ping6(env, env.cli, NOROUTE, 1)
        if rx or not re.search(r"From %s icmp_seq=1 Destination unreachable: "
                               r"No route" % re.escape(GW6_C), text):
            return "expected 'From %s icmp_seq=1 Destination unreachable: " \
                   "No route': %s" % (GW6_C, nt.short(text))
        return None
    return counted(env, {"icmp6.OutDestUnreachs": 1, "ip6.InNoRoutes": 1,
                         "ip6.OutForwDatagrams": 0}, run)


def client_pmtu(env, dst):
    r = env.ns(env.cli, ["ip", "-6", "route", "get", dst], check=False)
    m = re.search(r"\bmtu (?:lock )?(\d+)", r.stdout)
    return (int(m.group(1)) if m else None), nt.short(r.stdout)


def check_ptb_ping(env):
    """ping -M do of 1300 + 48 bytes over the 1280 link (to the network
    behind the server): packet too big from the router, mtu=1280,
    nothing forwarded; the client's path MTU to it is 1280."""
    def run():
        tx, rx, text = ping6(env, env.cli, BEHIND_G, 1,
                             ("-M", "do", "-s", "1300"))
        bad = []
        if rx:
            bad.append("%d replies through the %d link" % (rx, FAR_MTU))
        if not re.search(r"From %s icmp_seq=1 Packet too big: mtu=%d"
                         % (re.escape(GW6_C), FAR_MTU), text):
            bad.append("no 'From %s icmp_seq=1 Packet too big: mtu=%d'"
                       % (GW6_C, FAR_MTU))
        mtu, route = client_pmtu(env, BEHIND_G)
        if mtu != FAR_MTU:
            bad.append("the client's path MTU is not %d: %s" % (FAR_MTU,
                                                                route))
        return "; ".join(bad) + ": " + nt.short(text) if bad else None
    # not ip6.OutForwDatagrams: Linux (6.18) counts the dropped packet
    # there too, with FragFails (RFC 4293: a path was found)
    return counted(env, {"icmp6.OutPktTooBigs": 1, "ip6.InTooBigErrors": 1},
                   run)


def check_ptb_udp_retry(env):
    """1400 bytes of UDP to the server: the first datagram (1448 bytes,
    one packet) meets packet too big and is not forwarded; the client's
    path MTU shrinks, and the same datagram sent again goes as two
    fragments and arrives whole."""
    port = 5004
    bad = []
    _p, q = env.bg_queue(env.srv, "udp6-sink", SRV6, port, 10)
    c0 = env.counters()
    res = env.my_helper(env.cli, "udp6-send", SRV6, port, "[1400]", 40, 5)
    got = env.collect(q, 1, 1.0)
    c1 = env.counters()
    if "error" in res:
        bad.append("first send: %s" % res["error"])
    elif not res.get("icmp_error"):
        bad.append("no ICMPv6 error reached the sender in 5 s")
    if got:
        bad.append("the server got %s through a %d link" % (got, FAR_MTU))
    bad += ["first: " + x for x in delta_problems(c0, c1, {
        "icmp6.OutPktTooBigs": 1, "ip6.InTooBigErrors": 1})]
    mtu, route = client_pmtu(env, SRV6)
    if mtu != FAR_MTU:
        bad.append("the client's path MTU is not %d: %s" % (FAR_MTU, route))
    res = env.my_helper(env.cli, "udp6-send", SRV6, port, "[1400]", 40)
    got = env.collect(q, 1, 5) + env.collect(q, 5, 0.3)
    env.stop_bg()
    time.sleep(0.1)
    c2 = env.counters()
    why = nt.compare(res.get("sent", []), got, "1400 bytes sent again")
    if why:
        bad.append(why)
    bad += ["again: " + x for x in delta_problems(c1, c2, {
        "ip6.OutForwDatagrams": 2, "icmp6.OutPktTooBigs": 0})]
    return "; ".join(bad) or None


def check_echo_fragments(env):
    """1 and 3000 bytes to the echo endpoint: the 3000 arrive in three
    fragments (reassembled) and go back in three (the router fragments
    its own datagram to the client's 1500 link)."""
    def run():
        if env.linux:
            env.bg_queue(env.r, "udp6-echo-server", GW6_C, ECHO_PORT, 10)
        res = env.my_helper(env.cli, "udp6-echo", GW6_C, ECHO_PORT, 3,
                            "[1, 3000]")
        env.stop_bg()
        bad = []
        for r in res.get("echo", []):
            if r.get("result") != "ok":
                bad.append("%d bytes: %s" % (r["len"], r.get("result")))
            elif r.get("src") != "[%s]:%d" % (GW6_C, ECHO_PORT):
                bad.append("%d bytes: answered from %s" % (r["len"],
                                                          r.get("src")))
        if len(res.get("echo", [])) != 2:
            bad.append("helper: %r" % (res,))
        return "; ".join(bad) or None
    return counted(env, {"udp6.InDatagrams": 2, "udp6.OutDatagrams": 2,
                         "ip6.ReasmReqds": 3, "ip6.ReasmOKs": 1,
                         "ip6.FragOKs": 1, "ip6.FragCreates": 3}, run)


def check_route_get(env):
    """route get names the path and the learnt neighbour; a link-local
    gateway with its port."""
    bad = []
    for dst, gw in ((SRV6, None), (BEHIND_G, SRV6), (BEHIND_L, SRV_LL)):
        rc, text, err = env.ctl_cmd("route", "get", dst, json_out=True)
        if rc != 0:
            bad.append("route get %s: exit %d: %s" % (dst, rc, err.strip()))
            continue
        a = json.loads(text)
        want = {"verdict": "forward", "port": 1}
        if gw:
            want["gateway"] = gw
        if dst == SRV6:
            want["lladdr"] = env.srv_mac
        have = {k: a.get(k).lower() if k == "lladdr" and
                isinstance(a.get(k), str) else a.get(k) for k in want}
        if have != want:
            bad.append("route get %s: %s, expected %s" % (dst, have, want))
    rc, text, err = env.ctl_cmd("route", "get", NOROUTE, json_out=True)
    if rc != 0 or json.loads(text).get("verdict") == "forward":
        bad.append("route get %s: exit %d: %s %s" % (NOROUTE, rc, text.strip(),
                                                     err.strip()))
    return "; ".join(bad) or None


def check_show_routes(env):
    rc, text, err = env.ctl_cmd("show", "routes")
    if rc != 0:
        return "show routes: exit %d: %s" % (rc, err.strip())
    bad = []
    for pat in (r"%s\s.*%s" % (re.escape(BEHIND_G_NET), re.escape(SRV6)),
                r"%s\s.*%s" % (re.escape(BEHIND_L_NET), re.escape(SRV_LL)),
                re.escape(PREFIX_C)):
        if not re.search(pat, text):
            bad.append("no line matching %s" % pat)
    return "; ".join(bad) + ": " + nt.short(text) if bad else None


def check_show_neigh(env):
    """The server, by its global and link-local address, learnt (no static
    entry was configured)."""
    rc, text, err = env.ctl_cmd("show", "neigh")
    if rc != 0:
        return "show neigh: exit %d: %s" % (rc, err.strip())
    bad = []
    for a in (SRV6, SRV_LL):
        line = [l for l in text.splitlines()
                if re.search(r"(^|\s)%s(\s|$)" % re.escape(a), l)]
        if not line:
            bad.append("%s not listed" % a)
        elif env.srv_mac not in line[0].lower():
            bad.append("%s: %s, not %s" % (a, line[0].strip(), env.srv_mac))
        elif "static" in line[0].lower() or "permanent" in line[0].lower():
            bad.append("%s static: %s" % (a, line[0].strip()))
    return "; ".join(bad) + ": " + nt.short(text) if bad else None


def check_ctl_ping6(env, dst, extra=()):
    """listack-ctl ping ADDR6 from the router: 3 replies from dst, each
    line as ping6's, the summary, counted as ICMPv6 echoes we sent and
    replies we matched."""
    def run():
        rc, out, err = env.ctl_cmd("ping", dst, "count", "3", "interval",
                                   "200", *extra)
        if rc != 0:
            return "exit %d: %s" % (rc, err.strip())
        seqs = re.findall(r"^64 bytes from %s: icmp_seq=(\d) ttl=64 "
                          r"time=\d+\.\d{3} ms$" % re.escape(dst), out,
                          re.M)
        if sorted(seqs) != ["1", "2", "3"] or \
                "3 packets transmitted, 3 received, 0% packet loss" \
                not in out or not out.startswith("PING %s from " % dst):
            return "replies %s: %s" % (seqs, nt.short(out))
        return None
    return counted(env, {"icmp6.OutEchos": 3, "icmp6.InEchoReplies": 3,
                         "udp6.OutDatagrams": 0}, run)


def check_ctl_ping6_json(env):
    """-j ping ADDR6 with a source of ours: one object, 2 of 2."""
    rc, out, err = env.ctl_cmd("ping", SRV6, "count", "2", "interval",
                               "100", "source", GW6_S, json_out=True)
    if rc != 0:
        return "exit %d: %s" % (rc, err.strip())
    j = json.loads(out)
    if (j["destination"], j["source"], j["transmitted"], j["received"]) \
            != (SRV6, GW6_S, 2, 2) or j["replies"][0]["from"] != SRV6:
        return nt.short(out)
    return None


def check_ctl_traceroute6(env):
    """traceroute ADDR6: hop limit 1 reaches the server's lo address
    (its echo reply ends the run); the same to the address behind the
    link-local gateway, in JSON."""
    rc, out, err = env.ctl_cmd("traceroute", BEHIND_G, "probes", "2",
                               "wait", "1000")
    if rc != 0:
        return "exit %d: %s" % (rc, err.strip())
    hops = re.findall(r"^ *(\d+)  (\S+)  [\d.]+ ms", out, re.M)
    if hops != [("1", BEHIND_G)] or \
            not out.startswith("traceroute to %s from %s, 30 hops max"
                               % (BEHIND_G, GW6_S)):
        return "hops %s: %s" % (hops, nt.short(out))
    rc, out, err = env.ctl_cmd("traceroute", BEHIND_L, "probes", "1",
                               json_out=True)
    if rc != 0 or not json.loads(out)["reached"] or \
            json.loads(out)["hops"][0]["probes"][0]["type"] != 129:
        return "json: %s %s" % (out.strip(), err.strip())
    return None


def check_ctl_ping6_refused(env):
    """One of our addresses, a link-local address without its port, no
    route, a source not ours, an IPv4 source: exit 1 and the reason."""
    bad = []
    for words, why in (
            (("ping", GW6_C), "one of our addresses"),
            (("ping", SRV_LL), "say which port"),
            (("ping", NOROUTE), "no route"),
            (("ping", SRV6, "source", CLI6), "not one of our addresses"),
            (("ping", SRV6, "source", "10.1.0.1"), "bad source"),
            (("ping", "10.2.0.2", "port", "1"), "'port' is for IPv6")):
        rc, out, err = env.ctl_cmd(*words)
        if rc != 1 or why not in err:
            bad.append("%s: exit %d: %s" % (" ".join(words), rc,
                                            err.strip()))
    return "; ".join(bad) or None


def linux_reference(env):
    """--linux: R's views of the same (printed, not judged)."""
    for argv in (["ip", "-6", "route", "get", SRV6],
                 ["ip", "-6", "route", "get", BEHIND_L],
                 ["ip", "-6", "neigh"]):
        print("  R: %s: %s" % (" ".join(argv),
                               nt.short(env.ns(env.r, argv,
                                               check=False).stdout)))


# ======================================================================


def main():
    args = nt.script_args(__doc__, "netns-ip6", helpers=HELPERS)
    LINUX[0] = args.linux
    fwd = os.path.abspath(args.fwd) if args.fwd else None
    ctl = os.path.abspath(args.ctl) if args.ctl else None

    checks = nt.Checks(args.verbose)
    checks.catch_signals()
    record, run_check = checks.record, checks.run
    env = Env(fwd, ctl, args.verbose, args.linux)
    with nt.Run(env, checks, args.verbose, "netns-ip6",
                args.keep_logs) as run:
        env.make_topology()
        if not args.linux:
            err = env.start_listack()
            if err:
                record("router-start", err)
                raise SystemExit
        env.client_up()
        if not args.linux:
            run_check("ra-slaac-default-route", check_ra_slaac, env)
        # the router's addresses pass DAD first: wait for an answer (not
        # a check; the counted checks below see none of these)
        wait_for(lambda: ping6(env, env.cli, GW6_C, 1)[1] == 1, 10)
        wait_for(lambda: ping6(env, env.srv, GW6_S, 1)[1] == 1, 10)
        echo3 = {"icmp6.InEchos": 3, "icmp6.OutEchoReplies": 3}
        run_check("ping6-router-global", ping_check, env, env.cli, GW6_C,
                  echo3)
        run_check("ping6-router-link-local", ping_check, env, env.cli,
                  env.router_ll + "%eth0", echo3)
        run_check("ping6-router-far-address", ping_check, env, env.cli,
                  GW6_S, echo3)
        fwd6 = {"ip6.OutForwDatagrams": 6, "icmp6.InEchos": 0}
        run_check("ping6-through", ping_check, env, env.cli, SRV6, fwd6)
        run_check("ping6-through-back", ping_check, env, env.srv, CLI6, fwd6)
        run_check("ping6-via-global-gateway", ping_check, env, env.cli,
                  BEHIND_G, fwd6)
        run_check("ping6-via-link-local-gateway", ping_check, env, env.cli,
                  BEHIND_L, fwd6)
        run_check("ipv4-alongside", check_ipv4_alongside, env)
        run_check("udp6-1-to-server", udp_through, env, env.cli, env.srv,
                  SRV6, [1], 5001, {"ip6.OutForwDatagrams": 1,
                                    "udp6.InDatagrams": 0})
        run_check("udp6-1-to-client", udp_through, env, env.srv, env.cli,
                  CLI6, [1], 5002, {"ip6.OutForwDatagrams": 1})
        # the server's link is 1280: it sends 1400 bytes in two
        # fragments, which the router forwards as they are
        run_check("udp6-1400-to-client", udp_through, env, env.srv, env.cli,
                  CLI6, [1400], 5003, {"ip6.OutForwDatagrams": 2,
                                       "ip6.ReasmReqds": 0})
        run_check("hop-limit-1-time-exceeded", check_hop_limit, env)
        run_check("packet-too-big-ping", check_ptb_ping, env)
        run_check("packet-too-big-udp-retry", check_ptb_udp_retry, env)
        run_check("no-route-unreachable", check_no_route, env)
        run_check("udp6-echo-fragments", check_echo_fragments, env)
        if args.linux:
            linux_reference(env)
        else:
            run_check("route-get", check_route_get, env)
            run_check("show-routes", check_show_routes, env)
            run_check("show-neigh", check_show_neigh, env)
            run_check("ctl-ping6-server", check_ctl_ping6, env, SRV6)
            run_check("ctl-ping6-link-local", check_ctl_ping6, env, SRV_LL,
                      ("port", "1"))
            run_check("ctl-ping6-json-source", check_ctl_ping6_json, env)
            run_check("ctl-traceroute6", check_ctl_traceroute6, env)
            run_check("ctl-ping6-refused", check_ctl_ping6_refused, env)
            total = env.counters()
            if args.verbose:
                print("  counters: %s" % json.dumps(
                    {k: v for k, v in total.items() if v}))
            nt.stop_and_count(env, record, "", (
                ("stats-mbufs", "mbufs_in_use", "==", 0),
                ("stats-nd-updates", "nd.Updates", ">=", 2),
                ("stats-nd-no-fails", "nd.ResFailed", "==", 0),
                ("stats-ns-in", "icmp6.InNeighborSolicits", ">=", 1),
                ("stats-na-out", "icmp6.OutNeighborAdvertisements", ">=", 1),
                ("stats-ns-out", "icmp6.OutNeighborSolicits", ">=", 2),
                ("stats-na-in", "icmp6.InNeighborAdvertisements", ">=", 2),
                ("stats-ra-out", "icmp6.OutRouterAdvertisements", ">=", 1),
                ("stats-ip4-forwarded", "ip.ForwDatagrams", ">=", 10),
            ), args.verbose)
    return run.status()


if __name__ == "__main__":
    sys.exit(main())
