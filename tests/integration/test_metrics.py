#!/usr/bin/python3
"""--metrics (GET /metrics) and `show pipeline` against a running listack-fwd.

    /usr/bin/python3 tests/integration/test_metrics.py build/listack-fwd build/listack-ctl [-v]

listack-fwd runs on net_pcap ports (the fixture of lsk.py) with
--ctl-socket and --metrics 127.0.0.1:0 (the port it prints) and no
--idle-exit; it is fed forwarded, unroutable, local and echo frames. Once
they are all counted: the scrape passes `promtool check metrics`, and
every counter in it equals `listack-ctl -j show stats` taken between two
equal scrapes; the per-worker counters sum to the totals; `show pipeline
dot` renders with `dot -Tsvg` and its counts match `show runtime`. Then
hostile HTTP clients (other methods and paths, garbage, a head too large,
another version, slowloris, a client that never reads, too many clients)
get their status, change no counter, and never stop a scrape from being
served. After SIGTERM: exit 0, mbufs_in_use == 0. Bad --metrics values
stop listack-fwd before any port starts (exit 2). A second run with a
worker lcore replays frames (infinite_rx) while hostile clients hold
every slot: forwarding goes on, then scrapes pass promtool.

Output: `PASS name` / `FAIL name: reason` per check, then `N passed, N
failed`; exit status 1 if any failed.
"""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsk  # noqa: E402
from lsk import check, Ctl, Fwd  # noqa: E402

CLIENTS = 16        # LSK_METRICS_CLIENTS (listack/metrics.h)
HEAD_MAX = 8192     # LSK_HTTP_HEAD_MAX (serve/metrics.h)
HEAD_S = 5          # METRICS_HEAD_MS (serve/metrics_server.c)
WAIT = 20


# ---------------------------------------------------------------- HTTP

def http(port, raw, timeout=WAIT):
    """Send raw bytes, read until the server closes or one answer is whole:
    (status, headers dict, body bytes), status None if nothing came."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        s.sendall(raw)
        return read_response(s)
    finally:
        s.close()


class Reader:
    """Answers read off one connection, what came after one kept for the
    next."""

    def __init__(self, s):
        self.s = s
        self.data = b""

    def recv(self):
        try:
            b = self.s.recv(65536)
        except (ConnectionResetError, socket.timeout):
            b = b""
        self.data += b
        return b

    def response(self):
        while b"\r\n\r\n" not in self.data:
            if not self.recv():
                return (None, {}, self.data)
        head, rest = self.data.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        m = re.match(r"HTTP/1\.[01] (\d{3}) ", lines[0])
        if not m:
            return (None, {}, self.data)
        hdrs = {}
        for ln in lines[1:]:
            k, _, v = ln.partition(":")
            hdrs[k.strip().lower()] = v.strip()
        n = int(hdrs.get("content-length", "0"))
        self.data = rest
        while len(self.data) < n:
            if not self.recv():
                break
        body, self.data = self.data[:n], self.data[n:]
        return (int(m.group(1)), hdrs, body)


def read_response(s):
    return Reader(s).response()


def get_metrics(port, head=False):
    st, hdrs, body = http(port, b"%s /metrics HTTP/1.1\r\nHost: x\r\n"
                          b"Connection: close\r\n\r\n"
                          % (b"HEAD" if head else b"GET"))
    return st, hdrs, body.decode() if not head else body


def curl_metrics(port):
    r = subprocess.run(["curl", "-s", "--max-time", str(WAIT),
                        "http://127.0.0.1:%d/metrics" % port],
                       stdout=subprocess.PIPE, timeout=WAIT + 5)
    return r.returncode, r.stdout.decode()


def parse_metrics(text):
    """{(name, frozenset(labels)): value} of every sample line."""
    out = {}
    for ln in text.splitlines():
        if not ln or ln.startswith("#"):
            continue
        # Prometheus's metric names: digits after the first character
        # (a gauge of seconds, the poll gap, has a fraction)
        m = re.match(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})? '
                     r'(\d+(\.\d+)?)$', ln)
        if not m:
            raise ValueError("bad sample line %r" % ln)
        labels = frozenset(re.findall(r'(\w+)="([^"]*)"', m.group(3) or ""))
        v = m.group(4)
        out[(m.group(1), labels)] = float(v) if m.group(5) else int(v)
    return out


def snake(mib):
    if mib == "NotForUs":
        return "not_for_this_host"
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", mib).lower()


def expected_from_json(st):
    """The samples the stats JSON says the scrape must hold."""
    exp = {}
    for sec, v in st.items():
        if isinstance(v, dict):
            for name, val in v.items():
                exp[("listack_%s_%s_total" % (sec, snake(name)),
                     frozenset())] = val
    for p in st["ports"]:
        lab = frozenset([("port", str(p["id"]))])
        for k, m in (("rx", "rx_packets"), ("tx", "tx_packets"),
                     ("rx_dropped", "rx_dropped"),
                     ("tx_dropped", "tx_dropped")):
            exp[("listack_port_%s_total" % m, lab)] = p[k]
    for sg in st["stages"]:
        lab = frozenset([("stage", sg["name"])])
        for k in ("calls", "packets", "cycles"):
            exp[("listack_stage_%s_total" % k, lab)] = sg[k]
    return exp


# ---------------------------------------------------------------- checks

def traffic():
    fr = [lsk.frame(dst="10.9.%d.1" % (i % 4), tag="m%d" % i, sport=1000 + i)
          for i in range(40)]
    fr += [lsk.frame(dst="10.8.0.%d" % i, tag="nr%d" % i) for i in range(5)]
    fr += [lsk.frame(dst="10.0.0.254", dport=9, tag="np%d" % i)
           for i in range(3)]
    fr += [lsk.frame(dst="10.0.0.254", proto="icmp", sport=7, dport=i)
           for i in range(4)]
    return fr


def wait_counted(ctl, n):
    """The stats JSON once port 0 has received n frames and it is still."""
    end, prev = time.monotonic() + WAIT, None
    while time.monotonic() < end:
        r = ctl.run("show", "stats", json_out=True)
        st = json.loads(r.stdout) if r.returncode == 0 else None
        if st and st["ports"][0]["rx"] >= n and st == prev:
            return st
        prev = st
        time.sleep(0.3)
    return None


def checks_scrape(port, ctl, n_frames):
    st = wait_counted(ctl, n_frames)
    if st is None:
        check("traffic_counted", "port 0 never counted %d frames" % n_frames)
        return
    check("traffic_counted", "" if st["ip"]["ForwDatagrams"] else
          "nothing forwarded")
    rc, text = curl_metrics(port)
    check("curl_scrape", "curl exit %d" % rc if rc else
          "" if "listack_ip_in_receives_total" in text else "no counters")
    p = subprocess.run(["promtool", "check", "metrics"], input=text.encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=WAIT)
    check("promtool_check_metrics", "" if p.returncode == 0 else
          "exit %d: %s" % (p.returncode, p.stdout.decode()[-400:]))
    for name in ("listack_ip_in_receives_total", "listack_port_rx_packets_total",
                 "listack_stage_packets_total"):
        check("help_and_type_" + name, [
            "" if "# HELP %s " % name in text else "no HELP",
            "" if "# TYPE %s counter" % name in text else "no TYPE"])

    # the JSON between two equal scrapes: the same moment
    reasons = ["never two equal scrapes around the JSON"]
    for _ in range(5):
        a = parse_metrics(curl_metrics(port)[1])
        r = ctl.run("show", "stats", json_out=True)
        b = counts(parse_metrics(curl_metrics(port)[1]))
        a = counts(a)
        if a != b or r.returncode != 0:
            continue
        js = json.loads(r.stdout)
        reasons = []
        for key, val in expected_from_json(js).items():
            if a.get(key) != val:
                reasons.append("%s%s: metrics %r, json %r" % (
                    key[0], dict(key[1]), a.get(key), val))
        extra = [k for k in a if k[0].startswith(("listack_ip_",
                 "listack_udp_", "listack_eth_", "listack_stage_"))
                 and k not in expected_from_json(js)]
        if extra:
            reasons.append("not in the JSON: %r" % extra[:3])
        break
    check("values_equal_show_stats", reasons[:6])

    # each worker's share sums to the total (nothing was cleared)
    reasons = []
    workers = a.get(("listack_workers", frozenset()))
    if not workers:
        reasons.append("listack_workers %r" % workers)
    for (name, lab), val in a.items():
        if name != "listack_stage_packets_total":
            continue
        stage = dict(lab)["stage"]
        tot = sum(v for (n2, l2), v in a.items()
                  if n2 == "listack_worker_stage_packets_total"
                  and dict(l2).get("stage") == stage)
        if tot != val:
            reasons.append("%s: workers %d, total %d" % (stage, tot, val))
    check("worker_labels_sum_to_totals", reasons)
    mb = a.get(("listack_mbufs_in_use", frozenset()))
    # idle net_pcap ports hold no mbufs (the pcap PMD allocates as it
    # reads): all were freed or sent (tests/unit/control/test_metrics.c
    # counts mbufs held)
    check("mbufs_in_use_gauge", "" if mb == 0 else
          "listack_mbufs_in_use %r while idle" % mb)

    st_, hdrs, body = get_metrics(port, head=True)
    check("head_request", [
        "status %r" % st_ if st_ != 200 else "",
        "body of %d bytes" % len(body) if body else "",
        "" if int(hdrs.get("content-length", 0)) > 1000 else
        "Content-Length %r" % hdrs.get("content-length")])


def checks_pipeline(ctl):
    r = ctl.run("show", "pipeline", "dot")
    rt = ctl.run("show", "runtime", json_out=True)
    if r.returncode != 0 or rt.returncode != 0:
        check("pipeline_dot", "exit %d %d: %s" % (r.returncode,
              rt.returncode, r.stderr))
        return
    p = subprocess.run(["dot", "-Tsvg"], input=r.stdout.encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=WAIT)
    check("pipeline_dot_renders", "" if p.returncode == 0 and
          b"<svg" in p.stdout else "dot exit %d: %s" % (
              p.returncode, p.stderr.decode()[-300:]))
    stages = {s["name"]: s["packets"] for s in json.loads(rt.stdout)}
    # every node's label holds its packets; an exact edge into a stage
    # fed by nothing else carries all of them
    reasons = []
    for name, n in stages.items():
        m = re.search(r'"%s" \[label="%s\\n(\d+) packets"' % (name, name),
                      r.stdout)
        if not m:
            reasons.append("no node %s" % name)
        elif int(m.group(1)) != n:
            reasons.append("%s: node %s, runtime %d" % (name, m.group(1), n))
    for src, dst in (("eth_input", "arp_input"), ("ip4_local", "udp4_input"),
                     ("ip4_local", "icmp4_input"),
                     ("ip4_route", "ip4_forward")):
        m = re.search(r'"%s" -> "%s" \[label="(\d+)"' % (src, dst), r.stdout)
        if not m or int(m.group(1)) != stages[dst]:
            reasons.append("edge %s -> %s: %s, runtime %d" % (
                src, dst, m.group(1) if m else "missing", stages[dst]))
    check("pipeline_counts_match_runtime", reasons)
    t = ctl.run("show", "pipeline")
    check("pipeline_text", [
        "exit %d" % t.returncode if t.returncode else "",
        "" if re.search(r"ip4_route\s+ip4_forward\s+%d\b"
                        % stages["ip4_forward"], t.stdout) else
        "no ip4_route -> ip4_forward row: %r" % t.stdout[:300]])


def stats_now(ctl):
    """show stats' JSON without the workers' poll gaps (a time, which
    may grow: not a count a request could change)."""
    r = ctl.run("show", "stats", json_out=True)
    if r.returncode != 0:
        return None
    js = json.loads(r.stdout)
    js.pop("workers", None)
    return js


def counts(m):
    """parse_metrics' samples without the poll gap gauge (see
    stats_now)."""
    return {k: v for k, v in m.items()
            if k[0] != "listack_worker_poll_gap_max_seconds"}


def checks_bad_requests(port, ctl):
    before = stats_now(ctl)
    m_before = counts(parse_metrics(get_metrics(port)[2]))
    cases = [
        ("post", b"POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n", 405),
        ("delete", b"DELETE /metrics HTTP/1.1\r\n\r\n", 405),
        ("other_path", b"GET /metricsx HTTP/1.1\r\n\r\n", 404),
        ("root_path", b"GET / HTTP/1.0\r\n\r\n", 404),
        ("garbage", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
         400),
        ("nul_byte", b"GET /metrics\x00 HTTP/1.1\r\n\r\n", 400),
        ("no_version", b"GET /metrics\r\n\r\n", 400),
        ("http2", b"GET /metrics HTTP/2.0\r\n\r\n", 505),
        ("body", b"GET /metrics HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello",
         400),
        ("chunked", b"GET /metrics HTTP/1.1\r\nTransfer-Encoding: chunked"
         b"\r\n\r\n0\r\n\r\n", 400),
        ("bad_header", b"GET /metrics HTTP/1.1\r\nno colon here\r\n\r\n",
         400),
        ("oversized", b"GET /metrics HTTP/1.1\r\nX-Big: " +
         b"a" * (HEAD_MAX + 100) + b"\r\n\r\n", 431),
        ("many_headers", b"GET /metrics HTTP/1.1\r\n" +
         b"".join(b"X-%d: 1\r\n" % i for i in range(100)) + b"\r\n", 431),
    ]
    for name, raw, want in cases:
        st, hdrs, _ = http(port, raw)
        reasons = ["status %r, want %d" % (st, want) if st != want else ""]
        if want == 405 and hdrs.get("allow") != "GET, HEAD":
            reasons.append("Allow %r" % hdrs.get("allow"))
        if st is not None and hdrs.get("connection") != "close":
            reasons.append("Connection %r" % hdrs.get("connection"))
        check("bad_request_" + name, reasons)
    after = stats_now(ctl)
    m_after = counts(parse_metrics(get_metrics(port)[2]))
    check("bad_requests_change_nothing", [
        "stats changed" if before != after or before is None else "",
        "metrics changed" if m_before != m_after else ""])


def checks_connections(port):
    # keep-alive and pipelining: two answers on one connection
    s = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    s.sendall(b"GET /metrics HTTP/1.1\r\n\r\nGET /metrics?x=1 HTTP/1.1\r\n"
              b"Connection: close\r\n\r\n")
    rd = Reader(s)
    a = rd.response()
    b = rd.response()
    s.close()
    check("keep_alive_pipelined", [
        "first %r" % a[0] if a[0] != 200 else "",
        "first Connection %r" % a[1].get("connection")
        if a[1].get("connection") != "keep-alive" else "",
        "second %r" % b[0] if b[0] != 200 else ""])

    # slowloris: half a head, then silence; scrapes go on meanwhile
    slow = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    slow.sendall(b"GET /metr")
    t0 = time.monotonic()
    st, _, _ = get_metrics(port)
    quick = time.monotonic() - t0
    check("scrape_beside_slowloris", "status %r" % st if st != 200 else "")
    slow.sendall(b"i")
    got = read_response(slow)
    waited = time.monotonic() - t0
    slow.close()
    check("slowloris_timed_out", [
        "status %r, want 408" % got[0] if got[0] != 408 else "",
        "answered after %.1f s (< %d s)" % (waited, HEAD_S)
        if waited < HEAD_S - 0.5 else ""])
    if lsk.VERBOSE:
        sys.stderr.write("scrape beside slowloris: %.3f s\n" % quick)

    # a client that asks and never reads: the others are served
    hog = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    hog.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    hog.sendall(b"GET /metrics HTTP/1.1\r\n\r\n" * 200)
    time.sleep(0.5)
    st, _, _ = get_metrics(port)
    check("scrape_beside_reader_that_never_reads",
          "status %r" % st if st != 200 else "")
    hog.close()

    # every slot taken: one more is told so; freed, scrapes work again
    held = [socket.create_connection(("127.0.0.1", port), timeout=WAIT)
            for _ in range(CLIENTS)]
    time.sleep(0.5)
    st, _, body = http(port, b"GET /metrics HTTP/1.1\r\n\r\n")
    for h in held:
        h.close()
    time.sleep(0.5)
    st2, _, _ = get_metrics(port)
    check("too_many_clients", [
        "status %r with %d held, want 503" % (st, CLIENTS)
        if st != 503 else "",
        "status %r once freed" % st2 if st2 != 200 else ""])


def checks_under_traffic(fwd_bin, ctl_bin, root):
    """A worker lcore forwards replayed frames while every metrics slot is
    held by hostile clients, then while scrapes run: forwarding goes on,
    the scrapes pass promtool, the stop is clean."""
    frames = [lsk.frame(dst="10.9.%d.1" % i, tag="t%d" % i) for i in range(8)]
    d = os.path.join(root, "traffic")
    sock = os.path.join(d, "s.sock")
    fwd = Fwd(fwd_bin, d, sock, lcores="0,1", inputs={0: frames},
              infinite=True, extra_ctl=["--ctl-socket", sock, "--metrics",
                                        "127.0.0.1:0", "--mbufs", "8192"])
    ctl = Ctl(ctl_bin, sock)
    try:
        port = None
        if fwd.wait_ready():
            with open(os.path.join(d, "fwd.out")) as f:
                m = re.search(r"metrics on 127\.0\.0\.1:(\d+)", f.read())
            port = int(m.group(1)) if m else None
        if port is None:
            check("traffic_start", "did not start: %s" % fwd.stderr()[-300:])
            return

        def forwarded():
            st = stats_now(ctl)
            return st["ip"]["ForwDatagrams"] if st else None

        # every slot: a slowloris, readers that never read, idle ones
        held = []
        for i in range(CLIENTS):
            s = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
            if i % 3 == 0:
                s.sendall(b"GET /metr")
            elif i % 3 == 1:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                s.sendall(b"GET /metrics HTTP/1.1\r\n\r\n" * 50)
            held.append(s)
        a = forwarded()
        time.sleep(1.0)
        b = forwarded()
        check("forwarding_beside_hostile_clients", "" if a is not None and
              b is not None and b > a else
              "ForwDatagrams %r then %r" % (a, b))
        for s in held:
            s.close()
        time.sleep(0.5)
        reasons = []
        for _ in range(5):
            rc, text = curl_metrics(port)
            p = subprocess.run(["promtool", "check", "metrics"],
                               input=text.encode(), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=WAIT)
            if rc or p.returncode:
                reasons.append("curl %d, promtool %d: %s" % (
                    rc, p.returncode, p.stdout.decode()[-200:]))
                break
        samples = parse_metrics(text) if not reasons else {}
        w1 = samples.get(("listack_worker_port_rx_packets_total",
                          frozenset([("worker", "0"), ("port", "0")])))
        if not reasons and not w1:
            reasons.append("worker 0 received nothing on port 0: %r" % w1)
        check("scrapes_under_traffic", reasons)
    finally:
        rc = fwd.stop()
        st = fwd.stats()
        check("traffic_stops_clean", [
            "exit %r" % rc if rc != 0 else "",
            "no stats" if st is None else "",
            "mbufs_in_use %r" % st.get("mbufs_in_use")
            if st and st.get("mbufs_in_use") != 0 else ""])


def checks_options(fwd_bin, root):
    """Bad --metrics values: exit 2 before any port starts."""
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    taken = busy.getsockname()[1]
    for name, val, why in [("no_port", "127.0.0.1", "is not ADDR:PORT"),
                           ("port_too_big", "127.0.0.1:70000",
                            "is not ADDR:PORT"),
                           ("not_numeric", "localhost:9100",
                            "not a numeric address"),
                           ("bad_address", "300.1.1.1:9100",
                            "not a numeric address"),
                           ("in_use", "127.0.0.1:%d" % taken, "in use")]:
        d = os.path.join(root, "opt_" + name)
        fwd = Fwd(fwd_bin, d, None, extra_ctl=["--ctl-socket", "none",
                                               "--metrics", val])
        try:
            rc = fwd.proc.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            rc = "still running"
        fwd.stop()
        err = fwd.stderr()
        out = open(os.path.join(d, "fwd.out")).read()
        # found before any port is set up (issue 22): no device
        # started and closed for nothing, DPDK's noise with it
        check("option_" + name, [
            "exit %r, want 2" % rc if rc != 2 else "",
            "" if why in err else "stderr %r" % err[-200:],
            "a port was set up" if "port 0:" in out else "",
            "DPDK's noise on stderr: %r" % err[-300:]
            if "Cannot close" in err else ""])
    busy.close()


def main():
    args = lsk.ctl_args(__doc__).parse_args()
    lsk.VERBOSE = args.v
    for tool in ("curl", "promtool", "dot"):
        if shutil.which(tool) is None:
            print("%s is missing (scripts/install-deps.sh installs it)" % tool)
            return 1
    fwd_bin, ctl_bin = os.path.abspath(args.fwd), os.path.abspath(args.ctl)
    root = tempfile.mkdtemp(prefix="lsk-metrics-")
    sock = os.path.join(root, "ctl.sock")
    frames = traffic()
    fwd = Fwd(fwd_bin, os.path.join(root, "main"), sock,
              extra_ctl=["--ctl-socket", sock, "--metrics", "127.0.0.1:0"],
              inputs={0: frames})
    ctl = Ctl(ctl_bin, sock)
    try:
        port = None
        if fwd.wait_ready():
            with open(os.path.join(root, "main", "fwd.out")) as f:
                m = re.search(r"metrics on 127\.0\.0\.1:(\d+)", f.read())
            port = int(m.group(1)) if m else None
        if port is None:
            check("start", "listack-fwd did not start: %s"
                  % fwd.stderr()[-400:])
        else:
            lsk.check_groups([
                ("scrape", lambda: checks_scrape(port, ctl, len(frames))),
                ("pipeline", lambda: checks_pipeline(ctl)),
                ("bad_requests", lambda: checks_bad_requests(port, ctl)),
                ("connections", lambda: checks_connections(port))],
                (OSError, ValueError, KeyError, subprocess.TimeoutExpired))
            st, _, _ = get_metrics(port)
            check("still_serving", "status %r" % st if st != 200 else "")
        rc = fwd.stop()
        st = fwd.stats()
        check("sigterm_stops_clean", [
            "exit %r" % rc if rc != 0 else "",
            "no stats" if st is None else "",
            "mbufs_in_use %r" % st.get("mbufs_in_use")
            if st and st.get("mbufs_in_use") != 0 else "",
            "sanitizer: %s" % fwd.stderr()[-300:]
            if "Sanitizer" in fwd.stderr() else ""])
        if port is not None:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=2)
                check("port_closed_at_exit", "still accepting")
            except OSError:
                check("port_closed_at_exit", [])
        checks_options(fwd_bin, root)
        checks_under_traffic(fwd_bin, ctl_bin, root)
    finally:
        fwd.kill()
    return lsk.finish(root, keep=args.v)


if __name__ == "__main__":
    sys.exit(main())
