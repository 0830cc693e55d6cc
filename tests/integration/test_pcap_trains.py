#!/usr/bin/python3
"""pcap integration tests of listack-fwd: trains (GRO and GSO on the wire)
and the large mixed runs.

    /usr/bin/python3 tests/integration/test_pcap_trains.py build/listack-fwd [-k SUBSTR] [--keep] [-v]

What every case checks and how (both modes, byte for byte, the
counters, no mbuf left): pcap_harness.py.
"""

import collections
import os
import random
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lsk  # noqa: E402
from lsk import (A_MAC, BCAST_MAC, B_MAC, frame, patch_ip, with_options)  # noqa: E402
import pcap_harness as rt  # noqa: E402
from pcap_harness import (CASES, FRAG_NEEDED, LSRR, MAIN_CONF, NET_UNREACH,  # noqa: E402
                          NOPS, TIME_EXCEEDED, case, fwd, fwd_frag, group,
                          ipdrop, l2drop, local, unresolved)
from scapy.layers.l2 import Ether  # noqa: E402
from scapy.packet import Raw  # noqa: E402


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


if __name__ == "__main__":
    sys.exit(rt.main())
