/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The IPv6 scenarios (traffic6.c's addressing), named in scenarios[] of
 * scenario_fwd.c:
 *
 * fwd6: UDP/IPv6 forwarding from port 0 to a gateway on port 1 over R
 * routes (/56 each), single and list mode on the same traffic.
 *
 * gro6-fwd: 1452-byte payloads (1514-byte frames, the most a 1500 MTU
 * carries over IPv6) forwarded, GRO off and fraglist; the frames carry
 * the UDP checksum flag a NIC sets (IPv6 has no header checksum).
 *
 * The stack is configured with the commands an operator types
 * (lsk_config_exec), the grammar of docs/configuration.md.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

const struct bench_variant bench_fwd6_variants[] = {
	{ .name = "single", .mode = LSK_MODE_SINGLE },
	{ .name = "list", .mode = LSK_MODE_LIST },
};
const unsigned int bench_n_fwd6_variants = RTE_DIM(bench_fwd6_variants);

const struct bench_variant bench_gro6_variants[] = {
	{ .name = "off", .mode = LSK_MODE_LIST, .config = { "gro off" } },
	{ .name = "fraglist", .mode = LSK_MODE_LIST,
	  .config = { "gro fraglist" } },
};
const unsigned int bench_n_gro6_variants = RTE_DIM(bench_gro6_variants);

static int
exec(struct lsk_stack *s, const char *line, char *err, size_t len)
{
	int rc = lsk_config_exec(s, line, "fwd6", 1, err, len);

	if (rc < 0 && err[0] == '\0')
		snprintf(err, len, "%s: %s", line, strerror(-rc));
	return rc;
}

int
bench_fwd6_configure(struct lsk_stack *s, const struct bench_traffic *t,
		     char *err, size_t len)
{
	static const char *const fixed[] = {
		"address add 2001:db8:a::1/64 port 0",
		"address add 2001:db8:b::1/64 port 1",
		"neigh add 2001:db8:b::2 lladdr 02:00:00:00:02:02",
	};
	char line[160], a[INET6_ADDRSTRLEN];
	uint8_t pfx[16];
	unsigned int i;
	uint32_t k;
	int rc;

	rc = lsk_port_set(s, 0, &t->port_mac[0], 0);
	if (rc == 0)
		rc = lsk_port_set(s, 1, &t->port_mac[1], 0);
	if (rc < 0) {
		snprintf(err, len, "ports: %s", strerror(-rc));
		return rc;
	}
	for (i = 0; i < RTE_DIM(fixed); i++) {
		rc = exec(s, fixed[i], err, len);
		if (rc < 0)
			return rc;
	}
	for (k = 0; k < t->routes; k++) {
		/* route k's /24 as the 32 bits after 2001:db8: a /56 */
		bench_ip6_dst(bench_route_prefix(t, k), pfx);
		memset(pfx + 8, 0, 8);
		inet_ntop(AF_INET6, pfx, a, sizeof(a));
		snprintf(line, sizeof(line), "route add %s/56 via 2001:db8:b::2",
			 a);
		rc = exec(s, line, err, len);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void
bench_gro6_defaults(struct bench_opts *o)
{
	if (!o->size_given)
		o->size = BENCH_HDR6_LEN + 1452;	/* 1514 */
}
