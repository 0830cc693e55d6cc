#!/usr/bin/python3
"""pcap integration tests of listack-fwd: bad configurations and options,
the command line and start-up (control_cases.py).

    /usr/bin/python3 tests/integration/test_pcap_config.py build/listack-fwd [-k SUBSTR] [--keep] [-v]

What every case checks and how (both modes, byte for byte, the
counters, no mbuf left): pcap_harness.py.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lsk  # noqa: E402
from lsk import B_MAC  # noqa: E402
import pcap_harness as rt  # noqa: E402
from pcap_harness import (CASES, Case, MAIN_CONF, Special, _simple_fwd_frames,  # noqa: E402
                          _udp_raw, case, check_run, fwd, special, udp_deliver)


# ---------------------------------------------------------------- bad config

BAD_HEAD = (
    "# bad config test\n"                                  # 1
    "\n"                                                   # 2
    "port 0 mtu 1500 mac 02:00:00:00:00:fe\n"              # 3
    "port 1 mtu 1500 mac 02:00:00:00:01:fe\n"              # 4
    "address add 10.0.0.254/24 port 0\n"                   # 5
    "address add 10.0.1.254/24 port 1\n"                   # 6
    "neigh add 10.0.1.1 lladdr 02:00:00:00:01:01\n"        # 7
)
BAD_LINE_NO = 8
BAD_TAIL = "route add 10.9.0.0/16 via 10.0.1.1\n"


def bad_config(name, line, must_contain=None, conf_name="bad.conf",
               line_no=BAD_LINE_NO):
    def real(ctx):
        wd = ctx.workdir(name)
        os.makedirs(os.path.join(wd, "conf"), exist_ok=True)
        cname = conf_name
        if conf_name.startswith("/"):
            cname = os.path.join(wd, conf_name.lstrip("/"))
        with open(os.path.join(wd, cname), "w") as f:
            f.write(BAD_HEAD + line + "\n" + BAD_TAIL)
        r = lsk.run_fwd(ctx.binary, wd, None, {0: _simple_fwd_frames(name)},
                        conf_name=cname, timeout=30)
        return _check_bad(r, "%s:%d:" % (cname, line_no), must_contain)

    CASES.append(Special(name, real))


def _check_bad(r, prefix, must_contain):
    reasons = []
    if r.timed_out:
        return ["timed out"]
    if r.rc != 2:
        reasons.append("exit status %s, expected 2" % r.rc)
    if prefix not in r.stderr:
        reasons.append("stderr lacks %r (stderr: %s)" % (prefix,
                                                         r.stderr_tail()))
    if must_contain and must_contain not in r.stderr:
        reasons.append("stderr lacks %r" % must_contain)
    for p, out in r.outputs.items():
        if out:
            reasons.append("port %d sent %d frames" % (p, len(out)))
    return reasons


bad_config("badconf_unknown_command", "frobnicate the router")
# every bad line named, not only the first (issue 22)
bad_config("badconf_every_bad_line",
           "rote add 10.9.0.0/16 via 10.0.1.1\nport 0 mtu 1\nshow rutes",
           "bad.conf:%d: show: unknown view 'rutes'; did you mean "
           "'routes'?" % (BAD_LINE_NO + 2))
bad_config("badconf_unknown_subcommand", "route frob 10.9.0.0/16 via 10.0.1.1")
bad_config("badconf_bad_address", "address add 10.0.0.256/24 port 0")
bad_config("badconf_bad_address_text", "address add ten.0.0.1/24 port 0")
bad_config("badconf_address_prefix_33", "address add 10.0.2.254/33 port 0")
bad_config("badconf_route_prefix_33", "route add 10.9.0.0/33 via 10.0.1.1")
bad_config("badconf_route_prefix_text", "route add 10.9.0.0/x via 10.0.1.1")
bad_config("badconf_address_port_out_of_range",
           "address add 10.0.2.254/24 port 2")
bad_config("badconf_port_cmd_out_of_range",
           "port 5 mtu 1500 mac 02:00:00:00:05:fe")
bad_config("badconf_port_huge", "address add 10.0.2.254/24 port 99999")
bad_config("badconf_gateway_not_connected",
           "route add 10.9.0.0/16 via 10.5.5.5")
bad_config("badconf_neigh_not_connected",
           "neigh add 10.5.5.5 lladdr 02:00:00:00:05:05")
bad_config("badconf_bad_mac_short", "port 0 mtu 1500 mac 02:00:00:00:00")
bad_config("badconf_bad_mac_hex", "neigh add 10.0.1.2 lladdr 02:00:00:00:01:zz")
bad_config("badconf_missing_args", "address add 10.0.2.254/24")
bad_config("badconf_route_missing_via", "route add 10.9.0.0/16")
bad_config("badconf_route_del_unknown", "route del 10.77.0.0/16")
bad_config("badconf_path_as_given", "frobnicate", conf_name="conf/bad.conf")
bad_config("badconf_absolute_path", "frobnicate", conf_name="/abs.conf")


def later_feature(name, line):
    """A command of the config grammar (docs/configuration.md) that the brief listed as answering
    'FILE:LINE: not supported yet'. Either that (exit 2, nothing sent), or
    the command is implemented: exit 0 and the frames (which it does not
    concern) forwarded as usual. Anything else fails."""
    def fn(ctx):
        wd = ctx.workdir(name)
        os.makedirs(wd, exist_ok=True)
        with open(os.path.join(wd, "feat.conf"), "w") as f:
            f.write(BAD_HEAD + line + "\n" + BAD_TAIL)
        frs = _simple_fwd_frames(name)
        r = lsk.run_fwd(ctx.binary, wd, None, {0: frs},
                        conf_name="feat.conf", timeout=30)
        if r.rc == 2:
            return _check_bad(r, "feat.conf:%d:" % BAD_LINE_NO,
                              "not supported yet")
        cs = Case(name, "main", lambda n: [fwd(f, 1, B_MAC) for f in frs])
        cs.materialize()
        return ["accepted, but: " + x for x in check_run(r, [cs], 2)]
    CASES.append(Special(name, fn))


later_feature("conf_udp_listen_accepted_or_not_yet",
              "udp listen 10.0.0.254:7 echo")
later_feature("conf_gro_accepted_or_not_yet", "gro fraglist flows 64 segs 64")
later_feature("conf_route_cache_accepted_or_not_yet",
              "route-cache on entries 4096")
later_feature("conf_filter_accepted_or_not_yet",
              "filter add drop proto udp dst 10.0.0.0/24 dport 53")


@special("badconf_missing_file")
def _missing_file(ctx):
    wd = ctx.workdir("missing-file")
    r = lsk.run_fwd(ctx.binary, wd, None, {0: _simple_fwd_frames("mf")},
                    conf_name="does-not-exist.conf", timeout=30)
    reasons = []
    if r.rc != 2:
        reasons.append("exit status %s, expected 2" % r.rc)
    if "does-not-exist.conf" not in r.stderr:
        reasons.append("stderr does not name the file (stderr: %s)"
                       % r.stderr_tail())
    for p, out in r.outputs.items():
        if out:
            reasons.append("port %d sent %d frames" % (p, len(out)))
    return reasons


def bad_option(name, app_args):
    def fn(ctx):
        wd = ctx.workdir(name)
        r = lsk.run_fwd(ctx.binary, wd, MAIN_CONF,
                        {0: _simple_fwd_frames(name)}, app_args=app_args,
                        timeout=30)
        reasons = []
        if r.timed_out:
            return ["timed out"]
        if r.rc != 2:
            reasons.append("exit status %s, expected 2 (stderr: %s)" % (
                r.rc, r.stderr_tail()))
        if not r.stderr.strip():
            reasons.append("nothing on stderr")
        for p, out in r.outputs.items():
            if out:
                reasons.append("port %d sent %d frames" % (p, len(out)))
        return reasons
    CASES.append(Special(name, fn))


bad_option("badopt_mode_foo", ["--config", "test.conf", "--mode", "foo",
                               "--idle-exit", "300"])
bad_option("badopt_missing_config", ["--mode", "list", "--idle-exit", "300"])
bad_option("badopt_config_without_value", ["--idle-exit", "300", "--config"])
bad_option("badopt_unknown_option", ["--config", "test.conf", "--frobnicate",
                                     "--idle-exit", "300"])
bad_option("badopt_idle_exit_not_a_number", ["--config", "test.conf",
                                             "--idle-exit", "soon"])


# Command line, config file and start-up cases (issue 10): their own file.
import control_cases  # noqa: E402
control_cases.register(sys.modules[__name__])


if __name__ == "__main__":
    sys.exit(rt.main())
