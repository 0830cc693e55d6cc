#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""A day of load in half an hour (issue 25, item 6): listack-fwd under
steady mixed traffic, with route churn, several listack-ctl clients,
metrics scrapes, captures and traces started and stopped, all at once.

    bench/soak.py [--minutes N] [--pps P] [--churn C] [--build DIR]
                  [--out DIR] [--prefix P] [--lcores L] [--sample S]

The wire: two veth pairs in the root namespace (PREFIXg0-PREFIXd0,
PREFIXg1-PREFIXd1, IPv6 and offloads off); listack-fwd opens the d ends
with net_af_packet, on --lcores (default 0,1: a worker lcore beside the
main one). Why veth and a paced sender, not the pcap feed or the
bench's generator: a soak is about what stays level at a rate the
operator chooses, not about the maximum, and a sender thread here sets
that rate exactly (--pps, default 2000 frames a second, sent in small
bursts on a clock), on the kernel's real TX/RX path, with no second DPDK
process to share the two CPUs with.

What runs together for --minutes (default 30):
  - the sender: IPv4 UDP to 64 routes the churn moves and to 128 it never
    touches, IPv6 UDP, echo requests and UDP to the router, and frames
    each dropped for its own reason (TTL 1, a bad header checksum, no
    route, a blackhole route, an unknown ethertype, a runt);
  - the receiver on PREFIXg1: every forwarded frame's next hop checked
    (a frame to a churned /24 leaves to either gateway, any other only to
    the first; an IPv6 one to its gateway): misrouted must stay 0;
  - route churn through `listack-ctl -f -`, --churn changes a second
    (default 200), each run of it a batch of the changes due since the
    last (about a tenth of a second's): scenario_churn.c's cycle (a /24
    moved to the second gateway, a /25 in it added, the /24 back, the
    /25 deleted);
  - three listack-ctl clients in loops (show stats -j, errors, routes,
    neigh, runtime, interfaces, config, route get);
  - a scrape of GET /metrics every second;
  - every 10 s a capture (all, count 2000) started, shown and stopped and
    a trace of 20 packets added, shown and cleared.
Every --sample seconds (default 5): listack-fwd's resident memory
(VmRSS), the worker's longest poll gap (the metrics' gauge), frames
sent and forwarded.

Report (DIR, default /tmp/listack-soak): soak.md and soak.json: the
resident memory over time and its slope after the first tenth of the run
(least squares, KiB a minute), mbufs_in_use after SIGTERM, the drops by
reason (`show errors` at the end), the longest gap between polls of each
worker, and the checks; samples.jsonl. Each step of resident memory (4 MiB
or more between two samples) names the mappings of /proc/PID/smaps that
grew; smaps-first.json and smaps-last.json hold each mapping's resident
KiB at the start and the end. Exit status 1 when a check fails:
listack-fwd exits 0 with mbufs_in_use 0, no frame misrouted, every
listack-ctl run and scrape answered, frames forwarded, captures written.
77 (skipped) without root. Needs scapy (python3-scapy).
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)

P_MAC = ["02:00:00:00:00:fe", "02:00:00:00:01:fe"]   # listack's ports
G_MAC = ["02:00:00:00:00:01", "02:00:00:00:01:01"]   # the generator's ends
GW1_MAC, GW2_MAC, GW6_MAC = G_MAC[1], "02:00:00:00:01:02", "02:00:00:00:01:06"
STEP_KIB = 4096                 # a resident memory step worth naming
CHURNED, STABLE = 64, 128       # 198.18.K.0/24: K < 64 churned, 128.. stable
CONF = """port 0 mtu 1500
port 1 mtu 1500
address add 10.0.0.254/24 port 0
address add 10.0.1.254/24 port 1
address add 2001:db8:0::fe/64 port 0
address add 2001:db8:1::fe/64 port 1
neigh add 10.0.0.1 lladdr {g0}
neigh add 10.0.1.1 lladdr {gw1}
neigh add 10.0.1.2 lladdr {gw2}
neigh add 2001:db8:1::6 lladdr {gw6}
route add 2001:db8:100::/48 via 2001:db8:1::6
route add 192.0.2.0/24 blackhole
"""


def sh(*cmd, check=True):
    return subprocess.run(cmd, check=check, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)


def mac_b(mac):
    return bytes(int(x, 16) for x in mac.split(":"))


# ---------------------------------------------------------------- the wire

def wire_up(p):
    wire_down(p)
    for k in range(2):
        g, d = "%sg%d" % (p, k), "%sd%d" % (p, k)
        sh("ip", "link", "add", g, "type", "veth", "peer", "name", d)
        sh("ip", "link", "set", d, "address", P_MAC[k])
        sh("ip", "link", "set", g, "address", G_MAC[k])
        for i in (g, d):
            sh("sysctl", "-qw", "net.ipv6.conf.%s.disable_ipv6=1" % i)
            sh("ethtool", "-K", i, "gro", "off", "gso", "off", "tso", "off",
               "tx", "off", "rx", "off", check=False)
            sh("ip", "link", "set", i, "mtu", "1500", "up")


def wire_down(p):
    for k in range(2):
        sh("ip", "link", "del", "%sg%d" % (p, k), check=False)


# ---------------------------------------------------------------- frames

def frames():
    """The mix the sender repeats: (kind, bytes), in a fixed order."""
    from scapy.layers.inet import ICMP, IP, UDP
    from scapy.layers.inet6 import IPv6
    from scapy.layers.l2 import Ether
    from scapy.packet import Raw

    eth = Ether(src=G_MAC[0], dst=P_MAC[0])
    pay = Raw(b"soak" * 8)
    out = []

    def udp4(dst, kind, ttl=64):
        out.append((kind, bytes(eth / IP(src="10.0.0.1", dst=dst, ttl=ttl) /
                                UDP(sport=1000 + len(out), dport=9) / pay)))
    for i in range(40):
        udp4("198.18.%d.%d" % (i % CHURNED, 1 + i), "churned")
        udp4("198.18.%d.%d" % (128 + (i * 3) % STABLE, 1 + i), "stable")
    for i in range(10):
        out.append(("ip6", bytes(
            Ether(src=G_MAC[0], dst=P_MAC[0]) /
            IPv6(src="2001:db8::1", dst="2001:db8:100::%x" % (i + 1)) /
            UDP(sport=2000 + i, dport=9) / pay)))
    out.append(("echo", bytes(eth / IP(src="10.0.0.1", dst="10.0.0.254") /
                              ICMP(id=7, seq=1) / pay)))
    udp4("10.0.0.254", "udp_to_us")
    udp4("198.18.200.1", "ttl1", ttl=1)
    udp4("203.0.113.9", "no_route")
    udp4("192.0.2.9", "blackhole")
    bad = bytearray(bytes(eth / IP(src="10.0.0.1", dst="198.18.130.1") /
                          UDP(sport=5, dport=9) / pay))
    bad[24] ^= 0xff                     # the IPv4 header checksum
    out.append(("bad_cksum", bytes(bad)))
    out.append(("unknown_type", mac_b(P_MAC[0]) + mac_b(G_MAC[0]) +
                b"\x88\xb6" + bytes(46)))
    out.append(("runt", mac_b(P_MAC[0]) + mac_b(G_MAC[0]) + b"\x08\x00"))
    return out


class Sender(threading.Thread):
    """Sends the mix into PREFIXg0 at pps frames a second, in bursts of
    10 on a clock (a late burst is sent at once, not skipped)."""

    def __init__(self, iface, mix, pps):
        super().__init__(daemon=True)
        self.s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        self.s.bind((iface, 0))
        self.mix, self.pps = mix, pps
        self.sent, self.errors = {}, 0
        self.stop = threading.Event()

    def run(self):
        i, t = 0, time.monotonic()
        while not self.stop.is_set():
            for _ in range(10):
                kind, b = self.mix[i % len(self.mix)]
                i += 1
                try:
                    self.s.send(b)
                    self.sent[kind] = self.sent.get(kind, 0) + 1
                except OSError:
                    self.errors += 1
            t += 10.0 / self.pps
            d = t - time.monotonic()
            if d > 0:
                time.sleep(d)


class Receiver(threading.Thread):
    """Counts and checks what listack-fwd sends out of port 1."""

    def __init__(self, iface):
        super().__init__(daemon=True)
        self.s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                               socket.htons(3))
        self.s.bind((iface, 0))
        self.s.settimeout(0.2)
        self.forwarded, self.misrouted, self.other = 0, 0, 0
        self.first_bad = None
        self.stop = threading.Event()
        self.gw1, self.gw2, self.gw6 = (mac_b(GW1_MAC), mac_b(GW2_MAC),
                                        mac_b(GW6_MAC))

    def next_hop_ok(self, b):
        dst, typ = b[0:6], b[12:14]
        if typ == b"\x08\x00" and len(b) >= 34 and b[30] == 198 and \
                b[31] == 18:
            if b[32] < CHURNED:
                return dst in (self.gw1, self.gw2)
            return dst == self.gw1
        if typ == b"\x86\xdd":
            return dst == self.gw6
        return None                     # not a forwarded frame (ARP, ...)

    def run(self):
        while not self.stop.is_set():
            try:
                b, addr = self.s.recvfrom(2048)
            except socket.timeout:
                continue
            if addr[2] == socket.PACKET_OUTGOING:
                continue
            ok = self.next_hop_ok(b)
            if ok is None:
                self.other += 1
            elif ok:
                self.forwarded += 1
            else:
                self.misrouted += 1
                self.first_bad = self.first_bad or b[:48].hex()


# ---------------------------------------------------------------- clients

class Loop(threading.Thread):
    """fn() again and again, pause s between, until stopped; counts the
    runs and the failures fn reports (a string: what failed)."""

    def __init__(self, name, fn, pause):
        super().__init__(daemon=True, name=name)
        self.fn, self.pause = fn, pause
        self.runs, self.failed, self.first_fail = 0, 0, None
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                why = self.fn()
            except (OSError, ValueError, subprocess.SubprocessError) as e:
                why = "%s: %s" % (type(e).__name__, e)
            self.runs += 1
            if why:
                self.failed += 1
                self.first_fail = self.first_fail or why
            self.stop.wait(self.pause)


class Soak:
    def __init__(self, a, work):
        self.a, self.work = a, work
        self.sock = os.path.join(work, "ctl.sock")
        self.ctl_bin = os.path.join(a.build, "listack-ctl")
        self.fwd_bin = os.path.join(a.build, "listack-fwd")
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.mport = s.getsockname()[1]
        s.close()
        self.churn_i = 0

    def ctl(self, *words, stdin=None):
        cmd = [self.ctl_bin, "-s", self.sock] + list(words)
        r = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=30,
                           universal_newlines=True)
        if r.returncode != 0:
            raise ValueError("%s: %d %s" % (" ".join(words), r.returncode,
                                            r.stderr.strip()[:200]))
        return r.stdout

    def start_fwd(self):
        p = self.a.prefix
        with open(os.path.join(self.work, "soak.conf"), "w") as f:
            f.write(CONF.format(g0=G_MAC[0], gw1=GW1_MAC, gw2=GW2_MAC,
                                gw6=GW6_MAC))
            for k in list(range(CHURNED)) + list(range(128, 128 + STABLE)):
                f.write("route add 198.18.%d.0/24 via 10.0.1.1\n" % k)
        self.eal_prefix = "lsk-soak-%d" % os.getpid()
        cmd = [self.fwd_bin, "-l", self.a.lcores, "--no-huge", "--no-pci",
               "-m", "512", "--file-prefix", self.eal_prefix,
               "--log-level=*:warning",
               "--vdev", "net_af_packet0,iface=%sd0" % p,
               "--vdev", "net_af_packet1,iface=%sd1" % p, "--",
               "--config", "soak.conf", "--ctl-socket", self.sock,
               "--metrics", "127.0.0.1:%d" % self.mport,
               "--stats-json", "stats.json"]
        self.cmd = cmd
        self.log = open(os.path.join(self.work, "fwd.log"), "w")
        self.proc = subprocess.Popen(cmd, cwd=self.work, stdout=self.log,
                                     stderr=subprocess.STDOUT,
                                     start_new_session=True)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError("listack-fwd exited %d at start (%s)" %
                                   (self.proc.returncode,
                                    os.path.join(self.work, "fwd.log")))
            try:
                self.ctl("show", "version")
                return
            except (ValueError, subprocess.SubprocessError):
                time.sleep(0.2)
        raise RuntimeError("listack-fwd did not serve its socket in 60 s")

    def stop_fwd(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            rc = "killed after SIGTERM timed out"
        self.log.close()
        shutil.rmtree(os.path.join("/var/run/dpdk", self.eal_prefix),
                      ignore_errors=True)
        return rc

    # the clients' single runs: None, or what failed
    def churn(self):
        # as many changes as the rate owes since the last batch (one
        # listack-ctl run a batch: its start is the dear part)
        now = time.monotonic()
        last = getattr(self, "churn_t", now - 0.1)
        self.churn_t = now
        n = max(1, min(int(round(self.a.churn * (now - last))),
                       10 * self.a.churn))
        lines = []
        for _ in range(n):
            i = self.churn_i
            self.churn_i += 1
            k, step = i % CHURNED, (i // CHURNED) % 4
            p24, p25 = "198.18.%d.0/24" % k, "198.18.%d.0/25" % k
            lines.append(["route replace %s via 10.0.1.2" % p24,
                          "route add %s via 10.0.1.1" % p25,
                          "route replace %s via 10.0.1.1" % p24,
                          "route del %s" % p25][step])
        self.ctl("-f", "-", stdin="\n".join(lines) + "\n")
        self.churned = self.churn_i

    def client_a(self):
        json.loads(self.ctl("-j", "show", "stats"))
        self.ctl("show", "errors")

    def client_b(self):
        self.ctl("show", "routes")
        self.ctl("show", "neigh")
        self.ctl("route", "get", "198.18.%d.1" % (self.churn_i % CHURNED))

    def client_c(self):
        self.ctl("show", "runtime")
        self.ctl("show", "interfaces")
        self.ctl("show", "config")

    def scrape(self):
        with urllib.request.urlopen("http://127.0.0.1:%d/metrics" %
                                    self.mport, timeout=10) as r:
            body = r.read().decode()
            if r.status != 200:
                return "status %d" % r.status
        gaps = {m.group(1): float(m.group(2)) for m in re.finditer(
            r'^listack_worker_poll_gap_max_seconds\{worker="(\d+)"\} (\S+)',
            body, re.M)}
        if not gaps:
            return "no listack_worker_poll_gap_max_seconds"
        self.gaps = gaps
        return None

    def observe(self):
        self.obs_n = getattr(self, "obs_n", 0) + 1
        d = os.path.join(self.work, "cap")
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "c%d.pcapng" % (self.obs_n % 2))
        self.ctl("capture", "start", path, "all", "count", "2000")
        time.sleep(2)
        self.ctl("capture", "show")
        self.ctl("capture", "stop")
        self.cap_bytes = getattr(self, "cap_bytes", 0) + \
            os.path.getsize(path)
        self.ctl("trace", "add", "20")
        time.sleep(1)
        self.ctl("-j", "trace", "show")
        self.ctl("trace", "clear")


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        return int(re.search(r"^VmRSS:\s+(\d+)", f.read(), re.M).group(1))


def smaps(pid):
    """Resident KiB of each mapping of pid, keyed by its start, its
    permissions and its file or [name] (anonymous: "anon"): a mapping
    that grows keeps its start."""
    out, key = {}, None
    with open("/proc/%d/smaps" % pid) as f:
        for ln in f:
            w = ln.split()
            if w and "-" in w[0] and not w[0].endswith(":"):
                key = "%s %s %s" % (w[0].split("-")[0], w[1],
                                    w[5] if len(w) > 5 else "anon")
            elif key is not None and w[:1] == ["Rss:"]:
                out[key] = int(w[1])
    return out


def smaps_grown(old, new, floor_kib):
    """The mappings whose resident memory grew by floor_kib or more
    between two smaps() readings (a new mapping counts whole), largest
    first: [(key, KiB before, KiB after)]."""
    grown = [(k, old.get(k, 0), v) for k, v in new.items()
             if v - old.get(k, 0) >= floor_kib]
    return sorted(grown, key=lambda g: g[1] - g[2])


def slope(points):
    """Least-squares slope of (x, y) points; 0 for fewer than two."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--pps", type=int, default=2000)
    ap.add_argument("--churn", type=int, default=200)
    ap.add_argument("--build", default=os.path.join(TOP, "build"))
    ap.add_argument("--out", default="/tmp/listack-soak")
    ap.add_argument("--prefix", default="lsksk")
    ap.add_argument("--lcores", default="0,1")
    ap.add_argument("--sample", type=float, default=5)
    a = ap.parse_args()
    a.build = os.path.abspath(a.build)
    if os.geteuid() != 0:
        print("soak.py: needs root (veth, AF_PACKET): skipped")
        return 77
    if len(a.prefix) > 12 or a.pps < 10 or a.churn < 10:
        ap.error("--prefix at most 12 characters, --pps and --churn >= 10")
    os.makedirs(a.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="lsk-soak-")
    os.chmod(work, 0o755)
    wire_up(a.prefix)
    s = Soak(a, work)
    checks = []
    try:
        s.start_fwd()
        status = run(a, s, checks)
    finally:
        if s.__dict__.get("proc") is not None and s.proc.poll() is None:
            os.killpg(s.proc.pid, signal.SIGKILL)
        wire_down(a.prefix)
    for name, why in checks:
        print("PASS %s" % name if not why else "FAIL %s: %s" % (name, why))
    if status == 0:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print("work directory kept: %s" % work)
    return status


def run(a, s, checks):
    mix = frames()
    snd, rcv = Sender("%sg0" % a.prefix, mix, a.pps), \
        Receiver("%sg1" % a.prefix)
    loops = [Loop("churn", s.churn, 0.1), Loop("ctl-a", s.client_a, 0.2),
             Loop("ctl-b", s.client_b, 0.2), Loop("ctl-c", s.client_c, 0.2),
             Loop("scrape", s.scrape, 1.0), Loop("observe", s.observe, 7.0)]
    rcv.start()
    snd.start()
    for t in loops:
        t.start()
    t0 = time.monotonic()
    end = t0 + a.minutes * 60
    samples = []
    # each step of resident memory (STEP_KIB or more since the last
    # sample): which mappings grew; the first and last smaps kept whole
    s.steps, last_maps = [], smaps(s.proc.pid)
    with open(os.path.join(a.out, "smaps-first.json"), "w") as f:
        json.dump(last_maps, f, indent=0)
    with open(os.path.join(a.out, "samples.jsonl"), "w") as sf:
        while True:
            now = time.monotonic()
            maps = smaps(s.proc.pid)
            if sum(maps.values()) - sum(last_maps.values()) >= STEP_KIB:
                s.steps.append({"t": round(now - t0, 1), "grown": [
                    list(g) for g in smaps_grown(last_maps, maps, 256)]})
            last_maps = maps
            smp = {"t": round(now - t0, 1), "rss_kib": rss_kib(s.proc.pid),
                   "gap_s": dict(getattr(s, "gaps", {})),
                   "sent": sum(snd.sent.values()),
                   "forwarded": rcv.forwarded, "misrouted": rcv.misrouted,
                   "route_changes": s.churn_i}
            samples.append(smp)
            sf.write(json.dumps(smp) + "\n")
            sf.flush()
            if now >= end:
                break
            time.sleep(min(a.sample, max(0.0, end - now)))
    with open(os.path.join(a.out, "smaps-last.json"), "w") as f:
        json.dump(last_maps, f, indent=0)
    for t in loops:
        t.stop.set()
    for t in loops:
        t.join(60)
    snd.stop.set()
    snd.join()
    time.sleep(1)       # the last frames through
    rcv.stop.set()
    rcv.join()
    stats = json.loads(s.ctl("-j", "show", "stats"))
    errors = s.ctl("show", "errors")
    s.scrape()
    rc = s.stop_fwd()
    try:
        with open(os.path.join(s.work, "stats.json")) as f:
            final = json.load(f)
    except (OSError, ValueError):
        final = {}
    return report(a, s, checks, samples, snd, rcv, loops, stats, errors,
                  rc, final)


def report(a, s, checks, samples, snd, rcv, loops, stats, errors, rc, final):
    dur = samples[-1]["t"]
    warm = [x for x in samples if x["t"] >= dur / 10]
    pts = [(x["t"] / 60.0, x["rss_kib"]) for x in warm]
    rss = [y for _, y in pts] or [0]
    gaps = {w: g for w, g in getattr(s, "gaps", {}).items()}
    in_use = final.get("mbufs_in_use")
    sent = sum(snd.sent.values())
    res = {
        "minutes": a.minutes, "pps": a.pps, "churn_per_s": a.churn,
        "lcores": a.lcores, "load": os.getloadavg(),
        "command": " ".join(sys.argv), "fwd_command": " ".join(s.cmd),
        "seconds": dur, "sent": sent, "sent_by_kind": snd.sent,
        "send_errors": snd.errors, "forwarded_seen": rcv.forwarded,
        "misrouted": rcv.misrouted, "first_misrouted": rcv.first_bad,
        "route_changes": s.churn_i,
        "ip_forw": stats.get("ip", {}).get("ForwDatagrams"),
        "ip6_forw": stats.get("ip6", {}).get("OutForwDatagrams"),
        "rss_kib_first": samples[0]["rss_kib"],
        "rss_kib_after_warmup_min": min(rss),
        "rss_kib_after_warmup_max": max(rss),
        "rss_kib_per_min": round(slope(pts), 2),
        "poll_gap_max_s": gaps, "mbufs_in_use": in_use, "exit": rc,
        "loops": {t.name: {"runs": t.runs, "failed": t.failed,
                           "first_fail": t.first_fail} for t in loops},
        "capture_bytes": getattr(s, "cap_bytes", 0),
        "rss_steps": s.steps,
        "errors": errors,
    }
    checks += [
        ("exit 0", "" if rc == 0 else "listack-fwd: %s" % rc),
        ("mbufs_in_use 0", "" if in_use == 0 else "mbufs_in_use %s" % in_use),
        ("forwarded", "" if rcv.forwarded > 0 else "nothing forwarded"),
        ("misrouted 0", "" if rcv.misrouted == 0 else "%d misrouted, the "
         "first %s" % (rcv.misrouted, rcv.first_bad)),
        ("captures written", "" if res["capture_bytes"] > 0 else
         "no capture wrote anything"),
    ]
    for t in loops:
        checks.append(("%s answered" % t.name, "" if t.runs and not t.failed
                       else "%d of %d runs failed, the first: %s" %
                       (t.failed, t.runs, t.first_fail)))
    with open(os.path.join(a.out, "soak.json"), "w") as f:
        json.dump(res, f, indent=1)
    with open(os.path.join(a.out, "soak.md"), "w") as f:
        f.write("# soak: %.1f min, %d pps, %d route changes/s, lcores %s, "
                "load %s\n\n" % (a.minutes, a.pps, a.churn, a.lcores,
                                 " ".join("%.1f" % x for x in res["load"])))
        f.write("    %s\n\n" % res["command"])
        f.write("sent %d, forwarded (seen on g1) %d, misrouted %d, route "
                "changes %d, capture bytes %d\n\n" %
                (sent, rcv.forwarded, rcv.misrouted, s.churn_i,
                 res["capture_bytes"]))
        f.write("resident memory: %d KiB at start, %d-%d KiB after the first "
                "tenth, slope %.1f KiB/min\n\n" %
                (res["rss_kib_first"], min(rss), max(rss),
                 res["rss_kib_per_min"]))
        for st in s.steps:
            f.write("a step of %d KiB or more at %s s; the mappings that "
                    "grew (KiB before -> after):\n" % (STEP_KIB, st["t"]))
            f.write("".join("    %s: %d -> %d\n" % tuple(g)
                            for g in st["grown"]) or "    none by 256 KiB "
                    "alone (many small ones)\n")
        f.write("\n" if s.steps else "")
        f.write("longest gap between polls: %s\n\nmbufs_in_use at the end: "
                "%s; exit %s\n\n" % (", ".join(
                    "worker %s %.3f ms" % (w, g * 1e3)
                    for w, g in sorted(gaps.items())), in_use, rc))
        f.write("| t s | RSS KiB | forwarded | gap max ms |\n|---|---|---|---|\n")
        step = max(1, len(samples) // 30)
        for x in samples[::step] + ([samples[-1]] if
                                    (len(samples) - 1) % step else []):
            f.write("| %s | %d | %d | %s |\n" % (
                x["t"], x["rss_kib"], x["forwarded"],
                " ".join("%.3f" % (g * 1e3) for g in x["gap_s"].values())))
        f.write("\ndrops by reason (show errors at the end):\n\n")
        f.write("".join("    " + ln + "\n" for ln in errors.splitlines()))
        f.write("\nclients: %s\n" % ", ".join(
            "%s %d runs %d failed" % (t.name, t.runs, t.failed)
            for t in loops))
    sys.stdout.write(open(os.path.join(a.out, "soak.md")).read())
    return 1 if any(why for _, why in checks) else 0


if __name__ == "__main__":
    sys.exit(main())
