#!/usr/bin/python3
"""ECMP through listack-fwd on pcap ports: many UDP flows to a route of
two paths (one out of each port) are split over both output pcaps, each
flow's datagrams (and each fragmented datagram's fragments) all on one
port, none lost, weights 1:3 honoured roughly, in --mode list and single
alike, and listack-fwd stops with mbufs_in_use 0.

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


def run_case(fwd_bin, root, name, weights, share_range):
    conf = fixture_conf(extra="route add 30.0.0.0/8 via 10.0.0.1 weight %d "
                        "via 10.0.1.1 weight %d\n" % weights)
    fl = flows(len(name))
    inputs = {0: flow_frames(fl) + fragment_frames(len(name))}
    per_mode = {}
    for mode in ("list", "single"):
        res = run_fwd(fwd_bin, os.path.join(root, name + "-" + mode), conf,
                      inputs, mode=mode)
        by_flow, by_dgram = where(res)
        split = [k for k, ports in by_flow.items() if len(ports) != 1]
        frag_split = [k for k, ports in by_dgram.items() if len(ports) != 1]
        on_b = sum(1 for ports in by_flow.values() if ports == {1})
        n_out = sum(len(res.outputs.get(p) or []) for p in (0, 1))
        lo, hi = share_range
        macs = set()
        for port, nh in ((0, A_MAC), (1, B_MAC)):
            for b in res.outputs.get(port) or []:
                if lsk.flow_key(b) is not None and b[:6] != \
                        lsk.mac_bytes(nh):
                    macs.add(port)
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fwd")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    root = tempfile.mkdtemp(prefix="lsk-ecmp-")
    fwd_bin = os.path.abspath(args.fwd)
    try:
        # equal weights: about half each (400 flows: 5 sigma is 50)
        run_case(fwd_bin, root, "ecmp_equal", (1, 1), (150, 250))
        # 1:3: about 300 on port 1
        run_case(fwd_bin, root, "ecmp_weighted", (1, 3), (260, 340))
    finally:
        status = lsk.finish(root, keep=args.v)
    return status


if __name__ == "__main__":
    sys.exit(main())
