#!/usr/bin/python3
"""scripts/netns-demo.sh as an operator runs it, without a terminal
(--batch): two Linux hosts in namespaces with listack-fwd (af_packet on
their veths) as their router.

    /usr/bin/python3 tests/netns/test_netns_demo.py SOURCE_ROOT BUILD_DIR

- a run killed (SIGKILL) once listack-fwd is up leaves listack-fwd, the
  namespaces and veths behind: the next run stops and removes them first;
- the hosts ping their gateways, h1 pings h2 through listack-fwd 3/3,
  h2 echoes h1's UDP datagram back;
- the views are printed: show interfaces (ports named lan and wan),
  show routes (both subnets), show neigh (both hosts, learnt by ARP),
  show stats (ForwDatagrams);
- listack-fwd stops on SIGTERM with mbufs_in_use 0, exit status 0;
- afterwards no namespace, veth, pid file or listack-fwd of the demo
  is left;
- not root (as nobody): it says it needs root and changes nothing.

Its own LSK_DEMO_PREFIX, so that it does not meet a demo an operator
runs. Not root, or no `ip netns`: `SKIP netns-demo: reason`, exit 77.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

PREFIX = "lskt%d" % (os.getpid() % 100000)
NS = (PREFIX + "-h1", PREFIX + "-h2")
VETH = (PREFIX + "-lan", PREFIX + "-wan")
PIDFILE = "/run/%s-netns-demo.pid" % PREFIX

results = []


def check(name, ok, why=""):
    results.append(ok)
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + why),
          flush=True)


def sh(*argv):
    return subprocess.run(list(argv), capture_output=True, text=True,
                          timeout=60)


def namespaces():
    return sh("ip", "netns", "list").stdout


def link_exists(name):
    return sh("ip", "link", "show", name).returncode == 0


def demo_processes():
    """pids of processes whose command line names the demo's file prefix."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if ("--file-prefix %s-netns-demo " % PREFIX) in cmd:
            found.append(int(pid))
    return found


def section(out, title):
    """The text under `== title ==` up to the next `== ` line."""
    m = re.search(r"^== %s ==\n(.*?)(?=^== |\Z)" % re.escape(title), out,
                  re.M | re.S)
    return m.group(1) if m else ""


def killed_run(script, build, env):
    """Start the demo and SIGKILL it once listack-fwd is up: its
    listack-fwd, namespaces and veths stay. The leftover listack-fwd's pid,
    or None."""
    p = subprocess.Popen(["sh", script, "--batch", "--build", build],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, env=env)
    pid = None
    timer = threading.Timer(60, p.kill)
    timer.start()
    for line in p.stdout:
        m = re.match(r"listack-fwd is up \(pid (\d+)\)", line)
        if m:
            pid = int(m.group(1))
            p.kill()
            break
    timer.cancel()
    p.kill()
    p.wait()
    p.stdout.close()
    print("killed run: listack-fwd %s left" % pid)
    return pid


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    src, build = sys.argv[1], sys.argv[2]
    script = os.path.join(src, "scripts", "netns-demo.sh")
    if os.geteuid() != 0:
        print("SKIP netns-demo: not root")
        return 77
    if shutil.which("ip") is None or shutil.which("ethtool") is None:
        print("SKIP netns-demo: no ip or ethtool")
        return 77
    if sh("ip", "netns", "add", NS[0]).returncode != 0:
        print("SKIP netns-demo: cannot make a network namespace")
        return 77
    sh("ip", "netns", "del", NS[0])
    env = dict(os.environ, LSK_DEMO_PREFIX=PREFIX)
    left_pid = killed_run(script, build, env)
    try:
        r = subprocess.run(["sh", script, "--batch", "--build", build],
                           stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=240, env=env)
        out, err = r.stdout, r.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else ""
        err = "timed out after 240 s"
        r = None
    print(out)
    if err:
        print(err, file=sys.stderr)

    check("a killed run's listack-fwd is stopped first",
          left_pid is not None and
          ("stopping listack-fwd %d left by an earlier run" % left_pid) in out
          and not os.path.exists("/proc/%d" % left_pid),
          "leftover pid %r" % (left_pid,))

    check("exit status 0", r is not None and r.returncode == 0,
          "exit %s" % (r.returncode if r is not None else "(timeout)"))
    gw = section(out, "each host pings its gateway, listack-fwd")
    check("the hosts ping their gateways",
          len(re.findall(r"1 packets transmitted, 1 received", gw)) == 2,
          gw.strip()[-300:])
    ping = section(out, "%s pings %s through listack-fwd" % NS)
    check("h1 pings h2 through listack-fwd 3/3",
          "3 packets transmitted, 3 received, 0% packet loss" in ping,
          ping.strip()[-300:])
    udp = section(out, "UDP: %s sends a datagram to %s port 7777, %s "
                  "echoes it back" % (NS[0], NS[1], NS[1]))
    check("h2 gets h1's datagram and sends it back",
          "got b'hello through listack' from 10.1.0.2:" in udp, udp)
    check("h1 gets its datagram back",
          "b'hello through listack' echoed back by 10.2.0.2:7777\n" in udp,
          udp)
    ifs = section(out, "listack-ctl show interfaces")
    check("show interfaces: the ports lan and wan, af_packet",
          re.search(r"\blan\b", ifs) is not None and
          re.search(r"\bwan\b", ifs) is not None and
          "net_af_packet" in ifs, ifs[:400])
    routes = section(out, "listack-ctl show routes")
    check("show routes: both subnets",
          "10.1.0.0/24" in routes and "10.2.0.0/24" in routes, routes)
    neigh = section(out, "listack-ctl show neigh")
    check("show neigh: both hosts", "10.1.0.2" in neigh and
          "10.2.0.2" in neigh, neigh)
    stats = section(out, "listack-ctl show stats")
    check("show stats: ForwDatagrams counted",
          re.search(r"ForwDatagrams\s+[1-9]", stats) is not None,
          stats[:400])
    stop = section(out, "listack-fwd stopped (SIGTERM): exit status 0")
    check("listack-fwd stops on SIGTERM with mbufs_in_use 0",
          "mbufs_in_use 0\n" in stop, out.strip()[-400:])

    left = [n for n in NS if re.search(r"^%s\b" % n, namespaces(), re.M)]
    left += [v for v in VETH if link_exists(v)]
    left += ["listack-fwd %d" % p for p in demo_processes()]
    left += [PIDFILE] if os.path.exists(PIDFILE) else []
    left += [d for d in ("/var/run/dpdk/%s-netns-demo" % PREFIX,)
             if os.path.exists(d)]
    check("nothing of the demo is left", not left, ", ".join(left))

    # not root: it says so, makes nothing, builds nothing (a copy of the
    # script where nobody can read it: the tree may be root's alone)
    copy = tempfile.mkdtemp(prefix="lsk-netns-demo-test-")
    os.chmod(copy, 0o755)
    os.mkdir(os.path.join(copy, "scripts"), 0o755)
    shutil.copy(script, os.path.join(copy, "scripts"))
    r2 = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534",
                         "--clear-groups", "sh",
                         os.path.join(copy, "scripts", "netns-demo.sh"),
                         "--batch", "--build", build],
                        stdin=subprocess.DEVNULL, cwd=copy,
                        capture_output=True, text=True, timeout=60, env=env)
    shutil.rmtree(copy, ignore_errors=True)
    check("not root: refused, says it needs root",
          r2.returncode == 1 and "needs root" in r2.stderr and
          not re.search(r"^%s\b" % NS[0], namespaces(), re.M),
          "exit %d: %s" % (r2.returncode, r2.stderr.strip()))

    # whatever failed above, leave nothing behind
    for n in NS:
        sh("ip", "netns", "del", n)
    for v in VETH:
        sh("ip", "link", "del", v)
    for p in demo_processes():
        os.kill(p, 9)

    failed = results.count(False)
    print("%d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
