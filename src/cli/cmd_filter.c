/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `filter add|del|flush ...`: the ACL in front of forwarding and local
 * delivery; first match wins, no match accepts (docs/configuration.md
 * ).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netinet/in.h>

#include "control/control.h"
#include "cli/cmd.h"

/* filter add accept|drop [proto P] [src PFX] [dst PFX] [sport A[-B]]
 * [dport A[-B]]; first match wins, no match accepts */
int
cmd_filter(struct cmd_ctx *c)
{
	struct lsk_filter_rule r = { .sport_hi = UINT16_MAX,
				     .dport_hi = UINT16_MAX };
	bool ports = false;
	int i, rc;

	if (c->argc == 2 && strcmp(c->argv[1], "flush") == 0)
		return c->check ? 0 : lsk_filter_flush(c->s);
	if (c->argc == 3 && strcmp(c->argv[1], "del") == 0) {
		unsigned long n;

		if (cmd_parse_uint(c->argv[2], LSK_FILTER_MAX_RULES, &n) < 0 ||
		    n == 0)
			return cmd_error(c, -EINVAL, "bad rule number '%s' (as "
					 "'show filter' numbers them)",
					 c->argv[2]);
		if (c->check)
			return 0;
		rc = lsk_filter_del(c->s, (uint32_t)n - 1);
		if (rc == -ENOENT)
			return cmd_error(c, rc, "no rule %lu (%u rules)", n,
					 c->s->n_filters);
		return rc < 0 ? cmd_error(c, rc, "cannot delete rule %lu: %s",
					  n, strerror(-rc)) : 0;
	}
	cmd_kw(c, 2, "accept drop");
	if (c->argc < 3 || strcmp(c->argv[1], "add") != 0 ||
	    (strcmp(c->argv[2], "accept") != 0 &&
	     strcmp(c->argv[2], "drop") != 0) || (c->argc - 3) % 2 != 0)
		return cmd_error(c, -EINVAL, "usage: filter add accept|drop "
				 "[proto P] [src PFX] [dst PFX] [sport A[-B]] "
				 "[dport A[-B]] | filter del N | filter flush");
	r.drop = strcmp(c->argv[2], "drop") == 0;
	for (i = 3; i < c->argc; i += 2) {
		const char *key, *val = c->argv[i + 1];

		cmd_kw(c, i, "proto src dst sport dport");
		key = c->argv[i];

		if (strcmp(key, "proto") == 0) {
			if (cmd_parse_proto(val, &r.proto) < 0)
				return cmd_error(c, -EINVAL, "bad protocol '%s' "
						 "(udp, tcp, icmp or 1-255)", val);
		} else if (strcmp(key, "src") == 0 || strcmp(key, "dst") == 0) {
			bool src = key[0] == 's';

			rc = cmd_parse_route_prefix(c, val, src ? &r.src : &r.dst,
						src ? &r.src_depth : &r.dst_depth);
			if (rc < 0)
				return rc;
		} else if (strcmp(key, "sport") == 0 ||
			   strcmp(key, "dport") == 0) {
			bool s = key[0] == 's';

			if (cmd_parse_port_range(val, s ? &r.sport_lo : &r.dport_lo,
					     s ? &r.sport_hi : &r.dport_hi) < 0)
				return cmd_error(c, -EINVAL, "bad port range "
						 "'%s' (A or A-B)", val);
			ports = true;
		} else {
			return cmd_error(c, -EINVAL, "unknown filter field '%s'",
					 key);
		}
	}
	if (ports && r.proto != IPPROTO_UDP && r.proto != IPPROTO_TCP)
		return cmd_error(c, -EINVAL,
				 "ports need 'proto udp' or 'proto tcp'");
	if (c->check)
		return 0;
	rc = lsk_filter_add(c->s, &r);
	return rc < 0 ? cmd_error(c, rc, "cannot add the rule: %s",
				  strerror(-rc)) : 0;
}
