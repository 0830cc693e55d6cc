/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet trace, the commands (control/trace_arm.c arms and clears the
 * trace; core/trace.h has the workers' side):
 *   trace add N [port P] [match FIELD VALUE ...]
 *   trace show
 *   trace clear
 * FIELD: src, dst (an address or a prefix, IPv4 or IPv6: both of one
 * family), proto (a number, udp, tcp, icmp, icmp6), sport, dport, port,
 * vlan. `trace add` arms a new trace,
 * replacing the one before (its records go); `trace clear` arms none.
 * `trace show` reads only packets whose trace has ended (published by
 * the worker with a release store), never written again: no lock on
 * either side. Like capture, these are actions, not
 * configuration: they run alone or beside views, never in a batch.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "core/trace.h"
#include "control/control.h"
#include "cli/cmd.h"
#include "listack/ip6.h"

static int
trace_usage(struct cmd_ctx *c)
{
	return cmd_error(c, -EINVAL, "usage: %s", cmd_usage("trace"));
}

static int
parse_addr(const char *w, uint32_t *addr, uint32_t *mask)
{
	char buf[32];
	const char *slash = strchr(w, '/');
	unsigned long depth = 32;
	struct in_addr a;
	size_t len = slash ? (size_t)(slash - w) : strlen(w);

	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, w, len);
	buf[len] = '\0';
	if (inet_pton(AF_INET, buf, &a) != 1)
		return -EINVAL;
	if (slash != NULL && cmd_parse_uint(slash + 1, 32, &depth) < 0)
		return -EINVAL;
	*mask = depth == 0 ? 0 : ~UINT32_C(0) << (32 - depth);
	*addr = ntohl(a.s_addr) & *mask;
	return 0;
}

/* ADDR6 or ADDR6/LEN (host bits cleared here: a prefix matches what
 * it covers) */
static int
parse_addr6(const char *w, uint8_t *addr, uint8_t *depth)
{
	struct lsk_ip6_addr a;
	unsigned int i;

	if (strchr(w, '/') != NULL) {
		if (cmd_parse_prefix6(w, &a, depth) < 0)
			return -EINVAL;
	} else {
		if (cmd_parse_ip6(w, &a) < 0)
			return -EINVAL;
		*depth = 128;
	}
	for (i = 0; i < 16; i++) {
		unsigned int bits = *depth > i * 8 ? *depth - i * 8 : 0;

		addr[i] = bits >= 8 ? a.a[i] :
			  (uint8_t)(a.a[i] & (0xff00u >> bits));
	}
	return 0;
}

static int
parse_field(struct cmd_ctx *c, struct lsk_trace_match *m, const char *f,
	    const char *v)
{
	unsigned long x;

	if ((strcmp(f, "src") == 0 || strcmp(f, "dst") == 0) &&
	    cmd_is_ip6(v)) {
		bool src = f[0] == 's';

		if (parse_addr6(v, src ? m->src6 : m->dst6,
				src ? &m->src6_depth : &m->dst6_depth) < 0)
			return cmd_error(c, -EINVAL, "bad address '%s'", v);
		m->fields |= src ? LSK_TM_SRC6 : LSK_TM_DST6;
	} else if (strcmp(f, "src") == 0 || strcmp(f, "dst") == 0) {
		bool src = f[0] == 's';

		if (parse_addr(v, src ? &m->src : &m->dst,
			       src ? &m->src_mask : &m->dst_mask) < 0)
			return cmd_error(c, -EINVAL, "bad address '%s'", v);
		m->fields |= src ? LSK_TM_SRC : LSK_TM_DST;
	} else if (strcmp(f, "proto") == 0) {
		if (strcmp(v, "udp") == 0)
			x = 17;
		else if (strcmp(v, "tcp") == 0)
			x = 6;
		else if (strcmp(v, "icmp") == 0)
			x = 1;
		else if (strcmp(v, "icmp6") == 0)
			x = 58;
		else if (cmd_parse_uint(v, 255, &x) < 0)
			return cmd_error(c, -EINVAL, "bad protocol '%s'", v);
		m->proto = (uint8_t)x;
		m->fields |= LSK_TM_PROTO;
	} else if (strcmp(f, "sport") == 0 || strcmp(f, "dport") == 0) {
		if (cmd_parse_uint(v, 65535, &x) < 0)
			return cmd_error(c, -EINVAL, "bad port '%s'", v);
		if (f[0] == 's')
			m->sport = (uint16_t)x;
		else
			m->dport = (uint16_t)x;
		m->fields |= f[0] == 's' ? LSK_TM_SPORT : LSK_TM_DPORT;
	} else if (strcmp(f, "port") == 0) {
		int named = cmd_port_by_name(c, v);

		if (named >= 0)
			x = (unsigned long)named;
		else if (cmd_parse_uint(v, c->s->n_ports - 1, &x) < 0)
			return cmd_error(c, -EINVAL, "no port '%s'", v);
		m->port = (uint16_t)x;
		m->fields |= LSK_TM_PORT;
	} else if (strcmp(f, "vlan") == 0) {
		if (cmd_parse_uint(v, 4094, &x) < 0)
			return cmd_error(c, -EINVAL, "bad VLAN '%s'", v);
		m->vlan = (uint16_t)x;
		m->fields |= LSK_TM_VLAN;
	} else {
		return cmd_error(c, -EINVAL, "no match field '%s' (src dst "
				 "proto sport dport port vlan)", f);
	}
	return 0;
}

/* trace add N [port P] [match FIELD VALUE ...] */
int
cmd_trace_parse(struct cmd_ctx *c, unsigned long *n, struct lsk_trace_match *m)
{
	int i = 3, rc;

	memset(m, 0, sizeof(*m));
	if (c->argc < 3 || cmd_parse_uint(c->argv[2], UINT32_MAX, n) < 0 ||
	    *n == 0)
		return c->argc < 3 ? trace_usage(c) :
		       cmd_error(c, -EINVAL, "bad count '%s'", c->argv[2]);
	if (i + 1 < c->argc && strcmp(c->argv[i], "port") == 0) {
		rc = parse_field(c, m, "port", c->argv[i + 1]);
		if (rc < 0)
			return rc;
		i += 2;
	}
	if (i == c->argc)
		return 0;
	if (strcmp(c->argv[i], "match") != 0 || i + 1 == c->argc)
		return trace_usage(c);
	for (i++; i < c->argc; i += 2) {
		if (i + 1 == c->argc)
			return cmd_error(c, -EINVAL, "match %s: no value",
					 c->argv[i]);
		rc = parse_field(c, m, c->argv[i], c->argv[i + 1]);
		if (rc < 0)
			return rc;
	}
	if ((m->fields & (LSK_TM_SRC | LSK_TM_DST)) &&
	    (m->fields & (LSK_TM_SRC6 | LSK_TM_DST6)))
		return cmd_error(c, -EINVAL, "match src and dst: one family "
				 "(IPv4 or IPv6), not both");
	return 0;
}

struct trace_totals {
	uint64_t overflow;
	unsigned int done, open;
};

static void
trace_count(const struct lsk_trace *t, struct trace_totals *tt)
{
	unsigned int i, j;

	memset(tt, 0, sizeof(*tt));
	for (i = 0; i < t->n_workers; i++) {
		tt->overflow += __atomic_load_n(&t->w[i].overflow,
						__ATOMIC_RELAXED);
		for (j = 0; j < LSK_TRACE_PKTS; j++) {
			uint32_t st = __atomic_load_n(&t->w[i].pkt[j].state,
						      __ATOMIC_ACQUIRE);

			tt->done += st == LSK_TRACE_DONE;
			/* in flight: on a worker, or waiting for ARP */
			tt->open += st == LSK_TRACE_OPEN ||
				    st == LSK_TRACE_HELD;
		}
	}
}

/* The ended packets one after the other, worker by worker, from
 * *pos = 0 (NULL after the last); *worker is the packet's. */
static const struct lsk_trace_pkt *
trace_next_done(const struct lsk_trace *t, unsigned int *pos,
		unsigned int *worker)
{
	while (*pos < t->n_workers * LSK_TRACE_PKTS) {
		unsigned int w = *pos / LSK_TRACE_PKTS;
		const struct lsk_trace_pkt *p =
			&t->w[w].pkt[*pos % LSK_TRACE_PKTS];

		(*pos)++;
		if (__atomic_load_n(&p->state, __ATOMIC_ACQUIRE) ==
		    LSK_TRACE_DONE) {
			*worker = w;
			return p;
		}
	}
	return NULL;
}

static int
trace_show_json(struct lsk_out *o, const struct lsk_trace *t,
		const struct trace_totals *tt)
{
	const struct lsk_trace_pkt *p;
	unsigned int i, k, pos = 0;
	bool first = true;
	int rc;

	rc = lsk_out_printf(o, "{\"armed\": %" PRIu64 ", \"claimed\": %" PRIu64
			    ", \"overflow\": %" PRIu64 ", \"in_flight\": %u, "
			    "\"packets\": [", t->budget,
			    __atomic_load_n(&t->claimed, __ATOMIC_RELAXED),
			    tt->overflow, tt->open);
	while (rc == 0 && (p = trace_next_done(t, &pos, &i)) != NULL) {
		rc = lsk_out_printf(o, "%s{\"worker\": %u, \"port\": %u, "
				    "\"records_lost\": %u, \"records\": [",
				    first ? "" : ", ", i, p->port,
				    p->recs_lost);
		first = false;
		for (k = 0; k < p->n_recs && rc == 0; k++) {
			rc = lsk_out_printf(o, "%s{\"stage\": \"%s\", "
					    "\"text\": ", k ? ", " : "",
					    p->rec[k].stage);
			if (rc == 0)
				rc = lsk_out_json_str(o, p->rec[k].text);
			if (rc == 0)
				rc = lsk_out_printf(o, "}");
		}
		if (rc == 0)
			rc = lsk_out_printf(o, "]}");
	}
	if (rc == 0)
		rc = lsk_out_printf(o, "]}\n");
	return rc;
}

static int
trace_show(struct cmd_ctx *c)
{
	const struct lsk_trace *t = c->s->sh.trace;	/* ours to free only */
	const struct lsk_trace_pkt *p;
	struct trace_totals tt;
	unsigned int i, k, shown = 0, pos = 0;
	int rc;

	if (t == NULL)
		return c->o->json ? lsk_out_printf(c->o, "null\n") :
		       lsk_out_printf(c->o, "trace  none\n");
	trace_count(t, &tt);
	if (c->o->json)
		return trace_show_json(c->o, t, &tt);
	rc = lsk_out_printf(c->o, "trace  %" PRIu64 " armed, %" PRIu64
			    " claimed, %u ended, %u in flight, %" PRIu64
			    " overflow\n", t->budget,
			    __atomic_load_n(&t->claimed, __ATOMIC_RELAXED),
			    tt.done, tt.open, tt.overflow);
	while (rc == 0 && (p = trace_next_done(t, &pos, &i)) != NULL) {
		rc = lsk_out_printf(c->o, "packet %u  worker %u  port %u%s\n",
				    ++shown, i, p->port, p->recs_lost ?
				    "  (records lost)" : "");
		for (k = 0; k < p->n_recs && rc == 0; k++)
			rc = lsk_out_printf(c->o, "  %-12s %s\n",
					    p->rec[k].stage,
					    p->rec[k].text);
	}
	return rc;
}

int
cmd_trace(struct cmd_ctx *c)
{
	struct lsk_trace_match m;
	unsigned long n = 0;
	int rc;

	if (c->argc < 2)
		return trace_usage(c);
	if (strcmp(c->argv[1], "show") == 0) {
		if (c->argc != 2)
			return trace_usage(c);
		if (c->check)
			return 0;
		rc = trace_show(c);
		return rc < 0 || c->o->oom ?
		       cmd_error(c, -ENOMEM, "no memory for the view") : 0;
	}
	if (strcmp(c->argv[1], "clear") == 0) {
		if (c->argc != 2)
			return trace_usage(c);
		rc = 0;
	} else if (strcmp(c->argv[1], "add") == 0) {
		rc = cmd_trace_parse(c, &n, &m);
	} else {
		return trace_usage(c);
	}
	if (rc < 0 || c->check)
		return rc;
	if (c->s->in_batch)
		return cmd_error(c, -EINVAL, "trace %s runs alone, not in a "
				 "batch of changes", c->argv[1]);
	if (strcmp(c->argv[1], "clear") == 0) {
		lsk_trace_clear(c->s);
		return 0;
	}
	rc = lsk_trace_arm(c->s, n, &m);
	return rc < 0 ? cmd_error(c, rc, "cannot trace: %s", strerror(-rc)) :
	       0;
}
