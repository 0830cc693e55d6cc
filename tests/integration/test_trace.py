#!/usr/bin/python3
"""Packet trace driven by listack-ctl on a running listack-fwd.

    /usr/bin/python3 tests/integration/test_trace.py build/listack-fwd build/listack-ctl [-v]

listack-fwd (a worker lcore) replays frames on net_pcap port 0
(infinite_rx): frames forwarded to port 1, a frame with a bad header
checksum (dropped: ip.InCsumErrors) and one with TTL 1 (dropped:
ip.InHdrErrors after its ICMP error). `trace add 5` traces the next five
packets; `trace show -j` (JSON) gives each its stages in order, ending in
`tx` or in `drop` with the counter's name; `trace add 3 match dst ...`
takes only the TTL 1 frames; `trace clear` forgets; after SIGTERM exit 0
with mbufs_in_use == 0.

A second run replays the drops outside the stages' tables: an ARP
request with a hardware address length of 5 (arp.InErrors), datagrams to
a neighbour that never answers (held, then dropped: the oldest past the
hold queue, the rest when the entry fails, arp.UnresolvedDiscards; the
neigh record says held, or dropped as the entry failed), and
8 datagrams in a row to a `udp listen ... ring 2` service, more than a
burst leaves room for (udp.RcvbufErrors): each is traced to a drop
record naming its counter, and that counter moved.

A third run (root: veth pairs, both ports net_pcap on them, two workers)
hands a held packet over: a datagram traced on worker 0 waits for ARP
(its neigh record says held), the test's answer comes in on port 1 to
worker 1, which sends it (the trace ends in tx); the next one to that
neighbour is sent at once (its neigh record says resolved); another waits until `neigh flush` drops it on the
control thread (the trace ends in drop arp.UnresolvedDiscards, and a
drop capture holds it). Skipped (said so) without root.

Output: `PASS name` / `FAIL name: reason`, then `N passed, N failed`.
"""

import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsk  # noqa: E402
from lsk import Ctl, Fwd, check  # noqa: E402

WAIT = 20
FWD = ["rx", "eth_input", "ip4_input", "ip4_route", "ip4_forward", "tx"]
CSUM = ["rx", "eth_input", "ip4_input", "drop"]
TTL1 = ["rx", "eth_input", "ip4_input", "ip4_route", "ip4_forward", "icmp",
        "drop"]


def wait_trace(ctl, n):
    """The JSON of `trace show` once n packets have ended (or the last;
    None when there was none)."""
    return show_until(ctl, lambda i: len(i["packets"]) >= n) or None


def stages(p):
    return [r["stage"] for r in p["records"]]


def run(fwd_bin, ctl_bin, root):
    good = [lsk.frame(dst="10.9.%d.1" % i, tag="tr%d" % i) for i in range(4)]
    bad = bytearray(lsk.frame(dst="10.9.7.1", tag="badcsum"))
    bad[14 + 10] ^= 0x5a
    ttl1 = lsk.frame(dst="10.9.8.1", tag="ttl1", ttl=1)
    frames = good + [bytes(bad), ttl1]

    sock = os.path.join(root, "fwd", "s.sock")
    fwd = Fwd(fwd_bin, os.path.join(root, "fwd"), sock, lcores="0,1",
              inputs={0: frames}, infinite=True)
    ctl = Ctl(ctl_bin, sock)
    if not fwd.wait_ready():
        check("trace_add", "listack-fwd did not start: %s"
              % fwd.stderr()[-300:])
        fwd.stop()
        return
    r = ctl.run("trace", "add", "5")
    check("trace_add", "" if r.returncode == 0 else
          "exit %d: %s" % (r.returncode, r.stderr.strip()))
    info = wait_trace(ctl, 5)
    reasons = []
    if info is None:
        reasons.append("no trace")
    else:
        if info["armed"] != 5 or info["claimed"] != 5:
            reasons.append("armed %r claimed %r" % (info["armed"],
                                                    info["claimed"]))
        if len(info["packets"]) != 5:
            reasons.append("%d packets ended" % len(info["packets"]))
        for i, p in enumerate(info["packets"]):
            st, last = stages(p), p["records"][-1]["text"]
            route = [r["text"] for r in p["records"]
                     if r["stage"] == "ip4_route"]
            if st == FWD and not route[0].startswith(
                    "10.9.0.0/16 via 10.0.1.1 port 1 mtu 1500, next hop "):
                reasons.append("packet %d: route %r" % (i, route))
            ok = (st == FWD and last.startswith("port 1 queue ")) or \
                 (st == CSUM and last == "ip.InCsumErrors") or \
                 (st == TTL1 and last == "ip.InHdrErrors")
            if not ok:
                reasons.append("packet %d: %r ending %r" % (i, st, last))
    check("trace_show_json", reasons)
    r = ctl.run("trace", "show")
    check("trace_show_text", "" if r.returncode == 0 and
          "trace  5 armed, 5 claimed, 5 ended" in r.stdout and
          "packet 5  worker 0  port 0" in r.stdout else
          "exit %d: %r" % (r.returncode, r.stdout[:300]))
    if "-v" in sys.argv:
        print(r.stdout)

    r = ctl.run("trace", "add", "3", "match", "dst", "10.9.8.1")
    info = wait_trace(ctl, 3)
    reasons = []
    if r.returncode != 0 or info is None:
        reasons.append("exit %d: %s" % (r.returncode, r.stderr.strip()))
    else:
        if len(info["packets"]) != 3:
            reasons.append("%d packets ended" % len(info["packets"]))
        for i, p in enumerate(info["packets"]):
            if stages(p) != TTL1 or \
                    p["records"][-1]["text"] != "ip.InHdrErrors":
                reasons.append("packet %d: %r" % (i, stages(p)))
    check("trace_match", reasons)

    r = ctl.run("trace", "clear")
    r2 = ctl.run("trace", "show", json_out=True)
    check("trace_clear", "" if r.returncode == 0 and
          r2.stdout.strip() == "null" else
          "exit %d, show %r" % (r.returncode, r2.stdout[:100]))

    fwd.stop()
    check("trace_run_stops_clean", lsk.stop_reasons(fwd.rc, fwd.stats()))


def bad_arp():
    fr = bytearray(lsk.arp_request(0))
    fr[14 + 4] = 5          # hardware address length
    return bytes(fr)


def find_ended(ctl, pred, n):
    """Trace packets (JSON) for which pred holds, waiting for n."""
    got = []
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        r = ctl.run("trace", "show", json_out=True)
        if r.returncode == 0:
            info = json.loads(r.stdout)
            got = [p for p in (info or {}).get("packets", []) if pred(p)]
            if len(got) >= n:
                break
        time.sleep(0.2)
    return got


def ends_in(counter):
    return lambda p: p["records"] and p["records"][-1]["stage"] == "drop" \
        and p["records"][-1]["text"] == counter


def neigh_said_why(p):
    """A datagram for 10.0.1.77, never answered, says at the neighbour
    what happened to it: held (then pushed out or given up on), or
    dropped at once as the entry had failed."""
    r = p["records"]
    return len(r) >= 2 and r[-2]["stage"] == "neigh" and (
        r[-2]["text"].startswith("10.0.1.77 not resolved: held for ARP (")
        or r[-2]["text"] == "10.0.1.77 failed (ARP unanswered): dropped")


def start_drops(fwd_bin, ctl_bin, root, name):
    """listack-fwd replaying on port 0 the drops outside the stages'
    tables, with a `udp listen 10.0.0.254:7000 discard ring 2`: a bad ARP
    request, 4 datagrams to a neighbour that never answers, 8 to the
    ring. (fwd, ctl, (arp, hold, full)), or None (checked as name)."""
    arp = bad_arp()
    hold = [lsk.frame(dst="10.0.1.77", tag="hold%d" % i, ident=i + 1)
            for i in range(4)]
    full = [lsk.frame(dst="10.0.0.254", dport=7000, sport=5000 + i,
                      tag="full%d" % i) for i in range(8)]
    sock = os.path.join(root, "drops", "s.sock")
    fwd = Fwd(fwd_bin, os.path.join(root, "drops"), sock, lcores="0,1",
              inputs={0: [arp] + hold + full}, infinite=True)
    ctl = Ctl(ctl_bin, sock)
    if not fwd.wait_ready():
        check(name, "listack-fwd did not start: %s" % fwd.stderr()[-300:])
        fwd.stop()
        return None
    r = ctl.run("udp", "listen", "10.0.0.254:7000", "discard", "ring", "2")
    check(name, "" if r.returncode == 0 else
          "udp listen: exit %d: %s" % (r.returncode, r.stderr.strip()))
    return fwd, ctl, (arp, hold, full)


def run_drops(fwd_bin, ctl_bin, root):
    started = start_drops(fwd_bin, ctl_bin, root, "drops_fwd_starts")
    if started is None:
        return
    fwd, ctl, _ = started
    cases = [
        ("trace_drop_arp_errors", ["add", "64"], "arp.InErrors",
         ["rx", "eth_input", "arp_input", "drop"], "arp", "InErrors"),
        ("trace_drop_hold_queue", ["add", "8", "match", "dst", "10.0.1.77"],
         "arp.UnresolvedDiscards", None, "arp", "UnresolvedDiscards"),
        ("trace_drop_rcvbuf", ["add", "16", "match", "dport", "7000"],
         "udp.RcvbufErrors",
         ["rx", "eth_input", "ip4_input", "ip4_route", "udp4_input", "drop"],
         "udp", "RcvbufErrors"),
    ]
    for name, args, counter, want, sec, field in cases:
        reasons = []
        r = ctl.run("trace", *args)
        if r.returncode != 0:
            reasons.append("trace %s: %s" % (" ".join(args), r.stderr))
        got = find_ended(ctl, ends_in(counter), 1)
        if not got:
            reasons.append("no traced packet ended in %s" % counter)
        for p in got:
            st = stages(p)
            if want is not None and st != want:
                reasons.append("%r" % st)
            if want is None and st[:5] != ["rx", "eth_input", "ip4_input",
                                           "ip4_route", "ip4_forward"]:
                reasons.append("%r" % st)
            if want is None and not neigh_said_why(p):
                reasons.append("neigh record %r" % p["records"][-2:])
        r = ctl.run("show", "stats", json_out=True)
        if r.returncode != 0 or \
                not json.loads(r.stdout).get(sec, {}).get(field):
            reasons.append("%s.%s did not move" % (sec, field))
        check(name, reasons)
    fwd.stop()
    check("drops_run_stops_clean", lsk.stop_reasons(fwd.rc, fwd.stats()))


C_MAC = "02:00:00:00:01:77"     # 10.0.1.77, answered by the test


def veth_pairs(names):
    """Make the veth pairs (ours, the test's) in names, up, IPv6 off (no
    stray frames). False when they cannot be made (not root)."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        return False
    for a, b in names:
        r = subprocess.run(["ip", "link", "add", a, "type", "veth", "peer",
                            "name", b], capture_output=True)
        if r.returncode != 0:
            return False
        for i in (a, b):
            try:
                with open("/proc/sys/net/ipv6/conf/%s/disable_ipv6" % i,
                          "w") as f:
                    f.write("1")
            except OSError:
                pass        # then stray frames are dropped, not traced
            subprocess.run(["ip", "link", "set", i, "up"],
                           capture_output=True)
    return True


def veth_del(names):
    for a, _ in names:
        subprocess.run(["ip", "link", "del", a], capture_output=True)


def send_and_see(iface_out, frame, iface_in, pred):
    """Send frame on iface_out; True once a frame for which pred holds
    (of bytes) shows on iface_in."""
    import threading
    from scapy.all import AsyncSniffer, Ether, sendp
    listening = threading.Event()
    sn = AsyncSniffer(iface=iface_in, lfilter=lambda p: pred(bytes(p)),
                      count=1, timeout=WAIT, started_callback=listening.set)
    sn.start()
    listening.wait(WAIT)
    sendp(Ether(frame), iface=iface_out, verbose=False)
    sn.join()
    return len(sn.results) == 1


def is_arp_request_for(ip):
    import socket as so
    want = so.inet_aton(ip)
    return lambda d: len(d) >= 42 and d[12:14] == b"\x08\x06" and \
        d[20:22] == b"\x00\x01" and d[38:42] == want


def show_until(ctl, pred):
    """`trace show -j` once pred holds of it (or the last one)."""
    info = None
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        r = ctl.run("trace", "show", json_out=True)
        if r.returncode == 0:
            info = json.loads(r.stdout)
            if info is not None and pred(info):
                break
        time.sleep(0.2)
    return info or {}


def run_handoff(fwd_bin, ctl_bin, root):
    """Both ports net_pcap on veths (root only), two workers: port 0's
    queue is worker 0's, port 1's worker 1's. A traced datagram for
    10.0.1.77 waits for ARP on worker 0; the test's ARP answer comes in
    on port 1, to worker 1, which sends it: its trace ends in tx, none
    stays in flight. Another waits for 10.0.1.78, and `neigh flush`
    drops it on the control thread: its trace ends in drop
    arp.UnresolvedDiscards, and a drop capture holds it, named."""
    from test_capture import read_pcapng
    tag = "lt%d" % (os.getpid() % 100000)
    names = [(tag + "p0a", tag + "p0b"), (tag + "p1a", tag + "p1b")]
    if not veth_pairs(names):
        veth_del(names)
        print("SKIP trace_handoff: needs root and ip(8) for veth pairs")
        return
    try:
        run_handoff_on(fwd_bin, ctl_bin, root, names, read_pcapng)
    finally:
        veth_del(names)


def run_handoff_on(fwd_bin, ctl_bin, root, names, read_pcapng):
    work = os.path.join(root, "handoff")
    sock = os.path.join(work, "s.sock")
    vdevs = dict((p, "net_pcap%d,rx_iface_in=%s,tx_iface=%s"
                  % (p, names[p][0], names[p][0])) for p in range(2))
    lcores = "0,1,2" if (os.cpu_count() or 1) >= 3 else "0@0,1@1,2@1"
    fwd = Fwd(fwd_bin, work, sock, lcores=lcores, vdevs=vdevs)
    ctl = Ctl(ctl_bin, sock)
    if not fwd.wait_ready():
        check("trace_handoff_worker", "listack-fwd did not start: %s"
              % fwd.stderr()[-300:])
        fwd.stop()
        return
    p0, p1 = names[0][1], names[1][1]

    # held on worker 0, sent by worker 1
    reasons = []
    ctl.run("trace", "add", "1", "match", "dst", "10.0.1.77")
    held = lsk.frame(dst="10.0.1.77", tag="handoff")
    if not send_and_see(p0, held, p1, is_arp_request_for("10.0.1.77")):
        reasons.append("no ARP request for 10.0.1.77 on port 1")
    info = show_until(ctl, lambda i: i["in_flight"] == 1)
    if info.get("in_flight") != 1 or info.get("packets"):
        reasons.append("before the answer: %r" % info)
    answer = lsk.arp_frame(2, 1, "10.0.1.77", "10.0.1.254", C_MAC,
                           lsk.P1_MAC, lsk.P1_MAC)
    fwd_seen = send_and_see(p1, answer, p1, lambda d: len(d) > 34 and
                            d[12:14] == b"\x08\x00" and b"handoff" in d)
    if not fwd_seen:
        reasons.append("the held datagram did not leave on port 1")
    info = show_until(ctl, lambda i: len(i["packets"]) == 1 and
                      i["in_flight"] == 0)
    pk = info.get("packets", [])
    if len(pk) != 1 or info.get("in_flight") != 0:
        reasons.append("after the answer: %r" % info)
    elif stages(pk[0]) != FWD[:-1] + ["neigh", "tx"] or \
            not pk[0]["records"][-1]["text"].startswith("port 1 queue ") \
            or pk[0]["records"][-2]["text"] != \
            "10.0.1.77 not resolved: held for ARP (1 waiting)" \
            or pk[0]["worker"] != 0:
        reasons.append("trace %r" % pk[0])
    check("trace_handoff_worker", reasons)

    # now resolved (the forwarding table keeps no learnt MAC): sent
    reasons = []
    ctl.run("trace", "add", "1", "match", "dst", "10.0.1.77")
    again = lsk.frame(dst="10.0.1.77", tag="resolved")
    if not send_and_see(p0, again, p1, lambda d: len(d) > 34 and
                        d[12:14] == b"\x08\x00" and b"resolved" in d):
        reasons.append("the datagram to a resolved neighbour did not leave")
    info = show_until(ctl, lambda i: len(i["packets"]) == 1 and
                      i["in_flight"] == 0)
    pk = info.get("packets", [])
    if len(pk) != 1:
        reasons.append("trace %r" % info)
    elif stages(pk[0]) != FWD[:-1] + ["neigh", "tx"] or \
            pk[0]["records"][-2]["text"] != \
            "10.0.1.77 resolved, at %s (reachable): sent" % C_MAC.upper():
        reasons.append("trace %r" % pk[0])
    check("trace_neigh_resolved_sent", reasons)

    # held, then dropped by the control thread
    reasons = []
    pcapng = os.path.join(work, "flush.pcapng")
    ctl.run("capture", "start", pcapng, "drop")
    ctl.run("trace", "add", "1", "match", "dst", "10.0.1.78")
    held = lsk.frame(dst="10.0.1.78", tag="flushed")
    if not send_and_see(p0, held, p1, is_arp_request_for("10.0.1.78")):
        reasons.append("no ARP request for 10.0.1.78 on port 1")
    info = show_until(ctl, lambda i: i["in_flight"] == 1)
    if info.get("in_flight") != 1:
        reasons.append("before the flush: %r" % info)
    r = ctl.run("neigh", "flush")
    if r.returncode != 0:
        reasons.append("neigh flush: %s" % r.stderr.strip())
    info = show_until(ctl, lambda i: len(i["packets"]) == 1)
    pk = info.get("packets", [])
    if len(pk) != 1 or info.get("in_flight") != 0:
        reasons.append("after the flush: %r" % info)
    elif stages(pk[0]) != FWD[:-1] + ["neigh", "drop"] or \
            pk[0]["records"][-1]["text"] != "arp.UnresolvedDiscards":
        reasons.append("trace %r" % pk[0])
    ctl.run("capture", "stop")
    try:
        _, pkts = read_pcapng(pcapng)
    except (ValueError, OSError) as e:
        pkts = []
        reasons.append(str(e))
    # the flushed datagram, inbound, named (other drops: stray frames)
    flushed = [(p["comment"], p["flags"], p["ifid"]) for p in pkts
               if b"flushed" in p["data"]]
    if flushed != [("arp.UnresolvedDiscards", 1, 0)]:
        reasons.append("capture: %r" % flushed)
    check("trace_handoff_control", reasons)
    fwd.stop()
    check("trace_handoff_stops_clean", lsk.stop_reasons(fwd.rc, fwd.stats()))


def main():
    args = lsk.ctl_args(__doc__).parse_args()
    return lsk.run_in_workdir(args, "lsk-trace-",
                              [run, run_drops, run_handoff])


if __name__ == "__main__":
    sys.exit(main())
