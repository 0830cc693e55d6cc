# SPDX-License-Identifier: BSD-3-Clause
"""The bench tests' generator and device under test over memif: the
generator (memif servers, CPU 0) starts first, the device (memif clients,
CPU 1) once the generator has its sockets and waits for the links; the
device stops first, while the generator lingers (a memif client whose
server goes away under it may fault in the PMD), then the generator."""
import json
import os
import signal
import subprocess
import time

WAIT = 120


def eal(prefix, lcore, role, base, mem=256):
    """EAL options of one side: no hugepages, its own file prefix, one
    lcore, two memif ports on sockets base-0.sock and base-1.sock."""
    return ["--no-huge", "--no-pci", "-m", str(mem), "--file-prefix", prefix,
            "--log-level=*:warning", "-l", str(lcore),
            "--vdev", "net_memif0,role=%s,socket=%s-0.sock" % (role, base),
            "--vdev", "net_memif1,role=%s,socket=%s-1.sock" % (role, base)]


def env():
    e = dict(os.environ)
    e.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=1")
    e.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    return e


def stop(proc, sig=signal.SIGTERM):
    """The exit status, or why there is none."""
    if proc.poll() is None:
        proc.send_signal(sig)
    try:
        return proc.wait(timeout=WAIT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        return "killed after SIGTERM timed out"


def _wait_for(proc, out, text, also=lambda: True):
    end = time.monotonic() + WAIT
    while proc.poll() is None and time.monotonic() < end:
        out.seek(0)
        if text in out.read() and also():
            return True
        time.sleep(0.05)
    return False


def run(work, name, gen_cmd, dev_cmd, before_device=None, ready=None):
    """Run the generator, then the device, until the generator is done.
    before_device: called once the generator waits for the links (e.g. to
    edit the configuration it wrote); ready: a further condition for
    starting the device. Returns (why, gen_rc, dev_rc, [gen log, device
    log]); why is non-empty when the generator did not start."""
    gen_out = open(os.path.join(work, name + "-gen.out"), "w+")
    dev_out = open(os.path.join(work, name + "-dut.out"), "w+")
    e = env()
    gen = subprocess.Popen(gen_cmd, stdout=gen_out, stderr=subprocess.STDOUT,
                           env=e, start_new_session=True)
    if not _wait_for(gen, gen_out, "waiting for the link",
                     ready or (lambda: True)):
        rc = stop(gen)
        gen_out.seek(0)
        return (["the generator did not start (exit %s)" % rc], rc, None,
                [gen_out.read(), ""])
    if before_device:
        before_device()
    dev = subprocess.Popen(dev_cmd, stdout=dev_out, stderr=subprocess.STDOUT,
                           env=e, start_new_session=True)
    _wait_for(gen, gen_out, "generator: done")
    dev_rc = stop(dev)
    gen_rc = stop(gen)
    logs = []
    for f in (gen_out, dev_out):
        f.seek(0)
        logs.append(f.read())
        f.close()
    return [], gen_rc, dev_rc, logs


def results(gen_json, dev_json, why):
    """The generator's first trial and the device's --stats-json, or None
    (why then says what was missing)."""
    try:
        with open(gen_json) as f:
            g = json.load(f)["trials"][0]
        with open(dev_json) as f:
            return g, json.load(f)
    except (OSError, ValueError, KeyError, IndexError) as e:
        why.append("no results: %s" % e)
        return None


def case(bench, work, name, what, gen_args):
    """One case's files and its generator's command (memif servers on
    CPU 0, /tmp/lsk-WHAT-PID-NAME-0.sock and -1.sock; its --dut-config,
    --json; --linger and --drain for genpair.run): a dict of tag, base,
    conf, gen_json, stats (for the device's --stats-json), gen_cmd."""
    c = {"tag": "%d-%s" % (os.getpid(), name)}
    c["base"] = "/tmp/lsk-%s-%s" % (what, c["tag"])
    for k, suffix in (("conf", ".conf"), ("gen_json", "-gen.json"),
                      ("stats", "-stats.json")):
        c[k] = os.path.join(work, name + suffix)
    c["gen_cmd"] = ([bench] + eal("lsk-gen-" + c["tag"], 0, "server",
                                  c["base"]) +
                    ["--", "--generate", "--linger", "60", "--drain", "10",
                     "--dut-config", c["conf"], "--json", c["gen_json"]] +
                    gen_args)
    return c
