# SPDX-License-Identifier: BSD-3-Clause
"""The bench tests' generator and device under test over memif: the
generator (memif servers, CPU 0) starts first, the device (memif clients,
CPU 1) once the generator has its sockets and waits for the links; the
device stops first, while the generator lingers (a memif client whose
server goes away under it may fault in the PMD), then the generator."""
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
