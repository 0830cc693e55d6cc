#!/usr/bin/python3
"""In-process capture driven by listack-ctl, read back by tshark and tcpdump.

    /usr/bin/python3 tests/integration/test_capture.py build/listack-fwd build/listack-ctl [-v]

listack-fwd (a worker lcore) replays frames on net_pcap port 0
(infinite_rx): frames forwarded to port 1, frames with a bad header
checksum (dropped: ip.InCsumErrors) and frames with TTL 1 (dropped:
ip.InHdrErrors, an ICMP error back out of port 0). `capture start FILE all
count N` takes N packets; `capture show -j` says what was taken, written
and lost; `capture stop` closes the file. Then:
  - this script's own pcapng reader: every packet is one of the frames fed
    (inbound, no comment), one listack must send for them (outbound), or a
    dropped frame with its counter's name as the comment;
  - tshark reads every packet, their directions and the comments, and
    tcpdump reads every packet;
  - written + lost == N, and after SIGTERM exit 0 with mbufs_in_use == 0.
A second run replays the drops outside the stages' tables (test_trace.py
start_drops: a malformed ARP request, datagrams to a neighbour that
never answers, a full UDP ring): `capture start FILE drop` holds each
with its counter's name as the comment (arp.InErrors,
arp.UnresolvedDiscards, udp.RcvbufErrors), as tshark reads them too.
A third run makes port 1 a memif server with no peer, which refuses every
frame: an `all` capture holds each refused frame once, as a drop named
port1.tx_dropped (outbound on port 1), never also as a frame that left;
a `tx` capture holds none.

Output: `PASS name` / `FAIL name: reason`, then `N passed, N failed`.
"""

import json
import os
import shutil
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsk  # noqa: E402
from lsk import Ctl, Fwd, check  # noqa: E402
from test_trace import start_drops  # noqa: E402

COUNT = 300
WAIT = 20


def read_pcapng(path):
    """(interfaces, packets) of a pcapng file: interfaces as
    (linktype, snaplen, name), packets as dicts (ifid, flags, comment,
    data, origlen). Raises ValueError on a malformed file."""
    with open(path, "rb") as f:
        buf = f.read()
    if len(buf) < 28 or struct.unpack_from("<I", buf, 0)[0] != 0x0a0d0d0a:
        raise ValueError("no section header")
    if struct.unpack_from("<I", buf, 8)[0] != 0x1a2b3c4d:
        raise ValueError("not little-endian pcapng")
    ifs, pkts, off = [], [], 0

    def opts(start, end):
        out = {}
        while start + 4 <= end:
            code, ln = struct.unpack_from("<HH", buf, start)
            if code == 0:
                return out
            out[code] = buf[start + 4:start + 4 + ln]
            start += 4 + ((ln + 3) & ~3)
        if start != end:
            raise ValueError("options overrun their block")
        return out      # opt_endofopt may be left out at the block's end

    while off < len(buf):
        btype, blen = struct.unpack_from("<II", buf, off)
        if blen < 12 or blen % 4 or off + blen > len(buf):
            raise ValueError("bad block length %d at %d" % (blen, off))
        if struct.unpack_from("<I", buf, off + blen - 4)[0] != blen:
            raise ValueError("trailing length differs at %d" % off)
        if btype == 1:
            link, _, snap = struct.unpack_from("<HHI", buf, off + 8)
            o = opts(off + 16, off + blen - 4)
            ifs.append((link, snap, o.get(2, b"").decode()))
        elif btype == 6:
            ifid, _, _, cap, orig = struct.unpack_from("<IIIII", buf, off + 8)
            if ifid >= len(ifs):
                raise ValueError("packet for interface %d of %d"
                                 % (ifid, len(ifs)))
            data = buf[off + 28:off + 28 + cap]
            o = opts(off + 28 + ((cap + 3) & ~3), off + blen - 4)
            flags = struct.unpack("<I", o[2])[0] if 2 in o else None
            pkts.append({"ifid": ifid, "flags": flags, "data": data,
                         "origlen": orig,
                         "comment": o.get(1, b"").decode()})
        off += blen
    return ifs, pkts


def tshark_fields(path, fields):
    r = subprocess.run(["tshark", "-r", path, "-T", "fields", "-E",
                        "separator=|"] + sum([["-e", f] for f in fields], []),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=60)
    if r.returncode != 0:
        raise ValueError("tshark: %s" % r.stderr.strip()[-300:])
    return [line.split("|") for line in r.stdout.splitlines()]


def run(fwd_bin, ctl_bin, root):
    good = [lsk.frame(dst="10.9.%d.1" % i, tag="cap%d" % i, plen=40 + 30 * i)
            for i in range(6)]
    bad = bytearray(lsk.frame(dst="10.9.7.1", tag="badcsum"))
    bad[14 + 10] ^= 0x5a
    bad = bytes(bad)
    ttl1 = lsk.frame(dst="10.9.8.1", tag="ttl1", ttl=1)
    frames = good + [bad, ttl1]
    dropped = {bad: "ip.InCsumErrors", ttl1: "ip.InHdrErrors"}
    out1 = set(lsk.forwarded(f, 1, lsk.B_MAC) for f in good)

    sock = os.path.join(root, "fwd", "s.sock")
    pcapng = os.path.join(root, "fwd", "cap.pcapng")
    fwd = Fwd(fwd_bin, os.path.join(root, "fwd"), sock, lcores="0,1",
              inputs={0: frames}, infinite=True)
    ctl = Ctl(ctl_bin, sock)
    if not fwd.wait_ready():
        check("capture_start", "listack-fwd did not start: %s"
              % fwd.stderr()[-300:])
        fwd.stop()
        return
    r = ctl.run("capture", "start", pcapng, "all", "count", str(COUNT))
    check("capture_start", "" if r.returncode == 0 else
          "exit %d: %s" % (r.returncode, r.stderr.strip()))
    info = None
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        r = ctl.run("capture", "show", json_out=True)
        if r.returncode == 0:
            info = json.loads(r.stdout)
            if info["seen"] >= COUNT:
                break
        time.sleep(0.2)
    r = ctl.run("capture", "stop")
    check("capture_stop", "" if r.returncode == 0 else
          "exit %d: %s" % (r.returncode, r.stderr.strip()))
    r = ctl.run("capture", "show", json_out=True)
    info = json.loads(r.stdout) if r.returncode == 0 else {}
    r = ctl.run("capture", "show")
    check("capture_show", [
        "" if info.get("running") is False else "running %r" %
        info.get("running"),
        "" if info.get("seen") == COUNT else "seen %r" % info.get("seen"),
        "" if info.get("written", 0) + info.get("lost", -1) == COUNT else
        "written %r + lost %r != %d" % (info.get("written"),
                                       info.get("lost"), COUNT),
        "" if info.get("written", 0) > 0 else "nothing written",
        "" if info.get("bytes") == os.path.getsize(pcapng) else
        "bytes %r, file %d" % (info.get("bytes"), os.path.getsize(pcapng)),
        "" if "capture  stopped" in r.stdout else "text: %r" % r.stdout])
    print("capture: %r" % info)

    reasons = []
    try:
        ifs, pkts = read_pcapng(pcapng)
    except (ValueError, struct.error) as e:
        ifs, pkts = [], []
        reasons.append("unreadable: %s" % e)
    if [i[:2] for i in ifs] != [(1, 262144), (1, 262144)]:
        reasons.append("interfaces %r" % ifs)
    if len(pkts) != info.get("written"):
        reasons.append("%d packets, written %r" % (len(pkts),
                                                  info.get("written")))
    kinds = {"rx": 0, "tx": 0, "drop": 0}
    for i, p in enumerate(pkts):
        d = p["data"]
        if p["comment"]:
            kinds["drop"] += 1
            if dropped.get(d) != p["comment"] or p["flags"] != 1:
                reasons.append("packet %d: drop %r (%s) not fed"
                               % (i, p["comment"], lsk.describe(d)))
        elif p["flags"] == 1:
            kinds["rx"] += 1
            if p["ifid"] != 0 or d not in frames:
                reasons.append("packet %d: rx on %d not fed: %s"
                               % (i, p["ifid"], lsk.describe(d)))
        elif p["flags"] == 2:
            kinds["tx"] += 1
            ok = (d in out1 and p["ifid"] == 1) or \
                 (p["ifid"] == 0 and lsk.is_icmp_error(d))
            if not ok:
                reasons.append("packet %d: tx on %d unexpected: %s"
                               % (i, p["ifid"], lsk.describe(d)))
        else:
            reasons.append("packet %d: flags %r" % (i, p["flags"]))
        if len(reasons) > 5:
            break
    for k, n in kinds.items():
        if n == 0:
            reasons.append("no %s packet" % k)
    print("kinds: %r" % kinds)
    check("capture_packets", reasons)

    reasons = []
    try:
        rows = tshark_fields(pcapng, ["frame.interface_id",
                                      "frame.packet_flags_direction",
                                      "frame.comment"])
        if len(rows) != len(pkts):
            reasons.append("tshark read %d packets of %d"
                           % (len(rows), len(pkts)))
        for i, (row, p) in enumerate(zip(rows, pkts)):
            want = [str(p["ifid"]), "0x%08x" % p["flags"], p["comment"]]
            got = list(row)
            # direction: some versions print it as a number
            if got[1].isdigit():
                got[1] = "0x%08x" % int(got[1])
            if got != want:
                reasons.append("packet %d: tshark %r, file %r"
                               % (i, row, want))
                break
    except (ValueError, OSError, subprocess.TimeoutExpired) as e:
        reasons.append(str(e))
    check("tshark_reads", reasons)

    r = subprocess.run(["tcpdump", "-r", pcapng, "-n"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True,
                       timeout=60)
    n = len(r.stdout.splitlines())
    check("tcpdump_reads", "" if r.returncode == 0 and n == len(pkts) else
          "exit %d, %d lines of %d: %s" % (r.returncode, n, len(pkts),
                                          r.stderr.strip()[-200:]))

    # a second capture, stopped by the run's end: written whole
    second = os.path.join(root, "fwd", "second.pcapng")
    r = ctl.run("capture", "start", second, "rx", "snaplen", "64")
    time.sleep(0.5)
    fwd.stop()
    st = fwd.stats()
    try:
        ifs2, pkts2 = read_pcapng(second)
        bad2 = [p for p in pkts2 if len(p["data"]) > 64 or p["flags"] != 1
                or p["data"] not in [f[:64] for f in frames]]
        why = "%d of %d packets wrong" % (len(bad2), len(pkts2)) \
            if bad2 or not pkts2 else ""
    except (ValueError, struct.error) as e:
        why = "unreadable: %s" % e
    check("capture_closed_at_exit", why if r.returncode == 0 else
          "start: %s" % r.stderr.strip())
    check("capture_run_stops_clean", lsk.stop_reasons(fwd.rc, st))


def run_drops(fwd_bin, ctl_bin, root):
    started = start_drops(fwd_bin, ctl_bin, root, "drops_fwd_starts")
    if started is None:
        return
    fwd, ctl, (arp, hold, full) = started
    pcapng = os.path.join(root, "drops", "drops.pcapng")
    want = {"arp.InErrors": lambda d: d == arp,
            "arp.UnresolvedDiscards": lambda d: b"|hold" in d,
            "udp.RcvbufErrors": lambda d: d in full}
    reasons = []
    r = ctl.run("capture", "start", pcapng, "drop", "count", "200")
    if r.returncode != 0:
        reasons.append("capture start: %s" % r.stderr.strip())
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        r = ctl.run("capture", "show", json_out=True)
        if r.returncode != 0 or json.loads(r.stdout)["seen"] >= 200:
            break
        time.sleep(0.2)
    ctl.run("capture", "stop")
    seen = dict((k, 0) for k in want)
    try:
        _, pkts = read_pcapng(pcapng)
        rows = tshark_fields(pcapng, ["frame.comment"])
        if [row[0] for row in rows] != [p["comment"] for p in pkts]:
            reasons.append("tshark's comments differ")
    except (ValueError, struct.error, OSError,
            subprocess.TimeoutExpired) as e:
        pkts = []
        reasons.append(str(e))
    for i, p in enumerate(pkts):
        ok = want.get(p["comment"])
        if ok is None or not ok(p["data"]) or p["flags"] != 1:
            reasons.append("packet %d: %r %s" % (i, p["comment"],
                                                 lsk.describe(p["data"])))
            break
        seen[p["comment"]] += 1
    reasons += ["no %s" % k for k, n in seen.items() if n == 0]
    print("drops: %r" % seen)
    check("capture_drops_outside", reasons)
    fwd.stop()
    check("capture_drops_stops_clean", lsk.stop_reasons(fwd.rc, fwd.stats()))


def run_refused(fwd_bin, ctl_bin, root):
    """Port 1 a memif server with no peer: it refuses every frame sent.
    `capture start FILE all` holds each refused frame once, outbound on
    port 1 and named port1.tx_dropped, never also as a frame that left;
    `tx` holds none of them; the counts agree with ports[1]."""
    frames = [lsk.frame(dst="10.9.%d.1" % i, tag="ref%d" % i)
              for i in range(4)]
    out1 = set(lsk.forwarded(f, 1, lsk.B_MAC) for f in frames)
    work = os.path.join(root, "refused")
    sock = os.path.join(work, "s.sock")
    os.makedirs(work, exist_ok=True)
    fwd = Fwd(fwd_bin, work, sock, lcores="0,1", inputs={0: frames},
              infinite=True, vdevs={1: "net_memif0,role=server,socket=%s"
                                    % os.path.join(work, "memif.sock")})
    ctl = Ctl(ctl_bin, sock)
    if not fwd.wait_ready():
        check("capture_refused", "listack-fwd did not start: %s"
              % fwd.stderr()[-300:])
        fwd.stop()
        return
    for what in ("all", "tx"):
        pcapng = os.path.join(work, "%s.pcapng" % what)
        reasons = []
        r = ctl.run("capture", "start", pcapng, what, "count", "64")
        if r.returncode != 0:
            reasons.append("capture start: %s" % r.stderr.strip())
        end = time.monotonic() + WAIT
        while time.monotonic() < end and what == "all":
            r = ctl.run("capture", "show", json_out=True)
            if r.returncode != 0 or json.loads(r.stdout)["seen"] >= 64:
                break
            time.sleep(0.2)
        if what == "tx":
            time.sleep(1)   # nothing is sent: the capture stays empty
        ctl.run("capture", "stop")
        r = ctl.run("show", "stats", json_out=True)
        ports = json.loads(r.stdout)["ports"] if r.returncode == 0 else []
        if not ports or ports[1]["tx"] != 0 or ports[1]["tx_dropped"] == 0:
            reasons.append("port 1 did not refuse: %r" % ports)
        try:
            _, pkts = read_pcapng(pcapng)
            rows = tshark_fields(pcapng, ["frame.interface_id",
                                          "frame.packet_flags_direction",
                                          "frame.comment"])
        except (ValueError, struct.error, OSError,
                subprocess.TimeoutExpired) as e:
            pkts, rows = [], []
            reasons.append(str(e))
        kinds = {"rx": 0, "tx": 0, "refused": 0}
        for i, p in enumerate(pkts):
            if p["flags"] == 1 and not p["comment"] and p["ifid"] == 0 \
                    and p["data"] in frames:
                kinds["rx"] += 1
            elif p["flags"] == 2 and p["ifid"] == 1 and \
                    p["comment"] == "port1.tx_dropped" and p["data"] in out1:
                kinds["refused"] += 1
            elif p["flags"] == 2 and not p["comment"]:
                kinds["tx"] += 1
                reasons.append("packet %d: a tx record of a frame port 1 "
                               "refused: %s" % (i, lsk.describe(p["data"])))
                break
            else:
                reasons.append("packet %d: %r %r on %d: %s"
                               % (i, p["flags"], p["comment"], p["ifid"],
                                  lsk.describe(p["data"])))
                break
        if len(rows) != len(pkts):
            reasons.append("tshark read %d of %d" % (len(rows), len(pkts)))
        if what == "all" and (kinds["rx"] == 0 or kinds["refused"] == 0):
            reasons.append("kinds %r" % kinds)
        if what == "tx" and pkts:
            reasons.append("%d packets in a tx capture, none sent"
                           % len(pkts))
        print("refused, capture %s: %r" % (what, kinds))
        check("capture_refused_%s" % what, reasons)
    fwd.stop()
    check("capture_refused_stops_clean", lsk.stop_reasons(fwd.rc, fwd.stats()))


def main():
    args = lsk.ctl_args(__doc__).parse_args()
    for tool in ("tshark", "tcpdump"):
        if shutil.which(tool) is None:
            print("FAIL %s: not installed (scripts/install-deps.sh)" % tool)
            return 1
    return lsk.run_in_workdir(args, "lsk-capture-",
                              [run, run_drops, run_refused])


if __name__ == "__main__":
    sys.exit(main())
