/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `udp listen|close ...` (the built-in services) and `gro ...`
 * (docs/configuration.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include "core/fwd6.h"
#include "core/list.h"
#include "udp/udp.h"
#include "control/control.h"
#include "control/udp_ctl.h"
#include "cli/cmd.h"

/* A.B.C.D:PORT, or [ADDR6]:PORT (brackets as in URLs, DESIGN.md
 * "IPv6"). */
static int
udp_endpoint(struct cmd_ctx *c, const char *s, struct lsk_udp_addr *addr,
	     uint16_t *port)
{
	char buf[INET6_ADDRSTRLEN + 2];
	const char *close;
	unsigned long p;
	size_t n;

	memset(addr, 0, sizeof(*addr));
	if (s == NULL || s[0] != '[') {
		addr->family = AF_INET;
		return cmd_parse_endpoint(c, s, &addr->v4, port);
	}
	close = strchr(s, ']');
	n = close == NULL ? 0 : (size_t)(close - s - 1);
	if (close == NULL || close[1] != ':' || n == 0 || n >= sizeof(buf))
		return cmd_error(c, -EINVAL, "bad endpoint '%s' (want "
				 "A.B.C.D:PORT or [ADDR6]:PORT)", s);
	memcpy(buf, s + 1, n);
	buf[n] = '\0';
	addr->family = AF_INET6;
	if (inet_pton(AF_INET6, buf, &addr->v6) != 1 ||
	    lsk_ip6_is_multicast(&addr->v6))
		return cmd_error(c, -EINVAL, "bad address in '%s'", s);
	if (cmd_parse_uint(close + 2, UINT16_MAX, &p) < 0 || p == 0)
		return cmd_error(c, -EINVAL, "bad port in '%s' (1-65535)", s);
	*port = (uint16_t)p;
	return 0;
}

/* udp listen ADDR:PORT echo | discard | pcap FILE  [ring N]; ADDR as
 * udp_endpoint reads it */
int
cmd_udp(struct cmd_ctx *c)
{
	enum lsk_service_kind kind;
	const char *path = NULL;
	unsigned long ring = 0;
	struct lsk_udp_addr addr;
	uint16_t port = 0;
	int i, rc;

	if (c->argc == 3 && strcmp(c->argv[1], "close") == 0) {
		rc = udp_endpoint(c, c->argv[2], &addr, &port);
		if (rc < 0 || c->check)
			return rc;
		rc = lsk_service_close(c->s, &addr, port);
		if (rc == -ENOENT)
			return cmd_error(c, rc, "no 'udp listen' service on %s",
					 c->argv[2]);
		return rc;
	}
	if (c->argc < 4 || strcmp(c->argv[1], "listen") != 0)
		return cmd_error(c, -EINVAL, "usage: udp listen ADDR:PORT "
				 "echo|discard|pcap FILE [ring N] | "
				 "udp close ADDR:PORT");
	rc = udp_endpoint(c, c->argv[2], &addr, &port);
	if (rc < 0)
		return rc;
	i = 4;
	cmd_kw(c, 3, "echo discard pcap");
	if (strcmp(c->argv[3], "echo") == 0) {
		kind = LSK_SERVICE_ECHO;
	} else if (strcmp(c->argv[3], "discard") == 0) {
		kind = LSK_SERVICE_DISCARD;
	} else if (strcmp(c->argv[3], "pcap") == 0) {
		kind = LSK_SERVICE_PCAP;
		if (c->argc < 5)
			return cmd_error(c, -EINVAL, "pcap needs a FILE");
		path = c->argv[4];
		i = 5;
	} else {
		return cmd_error(c, -EINVAL, "unknown service '%s' (echo, "
				 "discard or pcap FILE)", c->argv[3]);
	}
	if (i < c->argc) {
		cmd_kw(c, i, "ring");
		if (strcmp(c->argv[i], "ring") != 0 || i + 2 != c->argc ||
		    cmd_parse_uint(c->argv[i + 1], 1u << 24, &ring) < 0 ||
		    ring == 0)
			return cmd_error(c, -EINVAL, "expected 'ring N' "
					 "(1-16777216) after the service");
	}
	if (c->check)
		return 0;
	rc = lsk_service_add(c->s, kind, &addr, port, path, (uint32_t)ring);
	if (rc == -EADDRINUSE)
		return cmd_error(c, rc, "%s is already in use", c->argv[2]);
	if (rc == -EADDRNOTAVAIL)
		return cmd_error(c, rc, "%s: not one of our addresses "
				 "(add it first, or listen on %s)",
				 c->argv[2], addr.family == AF_INET6 ? "[::]" :
				 "0.0.0.0");
	if (rc == -EACCES)
		return cmd_error(c, rc, "cannot write pcap file '%s'", path);
	if (rc < 0)
		return cmd_error(c, rc, "cannot listen on %s: %s", c->argv[2],
				 strerror(-rc));
	return 0;
}

/*
 * In a batch the setting waits for the commit (a refused batch leaves it
 * as it was); what could fail then (registering the train's mbuf field)
 * is done now.
 */
static int
gro_set(struct cmd_ctx *c, uint32_t flows, uint32_t segs, bool merge)
{
	struct lsk_batch_settings *b = &c->s->batch_set;
	int rc;

	if (!c->s->in_batch) {
		/* a refused line changes nothing: the mode once all is valid */
		rc = lsk_gro_set(c->s, flows, segs);
		if (rc == 0)
			lsk_gro_set_merge(c->s, merge);
		return rc;
	}
	if (flows != 0 && lsk_train_next_offset < 0) {
		rc = lsk_train_register();
		if (rc < 0)
			return rc;
	}
	b->gro = true;
	b->gro_flows = flows;
	b->gro_segs = segs;
	b->gro_merge = merge;
	return 0;
}

/* gro fraglist [flows F] [segs S] | gro off */
int
cmd_gro(struct cmd_ctx *c)
{
	unsigned long flows = 64, segs = 64;
	int i, rc;

	if (c->argc == 2 && strcmp(c->argv[1], "off") == 0)
		return c->check ? 0 : gro_set(c, 0, 0, false);
	if (c->argc < 2 || (strcmp(c->argv[1], "fraglist") != 0 &&
			    strcmp(c->argv[1], "merge") != 0) ||
	    c->argc % 2 != 0)
		return cmd_error(c, -EINVAL, "usage: gro fraglist|merge "
				 "[flows F] [segs S] | gro off");
	for (i = 2; i < c->argc; i += 2) {
		cmd_kw(c, i, "flows segs");
		if (strcmp(c->argv[i], "flows") == 0) {
			if (cmd_parse_uint(c->argv[i + 1], LSK_BURST_MAX, &flows) < 0 ||
			    flows == 0)
				return cmd_error(c, -EINVAL, "bad flows '%s' "
						 "(1-%d)", c->argv[i + 1],
						 LSK_BURST_MAX);
		} else if (strcmp(c->argv[i], "segs") == 0) {
			if (cmd_parse_uint(c->argv[i + 1], 64, &segs) < 0 ||
			    segs < 2)
				return cmd_error(c, -EINVAL, "bad segs '%s' "
						 "(2-64)", c->argv[i + 1]);
		} else {
			return cmd_error(c, -EINVAL, "unknown gro setting '%s'",
					 c->argv[i]);
		}
	}
	if (c->check)
		return 0;
	rc = gro_set(c, (uint32_t)flows, (uint32_t)segs,
		     strcmp(c->argv[1], "merge") == 0);
	if (rc < 0)
		return cmd_error(c, rc, "cannot enable gro: %s", strerror(-rc));
	return 0;
}
