#!/usr/bin/python3
"""bench/grout-rate.py without grout (--print): the feed's frames are
readdressed to grout's net_pcap MAC and nothing else in them changes,
and the listack configuration becomes grcli's ports, addresses, static
next hop and routes.

    /usr/bin/python3 tests/bench/test_grout_rate.py SOURCE_DIR

Output: `PASS name` / `FAIL name: reason`; exit 1 if any failed.
"""

import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_pktgen import check, failed  # noqa: E402

SRC = sys.argv[1] if len(sys.argv) > 1 else "."


def frames(path):
    with open(path, "rb") as f:
        data = f.read()
    off, out = 24, []
    while off + 16 <= len(data):
        incl = struct.unpack_from("<I", data, off + 8)[0]
        out.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return data[:24], out


def main():
    work = tempfile.mkdtemp(prefix="lsk-test-grout.")
    try:
        traffic = os.path.join(SRC, "bench", "dut", "traffic.py")
        pcap = os.path.join(work, "feed.pcap")
        conf = os.path.join(work, "fwd.conf")
        subprocess.run([sys.executable, traffic, "pcap", "--routes", "3",
                        "--flows", "5", "--size", "64", pcap], check=True,
                       capture_output=True)
        with open(conf, "w") as f:
            subprocess.run([sys.executable, traffic, "conf", "--routes",
                            "3"], check=True, stdout=f)
        r = subprocess.run([sys.executable,
                            os.path.join(SRC, "bench", "grout-rate.py"),
                            "--grout", "/opt/x/grout", "--pcap", pcap,
                            "--conf", conf, "--out", work, "--print"],
                           capture_output=True, text=True, timeout=60)
        why = []
        if r.returncode != 0:
            why.append("exit %d: %s" % (r.returncode, r.stderr))
        lines = r.stdout.splitlines()
        if len(lines) != 2 or \
                not lines[0].startswith("taskset -c 1 /opt/x/grout -t -p") \
                or not lines[1].startswith("/opt/x/grcli -s "):
            why.append("commands: %s" % lines)
        hdr0, f0 = frames(pcap)
        out = os.path.join(work, "grout-feed.pcap")
        hdr1, f1 = frames(out) if os.path.exists(out) else (b"", [])
        if not f0 or len(f1) != len(f0) or hdr0 != hdr1:
            why.append("%d frames in, %d out" % (len(f0), len(f1)))
        for a, b in zip(f0, f1):
            if b[:6] != bytes.fromhex("027063617000") or a[6:] != b[6:]:
                why.append("a frame is not readdressed alone")
                break
        cli = open(os.path.join(work, "grout.cli")).read().splitlines() \
            if os.path.exists(os.path.join(work, "grout.cli")) else []
        want = ["interface add port p0 devargs net_pcap0,rx_pcap=%s,"
                "infinite_rx=1" % out,
                "interface add port p1 devargs net_null1,no-rx=1",
                "address add 10.0.0.1/24 iface p0",
                "address add 10.0.1.1/24 iface p1",
                "nexthop add l3 iface p1 address 10.0.1.2 mac "
                "02:00:00:00:02:02",
                "route add 198.18.1.0/24 via 10.0.1.2",
                "route add 198.18.2.0/24 via 10.0.1.2",
                "route add 198.18.3.0/24 via 10.0.1.2"]
        if cli != want:
            why.append("grout.cli:\n%s" % "\n".join(cli))
        check("grout-rate.py --print: the readdressed feed and grcli's "
              "commands", why)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
