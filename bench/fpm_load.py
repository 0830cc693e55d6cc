#!/usr/bin/python3
"""A full table over FPM: N IPv4 routes sent as zebra's dplane_fpm_nl sends
them, to a listack-fwd that listens (fpm listen), timed until it has
learned them all.

    bench/fpm_load.py CTL SOCKET ADDR:PORT [--routes N] [--groups]

CTL is listack-ctl, SOCKET its -s; ADDR:PORT where listack-fwd's `fpm
listen` is. Routes are distinct /24s from 1.0.0.0 on (skipping 10/8 and
127/8) in a frame each (zebra's way), via the gateways 10.0.0.1 and
10.0.1.1 of the test fixture (tests/integration/lsk.py) in turn, on an
ifindex no host-if names (their connected subnets decide the ports), or
with --groups by RTA_NH_ID to two nexthops and a group of both as zebra
does by default. Prints routes/s from the first byte sent to `show fpm`
counting every route added (the server learns each read in one
lsk_route_learn call), and the same as JSON with --json.
"""

import argparse
import json
import socket
import struct
import subprocess
import sys
import time

RTM_NEWROUTE, RTM_NEWNEXTHOP = 24, 104
NLM_F = 0x400 | 0x100


def pad(b):
    return b + b"\0" * (-len(b) % 4)


def rta(type_, data):
    return pad(struct.pack("=HH", 4 + len(data), type_) + data)


def nlmsg(type_, payload):
    return struct.pack("=IHHII", 16 + len(payload), type_, NLM_F, 0, 0) + \
        payload


def frame(body):
    return struct.pack(">BBH", 1, 1, 4 + len(body)) + body


def nexthops():
    out = b""
    for i, gw in ((1, "10.0.0.1"), (2, "10.0.1.1")):
        a = rta(1, struct.pack("=I", i)) + \
            rta(6, socket.inet_aton(gw)) + rta(5, struct.pack("=I", 97))
        out += frame(nlmsg(RTM_NEWNEXTHOP, struct.pack("=BBBBI", 2, 0, 11,
                                                       0, 0) + a))
    g = rta(1, struct.pack("=I", 3)) + \
        rta(2, struct.pack("=IBBHIBBH", 1, 0, 0, 0, 2, 0, 0, 0))
    out += frame(nlmsg(RTM_NEWNEXTHOP, struct.pack("=BBBBI", 0, 0, 11, 0, 0)
                       + g))
    return out


def prefixes(n):
    a = 1 << 24
    while n > 0:
        if (a >> 24) not in (10, 127) and (a >> 24) < 224:
            yield a
            n -= 1
        a += 256


def table(n, groups):
    """The frames of n routes, one bytes object."""
    rtm = struct.pack("=BBBBBBBBI", 2, 24, 0, 0, 254, 186, 0, 1, 0)
    prio = rta(6, struct.pack("=I", 20))
    gws = [socket.inet_aton("10.0.0.1"), socket.inet_aton("10.0.1.1")]
    oif = rta(4, struct.pack("=I", 97))
    parts = []
    for i, p in enumerate(prefixes(n)):
        dst = rta(1, struct.pack(">I", p))
        if groups:
            tail = rta(30, struct.pack("=I", 1 + i % 3))
        else:
            tail = rta(5, gws[i & 1]) + oif
        parts.append(frame(nlmsg(RTM_NEWROUTE, rtm + dst + prio + tail)))
    return b"".join(parts)


def fpm_added(ctl, sock):
    r = subprocess.run([ctl, "-s", sock, "-j", "show", "fpm"],
                       stdout=subprocess.PIPE, universal_newlines=True,
                       check=True)
    c = json.loads(r.stdout)["counters"]
    return c["RoutesAdded"], c["RoutesRejected"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ctl")
    ap.add_argument("sock")
    ap.add_argument("endpoint")
    ap.add_argument("--routes", type=int, default=1000000)
    ap.add_argument("--groups", action="store_true")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    host, port = a.endpoint.rsplit(":", 1)
    data = (nexthops() if a.groups else b"") + table(a.routes, a.groups)
    base, _ = fpm_added(a.ctl, a.sock)
    s = socket.create_connection((host, int(port)))
    t0 = time.monotonic()
    s.sendall(data)
    sent = time.monotonic() - t0
    while True:
        added, rejected = fpm_added(a.ctl, a.sock)
        if added - base >= a.routes:
            break
        time.sleep(0.02)
    took = time.monotonic() - t0
    res = {"routes": a.routes, "groups": a.groups, "seconds": round(took, 2),
           "routes_per_s": int(a.routes / took), "send_s": round(sent, 2),
           "rejected": rejected}
    print(json.dumps(res) if a.json else
          "%d routes in %.2f s: %d routes/s (sent in %.2f s, %d rejected)"
          % (a.routes, took, a.routes / took, sent, rejected))
    s.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
