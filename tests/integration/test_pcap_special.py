#!/usr/bin/python3
"""pcap integration tests of listack-fwd: cases with runs of their own: the
UDP ring, the ICMP rate limit, ARP floods, the route cache, signals, stage
counters.

    /usr/bin/python3 tests/integration/test_pcap_special.py build/listack-fwd [-k SUBSTR] [--keep] [-v]

What every case checks and how (both modes, byte for byte, the
counters, no mbuf left): pcap_harness.py.
"""

import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lsk  # noqa: E402
from lsk import A_MAC, B_MAC, forwarded, frame  # noqa: E402
import pcap_harness as rt  # noqa: E402
from pcap_harness import (Case, MAIN_CONF, TIME_EXCEEDED, _dedupe,  # noqa: E402
                          _simple_fwd_frames, case, check_run, fwd, group,
                          ipdrop, parallel, special, udp_deliver)


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


if __name__ == "__main__":
    sys.exit(rt.main())
