/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping and traceroute from the router (docs/operating.md):
 *   ping ADDR [count N] [size B] [source ADDR] [interval MS]
 *        [timeout MS] [port N]
 *   traceroute ADDR [max-hops N] [probes N] [source ADDR] [wait MS]
 *        [port N]
 * ADDR and the source are IPv4 or IPv6 addresses, both of one family;
 * `port N` names the link of a link-local IPv6 destination (fe80::/10
 * is on every link). Both send ICMP (ICMPv6) echo requests (traceroute
 * with a TTL, a hop limit, growing from 1)
 * through the send ring worker 0 routes, and read what answers them from
 * the sink the workers fill (control/ping.h). Like capture and trace
 * they are actions: alone or beside views, never in a batch of changes.
 * The call waits until it is done, letting the stack's lock go while it
 * sleeps; its length is bounded (cli/ping.h) because the control socket
 * serves one batch at a time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "control/control.h"
#include "control/ping.h"
#include "core/fwd6.h"
#include "cli/cmd.h"
#include "cli/ping.h"

/* How often a run looks at the sink while it waits. */
#define PING_TICK_MS 2

struct ping_opts {
	uint32_t dst, src;
	bool v6;			/* IPv6: dst6, src6, iface */
	bool has_src;
	struct lsk_ip6_addr dst6, src6;
	uint16_t iface;			/* port N's, or LSK_IFACE_ANY */
	unsigned long count, size, interval, timeout;	/* ping */
	unsigned long max_hops, probes, wait;		/* traceroute */
};

static int
ping_opt(struct cmd_ctx *c, const char *name, const char *v,
	 unsigned long lo, unsigned long hi, unsigned long *out)
{
	if (cmd_parse_uint(v, hi, out) < 0 || *out < lo)
		return cmd_error(c, -EINVAL, "%s: bad %s '%s' (%lu to %lu)",
				 c->argv[0], name, v, lo, hi);
	return 0;
}

/* ADDR, or the source's v: of the run's family (p->v6). */
static int
ping_addr(const struct ping_opts *p, const char *v, uint32_t *a,
	  struct lsk_ip6_addr *a6)
{
	if (p->v6)
		return cmd_is_ip6(v) ? cmd_parse_ip6(v, a6) : -EINVAL;
	return cmd_parse_ip(v, a);
}

/* `port N`: the interface of port N (its VLANs are not asked for: a
 * link-local destination on a VLAN is not probed). */
static int
ping_port(struct cmd_ctx *c, const char *v, struct ping_opts *p)
{
	uint16_t port;
	int rc;

	if (!p->v6)
		return cmd_error(c, -EINVAL, "%s: 'port' is for IPv6 "
				 "link-local destinations", c->argv[0]);
	rc = cmd_parse_port(c, v, &port);
	if (rc < 0)
		return rc;
	rc = lsk_iface_find(c->s, port, 0);
	if (rc < 0)
		return cmd_error(c, rc, "%s: no port %u", c->argv[0], port);
	p->iface = (uint16_t)rc;
	return 0;
}

/* The words after ADDR; trace: traceroute's. */
static int
ping_parse(struct cmd_ctx *c, bool trace, struct ping_opts *p)
{
	int i, rc = 0;

	*p = (struct ping_opts){ .count = 4, .size = 56, .interval = 1000,
				 .timeout = 1000, .max_hops = 30,
				 .probes = 3, .wait = 1000,
				 .iface = LSK_IFACE_ANY };
	if (c->argc < 2 || c->argc % 2 != 0)
		return cmd_error(c, -EINVAL, "usage: %s",
				 cmd_usage(c->argv[0]));
	p->v6 = cmd_is_ip6(c->argv[1]);
	if (ping_addr(p, c->argv[1], &p->dst, &p->dst6) < 0)
		return cmd_error(c, -EINVAL, "%s: bad address '%s'",
				 c->argv[0], c->argv[1]);
	for (i = 2; rc == 0 && i < c->argc; i += 2) {
		const char *k = c->argv[i], *v = c->argv[i + 1];

		if (strcmp(k, "source") == 0) {
			p->has_src = true;
			if (ping_addr(p, v, &p->src, &p->src6) < 0)
				rc = cmd_error(c, -EINVAL, "%s: bad source "
					       "'%s'", c->argv[0], v);
		} else if (strcmp(k, "port") == 0) {
			rc = ping_port(c, v, p);
		} else if (!trace && strcmp(k, "count") == 0) {
			rc = ping_opt(c, k, v, 1, CMD_PING_COUNT_MAX,
				      &p->count);
		} else if (!trace && strcmp(k, "size") == 0) {
			rc = ping_opt(c, k, v, 0, LSK_PING_SIZE_MAX, &p->size);
		} else if (!trace && strcmp(k, "interval") == 0) {
			rc = ping_opt(c, k, v, 10, 10000, &p->interval);
		} else if (!trace && strcmp(k, "timeout") == 0) {
			rc = ping_opt(c, k, v, 1, 10000, &p->timeout);
		} else if (trace && strcmp(k, "max-hops") == 0) {
			rc = ping_opt(c, k, v, 1, CMD_TRACE_HOPS_MAX,
				      &p->max_hops);
		} else if (trace && strcmp(k, "probes") == 0) {
			rc = ping_opt(c, k, v, 1, CMD_TRACE_PROBES_MAX,
				      &p->probes);
		} else if (trace && strcmp(k, "wait") == 0) {
			rc = ping_opt(c, k, v, 1, 5000, &p->wait);
		} else {
			rc = cmd_error(c, -EINVAL, "usage: %s",
				       cmd_usage(c->argv[0]));
		}
	}
	if (rc < 0)
		return rc;
	if (!trace && (p->count - 1) * p->interval + p->timeout >
		      CMD_PING_TOTAL_MS_MAX)
		return cmd_error(c, -EINVAL, "ping: (count - 1) x interval + "
				 "timeout is over %u ms",
				 CMD_PING_TOTAL_MS_MAX);
	if (trace && p->max_hops * p->wait > CMD_PING_TOTAL_MS_MAX)
		return cmd_error(c, -EINVAL, "traceroute: max-hops x wait is "
				 "over %u ms", CMD_PING_TOTAL_MS_MAX);
	return 0;
}

/* IPv6's ping_source (below): a link-local destination names its
 * port; the source given is one of ours. */
static int
ping6_source(struct cmd_ctx *c, struct ping_opts *p)
{
	struct lsk_route6_answer a;
	char src[46];

	if (lsk_ip6_is_linklocal(&p->dst6) && p->iface == LSK_IFACE_ANY)
		return cmd_error(c, -EINVAL, "%s: %s is link-local: say "
				 "which port (port N)", c->argv[0], c->argv[1]);
	if (lsk_ip6_is_multicast(&p->dst6))
		return cmd_error(c, -EINVAL, "%s: %s is a multicast group: "
				 "only other hosts are probed", c->argv[0],
				 c->argv[1]);
	if (lsk_route6_get(c->s, &p->dst6, p->iface, &a) == 0 &&
	    a.verdict == LSK_VERDICT_LOCAL)
		return cmd_error(c, -EINVAL, "%s: %s is one of our addresses: "
				 "only other hosts are probed", c->argv[0],
				 c->argv[1]);
	if (!p->has_src) {
		if (lsk_ping6_source(c->s, &p->dst6, p->iface, &p->src6) < 0)
			return cmd_error(c, -ENETUNREACH, "%s: no route to "
					 "%s", c->argv[0], c->argv[1]);
		return 0;
	}
	cmd_ip6_text(&p->src6, src, sizeof(src));
	if (lsk_route6_get(c->s, &p->src6, p->iface, &a) < 0 ||
	    a.verdict != LSK_VERDICT_LOCAL)
		return cmd_error(c, -EADDRNOTAVAIL, "%s: source %s is not one "
				 "of our addresses", c->argv[0], src);
	if (lsk_route6_get(c->s, &p->dst6, p->iface, &a) < 0 ||
	    a.verdict != LSK_VERDICT_FORWARD)
		return cmd_error(c, -ENETUNREACH, "%s: no route to %s",
				 c->argv[0], c->argv[1]);
	return 0;
}

/* The source, given (one of ours) or the route's. */
static int
ping_source(struct cmd_ctx *c, struct ping_opts *p)
{
	struct lsk_route_answer a;

	if (p->v6)
		return ping6_source(c, p);

	if (lsk_route_get(c->s, p->dst, &a) == 0 &&
	    (a.verdict == LSK_VERDICT_LOCAL ||
	     a.verdict == LSK_VERDICT_BROADCAST))
		return cmd_error(c, -EINVAL, "%s: %s is %s: only other hosts "
				 "are probed", c->argv[0], c->argv[1],
				 a.verdict == LSK_VERDICT_LOCAL ?
				 "one of our addresses" : "a broadcast");
	if (p->src != 0) {
		char src[16];

		cmd_ip_text(p->src, src, sizeof(src));
		if (lsk_route_get(c->s, p->src, &a) < 0 ||
		    a.verdict != LSK_VERDICT_LOCAL)
			return cmd_error(c, -EADDRNOTAVAIL, "%s: source %s is "
					 "not one of our addresses",
					 c->argv[0], src);
		/* still needs a way there */
		if (lsk_route_get(c->s, p->dst, &a) < 0 ||
		    a.verdict != LSK_VERDICT_FORWARD)
			return cmd_error(c, -ENETUNREACH, "%s: no route to "
					 "%s", c->argv[0], c->argv[1]);
		return 0;
	}
	if (lsk_ping_source(c->s, p->dst, &p->src) < 0)
		return cmd_error(c, -ENETUNREACH, "%s: no route to %s",
				 c->argv[0], c->argv[1]);
	return 0;
}

static double
tsc_ms(uint64_t from, uint64_t to)
{
	return to > from ? (double)(to - from) * 1000.0 /
			   (double)rte_get_tsc_hz() : 0.0;
}

/* The answers so far into r; sent[seq - 1]: each probe's send time. */
static void
ping_take(struct lsk_ping_sink *k, struct cmd_ping_result *r,
	  const uint64_t *sent, bool *got)
{
	struct lsk_ping_reply rep[32];
	unsigned int n, i;

	while ((n = lsk_ping_recv(k, rep, RTE_DIM(rep))) != 0) {
		for (i = 0; i < n; i++) {
			struct cmd_ping_answer *a;
			uint16_t seq = rep[i].seq;

			/* late, duplicate or not ours: nothing to tell */
			if (seq == 0 || seq > r->transmitted || got[seq - 1] ||
			    r->n == CMD_PING_COUNT_MAX)
				continue;
			got[seq - 1] = true;
			a = &r->answers[r->n++];
			a->from = rep[i].from;
			memcpy(&a->from6, rep[i].from6, sizeof(a->from6));
			a->seq = seq;
			a->bytes = rep[i].len;
			a->type = rep[i].type;
			a->code = rep[i].code;
			a->ttl = rep[i].ttl;
			a->ms = tsc_ms(sent[seq - 1], rep[i].tsc);
		}
	}
}

static int
ping_run(struct cmd_ctx *c, const struct ping_opts *p,
	 struct lsk_ping_sink *k, struct cmd_ping_result *r)
{
	uint64_t sent[CMD_PING_COUNT_MAX];
	bool got[CMD_PING_COUNT_MAX] = { false };
	uint64_t hz = rte_get_tsc_hz(), start = rte_rdtsc(), now;
	uint64_t end = 0;
	struct lsk_ping_probe pr = { .dst = p->dst, .src = p->src,
				     .size = (uint16_t)p->size, .ttl = 64,
				     .v6 = p->v6, .iface = p->iface,
				     .dst6 = p->dst6, .src6 = p->src6 };
	int rc;

	for (;;) {
		now = rte_rdtsc();
		if (r->transmitted < p->count &&
		    now >= start + r->transmitted * p->interval * hz / 1000) {
			pr.seq = (uint16_t)(r->transmitted + 1);
			rc = lsk_ping_send(c->s, k, &pr,
					   &sent[r->transmitted]);
			if (rc < 0)
				return cmd_error(c, rc, "ping: cannot send: %s",
						 strerror(-rc));
			r->transmitted++;
			if (r->transmitted == p->count)
				end = sent[r->transmitted - 1] +
				      p->timeout * hz / 1000;
		}
		ping_take(k, r, sent, got);
		if (r->transmitted == p->count &&
		    (r->n == p->count || rte_rdtsc() >= end))
			return 0;
		if (lsk_ping_stopped(c->s))
			return 0;	/* shutting down: what it has */
		lsk_ping_sleep(c->s, PING_TICK_MS);
	}
}

/* What a ping and a traceroute both begin with: the source checked, the
 * result's room (size bytes, zeroed) and the reply sink, or the error. */
static int
ping_begin(struct cmd_ctx *c, struct ping_opts *p, size_t size, void **r,
	   struct lsk_ping_sink **k)
{
	int rc = ping_source(c, p);

	if (rc < 0)
		return rc;
	*r = calloc(1, size);
	if (*r == NULL)
		return cmd_error(c, -ENOMEM, "%s: no memory", c->argv[0]);
	rc = lsk_ping_open(c->s, k);
	if (rc < 0) {
		free(*r);
		return cmd_error(c, rc, "%s: %s", c->argv[0], rc == -EBUSY ?
				 "a ping or traceroute runs already" :
				 strerror(-rc));
	}
	return 0;
}

static int
cmd_ping_run(struct cmd_ctx *c, struct ping_opts *p)
{
	struct lsk_ping_sink *k;
	struct cmd_ping_result *r;
	int rc;

	rc = ping_begin(c, p, sizeof(*r), (void **)&r, &k);
	if (rc < 0)
		return rc;
	r->dst = p->dst;
	r->src = p->src;
	r->v6 = p->v6;
	r->dst6 = p->dst6;
	r->src6 = p->src6;
	r->size = (uint16_t)p->size;
	rc = ping_run(c, p, k, r);
	lsk_ping_close(c->s, k);
	if (rc == 0 && cmd_ping_write(c->o, r) < 0)
		rc = cmd_error(c, -ENOMEM, "ping: no memory for the answer");
	free(r);
	return rc;
}

/* One hop: its probes sent together, their answers awaited. */
static int
trace_hop(struct cmd_ctx *c, const struct ping_opts *p,
	  struct lsk_ping_sink *k, struct cmd_trace_result *r, unsigned int h)
{
	struct lsk_ping_probe pr = { .dst = p->dst, .src = p->src,
				     .size = 32, .ttl = (uint8_t)(h + 1),
				     .v6 = p->v6, .iface = p->iface,
				     .dst6 = p->dst6, .src6 = p->src6 };
	uint64_t sent[CMD_TRACE_PROBES_MAX], end;
	struct lsk_ping_reply rep[16];
	unsigned int i, n, left = (unsigned int)p->probes;
	int rc;

	for (i = 0; i < p->probes; i++) {
		/* the sequence names hop and probe; 0 is never sent */
		pr.seq = (uint16_t)((h + 1) * 8 + i);
		rc = lsk_ping_send(c->s, k, &pr, &sent[i]);
		if (rc < 0)
			return cmd_error(c, rc, "traceroute: cannot send: %s",
					 strerror(-rc));
	}
	end = sent[0] + p->wait * rte_get_tsc_hz() / 1000;
	while (left != 0 && rte_rdtsc() < end && !lsk_ping_stopped(c->s)) {
		lsk_ping_sleep(c->s, PING_TICK_MS);
		while ((n = lsk_ping_recv(k, rep, RTE_DIM(rep))) != 0) {
			for (i = 0; i < n; i++) {
				unsigned int hop = rep[i].seq / 8;
				unsigned int j = rep[i].seq % 8;
				struct cmd_trace_probe *t;

				if (hop != h + 1 || j >= p->probes ||
				    r->p[h][j].answered)
					continue;	/* an earlier hop's */
				t = &r->p[h][j];
				t->answered = true;
				t->from = rep[i].from;
				memcpy(&t->from6, rep[i].from6,
				       sizeof(t->from6));
				t->type = rep[i].type;
				t->code = rep[i].code;
				t->ms = tsc_ms(sent[j], rep[i].tsc);
				/* the end: the destination, or a refusal */
				if (cmd_trace_is_end(p->v6, t->type))
					r->reached = true;
				left--;
			}
		}
	}
	return 0;
}

static int
cmd_trace_run(struct cmd_ctx *c, struct ping_opts *p)
{
	struct lsk_ping_sink *k;
	struct cmd_trace_result *r;
	unsigned int h;
	int rc;

	rc = ping_begin(c, p, sizeof(*r), (void **)&r, &k);
	if (rc < 0)
		return rc;
	r->dst = p->dst;
	r->src = p->src;
	r->v6 = p->v6;
	r->dst6 = p->dst6;
	r->src6 = p->src6;
	r->probes = (unsigned int)p->probes;
	r->max_hops = (unsigned int)p->max_hops;
	for (h = 0; rc == 0 && h < p->max_hops && !r->reached &&
		    !lsk_ping_stopped(c->s); h++) {
		rc = trace_hop(c, p, k, r, h);
		r->hops = h + 1;
	}
	lsk_ping_close(c->s, k);
	if (rc == 0 && cmd_trace_write(c->o, r) < 0)
		rc = cmd_error(c, -ENOMEM, "traceroute: no memory for the "
			       "answer");
	free(r);
	return rc;
}

int
cmd_ping(struct cmd_ctx *c)
{
	bool trace = strcmp(c->argv[0], "traceroute") == 0;
	struct ping_opts p;
	int rc;

	rc = ping_parse(c, trace, &p);
	if (rc == 0 && c->file)
		rc = cmd_error(c, -EINVAL, "%s is an action, not "
			       "configuration: not in a configuration file",
			       c->argv[0]);
	if (rc < 0 || c->check)
		return rc;
	if (c->s->in_batch)
		return cmd_error(c, -EINVAL, "%s runs alone, not in a batch "
				 "of changes", c->argv[0]);
	return trace ? cmd_trace_run(c, &p) : cmd_ping_run(c, &p);
}
