#!/usr/bin/python3
"""pcap integration tests of listack-fwd.

    /usr/bin/python3 tests/integration/run_pcap_tests.py build/listack-fwd [-k SUBSTR] [--keep] [-v]

Every case sends frames built here with scapy into listack-fwd through
net_pcap ports and compares what comes out (output pcaps, byte for byte)
and the counters of --stats-json with what this file expects. Expected
frames are built from the input frames (forwarded: TTL-1, full checksum
recompute, new MACs; ICMP errors, echo replies, UDP echo replies and ARP
built with scapy by the rules README.md states), never copied from listack's
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

# ---------------------------------------------------------------- forward

def _c14(n):
    fr = frame(tag=n, plen=1000, ident=1)
    assert ip_field(fr, "csum") == 0x21E7, hex(ip_field(fr, "csum"))
    p = fwd(fr, 1, B_MAC)
    out = p.outputs[0][1]
    assert ip_field(out, "ttl") == 63 and ip_field(out, "csum") == 0x22E7
    assert out[:12] == lsk.mac_bytes(B_MAC) + lsk.mac_bytes(P1_MAC)
    assert out[14 + 20:] == fr[14 + 20:]   # UDP header+payload untouched
    return p


def _c15(n):
    fr = frame(tag=n, plen=573, ident=0xA192, ttl=195)
    assert ip_field(fr, "tot_len") == 601
    assert ip_field(fr, "csum") == 0xFEFF, hex(ip_field(fr, "csum"))
    p = fwd(fr, 1, B_MAC)
    out = p.outputs[0][1]
    assert ip_field(out, "ttl") == 194 and ip_field(out, "csum") == 0x0000
    return p


def _ttl2(n):
    fr = frame(tag=n, plen=1000, ident=1, ttl=2)
    assert ip_field(fr, "csum") == 0x5FE7
    p = fwd(fr, 1, B_MAC)
    assert ip_field(p.outputs[0][1], "csum") == 0x60E7
    return p


case("fwd_c14_baseline", "main", _c14)
case("fwd_c15_csum_edge", "main", _c15)
case("fwd_c17_ttl2", "main", _ttl2)
D("fwd_c16_ttl1_dropped", ["InHdrErrors"], icmp=TIME_EXCEEDED, ttl=1)
D("fwd_ttl0_dropped", ["InHdrErrors"], icmp=TIME_EXCEEDED, ttl=0)
F("fwd_via_gateway", dst="10.9.3.4")
F("fwd_p1_to_p0", egress=0, nh=A_MAC, in_port=1, dst="10.0.0.1")
F("fwd_p1_to_p0_remote_src", egress=0, nh=A_MAC, in_port=1, src="10.9.7.7",
  dst="10.0.0.1")
F("fwd_tcp", proto="tcp", plen=100)
F("fwd_icmp", proto="icmp", plen=56)
F("fwd_proto_253", proto=253, plen=40)
F("fwd_df_clear", df=False)
F("fwd_tos_ecn_kept", tos=0xB9)
F("fwd_ttl255", ttl=255)
F("fwd_fragment_first", df=False, mf=True, plen=800)
F("fwd_fragment_later", df=False, mf=False, frag=185, proto=17, plen=300)
F("fwd_fragment_middle", df=False, mf=True, frag=100, plen=400)
case("fwd_short_42_not_padded", "main",
     lambda n: fwd(frame(plen=0, sport=4242, dport=4242), 1, B_MAC))


def _padding(n):
    fr = frame(payload=b"P", sport=1111)
    assert len(fr) == 43
    fr = lsk.pad_to(fr, 60)
    p = fwd(fr, 1, B_MAC)
    assert len(p.outputs[0][1]) == 43
    return p


def _trailer(n):
    fr = frame(tag=n, plen=1000)
    fr = fr + bytes((i * 13 + 5) & 0xFF for i in range(100))
    p = fwd(fr, 1, B_MAC)
    assert len(p.outputs[0][1]) == 14 + 1028
    return p


def _hdr_only(pad):
    def b(n):
        fr = frame(plen=0, ident=2020 + pad)
        fr = patch_ip(fr, tot_len=20, l3_len=20)
        if pad:
            fr = lsk.pad_to(fr, 60)
        p = fwd(fr, 1, B_MAC)
        assert len(p.outputs[0][1]) == 34
        return p
    return b


case("fwd_a11_padding_trimmed", "main", _padding)
case("fwd_b9_trailer_trimmed", "main", _trailer)
case("fwd_b8_header_only", "main", _hdr_only(False))
case("fwd_b8_header_only_padded", "main", _hdr_only(True))
F("fwd_mtu_1500_exact", plen=1500 - 28)
D("fwd_mtu_1501_df_fragfails", ["FragFails"], icmp=FRAG_NEEDED(1500),
  plen=1501 - 28)
# DF clear: fragmented (README.md "What happens to a packet"); this case
# expected FragFails before listack fragmented
case("fwd_mtu_1501_nodf_fragmented", "main", lambda n: fwd_frag(
    frame(tag=n, plen=1501 - 28, df=False), 1, B_MAC, 1500))

NOPS = b"\x01\x01\x01\x00"
RR_FREE = b"\x07\x07\x04" + b"\x00" * 4 + b"\x00"     # record route, 1 slot
RA = b"\x94\x04\x00\x00"                               # router alert
LSRR = b"\x83\x07\x04\x0a\x09\x00\x01\x00"
SSRR = b"\x89\x07\x04\x0a\x09\x00\x01\x00"


def _opt_fwd(opts):
    return lambda n: fwd(with_options(frame(tag=n), opts), 1, B_MAC)


def _opt_drop(opts, *counters, **kw):
    return lambda n: ipdrop(with_options(frame(tag=n, **kw), opts), *counters)


case("fwd_b11_options_nop", "main", _opt_fwd(NOPS))
case("fwd_options_record_route_unchanged", "main", _opt_fwd(RR_FREE))
case("fwd_options_router_alert", "main", _opt_fwd(RA))
case("fwd_options_max_ihl15", "main", _opt_fwd(b"\x01" * 39 + b"\x00"))
case("drop_lsrr", "main", _opt_drop(LSRR, "InDiscards"))
case("drop_ssrr", "main", _opt_drop(SSRR, "InDiscards"))
case("drop_lsrr_local", "main",
     _opt_drop(LSRR, "InDiscards", dst="10.0.0.254"))
case("drop_option_len0", "main",
     _opt_drop(b"\x1e\x00\x00\x00", "InHdrErrors"))
case("drop_option_len1", "main",
     _opt_drop(b"\x1e\x01\x00\x00", "InHdrErrors"))
case("drop_option_past_header", "main",
     _opt_drop(b"\x07\x0c\x04\x00", "InHdrErrors"))
case("drop_option_past_header_local", "main",
     _opt_drop(b"\x01\x44\x0c\x05", "InHdrErrors", dst="10.0.0.254"))

F("fwd_a9_prio_tag_leaves_untagged", vlan=0, pcp=5)
L("local_a9_prio_tag", vlan=0, pcp=5, dst="10.0.0.254")

# ---------------------------------------------------------------- local

L("local_own_address", dst="10.0.0.254")
L("local_c23_weak_host_other_port", dst="10.0.1.254")
L("local_weak_host_from_p1", in_port=1, dst="10.0.0.254")
L("local_own_address_from_p1", in_port=1, dst="10.0.1.254")
L("local_b18_subnet_bcast", dst="10.0.0.255", dst_mac=BCAST_MAC)
L("local_subnet_bcast_unicast_mac", dst="10.0.0.255")
L("local_other_subnet_bcast", dst="10.0.1.255", dst_mac=BCAST_MAC)
L("local_b19_limited_bcast", dst="255.255.255.255", dst_mac=BCAST_MAC)
L("local_b20_dhcp_zero_source", src="0.0.0.0", sport=68, dport=67,
  dst="255.255.255.255", dst_mac=BCAST_MAC)
L("local_b21_ttl0", dst="10.0.0.254", ttl=0)
L("local_b21_ttl1", dst="10.0.0.254", ttl=1)
case("local_b8_header_only", "main", lambda n: local(
    patch_ip(frame(dst="10.0.0.254", plen=0, sport=808), tot_len=20,
             l3_len=20)))
L("local_a3_l2_bcast", dst="10.0.0.254", dst_mac=BCAST_MAC)
L("local_a5_l2_mcast", dst="10.0.0.254", dst_mac=ALLHOSTS_MAC)
case("local_b11_options", "main", lambda n: local(
    with_options(frame(tag=n, dst="10.0.0.254"), NOPS)))
case("local_padding", "main", lambda n: local(
    lsk.pad_to(frame(dst="10.0.0.254", payload=b"Q", sport=3333), 60)))
L("local_big", dst="10.0.1.254", plen=1472)

# ---------------------------------------------------------------- L2

def _eth(n, type_, dst_mac=P0_MAC, body=None):
    body = body if body is not None else lsk.tag_payload("|%s|" % n, 46)
    return bytes(Ether(dst=dst_mac, src=A_MAC, type=type_) / Raw(body))


case("l2_a2_foreign_mac", "main", lambda n: l2drop(
    frame(tag=n, dst_mac="02:00:00:00:99:99"), "NotForUs"))
case("l2_other_port_mac", "main", lambda n: l2drop(
    frame(tag=n, dst_mac=P1_MAC), "NotForUs"))
case("l2_mcast_not_joined", "main", lambda n: l2drop(
    frame(tag=n, dst="239.1.2.3", dst_mac="01:00:5e:01:02:03"), "NotForUs"))
case("l2_foreign_mac_bad_ip", "main", lambda n: l2drop(
    patch_ip(frame(tag=n, dst_mac="02:00:00:00:99:99"), csum="bad"),
    "NotForUs"))
D("l2_a4_bcast_frame_unicast_ip_fwd", ["InAddrErrors"], dst_mac=BCAST_MAC)
D("l2_a5_mcast_frame_unicast_ip_fwd", ["InAddrErrors"],
  dst_mac=ALLHOSTS_MAC)
case("l2_a6_unknown_ethertype", "main",
     lambda n: l2drop(_eth(n, 0x88B5), "UnknownType"))
case("l2_ipv6_ethertype", "main",
     lambda n: l2drop(_eth(n, 0x86DD), "UnknownType"))
case("l2_a7_8023_length", "main",
     lambda n: l2drop(_eth(n, 0x0040), "UnknownType"))
case("l2_8023_length_max", "main",
     lambda n: l2drop(_eth(n, 0x05DC), "UnknownType"))
case("l2_a8_vlan_100", "main", lambda n: l2drop(
    frame(tag=n, dst="10.0.0.254", vlan=100), "UnknownVlan"))
case("l2_prio_tag_unknown_type", "main", lambda n: l2drop(bytes(
    Ether(dst=P0_MAC, src=A_MAC) / Dot1Q(vlan=0, type=0x88B5) /
    Raw(lsk.tag_payload("|%s|" % n, 46))), "UnknownType"))
case("l2_runt_13", "main",
     lambda n: l2drop(lsk.mac_bytes(P0_MAC) + lsk.mac_bytes(A_MAC) + b"\x08",
                      "Runts"))
case("l2_runt_1", "main", lambda n: l2drop(b"\x02", "Runts"))
case("l2_eth_header_only_ipv4", "main", lambda n: ipdrop(
    lsk.mac_bytes(P0_MAC) + lsk.mac_bytes(A_MAC) + b"\x08\x00",
    "InHdrErrors"))

# ------------------------------------------------ malformed (ip_rcv_core)

def _mal(counters, dst="10.0.1.1", plen=32, **patch):
    def b(n):
        fr = frame(tag=n, dst=dst, plen=plen)
        return ipdrop(patch_ip(fr, **patch), *counters)
    return b


case("b1_l3_19_bytes", "main", lambda n: ipdrop(
    frame(plen=0, sport=1919)[:14 + 19], "InHdrErrors"))
case("b2_version6", "main", _mal(["InHdrErrors"], ver=6))
case("b2_version0", "main", _mal(["InHdrErrors"], ver=0))
case("b3_ihl4", "main", _mal(["InHdrErrors"], ihl=4))
case("b3_ihl0", "main", _mal(["InHdrErrors"], ihl=0))
case("b4_ihl15_past_l3", "main",
     _mal(["InHdrErrors"], plen=12, ihl=15, tot_len=40))
case("b5_bad_csum", "main", _mal(["InCsumErrors", "InHdrErrors"],
                                 csum="bad"))
case("b5_bad_csum_local", "main", _mal(["InCsumErrors", "InHdrErrors"],
                                       dst="10.0.0.254", csum="bad"))
case("b5_zero_csum", "main", _mal(["InCsumErrors", "InHdrErrors"], csum=0))
case("b6_truncated", "main",
     _mal(["InTruncatedPkts"], plen=1000, l3_len=600))
case("b6_truncated_by_one", "main",
     _mal(["InTruncatedPkts"], plen=100, l3_len=127))
case("b7_totlen_lt_header", "main", lambda n: ipdrop(lsk.pad_to(
    patch_ip(frame(tag=n, plen=8), tot_len=16), 60), "InHdrErrors"))
case("b7_totlen_19", "main",
     _mal(["InHdrErrors"], tot_len=19))
case("b10_csum_over_options", "main", lambda n: ipdrop(
    with_options(frame(tag=n), NOPS, csum="fix20"),
    "InCsumErrors", "InHdrErrors"))
case("order_version_before_csum", "main",
     _mal(["InHdrErrors"], ver=6, csum="bad"))
case("order_ihl_before_csum", "main",
     _mal(["InHdrErrors"], ihl=4, csum="bad"))
case("order_csum_before_truncated", "main",
     _mal(["InCsumErrors", "InHdrErrors"], plen=1000, l3_len=600,
          csum="bad"))
case("order_csum_before_short_totlen", "main",
     _mal(["InCsumErrors", "InHdrErrors"], tot_len=16, csum="bad"))
case("order_csum_before_martian", "main",
     _mal(["InCsumErrors", "InHdrErrors"], src="127.0.0.1", csum="bad"))
case("order_truncated_before_martian", "main",
     _mal(["InTruncatedPkts"], src="127.0.0.1", plen=500, l3_len=300))
D("order_martian_before_noroute", ["InAddrErrors"], src="224.0.0.5",
  dst="192.168.77.1")
D("order_noroute_before_ttl", ["InNoRoutes"], icmp=NET_UNREACH, ttl=1,
  dst="192.168.77.1")
D("order_blackhole_before_ttl", ["InDiscards"], ttl=1, dst="192.0.2.9")
D("order_martian_before_ttl", ["InAddrErrors"], ttl=1, src="127.0.0.1")
D("order_ttl_before_unresolved", ["InHdrErrors"], icmp=TIME_EXCEEDED, ttl=1,
  dst="10.0.1.7")
D("order_ttl_before_mtu", ["InHdrErrors"], icmp=TIME_EXCEEDED, ttl=1,
  plen=1501 - 28)
D("order_l2bcast_before_mtu", ["InAddrErrors"], dst_mac=BCAST_MAC,
  plen=1501 - 28)
L("local_ttl0_in_l2_bcast", ttl=0, dst="10.0.0.254", dst_mac=BCAST_MAC)

# ---------------------------------------------------------------- martians

D("c1_src_mcast_local", ["InAddrErrors"], src="224.0.0.5", dst="10.0.0.254")
D("c1_src_mcast_fwd", ["InAddrErrors"], src="224.0.0.5")
D("c1_src_class_e", ["InAddrErrors"], src="240.0.0.1")
D("c1_src_class_e_high", ["InAddrErrors"], src="254.1.2.3",
  dst="10.0.0.254")
D("c2_src_limited_bcast", ["InAddrErrors"], src="255.255.255.255",
  dst="10.0.0.254")
D("c3_src_zero_unicast", ["InAddrErrors"], src="0.0.0.0", dst="10.0.0.254")
D("c3_src_zero_subnet_bcast", ["InAddrErrors"], src="0.0.0.0",
  dst="10.0.0.255", dst_mac=BCAST_MAC)
D("c3_src_zero_fwd", ["InAddrErrors"], src="0.0.0.0")
D("c4_src_zeronet", ["InAddrErrors"], src="0.1.2.3", dst="10.0.0.254")
D("c4_src_zeronet_fwd", ["InAddrErrors"], src="0.255.255.255")
D("c5_dst_zeronet", ["InAddrErrors"], dst="0.1.2.3")
D("c5_dst_zero", ["InAddrErrors"], dst="0.0.0.0")
D("c6_dst_loopback", ["InAddrErrors"], dst="127.0.0.1")
D("c6_dst_loopback_net", ["InAddrErrors"], dst="127.200.1.1")
D("c6_src_loopback", ["InAddrErrors"], src="127.0.0.1", dst="10.0.0.254")
D("c6_src_loopback_fwd", ["InAddrErrors"], src="127.255.0.1")
D("c7_src_own_address", ["InAddrErrors"], src="10.0.0.254")
D("c7_src_own_address_local", ["InAddrErrors"], src="10.0.0.254",
  dst="10.0.0.254")
D("c7_src_other_port_address", ["InAddrErrors"], src="10.0.1.254")
D("c7_src_own_address_from_p1", ["InAddrErrors"], in_port=1,
  src="10.0.1.254", dst="10.0.0.1")
D("src_subnet_bcast", ["InAddrErrors"], src="10.0.0.255")
D("src_other_subnet_bcast", ["InAddrErrors"], src="10.0.1.255",
  dst="10.0.0.254")
D("c13_dst_mcast_allhosts", ["InDiscards"], dst="224.0.0.1",
  dst_mac=ALLHOSTS_MAC)
D("c13_dst_mcast_unicast_mac", ["InDiscards"], dst="239.1.1.1")

# ---------------------------------------------------------------- routes

D("c9_no_route", ["InNoRoutes"], icmp=NET_UNREACH, dst="192.168.77.1")
D("no_route_from_p1", ["InNoRoutes"], icmp=NET_UNREACH, in_port=1,
  dst="172.16.0.1")
D("c12_blackhole", ["InDiscards"], dst="192.0.2.7")
D("blackhole_from_p1", ["InDiscards"], in_port=1, dst="192.0.2.255")
case("unresolved_connected_neighbour", "main",
     lambda n: unresolved(frame(tag=n, dst="10.0.1.7")))
case("unresolved_connected_from_p1", "main",
     lambda n: unresolved(frame(tag=n, port=1, dst="10.0.0.9"), in_port=1))

# MTU: port 1 mtu 1000
F("mtu_fwd_exact_1000", grp="mtu", plen=1000 - 28)
D("mtu_1001_df", ["FragFails"], grp="mtu", icmp=FRAG_NEEDED(1000),
  plen=1001 - 28)
D("mtu_c18_1028_df", ["FragFails"], grp="mtu", icmp=FRAG_NEEDED(1000),
  plen=1000)
case("mtu_c18_1028_nodf_fragmented", "mtu", lambda n: fwd_frag(
    frame(tag=n, plen=1000, df=False), 1, B_MAC, 1000))
case("mtu_nodf_3_fragments", "mtu", lambda n: fwd_frag(
    frame(tag=n, plen=2400, df=False), 1, B_MAC, 1000))
# a forwarded fragment too big for the egress: cut further, offsets
# counted from its own, MF kept on the last piece
case("mtu_fragment_refragmented", "mtu", lambda n: fwd_frag(
    frame(tag=n, plen=1400, df=False, mf=True, frag=64), 1, B_MAC, 1000))
case("mtu_last_fragment_refragmented", "mtu", lambda n: fwd_frag(
    frame(tag=n, plen=1400, df=False, mf=False, frag=200), 1, B_MAC, 1000))
D("mtu_ttl1_before_mtu", ["InHdrErrors"], grp="mtu", icmp=TIME_EXCEEDED,
  plen=1000, ttl=1)
D("mtu_frag_needed_from_p1_other_egress", ["FragFails"], grp="mtu",
  icmp=FRAG_NEEDED(1000), in_port=1, src="10.9.7.7", dst="10.0.1.1",
  plen=1200)
F("mtu_other_egress_unaffected", grp="mtu", egress=0, nh=A_MAC, in_port=1,
  dst="10.0.0.1", plen=1400)
L("mtu_local_not_limited", grp="mtu", dst="10.0.1.254", plen=1400)
F("mtu_small_still_forwarded", grp="mtu", plen=200)

# route add/del, more specific prefixes (input on P0 only)
F("route_more_specific_than_connected", grp="routes", egress=0, nh=A_MAC,
  dst="10.0.1.200")
F("route_connected_beside_specific", grp="routes", dst="10.0.1.1")
F("route_specific_boundary_high", grp="routes", egress=0, nh=A_MAC,
  dst="10.0.1.128")
case("route_specific_boundary_low_connected", "routes",
     lambda n: unresolved(frame(tag=n, dst="10.0.1.127")))
F("route_more_specific_than_16", grp="routes", egress=0, nh=A_MAC,
  dst="10.9.5.9")
F("route_16_beside_specific", grp="routes", dst="10.9.6.9")
D("route_del_via", ["InNoRoutes"], grp="routes", icmp=NET_UNREACH,
  dst="10.7.1.1")
D("route_del_blackhole", ["InNoRoutes"], grp="routes", icmp=NET_UNREACH,
  dst="10.6.1.1")
case("route_gateway_unresolved", "routes",
     lambda n: unresolved(frame(tag=n, dst="10.8.1.1"), via="10.0.1.2"))
D("route_blackhole_more_specific", ["InDiscards"], grp="routes",
  dst="10.5.0.9")
F("route_beside_blackhole", grp="routes", dst="10.5.1.9")
F("route_readded_after_del", grp="routes", egress=0, nh=A_MAC,
  dst="10.4.1.1")
F("route_hairpin_same_port", grp="routes", egress=0, nh=A_MAC,
  src="10.0.0.2", dst="10.0.0.1")

# default route
F("default_route_fwd", grp="default", dst="192.168.77.1")
F("default_route_class_a", grp="default", dst="8.8.8.8")
D("default_dst_loopback_martian", ["InAddrErrors"], grp="default",
  dst="127.0.0.1")
D("default_dst_zeronet_martian", ["InAddrErrors"], grp="default",
  dst="0.1.2.3")
D("default_dst_mcast_discard", ["InDiscards"], grp="default",
  dst="239.1.1.1")
L("default_limited_bcast_local", grp="default", dst="255.255.255.255",
  dst_mac=BCAST_MAC)
L("default_own_address_local", grp="default", dst="10.0.1.254")

# config syntax: comments, blank lines, tabs, extra spaces, no final newline
F("config_syntax_comments_whitespace", grp="syntax", dst="10.9.1.1")


# ---------------------------------------------------------------- mixed

def _mixed(n):
    """One burst of 40 frames on P0: five flows to two egress ports
    interleaved with local deliveries and drops (some drops reuse a flow's
    5-tuple). Per-flow order is checked on each output."""
    rng = random.Random(4242)
    flows = {
        "F1": dict(dst="10.0.1.1", sport=1001),
        "F2": dict(dst="10.9.0.7", sport=1002),
        "F3": dict(src="10.0.0.3", dst="10.9.200.1", proto="tcp",
                   sport=1003, dport=53),
        "F4": dict(src="10.0.0.2", dst="10.0.0.1", sport=1004),   # hairpin
        "F5": dict(src="10.0.0.4", dst="10.0.0.1", proto="icmp",
                   sport=1005),
    }
    egress = {"F1": (1, B_MAC), "F2": (1, B_MAC), "F3": (1, B_MAC),
              "F4": (0, A_MAC), "F5": (0, A_MAC)}
    kinds = ([k for k in flows for _ in range(6)] +
             ["local", "local", "badcsum", "ttl1", "noroute", "notforus",
              "martian", "unresolved", "bcastfwd", "blackhole"])
    rng.shuffle(kinds)
    ids = collections.Counter()
    parts = []
    for i, k in enumerate(kinds):
        tag = "%s#%d" % (n, i)
        plen = rng.choice([0, 18, 64, 200, 700, 1400])
        if k in flows:
            ids[k] += 1
            fr = frame(tag=tag, ident=ids[k], plen=max(plen, 20), **flows[k])
            parts.append(fwd(fr, *egress[k]))
        elif k == "local":
            parts.append(local(frame(tag=tag, dst="10.0.0.254", sport=1001)))
        elif k == "badcsum":
            parts.append(ipdrop(patch_ip(frame(tag=tag, **flows["F1"]),
                                         csum="bad"),
                                "InCsumErrors", "InHdrErrors"))
        elif k == "ttl1":
            parts.append(ipdrop(frame(tag=tag, ttl=1, **flows["F2"]),
                                "InHdrErrors", icmp=TIME_EXCEEDED))
        elif k == "noroute":
            parts.append(ipdrop(frame(tag=tag, dst="198.51.100.1"),
                                "InNoRoutes", icmp=NET_UNREACH))
        elif k == "notforus":
            parts.append(l2drop(frame(tag=tag, dst_mac="02:00:00:00:99:99",
                                      **flows["F1"]), "NotForUs"))
        elif k == "martian":
            parts.append(ipdrop(frame(tag=tag, src="127.0.0.1",
                                      dst="10.0.1.1"), "InAddrErrors"))
        elif k == "unresolved":
            parts.append(unresolved(frame(tag=tag, dst="10.0.1.77")))
        elif k == "bcastfwd":
            parts.append(ipdrop(frame(tag=tag, dst_mac=BCAST_MAC,
                                      **flows["F2"]), "InAddrErrors"))
        elif k == "blackhole":
            parts.append(ipdrop(frame(tag=tag, dst="192.0.2.1"),
                                "InDiscards"))
    return parts


case("mixed_burst_per_flow_order", "mixed", _mixed)

# ---------------------------------------------------------------- trains

class _TrainBuilder:
    """Datagrams of one flow per case (its own source port), with IP IDs
    counting up, for the fraglist GRO cases."""

    def __init__(self, name, sport):
        self.name, self.sport = name, sport
        self.k = 0
        self.parts = []

    def fr(self, dst="10.0.1.1", plen=100, ident=None, **kw):
        self.k += 1
        return frame(tag="%s#%d" % (self.name, self.k), src="10.0.0.1",
                     dst=dst, sport=self.sport, dport=2000, plen=plen,
                     ident=self.k if ident is None else ident, **kw)

    def fwd(self, n=1, **kw):
        for _ in range(n):
            self.parts.append(fwd(self.fr(**kw), 1, B_MAC))

    def fwd_frame(self, fr):
        self.parts.append(fwd(fr, 1, B_MAC))

    def drop(self, fr, *counters, icmp=None):
        self.parts.append(ipdrop(fr, *counters, icmp=icmp))


def train_case(name, body):
    """A run of same-flow UDP datagrams of equal size (what fraglist GRO
    chains) with something in the middle. Without GRO this is plain
    forwarding; with GRO (the group's variants) the wire output and every
    ip/eth/arp counter must be the same, in per-flow order."""
    sport = 3000 + len([c for c in CASES if getattr(c, "group", "") ==
                        "trains"])

    def build(n):
        t = _TrainBuilder(n, sport)
        body(t)
        return t.parts
    case(name, "trains", build)


def _with_udp_csum(fr, value):
    b = bytearray(fr)
    b[14 + 20 + 6:14 + 20 + 8] = value.to_bytes(2, "big")
    return bytes(b)


def _with_udp_len(fr, value):
    b = bytearray(fr)
    b[14 + 20 + 4:14 + 20 + 6] = value.to_bytes(2, "big")
    return bytes(b)


def _around(odd):
    """3 datagrams, the odd one(s), 3 more."""
    def body(t):
        t.fwd(3)
        odd(t)
        t.fwd(3)
    return body


group("trains", MAIN_CONF, variants=("gro+cache", "gro-tiny+cache-tiny"))
train_case("trains_plain_run", lambda t: t.fwd(8))
train_case("trains_bad_udp_csum_forwarded", _around(
    lambda t: t.fwd_frame(_with_udp_csum(t.fr(), 0x1234))))
train_case("trains_zero_udp_csum_forwarded", _around(
    lambda t: t.fwd_frame(_with_udp_csum(t.fr(), 0))))
train_case("trains_other_ttl", _around(lambda t: t.fwd(ttl=10)))
train_case("trains_other_tos", _around(lambda t: t.fwd(tos=0x10)))
train_case("trains_df_clear", _around(lambda t: t.fwd(df=False)))
train_case("trains_ip_options", _around(
    lambda t: t.fwd_frame(with_options(t.fr(), NOPS))))
train_case("trains_first_fragment", _around(
    lambda t: t.fwd(df=False, mf=True)))
train_case("trains_bad_ip_csum_dropped", _around(
    lambda t: t.drop(patch_ip(t.fr(), csum="bad"), "InCsumErrors",
                     "InHdrErrors")))
train_case("trains_ttl1_dropped", _around(
    lambda t: t.drop(t.fr(ttl=1), "InHdrErrors", icmp=TIME_EXCEEDED)))
train_case("trains_shorter_ends_train", _around(lambda t: t.fwd(plen=60)))
train_case("trains_longer_cannot_join", _around(lambda t: t.fwd(plen=200)))
train_case("trains_udp_len_mismatch", _around(
    lambda t: t.fwd_frame(_with_udp_len(t.fr(), 300))))
train_case("trains_padded_member", _around(
    lambda t: t.fwd_frame(lsk.pad_to(t.fr(), 200, b"\xee"))))
train_case("trains_prio_tagged_member", _around(
    lambda t: t.fwd(vlan=0, pcp=3)))
train_case("trains_other_src_mac", _around(
    lambda t: t.fwd(src_mac="02:00:00:00:00:77")))
train_case("trains_bcast_member_dropped", _around(
    lambda t: t.drop(t.fr(dst_mac=BCAST_MAC), "InAddrErrors")))
train_case("trains_more_than_64_segs", lambda t: t.fwd(70, plen=20))
train_case("trains_more_than_64k", lambda t: t.fwd(50, plen=1400))
train_case("trains_fixed_ip_id", lambda t: t.fwd(5, ident=777))
train_case("trains_ttl2", lambda t: t.fwd(5, ttl=2))
train_case("trains_to_local", lambda t: [t.parts.append(local(t.fr(
    dst="10.0.0.254"))) for _ in range(5)])
train_case("trains_unresolved", lambda t: [t.parts.append(unresolved(
    t.fr(dst="10.0.1.7"))) for _ in range(5)])
train_case("trains_no_route", lambda t: [t.drop(t.fr(dst="192.168.77.1"),
                                                "InNoRoutes",
                                                icmp=NET_UNREACH)
                                         for _ in range(5)])
train_case("trains_blackhole", lambda t: [t.drop(t.fr(dst="192.0.2.5"),
                                                 "InDiscards")
                                          for _ in range(5)])
train_case("trains_too_big", lambda t: [t.drop(t.fr(plen=1473), "FragFails",
                                               icmp=FRAG_NEEDED(1500))
                                        for _ in range(5)])
train_case("trains_too_big_df_clear", lambda t: [t.parts.append(fwd_frag(
    t.fr(plen=1473, df=False), 1, B_MAC, 1500)) for _ in range(5)])
train_case("trains_ttl1", lambda t: [t.drop(t.fr(ttl=1), "InHdrErrors",
                                            icmp=TIME_EXCEEDED)
                                     for _ in range(5)])
train_case("trains_l2_bcast", lambda t: [t.drop(t.fr(dst_mac=BCAST_MAC),
                                                "InAddrErrors")
                                         for _ in range(5)])
train_case("trains_two_flows_interleaved", lambda t: [
    (t.fwd(), t.fwd_frame(frame(tag="%s#b%d" % (t.name, i), src="10.0.0.1",
                                dst="10.9.1.1", sport=t.sport, dport=2000,
                                plen=100, ident=i)))
    for i in range(6)])

# ---------------------------------------------------------------- large

_LARGE_CACHE = {}
_LARGE_LOCK = threading.Lock()


def _large_parts(seed=2024, n0=2000, n1=500):
    """2500 frames: 2000 on P0 (forwarded to P1 over 64 flows, local,
    every kind of drop) and 500 on P1 (forwarded to P0 over 16 flows, plus
    some drops). P1's output comes only from P0's input and vice versa, so
    each output must be in exactly the input order (what listack
    originates aside). Far more than 50 ICMP errors: the rate limit
    decides which are sent (the group is rate_limited)."""
    with _LARGE_LOCK:
        if seed in _LARGE_CACHE:
            return _LARGE_CACHE[seed]
        rng = random.Random(seed)
        parts = []

        def mkflows(k, port):
            fl = []
            for i in range(k):
                if port == 0:
                    src = "10.0.0.%d" % rng.randint(1, 250)
                    dst = rng.choice(["10.0.1.1", "10.9.%d.%d" % (
                        rng.randint(0, 255), rng.randint(1, 254))])
                else:
                    src = rng.choice(["10.0.1.1", "10.9.%d.%d" % (
                        rng.randint(0, 255), rng.randint(1, 254)),
                        "198.51.100.%d" % rng.randint(1, 254)])
                    dst = "10.0.0.1"
                fl.append(dict(src=src, dst=dst, sport=10000 + i,
                               dport=rng.choice([53, 443, 2000, 4789]),
                               proto=rng.choice(["udp"] * 4 + ["tcp"]),
                               tos=rng.choice([0, 0, 0, 0x10, 0xB8])))
            return fl

        ids = collections.Counter()
        for port, count, nflows in ((0, n0, 64), (1, n1, 16)):
            fl = mkflows(nflows, port)
            egress, nh = (1, B_MAC) if port == 0 else (0, A_MAC)
            for i in range(count):
                tag = "large#%d.%d" % (port, i)
                plen = rng.choice([0, 6, 18, 64, 100, 300, 512, 1000, 1400])
                plen += rng.randint(0, 16)
                r = rng.random()
                if r < 0.70:
                    fi = rng.randrange(nflows)
                    ids[(port, fi)] += 1
                    f = dict(fl[fi])
                    ttl = rng.choice([64, 64, 64, 2, 255, 128])
                    fr = frame(tag=tag, port=port, ident=ids[(port, fi)],
                               ttl=ttl, plen=plen, **f)
                    if rng.random() < 0.05:
                        fr = lsk.pad_to(fr, len(fr) + rng.randint(1, 40),
                                        b"\xee")
                    parts.append(fwd(fr, egress, nh, in_port=port))
                    continue
                if r < 0.78:
                    dst = rng.choice(["10.0.0.254", "10.0.1.254",
                                      "10.0.%d.255" % port,
                                      "255.255.255.255"])
                    mac = BCAST_MAC if dst.endswith("255") else None
                    parts.append(local(frame(tag=tag, port=port, dst=dst,
                                             dst_mac=mac, plen=plen,
                                             ttl=rng.choice([0, 1, 64])),
                                       in_port=port))
                    continue
                kind = rng.choice(["badcsum", "ttl1", "noroute", "blackhole",
                                   "martian", "notforus", "unknowntype",
                                   "truncated", "unresolved", "bcastfwd",
                                   "mtu", "vlan", "ihl", "lsrr"])
                fwd_dst = "10.0.1.1" if port == 0 else "10.0.0.1"
                b = dict(tag=tag, port=port, dst=fwd_dst, plen=plen)
                if kind == "badcsum":
                    p = ipdrop(patch_ip(frame(**b), csum="bad"),
                               "InCsumErrors", "InHdrErrors", in_port=port)
                elif kind == "ttl1":
                    p = ipdrop(frame(ttl=rng.choice([0, 1]), **b),
                               "InHdrErrors", in_port=port,
                               icmp=TIME_EXCEEDED)
                elif kind == "noroute":
                    b["dst"] = "203.0.113.%d" % rng.randint(1, 254)
                    p = ipdrop(frame(**b), "InNoRoutes", in_port=port,
                               icmp=NET_UNREACH)
                elif kind == "blackhole":
                    b["dst"] = "192.0.2.%d" % rng.randint(1, 254)
                    p = ipdrop(frame(**b), "InDiscards", in_port=port)
                elif kind == "martian":
                    b["src"] = rng.choice(["127.0.0.1", "224.0.0.9",
                                           "0.0.0.0", "10.0.0.254",
                                           "255.255.255.255"])
                    p = ipdrop(frame(**b), "InAddrErrors", in_port=port)
                elif kind == "notforus":
                    p = l2drop(frame(dst_mac="02:00:00:00:99:%02x"
                                     % rng.randint(0, 255), **b),
                               "NotForUs", in_port=port)
                elif kind == "unknowntype":
                    p = l2drop(bytes(Ether(dst=lsk.PORT_MAC[port],
                                           src=lsk.PEER_MAC[port],
                                           type=0x88B5) /
                                     Raw(lsk.tag_payload("|%s|" % tag, 50))),
                               "UnknownType", in_port=port)
                elif kind == "truncated":
                    b["plen"] = max(plen, 40)
                    fr = frame(**b)
                    p = ipdrop(patch_ip(fr, l3_len=lsk.ip_field(fr, "tot_len")
                                        - rng.randint(1, 20)),
                               "InTruncatedPkts", in_port=port)
                elif kind == "unresolved":
                    b["dst"] = "10.0.%d.%d" % (1 - port, rng.randint(2, 250))
                    p = unresolved(frame(**b), in_port=port)
                elif kind == "bcastfwd":
                    p = ipdrop(frame(dst_mac=BCAST_MAC, **b), "InAddrErrors",
                               in_port=port)
                elif kind == "mtu":
                    b["plen"] = 1501 - 28 + rng.randint(0, 20)
                    p = ipdrop(frame(**b), "FragFails", in_port=port,
                               icmp=FRAG_NEEDED(1500))
                elif kind == "vlan":
                    p = l2drop(frame(vlan=rng.randint(1, 4094), **b),
                               "UnknownVlan", in_port=port)
                elif kind == "ihl":
                    p = ipdrop(patch_ip(frame(**b), ihl=rng.randint(0, 4)),
                               "InHdrErrors", in_port=port)
                else:
                    p = ipdrop(with_options(frame(**b), LSRR), "InDiscards",
                               in_port=port)
                parts.append(p)
        _LARGE_CACHE[seed] = parts
        return parts


case("large_2500_list_single_identical", "large",
     lambda n: _large_parts(), strict_order=True)
case("large_2500_two_lcores", "large_2lcore",
     lambda n: _large_parts(), strict_order=True)


# ======================================================================

# ======================================================================
# ARP (main: answers and malformed; group arp: learning and the hold
# queue, one run per case since they depend on which frames share a burst)

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


def _arp_bad(**kw):
    """A malformed ARP frame: arp.InErrors, nothing else."""
    def b(n):
        a = dict(op=1, hwsrc=A_MAC, psrc="10.0.0.1", pdst="10.0.0.254")
        a.update({k: v for k, v in kw.items() if k != "cut"})
        fr = bytes(Ether(dst=BCAST_MAC, src=A_MAC) / ARP(**a))
        if "cut" in kw:
            fr = fr[:kw["cut"]]
        return Part([(0, fr)], [], {"arp.InErrors": 1})
    return b


# a request for our address from a static neighbour: answered (no update
# of a static entry)
def arp_answered(port):
    return _arp_req_answered(port, lsk.PORT_IP[port])


case("l2_arp_request_answered", "main", lambda n: arp_answered(0))
case("l2_arp_request_answered_p1", "main", lambda n: arp_answered(1))
case("l2_arp_request_not_ours", "main", lambda n: Part(
    [(0, lsk.arp_request(0, target="10.0.0.77"))], [],
    {"arp.InRequests": 1}))
# arp_ignore=0: any of our addresses, on any port
case("arp_request_other_port_address", "main",
     lambda n: _arp_req_answered(0, "10.0.1.254"))
case("arp_request_p1_for_p0_address", "main",
     lambda n: _arp_req_answered(1, "10.0.0.254"))
# (new hosts asking for our address are learnt: arp.Updates)
case("arp_request_unicast_to_our_mac", "main",
     lambda n: _arp_req_answered(0, "10.0.0.254", eth_dst=P0_MAC,
                                 psrc="10.0.0.2", hwsrc="02:00:00:00:00:02",
                                 learnt=True))
case("arp_request_padded_reply_42_bytes", "main",
     lambda n: _arp_req_answered(1, "10.0.1.254", pad=60, psrc="10.0.1.3",
                                 hwsrc="02:00:00:00:01:03", learnt=True))
# a sender outside the port's subnets is answered but not learnt
case("arp_request_foreign_sender_answered", "main",
     lambda n: _arp_req_answered(0, "10.0.0.254", psrc="10.0.1.50",
                                 hwsrc="02:00:00:00:01:50"))
# RFC 5227 probe (sender 0.0.0.0): answered to its MAC, target 0.0.0.0
case("arp_dad_probe_answered", "main",
     lambda n: _arp_req_answered(0, "10.0.0.254", psrc="0.0.0.0",
                                 hwsrc="02:00:00:00:00:33"))
# a priority-tagged request (VLAN 0 = untagged): answered untagged
case("arp_request_prio_tagged_answered", "main", lambda n: Part(
    [(0, bytes(Ether(dst=BCAST_MAC, src="02:00:00:00:00:04") /
               Dot1Q(vlan=0, prio=6) /
               ARP(op=1, hwsrc="02:00:00:00:00:04", psrc="10.0.0.4",
                   pdst="10.0.0.254")))],
    [(0, lsk.arp_reply_from_us(0, "10.0.0.254", "10.0.0.4",
                               "02:00:00:00:00:04"))],
    {"arp.InRequests": 1, "arp.OutReplies": 1, "arp.Updates": 1}))
case("arp_request_foreign_mac_not_for_us", "main", lambda n: l2drop(
    _arp_in(0, 1, "10.0.0.1", "10.0.0.254", A_MAC,
            eth_dst="02:00:00:00:99:98"), "NotForUs"))
case("arp_reply_unsolicited_unknown_ignored", "main", lambda n: Part(
    [(1, _arp_in(1, 2, "10.0.1.40", "10.0.1.254", "02:00:00:00:01:40",
                 hwdst=P1_MAC, eth_dst=P1_MAC))], [],
    {"arp.InReplies": 1}))
case("arp_malformed_hwtype", "main", _arp_bad(hwtype=6))
case("arp_malformed_ptype", "main", _arp_bad(ptype=0x86DD))
case("arp_malformed_hwlen", "main", _arp_bad(hwlen=8))
case("arp_malformed_plen", "main", _arp_bad(plen=16))
case("arp_malformed_opcode", "main", _arp_bad(op=3))
case("arp_malformed_truncated", "main", _arp_bad(cut=14 + 20))

MAC7 = "02:00:00:00:01:07"
MAC8 = "02:00:00:00:01:08"
MAC9 = "02:00:00:00:01:09"
MAC9B = "02:00:00:00:01:99"


def _hairpin(tag, dst, **kw):
    """A datagram from a host on port 1's subnet to another one there
    (forwarded back out of port 1)."""
    return frame(tag=tag, port=1, src="10.0.1.5", dst=dst, **kw)


def _filler(tag, k=32):
    """k frames on port 0 forwarded out port 1: they fill port 0's first
    RX burst (32), so a frame behind them is processed after port 1's
    first burst."""
    return [fwd(frame(tag="%s#fill%d" % (tag, i), ident=i + 1), 1, B_MAC)
            for i in range(k)]


def _learn_then_forward(n):
    """A request for our address from a new host on a connected subnet
    creates its entry: a later packet to it leaves without ARP."""
    req = _arp_req_answered(1, "10.0.1.254", psrc="10.0.1.8", hwsrc=MAC8,
                            learnt=True)
    return [req] + _filler(n) + [fwd(frame(tag=n, dst="10.0.1.8"), 1, MAC8)]


def _learn_same_burst(n):
    req = _arp_req_answered(1, "10.0.1.254", psrc="10.0.1.18",
                            hwsrc="02:00:00:00:01:18", learnt=True)
    return [req, fwd(_hairpin(n, "10.0.1.18"), 1, "02:00:00:00:01:18",
                     in_port=1)]


def _reply_releases(k, after_filler=False):
    """k packets to 10.0.1.7 on port 0 (ARP request, held), then its reply
    on port 1: the newest 3 leave in order with the learnt MAC, older ones
    are dropped to make room."""
    def b(n):
        parts = []
        for i in range(k):
            fr = frame(tag="%s#%d" % (n, i), dst="10.0.1.7", ident=i + 1)
            if i < k - 3:
                p = ipdrop(fr, "ForwDatagrams", "arp.UnresolvedDiscards")
            else:
                p = fwd(fr, 1, MAC7)
            parts.append(p.resolve(1, "10.0.1.7"))
        reply = _arp_in(1, 2, "10.0.1.7", "10.0.1.254", MAC7, hwdst=P1_MAC,
                        eth_dst=P1_MAC)
        parts.append(Part([(1, reply)], [], {"arp.InReplies": 1,
                                             "arp.Updates": 1}))
        return parts
    return b


def _reply_same_burst(n):
    """The brief's sequence in one pcap: [packet to unknown 10.0.1.7, ARP
    reply from 10.0.1.7] (both on port 1, so one RX burst): the request
    goes out, the reply releases the packet."""
    fr = _hairpin(n, "10.0.1.7")
    reply = _arp_in(1, 2, "10.0.1.7", "10.0.1.254", MAC7, hwdst=P1_MAC,
                    eth_dst=P1_MAC)
    return [fwd(fr, 1, MAC7, in_port=1).resolve(1, "10.0.1.7"),
            Part([(1, reply)], [], {"arp.InReplies": 1, "arp.Updates": 1})]


def _gratuitous(op):
    """A learnt entry (10.0.1.9 at MAC9) is moved by a gratuitous ARP
    (broadcast, sender = target = 10.0.1.9) to MAC9B: the next packet
    goes to MAC9B. The entry is then stale: listack may probe it with a
    unicast request (Linux would wait delay_first_probe_time first)."""
    def b(n):
        req = _arp_req_answered(1, "10.0.1.254", psrc="10.0.1.9",
                                hwsrc=MAC9, learnt=True)
        garp = _arp_in(1, op, "10.0.1.9", "10.0.1.9", MAC9B,
                       hwdst="ff:ff:ff:ff:ff:ff" if op == 2 else
                       "00:00:00:00:00:00")
        g = Part([(1, garp)], [], {"arp.Updates": 1, (
            "arp.InRequests" if op == 1 else "arp.InReplies"): 1})
        p = fwd(_hairpin(n, "10.0.1.9"), 1, MAC9B, in_port=1)
        p.optional.append((1, lsk.arp_request_from_us(1, "10.0.1.9",
                                                      to_mac=MAC9B)))
        return [req, g, p]
    return b


def _garp_unknown(n):
    """A gratuitous ARP does not create an entry (arp_accept=0)."""
    garp = _arp_in(1, 1, "10.0.1.10", "10.0.1.10", "02:00:00:00:01:10")
    return [Part([(1, garp)], [], {"arp.InRequests": 1}),
            unresolved(_hairpin(n, "10.0.1.10"), in_port=1)]


def _garp_static(n):
    """A gratuitous ARP does not move a static entry."""
    garp = _arp_in(1, 1, "10.0.1.1", "10.0.1.1", "02:00:00:00:01:66")
    return [Part([(1, garp)], [], {"arp.InRequests": 1}),
            fwd(_hairpin(n, "10.0.1.1"), 1, B_MAC, in_port=1)]


def _req_not_ours_not_learnt(n):
    """A request for someone else teaches nothing about its sender."""
    req = _arp_in(1, 1, "10.0.1.11", "10.0.1.77", "02:00:00:00:01:11")
    return [Part([(1, req)], [], {"arp.InRequests": 1}),
            unresolved(_hairpin(n, "10.0.1.11"), in_port=1)]


def _learnt_other_port(n):
    """A host learnt on port 0's subnet is reached from port 1."""
    req = _arp_req_answered(0, "10.0.0.254", psrc="10.0.0.20",
                            hwsrc="02:00:00:00:00:20", learnt=True)
    return [req, fwd(frame(tag=n, port=1, dst="10.0.0.20"), 0,
                     "02:00:00:00:00:20", in_port=1)]


def _error_waits_for_arp(n):
    """An ICMP error to a host with no neighbour entry waits for ARP like
    any datagram: the request goes out, the host's reply (next burst of
    port 0) releases the error to its MAC."""
    mac3 = "02:00:00:00:00:03"
    fr = frame(tag=n, src="10.0.0.3", ttl=1)
    p = ipdrop(fr, "InHdrErrors").resolve(0, "10.0.0.3")
    p.error(fr, 11, 0, route=lambda d: (0, mac3))
    reply = _arp_in(0, 2, "10.0.0.3", "10.0.0.254", mac3, hwdst=P0_MAC,
                    eth_dst=P0_MAC)
    return [p] + _filler(n, 31) + [
        Part([(0, reply)], [], {"arp.InReplies": 1, "arp.Updates": 1})]


case("arp_learn_from_request_then_forward", "arp", _learn_then_forward)
case("arp_icmp_error_waits_for_arp", "arp", _error_waits_for_arp)
case("arp_learn_from_request_same_burst", "arp", _learn_same_burst)
case("arp_learnt_used_from_other_port", "arp", _learnt_other_port)
case("arp_reply_releases_held_packet", "arp", _reply_releases(1))
case("arp_reply_releases_held_in_order", "arp", _reply_releases(3))
case("arp_hold_queue_keeps_newest_3", "arp", _reply_releases(5))
case("arp_reply_after_packet_same_burst", "arp", _reply_same_burst)
case("arp_gratuitous_request_updates_entry", "arp", _gratuitous(1))
case("arp_gratuitous_reply_updates_entry", "arp", _gratuitous(2))
case("arp_gratuitous_unknown_not_learnt", "arp", _garp_unknown)
case("arp_gratuitous_static_unchanged", "arp", _garp_static)
case("arp_request_not_ours_not_learnt", "arp", _req_not_ours_not_learnt)

# ======================================================================
# ICMP: echo, errors of each kind, and the cases never answered

def _icmp_frame(type_, code=0, port=0, body=b"", **kw):
    """An ICMP message of any type (raw bytes after the 4-byte header
    start), valid checksum."""
    src = kw.pop("src", lsk.PEER_IP[port])
    dst = kw.pop("dst", "10.0.0.254")
    ttl = kw.pop("ttl", 64)
    ip = IP(src=src, dst=dst, ttl=ttl, id=kw.pop("ident", 1),
            flags=kw.pop("flags", "DF"), frag=kw.pop("frag", 0))
    pkt = Ether(dst=kw.pop("dst_mac", lsk.PORT_MAC[port]),
                src=lsk.PEER_MAC[port]) / ip / \
        ICMP(type=type_, code=code) / Raw(body)
    assert not kw, kw
    return bytes(pkt)


def _quoted(n, dst="10.9.1.1"):
    """What an ICMP error quotes: some datagram's header and 8 bytes."""
    return bytes(IP(src="10.0.0.1", dst=dst, id=7) /
                 UDP(sport=1000, dport=2000) / Raw(b"|%s|" % n.encode()))[:28]


def _echo(port=0, dst="10.0.0.254", **kw):
    return lambda n: echo(frame(tag=n, proto="icmp", port=port, dst=dst,
                                **kw), in_port=port)


def _with_icmp_csum(fr, value):
    b = bytearray(fr)
    off = lsk.l2_offset(fr)
    ihl = (b[off] & 15) * 4
    b[off + ihl + 2:off + ihl + 4] = struct.pack("!H", value)
    return bytes(b)


case("icmp_echo_reply", "icmp", _echo(plen=56))
case("icmp_echo_reply_other_port_address", "icmp",
     _echo(dst="10.0.1.254", plen=56, sport=7))
case("icmp_echo_reply_from_p1", "icmp",
     _echo(port=1, dst="10.0.1.254", plen=56))
case("icmp_echo_reply_odd_length", "icmp", _echo(plen=57, sport=9))
case("icmp_echo_reply_empty", "icmp", _echo(plen=0, sport=11, dport=5))
case("icmp_echo_reply_1472", "icmp", _echo(plen=1472, sport=12))
case("icmp_echo_reply_ttl1", "icmp", _echo(ttl=1, sport=13))
case("icmp_echo_reply_padded", "icmp", lambda n: echo(lsk.pad_to(
    frame(proto="icmp", dst="10.0.0.254", payload=b"e", sport=14), 60)))
# an L2 broadcast frame to our unicast address: answered (Linux ignores
# only IP-level broadcasts)
case("icmp_echo_reply_l2_bcast_unicast_ip", "icmp",
     _echo(dst_mac=BCAST_MAC, sport=15))
case("icmp_echo_reply_tos_copied", "icmp", _echo(tos=0xB9, sport=19))
# not answered; Linux's icmp_rcv counts them icmp.InErrors ("goto error")
case("icmp_echo_subnet_bcast_ignored", "bugs",
     _echo(dst="10.0.0.255", dst_mac=BCAST_MAC, sport=16))
case("icmp_echo_limited_bcast_ignored", "bugs",
     _echo(port=1, dst="255.255.255.255", dst_mac=BCAST_MAC, sport=17))


def _echo_nop_options(n):
    """Linux answers with the options ip_options_echo() rebuilds: record
    route, timestamp, source route; NOPs and EOL are not copied, so a
    request with only NOPs gets a reply without options (IHL 5)."""
    fr = with_options(frame(tag=n, proto="icmp", dst="10.0.0.254",
                            sport=20), NOPS)
    p = echo(fr)
    p.outputs = [lsk.echo_reply(frame(tag=n, proto="icmp", dst="10.0.0.254",
                                      sport=20))]
    return p


case("icmp_echo_reply_drops_nop_options", "bugs", _echo_nop_options)


def _arp_martian_sender(psrc):
    """Linux answers a request only if ip_route_input_noref(tip, sip)
    accepts it: a sender claiming one of our addresses or a loopback
    address is a martian source, so no reply (and nothing learnt)."""
    return lambda n: Part([(0, _arp_in(0, 1, psrc, "10.0.0.254",
                                       "02:00:00:00:00:66"))], [],
                          {"arp.InRequests": 1})


# An error that cannot be routed back is not sent: Linux counts nothing
# for it (icmp_out_count runs in __ip_make_skb, after the route lookup
# icmp_send gives up on; no IPSTATS counter either)
D("icmp_err_no_route_back_not_counted", ["InHdrErrors"], grp="bugs",
  src="198.51.100.7", ttl=1)
# ---------------------------------------------------- two addresses, port 0

group("twoaddr", lsk.fixture_conf(extra=(
    "address add 10.0.2.254/24 port 0\n"
    "neigh add 10.0.2.1 lladdr 02:00:00:00:02:01\n")))
MAC_2_1 = "02:00:00:00:02:01"


def _via_2_1(dst):
    return (0, MAC_2_1) if dst == "10.0.2.1" else lsk.fixture_route(dst)


def _from_2_1(n, **kw):
    return frame(tag=n, src="10.0.2.1", src_mac=MAC_2_1, **kw)


# an error about a forwarded packet comes from the ingress port's first
# address, whatever subnet the source is on
case("twoaddr_error_source_is_first_address", "twoaddr", lambda n: ipdrop(
    _from_2_1(n, ttl=1), "InHdrErrors").error(_from_2_1(n, ttl=1), 11, 0,
                                               route=_via_2_1))
case("twoaddr_error_source_original_destination", "twoaddr",
     lambda n: local(frame(tag=n, dst="10.0.2.254", dport=3999)))
# ARP asks from our address on the target's subnet
case("twoaddr_arp_request_from_subnet_address", "twoaddr",
     lambda n: unresolved(frame(tag=n, port=1, dst="10.0.2.7"), in_port=1,
                          port=0, psrc="10.0.2.254"))
case("twoaddr_arp_request_answered", "twoaddr", lambda n: _arp_req_answered(
    0, "10.0.2.254", psrc="10.0.2.1", hwsrc=MAC_2_1))
case("twoaddr_forward_to_second_subnet", "twoaddr", lambda n: fwd(
    frame(tag=n, port=1, dst="10.0.2.1"), 0, MAC_2_1, in_port=1))
case("twoaddr_echo_second_address", "twoaddr", lambda n: echo(
    frame(tag=n, proto="icmp", dst="10.0.2.254")))
D("twoaddr_second_address_martian_source", ["InAddrErrors"],
  grp="twoaddr", src="10.0.2.254")


case("arp_request_sender_our_address_not_answered", "bugs",
     _arp_martian_sender("10.0.1.254"))
case("arp_request_sender_loopback_not_answered", "bugs",
     _arp_martian_sender("127.0.0.1"))
case("icmp_echo_bad_csum", "icmp", lambda n: Part(
    [(0, _with_icmp_csum(frame(tag=n, proto="icmp", dst="10.0.0.254"),
                         0x1234))], [],
    {"InReceives": 1, "InDelivers": 1, "icmp.InMsgs": 1, "icmp.InErrors": 1,
     "icmp.InCsumErrors": 1}))
# 4 bytes of ICMP (type 8, code 0, a checksum right for those 4 bytes)
case("icmp_too_short", "icmp", lambda n: Part(
    [(0, frame(proto=1, dst="10.0.0.254", payload=b"\x08\x00\xf7\xff",
               ident=18))], [],
    {"InReceives": 1, "InDelivers": 1, "icmp.InMsgs": 1,
     "icmp.InErrors": 1}))
case("icmp_in_dest_unreach_counted", "icmp", lambda n: Part(
    [(0, _icmp_frame(3, 3, body=_quoted(n)))], [],
    {"InReceives": 1, "InDelivers": 1, "icmp.InMsgs": 1,
     "icmp.InDestUnreachs": 1}))
case("icmp_in_time_exceeded_counted", "icmp", lambda n: Part(
    [(0, _icmp_frame(11, 0, body=_quoted(n)))], [],
    {"InReceives": 1, "InDelivers": 1, "icmp.InMsgs": 1,
     "icmp.InTimeExcds": 1}))
case("icmp_in_echo_reply_counted", "icmp", lambda n: Part(
    [(0, _icmp_frame(0, 0, body=n.encode()))], [],
    {"InReceives": 1, "InDelivers": 1, "icmp.InMsgs": 1,
     "icmp.InEchoReps": 1}))

# errors, one case per kind and per rule of the error's source and TOS
D("icmp_err_time_exceeded", ["InHdrErrors"], grp="icmp", icmp=TIME_EXCEEDED,
  ttl=1, sport=2001)
D("icmp_err_time_exceeded_tos", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, ttl=1, tos=0xB9, sport=2002)
D("icmp_err_time_exceeded_tos_ff", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, ttl=1, tos=0xFF, sport=2003)
D("icmp_err_time_exceeded_from_p1", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, in_port=1, dst="10.0.0.1", ttl=1)
# the source of an error about a forwarded packet is the ingress port's
# address, even when the reply leaves by another port
D("icmp_err_source_is_ingress_address", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, src="10.9.7.7", dst="10.0.1.1", ttl=1)
D("icmp_err_time_exceeded_remote_src_p1", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, in_port=1, src="10.9.8.8", dst="10.0.0.1", ttl=1)
D("icmp_err_quote_cut_at_576", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, ttl=1, plen=1400, sport=2004)
D("icmp_err_quote_548_exactly", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, ttl=1, plen=548 - 28, sport=2005)
D("icmp_err_quote_tcp", ["InHdrErrors"], grp="icmp", icmp=TIME_EXCEEDED,
  ttl=1, proto="tcp", plen=40, sport=2006)
case("icmp_err_quote_options", "icmp", lambda n: ipdrop(
    with_options(frame(tag=n, ttl=1), NOPS), "InHdrErrors",
    icmp=TIME_EXCEEDED))
case("icmp_err_quote_padding_trimmed", "icmp", lambda n: ipdrop(
    lsk.pad_to(frame(payload=b"x", ttl=1, sport=2007), 60), "InHdrErrors",
    icmp=TIME_EXCEEDED))
# an echo request is no error: errors about it are sent
D("icmp_err_about_echo_request", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, proto="icmp", ttl=1, sport=2008)
D("icmp_err_first_fragment", ["InHdrErrors"], grp="icmp",
  icmp=TIME_EXCEEDED, ttl=1, df=False, mf=True, plen=600, sport=2009)
D("icmp_err_net_unreach", ["InNoRoutes"], grp="icmp", icmp=NET_UNREACH,
  dst="198.51.100.9", tos=0x28)
D("icmp_err_net_unreach_from_p1_remote_src", ["InNoRoutes"], grp="icmp",
  icmp=NET_UNREACH, in_port=1, src="10.9.9.9", dst="198.51.100.10")
L("icmp_err_port_unreach", grp="icmp", dst="10.0.0.254", dport=3999)
L("icmp_err_port_unreach_other_port_address", grp="icmp", dst="10.0.1.254",
  dport=3998)
L("icmp_err_port_unreach_from_p1", grp="icmp", in_port=1, dst="10.0.0.254",
  dport=3997)
L("icmp_err_port_unreach_big", grp="icmp", dst="10.0.0.254", dport=3996,
  plen=1000)
L("icmp_err_proto_unreach", grp="icmp", dst="10.0.0.254", proto=253)
L("icmp_err_proto_unreach_other_port_address", grp="icmp", in_port=1,
  dst="10.0.0.254", proto=254, plen=100)
case("icmp_err_frag_needed", "mtu", lambda n: ipdrop(
    frame(tag=n, plen=1100, tos=0x04), "FragFails", icmp=FRAG_NEEDED(1000)))

# never about: an ICMP error, a non-first fragment, an L2 or IP broadcast
# or multicast, a martian source
case("icmp_never_about_dest_unreach", "icmp", lambda n: ipdrop(
    _icmp_frame(3, 1, dst="10.0.1.1", ttl=1, body=_quoted(n)),
    "InHdrErrors"))
case("icmp_never_about_time_exceeded", "icmp", lambda n: ipdrop(
    _icmp_frame(11, 0, dst="198.51.100.11", body=_quoted(n)), "InNoRoutes"))
case("icmp_never_about_param_problem", "icmp", lambda n: ipdrop(
    _icmp_frame(12, 0, dst="10.0.1.1", ttl=0, body=_quoted(n)),
    "InHdrErrors"))
case("icmp_never_about_redirect", "icmp", lambda n: ipdrop(
    _icmp_frame(5, 1, dst="198.51.100.12", body=_quoted(n)), "InNoRoutes"))
D("icmp_never_non_first_fragment_ttl1", ["InHdrErrors"], grp="icmp",
  ttl=1, df=False, mf=True, frag=100, plen=200)
D("icmp_never_last_fragment_noroute", ["InNoRoutes"], grp="icmp",
  df=False, frag=185, dst="198.51.100.13", plen=200)
L("icmp_never_l2_bcast_port_unreach", grp="icmp", dst="10.0.0.254",
  dport=3995, dst_mac=BCAST_MAC)
L("icmp_never_l2_mcast_proto_unreach", grp="icmp", dst="10.0.0.254",
  proto=253, dst_mac=ALLHOSTS_MAC)
L("icmp_never_subnet_bcast_proto_unreach", grp="icmp", dst="10.0.0.255",
  proto=253)
L("icmp_never_limited_bcast_port_unreach", grp="icmp",
  dst="255.255.255.255", dst_mac=BCAST_MAC, dport=3994)
L("icmp_never_zero_src_proto_unreach", grp="icmp", src="0.0.0.0",
  dst="255.255.255.255", dst_mac=BCAST_MAC, proto=253)
D("icmp_never_martian_src_ttl1", ["InAddrErrors"], grp="icmp",
  src="127.0.0.1", ttl=1)
D("icmp_never_l2_bcast_ttl1", ["InAddrErrors"], grp="icmp",
  dst_mac=BCAST_MAC, ttl=1)
D("icmp_never_blackhole", ["InDiscards"], grp="icmp", dst="192.0.2.77")
D("icmp_never_mcast_dst", ["InDiscards"], grp="icmp", dst="239.1.1.2",
  ttl=1)

# ======================================================================
# UDP delivery: `udp listen` services

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

ECHO7 = "10.0.0.254:7"
ECHO17 = "0.0.0.0:17"


def U(name, svc, reply_from=None, pcap=None, in_port=0, **kw):
    """A datagram delivered to service svc."""
    case(name, "udp", lambda n: udp_deliver(
        frame(tag=n, port=in_port, **kw), svc, in_port=in_port,
        reply_from=reply_from, pcap=pcap))


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


def _udp_drop(fr, *counters, in_port=0):
    return ipdrop(fr, "InDelivers", *counters, in_port=in_port)


U("udp_echo_reply", ECHO7, "10.0.0.254", dst="10.0.0.254", dport=7)
U("udp_echo_reply_from_p1", ECHO7, "10.0.0.254", in_port=1,
  dst="10.0.0.254", dport=7)
U("udp_echo_reply_tos_ttl_not_copied", ECHO7, "10.0.0.254",
  dst="10.0.0.254", dport=7, tos=0xB8, ttl=9, df=False)
U("udp_echo_wildcard_other_address", ECHO17, "10.0.1.254",
  dst="10.0.1.254", dport=17)
# a broadcast is answered from the egress port's address
U("udp_echo_wildcard_subnet_bcast", ECHO17, "10.0.0.254",
  dst="10.0.0.255", dport=17, dst_mac=BCAST_MAC)
U("udp_echo_wildcard_other_subnet_bcast", ECHO17, "10.0.0.254",
  dst="10.0.1.255", dport=17, dst_mac=BCAST_MAC)
U("udp_echo_wildcard_limited_bcast_p1", ECHO17, "10.0.1.254", in_port=1,
  dst="255.255.255.255", dport=17, dst_mac=BCAST_MAC)
U("udp_echo_empty", ECHO7, "10.0.0.254", dst="10.0.0.254", dport=7, plen=0,
  sport=1001)
U("udp_echo_1472", ECHO7, "10.0.0.254", dst="10.0.0.254", dport=7,
  plen=1472, sport=1002)
U("udp_echo_ttl1", ECHO7, "10.0.0.254", dst="10.0.0.254", dport=7, ttl=1,
  sport=1003)
U("udp_echo_l2_bcast_unicast_ip", ECHO7, "10.0.0.254", dst="10.0.0.254",
  dport=7, dst_mac=BCAST_MAC, sport=1004)
case("udp_echo_zero_csum_accepted", "udp", lambda n: udp_deliver(
    _udp_raw("10.0.0.254", 7, b"|%s|" % n.encode(), csum=0, sport=1005),
    ECHO7, reply_from="10.0.0.254"))
case("udp_echo_short_ulen_trimmed", "udp", lambda n: udp_deliver(
    _udp_raw("10.0.0.254", 7, b"|%s|" % n.encode(), sport=1006,
             extra=b"NOT-PART-OF-THE-DATAGRAM"), ECHO7,
    reply_from="10.0.0.254"))
case("udp_echo_padded", "udp", lambda n: udp_deliver(lsk.pad_to(
    frame(dst="10.0.0.254", dport=7, payload=b"u", sport=1007), 60),
    ECHO7, reply_from="10.0.0.254"))
case("udp_echo_train", "udp", lambda n: [udp_deliver(
    frame(tag="%s#%d" % (n, i), dst="10.0.0.254", dport=7, sport=1008,
          ident=i + 1, plen=300), ECHO7, reply_from="10.0.0.254")
    for i in range(6)])
U("udp_discard_wildcard", "0.0.0.0:9", dst="10.0.0.254", dport=9)
U("udp_discard_specific_beats_wildcard", "10.0.1.254:9", dst="10.0.1.254",
  dport=9)
U("udp_discard_bcast_to_wildcard_only", "0.0.0.0:9", in_port=1,
  dst="10.0.1.255", dport=9, dst_mac=BCAST_MAC)
U("udp_pcap_specific", "10.0.0.254:5000", pcap="spec5000.pcap",
  dst="10.0.0.254", dport=5000)
U("udp_pcap_wildcard_other_address", "0.0.0.0:5000", pcap="wild5000.pcap",
  dst="10.0.1.254", dport=5000)
U("udp_pcap_wildcard_subnet_bcast", "0.0.0.0:5000", pcap="wild5000.pcap",
  dst="10.0.0.255", dport=5000, dst_mac=BCAST_MAC)
U("udp_pcap_wildcard_limited_bcast", "0.0.0.0:5000", pcap="wild5000.pcap",
  in_port=1, dst="255.255.255.255", dport=5000, dst_mac=BCAST_MAC)
case("udp_pcap_padding_trimmed", "udp", lambda n: udp_deliver(lsk.pad_to(
    frame(dst="10.0.0.254", dport=5000, payload=b"p", sport=1009), 60),
    "10.0.0.254:5000", pcap="spec5000.pcap"))
case("udp_pcap_trailer_trimmed", "udp", lambda n: udp_deliver(
    frame(tag=n, dst="10.0.0.254", dport=5000, plen=200) +
    bytes(range(50)), "10.0.0.254:5000", pcap="spec5000.pcap"))
case("udp_pcap_train_members", "udp", lambda n: [udp_deliver(
    frame(tag="%s#%d" % (n, i), dst="10.0.0.254", dport=5000, sport=1010,
          ident=100 + i, plen=200 if i < 4 else 80), "10.0.0.254:5000",
    pcap="spec5000.pcap") for i in range(5)])
L("udp_specific_gets_no_bcast", grp="udp", dst="10.0.0.255", dport=5001,
  dst_mac=BCAST_MAC)
L("udp_specific_other_address_noport", grp="udp", dst="10.0.1.254",
  dport=5001)
L("udp_noport_icmp", grp="udp", dst="10.0.0.254", dport=3999)
L("udp_noport_subnet_bcast_ignored", grp="udp", dst="10.0.0.255",
  dport=3999, dst_mac=BCAST_MAC)
L("udp_noport_limited_bcast_ignored", grp="udp", dst="255.255.255.255",
  dport=3999, dst_mac=BCAST_MAC)
case("udp_len_lt_8", "udp", lambda n: _udp_drop(
    _udp_raw("10.0.0.254", 7, b"|%s|" % n.encode(), ulen=4),
    "udp.InErrors"))
case("udp_len_0", "udp", lambda n: _udp_drop(
    _udp_raw("10.0.0.254", 7, b"|%s|" % n.encode(), ulen=0),
    "udp.InErrors"))
case("udp_len_gt_ip_payload", "udp", lambda n: _udp_drop(
    _udp_raw("10.0.0.254", 7, b"|%s|" % n.encode(), ulen=8 + 100 + 200),
    "udp.InErrors"))
case("udp_header_cut_by_ip_length", "udp", lambda n: _udp_drop(
    patch_ip(frame(dst="10.0.0.254", dport=7, plen=0, sport=1011),
             tot_len=24, l3_len=24), "udp.InErrors"))
case("udp_bad_csum_to_listener", "udp", lambda n: _udp_drop(
    _udp_raw("10.0.0.254", 7, b"|%s|" % n.encode(), csum="bad"),
    "udp.InCsumErrors", "udp.InErrors"))
# the checksum is checked before the port: no NoPorts, no ICMP
case("udp_bad_csum_no_port", "udp", lambda n: _udp_drop(
    _udp_raw("10.0.0.254", 3993, b"|%s|" % n.encode(), csum="bad"),
    "udp.InCsumErrors", "udp.InErrors"))
case("udp_bad_csum_short_ulen", "udp", lambda n: _udp_drop(
    _udp_raw("10.0.0.254", 7, b"|%s|" % n.encode(), csum="bad",
             extra=b"tail"), "udp.InCsumErrors", "udp.InErrors"))


def _frags_of(whole, size, order=None):
    ip = lsk.l3_of(whole)
    frs = [bytes(Ether(dst=P0_MAC, src=A_MAC, type=0x0800)) + f
           for f in lsk.fragments(ip, 20 + size)]
    return [frs[i] for i in order] if order else frs


def _reasm_echo(order=None, plen=900, size=512):
    """Fragments of a datagram to the echo service (in the given order):
    reassembled, delivered once, echoed whole."""
    def b(n):
        whole = frame(dst="10.0.0.254", dport=7, sport=1012, df=False,
                      ident=4242 + plen, tag=n, plen=plen)
        frs = _frags_of(whole, size, order)
        p = Part([(0, f) for f in frs], [lsk.udp_echo_reply(whole,
                                                            "10.0.0.254")],
                 {"InReceives": len(frs), "ReasmReqds": len(frs),
                  "ReasmOKs": 1, "InDelivers": 1, "udp.InDatagrams": 1,
                  "udp.OutDatagrams": 1})
        p.svc_counts[ECHO7] += 1
        return p
    return b


def _reasm_noport(n):
    """A reassembled datagram to a closed port: port unreachable quoting
    the reassembled datagram (its header: whole length, no fragment
    bits)."""
    whole = frame(dst="10.0.0.254", dport=3990, sport=1013, df=False,
                  ident=777, tag=n, plen=1200)
    frs = _frags_of(whole, 256)
    p = Part([(0, f) for f in frs], [],
             {"InReceives": len(frs), "ReasmReqds": len(frs), "ReasmOKs": 1,
              "InDelivers": 1, "udp.NoPorts": 1})
    return p.error(whole, 3, 3)


def _reasm_incomplete(n):
    """The first fragment alone: held for reassembly, nothing delivered
    (and nothing leaks at exit)."""
    whole = frame(dst="10.0.0.254", dport=7, sport=1014, df=False,
                  ident=778, tag=n, plen=900)
    frs = _frags_of(whole, 512)[:1]
    return Part([(0, f) for f in frs], [],
                {"InReceives": 1, "ReasmReqds": 1})


def _reasm_ping(n):
    """An echo request of 1700 bytes of data in fragments (`ping -s 1700`
    on a 1500-byte link): reassembled, answered, and the reply, larger
    than port 0's MTU with DF clear, leaves in fragments as Linux's
    ip_fragment cuts them."""
    whole = frame(proto="icmp", dst="10.0.0.254", df=False, ident=779,
                  tag=n, plen=1700, sport=20)
    frs = _frags_of(whole, 512)
    port, reply = lsk.echo_reply(whole)
    eth = reply[:14]
    outs = [(port, eth + f) for f in lsk.fragments(reply[14:], 1500)]
    return Part([(0, f) for f in frs], outs,
                {"InReceives": len(frs), "ReasmReqds": len(frs),
                 "ReasmOKs": 1, "InDelivers": 1, "icmp.InMsgs": 1,
                 "icmp.InEchos": 1, "icmp.OutMsgs": 1, "icmp.OutEchoReps": 1,
                 "FragOKs": 1, "FragCreates": len(outs)})


case("icmp_echo_reassembled_reply_fragmented", "icmp", _reasm_ping)
case("udp_reassembled_then_echoed", "udp", _reasm_echo())
case("udp_reassembled_out_of_order", "udp", _reasm_echo([2, 0, 1], 1100))
case("udp_reassembled_8_fragments", "udp", _reasm_echo(None, 1300, 168))
case("udp_reassembled_noport_icmp", "udp", _reasm_noport)
case("udp_reassembly_incomplete_held", "udp", _reasm_incomplete)

# Jumbo fragments on a 9000-byte port (net_pcap hands listack frames over
# 2 KB as multi-segment mbufs): the largest datagram is reassembled and
# delivered; one whose fragments would reassemble past 65535 bytes is
# dropped whole, ip.ReasmFails, as Linux's ip_frag_reasm drops it
# ("Oversized IP packet"). These crashed or delivered it cut (issue 10,
# finding 1).
JUMBO_CONF = lsk.fixture_conf(extra="udp listen 10.0.0.254:9 discard\n") \
    .replace("port 0 mtu 1500", "port 0 mtu 9000")
group("jumbo", JUMBO_CONF)
DISCARD9 = "10.0.0.254:9"


def _jumbo_frags(ident, data, piece=8192):
    """The IP payload `data` to 10.0.0.254 from A in fragments of `piece`
    bytes but the last, which takes the rest (at most 8980: MTU 9000);
    the offset of the last may not pass 65528."""
    out, off = [], 0
    while off < len(data):
        n = len(data) - off if len(data) - off <= 8980 else piece
        ip = IP(src="10.0.0.1", dst="10.0.0.254", id=ident, proto=17,
                flags="MF" if off + n < len(data) else 0, frag=off // 8)
        out.append(bytes(Ether(dst=P0_MAC, src=A_MAC) / ip /
                         Raw(data[off:off + n])))
        off += n
    return out


def _jumbo_65535(n):
    whole = frame(dst="10.0.0.254", dport=9, sport=1015, df=False,
                  ident=7001, tag=n, plen=65535 - 28)
    frs = _jumbo_frags(7001, lsk.l3_of(whole)[20:])
    p = Part([(0, f) for f in frs], [],
             {"InReceives": len(frs), "ReasmReqds": len(frs), "ReasmOKs": 1,
              "InDelivers": 1, "udp.InDatagrams": 1})
    p.svc_counts[DISCARD9] += 1
    return p


def _jumbo_oversized(total, ulen, ident):
    """Fragments of `total` bytes of IP payload: a UDP header of length
    ulen (no checksum) to the discard service, then the payload."""
    def b(n):
        data = struct.pack("!HHHH", 1016, 9, ulen, 0) + \
            lsk.tag_payload("|%s|" % n, total - 8)
        frs = _jumbo_frags(ident, data)
        return Part([(0, f) for f in frs], [],
                    {"InReceives": len(frs), "ReasmReqds": len(frs),
                     "ReasmFails": 1})
    return b


case("udp_jumbo_reassembled_65535", "jumbo", _jumbo_65535)
# the total length DPDK writes would be 0..19: under the header
case("udp_jumbo_past_65535_dropped_wraps_under_header", "jumbo",
     _jumbo_oversized(57344 + 8176, 0xFFFF, 7002))
case("udp_jumbo_past_65535_dropped_one_byte_over", "jumbo",
     _jumbo_oversized(65535 - 20 + 1, 0xFFFF, 7003))
# ... or a short datagram, delivered cut to its UDP length
case("udp_jumbo_past_65535_dropped_would_be_cut", "jumbo",
     _jumbo_oversized(65536 + 100, 80, 7004))
case("udp_jumbo_past_65535_dropped_longest", "jumbo",
     _jumbo_oversized(57344 + 8980, 1000, 7005))

case("icmp_err_port_unreach_quote_cut_to_udp_length", "udp",
     lambda n: local(_udp_raw("10.0.0.254", 3992, b"|%s|" % n.encode(),
                              extra=b"BEYOND-THE-UDP-LENGTH")))

# ======================================================================
# Filter: `filter add accept|drop ...`, first match wins, default accept;
# a drop counts ip.InDiscards and filter.Dropped for every datagram

FILTER_CONF = lsk.fixture_conf(extra=(
    "filter add accept proto udp src 10.0.0.1/32 dport 5353\n"
    "filter add drop proto udp dport 5353\n"
    "filter add drop proto udp dst 10.9.0.0/16 dport 53\n"
    "filter add drop proto tcp dport 23\n"
    "filter add drop src 10.0.0.66/32\n"
    "filter add drop proto icmp dst 10.0.0.254/32\n"
    "filter add drop proto 253\n"
    "filter add drop proto udp sport 6000-6009 dst 10.0.1.0/24\n"
    "filter add drop dst 203.0.113.0/24\n"))
group("filter", FILTER_CONF, variants=("gro+cache",))


def filtered(fr, in_port=0):
    return ipdrop(fr, "InDiscards", "filter.Dropped", in_port=in_port)


def FD(name, **kw):
    case(name, "filter", lambda n: filtered(frame(tag=n, **kw)))


def FF(name, **kw):
    case(name, "filter", lambda n: fwd(frame(tag=n, **kw), 1, B_MAC))


FD("filter_drop_udp_dst_dport", dst="10.9.1.1", dport=53)
FF("filter_other_dport_accepted", dst="10.9.1.1", dport=54)
FF("filter_other_dst_accepted", dst="10.0.1.1", dport=53)
FF("filter_first_match_accept", dst="10.0.1.1", dport=5353)
FD("filter_first_match_drop", src="10.0.0.2", dst="10.0.1.1", dport=5353)
FD("filter_tcp_dport", proto="tcp", dst="10.0.1.1", dport=23)
FF("filter_udp_not_tcp_rule", dst="10.0.1.1", dport=23)
FD("filter_src_host_udp", src="10.0.0.66", dst="10.0.1.1")
FD("filter_src_host_icmp", src="10.0.0.66", dst="10.0.1.1", proto="icmp")
FD("filter_src_host_to_us", src="10.0.0.66", dst="10.0.0.254")
FD("filter_icmp_to_us", proto="icmp", dst="10.0.0.254")
case("filter_icmp_other_address_answered", "filter", lambda n: echo(
    frame(tag=n, proto="icmp", dst="10.0.1.254")))
FD("filter_proto_253", proto=253, dst="10.0.1.1")
FD("filter_proto_253_to_us_no_icmp", proto=253, dst="10.0.0.254")
FD("filter_sport_range_low", sport=6000, dst="10.0.1.1")
FD("filter_sport_range_mid", sport=6005, dst="10.0.1.1")
FD("filter_sport_range_high", sport=6009, dst="10.0.1.1")
FF("filter_sport_range_above", sport=6010, dst="10.0.1.1")
FF("filter_sport_range_below", sport=5999, dst="10.0.1.1")
FF("filter_sport_range_other_dst", sport=6005, dst="10.9.1.1")
# PRE_ROUTING: before routing (no ICMP for a dropped no-route or TTL 1)
FD("filter_before_route_no_icmp", dst="203.0.113.5")
FD("filter_before_ttl_no_icmp", dst="10.9.1.1", dport=53, ttl=1)
# after the header checks
case("filter_after_ip_checks", "filter", lambda n: ipdrop(
    patch_ip(frame(tag=n, dst="10.9.1.1", dport=53), csum="bad"),
    "InCsumErrors", "InHdrErrors"))
# a non-first fragment has no ports to match
FF("filter_non_first_fragment_no_ports", dst="10.9.1.1", df=False,
   frag=100, proto=17,
   payload=struct.pack("!HHHH", 1000, 53, 40, 0) + b"x" * 32)
case("filter_train_dropped", "filter", lambda n: [filtered(
    frame(tag="%s#%d" % (n, i), dst="10.9.2.2", dport=53, sport=7000,
          ident=i + 1, plen=200)) for i in range(8)])
case("filter_train_accepted", "filter", lambda n: [fwd(
    frame(tag="%s#%d" % (n, i), dst="10.9.2.2", dport=55, sport=7001,
          ident=i + 1, plen=200), 1, B_MAC) for i in range(8)])
case("filter_trains_interleaved", "filter", lambda n: [
    (filtered if i % 2 else lambda f: fwd(f, 1, B_MAC))(
        frame(tag="%s#%d" % (n, i), dst="10.9.3.3", dport=53 if i % 2 else
              56, sport=7002, ident=i + 1, plen=100)) for i in range(10)])


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
    # the route cache: looked up once per entry ip4_route saw
    rc = st.get("route_cache") or {}
    conf = _run_conf(res)
    hits, misses = rc.get("Hits"), rc.get("Misses")
    bypassed = rc.get("Bypassed")
    if stages is not None and hits is not None and misses is not None:
        routed = _stage(st, "ip4_route").get("packets", 0)
        if bypassed is None:
            reasons.append("route_cache: no Bypassed counter")
        elif "\nroute-cache on" in conf:
            if hits + misses + bypassed != routed:
                reasons.append("route_cache Hits %d + Misses %d + Bypassed "
                               "%d != %d entries routed"
                               % (hits, misses, bypassed, routed))
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


# ---------------------------------------------------------------- ring full

# A burst of 20 datagrams to an endpoint whose ring holds 4: they arrive in
# one RX burst (the pcap PMD hands out 32 at a time) and udp4_input makes
# one enqueue per endpoint per burst, so the service loop cannot drain in
# between: the first 4 are queued (and echoed), 16 count RcvbufErrors and
# InErrors.
group("udp_ring", lsk.fixture_conf(extra="udp listen 10.0.0.254:7000 echo "
                                   "ring 4\n"),
      solo=True, variants=("gro+cache",))


def _ring_full(n):
    parts = []
    for i in range(20):
        fr = frame(tag="%s#%d" % (n, i), dst="10.0.0.254", dport=7000,
                   sport=1234, ident=i + 1, plen=100)
        if i < 4:
            parts.append(udp_deliver(fr, "10.0.0.254:7000",
                                     reply_from="10.0.0.254"))
        else:
            parts.append(ipdrop(fr, "InDelivers", "udp.RcvbufErrors",
                                "udp.InErrors"))
    return parts


case("udp_ring_full_4_of_20", "udp_ring", _ring_full)


# ======================================================================
# Special cases (own runs, own checks)

def _run_both(ctx, label, conf, inputs, **kw):
    return parallel([lambda m=m: lsk.run_fwd(
        ctx.binary, ctx.workdir("%s-%s" % (label, m)), conf, inputs, mode=m,
        **kw) for m in ("list", "single")])


def _stats(r, sec, name):
    return ((r.stats or {}).get(sec) or {}).get(name)


@special("icmp_rate_limit_200_ttl_expired")
def _rate_limit(ctx):
    """200 TTL-expired datagrams in one run: the bucket (burst 50, 1000/s)
    lets the first 50 and what refills meanwhile through, every other
    error is counted OutRateLimited."""
    cs = Case("ratelimit", "main", lambda n: [ipdrop(
        frame(tag="%s#%d" % (n, i), ttl=1, ident=i + 1, sport=3000 + i % 7),
        "InHdrErrors", icmp=TIME_EXCEEDED) for i in range(200)])
    cs.materialize()
    ins = {0: [b for pt in cs.parts for _q, b in pt.inputs]}
    runs = _run_both(ctx, "ratelimit", MAIN_CONF, ins)
    reasons = []
    for mode, r in zip(("list", "single"), runs):
        if isinstance(r, str):
            reasons.append("%s: harness error %s" % (mode, r))
            continue
        reasons += ["%s: %s" % (mode, x) for x in check_run(r, [cs], 2)]
        lim = _stats(r, "icmp", "OutRateLimited")
        if not lim:
            reasons.append("%s: 200 errors in well under 150 ms and none "
                           "rate limited (OutRateLimited %s)" % (mode, lim))
    return _dedupe(reasons)


@special("arp_resolution_fails_host_unreachable")
def _arp_fails(ctx):
    """A next hop that never answers: the request is sent 3 times a second
    apart, then the entry fails (arp.ResFailed) and the held packet is
    dropped with ICMP host unreachable, quoting it as it was held (TTL
    already decreased). About 5 s."""
    fr = frame(tag="arpfail", dst="10.0.1.7", tos=0x10)
    quote = forwarded(fr, 1, B_MAC)[14:]
    p = ipdrop(fr, "ForwDatagrams", "arp.UnresolvedDiscards",
               "arp.ResFailed").resolve(1, "10.0.1.7")
    p.error(fr, 3, 1, quote=quote)
    cs = Case("arp_fails", "main", lambda n: p)
    cs.materialize()
    runs = _run_both(ctx, "arpfail", MAIN_CONF, {0: [fr]}, idle_exit=4500,
                     timeout=40)
    reasons = []
    req = lsk.arp_request_from_us(1, "10.0.1.7")
    for mode, r in zip(("list", "single"), runs):
        if isinstance(r, str):
            reasons.append("%s: harness error %s" % (mode, r))
            continue
        reasons += ["%s: %s" % (mode, x) for x in check_run(r, [cs], 2)]
        n = (r.outputs.get(1) or []).count(req)
        if n != 3:
            reasons.append("%s: %d ARP requests for 10.0.1.7, expected 3 "
                           "(one a second, then failure)" % (mode, n))
    return _dedupe(reasons)


# Floods (issue 10, findings 6 and 7): a /16 on port 1 gives them room.
FLOOD_CONF = lsk.fixture_conf(extra="address add 172.16.255.254/16 port 1\n")


def _flood_ip(i):
    return "172.16.%d.%d" % ((i + 1) >> 8, (i + 1) & 255)


def _flood_arp_request(i):
    """A request for 172.16.255.254 from _flood_ip(i), MAC 02:10:..:i, on
    port 1 (raw bytes: scapy is slow for 20,000 of them)."""
    mac = bytes([2, 0x10, 0, (i >> 16) & 255, (i >> 8) & 255, i & 255])
    sip = bytes(int(x) for x in _flood_ip(i).split("."))
    return (b"\xff" * 6 + mac + b"\x08\x06" +
            bytes.fromhex("0001080006040001") + mac + sip + b"\x00" * 6 +
            bytes([172, 16, 255, 254]))


def _flood_counters(r, want):
    st = lsk.flat_counters(r.stats)
    return ["%s %s, expected %s" % (k, st.get(k), v)
            for k, v in want.items() if st.get(k) != v]


@special("arp_flood_hold_queues_bounded")
def _arp_flood_hold(ctx):
    """3 datagrams each to 4,200 hosts that never answer: hold queues keep
    at most an eighth of the pool, so the PMD drops nothing; each host is
    asked for; nothing is refused; all is dropped and counted in the end."""
    frames = [frame(dst=_flood_ip(i), ident=r, plen=18)
              for r in range(3) for i in range(4200)]
    r = lsk.run_fwd(ctx.binary, ctx.workdir("arpflood-hold"), FLOOD_CONF,
                    {0: frames}, idle_exit=500, timeout=60)
    if r.timed_out or r.stats is None:
        return ["no stats (%s)" % r.stderr_tail()]
    p0 = r.stats["ports"][0]
    reasons = ["port 0: rx %s, rx_dropped %s; expected 12600, 0"
               % (p0["rx"], p0["rx_dropped"])] \
        if (p0["rx"], p0["rx_dropped"]) != (12600, 0) else []
    reasons += _flood_counters(r, {
        "ip.ForwDatagrams": 12600, "arp.UnresolvedDiscards": 12600,
        "arp.TableFulls": 0, "arp.OutDiscards": 0})
    st = lsk.flat_counters(r.stats)
    if (st.get("arp.OutRequests") or 0) < 4200:
        reasons.append("arp.OutRequests %s, expected 4200 or more"
                       % st.get("arp.OutRequests"))
    if r.stats.get("mbufs_in_use") != 0:
        reasons.append("mbufs_in_use %s" % r.stats.get("mbufs_in_use"))
    return reasons


@special("arp_spoofed_flood_new_host_learnt")
def _arp_flood_spoofed(ctx):
    """20,000 spoofed senders of requests for us fill the neighbour table;
    a new host asking afterwards is answered and learnt, and a datagram to
    it leaves to its MAC without an ARP request (sent back out of port 1,
    after the flood: the ports' inputs are not ordered between them)."""
    new = 50000
    fr = frame(dst=_flood_ip(new), port=1, tag="spoofed-new")
    inputs = {1: [_flood_arp_request(i) for i in range(20000)] +
              [_flood_arp_request(new), fr]}
    r = lsk.run_fwd(ctx.binary, ctx.workdir("arpflood-spoofed"),
                    FLOOD_CONF, inputs, idle_exit=500, timeout=60)
    if r.timed_out or r.stats is None:
        return ["no stats (%s)" % r.stderr_tail()]
    reasons = _flood_counters(r, {
        "arp.InRequests": 20001, "arp.OutReplies": 20001,
        "arp.Updates": 20001, "arp.TableFulls": 0, "ip.ForwDatagrams": 1,
        "arp.UnresolvedDiscards": 0})
    mac = bytes([2, 0x10, 0, 0, new >> 8, new & 255])
    out = [b for b in (r.outputs.get(1) or []) if not lsk.is_arp(b)]
    if len(out) != 1 or out[0][:6] != mac:
        reasons.append("port 1 sent %d datagrams, expected 1 to %s"
                       % (len(out), mac.hex(":")))
    return reasons


@special("route_cache_hits_misses")
def _route_cache(ctx):
    """route-cache on entries 64: the same output as without it; single
    mode misses once per destination (4 destinations, 100 datagrams: 4
    misses, 96 hits); 100 destinations overflow it (>= 36 evictions, no
    hits). List mode looks a whole burst up at once, so repeated
    destinations of its first burst all miss: Hits + Misses = 100 there."""
    conf = MAIN_CONF + "route-cache on entries 64\n"
    dsts = ["10.0.1.1", "10.9.1.1", "10.9.200.7", "10.0.0.1"]
    few = [frame(tag="rc#%d" % i, dst=dsts[i % 4], ident=i + 1,
                 port=1 if dsts[i % 4] == "10.0.0.1" else 0)
           for i in range(100)]
    many = [frame(tag="rcm#%d" % i, dst="10.9.%d.%d" % (i // 200, i % 200 + 1),
                  ident=i + 1) for i in range(100)]
    reasons = []
    for label, frs, check in (("few", few, True), ("many", many, False)):
        parts = [fwd(f, 0, A_MAC, in_port=1) if lsk.l3_of(f)[16:20] ==
                 bytes([10, 0, 0, 1]) else fwd(f, 1, B_MAC) for f in frs]
        cs = Case("rc-" + label, "main", lambda n, parts=parts: parts)
        cs.materialize()
        ins = collections.defaultdict(list)
        for pt in parts:
            for q, b in pt.inputs:
                ins[q].append(b)
        runs = _run_both(ctx, "rcache-" + label, conf, ins)
        for mode, r in zip(("list", "single"), runs):
            if isinstance(r, str):
                reasons.append("%s: harness error %s" % (mode, r))
                continue
            reasons += ["%s %s: %s" % (label, mode, x)
                        for x in check_run(r, [cs], 2)]
            rc = (r.stats or {}).get("route_cache") or {}
            h, m, ev = rc.get("Hits"), rc.get("Misses"), rc.get("Evictions")
            if None in (h, m, ev):
                reasons.append("%s %s: route_cache %r" % (label, mode, rc))
                continue
            if h + m != 100:
                reasons.append("%s %s: Hits %d + Misses %d != 100" % (
                    label, mode, h, m))
            if check and mode == "single" and (m, h) != (4, 96):
                reasons.append("few single: Misses %d Hits %d, expected 4 "
                               "and 96" % (m, h))
            if check and m < 4:
                reasons.append("few %s: %d misses for 4 destinations" % (
                    mode, m))
            if not check and mode == "single" and (m != 100 or ev < 36):
                reasons.append("many single: Misses %d Evictions %d, "
                               "expected 100 and >= 36" % (m, ev))
    return _dedupe(reasons)

# Special cases (own runs, own checks)

def _simple_fwd_frames(tag, k=3):
    return [frame(tag="%s#%d" % (tag, i), ident=i + 1) for i in range(k)]


@special("no_packets_at_all")
def _no_packets(ctx):
    reasons = []
    runs = parallel([lambda m=m: lsk.run_fwd(
        ctx.binary, ctx.workdir("nopkts-" + m), MAIN_CONF, {}, mode=m,
        timeout=30) for m in ("list", "single")])
    for mode, r in zip(("list", "single"), runs):
        for x in check_run(r, [], 2):
            reasons.append("%s: %s" % (mode, x))
        if r.stats:
            nz = {k: v for k, v in lsk.flat_counters(r.stats).items() if v}
            if nz:
                reasons.append("%s: non-zero counters %s" % (mode, nz))
    return _dedupe(reasons)


@special("sigterm_flushes_and_writes_stats")
def _sigterm(ctx):
    frs = _simple_fwd_frames("sigterm")
    r = lsk.run_fwd(ctx.binary, ctx.workdir("sigterm"), MAIN_CONF, {0: frs},
                    idle_exit=120000, sigterm_after=5, timeout=30)
    cs = Case("sigterm", "main", lambda n: [fwd(f, 1, B_MAC) for f in frs])
    cs.materialize()
    return check_run(r, [cs], 2)


@special("stages_counters")
def _stages(ctx):
    frs = [frame(tag="stages#%d" % i, ident=i, sport=5000 + i % 8)
           for i in range(300)]
    cs = Case("stages", "main", lambda n: [fwd(f, 1, B_MAC) for f in frs])
    cs.materialize()
    runs = parallel([lambda m=m: lsk.run_fwd(
        ctx.binary, ctx.workdir("stages-" + m), MAIN_CONF, {0: frs}, mode=m)
        for m in ("list", "single")])
    reasons = []
    for mode, r in zip(("list", "single"), runs):
        rs = check_run(r, [cs], 2)
        if rs:
            reasons += ["%s: %s" % (mode, x) for x in rs]
            continue
        st = {s["name"]: s for s in r.stats["stages"]}
        # list mode's fast path (fwd_fast) stands for these four stages
        # for the packets it takes; single mode never takes it
        fast = st.get("fwd_fast", {})
        if mode == "single" and fast.get("packets") != 0:
            reasons.append("single: fwd_fast packets %s, expected 0" %
                           fast.get("packets"))
        for nm in ("eth_input", "ip4_input", "ip4_route", "ip4_forward"):
            got = st.get(nm, {}).get("packets", 0) + fast.get("packets", 0)
            if got != 300:
                reasons.append("%s: %s packets %s (and fwd_fast's %s), "
                               "expected 300" % (
                                   mode, nm, st.get(nm, {}).get("packets"),
                                   fast.get("packets")))
        for s in st.values():
            if s["packets"] and s["cycles"] <= 0:
                reasons.append("%s: %s cycles %s" % (mode, s["name"],
                                                    s["cycles"]))
        if mode == "single":
            for s in st.values():
                if s["name"] != "tx" and s["calls"] != s["packets"]:
                    reasons.append("single: %s calls %d != packets %d" % (
                        s["name"], s["calls"], s["packets"]))
        else:
            first = [st.get(nm, {}) for nm in ("fwd_fast", "eth_input")]
            calls = sum(x.get("calls", 0) for x in first)
            if calls * 4 > 300:
                reasons.append("list: fwd_fast and eth_input %s calls for "
                               "300 packets (no batching?)" % calls)
            if fast.get("packets", 0) < 150:
                reasons.append("list: fwd_fast took %s of 300" %
                               fast.get("packets"))
    return _dedupe(reasons)


# ---------------------------------------------------------------- bad config

BAD_HEAD = (
    "# bad config test\n"                                  # 1
    "\n"                                                   # 2
    "port 0 mtu 1500 mac 02:00:00:00:00:fe\n"              # 3
    "port 1 mtu 1500 mac 02:00:00:00:01:fe\n"              # 4
    "address add 10.0.0.254/24 port 0\n"                   # 5
    "address add 10.0.1.254/24 port 1\n"                   # 6
    "neigh add 10.0.1.1 lladdr 02:00:00:00:01:01\n"        # 7
)
BAD_LINE_NO = 8
BAD_TAIL = "route add 10.9.0.0/16 via 10.0.1.1\n"


def bad_config(name, line, must_contain=None, conf_name="bad.conf",
               line_no=BAD_LINE_NO):
    def real(ctx):
        wd = ctx.workdir(name)
        os.makedirs(os.path.join(wd, "conf"), exist_ok=True)
        cname = conf_name
        if conf_name.startswith("/"):
            cname = os.path.join(wd, conf_name.lstrip("/"))
        with open(os.path.join(wd, cname), "w") as f:
            f.write(BAD_HEAD + line + "\n" + BAD_TAIL)
        r = lsk.run_fwd(ctx.binary, wd, None, {0: _simple_fwd_frames(name)},
                        conf_name=cname, timeout=30)
        return _check_bad(r, "%s:%d:" % (cname, line_no), must_contain)

    CASES.append(Special(name, real))


def _check_bad(r, prefix, must_contain):
    reasons = []
    if r.timed_out:
        return ["timed out"]
    if r.rc != 2:
        reasons.append("exit status %s, expected 2" % r.rc)
    if prefix not in r.stderr:
        reasons.append("stderr lacks %r (stderr: %s)" % (prefix,
                                                         r.stderr_tail()))
    if must_contain and must_contain not in r.stderr:
        reasons.append("stderr lacks %r" % must_contain)
    for p, out in r.outputs.items():
        if out:
            reasons.append("port %d sent %d frames" % (p, len(out)))
    return reasons


bad_config("badconf_unknown_command", "frobnicate the router")
bad_config("badconf_unknown_subcommand", "route frob 10.9.0.0/16 via 10.0.1.1")
bad_config("badconf_bad_address", "address add 10.0.0.256/24 port 0")
bad_config("badconf_bad_address_text", "address add ten.0.0.1/24 port 0")
bad_config("badconf_address_prefix_33", "address add 10.0.2.254/33 port 0")
bad_config("badconf_route_prefix_33", "route add 10.9.0.0/33 via 10.0.1.1")
bad_config("badconf_route_prefix_text", "route add 10.9.0.0/x via 10.0.1.1")
bad_config("badconf_address_port_out_of_range",
           "address add 10.0.2.254/24 port 2")
bad_config("badconf_port_cmd_out_of_range",
           "port 5 mtu 1500 mac 02:00:00:00:05:fe")
bad_config("badconf_port_huge", "address add 10.0.2.254/24 port 99999")
bad_config("badconf_gateway_not_connected",
           "route add 10.9.0.0/16 via 10.5.5.5")
bad_config("badconf_neigh_not_connected",
           "neigh add 10.5.5.5 lladdr 02:00:00:00:05:05")
bad_config("badconf_bad_mac_short", "port 0 mtu 1500 mac 02:00:00:00:00")
bad_config("badconf_bad_mac_hex", "neigh add 10.0.1.2 lladdr 02:00:00:00:01:zz")
bad_config("badconf_missing_args", "address add 10.0.2.254/24")
bad_config("badconf_route_missing_via", "route add 10.9.0.0/16")
bad_config("badconf_route_del_unknown", "route del 10.77.0.0/16")
bad_config("badconf_path_as_given", "frobnicate", conf_name="conf/bad.conf")
bad_config("badconf_absolute_path", "frobnicate", conf_name="/abs.conf")


def later_feature(name, line):
    """A command of the config grammar (README.md "Configuration") that the brief listed as answering
    'FILE:LINE: not supported yet'. Either that (exit 2, nothing sent), or
    the command is implemented: exit 0 and the frames (which it does not
    concern) forwarded as usual. Anything else fails."""
    def fn(ctx):
        wd = ctx.workdir(name)
        os.makedirs(wd, exist_ok=True)
        with open(os.path.join(wd, "feat.conf"), "w") as f:
            f.write(BAD_HEAD + line + "\n" + BAD_TAIL)
        frs = _simple_fwd_frames(name)
        r = lsk.run_fwd(ctx.binary, wd, None, {0: frs},
                        conf_name="feat.conf", timeout=30)
        if r.rc == 2:
            return _check_bad(r, "feat.conf:%d:" % BAD_LINE_NO,
                              "not supported yet")
        cs = Case(name, "main", lambda n: [fwd(f, 1, B_MAC) for f in frs])
        cs.materialize()
        return ["accepted, but: " + x for x in check_run(r, [cs], 2)]
    CASES.append(Special(name, fn))


later_feature("conf_udp_listen_accepted_or_not_yet",
              "udp listen 10.0.0.254:7 echo")
later_feature("conf_gro_accepted_or_not_yet", "gro fraglist flows 64 segs 64")
later_feature("conf_route_cache_accepted_or_not_yet",
              "route-cache on entries 4096")
later_feature("conf_filter_accepted_or_not_yet",
              "filter add drop proto udp dst 10.0.0.0/24 dport 53")


@special("badconf_missing_file")
def _missing_file(ctx):
    wd = ctx.workdir("missing-file")
    r = lsk.run_fwd(ctx.binary, wd, None, {0: _simple_fwd_frames("mf")},
                    conf_name="does-not-exist.conf", timeout=30)
    reasons = []
    if r.rc != 2:
        reasons.append("exit status %s, expected 2" % r.rc)
    if "does-not-exist.conf" not in r.stderr:
        reasons.append("stderr does not name the file (stderr: %s)"
                       % r.stderr_tail())
    for p, out in r.outputs.items():
        if out:
            reasons.append("port %d sent %d frames" % (p, len(out)))
    return reasons


def bad_option(name, app_args):
    def fn(ctx):
        wd = ctx.workdir(name)
        r = lsk.run_fwd(ctx.binary, wd, MAIN_CONF,
                        {0: _simple_fwd_frames(name)}, app_args=app_args,
                        timeout=30)
        reasons = []
        if r.timed_out:
            return ["timed out"]
        if r.rc != 2:
            reasons.append("exit status %s, expected 2 (stderr: %s)" % (
                r.rc, r.stderr_tail()))
        if not r.stderr.strip():
            reasons.append("nothing on stderr")
        for p, out in r.outputs.items():
            if out:
                reasons.append("port %d sent %d frames" % (p, len(out)))
        return reasons
    CASES.append(Special(name, fn))


bad_option("badopt_mode_foo", ["--config", "test.conf", "--mode", "foo",
                               "--idle-exit", "300"])
bad_option("badopt_missing_config", ["--mode", "list", "--idle-exit", "300"])
bad_option("badopt_config_without_value", ["--idle-exit", "300", "--config"])
bad_option("badopt_unknown_option", ["--config", "test.conf", "--frobnicate",
                                     "--idle-exit", "300"])
bad_option("badopt_idle_exit_not_a_number", ["--config", "test.conf",
                                             "--idle-exit", "soon"])


# Command line, config file and start-up cases (issue 10): their own file.
import control_cases  # noqa: E402
control_cases.register(sys.modules[__name__])


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


if __name__ == "__main__":
    sys.exit(main())
