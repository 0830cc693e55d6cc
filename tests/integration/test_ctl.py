#!/usr/bin/python3
"""The control socket and listack-ctl against a running listack-fwd.

    /usr/bin/python3 tests/integration/test_ctl.py build/listack-fwd build/listack-ctl [-v] [-k SUBSTR]

listack-fwd runs on net_pcap ports (the fixture of lsk.py) with
--ctl-socket in a private directory and no --idle-exit; each check drives
it with listack-ctl or, for what listack-ctl never sends (bad versions,
garbage, a 1 MB line, silence, a disconnect mid-batch, too many
connections), with raw sockets speaking the protocol of
src/serve/ctl_proto.h. After the hostile clients the stack must still
answer, and after SIGTERM exit 0 with mbufs_in_use == 0 and the socket
file gone. One run uses a worker lcore and replays traffic (infinite_rx)
while batches change routes; another while `mode list|single` switches
how the worker runs a burst (the frames out must not change).

Output: `PASS name` / `FAIL name: reason` per check, then `N passed, N
failed`; exit status 1 if any failed.
"""

import difflib
import json
import os
import pty
import re
import select
import signal
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsk  # noqa: E402
from lsk import Ctl, Fwd, check  # noqa: E402

PROTO = 1                   # LSK_CTL_VERSION
HEADER_MAX = 256            # LSK_CTL_HEADER_MAX
CLIENTS = 16                # LSK_CTL_CLIENTS (ctl_server.c)
STALL_S = 5                 # CTL_STALL_MS
WAIT = 20                   # bound on every wait, seconds

# ---------------------------------------------------------------- raw client

def raw_connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(WAIT)
    s.connect(path)
    return s


def read_answer(s):
    """(status, errno, err, body) of one answer; None if the server closed."""
    line = b""
    while not line.endswith(b"\n"):
        b = s.recv(1)
        if not b:
            return None
        line += b
        if len(line) > HEADER_MAX:
            raise ValueError("answer header too long: %r" % line[:80])
    words = line.decode().split()
    if len(words) != 4 or words[0] not in ("ok", "error", "fatal"):
        raise ValueError("bad answer header %r" % line)
    elen, blen = int(words[2]), int(words[3])
    data = b""
    while len(data) < elen + blen:
        b = s.recv(elen + blen - len(data))
        if not b:
            raise ValueError("answer cut short")
        data += b
    return (words[0], int(words[1]), data[:elen].decode(),
            data[elen:].decode())


def hello(s, version=PROTO, fmt="text"):
    s.sendall(("listack-ctl %d %s\n" % (version, fmt)).encode())
    return read_answer(s)


def request(s, text, source=None):
    body = text.encode()
    hdr = "run %d%s\n" % (len(body), " " + source if source else "")
    s.sendall(hdr.encode() + body)
    return read_answer(s)


def closed_by_server(s):
    """True if the server closed s (EOF or reset), waiting at most WAIT."""
    try:
        while True:
            b = s.recv(65536)
            if not b:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False


# ---------------------------------------------------------------- checks

ROUTE_NEW = "route add 10.5.0.0/16 via 10.0.1.1"


def config_text(ctl):
    """`show config`, or None with the reason."""
    r = ctl.run("show", "config")
    if r.returncode != 0:
        return None, "show config: exit %d: %s" % (r.returncode,
                                                  r.stderr.strip())
    return r.stdout, None


def checks_version(ctl):
    """listack-ctl --version; show version as text and JSON (issue 22)."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "meson.build")) as f:
        version = re.search(r"version: '([^']+)'", f.read()).group(1)
    r = subprocess.run([ctl.binary, "--version"], capture_output=True,
                       text=True, timeout=WAIT)
    check("ctl_version_option", [
        "exit %d" % r.returncode if r.returncode != 0 else "",
        "" if r.stdout.startswith("listack-ctl %s " % version) else
        "stdout %r" % r.stdout])
    r = ctl.run("show", "version")
    lines = r.stdout.splitlines()
    row = lines[1].split() if len(lines) == 2 else []
    check("show_version_text", [
        "exit %d" % r.returncode if r.returncode != 0 else "",
        "" if lines[:1] and lines[0].split() == ["VERSION", "DPDK", "UPTIME"]
        else "stdout %r" % r.stdout,
        "" if row[:1] == [version] and len(row) == 3 and
        re.fullmatch(r"\d+:\d\d:\d\d", row[2]) else
        "stdout %r" % r.stdout])
    r = ctl.run("show", "version", json_out=True)
    try:
        obj = json.loads(r.stdout)
    except ValueError:
        obj = {}
    check("show_version_json", [
        "" if obj.get("version") == version else "stdout %r" % r.stdout,
        "" if re.fullmatch(r"\d+\.\d+.*", str(obj.get("dpdk"))) else
        "dpdk %r" % obj.get("dpdk"),
        "" if isinstance(obj.get("uptime"), int) and obj["uptime"] >= 0
        else "uptime %r" % obj.get("uptime")])


def _on_terminal(ctl, keys, tmpdir):
    """listack-ctl at a prompt on a pseudo-terminal (cwd tmpdir, whose
    file names a wrong completion would offer): keys typed one group at
    a time, then what it wrote and its exit status."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(tmpdir)
        os.environ["TERM"] = "dumb"
        os.environ["HOME"] = tmpdir
        os.execv(ctl.binary, [ctl.binary, "-s", ctl.sock])
    out = b""

    def drain(t):
        nonlocal out
        end = time.monotonic() + t
        while time.monotonic() < end:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    return
                if not chunk:
                    return
                out += chunk
    drain(1.0)
    for k in keys:
        os.write(fd, k)
        drain(0.5)
    status = None
    end = time.monotonic() + WAIT
    while status is None and time.monotonic() < end:
        drain(0.1)
        p, st = os.waitpid(pid, os.WNOHANG)
        if p == pid:
            status = st
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    os.close(fd)
    return out.decode(errors="replace"), status


def checks_interactive(ctl, root):
    """At the prompt, TAB completes the grammar's words, never file
    names of the current directory; Ctrl-D leaves a newline (issue 22)."""
    tmp = os.path.join(root, "tty")
    os.makedirs(tmp, exist_ok=True)
    for name in ("versionfile", "runtime.txt", "addr-notes"):
        open(os.path.join(tmp, name), "w").close()
    # "ver" begins a file name only: no word of the grammar fits there
    out, status = _on_terminal(ctl, [b"show vers\t", b"\n",
                                     b"route add ver\t", b"\n", b"\x04"],
                               tmp)
    lines = out.replace("\r", "").split("\n")
    check("interactive_completes_words", [
        "" if "show version" in out else "no 'show version' in %r" % out,
        "" if re.search(r"VERSION +DPDK +UPTIME", out) else
        "the view did not run: %r" % out,
        "a file name offered: %r" % out
        if "versionfile" in out or "runtime.txt" in out or
        "addr-notes" in out else ""])
    check("interactive_ctrl_d_newline", [
        "exit status %r" % status if status != 0 else "",
        "" if out.replace("\r", "").endswith("\n") else
        "no newline after Ctrl-D: %r" % out[-60:],
        "" if lines[-1] == "" else "ends with %r" % lines[-1]])


def _man_usage_lines():
    """The usage lines of docs/listack-ctl.8's COMMANDS (the line after
    each .TP or .TQ), troff's fonts and escapes taken out."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "docs", "listack-ctl.8")) as f:
        text = f.read()
    body = text.split("COMMANDS-BEGIN", 1)[1].split("COMMANDS-END", 1)[0]
    lines = body.splitlines()
    out = []
    for i, ln in enumerate(lines[:-1]):
        if ln in (".TP", ".TQ"):
            u = re.sub(r"\\f[BIRP]", "", lines[i + 1]).replace("\\-", "-")
            out.append(u)
    return lines, out


def checks_manpage(ctl):
    """The man page lists each command of the server's help once, with
    every form help gives (issue 22: show was listed twice, the second
    without errors -a and pipeline, and ran into capture start)."""
    r = ctl.run("help", json_out=True)
    forms = [u for c in json.loads(r.stdout) for u in c["usage"]]
    lines, man = _man_usage_lines()
    reasons = []
    for u in forms:
        if man.count(u) != 1:
            reasons.append("%r is listed %d times" % (u, man.count(u)))
    for u in man:
        if u not in forms:
            reasons.append("%r is not a form of help" % u)
    # a usage line follows .TP or .TQ, a paragraph follows its usage
    for i, ln in enumerate(lines[1:], 1):
        if re.match(r"\\fB[a-z]", ln) and lines[i - 1] not in (".TP",
                                                                ".TQ"):
            reasons.append("line %r runs into the paragraph before" % ln)
    check("manpage_lists_each_command_once", reasons)


def checks_commands(ctl):
    r = ctl.run(*ROUTE_NEW.split())
    check("single_command_ok", [
        "exit %d, expected 0 (%s)" % (r.returncode, r.stderr.strip())
        if r.returncode != 0 else "",
        "stdout %r, expected nothing" % r.stdout if r.stdout else ""])

    r = ctl.run(*ROUTE_NEW.split())
    # a command typed is no file: its error has no "-:1:" (issue 22)
    check("single_command_refused", [
        "exit %d, expected 1" % r.returncode if r.returncode != 1 else "",
        "stderr %r has '-:1:'" % r.stderr if "-:1:" in r.stderr else "",
        "" if r.stderr.startswith("listack-ctl: route ") else
        "stderr %r" % r.stderr])

    r = ctl.run(*ROUTE_NEW.split(), json_out=True)
    reasons = ["exit %d, expected 1" % r.returncode] if r.returncode != 1 \
        else []
    try:
        obj = json.loads(r.stdout)
        if not isinstance(obj, dict) or not obj.get("error") or \
                "-:1:" in obj["error"]:
            reasons.append("no error, or one naming -:1:, in %r" % obj)
    except ValueError as e:
        reasons.append("stdout is not JSON (%s): %r" % (e, r.stdout))
    check("json_error_object", reasons)

    r = ctl.run("frobnicate", "now")
    check("unknown_command_refused", [
        "exit %d, expected 1" % r.returncode if r.returncode != 1 else "",
        "nothing on stderr" if not r.stderr.strip() else ""])

    r = ctl.run("show", "config", json_out=True)
    reasons = ["exit %d: %s" % (r.returncode, r.stderr.strip())] \
        if r.returncode != 0 else []
    try:
        json.loads(r.stdout)
    except ValueError as e:
        reasons.append("show config -j is not JSON (%s): %r"
                       % (e, r.stdout[:200]))
    check("json_show_config", reasons)

    r = ctl.run("help")
    reasons = ["exit %d: %s" % (r.returncode, r.stderr.strip())] \
        if r.returncode != 0 else []
    for word in ("route", "address", "neigh", "udp", "show"):
        if word not in r.stdout:
            reasons.append("help does not list %r" % word)
    check("help_lists_commands", reasons)

    r = ctl.run("help", json_out=True)
    reasons = ["exit %d" % r.returncode] if r.returncode != 0 else []
    try:
        json.loads(r.stdout)
    except ValueError as e:
        reasons.append("help -j is not JSON (%s)" % e)
    check("help_json", reasons)

    r = ctl.run()
    check("usage_no_command_on_non_tty_stdin_reads_a_batch", [
        "exit %d, expected 0 (empty batch from stdin)" % r.returncode
        if r.returncode != 0 else ""])

    r = subprocess.run([ctl.binary, "-f", "x", "route"], timeout=WAIT,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check("usage_error_exit_2", "exit %d, expected 2" % r.returncode
          if r.returncode != 2 else "")

    r = subprocess.run([ctl.binary, "-s", ctl.sock + ".none", "help"],
                       timeout=WAIT, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    check("no_server_exit_2", [
        "exit %d, expected 2" % r.returncode if r.returncode != 2 else "",
        "stderr does not name the path" if ctl.sock not in r.stderr else ""])


def checks_forgiving(ctl, root):
    """The CLI forgives (issue 22): unique prefixes, errors that name the
    bad word and what it could be, LISTACK_CTL_SOCKET, -j after the
    words, `?`, and a file's every bad line named."""
    full = ctl.run("show", "routes")
    r = ctl.run("sh", "ro")
    check("prefixes_stand_for_words", [
        "exit %d: %s" % (r.returncode, r.stderr) if r.returncode else "",
        "" if r.stdout == full.stdout else "stdout %r" % r.stdout])
    r = ctl.run("show", "rutes")
    check("unknown_view_named", [
        "exit %d, expected 1" % r.returncode if r.returncode != 1 else "",
        "" if r.stderr == "listack-ctl: show: unknown view 'rutes'; did you "
        "mean 'routes'? (interfaces, addresses, routes, ...)\n"
        else "stderr %r" % r.stderr])
    r = ctl.run("s", "routes")
    check("ambiguous_prefix_named", "" if r.returncode == 1 and r.stderr ==
          "listack-ctl: 's' is ambiguous: show, stats\n" else
          "exit %d, stderr %r" % (r.returncode, r.stderr))

    env = dict(os.environ, LISTACK_CTL_SOCKET=ctl.sock)
    r = subprocess.run([ctl.binary, "show", "version"], env=env,
                       capture_output=True, text=True, timeout=WAIT)
    env["LISTACK_CTL_SOCKET"] = os.path.join(root, "no-such.sock")
    r2 = subprocess.run([ctl.binary, "-s", ctl.sock, "show", "version"],
                        env=env, capture_output=True, text=True,
                        timeout=WAIT)
    r3 = subprocess.run([ctl.binary, "show", "version"], env=env,
                        capture_output=True, text=True, timeout=WAIT)
    check("env_socket", [
        "env: exit %d %s" % (r.returncode, r.stderr) if r.returncode else "",
        "-s over env: exit %d %s" % (r2.returncode, r2.stderr)
        if r2.returncode else "",
        "" if r3.returncode == 2 and "no-such.sock" in r3.stderr else
        "a wrong env: exit %d %s" % (r3.returncode, r3.stderr)])

    r = ctl.run("show", "version", "-j")
    r2 = ctl.run("show", "errors", "-a")
    check("json_option_after_words", [
        "" if _is_json(r.stdout) and r.returncode == 0 else
        "show version -j: exit %d %r" % (r.returncode, r.stdout),
        "" if r2.returncode == 0 and not _is_json(r2.stdout) else
        "show errors -a: exit %d %r" % (r2.returncode, r2.stdout)])

    r = ctl.run("show", "?")
    r2 = ctl.run("?")
    check("question_mark_one_shot", [
        "" if r.returncode == 0 and "show interfaces|addresses" in r.stdout
        and "route add" not in r.stdout else
        "show ?: exit %d %r" % (r.returncode, r.stdout),
        "" if r2.returncode == 0 and "route add" in r2.stdout and
        "show interfaces" in r2.stdout else
        "?: exit %d %r" % (r2.returncode, r2.stdout)])

    tmp = os.path.join(root, "tty-q")
    os.makedirs(tmp, exist_ok=True)
    out, status = _on_terminal(ctl, [b"sh?", b"ow version\n", b"\x04"],
                               tmp)
    check("question_mark_interactive", [
        "exit status %r" % status if status != 0 else "",
        "" if "show interfaces|addresses" in out else "no usage in %r" % out,
        "" if re.search(r"VERSION +DPDK +UPTIME", out) else
        "the line did not stay: %r" % out])

    # TAB after `route del` offers the stack's own routes
    r = ctl.run("route", "add", "10.44.0.0/16", "via", "10.0.1.1")
    out, status = _on_terminal(ctl, [b"route del 10.4\t", b"\n",
                                     b"\x04"], tmp)
    r2 = ctl.run("route", "del", "10.44.0.0/16")
    check("completes_values_from_the_stack", [
        "route add: exit %d %s" % (r.returncode, r.stderr)
        if r.returncode else "",
        "exit status %r" % status if status != 0 else "",
        "" if "route del 10.44.0.0/16" in out else "no route in %r" % out,
        "" if r2.returncode == 1 else
        "the completed line did not delete it (exit %d)" % r2.returncode])

    reasons, _ = refused_batch(
        ctl, root, "three.conf",
        "route add 10.40.0.0/16 via 10.0.1.1\n"
        "route add 10.41.0.0/33 via 10.0.1.1\n"
        "# a comment\n"
        "rote add 10.42.0.0/16 via 10.0.1.1\n"
        "port 0 mtu 1\n",
        ["three.conf:2: bad prefix", "three.conf:4: unknown command 'rote'; "
         "did you mean 'route'?", "three.conf:5: bad mtu"])
    check("file_every_bad_line", reasons)


def refused_batch(ctl, workdir, name, text, says):
    """The batch text, as file name, must be refused (exit 1, each of says
    on stderr) and change nothing: show config and show routes as before.
    Returns (what was wrong, show config after)."""
    before, why = config_text(ctl)
    routes = ctl.run("show", "routes")
    path = os.path.join(workdir, name)
    with open(path, "w") as f:
        f.write(text)
    r = ctl.run(batch=path)
    reasons = [why] if why else []
    if r.returncode != 1:
        reasons.append("exit %d, expected 1" % r.returncode)
    reasons += ["stderr %r lacks %r" % (r.stderr, s) for s in says
                if s not in r.stderr]
    after, why = config_text(ctl)
    if why:
        reasons.append(why)
    elif before is not None and before != after:
        reasons.append("show config changed after a refused batch:\n%s"
                       % "".join(difflib.unified_diff(
                           before.splitlines(True), after.splitlines(True))))
    routes_after = ctl.run("show", "routes")
    if routes.returncode != 0 or routes_after.returncode != 0:
        reasons.append("show routes: exit %d, %d" % (
            routes.returncode, routes_after.returncode))
    elif routes.stdout != routes_after.stdout:
        reasons.append("show routes changed after a refused batch")
    return reasons, after


def checks_batches(ctl, workdir):
    good = os.path.join(workdir, "good.conf")
    with open(good, "w") as f:
        f.write("# two routes\nroute add 10.6.0.0/16 via 10.0.1.1\n\n"
                "route add 10.7.0.0/16 via 10.0.1.1\n")
    r = ctl.run(batch=good)
    reasons = ["exit %d: %s" % (r.returncode, r.stderr.strip())] \
        if r.returncode != 0 else []
    # applied: adding either again is refused as existing
    for pfx in ("10.6.0.0/16", "10.7.0.0/16"):
        r2 = ctl.run("route", "add", pfx, "via", "10.0.1.1")
        if r2.returncode != 1:
            reasons.append("%s not there after the batch (re-add exit %d)"
                           % (pfx, r2.returncode))
    check("batch_good_applied", reasons)

    # a line that is no command: refused before any line is applied
    reasons, _ = refused_batch(
        ctl, workdir, "bad.conf",
        "route add 10.8.0.0/16 via 10.0.1.1\n"
        "route add 10.8.0.0/33 via 10.0.1.1\n"
        "route add 10.10.0.0/16 via 10.0.1.1\n", ["bad.conf:2:"])
    # nothing applied: the first line's route can still be added
    r2 = ctl.run("route", "add", "10.8.0.0/16", "via", "10.0.1.1")
    if r2.returncode != 0:
        reasons.append("10.8.0.0/16 was applied by a refused batch "
                       "(re-add exit %d: %s)" % (r2.returncode,
                                                 r2.stderr.strip()))
    check("batch_bad_changes_nothing", reasons)

    # Every line parses; the last is refused only when applied (its
    # gateway is our own address), after an address, a neighbour and a
    # route were: all three must be put back.
    lines = ("address add 10.0.9.254/24 port 0",
             "neigh add 10.0.1.9 lladdr 02:00:00:00:01:09",
             "route add 10.13.0.0/16 via 10.0.1.1")
    reasons, after = refused_batch(
        ctl, workdir, "refused_when_applied.conf",
        "".join(x + "\n" for x in lines) +
        "route add 10.14.0.0/16 via 10.0.1.254\n",
        ["refused_when_applied.conf:4:",
         "10.0.1.254 is one of our addresses"])
    reasons += ["%r remains of the refused batch" % x for x in lines
                if after is not None and x in after]
    check("batch_refused_when_applied_changes_nothing", reasons)

    r = ctl.run(batch="-", stdin="route add 10.11.0.0/16 via 10.0.1.1\n"
                "route add 10.11.0.0/16 via 10.0.1.1\n")
    check("batch_stdin_duplicate_refused", [
        "exit %d, expected 1" % r.returncode if r.returncode != 1 else "",
        "stderr %r lacks '-:2:'" % r.stderr if "-:2:" not in r.stderr
        else ""])

    r = ctl.run(batch="-", stdin="route add 10.12.0.0/16 via 10.0.1.1\n",
                json_out=True)
    check("batch_json_ok", [
        "exit %d" % r.returncode if r.returncode != 0 else "",
        "" if _is_json(r.stdout) else "stdout %r not JSON" % r.stdout])


def _is_json(s):
    try:
        json.loads(s)
        return True
    except ValueError:
        return False


def checks_hostile(ctl, sock):
    # another version: a clear fatal answer, then the server closes
    s = raw_connect(sock)
    a = hello(s, version=PROTO + 98)
    check("version_mismatch", [
        "no answer" if a is None else "",
        "answer %r is not fatal" % (a,) if a and a[0] != "fatal" else "",
        "reason %r does not say which version" % a[2]
        if a and "version %d" % PROTO not in a[2] else "",
        "" if closed_by_server(s) else "connection left open"])
    s.close()

    s = raw_connect(sock)
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    a = read_answer(s)
    check("garbage_hello", [
        "no answer" if a is None else "",
        "answer %r is not fatal" % (a,) if a and a[0] != "fatal" else "",
        "" if closed_by_server(s) else "connection left open"])
    s.close()

    # a 1 MB header line: refused once past the bound, closed
    s = raw_connect(sock)
    hello(s)
    try:
        s.sendall(b"r" * (1 << 20))
    except (BrokenPipeError, ConnectionResetError):
        pass
    try:
        a = read_answer(s)
    except (ConnectionResetError, ValueError):
        a = None
    check("megabyte_line_refused", [
        "answer %r is not fatal" % (a,) if a and a[0] != "fatal" else "",
        "" if closed_by_server(s) else "connection left open"])
    s.close()

    # a 1 MB line inside a batch: the batch is refused, the client stays
    s = raw_connect(sock)
    hello(s)
    a = request(s, "route add " + "1" * (1 << 20) + "\n")
    b = request(s, "route add 10.13.0.0/16 via 10.0.1.1\n")
    check("megabyte_command_line_refused", [
        "no answer" if a is None else "",
        "answer %r, expected error" % (a[:3],) if a and a[0] != "error"
        else "",
        "the next request on the connection: %r" % (b,)
        if b is None or b[0] != "ok" else ""])
    s.close()

    s = raw_connect(sock)
    hello(s)
    s.sendall(b"run 99999999999\n")
    a = read_answer(s)
    check("oversized_batch_refused", [
        "answer %r is not fatal" % (a,) if a is None or a[0] != "fatal"
        else "",
        "" if closed_by_server(s) else "connection left open"])
    s.close()

    # half a command, then silence: others are served; it is dropped
    silent = raw_connect(sock)
    hello(silent)
    text = "route add 10.14.0.0/16 via 10.0.1.1\n"
    silent.sendall(("run %d\n" % len(text)).encode() + text[:12].encode())
    t0 = time.monotonic()
    r = ctl.run("route", "add", "10.15.0.0/16", "via", "10.0.1.1")
    reasons = ["another client: exit %d (%s)" % (r.returncode,
                                                 r.stderr.strip())
               if r.returncode != 0 else ""]
    if not closed_by_server(silent):
        reasons.append("the silent client was not dropped within %d s"
                       % WAIT)
    elif time.monotonic() - t0 < STALL_S - 1:
        reasons.append("dropped before its stall timeout")
    silent.close()
    r = ctl.run("route", "add", "10.14.0.0/16", "via", "10.0.1.1")
    if r.returncode != 0:
        reasons.append("the half batch was applied (re-add exit %d)"
                       % r.returncode)
    check("half_command_then_silence", reasons)

    # a disconnect mid-batch applies nothing
    s = raw_connect(sock)
    hello(s)
    text = ("route add 10.16.0.0/16 via 10.0.1.1\n"
            "route add 10.17.0.0/16 via 10.0.1.1\n")
    s.sendall(("run %d\n" % len(text)).encode() + text[:50].encode())
    s.close()
    time.sleep(0.3)
    r1 = ctl.run("route", "add", "10.16.0.0/16", "via", "10.0.1.1")
    check("disconnect_mid_batch", "the first line was applied (re-add "
          "exit %d)" % r1.returncode if r1.returncode != 0 else "")

    # many connections: CLIENTS are served, one more is refused
    conns = []
    reasons = []
    try:
        for i in range(CLIENTS):
            c = raw_connect(sock)
            a = hello(c)
            if a is None or a[0] != "ok":
                reasons.append("client %d: hello answered %r" % (i, a))
            conns.append(c)
        extra = raw_connect(sock)
        a = read_answer(extra)
        if a is None or a[0] != "fatal" or a[1] != 16:   # EBUSY
            reasons.append("client %d: %r, expected fatal EBUSY"
                           % (CLIENTS, a))
        extra.close()
        a = request(conns[0], "route add 10.18.0.0/16 via 10.0.1.1\n")
        if a is None or a[0] != "ok":
            reasons.append("a served client, while full: %r" % (a,))
    finally:
        for c in conns:
            c.close()
    time.sleep(0.3)
    r = ctl.run("route", "add", "10.19.0.0/16", "via", "10.0.1.1")
    if r.returncode != 0:
        reasons.append("after the others left: exit %d" % r.returncode)
    check("many_connections_bounded", reasons)

    # two requests in one write: two answers, in order
    s = raw_connect(sock)
    line = b"route add 10.20.0.0/16 via 10.0.1.1\n"
    one = b"run %d\n" % len(line) + line
    s.sendall(("listack-ctl %d text\n" % PROTO).encode() + one + one)
    answers = [read_answer(s) for _ in range(3)]
    check("pipelined_requests", "answers %r, expected ok, ok, error"
          % ([a and a[0] for a in answers],)
          if [a and a[0] for a in answers] != ["ok", "ok", "error"] else "")
    s.close()

    # a header, then its batch a moment later, in pieces
    s = raw_connect(sock)
    hello(s)
    text = b"route add 10.25.0.0/16 via 10.0.1.1\n"
    s.sendall(b"run %d\n" % len(text))
    time.sleep(0.2)
    s.sendall(text[:7])
    time.sleep(0.2)
    s.sendall(text[7:])
    a = read_answer(s)
    check("batch_in_pieces", "answer %r, expected ok" % (a,)
          if a is None or a[0] != "ok" else "")
    s.close()

    # a NUL byte in a batch is refused, not cut short
    s = raw_connect(sock)
    hello(s)
    a = request(s, "route add 10.21.0.0/16 via 10.0.1.1\n\0\n")
    check("nul_byte_refused", "answer %r, expected error" % (a,)
          if a is None or a[0] != "error" else "")
    s.close()

    r = ctl.run("route", "add", "10.22.0.0/16", "via", "10.0.1.1")
    check("still_answers_after_hostile_clients",
          "exit %d (%s)" % (r.returncode, r.stderr.strip())
          if r.returncode != 0 else "")


def check_stopped(name, fwd, sock):
    rc = fwd.stop()
    st = fwd.stats()
    err = fwd.stderr()
    check(name, [
        "exit %r, expected 0 (stderr: %s)" % (rc, err[-300:])
        if rc != 0 else "",
        "a sanitizer report on stderr: %s" % err[-300:]
        if "runtime error" in err or "Sanitizer" in err else "",
        "no stats" if st is None else "",
        "mbufs_in_use %r" % st.get("mbufs_in_use")
        if st is not None and st.get("mbufs_in_use") != 0 else "",
        "socket file left at %s" % sock if os.path.exists(sock) else ""])


def checks_paths(fwd_bin, ctl, root):
    sock = ctl.sock
    # a second instance on a live socket
    other = Fwd(fwd_bin, os.path.join(root, "second"), sock)
    try:
        rc = other.proc.wait(timeout=WAIT)
    except subprocess.TimeoutExpired:
        rc = None
    other.stop()
    r = ctl.run("route", "add", "10.23.0.0/16", "via", "10.0.1.1")
    err = other.stderr()
    with open(os.path.join(other.workdir, "fwd.out")) as f:
        out = f.read()
    # found before any port starts (issue 22): one line says why, no
    # device is configured, started and closed for nothing
    check("live_socket_refused", [
        "second instance: exit %r, expected 2" % rc if rc != 2 else "",
        "its stderr does not say why" if "--ctl-socket: %s: another "
        "listack serves it" % sock not in err else "",
        "a port was set up: %r" % out[-200:] if "port 0:" in out else "",
        "DPDK's noise on stderr: %r" % err[-300:]
        if "Cannot close" in err or "ETHDEV" in err else "",
        "more than the one line: %r" % err
        if len([ln for ln in err.splitlines()
                if not ln.startswith(("EAL:", "TELEMETRY:"))]) != 1
        else "",
        "the first no longer answers (exit %d)" % r.returncode
        if r.returncode != 0 else ""])

    # a stale socket file (bound, never listened on): replaced
    stale = os.path.join(root, "stale", "s.sock")
    os.makedirs(os.path.dirname(stale))
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(stale)
    s.close()
    fwd = Fwd(fwd_bin, os.path.join(root, "stale-run"), stale)
    ready = fwd.wait_ready()
    r = Ctl(ctl.binary, stale).run("route", "add", "10.24.0.0/16", "via",
                                   "10.0.1.1")
    check("stale_socket_replaced", [
        "" if ready else "did not start: %s" % fwd.stderr()[-300:],
        "exit %d" % r.returncode if r.returncode != 0 else ""])
    check_stopped("stale_run_stops_clean", fwd, stale)

    # something that is not a socket is left alone
    plain = os.path.join(root, "plain.sock")
    with open(plain, "w") as f:
        f.write("keep me\n")
    fwd = Fwd(fwd_bin, os.path.join(root, "plain-run"), plain)
    try:
        rc = fwd.proc.wait(timeout=WAIT)
    except subprocess.TimeoutExpired:
        rc = None
    fwd.stop()
    with open(plain) as f:
        kept = f.read() == "keep me\n"
    check("not_a_socket_left_alone", [
        "exit %r, expected 2" % rc if rc != 2 else "",
        "" if kept else "the file was changed"])

    # the parent directory is made (0755), the socket is 0660
    deep = os.path.join(root, "made", "sub", "s.sock")
    fwd = Fwd(fwd_bin, os.path.join(root, "deep-run"), deep)
    ready = fwd.wait_ready()
    reasons = [] if ready else ["did not start: %s" % fwd.stderr()[-300:]]
    if ready:
        m = stat.S_IMODE(os.stat(deep).st_mode)
        d = stat.S_IMODE(os.stat(os.path.dirname(deep)).st_mode)
        if m != 0o660:
            reasons.append("socket mode %o, expected 660" % m)
        if d != 0o755:
            reasons.append("directory mode %o, expected 755" % d)
    check("socket_modes", reasons)
    check_stopped("deep_run_stops_clean", fwd, deep)

    # none: no socket at all
    fwd = Fwd(fwd_bin, os.path.join(root, "none-run"), None,
              extra_ctl=["--ctl-socket", "none"])
    ready = fwd.wait_ready()
    made = [n for n in os.listdir(fwd.workdir) if n.endswith(".sock")]
    check("ctl_socket_none", [
        "" if ready else "did not start: %s" % fwd.stderr()[-300:],
        "control socket line printed" if "control socket" in
        open(os.path.join(fwd.workdir, "fwd.out")).read() else "",
        "sockets made: %s" % made if made else ""])
    check_stopped("none_run_stops_clean", fwd, os.path.join(root, "x"))


def checks_traffic(fwd_bin, ctl_bin, root):
    """A worker lcore forwards replayed frames while batches change routes
    and port 1's MTU."""
    frames = [lsk.frame(dst="10.9.%d.1" % i, tag="ctl%d" % i)
              for i in range(8)]
    sock = os.path.join(root, "traffic", "s.sock")
    fwd = Fwd(fwd_bin, os.path.join(root, "traffic"), sock, lcores="0,1",
              inputs={0: frames}, infinite=True)
    if not fwd.wait_ready():
        check("changes_under_traffic", "did not start: %s"
              % fwd.stderr()[-300:])
        fwd.stop()
        return
    reasons = []
    s = raw_connect(sock)
    hello(s)
    for i in range(200):
        op = "add" if i % 2 == 0 else "del"
        a = request(s, "route %s 10.9.%d.0/24%s\n"
                    % (op, (i // 2) % 8, " via 10.0.1.1" if op == "add"
                       else ""))
        if a is None or a[0] != "ok":
            reasons.append("batch %d (%s): %r" % (i, op, a))
            break
        if i % 20 == 19:
            # the device's MTU too: the workers step off the port while
            # it changes, and come back to it
            a = request(s, "port 1 mtu %d\n" % (1400 if i % 40 == 19
                                                  else 1500))
            if a is None or a[0] != "ok":
                reasons.append("batch %d (port mtu): %r" % (i, a))
                break
    s.close()
    check("changes_under_traffic", reasons)
    st = None
    fwd.stop()
    st = fwd.stats()
    check("traffic_run_stops_clean", [
        "exit %r" % fwd.rc if fwd.rc != 0 else "",
        "no stats" if st is None else "",
        "nothing forwarded" if st and not st["ip"]["ForwDatagrams"] else "",
        "mbufs_in_use %r" % st.get("mbufs_in_use")
        if st and st.get("mbufs_in_use") != 0 else ""])


def _pcap_frames(path):
    """The distinct frames of a classic pcap file and how many there are
    in all (a plain reader: the replay writes many)."""
    seen, n = set(), 0
    with open(path, "rb") as f:
        f.read(24)
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                break
            incl = struct.unpack("<IIII", rec)[2]
            seen.add(f.read(incl))
            n += 1
    return seen, n


def _first_stage(ctl):
    """(calls, packets) of the first stages a burst meets since the last
    stats clear: fwd_fast (list mode's fast path, which calls eth_input
    only for what it hands on) and eth_input."""
    r = ctl.run("show", "runtime", json_out=True)
    calls = pkts = 0
    for st in json.loads(r.stdout):
        if st["name"] in ("fwd_fast", "eth_input"):
            calls += st["calls"]
            pkts += st["packets"]
    return calls, pkts


def checks_mode(fwd_bin, ctl_bin, root):
    """mode list|single switched while a worker forwards replayed frames:
    each switch shows in show config and in the stage counters (single:
    one packet a call; list: the replay's bursts), a bad word changes
    nothing, every frame sent is the one list mode makes for its input,
    and the run stops with every mbuf back."""
    frames = [lsk.frame(dst="10.9.%d.1" % i, tag="mode%d" % i)
              for i in range(16)]
    want = set(lsk.forwarded(fr, 1, "02:00:00:00:01:01") for fr in frames)
    work = os.path.join(root, "mode")
    sock = os.path.join(work, "s.sock")
    fwd = Fwd(fwd_bin, work, sock, lcores="0,1", inputs={0: frames},
              infinite=True)
    ctl = Ctl(ctl_bin, sock)
    reasons = []
    try:
        if not fwd.wait_ready():
            check("mode_switch_under_traffic", "did not start: %s"
                  % fwd.stderr()[-300:])
            return
        for mode in ("single", "list", "single", "list"):
            r = ctl.run("mode", mode)
            if r.returncode != 0:
                reasons.append("mode %s: exit %d %s" % (mode, r.returncode,
                                                        r.stderr.strip()))
                break
            if "mode " + mode not in (config_text(ctl)[0] or "").splitlines():
                reasons.append("show config lacks 'mode %s'" % mode)
            time.sleep(0.05)    # a burst begun in the old mode is done
            ctl.run("stats", "clear")
            time.sleep(0.1)
            calls, pkts = _first_stage(ctl)
            if pkts == 0:
                reasons.append("%s: nothing received" % mode)
            elif mode == "single" and calls != pkts:
                reasons.append("single: %d calls for %d packets"
                               % (calls, pkts))
            elif mode == "list" and calls >= pkts:
                reasons.append("list: %d calls for %d packets"
                               % (calls, pkts))
        r = ctl.run("mode", "fast")
        if r.returncode != 1 or "mode: unknown word 'fast' (list, single)" not in r.stderr:
            reasons.append("mode fast: exit %d %r" % (r.returncode,
                                                       r.stderr))
        if "mode list" not in (config_text(ctl)[0] or "").splitlines():
            reasons.append("a refused mode changed the mode")
    finally:
        fwd.stop()
    out = os.path.join(work, "out1.pcap")
    if os.path.exists(out):
        got, n = _pcap_frames(out)
        if n == 0:
            reasons.append("nothing forwarded")
        elif not got <= want:
            reasons.append("%d kinds of frame not as list mode makes them"
                           % len(got - want))
    else:
        reasons.append("no out1.pcap")
    for p in range(2):
        try:
            os.unlink(os.path.join(work, "out%d.pcap" % p))
        except OSError:
            pass
    check("mode_switch_under_traffic", reasons)
    st = fwd.stats()
    check("mode_run_stops_clean", [
        "exit %r" % fwd.rc if fwd.rc != 0 else "",
        "no stats" if st is None else "",
        "mbufs_in_use %r" % st.get("mbufs_in_use")
        if st and st.get("mbufs_in_use") != 0 else ""])


def main():
    ap = lsk.ctl_args(__doc__)
    ap.add_argument("-k", dest="filter", default="",
                    help="only the groups whose name holds SUBSTR: "
                    "commands, version, manpage, interactive, batches, "
                    "forgiving, "
                    "hostile, paths, traffic, mode")
    args = ap.parse_args()
    lsk.VERBOSE = args.v
    fwd_bin, ctl_bin = os.path.abspath(args.fwd), os.path.abspath(args.ctl)
    root = tempfile.mkdtemp(prefix="lsk-ctl-")
    sock = os.path.join(root, "ctl", "listack.sock")
    fwd = Fwd(fwd_bin, os.path.join(root, "main"), sock)
    ctl = Ctl(ctl_bin, sock)
    try:
        if not fwd.wait_ready():
            check("start", "listack-fwd did not start: %s"
                  % fwd.stderr()[-400:])
        else:
            groups = [("commands", lambda: checks_commands(ctl)),
                      ("version", lambda: checks_version(ctl)),
                      ("manpage", lambda: checks_manpage(ctl)),
                      ("interactive", lambda: checks_interactive(ctl, root)),
                      ("batches", lambda: checks_batches(ctl, root)),
                      ("forgiving", lambda: checks_forgiving(ctl, root)),
                      ("hostile", lambda: checks_hostile(ctl, sock)),
                      ("paths", lambda: checks_paths(fwd_bin, ctl, root))]
            # a broken check is a failed check
            lsk.check_groups([g for g in groups if args.filter in g[0]])
        check_stopped("sigterm_stops_clean", fwd, sock)
        if args.filter in "traffic":
            checks_traffic(fwd_bin, ctl_bin, root)
        if args.filter in "mode":
            checks_mode(fwd_bin, ctl_bin, root)
    finally:
        fwd.kill()
    return lsk.finish(root, keep=args.v)

if __name__ == "__main__":
    sys.exit(main())
