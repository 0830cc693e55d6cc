#!/usr/bin/python3
"""ECMP through listack-fwd on pcap ports: many UDP flows to a route of
two paths (one out of each port) are split over both output pcaps, each
flow's datagrams (and each fragmented datagram's fragments) all on one
port, none lost, weights 1:3 honoured roughly, in --mode list and single
alike, and listack-fwd stops with mbufs_in_use 0. The same for IPv6
(an IPv6 route of two paths; fragments by their fragment header).

    /usr/bin/python3 tests/integration/test_ecmp.py build/listack-fwd [-v]
"""

import argparse
import collections
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lsk  # noqa: E402
from lsk import A_MAC, B_MAC, check, fixture_conf, frame, run_fwd  # noqa: E402

FLOWS = 400
PER_FLOW = 3
DATAGRAMS = 60      # fragmented, three fragments each


def flows(seed):
    rnd = random.Random(seed)
    return [("172.16.%d.%d" % (rnd.randrange(256), rnd.randrange(1, 255)),
             "30.%d.%d.%d" % (rnd.randrange(200), rnd.randrange(256),
                              rnd.randrange(1, 255)),
             rnd.randrange(1024, 65535), rnd.randrange(1, 65535))
            for _ in range(FLOWS)]


def flow_frames(fl):
    """PER_FLOW datagrams of every flow, the flows interleaved."""
    out = []
    for k in range(PER_FLOW):
        for i, (src, dst, sport, dport) in enumerate(fl):
            out.append(frame(dst=dst, src=src, sport=sport, dport=dport,
                             ident=i, tag="f%d.%d" % (i, k), plen=40))
    return out


def fragment_frames(seed):
    """DATAGRAMS datagrams in three fragments each (the later ones carry
    no UDP header: only addresses and protocol may choose their path)."""
    rnd = random.Random(seed)
    out = []
    for d in range(DATAGRAMS):
        src = "172.17.%d.%d" % (rnd.randrange(256), rnd.randrange(1, 255))
        dst = "30.200.%d.%d" % (rnd.randrange(256), rnd.randrange(1, 255))
        whole = frame(dst=dst, src=src, sport=rnd.randrange(1024, 65535),
                      dport=53, ident=1000 + d, df=False, plen=400,
                      tag="d%d" % d)
        ip = lsk.l3_of(whole)
        for off, mf, data in ((0, True, ip[20:160]),
                              (140 // 8, True, ip[160:296]),
                              (296 // 8, False, ip[296:])):
            out.append(frame(dst=dst, src=src, ident=1000 + d, df=False,
                             mf=mf, frag=off, proto=17, payload=data))
    return out


def where(res):
    """port -> frames, per flow key the ports it left by."""
    by_flow = collections.defaultdict(set)
    by_dgram = collections.defaultdict(set)
    for port in (0, 1):
        for b in res.outputs.get(port) or []:
            k = lsk.flow_key(b)
            if k is None or k[1][0] != 30:
                continue
            if k[1][1] == 200:      # a fragment: its datagram's ID
                off = lsk.l2_offset(b)
                by_dgram[(k[0], k[1], b[off + 4:off + 6])].add(port)
            else:
                by_flow[k].add(port)
    return by_flow, by_dgram


def where4(res):
    """where()'s, the frames whose next hop MAC is not their port's peer,
    and how many frames left."""
    by_flow, by_dgram = where(res)
    n_out = sum(len(res.outputs.get(p) or []) for p in (0, 1))
    macs = set()
    for port, nh in ((0, A_MAC), (1, B_MAC)):
        for b in res.outputs.get(port) or []:
            if lsk.flow_key(b) is not None and b[:6] != lsk.mac_bytes(nh):
                macs.add(port)
    return by_flow, by_dgram, macs, n_out


def case4(name, weights):
    conf = fixture_conf(extra="route add 30.0.0.0/8 via 10.0.0.1 weight %d "
                        "via 10.0.1.1 weight %d\n" % weights)
    return conf, {0: flow_frames(flows(len(name))) +
                  fragment_frames(len(name))}, where4


def run_case(fwd_bin, root, name, case, share_range):
    """case: (config, inputs, where); where(res) -> per flow and per
    fragmented datagram the ports, the ports of wrong MACs, frames out."""
    conf, inputs, where_fn = case
    per_mode = {}
    for mode in ("list", "single"):
        res = run_fwd(fwd_bin, os.path.join(root, name + "-" + mode), conf,
                      inputs, mode=mode)
        by_flow, by_dgram, macs, n_out = where_fn(res)
        split = [k for k, ports in by_flow.items() if len(ports) != 1]
        frag_split = [k for k, ports in by_dgram.items() if len(ports) != 1]
        on_b = sum(1 for ports in by_flow.values() if ports == {1})
        lo, hi = share_range
        check("%s_%s" % (name, mode), [
            "exit %r: %s" % (res.rc, res.stderr_tail())
            if res.rc != 0 else "",
            res.stats_error or "",
            "mbufs_in_use %r" % res.stats.get("mbufs_in_use")
            if res.stats and res.stats.get("mbufs_in_use") != 0 else "",
            "%d flows, expected %d" % (len(by_flow), FLOWS)
            if len(by_flow) != FLOWS else "",
            "%d flows left by both ports" % len(split) if split else "",
            "%d datagrams' fragments split" % len(frag_split)
            if frag_split else "",
            "%d datagrams' fragments seen" % len(by_dgram)
            if len(by_dgram) != DATAGRAMS else "",
            "%d datagrams all on one port" % len(by_dgram)
            if len(set(tuple(p) for p in by_dgram.values())) < 2 else "",
            "%d frames out, %d in" % (n_out, len(inputs[0]))
            if n_out != len(inputs[0]) else "",
            "%d of %d flows on port 1, expected %d..%d" % (on_b, FLOWS,
                                                           lo, hi)
            if not lo <= on_b <= hi else "",
            "wrong next hop MAC on port %s" % sorted(macs) if macs else ""])
        per_mode[mode] = {k: tuple(v) for k, v in by_flow.items()}
    check(name + "_modes_agree",
          "list and single put flows on other ports"
          if per_mode["list"] != per_mode["single"] else "")


# IPv6: our addresses and the peers A (port 0) and B (port 1)
A6, B6 = "2001:db8:a::1", "2001:db8:b::1"
CONF6 = ("address add 2001:db8:a::fe/64 port 0\n"
         "address add 2001:db8:b::fe/64 port 1\n"
         "neigh add %s lladdr %s\n"
         "neigh add %s lladdr %s\n" % (A6, A_MAC, B6, B_MAC))


def frames6(seed):
    """PER_FLOW datagrams of FLOWS IPv6 UDP flows to 2001:db8:30::/48,
    interleaved, then DATAGRAMS datagrams in three fragments each."""
    from scapy.layers.inet import UDP
    from scapy.layers.inet6 import IPv6, IPv6ExtHdrFragment
    from scapy.layers.l2 import Ether
    from scapy.packet import Raw
    rnd = random.Random(seed)
    eth = Ether(dst=lsk.PORT_MAC[0], src=A_MAC)
    fl = [("2001:db8:5::%x" % rnd.randrange(1, 65535),
           "2001:db8:30:%x::%x" % (rnd.randrange(65535),
                                   rnd.randrange(1, 65535)),
           rnd.randrange(1024, 65535), rnd.randrange(1, 65535))
          for _ in range(FLOWS)]
    out = []
    for k in range(PER_FLOW):
        for i, (src, dst, sport, dport) in enumerate(fl):
            out.append(bytes(eth / IPv6(src=src, dst=dst) /
                             UDP(sport=sport, dport=dport) /
                             Raw(lsk.tag_payload("f%d.%d" % (i, k), 40))))
    for d in range(DATAGRAMS):
        src = "2001:db8:6::%x" % rnd.randrange(1, 65535)
        dst = "2001:db8:30:ffff::%x" % rnd.randrange(1, 65535)
        body = bytes(UDP(sport=rnd.randrange(1024, 65535), dport=53) /
                     Raw(lsk.tag_payload("d%d" % d, 400)))
        for off, more in ((0, 1), (144, 1), (288, 0)):
            piece = body[off:off + 144] if more else body[off:]
            out.append(bytes(eth / IPv6(src=src, dst=dst, nh=44) /
                             IPv6ExtHdrFragment(nh=17, offset=off // 8,
                                                m=more, id=5000 + d) /
                             Raw(piece)))
    return out


def where6(res):
    """per flow (or fragmented datagram) the ports it left by, and the
    frames whose next hop MAC is not their port's peer."""
    by_flow = collections.defaultdict(set)
    by_dgram = collections.defaultdict(set)
    bad_mac = set()
    seen = 0
    for port, nh in ((0, A_MAC), (1, B_MAC)):
        for b in res.outputs.get(port) or []:
            if len(b) < 62 or b[12:14] != b"\x86\xdd" or \
                    b[38:44] != bytes.fromhex("20010db80030"):
                continue
            seen += 1
            if b[:6] != lsk.mac_bytes(nh):
                bad_mac.add(port)
            if b[20] == 44:
                by_dgram[(b[22:54], b[58:62])].add(port)
            else:
                by_flow[(b[22:54], b[54:58])].add(port)
    return by_flow, by_dgram, bad_mac, seen


def case6(name, weights):
    conf = fixture_conf(extra=CONF6 + "route add 2001:db8:30::/48 via %s "
                        "weight %d via %s weight %d\n" %
                        (A6, weights[0], B6, weights[1]))
    return conf, {0: frames6(len(name))}, where6


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fwd")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    root = tempfile.mkdtemp(prefix="lsk-ecmp-")
    fwd_bin = os.path.abspath(args.fwd)
    try:
        # equal weights: about half each (400 flows: 5 sigma is 50)
        for name, weights, share in (("equal", (1, 1), (150, 250)),
                                     # 1:3: about 300 on port 1
                                     ("weighted", (1, 3), (260, 340))):
            run_case(fwd_bin, root, "ecmp_" + name,
                     case4("ecmp_" + name, weights), share)
            run_case(fwd_bin, root, "ecmp6_" + name,
                     case6("ecmp6_" + name, weights), share)
    finally:
        status = lsk.finish(root, keep=args.v)
    return status


if __name__ == "__main__":
    sys.exit(main())
