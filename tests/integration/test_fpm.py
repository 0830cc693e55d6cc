#!/usr/bin/python3
"""Routes over FPM (fpm listen) against a running listack-fwd.

    /usr/bin/python3 tests/integration/test_fpm.py build/listack-fwd build/listack-ctl [-v]

listack-fwd runs on net_pcap ports (the fixture of lsk.py: 10.0.0.254/24
on port 0, 10.0.1.254/24 on port 1); `listack-ctl fpm listen
127.0.0.1:PORT` makes it listen, and this script is zebra: it connects
and sends FPM frames built as zebra's dplane_fpm_nl writes them
(tests/unit/serve/fpm_frames/README.md), on ifindexes no host-if names,
so the gateways' connected subnets decide the ports. Checked: the routes
show in `show routes` with their protocol (bgp, ospf, static) and not in
`show config`, which has the fpm line; a nexthop group with weights; a
DELROUTE and a NEWROUTE in one frame; a nexthop replaced under its id
changes the routes of its group; paths on a host-if's ifindex go out of
its port; a configured route wins over the
same prefix and gives it back when deleted; a second connection is
refused; a malformed frame closes the connection and installs nothing of
its read while the routes stay; a reconnect's dump replaces the table
(what it does not repeat is swept after 2 s of quiet); `show fpm` and
the `fpm` counters; IPv6 (addresses added on both ports): a route via
a gateway, a nexthop group of IPv6 nexthops with weights, RTA_MULTIPATH,
a blackhole, a link-local gateway on no interface of ours left out, a
withdrawal, all in `route get` and `show routes` with their protocol;
`fpm off` withdraws what zebra gave, both families. After SIGTERM:
exit 0, mbufs_in_use == 0.

Output: `PASS name` / `FAIL name: reason` per check, then `N passed, N
failed`; exit status 1 if any failed.
"""

import json
import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsk  # noqa: E402
from lsk import check, Ctl, Fwd  # noqa: E402

WAIT = 10
QUIET_S = 2         # FPM_QUIET_MS (serve/fpm_server.c)

# rtnetlink (linux/rtnetlink.h, linux/nexthop.h)
RTM_NEWROUTE, RTM_DELROUTE = 24, 25
RTM_NEWNEXTHOP, RTM_DELNEXTHOP = 104, 105
RTA_DST, RTA_OIF, RTA_GATEWAY, RTA_PRIORITY = 1, 4, 5, 6
RTA_MULTIPATH, RTA_NH_ID = 9, 30
NHA_ID, NHA_GROUP, NHA_BLACKHOLE, NHA_OIF, NHA_GATEWAY = 1, 2, 3, 5, 6
RTN_UNICAST, RTN_BLACKHOLE = 1, 6
PROTO_BGP, PROTO_OSPF, PROTO_ZSTATIC = 186, 188, 196
NLM_F_CREATE, NLM_F_REPLACE = 0x400, 0x100
OIF = 97            # an ifindex no host-if has


# ---------------------------------------------------------------- frames

def pad(b):
    return b + b"\0" * (-len(b) % 4)


def rta(type_, data):
    return pad(struct.pack("=HH", 4 + len(data), type_) + data)


def u32(v):
    return struct.pack("=I", v)


def nlmsg(type_, payload, flags=NLM_F_CREATE | NLM_F_REPLACE):
    return pad(struct.pack("=IHHII", 16 + len(payload), type_, flags, 0, 0)
               + payload)


def ip(addr):
    """An address's bytes, IPv4 or IPv6."""
    fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
    return socket.inet_pton(fam, addr)


def route(prefix, via=None, *, proto=PROTO_BGP, rtn=RTN_UNICAST, nh_id=None,
          paths=None, delete=False):
    """A NEWROUTE (or DELROUTE) of prefix "A.B.C.D/L" or IPv6's; via: a
    gateway on OIF; paths: [(gateway, weight)] as RTA_MULTIPATH."""
    addr, depth = prefix.split("/")
    depth = int(depth)
    fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
    rtm = struct.pack("=BBBBBBBBI", fam, depth, 0, 0, 254, proto,
                      0, 0 if delete else rtn, 0)
    a = rta(RTA_DST, ip(addr)) if depth else b""
    a += rta(RTA_PRIORITY, u32(20))
    if via is not None:
        a += rta(RTA_GATEWAY, ip(via)) + rta(RTA_OIF, u32(OIF))
    if nh_id is not None:
        a += rta(RTA_NH_ID, u32(nh_id))
    if paths:
        mp = b""
        for gw, w in paths:
            inner = rta(RTA_GATEWAY, ip(gw))
            mp += struct.pack("=HBBi", 8 + len(inner), 0, w - 1, OIF) + inner
        a += rta(RTA_MULTIPATH, mp)
    return nlmsg(RTM_DELROUTE if delete else RTM_NEWROUTE, rtm + a,
                 0 if delete else NLM_F_CREATE | NLM_F_REPLACE)


def nexthop(id_, via=None, group=None, blackhole=False):
    fam = socket.AF_UNSPEC if group else \
        socket.AF_INET6 if via and ":" in via else socket.AF_INET
    a = rta(NHA_ID, u32(id_))
    if group:
        a += rta(NHA_GROUP, b"".join(struct.pack("=IBBH", i, w - 1, 0, 0)
                                     for i, w in group))
    elif blackhole:
        a += rta(NHA_BLACKHOLE, b"")
    else:
        a += rta(NHA_GATEWAY, ip(via)) + rta(NHA_OIF, u32(OIF))
    return nlmsg(RTM_NEWNEXTHOP, struct.pack("=BBBBI", fam, 0, 11, 0, 0) + a)


def frame(*msgs):
    body = b"".join(msgs)
    return struct.pack(">BBH", 1, 1, 4 + len(body)) + body


# ---------------------------------------------------------------- zebra

def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    s.settimeout(WAIT)
    return s


def closed_by_peer(s, seconds=WAIT):
    """True once the other end closed s (EOF or reset)."""
    s.settimeout(seconds)
    try:
        while True:
            b = s.recv(4096)
            if not b:
                return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


# ---------------------------------------------------------------- views

def routes(ctl):
    """show routes -j: {prefix: the route in use} (a learned route a
    configured one shadows is left out)."""
    r = ctl.run("show", "routes", json_out=True)
    if r.returncode != 0:
        raise ValueError("show routes: " + r.stderr)
    out = {}
    for e in json.loads(r.stdout):
        if not e.get("shadowed"):
            out[e.get("dst")] = e
    return out


def describe(e):
    """A route as "proto P via G[/W] ..." or "proto P TYPE" (proto -: not
    learned)."""
    if e is None:
        return None
    words = ["proto %s" % e.get("proto", "-")]
    if e.get("type") == "via":
        for p in e.get("nexthops") or [{"gateway": e.get("gateway")}]:
            w = p.get("weight", 1)
            words.append("via %s%s" % (p.get("gateway"),
                                       "/%d" % w if w != 1 else ""))
    else:
        words.append(str(e.get("type")))
    return " ".join(words)


def wait_routes(ctl, want, seconds=WAIT):
    """Until every prefix of want (prefix -> describe() or None) is so;
    the list of what is not, at the end."""
    end = time.monotonic() + seconds
    while True:
        have = routes(ctl)
        bad = ["%s: want %s, have %s" % (p, w, describe(have.get(p)))
               for p, w in want.items() if describe(have.get(p)) != w]
        if not bad or time.monotonic() > end:
            return bad
        time.sleep(0.1)


def fib(ctl, addr):
    """What a packet to addr meets (route get -j): "VERDICT PREFIX[ via
    GATEWAY]"."""
    r = ctl.run("route", "get", addr, json_out=True)
    if r.returncode != 0:
        return "refused: " + r.stderr.strip()
    a = json.loads(r.stdout)
    text = "%s %s" % (a.get("verdict"), a.get("prefix", "-"))
    return text + (" via %s" % a["gateway"] if a.get("verdict") == "forward"
                   else "")


def fib_is(ctl, want):
    """want: {addr: fib(), or a tuple of what it may be (the path of an
    ECMP route)}; what differs."""
    bad = []
    for a, w in want.items():
        have = fib(ctl, a)
        if have not in (w if isinstance(w, tuple) else (w,)):
            bad.append("route get %s: want %s, have %s" % (a, w, have))
    return bad


def fpm_counters(ctl):
    r = ctl.run("show", "stats", json_out=True)
    return json.loads(r.stdout).get("fpm", {})


def show_fpm(ctl):
    r = ctl.run("show", "fpm", json_out=True)
    return json.loads(r.stdout) if r.returncode == 0 else {}


def wait_fpm(ctl, cond, seconds=WAIT):
    end = time.monotonic() + seconds
    while True:
        f = show_fpm(ctl)
        if cond(f) or time.monotonic() > end:
            return f
        time.sleep(0.1)


# ---------------------------------------------------------------- the run

def run(fwd_bin, ctl_bin, root):
    sock = os.path.join(root, "ctl.sock")
    fwd = Fwd(fwd_bin, os.path.join(root, "fwd"), sock)
    ctl = Ctl(ctl_bin, sock)
    try:
        if not fwd.wait_ready():
            check("fpm start", "listack-fwd did not start: " +
                  fwd.stderr()[-400:])
            return
        steps(ctl)
    finally:
        rc = fwd.stop()
    st = fwd.stats()
    check("fpm exit", [] if rc == 0 else "exit %s: %s" %
          (rc, fwd.stderr()[-400:]))
    check("fpm mbufs", [] if st.get("mbufs_in_use") == 0 else
          "mbufs_in_use %s" % st.get("mbufs_in_use"))


def steps(ctl):
    port = free_port()
    r = ctl.run("fpm", "listen", "127.0.0.1:%d" % port)
    f = wait_fpm(ctl, lambda f: f.get("state") == "listening")
    check("fpm listen", [] if r.returncode == 0 and
          f.get("state") == "listening" else
          "rc %d %s, show fpm %s" % (r.returncode, r.stderr, f))
    conf = ctl.run("show", "config").stdout
    check("fpm show config", [] if "fpm listen 127.0.0.1:%d" % port in conf
          else "no fpm line in:\n" + conf)

    z = connect(port)
    z.sendall(frame(route("10.20.0.0/16", "10.0.1.1")) +
              frame(nexthop(1, "10.0.0.1"), nexthop(2, "10.0.1.1")) +
              frame(nexthop(10, group=[(1, 1), (2, 3)])) +
              frame(route("10.21.0.0/16", nh_id=10, proto=PROTO_OSPF)) +
              frame(route("10.22.0.0/16", rtn=RTN_BLACKHOLE,
                          proto=PROTO_ZSTATIC)) +
              frame(route("10.24.0.0/16", paths=[("10.0.0.1", 25),
                                                 ("10.0.1.1", 75)])))
    check("fpm routes learned", wait_routes(ctl, {
        "10.20.0.0/16": "proto bgp via 10.0.1.1",
        "10.21.0.0/16": "proto ospf via 10.0.0.1 via 10.0.1.1/3",
        "10.22.0.0/16": "proto static blackhole",
        "10.24.0.0/16": "proto bgp via 10.0.0.1/25 via 10.0.1.1/75",
    }))
    check("fpm routes in the FIB", fib_is(ctl, {
        "10.20.1.1": "forward 10.20.0.0/16 via 10.0.1.1",
        "10.21.1.1": ("forward 10.21.0.0/16 via 10.0.0.1",
                      "forward 10.21.0.0/16 via 10.0.1.1"),
        "10.22.1.1": "blackhole 10.22.0.0/16",
    }))
    conf = ctl.run("show", "config").stdout
    check("fpm not in show config", [] if "10.20.0.0" not in conf else
          "learned route in show config:\n" + conf)

    # a changed route: DEL and NEW in one frame
    z.sendall(frame(route("10.20.0.0/16", delete=True),
                    route("10.20.0.0/16", "10.0.0.1")))
    check("fpm del+new in one frame", wait_routes(ctl, {
        "10.20.0.0/16": "proto bgp via 10.0.0.1"}))

    # the configured route wins, and gives the prefix back when it goes
    r = ctl.run("route", "add", "10.23.0.0/16", "via", "10.0.0.1")
    z.sendall(frame(route("10.23.0.0/16", "10.0.1.1")))
    time.sleep(0.5)
    have = describe(routes(ctl).get("10.23.0.0/16"))
    check("fpm configured route wins", [] if r.returncode == 0 and
          have == "proto - via 10.0.0.1" else "rc %d, have %s" %
          (r.returncode, have))
    ctl.run("route", "del", "10.23.0.0/16")
    check("fpm learned route takes its place", wait_routes(ctl, {
        "10.23.0.0/16": "proto bgp via 10.0.1.1"}))

    # one zebra at a time
    z2 = connect(port)
    check("fpm second connection refused", [] if closed_by_peer(z2)
          else "a second connection stayed open")
    z2.close()

    # a malformed read: closed, nothing of it installed, the rest stays
    before = fpm_counters(ctl)
    bad = frame(nlmsg(RTM_NEWROUTE, b"\0" * 8))     # shorter than rtmsg
    z.sendall(frame(route("10.30.0.0/16", "10.0.1.1")) + bad)
    gone = closed_by_peer(z)
    z.close()
    after = fpm_counters(ctl)
    have = routes(ctl)
    check("fpm malformed: nothing in the FIB", fib_is(ctl, {
        "10.30.1.1": "unreachable -",
        "10.20.1.1": "forward 10.20.0.0/16 via 10.0.0.1"}))
    check("fpm malformed closes, changes nothing",
          [] if gone and "10.30.0.0/16" not in have and
          describe(have.get("10.20.0.0/16")) == "proto bgp via 10.0.0.1" and
          after.get("ErrMessages", 0) == before.get("ErrMessages", 0) + 1
          else "closed %s, 10.30 %s, 10.20 %s, ErrMessages %s -> %s" %
          (gone, "10.30.0.0/16" in have, describe(have.get("10.20.0.0/16")),
           before.get("ErrMessages"), after.get("ErrMessages")))

    # reconnect: the dump repeats 10.21 and 10.22 only; after 2 s of
    # quiet the others are swept
    z = connect(port)
    f = wait_fpm(ctl, lambda f: f.get("state") == "connected, dump")
    z.sendall(frame(nexthop(1, "10.0.0.1")) + frame(nexthop(2, "10.0.1.1")) +
              frame(nexthop(10, group=[(1, 1), (2, 3)])) +
              frame(route("10.21.0.0/16", nh_id=10, proto=PROTO_OSPF)) +
              frame(route("10.22.0.0/16", rtn=RTN_BLACKHOLE,
                          proto=PROTO_ZSTATIC)))
    kept = wait_routes(ctl, {"10.20.0.0/16": "proto bgp via 10.0.0.1"},
                       seconds=0)
    check("fpm dump: routes stay until the sweep",
          kept + ([] if f.get("state") == "connected, dump"
                  else ["show fpm %s" % f]))
    f = wait_fpm(ctl, lambda f: f.get("state") == "connected",
                 seconds=QUIET_S + WAIT)
    check("fpm dump swept", wait_routes(ctl, {
        "10.20.0.0/16": None, "10.23.0.0/16": None, "10.24.0.0/16": None,
        "10.21.0.0/16": "proto ospf via 10.0.0.1 via 10.0.1.1/3",
        "10.22.0.0/16": "proto static blackhole",
    }) + ([] if f.get("state") == "connected" else ["show fpm %s" % f]))
    check("fpm dump swept from the FIB", fib_is(ctl, {
        "10.20.1.1": "unreachable -", "10.22.1.1": "blackhole 10.22.0.0/16"}))
    c = fpm_counters(ctl)
    want = {"Connections": 2, "Refused": 1, "RoutesSwept": 3,
            "NexthopsAdded": 6, "ErrMessages": 1}
    check("fpm counters", ["%s %s, want %s" % (k, c.get(k), v)
                           for k, v in want.items() if c.get(k) != v])
    f = show_fpm(ctl)
    check("show fpm", [] if f.get("peer", "").startswith("127.0.0.1:") and
          f.get("nexthops") == 3 and f.get("listen") == "127.0.0.1:%d" % port
          else "show fpm %s" % f)

    # a nexthop replaced under its id: the routes of its group follow
    z.sendall(frame(nexthop(1, "10.0.1.2")))
    check("fpm nexthop replaced", wait_routes(ctl, {
        "10.21.0.0/16": "proto ospf via 10.0.1.2 via 10.0.1.1/3"}))

    host_if(ctl, z)
    ip6(ctl, z)

    # off: the connection goes, and what zebra gave
    ctl.run("fpm", "off")
    check("fpm off", wait_routes(ctl, {"10.21.0.0/16": None,
                                       "10.22.0.0/16": None,
                                       "2001:db8:21::/48": None,
                                       "2001:db8:22::/48": None}) +
          ([] if closed_by_peer(z) else ["connection left open"]))
    z.close()


def ip6(ctl, z):
    """IPv6 routes as zebra sends them, on the ports' IPv6 prefixes."""
    for a, p in (("2001:db8:a::254/64", 0), ("2001:db8:b::254/64", 1)):
        r = ctl.run("address", "add", a, "port", str(p))
        if r.returncode != 0:
            check("fpm ip6 addresses", "address add %s: %s" %
                  (a, r.stderr.strip()))
            return
    before = fpm_counters(ctl)
    z.sendall(frame(route("2001:db8:20::/48", "2001:db8:b::1")) +
              frame(nexthop(61, "2001:db8:a::1"),
                    nexthop(62, "2001:db8:b::1")) +
              frame(nexthop(63, group=[(61, 1), (62, 3)])) +
              frame(route("2001:db8:21::/48", nh_id=63, proto=PROTO_OSPF)) +
              frame(route("2001:db8:22::/48", rtn=RTN_BLACKHOLE,
                          proto=PROTO_ZSTATIC)) +
              frame(route("2001:db8:24::/48",
                          paths=[("2001:db8:a::1", 25),
                                 ("2001:db8:b::1", 75)])) +
              frame(route("2001:db8:25::/48", "fe80::1")))
    check("fpm ip6 routes learned", wait_routes(ctl, {
        "2001:db8:20::/48": "proto bgp via 2001:db8:b::1",
        # every path of a multipath route, with its weight
        "2001:db8:21::/48": "proto ospf via 2001:db8:a::1 via "
                            "2001:db8:b::1/3",
        "2001:db8:22::/48": "proto static blackhole",
        "2001:db8:24::/48": "proto bgp via 2001:db8:a::1/25 via "
                            "2001:db8:b::1/75",
        "2001:db8:25::/48": None,
    }))
    check("fpm ip6 routes in the FIB", fib_is(ctl, {
        "2001:db8:20::1": "forward 2001:db8:20::/48 via 2001:db8:b::1",
        "2001:db8:21::1": ("forward 2001:db8:21::/48 via 2001:db8:a::1",
                           "forward 2001:db8:21::/48 via 2001:db8:b::1"),
        "2001:db8:22::1": "blackhole 2001:db8:22::/48",
    }))
    after = fpm_counters(ctl)
    check("fpm ip6 link-local gateway not ours",
          [] if after.get("SkipNoPath", 0) == before.get("SkipNoPath", 0) + 1
          else "SkipNoPath %s -> %s" % (before.get("SkipNoPath"),
                                        after.get("SkipNoPath")))
    z.sendall(frame(route("2001:db8:20::/48", delete=True)))
    check("fpm ip6 withdrawn", wait_routes(ctl, {"2001:db8:20::/48": None}))


def host_if(ctl, z):
    """Paths on a host interface's ifindex go out of its port: an
    on-link route and one via a gateway (needs a TAP: skipped without)."""
    global OIF
    r = ctl.run("port", "1", "host-if", "lskfpm1")
    try:
        with open("/sys/class/net/lskfpm1/ifindex") as f:
            ifindex = int(f.read())
    except OSError:
        print("SKIP fpm host-if ifindex: no TAP (%s)" % r.stderr.strip())
        return
    saved, OIF = OIF, ifindex
    try:
        z.sendall(frame(route("10.41.0.0/16", "10.0.1.1")) +
                  frame(nlmsg(RTM_NEWROUTE, struct.pack(
                      "=BBBBBBBBI", socket.AF_INET, 16, 0, 0, 254,
                      PROTO_BGP, 0, RTN_UNICAST, 0) +
                      rta(RTA_DST, socket.inet_aton("10.40.0.0")) +
                      rta(RTA_OIF, u32(ifindex)))))
    finally:
        OIF = saved
    end = time.monotonic() + WAIT
    while time.monotonic() < end and fib(ctl, "10.40.1.1").startswith(
            "unreachable"):
        time.sleep(0.1)
    r = ctl.run("route", "get", "10.40.1.1", json_out=True)
    a = json.loads(r.stdout) if r.returncode == 0 else {}
    check("fpm host-if ifindex", fib_is(ctl, {
        "10.41.1.1": "forward 10.41.0.0/16 via 10.0.1.1"}) +
        ([] if a.get("verdict") == "forward" and a.get("port") == 1 and
         a.get("gateway") == "10.40.1.1" else ["on-link: %s" % a]))
    ctl.run("port", "1", "host-if", "none")


def main():
    args = lsk.ctl_args(__doc__).parse_args()
    lsk.VERBOSE = args.v
    return lsk.run_in_workdir(args, "lsk-fpm-", [run])


if __name__ == "__main__":
    sys.exit(main())
