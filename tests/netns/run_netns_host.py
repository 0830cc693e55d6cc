#!/usr/bin/python3
"""The host path (docs/host-path.md) against Linux hosts in network
namespaces (the hosts and listack-fwd of run_netns_tests.py, on
net_af_packet ports), each port mirrored by a kernel TAP in the root
namespace, where listack-fwd runs:

    client 10.1.0.2 -- [listack-fwd 10.1.0.1 | 10.2.0.1] -- server 10.2.0.2
                        TAP hc.. 10.1.0.1   TAP hs.. 10.2.0.1  (root ns)

    /usr/bin/python3 tests/netns/run_netns_host.py build/listack-fwd build/listack-ctl [-v]

Checks: the TAPs exist with the ports' MACs and addresses; the client's
ping of the router is answered once per request (listack's, no DUP);
an ARP request from the client gets exactly one reply; a TCP
connection from the client to a listener of this script on the router's
address in the root namespace carries data both ways (SYN punted, the
kernel's answers injected); the kernel's own ping from the root
namespace reaches the client (out of the TAP, through listack's output); OSPF's protocol
to 224.0.0.5 both ways (the client's to a socket joined on the TAP, the
kernel's to the client);
then a SYN flood from the client at the router while the server pings
the client through listack: the pings are forwarded, listack-ctl still
answers, host.Drops counts; at SIGTERM mbufs_in_use == 0 and the host
counters. The root-side veth ends (listack's af_packet ports) have
ARP off and listack's ports MACs of their own, so the root namespace's
kernel sees the router's traffic only through the TAPs. Output and exit
status as run_netns_tests.py's; exit 77 without root.
"""

import json
import os
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_netns_tests as nt  # noqa: E402

MAC0 = "02:00:00:00:aa:00"
MAC1 = "02:00:00:00:aa:01"
TCP_PORT = 5555
FLOOD_PORT = 5556
FLOOD_RATE = 200        # host-if rate during the test: the flood overruns it
FLOOD_PPS = 10000       # the SYN flood's rate

# the client's side, run with /usr/bin/python3 in its namespace
ARP_PROBE = r"""
import sys
from scapy.all import ARP, Ether, conf, sendp, sniff, AsyncSniffer
conf.verb = 0
dev, target = sys.argv[1], sys.argv[2]
sn = AsyncSniffer(iface=dev, filter="arp and arp[6:2] = 2")
sn.start()
import time
time.sleep(0.5)
sendp(Ether(dst="ff:ff:ff:ff:ff:ff") / ARP(op=1, pdst=target), iface=dev)
time.sleep(2)
got = sn.stop()
print(sum(1 for p in got if p[ARP].psrc == target))
"""

TCP_CLIENT = r"""
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=5)
data = bytes(range(256)) * 40
s.sendall(data)
s.shutdown(socket.SHUT_WR)
got = b""
while True:
    b = s.recv(65536)
    if not b:
        break
    got += b
print("ok" if got == data[::-1] else "bad %d" % len(got))
"""

# OSPF's protocol (89) to its group 224.0.0.5, sent or received on the
# interface with address local
MCAST = r"""
import socket, sys, time
mode, local = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, 89)
if mode == "send":
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF,
                 socket.inet_aton(local))
    s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
    for i in range(10):
        s.sendto(b"hello from " + local.encode(), ("224.0.0.5", 0))
        time.sleep(0.2)
    print("sent")
else:
    s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                 socket.inet_aton("224.0.0.5") + socket.inet_aton(local))
    s.settimeout(float(sys.argv[3]))
    print("ready", flush=True)
    try:
        while True:
            data, addr = s.recvfrom(2048)
            if b"hello from" in data:
                print("got", addr[0], flush=True)
                break
    except socket.timeout:
        print("timeout")
"""

SYN_FLOOD = r"""
import socket, struct, sys, time, random
src, dst, port, secs = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
sa, da = socket.inet_aton(src), socket.inet_aton(dst)
def csum(b):
    if len(b) % 2:
        b += b"\0"
    t = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while t >> 16:
        t = (t & 0xffff) + (t >> 16)
    return ~t & 0xffff
frames = []
for sp in range(20000, 20256):
    tcp = struct.pack("!HHIIBBHHH", sp, port, random.getrandbits(32), 0,
                      5 << 4, 0x02, 65535, 0, 0)
    ck = csum(sa + da + struct.pack("!BBH", 0, 6, len(tcp)) + tcp)
    tcp = tcp[:16] + struct.pack("!H", ck) + tcp[18:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 40, 0, 0, 64, 6, 0, sa, da)
    frames.append(ip + tcp)
# paced at pps: fifty times what the host-if may take, and what a
# debug (ASan) build's worker on a shared CPU still receives whole
pps = int(sys.argv[5])
n, start = 0, time.monotonic()
end = start + secs
while time.monotonic() < end:
    for f in frames[:100]:
        try:
            s.sendto(f, (dst, 0))
            n += 1
        except OSError:
            pass
    frames = frames[100:] + frames[:100]
    ahead = n / pps - (time.monotonic() - start)
    if ahead > 0:
        time.sleep(ahead)
print(n)
"""


def py_in(env, ns, code, *args, timeout=20):
    r = env.ns(ns, ["/usr/bin/python3", "-c", code] + [str(a) for a in args],
               timeout=timeout, check=False)
    return r.returncode, r.stdout.strip()


def setup_ports(env):
    """The root namespace's kernel must not answer on listack's own
    ports: no ARP there, and listack's MACs are not the veths' (frames to
    them are another host's to the kernel)."""
    for dev in (env.veth_c, env.veth_s):
        env.run(["ip", "link", "set", dev, "arp", "off"])


def tap_names():
    n = os.getpid() % 100000
    return "hc%d" % n, "hs%d" % n


def check_taps(env):
    problems = []
    for tap, mac, addr in zip(tap_names(), (MAC0, MAC1),
                              (nt.GW_CLIENT, nt.GW_SERVER)):
        r = env.run(["ip", "-o", "link", "show", "dev", tap], check=False)
        if r.returncode != 0:
            problems.append("no TAP %s" % tap)
            continue
        if mac not in r.stdout or "NOARP" not in r.stdout or \
                ",UP" not in r.stdout:
            problems.append("%s: %s" % (tap, nt.short(r.stdout)))
        r = env.run(["ip", "-4", "-o", "addr", "show", "dev", tap])
        if addr + "/24" not in r.stdout:
            problems.append("%s has no %s/24" % (tap, addr))
    rc, out, err = env.ctl_cmd("show", "interfaces")
    if "host-if " + tap_names()[0] not in out:
        problems.append("show interfaces: " + nt.short(out))
    return "; ".join(problems) or None


def check_ping_router_once(env):
    return ping3(env, env.cli, nt.GW_CLIENT)


def check_arp_once(env):
    env.ns(env.cli, ["ip", "neigh", "flush", "dev", "eth0"], check=False)
    rc, out = py_in(env, env.cli, ARP_PROBE, "eth0", nt.GW_CLIENT)
    if rc != 0 or out.splitlines()[-1:] != ["1"]:
        return "replies: exit %d: %s" % (rc, nt.short(out))
    return None


def tcp_server(ready, result, family, addr):
    """Echo reversed what one client sends to addr:TCP_PORT; result gets
    (its address, bytes)."""
    srv = socket.socket(family, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        srv.bind((addr, TCP_PORT))
        srv.listen(1)
        srv.settimeout(15)
        ready.set()
        c, peer = srv.accept()
        c.settimeout(10)
        got = b""
        while True:
            b = c.recv(65536)
            if not b:
                break
            got += b
        c.sendall(got[::-1])
        c.close()
        result.append((peer[0], len(got)))
    except OSError as e:
        result.append(("error", str(e)))
        ready.set()
    finally:
        srv.close()


def serve_and_ask(env, server, server_args, join, code, *args):
    """server(ready, result, *server_args) in a thread of this namespace
    and the client's code with args: (exit, output, result)."""
    ready, result = threading.Event(), []
    t = threading.Thread(target=server, args=(ready, result) + server_args,
                         daemon=True)
    t.start()
    ready.wait(5)
    rc, out = py_in(env, env.cli, code, *args)
    t.join(join)
    return rc, out, result


def check_tcp_to(env, family, addr, client):
    """TCP from the client to a listener on the router's addr."""
    rc, out, result = serve_and_ask(env, tcp_server, (family, addr), 20,
                                    TCP_CLIENT, addr, TCP_PORT)
    if rc != 0 or out != "ok":
        return "client: exit %d: %s; server: %s" % (rc, nt.short(out), result)
    if result != [(client, 10240)]:
        return "server: %s" % result
    return None


def check_tcp(env):
    return check_tcp_to(env, socket.AF_INET, nt.GW_CLIENT, nt.CLIENT_IP)


def ping3(env, ns, dst, six=False):
    """Three pings of dst from namespace ns (None: this one), each
    answered once (no DUP)."""
    argv = ["ping"] + (["-6"] if six else []) + ["-c", "3", "-i", "0.3",
                                                 "-W", "2", dst]
    r = env.run(argv, check=False) if ns is None else \
        env.ns(ns, argv, check=False)
    if "3 received" not in r.stdout or "DUP" in r.stdout:
        return nt.short(r.stdout)
    return None


def check_kernel_ping(env):
    return ping3(env, None, nt.CLIENT_IP)


def mcast_recv(argv):
    """Start a receiver; returns the process once it has joined."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, universal_newlines=True)
    line = p.stdout.readline().strip()
    if line != "ready":
        p.kill()
        p.wait()
        raise RuntimeError("receiver: %r" % line)
    return p


def mcast_both_ways(env, code, client_dev, client_want, local_dev,
                    local_want):
    """OSPF's group both ways, with the multicast script code (its
    `send`/`recv` on a device, an address for IPv4): the client's to the
    kernel's socket joined on the TAP (punted), the kernel's out of the
    TAP to the client's (injected, sent with the group's MAC)."""
    problems = []
    for rx_argv, tx_argv, want in (
            (["/usr/bin/python3", "-c", code, "recv", local_dev, "5"],
             ["ip", "netns", "exec", env.cli, "/usr/bin/python3", "-c",
              code, "send", client_dev], client_want),
            (["ip", "netns", "exec", env.cli, "/usr/bin/python3", "-c",
              code, "recv", client_dev, "5"],
             ["/usr/bin/python3", "-c", code, "send", local_dev],
             local_want)):
        rx = mcast_recv(rx_argv)
        try:
            subprocess.run(tx_argv, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=15)
            out = rx.communicate(timeout=15)[0].strip()
        finally:
            if rx.poll() is None:
                rx.kill()
                rx.wait()
        if out != "got %s" % want:
            problems.append("from %s: %s" % (want, nt.short(out)))
    return "; ".join(problems) or None


def check_ospf_multicast(env):
    """224.0.0.5 both ways (the IPv4 script's `recv`/`send` take the
    local address)."""
    return mcast_both_ways(env, MCAST, nt.CLIENT_IP, nt.CLIENT_IP,
                           nt.GW_CLIENT, nt.GW_CLIENT)


def tap_gone(tap):
    """None once listack-fwd has gone with its TAP tap."""
    r = subprocess.run(["ip", "link", "show", "dev", tap],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return None if r.returncode != 0 else "%s still there" % tap


def check_flood(env):
    """A SYN flood at the router from the client while the server's
    pings to the client are forwarded."""
    flood = subprocess.Popen(
        ["ip", "netns", "exec", env.cli, "/usr/bin/python3", "-c", SYN_FLOOD,
         nt.CLIENT_IP, nt.GW_CLIENT, str(FLOOD_PORT), "6",
         str(FLOOD_PPS)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        universal_newlines=True)
    problems = []
    try:
        time.sleep(1)
        r = env.ns(env.srv, ["ping", "-c", "30", "-i", "0.1", "-W", "2",
                             nt.CLIENT_IP], check=False, timeout=30)
        got = nt.ping_summary(r.stdout)
        if got[1] is None or got[1] < 27:
            problems.append("forwarded pings: %s" % nt.short(r.stdout))
        t = time.monotonic()
        rc, out, err = env.ctl_cmd("show", "stats", json_out=True)
        if rc != 0 or time.monotonic() - t > 5:
            problems.append("listack-ctl: exit %d after %.1f s: %s"
                            % (rc, time.monotonic() - t, err.strip()))
        sent = flood.communicate(timeout=30)[0].strip()
    finally:
        if flood.poll() is None:
            flood.kill()
            flood.wait()
    try:
        n = int(sent.splitlines()[-1])
    except (ValueError, IndexError):
        return "flood: %s" % nt.short(sent)
    rc, out, err = env.ctl_cmd("show", "stats", json_out=True)
    st = json.loads(out) if rc == 0 else {}
    drops = nt.stat(st, "host.Drops") or 0
    if n < 20000 or drops < n // 2:
        problems.append("%d SYNs sent, host.Drops %s" % (n, drops))
    return "; ".join(problems) or None


def main():
    args, checks, env = nt.begin(__doc__, "netns", (
        (os.path.exists("/dev/net/tun"), "no /dev/net/tun"),))
    record, run_check = checks.record, checks.run
    tc, ts = tap_names()
    with nt.Run(env, checks, args.verbose) as run:
        env.make_hosts()
        setup_ports(env)
        err = env.start_router(
            "af_packet", "port 0 mac %s host-if %s\n"
            "port 1 mac %s host-if %s\n"
            "host-if %s rate %d\n" % (MAC0, tc, MAC1, ts, tc, FLOOD_RATE))
        if err:
            record("router-start", err)
        else:
            run_check("taps-mirror-ports", check_taps, env)
            run_check("ping-router-one-reply", check_ping_router_once, env)
            run_check("arp-one-reply", check_arp_once, env)
            run_check("tcp-to-router", check_tcp, env)
            run_check("kernel-ping-via-tap", check_kernel_ping, env)
            run_check("ospf-multicast-both-ways", check_ospf_multicast, env)
            run_check("syn-flood-forwarding-holds", check_flood, env)
            nt.stop_and_count(env, record, "", (
                ("stats-mbufs", "mbufs_in_use", "==", 0),
                ("stats-to-kernel", "host.ToKernel", ">=", 10),
                ("stats-from-kernel", "host.FromKernel", ">=", 10),
                ("stats-host-drops", "host.Drops", ">=", 20000),
                ("stats-echo-reps", "icmp.OutEchoReps", ">=", 3),
            ), args.verbose)
            record("taps-gone-at-exit", tap_gone(tc))
    return run.status()


if __name__ == "__main__":
    sys.exit(main())
