"""pcap integration tests of listack-fwd: the harness the test_pcap_*.py
files share (each registers its cases here and calls main()).

    /usr/bin/python3 tests/integration/test_pcap_GROUP.py build/listack-fwd [-k SUBSTR] [--keep] [-v]

Every case sends frames built here with scapy into listack-fwd through
net_pcap ports and compares what comes out (output pcaps, byte for byte)
and the counters of --stats-json with what this file expects. Expected
frames are built from the input frames (forwarded: TTL-1, full checksum
recompute, new MACs; ICMP errors, echo replies, UDP echo replies and ARP
built with scapy by the rules docs/configuration.md states), never copied from listack's
output. What listack originates itself carries IP IDs from its own
counters: those frames are compared with the IP ID and header checksum
masked, and their header checksum is verified separately.

Cases that share a configuration are batched into one listack-fwd run (each
run costs about a second of EAL start-up), at most ICMP_BURST (50) expected
ICMP errors per run so that the rate limit never decides what is sent
(groups marked rate_limited run whole: there every error must be either
sent or counted icmp.OutRateLimited). Each batch runs in --mode list and
--mode single; both must match the expectation, and each other (forwarded
frames in the same order, originated frames the same set in the same
per-flow order, every counter). Every run must end with mbufs_in_use == 0,
and the IPv4 dispositions must add up to InReceives. When a batch fails it
is split and rerun until each failure is pinned on a case (for at most
--budget seconds).

Some groups also run in variants with `gro fraglist ...` and/or
`route-cache on ...` appended to their config: GRO and the route cache
must not change the wire output or any counter outside gro, gso and
route_cache (whose Hits + Misses + Bypassed must equal the entries
ip4_route saw).
With GRO only per-flow order is required (a train may overtake another
flow), so list and single are then compared as frame sets plus per-flow
order.

Output: one line per case, `PASS name`, `FAIL name: reason`, or `XFAIL
name: reason` for a case that shows a known listack bug (listed in
KNOWN_BUGS; it does not fail the suite, and `XPASS` says it is fixed),
then `N passed, N failed`. Exit status 1 if any case failed.
"""

import argparse
import collections
import os
import random
import shutil
import struct
import sys
import tempfile
import threading
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lsk  # noqa: E402
from lsk import (A_MAC, ALLHOSTS_MAC, B_MAC, BCAST_MAC, P0_MAC, P1_MAC,  # noqa: E402
                 forwarded, frame, ip_field, patch_ip, with_options)
from scapy.layers.inet import ICMP, IP, UDP  # noqa: E402
from scapy.layers.l2 import ARP, Dot1Q, Ether  # noqa: E402
from scapy.packet import Raw  # noqa: E402
from scapy.utils import checksum  # noqa: E402

# Cases that show a listack bug, known and reported: they still run and
# their result is printed (XFAIL / XPASS), but they do not fail the suite.
# name -> what is wrong.
KNOWN_BUGS = {
}

# ======================================================================
# Building blocks: a Part is some input frames plus what they must cause.


def _ctr_key(name):
    """'InReceives' -> 'ip.InReceives'. Bare names are ip or eth counters
    only (InErrors, InCsumErrors exist in several sections): qualify the
    others (udp.NoPorts, icmp.InEchos, arp.Updates, filter.Dropped)."""
    if "." in name:
        sec, f = name.split(".", 1)
        if f not in lsk.SECTIONS.get(sec, ()):
            raise KeyError("unknown counter %s" % name)
        return name
    for sec in ("ip", "eth"):
        if name in lsk.SECTIONS[sec]:
            return "%s.%s" % (sec, name)
    raise KeyError("unknown counter %s (qualify it)" % name)


class Part:
    """Input frames and everything they must cause:
    outputs   frames that must be sent (exact; IP ID and header checksum
              masked for what listack originates), [(port, bytes)];
    errors    ICMP errors owed, [(port, bytes)] (sent unless rate limited);
    optional  frames that may be sent or not, [(port, bytes)];
    arp       neighbours listack must ask for, [(port, address)]: one
              request per address per run, however many parts need it;
    svc_frames / svc_counts  what `udp listen` services record;
    counters  every counter that moves."""

    def __init__(self, inputs=(), outputs=(), counters=None):
        self.inputs = list(inputs)      # [(port, bytes)]
        self.outputs = list(outputs)    # [(port, bytes)]
        self.errors = []
        self.optional = []
        self.arp = []
        self.svc_frames = collections.defaultdict(list)
        self.svc_counts = collections.Counter()
        ports = {q for q, _b in self.inputs}
        self.in_port = ports.pop() if len(ports) == 1 else None
        self.counters = collections.Counter()
        self.add(counters or {})

    def add(self, counters):
        for k, v in dict(counters).items():
            self.counters[_ctr_key(k)] += v
        return self

    def error(self, fr, type_, code, mtu=0, in_port=None, quote=None,
              route=None):
        """ICMP error (type_, code) owed for input frame fr."""
        if in_port is None:
            in_port = self.in_port or 0
        self.errors.append(lsk.icmp_error(fr, type_, code, mtu, in_port,
                                          quote, route))
        self.add({"icmp.OutMsgs": 1, ("icmp.OutTimeExcds" if type_ == 11
                                      else "icmp.OutDestUnreachs"): 1})
        return self

    def resolve(self, port, target, psrc=None):
        """listack must ask for target out of port (from our address
        psrc on its subnet)."""
        self.arp.append((port, target, psrc))
        return self


def fwd(fr, egress, nh_mac, in_port=0, **extra):
    """fr arrives on in_port and leaves egress towards nh_mac."""
    c = {"InReceives": 1, "ForwDatagrams": 1}
    c.update(extra)
    return Part([(in_port, fr)], [(egress, forwarded(fr, egress, nh_mac))], c)


def fwd_frag(fr, egress, nh_mac, mtu, in_port=0):
    """fr forwarded out egress as fragments (too big for mtu, DF clear)."""
    outs = lsk.forwarded_fragments(fr, egress, nh_mac, mtu)
    return Part([(in_port, fr)], [(egress, b) for b in outs],
                {"InReceives": 1, "ForwDatagrams": 1, "FragOKs": 1,
                 "FragCreates": len(outs)})


def ipdrop(fr, *counters, in_port=0, icmp=None):
    """An IPv4 frame dropped; each named counter +1 (InReceives implied);
    icmp=(type, code[, mtu]): the ICMP error owed for it."""
    c = collections.Counter({"InReceives": 1})
    for n in counters:
        c[n] += 1
    p = Part([(in_port, fr)], [], c)
    if icmp:
        p.error(fr, *icmp)
    return p


def l2drop(fr, counter, in_port=0):
    return Part([(in_port, fr)], [], {counter: 1})


def subnet_port(addr):
    """The fixture port whose subnet holds addr."""
    if addr.startswith("10.0.0."):
        return 0
    if addr.startswith("10.0.1."):
        return 1
    raise ValueError("%s is on no connected subnet" % addr)


def unresolved(fr, in_port=0, via=None, port=None, psrc=None):
    """Forwarded to a next hop with no neighbour entry that never answers:
    listack asks for it (ARP request out of its subnet's port) and holds
    the packet, which is dropped at exit (or earlier to make room): counted
    ForwDatagrams and arp.UnresolvedDiscards."""
    p = ipdrop(fr, "ForwDatagrams", "arp.UnresolvedDiscards",
               in_port=in_port)
    target = via or lsk.ip_str(lsk.l3_of(fr)[16:20])
    return p.resolve(subnet_port(target) if port is None else port, target,
                     psrc)


def _l2_group(fr):
    return fr[:6] in (lsk.mac_bytes(BCAST_MAC), lsk.mac_bytes(ALLHOSTS_MAC))


def local(fr, in_port=0):
    """fr is addressed to us and nothing listens (the fixture has no `udp
    listen`): UDP counts InDelivers then udp.InErrors (bad lengths),
    udp.IgnoredMulti (broadcast) or udp.NoPorts with ICMP port unreachable
    (never for an L2 broadcast/multicast frame); another protocol (not
    ICMP) counts InUnknownProtos with ICMP protocol unreachable (never for
    L2 or IP broadcasts)."""
    ip = lsk.l3_of(fr)
    ihl = (ip[0] & 15) * 4
    proto = ip[9]
    dst = lsk.ip_str(ip[16:20])
    group = _l2_group(fr)
    bcast = dst in lsk.BCAST_IPS
    p = Part([(in_port, fr)], [], {"InReceives": 1})
    if proto == 17:
        p.add({"InDelivers": 1})
        ulen = None
        if len(ip) >= ihl + 8:
            ulen = struct.unpack("!H", ip[ihl + 4:ihl + 6])[0]
        if ulen is None or ulen < 8 or ulen > len(ip) - ihl:
            p.add({"udp.InErrors": 1})
        elif bcast:
            p.add({"udp.IgnoredMulti": 1})
        else:
            p.add({"udp.NoPorts": 1})
            if not group:
                p.error(fr, 3, 3, in_port=in_port, quote=ip[:ihl + ulen])
    elif proto == 1:
        raise ValueError("local ICMP: use echo()")
    else:
        p.add({"InUnknownProtos": 1})
        if not (group or bcast):
            p.error(fr, 3, 2, in_port=in_port)
    return p


def echo(fr, in_port=0):
    """An echo request to us: answered when sent to one of our addresses,
    ignored when sent to a broadcast (icmp_echo_ignore_broadcasts), which
    Linux's icmp_rcv counts as an ICMP input error."""
    ip = lsk.l3_of(fr)
    p = Part([(in_port, fr)], [], {"InReceives": 1, "InDelivers": 1,
                                   "icmp.InMsgs": 1, "icmp.InEchos": 1})
    if lsk.ip_str(ip[16:20]) in lsk.OUR_IPS:
        p.outputs.append(lsk.echo_reply(fr))
        p.add({"icmp.OutMsgs": 1, "icmp.OutEchoReps": 1})
    else:
        p.add({"icmp.InErrors": 1})
    return p


def as_arrived(fr):
    """The frame as a pcap service records it: cut to the IP datagram."""
    return fr[:lsk.l2_offset(fr) + ip_field(fr, "tot_len")]


def udp_deliver(fr, svc, in_port=0, reply_from=None, pcap=None):
    """A datagram queued to the endpoint svc ('ADDR:PORT' as the services
    JSON names it); reply_from: the echo service answers from there; pcap:
    the pcap service records the frame in that file."""
    p = Part([(in_port, fr)], [], {"InReceives": 1, "InDelivers": 1,
                                   "udp.InDatagrams": 1})
    p.svc_counts[svc] += 1
    if reply_from:
        p.outputs.append(lsk.udp_echo_reply(fr, reply_from))
        p.add({"udp.OutDatagrams": 1})
    if pcap:
        p.svc_frames[pcap].append(as_arrived(fr))
    return p


# ======================================================================
# Cases

class Case:
    def __init__(self, name, group, build, strict_order=False):
        self.name = name
        self.group = group
        self.build = build
        self.strict_order = strict_order
        self.parts = None
        self.build_error = None

    def materialize(self):
        try:
            p = self.build(self.name)
            self.parts = p if isinstance(p, list) else [p]
        except Exception:
            self.build_error = "test build error: " + \
                traceback.format_exc().strip().splitlines()[-1]

    def inputs(self, port):
        return [b for pt in self.parts for (q, b) in pt.inputs if q == port]

    def outputs(self, port):
        return [b for pt in self.parts for (q, b) in pt.outputs if q == port]

    def n_errors(self):
        return sum(len(pt.errors) for pt in self.parts)

    def counters(self):
        c = collections.Counter()
        for pt in self.parts:
            c.update(pt.counters)
            c["eth.InFrames"] += len(pt.inputs)
        return c


class Group:
    def __init__(self, name, conf, lcores="0", nports=2, timeout=60,
                 variants=(), solo=False, rate_limited=False, svc_files=()):
        self.name = name
        self.conf = conf
        self.lcores = lcores
        self.nports = nports
        self.timeout = timeout
        # names of VARIANTS also run (when the binary accepts their lines)
        self.variants = variants
        # each case runs alone (it depends on how frames fall into bursts)
        self.solo = solo
        # run whole even with more than ICMP_BURST errors: the rate limit
        # decides which errors are sent (sum checks)
        self.rate_limited = rate_limited
        # pcap files the group's `udp listen ... pcap` services write
        self.svc_files = tuple(svc_files)


# Optional features appended to a group's config. GRO and the route cache
# must be invisible on the wire and in every counter outside gro, gso and
# route_cache, so the same expectations hold.
VARIANTS = {
    "gro+cache": "gro fraglist flows 64 segs 64\nroute-cache on entries 4096\n",
    "gro-tiny+cache-tiny": "gro fraglist flows 2 segs 3\n"
                           "route-cache on entries 16\n",
    "cache64": "route-cache on entries 64\n",
}


GROUPS = {}
CASES = []          # Case or Special, in definition order


def group(name, conf, **kw):
    GROUPS[name] = Group(name, conf, **kw)


def case(name, grp, build, **kw):
    CASES.append(Case(name, grp, build, **kw))


class Special:
    """A case with its own run(s) and checks: fn(ctx) returns a list of
    failure reasons (empty = pass)."""

    def __init__(self, name, fn):
        self.name = name
        self.fn = fn


def special(name):
    def deco(fn):
        CASES.append(Special(name, fn))
        return fn
    return deco


MAIN_CONF = lsk.fixture_conf(extra="route add 192.0.2.0/24 blackhole\n")

group("main", MAIN_CONF, variants=("gro+cache", "cache64"))
group("mtu", lsk.fixture_conf(p1_mtu=1000))
group("routes", variants=("gro+cache", "cache64"), conf=lsk.fixture_conf(
    extra=(
        "# more specific than the connected 10.0.1.0/24\n"
        "route add 10.0.1.128/25 via 10.0.0.1\n"
        "# more specific than 10.9.0.0/16\n"
        "route add 10.9.5.0/24 via 10.0.0.1\n"
        "route add 10.7.0.0/16 via 10.0.1.1\n"
        "route del 10.7.0.0/16\n"
        "route add 10.6.0.0/16 blackhole\n"
        "route del 10.6.0.0/16\n"
        "# gateway on a connected subnet but without a neighbour entry\n"
        "route add 10.8.0.0/16 via 10.0.1.2\n"
        "route add 10.5.0.0/16 via 10.0.1.1\n"
        "route add 10.5.0.0/24 blackhole\n"
        "route add 10.4.0.0/16 blackhole\n"
        "route del 10.4.0.0/16\n"
        "route add 10.4.0.0/16 via 10.0.0.1\n")))
group("default", lsk.fixture_conf(extra="route add 0.0.0.0/0 via 10.0.1.1\n"))
group("syntax", (
    "   # indented comment\n"
    "\n"
    "port 0 mtu 1500 mac 02:00:00:00:00:fe   # trailing comment\n"
    "port 1  mtu 1500   mac 02:00:00:00:01:fe\n"
    "\taddress add 10.0.0.254/24 port 0\n"
    "address add 10.0.1.254/24 port 1   \n"
    "#\n"
    "neigh add 10.0.0.1 lladdr 02:00:00:00:00:01\n"
    "neigh add 10.0.1.1 lladdr 02:00:00:00:01:01\n"
    "\n"
    "route add 10.9.0.0/16 via 10.0.1.1\n"
    "# last line has no newline"))
group("mixed", MAIN_CONF, variants=("gro+cache", "gro-tiny+cache-tiny"))
group("large", MAIN_CONF, timeout=90, rate_limited=True,
      variants=("gro+cache", "gro-tiny+cache-tiny"))
group("large_2lcore", MAIN_CONF, lcores="0-1", timeout=90, rate_limited=True)
group("icmp", MAIN_CONF, variants=("gro+cache",))
group("arp", MAIN_CONF, solo=True)
# cases of KNOWN_BUGS that fit no other group: one run each, so that a
# known failure costs no splitting of a batch
group("bugs", MAIN_CONF, solo=True)


def F(name, egress=1, nh=B_MAC, in_port=0, grp="main", **kw):
    """Forwarding case: a default frame (with kw) forwarded out egress."""
    case(name, grp, lambda n: fwd(frame(tag=n, port=in_port, **kw), egress,
                                  nh, in_port=in_port))


def L(name, in_port=0, grp="main", **kw):
    """Local delivery case (nothing listens: see local())."""
    case(name, grp, lambda n: local(frame(tag=n, port=in_port, **kw),
                                    in_port=in_port))


def D(name, counters, in_port=0, grp="main", icmp=None, **kw):
    """IPv4 drop case: a default frame (with kw), named counters +1,
    icmp=(type, code[, mtu]) the ICMP error owed."""
    case(name, grp, lambda n: ipdrop(frame(tag=n, port=in_port, **kw),
                                     *counters, in_port=in_port, icmp=icmp))


TIME_EXCEEDED = (11, 0)
NET_UNREACH = (3, 0)
PORT_UNREACH = (3, 3)
PROTO_UNREACH = (3, 2)


def FRAG_NEEDED(mtu):
    return (3, 4, mtu)



# ======================================================================
# Frames and options that cases of several files build with

NOPS = b"\x01\x01\x01\x00"
RR_FREE = b"\x07\x07\x04" + b"\x00" * 4 + b"\x00"     # record route, 1 slot
RA = b"\x94\x04\x00\x00"                               # router alert
LSRR = b"\x83\x07\x04\x0a\x09\x00\x01\x00"
SSRR = b"\x89\x07\x04\x0a\x09\x00\x01\x00"

def _arp_in(port, op, psrc, pdst, hwsrc, hwdst="00:00:00:00:00:00",
            eth_dst=BCAST_MAC, **arp_kw):
    return bytes(Ether(dst=eth_dst, src=hwsrc) /
                 ARP(op=op, hwsrc=hwsrc, psrc=psrc, hwdst=hwdst, pdst=pdst,
                     **arp_kw))


def _arp_req_answered(port, target, psrc=None, hwsrc=None, pad=0,
                      eth_dst=BCAST_MAC, learnt=False):
    psrc = psrc or lsk.PEER_IP[port]
    hwsrc = hwsrc or lsk.PEER_MAC[port]
    req = _arp_in(port, 1, psrc, target, hwsrc, eth_dst=eth_dst)
    req = lsk.pad_to(req, pad)
    reply = lsk.arp_reply_from_us(port, target, psrc, hwsrc)
    c = {"arp.InRequests": 1, "arp.OutReplies": 1}
    if learnt:
        c["arp.Updates"] = 1
    return Part([(port, req)], [(port, reply)], c)

def _udp_raw(dst, dport, payload, ulen=None, csum="fix", extra=b"",
             sport=1000, port=0, **kw):
    """A datagram with a chosen UDP length and checksum: ulen (default the
    real length), csum 'fix' (over the ulen bytes), 'bad', or an int;
    extra: bytes inside the IP datagram after the UDP datagram."""
    src = kw.pop("src", lsk.PEER_IP[port])
    real = 8 + len(payload)
    ulen = real if ulen is None else ulen
    hdr = struct.pack("!HHHH", sport, dport, ulen, 0)
    body = hdr + payload
    if csum in ("fix", "bad"):
        cover = body[:max(8, min(ulen, len(body)))]
        ph = bytes(IP(src=src, dst=dst))[12:20] + \
            struct.pack("!BBH", 0, 17, len(cover))
        c = checksum(ph + cover) or 0xFFFF
        if csum == "bad":
            c = (c + 1) & 0xFFFF or 1
    else:
        c = csum
    body = body[:6] + struct.pack("!H", c) + body[8:] + extra
    ip = IP(src=src, dst=dst, id=kw.pop("ident", 1), flags="DF",
            ttl=kw.pop("ttl", 64), proto=17) / Raw(body)
    return bytes(Ether(dst=kw.pop("dst_mac", lsk.PORT_MAC[port]),
                       src=lsk.PEER_MAC[port]) / ip)

UDP_CONF = lsk.fixture_conf(extra=(
    "udp listen 10.0.0.254:7 echo\n"
    "udp listen 0.0.0.0:17 echo\n"
    "udp listen 0.0.0.0:9 discard\n"
    "udp listen 10.0.1.254:9 discard\n"
    "udp listen 10.0.0.254:5000 pcap spec5000.pcap\n"
    "udp listen 0.0.0.0:5000 pcap wild5000.pcap\n"
    "udp listen 10.0.0.254:5001 pcap only5001.pcap\n"))
group("udp", UDP_CONF, variants=("gro+cache",),
      svc_files=("spec5000.pcap", "wild5000.pcap", "only5001.pcap"))

def _simple_fwd_frames(tag, k=3):
    return [frame(tag="%s#%d" % (tag, i), ident=i + 1) for i in range(k)]

# ======================================================================
# What one run of some cases must show

class Expect:
    """Everything the cases of one run expect together, frames in canon()
    form (IP ID and header checksum of what listack originates masked)."""

    def __init__(self, cases, nports, svc_files=()):
        self.nports = nports
        self.cases = cases
        self.svc_files = tuple(svc_files)
        self.req = [[] for _ in range(nports)]      # must be sent
        self.err = [[] for _ in range(nports)]      # ICMP errors owed
        self.opt = [[] for _ in range(nports)]      # may be sent
        self.arpreq = [[] for _ in range(nports)]   # one per neighbour
        self.seq = [[] for _ in range(nports)]      # all, in input order
        self.key = {}       # canon frame -> order key (lsk.out_key)
        self.owner = {}     # canon frame -> case name
        self.counters = collections.Counter(lsk.zero_counters())
        self.svc_frames = collections.defaultdict(list)
        self.svc_counts = collections.Counter()
        self.n_errors = 0
        seen = set()
        for c in cases:
            self.counters.update(c.counters())
            for pt in c.parts:
                for lst, dest in ((pt.outputs, self.req),
                                  (pt.errors, self.err),
                                  (pt.optional, self.opt)):
                    for q, b in lst:
                        self._add(dest, q, b, pt.in_port, c.name)
                self.n_errors += len(pt.errors)
                for q, t, psrc in pt.arp:
                    if t not in seen:
                        seen.add(t)
                        self._add(self.arpreq, q,
                                  lsk.arp_request_from_us(q, t, psrc=psrc),
                                  pt.in_port, c.name)
                for f, frs in pt.svc_frames.items():
                    self.svc_frames[f] += frs
                self.svc_counts.update(pt.svc_counts)
        # up to ICMP_BURST errors are always sent (the bucket starts full)
        self.rate_limited = self.n_errors > lsk.ICMP_BURST

    def _add(self, dest, q, b, in_port, name):
        cb = lsk.canon(b)
        dest[q].append(cb)
        self.seq[q].append(cb)
        self.key[cb] = lsk.out_key(in_port, b)
        self.owner.setdefault(cb, name)

    def required(self, p):
        r = collections.Counter(self.req[p]) + \
            collections.Counter(self.arpreq[p])
        if not self.rate_limited:
            r += collections.Counter(self.err[p])
        return r

    def allowed(self, p):
        a = self.required(p) + collections.Counter(self.opt[p])
        if self.rate_limited:
            a += collections.Counter(self.err[p])
        return a


def _attribute(b, names):
    for nm in names:
        if ("|%s|" % nm).encode() in b or ("|%s#" % nm).encode() in b:
            return nm
    return "?"


def _is_arp_request(b):
    return lsk.is_arp(b) and len(b) >= 22 and b[21] == 1


def check_outputs(res, E, strict=True):
    reasons = []
    names = [c.name for c in E.cases]
    for p in range(E.nports):
        raw = res.outputs.get(p)
        if raw is None:
            if E.required(p):
                reasons.append("out%d.pcap missing" % p)
            raw = []
        bad = [b for b in raw if lsk.originated(b) and not lsk.ip_hdr_ok(b)]
        if bad:
            reasons.append("port %d: %d frame(s) listack originated with a "
                           "bad IP header checksum, e.g. %s" % (
                               p, len(bad), lsk.describe(bad[0])))
        act = [lsk.canon(b) for b in raw]
        ca = collections.Counter(act)
        # an unanswered request is repeated every second: copies are fine
        for f in set(E.arpreq[p]):
            ca[f] = min(ca[f], 1)
        missing = list((E.required(p) - ca).elements())
        extra = list((ca - E.allowed(p)).elements())
        if missing or extra:
            msg = "port %d output: %d expected, %d sent" % (
                p, sum(E.required(p).values()), len(act))
            if missing:
                m = missing[0]
                msg += "; %d missing, e.g. %s from %s" % (
                    len(missing), lsk.describe(m), E.owner.get(m, "?"))
            if extra:
                x = extra[0]
                who = _attribute(x, names)
                msg += "; %d unexpected, e.g. %s from %s" % (
                    len(extra), lsk.describe(x), who)
                if missing:
                    # pair with a missing frame of the same case for a diff
                    cand = [m for m in missing if E.owner.get(m) == who] or \
                        missing
                    m = cand[0]
                    d = lsk.first_diff(m, x)
                    msg += " (first difference at byte %s: expected %s got " \
                        "%s)" % (d, m[d:d + 4].hex() if d is not None else "",
                                 x[d:d + 4].hex() if d is not None else "")
            reasons.append(msg)
            continue
        # Per-flow order over the whole run (the cases of a batch often
        # share a 5-tuple, so this spans cases): forwarded frames of one
        # flow from one port, ICMP errors about one flow, ... leave in the
        # order their inputs came. Frames that may be missing (rate limit)
        # are compared among those sent.
        present = collections.Counter(act)
        by_key_e = collections.defaultdict(list)
        for b in E.seq[p]:
            if present[b] and E.key[b][0] != "arp":
                present[b] -= 1
                by_key_e[E.key[b]].append(b)
        by_key_a = collections.defaultdict(list)
        for b in act:
            if E.key[b][0] != "arp":
                by_key_a[E.key[b]].append(b)
        for k, seq in by_key_e.items():
            if by_key_a[k] != seq:
                i = next((i for i, (a, e) in enumerate(zip(by_key_a[k], seq))
                          if a != e), min(len(seq), len(by_key_a[k])))
                got = by_key_a[k][i] if i < len(by_key_a[k]) else b""
                exp = seq[i] if i < len(seq) else b""
                reasons.append(
                    "port %d: per-flow order broken for %s at its frame #%d:"
                    " expected %s (%s) got %s (%s)" % (
                        p, _key_text(k), i, lsk.describe(exp),
                        E.owner.get(exp), lsk.describe(got),
                        E.owner.get(got)))
                break
        if not strict:
            continue
        for c in E.cases:
            if not c.strict_order:
                continue
            exp_c = [lsk.canon(b) for b in c.outputs(p)
                     if not lsk.originated(b)]
            s = set(exp_c)
            act_c = [b for b in act if b in s]
            if act_c != exp_c:
                i = next(i for i, (a, e) in enumerate(zip(act_c, exp_c))
                         if a != e)
                reasons.append("port %d: %s order differs from input "
                               "order at output #%d" % (p, c.name, i))
    return reasons


def _key_text(k):
    if k and k[0] == "icmp-error":
        return "ICMP errors about %s from port %s" % (_flow_text(k[2]), k[1])
    if k and k[0] in ("icmp", "sent", "arp"):
        return "frames we originate %r" % (k,)
    return "flow %s from port %s" % (_flow_text(k[1]), k[0])


def _flow_text(k):
    if not k:
        return "non-IPv4"
    src, dst, proto, sp, dp = k
    ip = lambda a: ".".join(str(x) for x in a)  # noqa: E731
    return "%s:%s>%s:%s/%d" % (ip(src), sp, ip(dst), dp, proto)


def _stage(st, name):
    for s in st.get("stages") or []:
        if s.get("name") == name:
            return s
    return {}


def check_stats(res, E):
    reasons = []
    st = res.stats
    if st is None:
        return [res.stats_error or "no stats"]
    mb = st.get("mbufs_in_use")
    if mb != 0:
        reasons.append("mbufs_in_use %r (expected 0)" % (mb,))
    got = lsk.flat_counters(st)
    exp = collections.Counter(E.counters)
    outs = [res.outputs.get(p) or [] for p in range(E.nports)]
    # ARP requests: one per neighbour to resolve (retried each second
    # while unanswered), plus those the cases allow
    nreq = 0
    for p in range(E.nports):
        cnt = collections.Counter(lsk.canon(b) for b in outs[p])
        for f in set(E.arpreq[p]):
            nreq += max(1, cnt[f])
        for f in set(E.opt[p]):
            if _is_arp_request(f):
                nreq += cnt[f]
    exp["arp.OutRequests"] += nreq
    skip = set()
    if E.rate_limited:
        # which errors the bucket lets through depends on time: each
        # error is sent or counted OutRateLimited, the first 50 are sent
        skip = set(lsk.ICMP_OUT_LIMITED)
        errs = collections.Counter(f for p in range(E.nports)
                                   for f in E.err[p])
        sent_all = collections.Counter(lsk.canon(b) for o in outs
                                       for b in o)
        sent = sum((sent_all & errs).values())
        limited = got.get("icmp.OutRateLimited")
        if limited is None or sent + limited != E.n_errors:
            reasons.append("ICMP errors: %d owed, %d sent + %s "
                           "OutRateLimited" % (E.n_errors, sent, limited))
        if sent < min(lsk.ICMP_BURST, E.n_errors):
            reasons.append("ICMP errors: only %d sent of %d owed (the "
                           "first %d never wait for tokens)" % (
                               sent, E.n_errors, lsk.ICMP_BURST))
        types = collections.Counter(lsk.icmp_type_of(b) for o in outs
                                    for b in o if lsk.originated(b))
        for k, t in (("icmp.OutDestUnreachs", 3), ("icmp.OutTimeExcds", 11)):
            if got.get(k) != types[t]:
                reasons.append("%s %s, but %d sent" % (k, got.get(k),
                                                       types[t]))
        want = types[3] + types[11] + (got.get("icmp.OutEchoReps") or 0)
        if got.get("icmp.OutMsgs") != want:
            reasons.append("icmp.OutMsgs %s, expected %d (sent)" % (
                got.get("icmp.OutMsgs"), want))
    diffs = ["%s expected %d got %s" % (k, exp[k], got.get(k))
             for k in sorted(exp) if k not in skip and got.get(k) != exp[k]]
    if diffs:
        reasons.append("counters: " + ", ".join(diffs))
    ip = st.get("ip") or {}
    try:
        # fragments reassembled for us: each counted by InReceives, the
        # datagram they make by InDelivers
        tot = sum(ip[d] for d in lsk.DISPOSITIONS) + \
            ip.get("ReasmReqds", 0) - ip.get("ReasmOKs", 0)
        if tot != ip["InReceives"]:
            reasons.append("sum of dispositions (+ReasmReqds-ReasmOKs) %d "
                           "!= InReceives %d" % (tot, ip["InReceives"]))
    except (KeyError, TypeError) as e:
        reasons.append("ip counters incomplete: %s" % e)
    ports = st.get("ports")
    if not isinstance(ports, list) or len(ports) != E.nports:
        reasons.append("ports: expected %d entries, got %r" % (E.nports,
                                                               ports))
    else:
        for p in range(E.nports):
            e = {"id": p, "rx": sum(len(c.inputs(p)) for c in E.cases),
                 "tx": len(outs[p]), "rx_dropped": 0, "tx_dropped": 0}
            g = ports[p] if isinstance(ports[p], dict) else {}
            bad = ["%s expected %d got %s" % (k, v, g.get(k))
                   for k, v in e.items() if g.get(k) != v]
            if bad:
                reasons.append("ports[%d]: %s" % (p, ", ".join(bad)))
    stages = st.get("stages")
    try:
        names = [s["name"] for s in stages]
        for s in stages:
            for k in ("calls", "packets", "cycles"):
                if not isinstance(s[k], int):
                    raise TypeError("%s.%s" % (s["name"], k))
        # The six stages of the brief must be there; later stages (GRO,
        # UDP, filter, output, ...) may be added.
        lacking = [n for n in lsk.STAGE_NAMES if n not in names]
        if lacking or len(set(names)) != len(names):
            reasons.append("stage names %s (lacking %s)" % (names, lacking))
    except Exception as e:
        reasons.append("stages malformed: %s" % e)
        stages = None
    # the route cache: looked up once per entry ip4_route saw and per
    # packet fwd_fast took, less what fwd_fast's filter dropped before
    # its lookup (filter Dropped counts those among the stages' drops:
    # with rules, a range)
    rc = st.get("route_cache") or {}
    conf = _run_conf(res)
    hits, misses = rc.get("Hits"), rc.get("Misses")
    bypassed = rc.get("Bypassed")
    if stages is not None and hits is not None and misses is not None:
        routed = (_stage(st, "ip4_route").get("packets", 0) +
                  _stage(st, "fwd_fast").get("packets", 0))
        dropped = (st.get("filter") or {}).get("Dropped", 0)
        if bypassed is None:
            reasons.append("route_cache: no Bypassed counter")
        elif "\nroute-cache on" in conf:
            looked = hits + misses + bypassed
            if not routed - dropped <= looked <= routed:
                reasons.append("route_cache Hits %d + Misses %d + Bypassed "
                               "%d != %d entries routed (less up to %d "
                               "filtered)"
                               % (hits, misses, bypassed, routed, dropped))
            elif routed and not misses:
                reasons.append("route_cache: %d entries routed without a "
                               "miss" % routed)
        elif hits or misses or bypassed:
            reasons.append("route_cache Hits %s Misses %s Bypassed %s with "
                           "the cache off" % (hits, misses, bypassed))
    # services: datagrams each `udp listen` service took
    svcs = st.get("services")
    if E.svc_counts or svcs:
        if not isinstance(svcs, list):
            reasons.append("services: %r" % (svcs,))
        else:
            gotc = {s.get("listen"): s.get("datagrams") for s in svcs}
            for k in set(gotc) | set(E.svc_counts):
                if gotc.get(k) != E.svc_counts[k]:
                    reasons.append("services %s datagrams %s, expected %d"
                                   % (k, gotc.get(k), E.svc_counts[k]))
    return reasons


def _run_conf(res):
    """The config text the run used."""
    cmd = res.cmd or []
    name = cmd[cmd.index("--config") + 1] if "--config" in cmd[:-1] else None
    try:
        with open(os.path.join(res.workdir, name)) as f:
            return "\n" + f.read()
    except (OSError, TypeError):
        return ""


def _svc_headers_disagree(f, frames):
    """A capture's headers agree with its bytes: IP total length = the
    frame after its L2 header, a valid IP header checksum."""
    for i, b in enumerate(frames):
        ip = IP(b[lsk.l2_offset(b):])
        l3 = len(b) - lsk.l2_offset(b)
        if ip.len != l3:
            return ["%s record %d: IP total length %d, %d bytes after "
                    "the L2 header" % (f, i, ip.len, l3)]
        if ip.chksum != lsk.ip_csum(bytes(ip)[:ip.ihl * 4]):
            return ["%s record %d: bad IP header checksum" % (f, i)]
    return []


def check_svc_files(res, E, strict=True):
    """What pcap services wrote: each datagram's frame as it arrived."""
    reasons = []
    for f in E.svc_files:
        try:
            got = lsk.read_pcap(os.path.join(res.workdir, f))
        except Exception as e:
            reasons.append("%s unreadable: %s" % (f, e))
            continue
        exp = E.svc_frames.get(f, [])
        if got is None:
            reasons.append("%s not written" % f)
            continue
        reasons += _svc_headers_disagree(f, got)
        if got == exp:
            continue
        if not strict and collections.Counter(got) == \
                collections.Counter(exp):
            flows = lambda fs: collections.defaultdict(list, [  # noqa: E731
                (k, [b for b in fs if lsk.flow_key(b) == k])
                for k in {lsk.flow_key(b) for b in fs}])
            if flows(got) == flows(exp):
                continue
        missing = list((collections.Counter(exp) -
                        collections.Counter(got)).elements())
        extra = list((collections.Counter(got) -
                      collections.Counter(exp)).elements())
        msg = "%s: %d frames, expected %d" % (f, len(got), len(exp))
        if missing:
            msg += "; missing e.g. %s" % lsk.describe(missing[0])
        if extra:
            msg += "; unexpected e.g. %s" % lsk.describe(extra[0])
            if missing:
                d = lsk.first_diff(missing[0], extra[0])
                msg += " (first difference at byte %s)" % d
        if not missing and not extra:
            msg += "; same frames in another order"
        reasons.append(msg)
    return reasons


def check_run(res, cases, nports, strict=True, svc_files=(), E=None):
    """strict=False: only per-flow order counts (GRO may let one flow's
    train overtake another flow's datagrams)."""
    if res.timed_out:
        return ["timed out (stderr: %s)" % res.stderr_tail()]
    if E is None:
        E = Expect(cases, nports, svc_files)
    reasons = []
    if res.rc != 0:
        reasons.append("exit status %s (stderr: %s)" % (res.rc,
                                                        res.stderr_tail()))
    reasons += check_stats(res, E)
    reasons += check_outputs(res, E, strict)
    reasons += check_svc_files(res, E, strict)
    return reasons


def compare_modes(rl, rs, E, strict=True):
    """list and single: the same forwarded frames in the same order (or
    the same per flow with GRO), the same frames originated (ICMP errors
    aside when the rate limit decides), the same counters."""
    reasons = []
    for p in range(E.nports):
        a, b = rl.outputs.get(p) or [], rs.outputs.get(p) or []
        fa = [x for x in a if not lsk.originated(x)]
        fb = [x for x in b if not lsk.originated(x)]
        if fa != fb:
            if sorted(fa) == sorted(fb):
                if strict:
                    reasons.append("list and single: port %d forwarded the "
                                   "same frames in a different order" % p)
            else:
                reasons.append("list and single: port %d forwarded "
                               "different frames (%d vs %d)" % (
                                   p, len(fa), len(fb)))

        def gen(o):
            c = collections.Counter(
                lsk.canon(x) for x in o if lsk.originated(x) and not (
                    E.rate_limited and lsk.is_icmp_error(x)))
            for f in list(c):
                if _is_arp_request(f):
                    c[f] = 1    # retries
            return c
        if gen(a) != gen(b):
            reasons.append("list and single: port %d originated different "
                           "frames (%d vs %d)" % (p, sum(gen(a).values()),
                                                  sum(gen(b).values())))
    if rl.stats is not None and rs.stats is not None:
        skip = {"arp.OutRequests"}
        if E.rate_limited:
            skip |= set(lsk.ICMP_OUT_LIMITED)
        cl = lsk.flat_counters(rl.stats)
        cs = lsk.flat_counters(rs.stats)
        d = [k for k in cl if k not in skip and cl[k] != cs.get(k)]
        if d:
            reasons.append("list and single counters differ: %s" % (
                ", ".join("%s %s/%s" % (k, cl[k], cs.get(k)) for k in d)))
        if rl.stats.get("ports") != rs.stats.get("ports") and \
                not E.rate_limited and not any(E.arpreq):
            reasons.append("list and single: ports counters differ")
    return reasons


# ======================================================================
# Running

class Ctx:
    def __init__(self, binary, root, verbose=False, budget=100):
        self.split_deadline = time.monotonic() + budget
        self.split_slot = threading.Semaphore(1)
        self.binary = binary
        self.root = root
        self._variants = {}
        self._vlock = threading.Lock()
        self.verbose = verbose
        self._n = 0
        self._lock = threading.Lock()

    def workdir(self, label):
        with self._lock:
            self._n += 1
            n = self._n
        return os.path.join(self.root, "%04d-%s" % (n, label[:40]))

    def variant_ok(self, name):
        """Does the binary accept the variant's config lines? Probed once:
        rejected with 'not supported yet' means the variant is skipped."""
        with self._vlock:
            if name not in self._variants:
                r = lsk.run_fwd(self.binary, self.workdir("probe-" + name),
                                MAIN_CONF + VARIANTS[name], {}, timeout=30)
                skip = r.rc == 2 and "not supported yet" in r.stderr
                if skip:
                    sys.stderr.write("note: variant %s skipped (%s)\n" % (
                        name, r.stderr_tail(200)))
                self._variants[name] = not skip
            return self._variants[name]

    def log(self, msg):
        if self.verbose:
            sys.stderr.write(msg + "\n")


def parallel(fns):
    """Run callables in threads (listack runs are gated by lsk.RUN_SLOTS)
    and return their results in order."""
    out = [None] * len(fns)
    errs = [None] * len(fns)

    def wrap(i, f):
        try:
            out[i] = f()
        except Exception:
            errs[i] = traceback.format_exc()

    ts = [threading.Thread(target=wrap, args=(i, f)) for i, f in
          enumerate(fns)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for i, e in enumerate(errs):
        if e:
            out[i] = e
    return out


def run_group_once(ctx, grp, cases):
    """Run `cases` together in both modes; returns (reasons, fatal) where
    fatal means the failure is not about packets (bad exit before any)."""
    inputs = collections.defaultdict(list)
    for c in cases:
        for p in range(grp.nports):
            inputs[p] += c.inputs(p)
    E = Expect(cases, grp.nports, grp.svc_files)
    label = grp.name if len(cases) > 1 else cases[0].name
    variants = [("", "")] + [(v, VARIANTS[v]) for v in grp.variants
                             if ctx.variant_ok(v)]

    def one(vname, vconf, mode):
        return lsk.run_fwd(ctx.binary, ctx.workdir("%s-%s%s" % (
            label, mode, vname and "-" + vname)), grp.conf + "\n" + vconf,
            inputs, nports=grp.nports, mode=mode, lcores=grp.lcores,
            timeout=grp.timeout)

    jobs = [(v, c, m) for v, c in variants for m in ("list", "single")]
    runs = parallel([lambda j=j: one(*j) for j in jobs])
    reasons, fatal = [], False
    for vname, _c in variants:
        rl, rs = [r for (v, _c2, _m), r in zip(jobs, runs) if v == vname]
        strict = "gro" not in vname
        vr = []
        for mode, r in (("list", rl), ("single", rs)):
            if isinstance(r, str):
                vr.append("%s: harness error %s" % (mode, r))
                continue
            for x in check_run(r, cases, grp.nports, strict, E=E):
                vr.append("%s: %s" % (mode, x))
        if not isinstance(rl, str) and not isinstance(rs, str):
            vr += compare_modes(rl, rs, E, strict)
        fatal |= any(not isinstance(r, str) and r.rc == 2 for r in (rl, rs))
        vr = _dedupe(vr)
        reasons += ["[%s] %s" % (vname, x) for x in vr] if vname else vr
    ctx.log("group %s (%d cases): %s" % (grp.name, len(cases),
                                         "ok" if not reasons else reasons))
    return reasons, fatal


def _dedupe(reasons):
    """Merge 'list: X' and 'single: X' into 'X (both modes)'."""
    out = []
    for r in reasons:
        if r.startswith("list: ") and ("single: " + r[6:]) in reasons:
            out.append(r[6:] + " (both modes)")
        elif r.startswith("single: ") and ("list: " + r[8:]) in reasons:
            continue
        else:
            out.append(r)
    return out


def chunks_of(grp, cases):
    """The runs a group's cases go in: one per case for solo groups; else
    batches with at most ICMP_BURST ICMP errors (so that the rate limit
    never decides), unless the group is rate_limited."""
    if grp.solo:
        return [[c] for c in cases]
    if grp.rate_limited:
        return [cases]
    out, cur, n = [], [], 0
    for c in cases:
        k = c.n_errors()
        if cur and n + k > lsk.ICMP_BURST:
            out.append(cur)
            cur, n = [], 0
        cur.append(c)
        n += k
    if cur:
        out.append(cur)
    return out


def evaluate(ctx, grp, cases, parent=None):
    """name -> None (pass) or reason; splits failing batches until each
    failure is pinned on a case (or the time budget is spent)."""
    if parent is None:
        reasons, fatal = run_group_once(ctx, grp, cases)
    else:
        # Reruns of split batches go one at a time (each runs both modes
        # in parallel) so that the time budget can stop them.
        with ctx.split_slot:
            if time.monotonic() > ctx.split_deadline:
                return {c.name: "failed in a batch of %d cases of group %s "
                        "(not split further: time budget spent): %s" % (
                            parent[0], grp.name, parent[1]) for c in cases}
            reasons, fatal = run_group_once(ctx, grp, cases)
    if not reasons:
        return {c.name: None for c in cases}
    text = "; ".join(reasons)
    if len(cases) == 1 or fatal:
        return {c.name: text for c in cases}
    if len(cases) <= 6:
        chunks = [[c] for c in cases]
    else:
        k = 4
        size = (len(cases) + k - 1) // k
        chunks = [cases[i:i + size] for i in range(0, len(cases), size)]
    results = {}
    for r in parallel([lambda ch=ch: evaluate(ctx, grp, ch,
                                              (len(cases), text))
                       for ch in chunks]):
        if isinstance(r, str):
            return {c.name: "harness error " + r for c in cases}
        results.update(r)
    if all(v is None for v in results.values()):
        return {c.name: "fails only when run together with the other "
                "cases of group %s: %s" % (grp.name, text) for c in cases}
    return results


# ======================================================================
# main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("-k", dest="filter", default=None,
                    help="run only cases whose name contains SUBSTR")
    ap.add_argument("--keep", action="store_true",
                    help="keep the work directories")
    ap.add_argument("-v", action="store_true", help="log runs on stderr")
    ap.add_argument("--list", action="store_true", help="list case names")
    ap.add_argument("--budget", type=float, default=100,
                    help="seconds after which failing batches are no "
                    "longer split to pin failures on cases (default 100)")
    args = ap.parse_args()

    names = [c.name for c in CASES]
    dup = [n for n, k in collections.Counter(names).items() if k > 1]
    if dup:
        sys.exit("duplicate case names: %s" % dup)
    selected = [c for c in CASES if not args.filter or args.filter in c.name]
    if args.list:
        for c in selected:
            print(c.name)
        return 0
    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        sys.stderr.write("not an executable: %s\n" % binary)
        return 2

    root = tempfile.mkdtemp(prefix="lsk-pcap-")
    ctx = Ctx(binary, root, verbose=args.v, budget=args.budget)
    results = {}
    done = {c.name: threading.Event() for c in selected}

    def finish(name, reason):
        results[name] = reason
        done[name].set()

    # Build packets (cheap) before running anything.
    by_group = collections.OrderedDict()
    for c in selected:
        if isinstance(c, Case):
            c.materialize()
            if c.build_error:
                finish(c.name, c.build_error)
            else:
                by_group.setdefault(c.group, []).append(c)

    # Two cases of one batch must not expect the same output frame.
    for g, cs in list(by_group.items()):
        if GROUPS[g].solo:
            continue
        seen = {}
        for c in cs:
            for p in range(GROUPS[g].nports):
                for b in [lsk.canon(x) for pt in c.parts for (q, x) in
                          pt.outputs + pt.errors if q == p]:
                    if seen.get(b, c.name) != c.name:
                        finish(c.name, "test bug: same output frame as %s"
                               % seen[b])
                    seen[b] = c.name
        by_group[g] = [c for c in cs if c.name not in results]

    def do_group(g, cs):
        try:
            res = evaluate(ctx, GROUPS[g], cs)
        except Exception:
            res = {c.name: "harness error: " + traceback.format_exc()
                   for c in cs}
        for n, r in res.items():
            finish(n, r)

    def do_special(sp):
        try:
            rs = sp.fn(ctx)
            finish(sp.name, "; ".join(rs) if rs else None)
        except Exception:
            finish(sp.name, "harness error: " +
                   traceback.format_exc().strip().splitlines()[-1])

    threads = []
    # Slow specials and big groups first so that they overlap the many
    # small runs.
    slow = ("arp_resolution_fails_host_unreachable",)
    for c in selected:
        if isinstance(c, Special) and c.name in slow:
            threads.append(threading.Thread(target=do_special, args=(c,)))
    order = sorted(by_group.items(), key=lambda kv: kv[0] not in
                   ("large", "large_2lcore", "main"))
    for g, cs in order:
        for ch in chunks_of(GROUPS[g], cs):
            threads.append(threading.Thread(target=do_group, args=(g, ch)))
    for c in selected:
        if isinstance(c, Special) and c.name not in slow:
            threads.append(threading.Thread(target=do_special, args=(c,)))
    for t in threads:
        t.daemon = True
        t.start()

    npass = nfail = nxfail = 0
    for c in selected:
        done[c.name].wait()
        r = results[c.name]
        if r is None:
            npass += 1
            print("%s %s" % ("XPASS" if c.name in KNOWN_BUGS else "PASS",
                             c.name), flush=True)
        elif c.name in KNOWN_BUGS:
            nxfail += 1
            print("XFAIL %s: %s [known bug: %s]" % (
                c.name, " ".join(str(r).split()), KNOWN_BUGS[c.name]),
                flush=True)
        else:
            nfail += 1
            print("FAIL %s: %s" % (c.name, " ".join(str(r).split())),
                  flush=True)
    for t in threads:
        t.join()
    if args.keep:
        sys.stderr.write("work directories kept in %s\n" % root)
    else:
        shutil.rmtree(root, ignore_errors=True)
    print("%d passed, %d failed%s" % (npass, nfail, ", %d known bugs "
                                      "(XFAIL)" % nxfail if nxfail else ""))
    return 1 if nfail else 0


