#!/usr/bin/python3
"""config save, config reload and SIGHUP against a running listack-fwd.

    /usr/bin/python3 tests/integration/test_config_reload.py build/listack-fwd build/listack-ctl [-v]

listack-fwd runs on net_pcap ports (the fixture of lsk.py) with a control
socket in a private directory; a peer's ARP request at start leaves a
learnt neighbour. Checked: `config save` writes what `show config` shows,
atomically (no temporary file left), VLAN sub-interfaces without an
address included; `config reload` applies the difference only (a route
and a learnt neighbour survive, what the file drops goes, what
it adds comes); a bad file changes nothing and names FILE:LINE; SIGHUP
reloads and the process lives on, with one lcore or with a worker lcore
forwarding meanwhile by a route every reload keeps; after SIGTERM exit 0, mbufs_in_use ==
0, the socket file gone; `config save` with the router down leaves the
file byte for byte as it was. And at start: an empty or missing --config
is an error (exit 2) unless --allow-empty-config.

Output: `PASS name` / `FAIL name: reason` per check, then `N passed, N
failed`; exit status 1 if any failed.
"""

import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsk  # noqa: E402
from lsk import Ctl, Fwd, check  # noqa: E402

from scapy.layers.l2 import ARP, Ether  # noqa: E402

LEARNT_IP = "10.0.0.7"
LEARNT_MAC = "02:00:00:00:00:07"


def learnt_arp():
    """A request from a peer no static entry names: ARP learns it."""
    return bytes(Ether(dst=lsk.BCAST_MAC, src=LEARNT_MAC) /
                 ARP(op=1, hwsrc=LEARNT_MAC, psrc=LEARNT_IP,
                     pdst=lsk.PORT_IP[0]))


def ctl_in(ctl_bin, sock, cwd, *words):
    return subprocess.run([ctl_bin, "-s", sock] + list(words), cwd=cwd,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=lsk.CTL_WAIT)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def wait_for(fn, seconds=10):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if fn():
            return True
        time.sleep(0.1)
    return fn()


def checks_running(fwd_bin, ctl_bin, root):
    work = os.path.join(root, "run")
    sock = os.path.join(root, "ctl.sock")
    conf = os.path.join(work, "test.conf")
    fwd = Fwd(fwd_bin, work, sock, inputs={0: [learnt_arp()]})
    ctl = Ctl(ctl_bin, sock)
    try:
        if not fwd.wait_ready():
            check("start", "listack-fwd did not start: %s" % fwd.stderr())
            return
        check("neigh_learnt", "" if wait_for(
            lambda: LEARNT_IP in ctl.run("show", "neigh").stdout) else
            "no learnt neighbour %s" % LEARNT_IP)

        # bug 2: a VLAN whose last address went stays in show config
        ctl.run("address", "add", "10.5.0.1/24", "port", "0", "vlan", "100")
        ctl.run("address", "del", "10.5.0.1/24", "port", "0", "vlan", "100")
        shown = ctl.run("show", "config").stdout
        check("vlan_kept", "" if "port 0 vlan 100\n" in shown else
              "no 'port 0 vlan 100' in:\n%s" % shown)

        # save: to --config, and to a relative FILE (listack-ctl's cwd)
        r = ctl.run("config", "save")
        check("save_default", [
            "exit %d: %s" % (r.returncode, r.stderr) if r.returncode else "",
            "" if read(conf).decode() == shown else
            "test.conf is not show config:\n%s" % read(conf).decode(),
            "" if sorted(os.listdir(work)) == sorted(
                f for f in os.listdir(work) if ".conf." not in f) else
            "a temporary file was left: %s" % os.listdir(work)])
        r = ctl_in(ctl_bin, sock, work, "config", "save", "other.conf")
        other = os.path.join(work, "other.conf")
        check("save_relative", [
            "exit %d: %s" % (r.returncode, r.stderr) if r.returncode else "",
            "" if os.path.exists(other) and read(other) == read(conf) else
            "other.conf missing or not show config"])

        # reload: one route stays, one goes, one comes; a static
        # neighbour goes, a service comes
        text = shown.replace("neigh add 10.0.0.1 lladdr 02:00:00:00:00:01\n",
                             "")
        text = text.replace("route add 10.9.0.0/16 via 10.0.1.1\n",
                            "route add 10.9.0.0/16 via 10.0.1.1\n"
                            "route add 10.8.0.0/16 blackhole\n"
                            "udp listen 10.0.0.254:7 echo\n")
        ctl.run("route", "add", "10.6.0.0/16", "via", "10.0.1.1")
        with open(conf, "w") as f:
            f.write(text)
        r = ctl.run("config", "reload")
        after = ctl.run("show", "config").stdout
        neigh = ctl.run("show", "neigh").stdout
        routes = ctl.run("show", "routes").stdout
        check("reload_difference", [
            "exit %d: %s" % (r.returncode, r.stderr) if r.returncode else "",
            "" if "2 added, 2 removed, 0 changed" in r.stdout else
            "answer: %r" % r.stdout,
            "" if sorted(after.splitlines()) == sorted(text.splitlines())
            else "show config after:\n%s\nwanted:\n%s" % (after, text),
            "" if LEARNT_IP in neigh else "learnt neighbour gone:\n%s" % neigh,
            "" if "10.0.0.1 " not in neigh else "static 10.0.0.1 stayed",
            "" if "10.9.0.0/16" in routes and "10.6.0.0/16" not in routes
            and "10.8.0.0/16" in routes else "routes:\n%s" % routes])

        # a bad file: FILE:LINE, nothing changed
        with open(conf, "w") as f:
            f.write("address add 10.0.0.254/24 port 0\n"
                    "route add 10.8.0.0/16 blackhole\n"
                    "route add 10.7.0.0/16 via 10.99.0.1\n")
        r = ctl.run("config", "reload")
        check("reload_bad_file", [
            "exit %d, not 1" % r.returncode if r.returncode != 1 else "",
            "" if "test.conf:3: " in r.stderr else "stderr: %r" % r.stderr,
            "" if ctl.run("show", "config").stdout == after else
            "show config changed"])

        # SIGHUP: reloads, logs, lives on; a bad file is logged too
        fwd.proc.send_signal(signal.SIGHUP)
        logged = wait_for(lambda: "reload refused" in fwd.stderr())
        # a new MTU too: the device's change waits for the worker's pass,
        # which the main lcore makes (one lcore) while it reloads
        with open(conf, "w") as f:
            f.write(text.replace("port 1 mtu 1500", "port 1 mtu 1400") +
                    "route add 10.7.0.0/16 blackhole\n")
        fwd.proc.send_signal(signal.SIGHUP)
        out_path = os.path.join(work, "fwd.out")
        reloaded = wait_for(lambda: "SIGHUP: reloaded" in
                            read(out_path).decode())
        routes = ctl.run("show", "routes").stdout
        check("sighup", [
            "" if logged else "a bad file's SIGHUP not logged",
            "" if reloaded else "no 'SIGHUP: reloaded' line",
            "" if fwd.proc.poll() is None else
            "listack-fwd exited %r" % fwd.proc.returncode,
            "" if "10.7.0.0/16" in routes else "no 10.7.0.0/16 after it",
            "" if "port 1 mtu 1400" in ctl.run("show", "config").stdout
            else "port 1's MTU not 1400"])
        r = ctl.run("config", "reload", json_out=True)
        try:
            answer = json.loads(r.stdout)
        except ValueError as e:
            answer = {"error": str(e)}
        check("reload_json", "" if answer.get("added") == 0 and
              answer.get("commands") == [] else "answer: %r" % r.stdout)
    finally:
        rc = fwd.stop()
    st = fwd.stats()
    check("stop_clean", lsk.stop_reasons(rc, st) +
          ["socket file left" if os.path.exists(sock) else ""])

    # the router down: the file stays byte for byte
    before = read(conf)
    r = ctl_in(ctl_bin, sock, work, "config", "save", "test.conf")
    check("save_router_down", [
        "exit 0" if r.returncode == 0 else "",
        "" if read(conf) == before else "test.conf changed"])


def checks_worker_lcore(fwd_bin, ctl_bin, root):
    """SIGHUP with a worker lcore of its own (the main lcore only waits),
    a port's MTU changed with it, while the worker forwards replayed
    frames by a route every reload keeps: none meets a missing route."""
    work = os.path.join(root, "lcores")
    sock = os.path.join(root, "ctl2.sock")
    frames = [lsk.frame(dst="10.9.%d.1" % i, tag="rl%d" % i)
              for i in range(8)]
    fwd = Fwd(fwd_bin, work, sock, lcores="0,1", inputs={0: frames},
              infinite=True)
    ctl = Ctl(ctl_bin, sock)
    out_path = os.path.join(work, "fwd.out")
    try:
        if not fwd.wait_ready():
            check("sighup_worker_lcore", "did not start: %s" % fwd.stderr())
            return
        reasons = []
        for i in range(6):
            extra = "route add 10.7.0.0/16 blackhole\n" if i % 2 else ""
            lsk.write_config(os.path.join(work, "test.conf"),
                             lsk.fixture_conf(p1_mtu=1400 if i % 2 else
                                              1500) + extra)
            fwd.proc.send_signal(signal.SIGHUP)
            if not wait_for(lambda: read(out_path).decode().count(
                    "SIGHUP: reloaded") == i + 1):
                reasons.append("reload %d: no 'SIGHUP: reloaded' line: %s"
                               % (i, fwd.stderr()))
                break
        shown = ctl.run("show", "config").stdout
        reasons.append("" if "10.7.0.0/16" in shown and "port 1 mtu 1400"
                       in shown else "show config:\n%s" % shown)
        check("sighup_worker_lcore", reasons)
    finally:
        rc = fwd.stop()
    st = fwd.stats()
    check("stop_clean_worker_lcore", lsk.stop_reasons(rc, st) + [
        "nothing forwarded" if st and not st["ip"]["ForwDatagrams"] else "",
        "InNoRoutes %r: the kept route went during a reload"
        % st["ip"]["InNoRoutes"] if st and st["ip"]["InNoRoutes"] else ""])


def checks_start(fwd_bin, ctl_bin, root):
    """An empty or missing --config: exit 2 with a line that says so,
    unless --allow-empty-config."""
    work = os.path.join(root, "start")
    cases = [
        ("empty_config_refused", "# nothing\n", [], 2, "no configuration"),
        ("missing_config_refused", None, [], 2, "allow-empty-config"),
        ("empty_config_allowed", "\n", ["--allow-empty-config"], 0, ""),
        ("missing_config_allowed", None, ["--allow-empty-config"], 0, ""),
    ]
    for name, text, extra, want, says in cases:
        path = os.path.join(work, "e.conf")
        os.makedirs(work, exist_ok=True)
        if os.path.exists(path):
            os.unlink(path)
        if text is not None:
            lsk.write_config(path, text)
        res = lsk.run_fwd(fwd_bin, work, None, app_args=[
            "--config", "e.conf", "--stats-json", "stats.json",
            "--idle-exit", "200", "--ctl-socket", "none"] + extra)
        check(name, [
            "exit %r, not %d: %s" % (res.rc, want, res.stderr_tail())
            if res.rc != want else "",
            "stderr lacks %r: %s" % (says, res.stderr_tail())
            if says and says not in res.stderr else "",
            "mbufs_in_use %r" % (res.stats or {}).get("mbufs_in_use")
            if want == 0 and (res.stats or {}).get("mbufs_in_use") != 0
            else ""])


def main():
    args = lsk.ctl_args(__doc__).parse_args()
    lsk.VERBOSE = args.v
    return lsk.run_in_workdir(args, "lsk-reload-",
                              [checks_running, checks_worker_lcore,
                               checks_start])


if __name__ == "__main__":
    sys.exit(main())
