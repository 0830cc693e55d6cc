#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A listack-fwd configuration with N routes (default 1M), for the
"Live route changes" figures of bench/RESULTS.md: two ports, their
subnets, two gateways, and N /24s from 16.0.0.0 up via the gateways.

    bench/gen-routes.py [N] > routes.conf
"""
import sys


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
    if n < 0 or n > (1 << 24) - (16 << 16):
        sys.exit("N: 0 to %d" % ((1 << 24) - (16 << 16)))
    out = sys.stdout
    out.write("address add 10.0.0.254/24 port 0\n"
              "address add 10.0.1.254/24 port 1\n"
              "neigh add 10.0.1.1 lladdr 02:00:00:00:01:01\n")
    gws = ("10.0.1.1", "10.0.1.2")
    base = 16 << 16          # 16.0.0.0 / 256
    for k in range(n):
        p = base + k
        out.write("route add %d.%d.%d.0/24 via %s\n"
                  % (p >> 16, (p >> 8) & 255, p & 255, gws[k & 1]))


if __name__ == "__main__":
    main()
