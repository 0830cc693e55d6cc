#!/usr/bin/python3
"""bench/pktgen without pktgen: run.sh's arguments, the files it writes,
fwd.lua against a stand-in for pktgen's Lua API (when lua5.3 is
installed), and counters.py's checks on counters that agree and on ones
that do not.

    /usr/bin/python3 tests/bench/test_pktgen.py SOURCE_DIR

Output: `PASS name` / `FAIL name: reason`; exit 1 if any failed.
"""

import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SRC = sys.argv[1] if len(sys.argv) > 1 else "."
RUN = os.path.join(SRC, "bench", "pktgen", "run.sh")
COUNTERS = os.path.join(SRC, "bench", "pktgen", "counters.py")
failed = []


def check(name, why):
    if why:
        failed.append(name)
        print("FAIL %s: %s" % (name, "; ".join(why)))
    else:
        print("PASS %s" % name)


def run(args, **kw):
    return subprocess.run(["sh", RUN] + args, capture_output=True, text=True,
                          timeout=60, **kw)


def test_bad_args(work):
    why = []
    cases = [
        (["--size", "63", "--dry-run"], "not in 64..1518"),
        (["--size", "1519", "--dry-run"], "not in 64..1518"),
        (["--size", "6x4", "--dry-run"], "is not a number"),
        (["--rate", "0", "--dry-run"], "not in 1..100"),
        (["--seconds", "0", "--dry-run"], "not in 1..3600"),
        (["--dut", "l3fwd", "--dry-run"], "--dut is fwd or bench"),
        (["--mode", "fast", "--dry-run"], "--mode is list or single"),
        (["--bogus"], "unknown option --bogus"),
        (["--size"], "--size needs a value"),
        ([], "--pktgen PATH is required"),
    ]
    for args, msg in cases:
        r = run(["--out", os.path.join(work, "bad")] + args)
        if r.returncode != 2 or msg not in r.stderr:
            why.append("%s: exit %d, stderr %r" % (" ".join(args),
                                                   r.returncode, r.stderr))
    r = run(["--pktgen", os.path.join(work, "none"), "--out",
             os.path.join(work, "bad")])
    if r.returncode != 1 or "no pktgen at" not in r.stderr:
        why.append("a missing pktgen: exit %d, %r" % (r.returncode, r.stderr))
    check("run.sh refuses bad arguments", why)


def lua_table(text):
    return dict(re.findall(r"(\w+) = (\"[^\"]*\"|\d+)", text))


def test_dry_run(work):
    why = []
    out = os.path.join(work, "dry")
    r = run(["--dry-run", "--size", "512", "--seconds", "3", "--rate", "50",
             "--mode", "single", "--pktgen", "/opt/x/pktgen", "--out", out])
    if r.returncode != 0:
        check("run.sh --dry-run", ["exit %d: %s" % (r.returncode, r.stderr)])
        return None
    with open(os.path.join(out, "run.lua")) as f:
        lua = f.read()
    t = lua_table(lua)
    want = {"size": "512", "seconds": "3", "rate": "50",
            "out": '"%s"' % os.path.realpath(out)}
    for k, v in want.items():
        if t.get(k) != v:
            why.append("run.lua %s = %s, not %s" % (k, t.get(k), v))
    m = re.search(r'dofile\("([^"]+)"\)', lua)
    if not m or not os.path.isfile(m.group(1)):
        why.append("run.lua does not run an existing fwd.lua")
    with open(os.path.join(out, "commands.txt")) as f:
        gen, dut = f.read().splitlines()
    if not gen.startswith("taskset -c 0 /opt/x/pktgen "):
        why.append("pktgen is not the generator on CPU 0: %s" % gen)
    if not dut.startswith("taskset -c 1 ") or "listack-fwd" not in dut:
        why.append("listack-fwd is not the device on CPU 1: %s" % dut)
    if "--mode single" not in dut or "--stats-json" not in dut:
        why.append("listack-fwd lacks --mode single or --stats-json")
    if "-f %s/run.lua" % os.path.realpath(out) not in gen:
        why.append("pktgen does not run run.lua")
    gs = re.findall(r"net_memif(\d),role=server,socket=([^,]+),.*?mac=([0-9a-f:]+)", gen)
    ds = re.findall(r"net_memif(\d),role=client,socket=([^,]+),.*?mac=([0-9a-f:]+)", dut)
    if len(gs) != 2 or len(ds) != 2:
        why.append("not two memif servers and two clients")
    else:
        if [g[1] for g in gs] != [d[1] for d in ds]:
            why.append("the sockets differ: %s %s" % (gs, ds))
        # pktgen sends to the device's port 0; the device's neighbour is
        # pktgen's port 1 and its route covers pktgen's destination
        if t.get("dst_mac") != '"%s"' % ds[0][2]:
            why.append("pktgen's dst_mac %s is not the device's port 0 %s"
                       % (t.get("dst_mac"), ds[0][2]))
        with open(os.path.join(out, "dut.conf")) as f:
            conf = f.read()
        if "lladdr %s" % gs[1][2] not in conf:
            why.append("dut.conf's neighbour is not pktgen's port 1")
        if "port 0 mtu 1500 mac %s" % ds[0][2] not in conf:
            why.append("dut.conf's port 0 MAC is not the devarg's")
        if t.get("dst_ip") != '"198.18.1.1"' or \
                "route add 198.18.1.0/24" not in conf:
            why.append("the destination is not routed by dut.conf")
    check("run.sh --dry-run writes run.lua, dut.conf and the commands", why)
    return out


def test_dry_run_bench(work):
    """--dut bench: listack-bench --feed ports on the same memif clients,
    two lcores on CPU 1, the fwd scenario's variant --mode, --stats-json for
    counters.py, its measured interval inside pktgen's window."""
    why = []
    out = os.path.join(work, "dry-bench")
    r = run(["--dry-run", "--dut", "bench", "--seconds", "4", "--mode",
             "list", "--build", "/b", "--pktgen", "/opt/x/pktgen", "--out",
             out])
    if r.returncode != 0:
        check("run.sh --dut bench --dry-run",
              ["exit %d: %s" % (r.returncode, r.stderr)])
        return
    gen, dut = r.stdout.splitlines()
    if not dut.startswith("taskset -c 1 /b/bench/listack-bench "
                          "--lcores (0,1)@1 "):
        why.append("listack-bench is not the device on CPU 1: %s" % dut)
    for want in ("--scenario fwd", "--feed ports", "--variant list",
                 "--config %s/dut.conf" % os.path.realpath(out),
                 "--warmup 1", "--seconds 4",
                 "--stats-json %s/stats.json" % os.path.realpath(out)):
        if want not in dut:
            why.append("no '%s' in %s" % (want, dut))
    ds = re.findall(r"net_memif(\d),role=client,socket=([^,]+),.*?mac=([0-9a-f:]+)", dut)
    gs = re.findall(r"net_memif(\d),role=server,socket=([^,]+),.*?mac=([0-9a-f:]+)", gen)
    if len(ds) != 2 or [d[1] for d in ds] != [g[1] for g in gs]:
        why.append("not pktgen's two memif sockets: %s %s" % (gs, ds))
    with open(os.path.join(out, "run.lua")) as f:
        t = lua_table(f.read())
    # pktgen's warm-up (ms) is longer than the bench's (1 s): the bench's
    # interval ends before pktgen's window does
    if int(t.get("warmup", 0)) <= 1000:
        why.append("pktgen's warm-up %s ms is not longer than the bench's"
                   % t.get("warmup"))
    check("run.sh --dut bench --dry-run: listack-bench --feed ports", why)


# a stand-in for pktgen's Lua API: counters that move by `step` a call,
# port 1 receiving what port 0 sent
MOCK = r'''
local calls, n = {}, 0
local function st(kind)
	n = n + 1
	local v = (kind == "rate") and 1000 or n * 1000
	return { [0] = { opackets = v, ipackets = 0, imissed = 0, ierrors = 0,
			 oerrors = 0, rx_nombuf = 0 },
		 [1] = { opackets = 0, ipackets = v, imissed = 0, ierrors = 0,
			 oerrors = 0, rx_nombuf = 0 }, n = 2 }
end
pktgen = {
	linkState = function(p) return { [tonumber(p)] = "<UP-10000-FD>" } end,
	portStats = function(p, kind) return st(kind) end,
	delay = function(ms) end, clr = function() end,
	set = function(p, k, v) calls[#calls + 1] = k .. "=" .. v end,
	set_proto = function(p, v) calls[#calls + 1] = "proto=" .. v end,
	set_mac = function(p, w, v) calls[#calls + 1] = w .. "mac=" .. v end,
	set_ipaddr = function(p, w, v) calls[#calls + 1] = w .. "ip=" .. v end,
	start = function(p) calls[#calls + 1] = "start=" .. p end,
	stop = function(p) calls[#calls + 1] = "stop=" .. p end,
	quit = function() print(table.concat(calls, " ")) end,
}
'''


def test_lua(dry):
    lua = shutil.which("lua5.3")
    if lua is None or dry is None:
        print("SKIP fwd.lua against a stand-in pktgen (no lua5.3)")
        return
    why = []
    with open(os.path.join(dry, "mock.lua"), "w") as f:
        f.write(MOCK)
    # run.sh's ack stands in for counters.py watch's
    open(os.path.join(dry, "ack"), "w").close()
    r = subprocess.run([lua, "-e", "dofile('%s/mock.lua'); dofile('%s/run.lua')"
                        % (dry, dry)], capture_output=True, text=True,
                       timeout=60)
    if r.returncode != 0:
        why.append("lua exit %d: %s" % (r.returncode, r.stderr))
    calls = r.stdout.split()
    for c in ("size=512", "rate=50", "count=0", "proto=udp",
              "dstmac=02:00:00:00:00:01", "srcip=10.0.0.2/24",
              "dstip=198.18.1.1", "start=0", "stop=0"):
        if c not in calls:
            why.append("no %s among %s" % (c, calls))
    if "start=0" in calls and "stop=0" in calls and \
            calls.index("start=0") > calls.index("stop=0"):
        why.append("stop before start")
    for name in ("ports-started", "links-up", "window-start", "window-end", "stopped"):
        if not os.path.exists(os.path.join(dry, name)):
            why.append("no %s" % name)
    try:
        with open(os.path.join(dry, "result.json")) as f:
            g = json.load(f)
        if len(g["tx_per_s"]) != 3 or g["size"] != 512 or \
                g["final"][0]["opackets"] <= g["start"][0]["opackets"]:
            why.append("result.json is not the run's: %s" % g)
    except (OSError, ValueError, KeyError) as e:
        why.append("result.json: %s" % e)
    check("fwd.lua drives a stand-in pktgen and writes its files", why)


def agreeing():
    sent = 1000000
    g = {"seconds": 3, "size": 64, "rate": 100,
         "tx_per_s": [9000000, 9100000, 9050000],
         "rx_per_s": [8990000, 9100000, 9050000],
         "start": [{"opackets": 100}, {"ipackets": 90}],
         "end": [{"opackets": 900100}, {"ipackets": 900000}],
         "final": [{"opackets": sent, "ipackets": 0, "imissed": 0,
                    "ierrors": 0, "rx_nombuf": 0},
                   {"opackets": 0, "ipackets": sent - 7, "imissed": 2,
                    "ierrors": 0, "rx_nombuf": 0}]}
    port = lambda i, o, m=0: {"ipackets": i, "opackets": o, "imissed": m,
                              "ierrors": 0}
    d = {"window-start": {"t": 10.0, "ports": [port(100, 0), port(0, 90)],
                          "gen": [port(0, 10), port(0, 0)]},
         "window-end": {"t": 13.0, "ports": [port(900100, 0),
                                             port(0, 900000)],
                        "gen": [port(0, 900010), port(899990, 0)]},
         "stopped": {"t": 15.0, "ports": [port(sent - 1, 0, 1),
                                          port(0, sent - 5)]}}
    # 1 missed at the device's RX, 3 dropped in its stack (no route),
    # 1 at its TX, 2 at pktgen's RX: 7 lost
    s = {"ip": {"InReceives": sent - 1, "ForwDatagrams": sent - 4,
                "InNoRoutes": 3, "InDiscards": 0},
         "eth": {"InFrames": sent - 1, "NotForUs": 0},
         "ports": [{"id": 0, "rx": sent - 1, "tx": 0, "rx_dropped": 1,
                    "tx_dropped": 0},
                   {"id": 1, "rx": 0, "tx": sent - 5, "rx_dropped": 0,
                    "tx_dropped": 1}],
         "mbufs_in_use": 0}
    return g, d, s


def report(work, name, g, d, s):
    out = os.path.join(work, name)
    os.makedirs(out)
    for f, v in (("result.json", g), ("device.json", d), ("stats.json", s)):
        with open(os.path.join(out, f), "w") as fh:
            json.dump(v, fh)
    return subprocess.run([sys.executable, COUNTERS, "report", out],
                          capture_output=True, text=True, timeout=60)


def test_report(work):
    g, d, s = agreeing()
    r = report(work, "agree", g, d, s)
    why = []
    if r.returncode != 0 or "FAIL" in r.stdout:
        why.append("exit %d:\n%s%s" % (r.returncode, r.stdout, r.stderr))
    if "ip.InNoRoutes 3" not in r.stdout:
        why.append("the stack's drop reason is not named")
    if not re.search(r"\| pktgen \(its own.*\| 9\.05 \| 9\.05 \|", r.stdout) or \
            not re.search(r"\| pktgen \(ethdev.*\| 0\.30 \| 0\.30 \|", r.stdout) or \
            not re.search(r"\| listack-fwd .*\| 0\.30 \| 0\.30 \|", r.stdout):
        why.append("the rates are not both sides':\n" + r.stdout)
    check("counters.py report: counters that agree pass", why)

    def broken(label, change):
        g2, d2, s2 = copy.deepcopy((g, d, s))
        change(g2, d2, s2)
        return label, g2, d2, s2

    cases = [
        broken("the device saw one frame more than pktgen sent",
               lambda g, d, s: d["stopped"]["ports"][0].update(
                   ipackets=d["stopped"]["ports"][0]["ipackets"] + 1)),
        broken("pktgen received one frame the device did not send",
               lambda g, d, s: g["final"][1].update(
                   ipackets=g["final"][1]["ipackets"] + 1)),
        broken("listack-fwd's own rx differs from its ethdev's",
               lambda g, d, s: s["ports"][0].update(rx=s["ports"][0]["rx"] - 1)),
        broken("a leaked mbuf",
               lambda g, d, s: s.update(mbufs_in_use=1)),
        broken("nothing sent",
               lambda g, d, s: [g["final"][0].update(opackets=0),
                                g["final"][1].update(ipackets=0, imissed=0),
                                d["stopped"]["ports"][0].update(ipackets=0, imissed=0),
                                d["stopped"]["ports"][1].update(opackets=0),
                                s["ports"][0].update(rx=0),
                                s["ports"][1].update(tx=0, tx_dropped=0),
                                s["ip"].update(ForwDatagrams=0)]),
    ]
    why = []
    for i, (label, g2, d2, s2) in enumerate(cases):
        r = report(work, "bad%d" % i, g2, d2, s2)
        if r.returncode != 1 or "FAIL" not in r.stdout:
            why.append("%s: exit %d" % (label, r.returncode))
    s2 = copy.deepcopy(s)
    s2["ethdev"] = [{"ipackets": d["stopped"]["ports"][0]["ipackets"]},
                    {"opackets": d["stopped"]["ports"][1]["opackets"]}]
    out = os.path.join(work, "bench-agree")
    os.makedirs(out)
    for f, v in (("result.json", g), ("device.json", d), ("stats.json", s2)):
        with open(os.path.join(out, f), "w") as fh:
            json.dump(v, fh)
    r = subprocess.run([sys.executable, COUNTERS, "report", out,
                        "listack-bench"], capture_output=True, text=True,
                       timeout=60)
    if r.returncode != 0 or "| listack-bench (ethdev" not in r.stdout or \
            "ok   device port 1 opackets at its exit" not in r.stdout:
        why.append("listack-bench's agreeing counters: exit %d\n%s"
                   % (r.returncode, r.stdout))
    s2["ethdev"][1]["opackets"] += 1
    with open(os.path.join(out, "stats.json"), "w") as fh:
        json.dump(s2, fh)
    r = subprocess.run([sys.executable, COUNTERS, "report", out,
                        "listack-bench"], capture_output=True, text=True,
                       timeout=60)
    if r.returncode != 1 or "FAIL device port 1 opackets at its exit" \
            not in r.stdout:
        why.append("listack-bench's ethdev counter at exit that moved "
                   "after the stop: exit %d" % r.returncode)
    g2 = dict(g, error="links not up after 60000 ms")
    r = report(work, "error", g2, d, s)
    if r.returncode != 1 or "links not up" not in r.stdout:
        why.append("pktgen's error is not reported")
    check("counters.py report: counters that disagree fail", why)


def main():
    work = tempfile.mkdtemp(prefix="lsk-test-pktgen.")
    try:
        test_bad_args(work)
        dry = test_dry_run(work)
        test_dry_run_bench(work)
        test_lua(dry)
        test_report(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
