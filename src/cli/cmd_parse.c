/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The words of the control grammar: numbers, addresses, prefixes, ports,
 * MACs and endpoints, each parser either filling its result or writing
 * "SOURCE:LINE: what is wrong" (cmd_error) and changing nothing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "control/control.h"
#include "cli/cmd.h"

int
cmd_error(struct cmd_ctx *c, int rc, const char *fmt, ...)
{
	char *err = c->o->err;
	size_t n, len = sizeof(c->o->err);
	va_list ap;

	n = (size_t)snprintf(err, len, "%s:%u: ", c->source, c->line);
	if (n < len) {
		va_start(ap, fmt);
		vsnprintf(err + n, len - n, fmt, ap);
		va_end(ap);
	}
	return rc;
}

int
cmd_parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (s == NULL || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end != '\0' || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

int
cmd_parse_ip(const char *s, uint32_t *out)
{
	struct in_addr a;

	if (s == NULL || inet_pton(AF_INET, s, &a) != 1)
		return -EINVAL;
	*out = ntohl(a.s_addr);
	return 0;
}

/* "A.B.C.D/L", "A.B.C.D" (a /32) or "default". */
int
cmd_parse_prefix(const char *s, uint32_t *addr, uint8_t *depth)
{
	char buf[32];
	char *slash;
	unsigned long d = 32;

	if (s != NULL && strcmp(s, "default") == 0) {
		*addr = 0;
		*depth = 0;
		return 0;
	}
	if (s == NULL || strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash != NULL) {
		*slash = '\0';
		if (cmd_parse_uint(slash + 1, 32, &d) < 0)
			return -EINVAL;
	}
	if (cmd_parse_ip(buf, addr) < 0)
		return -EINVAL;
	*depth = (uint8_t)d;
	return 0;
}

/*
 * The port a name names. The check pass of a batch applies nothing, so
 * the names its earlier lines gave are in c->names (a copy of the
 * stack's, made at the first name looked up or given).
 */
char (*cmd_port_names(struct cmd_ctx *c))[LSK_PORT_NAME_MAX]
{
	if (!c->check)
		return c->s->port_names;
	if (!c->names_copied) {
		memcpy(c->names, c->s->port_names, sizeof(c->names));
		c->names_copied = true;
	}
	return c->names;
}

int
cmd_port_by_name(struct cmd_ctx *c, const char *s)
{
	char (*names)[LSK_PORT_NAME_MAX] = cmd_port_names(c);
	unsigned int p;

	for (p = 0; s != NULL && s[0] != '\0' && p < c->s->n_ports; p++)
		if (strcmp(names[p], s) == 0)
			return (int)p;
	return -ENODEV;
}

int
cmd_parse_port(struct cmd_ctx *c, const char *s, uint16_t *port)
{
	unsigned long v;
	int named = cmd_port_by_name(c, s);

	if (named >= 0) {
		*port = (uint16_t)named;
		return 0;
	}
	if (s != NULL && s[0] >= 'a' && s[0] <= 'z')
		return cmd_error(c, -ENODEV, "no port named '%s'", s);
	if (cmd_parse_uint(s, UINT16_MAX, &v) < 0)
		return cmd_error(c, -EINVAL, "bad port number '%s'",
				 s ? s : "");
	if (v >= c->s->n_ports)
		return cmd_error(c, -ENODEV,
				 "port %lu does not exist (%u ports)", v,
				 c->s->n_ports);
	*port = (uint16_t)v;
	return 0;
}

int
cmd_parse_mac(struct cmd_ctx *c, const char *s, struct rte_ether_addr *mac)
{
	if (s == NULL || rte_ether_unformat_addr(s, mac) < 0 ||
	    strlen(s) != 17)
		return cmd_error(c, -EINVAL, "bad MAC address '%s'",
				 s ? s : "");
	if (!rte_is_unicast_ether_addr(mac) || rte_is_zero_ether_addr(mac))
		return cmd_error(c, -EINVAL,
				 "MAC address %s is not a unicast address", s);
	return 0;
}

void
cmd_ip_text(uint32_t a, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u.%u", a >> 24, (a >> 16) & 0xff,
		 (a >> 8) & 0xff, a & 0xff);
}

int
cmd_parse_route_prefix(struct cmd_ctx *c, const char *s, uint32_t *prefix,
		   uint8_t *depth)
{
	if (cmd_parse_prefix(s, prefix, depth) < 0)
		return cmd_error(c, -EINVAL, "bad prefix '%s'", s ? s : "");
	if (*prefix & ~lsk_depth_mask(*depth)) {
		char net[24];

		/* as ip route refuses it: what was meant is a guess */
		cmd_prefix_text(*prefix & lsk_depth_mask(*depth), *depth, net,
				sizeof(net));
		return cmd_error(c, -EINVAL, "prefix %s has host bits set "
				 "(the prefix is %s)", s, net);
	}
	return 0;
}

/* ADDR:PORT, ADDR may be 0.0.0.0 (every local address) */
int
cmd_parse_endpoint(struct cmd_ctx *c, const char *s, uint32_t *addr,
	       uint16_t *port)
{
	char buf[32];
	char *colon;
	unsigned long p;

	if (s == NULL || strlen(s) >= sizeof(buf))
		return cmd_error(c, -EINVAL, "bad endpoint '%s' (want A.B.C.D:PORT)",
				 s ? s : "");
	strcpy(buf, s);
	colon = strrchr(buf, ':');
	if (colon == NULL)
		return cmd_error(c, -EINVAL, "bad endpoint '%s' (want A.B.C.D:PORT)",
				 s);
	*colon = '\0';
	if (cmd_parse_ip(buf, addr) < 0)
		return cmd_error(c, -EINVAL, "bad address in '%s'", s);
	if (cmd_parse_uint(colon + 1, UINT16_MAX, &p) < 0 || p == 0)
		return cmd_error(c, -EINVAL, "bad port in '%s' (1-65535)", s);
	*port = (uint16_t)p;
	return 0;
}

/* A[-B] */
int
cmd_parse_port_range(const char *s, uint16_t *lo, uint16_t *hi)
{
	char buf[16];
	char *dash;
	unsigned long a, b;

	if (s == NULL || strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	dash = strchr(buf, '-');
	if (dash != NULL)
		*dash = '\0';
	if (cmd_parse_uint(buf, UINT16_MAX, &a) < 0)
		return -EINVAL;
	b = a;
	if (dash != NULL && cmd_parse_uint(dash + 1, UINT16_MAX, &b) < 0)
		return -EINVAL;
	if (b < a)
		return -EINVAL;
	*lo = (uint16_t)a;
	*hi = (uint16_t)b;
	return 0;
}

int
cmd_parse_proto(const char *s, uint8_t *proto)
{
	unsigned long v;

	if (s == NULL)
		return -EINVAL;
	if (strcmp(s, "udp") == 0)
		*proto = IPPROTO_UDP;
	else if (strcmp(s, "tcp") == 0)
		*proto = IPPROTO_TCP;
	else if (strcmp(s, "icmp") == 0)
		*proto = IPPROTO_ICMP;
	else if (cmd_parse_uint(s, 255, &v) == 0 && v > 0)
		*proto = (uint8_t)v;
	else
		return -EINVAL;
	return 0;
}

int
cmd_split(struct cmd_ctx *c, char *line)
{
	char *p, *save = NULL;

	c->argc = 0;
	p = strchr(line, '#');
	if (p != NULL)
		*p = '\0';
	for (p = strtok_r(line, " \t\r\n", &save); p != NULL;
	     p = strtok_r(NULL, " \t\r\n", &save)) {
		if (c->argc == CMD_MAX_WORDS)
			return cmd_error(c, -EINVAL, "too many words");
		c->argv[c->argc++] = p;
	}
	return cmd_words_resolve(c);
}
