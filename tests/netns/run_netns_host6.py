#!/usr/bin/python3
"""The host path over IPv6 (docs/host-path.md, "IPv6") against a Linux
host in a network namespace (the hosts and listack-fwd of
run_netns_host.py, on net_af_packet ports), each port mirrored by a
kernel TAP in the root namespace, where listack-fwd runs:

    client 2001:db8:1::2 -- [listack-fwd 2001:db8:1::1 | 2001:db8:2::1] -- server
                             TAP h6c.. 2001:db8:1::1  TAP h6s.. 2001:db8:2::1 (root ns)

    /usr/bin/python3 tests/netns/run_netns_host6.py build/listack-fwd build/listack-ctl [-v]

Checks: the TAPs carry the ports' IPv6 addresses, usable (not
tentative), and the link-local address listack uses itself (the EUI-64
of the port's MAC); the client's ping6 of the router is answered once per
request (listack's, no DUP); a neighbour solicitation for the router's
address gets exactly one advertisement (listack's: the kernel's ND never
reaches the wire); TCP from the client to a listener of this script on
the router's IPv6 address in the root namespace carries data both ways
(SYN punted, the kernel's answers through ip6_output and listack's ND);
UDP to a port no listack endpoint serves reaches a socket of this script
and its answer the client (instead of port unreachable); the kernel's
own ping6 from the root namespace reaches the client, by its global and
by its link-local address (echo requests out through ip6_output, the
replies punted back); OSPFv3's protocol (89) to ff02::5 both ways; at
SIGTERM mbufs_in_use == 0 and the host counters. Output and exit status
as run_netns_tests.py's; exit 77 without root.
"""

import os
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_netns_tests as nt  # noqa: E402
import run_netns_host as nh  # noqa: E402

MAC0 = "02:00:00:00:aa:00"
MAC1 = "02:00:00:00:aa:01"
GW6_C = "2001:db8:1::1"
CLI6 = "2001:db8:1::2"
GW6_S = "2001:db8:2::1"
GW6_LL = "fe80::ff:fe00:aa00"     # MAC0's EUI-64 (U/L bit flipped)
TCP_PORT = 5555
UDP_PORT = 5557

# the client's side, run with /usr/bin/python3 in its namespace
NS_PROBE = r"""
import sys, time
from scapy.all import (Ether, IPv6, ICMPv6ND_NS, ICMPv6ND_NA,
                       ICMPv6NDOptSrcLLAddr, AsyncSniffer, conf, get_if_hwaddr,
                       in6_getnsma, in6_getnsmac, inet_pton, inet_ntop, sendp)
import socket
conf.verb = 0
dev, src, target = sys.argv[1], sys.argv[2], sys.argv[3]
mac = get_if_hwaddr(dev)
sn = AsyncSniffer(iface=dev, filter="icmp6 and ip6[40] == 136")
sn.start()
time.sleep(0.5)
ns = in6_getnsma(inet_pton(socket.AF_INET6, target))
sendp(Ether(src=mac, dst=in6_getnsmac(ns)) /
      IPv6(src=src, dst=inet_ntop(socket.AF_INET6, ns)) /
      ICMPv6ND_NS(tgt=target) / ICMPv6NDOptSrcLLAddr(lladdr=mac), iface=dev)
time.sleep(2)
got = sn.stop()
print(sum(1 for p in got if ICMPv6ND_NA in p and p[ICMPv6ND_NA].tgt == target))
"""

UDP6_CLIENT = r"""
import socket, sys
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s.settimeout(3)
s.sendto(b"to the kernel", (sys.argv[1], int(sys.argv[2])))
try:
    data, src = s.recvfrom(2048)
    print("got %s from %s" % (data.decode(), src[0]))
except socket.timeout:
    print("timeout")
"""

# OSPFv3's protocol (89) to ff02::5, sent or received on dev
MCAST6 = r"""
import socket, struct, sys, time
mode, dev = sys.argv[1], sys.argv[2]
idx = socket.if_nametoindex(dev)
s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, 89)
if mode == "send":
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_IF, idx)
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_HOPS, 1)
    for i in range(10):
        s.sendto(b"hello from " + dev.encode(), ("ff02::5", 0, 0, idx))
        time.sleep(0.2)
    print("sent")
else:
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_JOIN_GROUP,
                 socket.inet_pton(socket.AF_INET6, "ff02::5") +
                 struct.pack("@I", idx))
    s.settimeout(float(sys.argv[3]))
    print("ready", flush=True)
    try:
        while True:
            data, addr = s.recvfrom(2048)
            if b"hello from" in data:
                print("got", addr[0].split("%")[0], flush=True)
                break
    except socket.timeout:
        print("timeout")
"""


def tap_names():
    n = os.getpid() % 100000
    return "h6c%d" % n, "h6s%d" % n


def client_up6(env):
    """IPv6 on the client's eth0 (make_hosts turned it off): its global
    address, no DAD, the router's global address its default route."""
    for key, val in (("accept_dad", "0"), ("disable_ipv6", "0")):
        env.ns(env.cli, ["sh", "-c", "echo %s > /proc/sys/net/ipv6/conf/"
                         "eth0/%s" % (val, key)])
    env.ns(env.cli, ["ip", "-6", "addr", "add", CLI6 + "/64", "dev", "eth0",
                     "nodad"])
    env.ns(env.cli, ["ip", "-6", "route", "add", "default", "via", GW6_C])


def client_ll(env):
    r = env.ns(env.cli, ["ip", "-6", "-o", "addr", "show", "dev", "eth0",
                         "scope", "link"])
    for word in r.stdout.split():
        if word.startswith("fe80::"):
            return word.split("/")[0]
    return None


def check_taps6(env):
    problems = []
    for tap, addr in zip(tap_names(), (GW6_C, GW6_S)):
        r = env.run(["ip", "-6", "-o", "addr", "show", "dev", tap],
                    check=False)
        if addr + "/64" not in r.stdout:
            problems.append("%s has no %s/64: %s" % (tap, addr,
                                                     nt.short(r.stdout)))
        if "tentative" in r.stdout or "dadfailed" in r.stdout:
            problems.append("%s: %s" % (tap, nt.short(r.stdout)))
    r = env.run(["ip", "-6", "-o", "addr", "show", "dev", tap_names()[0],
                 "scope", "link"], check=False)
    if GW6_LL + "/64" not in r.stdout:
        problems.append("link-local: %s" % nt.short(r.stdout))
    return "; ".join(problems) or None


def check_ping6_router_once(env):
    return nh.ping3(env, env.cli, GW6_C, six=True)


def check_na_once(env):
    rc, out = nh.py_in(env, env.cli, NS_PROBE, "eth0", CLI6, GW6_C)
    if rc != 0 or out.splitlines()[-1:] != ["1"]:
        return "advertisements: exit %d: %s" % (rc, nt.short(out))
    return None


def check_tcp6(env):
    return nh.check_tcp_to(env, socket.AF_INET6, GW6_C, CLI6)


def udp6_server(ready, result):
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    try:
        s.bind((GW6_C, UDP_PORT))
        s.settimeout(10)
        ready.set()
        data, src = s.recvfrom(2048)
        s.sendto(data, src)
        result.append(src[0])
    except OSError as e:
        result.append("error: %s" % e)
        ready.set()
    finally:
        s.close()


def check_udp6_to_kernel(env):
    rc, out, result = nh.serve_and_ask(env, udp6_server, (), 15,
                                       UDP6_CLIENT, GW6_C, UDP_PORT)
    if rc != 0 or out != "got to the kernel from " + GW6_C or \
            result != [CLI6]:
        return "client: exit %d: %s; server: %s" % (rc, nt.short(out), result)
    return None


def check_kernel_ping6(env):
    return nh.ping3(env, None, CLI6, six=True)


def check_kernel_ping6_ll(env):
    ll = client_ll(env)
    if ll is None:
        return "the client has no link-local address"
    return nh.ping3(env, None, "%s%%%s" % (ll, tap_names()[0]), six=True)


def check_ospf6_multicast(env):
    """ff02::5 both ways (the IPv6 script's `recv`/`send` take the
    device; the answers come from the link-local addresses)."""
    return nh.mcast_both_ways(env, MCAST6, "eth0", client_ll(env),
                              tap_names()[0], GW6_LL)


def main():
    args, checks, env = nt.begin(__doc__, "netns", (
        (os.path.exists("/dev/net/tun"), "no /dev/net/tun"),
        (os.path.exists("/proc/sys/net/ipv6"), "no IPv6 in this kernel")))
    record, run_check = checks.record, checks.run
    tc, ts = tap_names()
    with nt.Run(env, checks, args.verbose) as run:
        env.make_hosts()
        nh.setup_ports(env)
        client_up6(env)
        err = env.start_router(
            "af_packet", "address add %s/64 port 0\n"
            "address add %s/64 port 1\n"
            "port 0 mac %s host-if %s\n"
            "port 1 mac %s host-if %s\n" % (GW6_C, GW6_S, MAC0, tc, MAC1, ts))
        if err:
            record("router-start", err)
        else:
            run_check("taps-ipv6-addresses", check_taps6, env)
            run_check("ping6-router-one-reply", check_ping6_router_once, env)
            run_check("ns-one-advert", check_na_once, env)
            run_check("tcp6-to-router", check_tcp6, env)
            run_check("udp6-no-endpoint-to-kernel", check_udp6_to_kernel,
                      env)
            run_check("kernel-ping6-via-tap", check_kernel_ping6, env)
            run_check("kernel-ping6-link-local", check_kernel_ping6_ll, env)
            run_check("ospf6-multicast-both-ways", check_ospf6_multicast,
                      env)
            nt.stop_and_count(env, record, "", (
                ("stats-mbufs", "mbufs_in_use", "==", 0),
                ("stats-to-kernel", "host.ToKernel", ">=", 10),
                ("stats-from-kernel", "host.FromKernel", ">=", 10),
                ("stats-echo-replies", "icmp6.OutEchoReplies", ">=", 3),
                ("stats-no-udp6-unreach", "udp6.NoPorts", "==", 0),
            ), args.verbose)
            record("taps-gone-at-exit", nh.tap_gone(tc))
    return run.status()


if __name__ == "__main__":
    sys.exit(main())
