#!/usr/bin/python3
"""OSPFv3 over the host path (docs/host-path.md, "IPv6"): FRR's ospf6d on
listack's TAP reaches Full with a Linux/FRR peer, its hellos to ff02::5
and its link-local unicast crossing listack both ways.

    /usr/bin/python3 tests/netns/run_netns_ospf6.py build/listack-fwd build/listack-ctl [-v]

Layout (namespace names carry this process's pid):

    netns R (the router)                               netns P (the peer)
    listack-fwd, af_packet port lp0                    eth0 2001:db8:1::2/64
    port 0 host-if lsk6t.. 2001:db8:1::1/64   <->      lo 2001:db8:66::1/128
    zebra, ospf6d on the TAP (point-to-point)          zebra, ospf6d on eth0

Checks: the neighbour is Full on both sides; the router's ospf6d learned
the peer's 2001:db8:66::1/128 (from its link-local address); listack-fwd
exits 0 on SIGTERM with mbufs_in_use 0 and the host counters moved.
The daemons are run_netns_frr.py's way (its Env, no systemd). Output as
run_netns_tests.py's; exit 77 when not root or FRR (zebra, ospf6d,
vtysh) is not installed.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_netns_tests as nt  # noqa: E402
import run_netns_frr as fr  # noqa: E402

GW6 = "2001:db8:1::1"
PEER6 = "2001:db8:1::2"
PEER_LO = "2001:db8:66::1/128"
MAC0 = "02:00:00:00:ab:00"


def ospf6_conf(router_id, dev, lo):
    """ospf6d.conf: point-to-point with a 1 s hello on dev (Full in a
    few seconds: no DR election)."""
    c = ("hostname ospf6\ninterface %s\n ipv6 ospf6 area 0.0.0.0\n"
         " ipv6 ospf6 network point-to-point\n"
         " ipv6 ospf6 hello-interval 1\n ipv6 ospf6 dead-interval 4\nexit\n"
         % dev)
    if lo:
        c += "interface lo\n ipv6 ospf6 area 0.0.0.0\nexit\n"
    return c + "router ospf6\n ospf6 router-id %s\nexit\n" % router_id


class Env(fr.Env):
    def __init__(self, fwd, ctl, verbose):
        super().__init__(fwd, ctl, verbose, False)
        pid = os.getpid()
        self.r = "lsk-o6-r-%d" % pid
        self.p1 = "lsk-o6-p-%d" % pid
        self.prefix = "lsk-o6-%d" % pid
        self.tap = "lsk6t%d" % (pid % 100000)

    def make_topology(self):
        for ns in (self.r, self.p1):
            r = self.run(["ip", "netns", "add", ns], check=False)
            if r.returncode != 0:
                raise nt.Skip("cannot create a network namespace: "
                              + r.stdout.strip())
            self.made_ns.append(ns)
            self.ns(ns, ["ip", "link", "set", "lo", "up"])
        self.link(self.r, "lp0", self.p1, "eth0")
        # listack's port: the router's kernel must not speak on it
        self.no_ipv6(self.r, "lp0")
        self.ns(self.r, ["ip", "link", "set", "lp0", "arp", "off"])
        self.ns(self.r, ["ethtool", "-K", "lp0", "gro", "off"], check=False)
        self.ns(self.r, ["ip", "link", "set", "lp0", "mtu", "1500", "up"])
        self.ns(self.p1, ["sh", "-c", "echo 0 > /proc/sys/net/ipv6/conf/"
                          "eth0/accept_dad"])
        self.ns(self.p1, ["ethtool", "-K", "eth0", "tx", "off"])
        self.ns(self.p1, ["ip", "-6", "addr", "add", PEER6 + "/64", "dev",
                          "eth0", "nodad"])
        self.ns(self.p1, ["ip", "-6", "addr", "add", PEER_LO, "dev", "lo"])
        self.ns(self.p1, ["ip", "link", "set", "eth0", "up"])

    def start_listack(self):
        self.run_no += 1
        self.stats = os.path.join(self.tmp, "stats.json")
        self.log = os.path.join(self.tmp, "listack-fwd.log")
        conf = os.path.join(self.tmp, "listack.conf")
        with open(conf, "w") as f:
            f.write("# written by tests/netns/run_netns_ospf6.py\n"
                    "address add %s/64 port 0\n"
                    "port 0 mac %s host-if %s\n" % (GW6, MAC0, self.tap))
        self.sock = os.path.join(self.tmp, "ctl.sock")
        err = self.launch([nt.AF_PACKET % (0, "lp0")], conf, ns=self.r)
        if err:
            return err
        if not fr.wait_for(lambda: GW6 in self.ns(
                self.r, ["ip", "-6", "addr", "show", "dev", self.tap],
                check=False).stdout, 10):
            return "no TAP %s with %s/64 after 10 s" % (self.tap, GW6)
        return None

    def start_frr(self):
        self.frr_start(self.p1, "zebra", "hostname p\n")
        self.frr_start(self.p1, "ospf6d", ospf6_conf("10.1.0.2", "eth0",
                                                     True))
        self.frr_start(self.r, "zebra", "hostname r\n")
        self.frr_start(self.r, "ospf6d", ospf6_conf("10.1.0.1", self.tap,
                                                    False))

    def cleanup_frr(self):
        for ns in list(self.frr_dirs):
            for daemon in ("ospf6d", "zebra"):
                try:
                    self.frr_stop(ns, daemon)
                except Exception:
                    pass
        super().cleanup_frr()


def full(env, ns):
    out = env.vtysh(ns, "show ipv6 ospf6 neighbor")
    return "Full" in out, out


def check_full(env):
    if not fr.wait_for(lambda: full(env, env.r)[0] and full(env, env.p1)[0],
                       40):
        return "router: %s; peer: %s" % (nt.short(full(env, env.r)[1]),
                                         nt.short(full(env, env.p1)[1]))
    return None


def check_route(env):
    def learned():
        out = env.vtysh(env.r, "show ipv6 ospf6 route")
        return PEER_LO in out, out
    if not fr.wait_for(lambda: learned()[0], 20):
        return "router's routes: %s" % nt.short(learned()[1])
    return None


def main():
    args = nt.script_args(__doc__, "netns-ospf6", [
        (os.path.exists(os.path.join(fr.FRR, d)), "no %s/%s" % (fr.FRR, d))
        for d in ("zebra", "ospf6d")] + [
            (os.path.exists("/dev/net/tun"), "no /dev/net/tun")])
    checks = nt.Checks(args.verbose)
    checks.catch_signals()
    record, run_check = checks.record, checks.run
    env = Env(os.path.abspath(args.fwd), os.path.abspath(args.ctl),
              args.verbose)
    os.chmod(env.tmp, 0o755)    # the daemons (user frr) reach their dirs
    with nt.Run(env, checks, args.verbose, "netns-ospf6",
                cleanups=(env.cleanup_frr,)) as run:
        env.make_topology()
        err = env.start_listack()
        record("router-start", err)
        if err is None:
            env.start_frr()
            if run_check("ospf6-full", check_full, env):
                run_check("ospf6-route-learned", check_route, env)
            env.cleanup_frr()
            nt.stop_and_count(env, record, "", (
                ("stats-mbufs", "mbufs_in_use", "==", 0),
                ("stats-host-to-kernel", "host.ToKernel", ">=", 5),
                ("stats-host-from-kernel", "host.FromKernel", ">=", 5),
            ), args.verbose)
    return run.status()


if __name__ == "__main__":
    sys.exit(main())
