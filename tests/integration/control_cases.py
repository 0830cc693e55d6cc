"""listack-fwd's command line, config file and start-up, as an operator
meets them (issue 10, finding 10): what is not a config file, lines that
make no sense for a router (our own address as a gateway or neighbour, a
broadcast as an address), --mbufs, and a signal while listack-fwd starts.

test_pcap_config.py registers these cases (register(module)); they run
with its -k and report as its own.
"""

import os
import re
import signal
import struct
import subprocess
import time

import lsk

# ======================================================================
# Runs this file needs that lsk.run_fwd does not give: extra --vdev
# arguments, a signal at a chosen moment.


def _prepare(workdir, conf_text, inputs, nports=2):
    os.makedirs(workdir, exist_ok=True)
    if conf_text is not None:
        lsk.write_config(os.path.join(workdir, "test.conf"), conf_text)
    for p in range(nports):
        lsk.write_pcap(os.path.join(workdir, "in%d.pcap" % p),
                       inputs.get(p, []))
    stats = os.path.join(workdir, "stats.json")
    if os.path.exists(stats):
        os.unlink(stats)
    return stats


def _status(pid):
    """/proc/PID/status as a dict, {} once the process is gone."""
    try:
        with open("/proc/%d/status" % pid) as f:
            return dict(line.rstrip("\n").split(":\t", 1) for line in f
                        if ":\t" in line)
    except OSError:
        return {}


def _past_the_loader(pid, sig):
    """listack-fwd's own code runs: it catches sig already, or EAL has
    started its threads (before that, the dynamic loader or libraries'
    constructors may still run, and a signal then kills any program)."""
    st = _status(pid)
    if not st or st.get("State", "").startswith("Z"):
        return True
    caught = int(st.get("SigCgt", "0"), 16)
    return bool(caught & (1 << (sig - 1))) or int(st.get("Threads", 1)) > 1


class _Run:
    pass


def _run(ctx, label, conf_text, inputs, *, app_args=None, vdev_extra="",
         signal_at=None, sig=signal.SIGTERM, timeout=60):
    """Run listack-fwd. signal_at: None (run to --idle-exit), "start"
    (send sig as soon as listack-fwd's code runs), "running" (once it
    says it runs: its first line on stdout) or "received" (once a
    --stats-interval line shows port 0 receiving)."""
    wd = ctx.workdir(label)
    stats = _prepare(wd, conf_text, inputs)
    cmd = lsk.fwd_cmd(ctx.binary, app_args=app_args)
    if vdev_extra:
        # port 0 only: net_pcap's infinite_rx on an empty file (port 1)
        # loses the mbufs of every poll
        cmd = [a + vdev_extra if a.startswith("net_pcap0,") else a
               for a in cmd]
    r = _Run()
    r.cmd = cmd
    r.timed_out = False
    with lsk.RUN_SLOTS:
        proc = subprocess.Popen(cmd, cwd=wd, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE,
                                start_new_session=True)
        first = b""
        try:
            if signal_at == "start":
                while not _past_the_loader(proc.pid, sig):
                    time.sleep(0.0002)
                proc.send_signal(sig)
            elif signal_at == "running":
                first = proc.stdout.readline()
                proc.send_signal(sig)
            elif signal_at == "received":
                # --stats-interval lines: "port 0 rx N pps ..."
                while True:
                    line = proc.stdout.readline()
                    first += line
                    words = line.split()
                    if not line or (words[:3] == [b"port", b"0", b"rx"]
                                    and float(words[3]) > 0):
                        break
                proc.send_signal(sig)
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            r.timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
    r.rc = proc.returncode
    r.stdout = (first + out).decode(errors="replace")
    r.stderr = err.decode(errors="replace")
    try:
        r.stats = lsk.read_stats(stats)
    except Exception as e:  # unreadable
        r.stats = None
        r.stats_error = str(e)
    return r


def _tail(text):
    return " | ".join(text.strip().splitlines()[-3:])


def _clean_exit(r):
    """Exit 0, a stats file, every mbuf back."""
    if r.timed_out:
        return ["timed out"]
    reasons = []
    if r.rc != 0:
        reasons.append("exit status %s, expected 0 (stderr: %s)" % (
            r.rc, _tail(r.stderr)))
    if r.stats is None:
        reasons.append("no stats file written")
    elif r.stats.get("mbufs_in_use") != 0:
        reasons.append("mbufs_in_use %s" % r.stats.get("mbufs_in_use"))
    return reasons


def _refused(r, must_contain, rc=2):
    if r.timed_out:
        return ["timed out"]
    reasons = []
    if r.rc != rc:
        reasons.append("exit status %s, expected %d (stderr: %s)" % (
            r.rc, rc, _tail(r.stderr)))
    for text in must_contain:
        if text not in r.stderr:
            reasons.append("stderr lacks %r (stderr: %s)" % (
                text, _tail(r.stderr)))
    return reasons


def _not_for_us(k):
    """k frames no port takes (another MAC): dropped in eth_input, nothing
    sent, however often infinite_rx replays them."""
    return [lsk.frame(tag="nfu#%d" % i, ident=i % 65536 + 1,
                      dst_mac="02:00:00:00:99:99") for i in range(k)]


def _as_recorded(fr):
    """A datagram whose UDP length is shorter than its IP payload, as the
    pcap service records it (finding 11): the frame cut to the UDP
    datagram delivered, its IP total length and checksum to match."""
    off = lsk.l2_offset(fr)
    ihl = (fr[off] & 15) * 4
    ulen = struct.unpack("!H", fr[off + ihl + 4:off + ihl + 6])[0]
    return lsk.patch_ip(fr, tot_len=ihl + ulen, l3_len=ihl + ulen)


# ======================================================================


def register(rt):
    """Add the cases to test_pcap_config (the module rt)."""

    def short_ulen(n):
        fr = rt._udp_raw("10.0.0.254", 5000, b"|%s|" % n.encode(),
                         sport=1011, extra=b"NOT-PART-OF-THE-DATAGRAM")
        p = rt.udp_deliver(fr, "10.0.0.254:5000")
        p.svc_frames["spec5000.pcap"].append(_as_recorded(fr))
        return p

    rt.case("udp_pcap_short_ulen_headers_agree", "udp", short_ulen)

    # Lines a router cannot mean: FILE:LINE, exit 2, nothing sent.
    rt.bad_config("badconf_gateway_is_our_address",
                  "route add 10.7.0.0/16 via 10.0.1.254",
                  "gateway 10.0.1.254 is one of our addresses")
    rt.bad_config("badconf_gateway_is_a_broadcast",
                  "route add 10.7.0.0/16 via 10.0.1.255",
                  "gateway 10.0.1.255 is a broadcast address")
    rt.bad_config("badconf_neigh_is_our_address",
                  "neigh add 10.0.0.254 lladdr 02:00:00:00:00:09",
                  "10.0.0.254 is one of our addresses")
    rt.bad_config("badconf_subnet_broadcast_as_address_other_port",
                  "address add 10.0.0.255/32 port 1",
                  "it is the broadcast address of 10.0.0.254/24")
    # The file is one batch, checked whole before any line is applied:
    # a line that cannot be a command is found first, even after a line
    # that would be refused when applied.
    rt.bad_config("badconf_words_checked_before_changes",
                  "route add 10.7.0.0/16 via 10.0.1.254\nroute add 10.8.0.0/16",
                  "usage: route", line_no=rt.BAD_LINE_NO + 1)
    rt.bad_config("badconf_nul_byte_in_line",
                  "address add 10.0.2.254/24 port 0\0port 0 mtu 900",
                  "NUL byte in the line")

    def not_a_file(name, path, why):
        def fn(ctx):
            r = _run(ctx, name, None, {0: rt._simple_fwd_frames(name)},
                     app_args=["--config", path, "--idle-exit", "300"],
                     timeout=30)
            return _refused(r, [path + ":", why])
        rt.CASES.append(rt.Special(name, fn))

    not_a_file("badconf_config_is_a_directory", "/tmp", "Is a directory")
    not_a_file("badconf_config_dev_zero", "/dev/zero", "not a regular file")

    # --mbufs: a pcap of 20,000 frames replayed (infinite_rx) needs them
    # all in mbufs at once: the default pool cannot hold them and says
    # which option helps; with --mbufs it runs until told to stop.
    big_frames = []

    def big():
        if not big_frames:
            big_frames.extend(_not_for_us(20000))
        return {0: big_frames}

    args = ["--config", "test.conf", "--stats-json", "stats.json"]

    @rt.special("mbufs_default_too_small_names_the_option")
    def _mbufs_small(ctx):
        r = _run(ctx, "mbufs-small", rt.MAIN_CONF, big(), app_args=args,
                 vdev_extra=",infinite_rx=1", timeout=60)
        reasons = _refused(r, ["give --mbufs N"], rc=1)
        if "--mbuf-size" in r.stderr:
            reasons.append("the hint names --mbuf-size: %s" % _tail(r.stderr))
        if "listack-fwd:" in r.stdout:
            reasons.append("it started: %s" % _tail(r.stdout))
        return reasons

    @rt.special("mbufs_option_sizes_the_pool")
    def _mbufs_big(ctx):
        r = _run(ctx, "mbufs-big", rt.MAIN_CONF, big(),
                 app_args=args + ["--mbufs", "50000",
                                  "--stats-interval", "0.05"],
                 vdev_extra=",infinite_rx=1", signal_at="received",
                 timeout=60)
        reasons = _clean_exit(r)
        ports = (r.stats or {}).get("ports") or [{}]
        if reasons == [] and not ports[0].get("rx"):
            reasons.append("port 0 received nothing")
        return reasons

    for bad in ("0", "-5", "lots", "4294967296"):
        rt.bad_option("badopt_mbufs_%s" % bad.strip("-"),
                      ["--config", "test.conf", "--mbufs", bad,
                       "--idle-exit", "300"])

    # --mbuf-size: net_af_packet with framesz=8192 hands frames of 8160
    # bytes, which the default mbuf (2048 bytes of data) cannot take: the
    # hint names --mbuf-size, not --mbufs (issue 22); with --mbuf-size
    # 8192 it runs. Port 0 is af_packet on the loopback of a network
    # namespace of its own (unshare -n), port 1 a pcap file.
    def af_packet_run(ctx, label, extra):
        wd = ctx.workdir(label)
        _prepare(wd, rt.MAIN_CONF, {})
        cmd = ["unshare", "-n", ctx.binary, "--no-huge", "--no-pci", "-m",
               "512", "--no-shconf", "--log-level=*:warning",
               "--vdev", "net_af_packet0,iface=lo,framesz=8192,"
               "blocksz=8192,framecnt=64",
               "--vdev", "net_pcap1,rx_pcap=in1.pcap,tx_pcap=out1.pcap",
               "-l", "0", "--"] + args + extra
        r = _Run()
        r.timed_out = False
        with lsk.RUN_SLOTS:
            proc = subprocess.Popen(cmd, cwd=wd, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE,
                                    start_new_session=True)
            try:
                out, err = proc.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                r.timed_out = True
                os.killpg(proc.pid, signal.SIGKILL)
                out, err = proc.communicate()
        r.rc = proc.returncode
        r.stdout = out.decode(errors="replace")
        r.stderr = err.decode(errors="replace")
        r.stats = lsk.read_stats(os.path.join(wd, "stats.json"))
        return r

    @rt.special("mbuf_size_too_small_names_the_option")
    def _mbuf_size_small(ctx):
        r = af_packet_run(ctx, "mbuf-size-small", ["--idle-exit", "300"])
        reasons = _refused(r, ["port 0: cannot configure",
                               "give --mbuf-size BYTES"], rc=1)
        if "--mbufs N" in r.stderr:
            reasons.append("the hint names --mbufs: %s" % _tail(r.stderr))
        return reasons

    @rt.special("mbuf_size_option_fits_the_device")
    def _mbuf_size_big(ctx):
        r = af_packet_run(ctx, "mbuf-size-big", ["--mbuf-size", "8192",
                                            "--idle-exit", "300"])
        return _clean_exit(r)

    for bad in ("100", "lots", "70000"):
        rt.bad_option("badopt_mbuf_size_%s" % bad,
                      ["--config", "test.conf", "--mbuf-size", bad,
                       "--idle-exit", "300"])

    # --version and --help answer before EAL starts, on stdout, exit 0;
    # --help lists listack-fwd's own options and says how to see EAL's
    # (--eal-help), which EAL prints.
    def plain(ctx, argv):
        wd = ctx.workdir("plain")
        os.makedirs(wd, exist_ok=True)
        r = subprocess.run([ctx.binary] + argv, capture_output=True,
                           timeout=30, cwd=wd)
        return (r.returncode, r.stdout.decode(errors="replace"),
                r.stderr.decode(errors="replace"))

    def project_version():
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, "..", "..", "meson.build")) as f:
            return re.search(r"version: '([^']+)'", f.read()).group(1)

    @rt.special("version_option")
    def _version(ctx):
        rc, out, err = plain(ctx, ["--version"])
        want = "listack-fwd %s (DPDK " % project_version()
        reasons = ["exit %d" % rc if rc != 0 else "",
                   "" if out.startswith(want) else
                   "stdout %r, want %r..." % (out, want),
                   "EAL started: %r" % err if "EAL" in err else ""]
        return [r for r in reasons if r]

    @rt.special("help_option_lists_our_options")
    def _help(ctx):
        reasons = []
        for argv in (["--help"], ["-h"], ["--no-huge", "--", "--help"]):
            rc, out, err = plain(ctx, argv)
            if rc != 0:
                reasons.append("%s: exit %d" % (argv, rc))
            for opt in ("--config FILE", "--ctl-socket", "--mbufs N",
                        "--mbuf-size BYTES", "--metrics", "--idle-exit",
                        "--eal-help"):
                if opt not in out:
                    reasons.append("%s: %r not in stdout" % (argv, opt))
        rc, out, err = plain(ctx, ["--eal-help"])
        if rc != 0 or "EAL common options" not in out:
            reasons.append("--eal-help: exit %d, stdout %r" % (rc, out[:200]))
        return reasons

    # A signal while listack-fwd starts (EAL, config, ports) stops it in
    # order, as one later does: exit 0, stats written, no mbuf kept.
    for sig in (signal.SIGTERM, signal.SIGINT):
        def fn(ctx, sig=sig):
            r = _run(ctx, "early-%s" % sig.name, rt.MAIN_CONF,
                     {0: rt._simple_fwd_frames("early")},
                     app_args=args + ["--idle-exit", "120000"],
                     signal_at="start", sig=sig, timeout=60)
            return _clean_exit(r)
        rt.CASES.append(rt.Special("signal_during_startup_%s" %
                                   sig.name.lower(), fn))
