/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What `ping` and `traceroute` write (cli/ping.h), in text as Linux's
 * ping and traceroute do (one line a reply, then the summary; one line a
 * hop, `*` for a probe without an answer) or as one JSON object. An
 * IPv6 run writes the same lines; its errors are named as iputils'
 * ping6 and traceroute6 name ICMPv6's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "cli/cmd.h"
#include "cli/ping.h"

/* An ICMP error as Linux's ping names it. */
static const char *
ping_error_text(uint8_t type, uint8_t code)
{
	if (type == 11)
		return "Time to live exceeded";
	if (type != 3)
		return "Unknown ICMP message";
	switch (code) {
	case 0: return "Destination Net Unreachable";
	case 1: return "Destination Host Unreachable";
	case 2: return "Destination Protocol Unreachable";
	case 3: return "Destination Port Unreachable";
	case 4: return "Frag needed";
	case 13: return "Packet filtered";
	default: return "Destination Unreachable";
	}
}

/* An ICMPv6 error as Linux's ping (iputils) names it. */
static const char *
ping6_error_text(uint8_t type, uint8_t code)
{
	static const char *const unreach[] = {
		"Destination unreachable: No route",
		"Destination unreachable: Administratively prohibited",
		"Destination unreachable: Beyond scope",
		"Destination unreachable: Address unreachable",
		"Destination unreachable: Port unreachable",
	};

	if (type == 3)
		return code == 0 ? "Time exceeded: Hop limit" :
				   "Time exceeded: Defrag failure";
	if (type != 1)
		return "Unknown ICMP message";
	return code < RTE_DIM(unreach) ? unreach[code] :
	       "Destination unreachable: Unknown code";
}

static const char *
error_text(bool v6, uint8_t type, uint8_t code)
{
	return v6 ? ping6_error_text(type, code) : ping_error_text(type, code);
}

bool
cmd_ping_is_reply(bool v6, uint8_t type)
{
	return type == (v6 ? 129 : 0);
}

bool
cmd_trace_is_end(bool v6, uint8_t type)
{
	return type != (v6 ? 3 : 11);
}

/* An address of the run's family as text (buf: ADDR_TEXT bytes). */
#define ADDR_TEXT 46
static void
addr_text(bool v6, uint32_t a, const struct lsk_ip6_addr *a6, char *buf)
{
	if (v6)
		cmd_ip6_text(a6, buf, ADDR_TEXT);
	else
		cmd_ip_text(a, buf, ADDR_TEXT);
}

struct ping_sum {
	unsigned int received, errors;
	double min, avg, max;
};

static void
ping_sum(const struct cmd_ping_result *r, struct ping_sum *s)
{
	double total = 0;
	unsigned int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < r->n; i++) {
		const struct cmd_ping_answer *a = &r->answers[i];

		if (!cmd_ping_is_reply(r->v6, a->type)) {
			s->errors++;
			continue;
		}
		if (s->received == 0 || a->ms < s->min)
			s->min = a->ms;
		if (s->received == 0 || a->ms > s->max)
			s->max = a->ms;
		total += a->ms;
		s->received++;
	}
	if (s->received != 0)
		s->avg = total / s->received;
}

static unsigned int
ping_loss(const struct cmd_ping_result *r, const struct ping_sum *s)
{
	if (r->transmitted == 0)
		return 0;
	return (r->transmitted - s->received) * 100u / r->transmitted;
}

static int
ping_write_text(struct lsk_out *o, const struct cmd_ping_result *r,
		const struct ping_sum *s)
{
	char dst[ADDR_TEXT], src[ADDR_TEXT], from[ADDR_TEXT];
	unsigned int i;
	int rc;

	addr_text(r->v6, r->dst, &r->dst6, dst);
	addr_text(r->v6, r->src, &r->src6, src);
	rc = lsk_out_printf(o, "PING %s from %s: %u data bytes\n", dst, src,
			    r->size);
	for (i = 0; rc == 0 && i < r->n; i++) {
		const struct cmd_ping_answer *a = &r->answers[i];

		addr_text(r->v6, a->from, &a->from6, from);
		if (cmd_ping_is_reply(r->v6, a->type))
			rc = lsk_out_printf(o, "%u bytes from %s: icmp_seq=%u "
					    "ttl=%u time=%.3f ms\n", a->bytes,
					    from, a->seq, a->ttl, a->ms);
		else
			rc = lsk_out_printf(o, "From %s icmp_seq=%u %s\n",
					    from, a->seq,
					    error_text(r->v6, a->type,
						       a->code));
	}
	if (rc == 0)
		rc = lsk_out_printf(o, "\n--- %s ping statistics ---\n"
				    "%u packets transmitted, %u received, ",
				    dst, r->transmitted, s->received);
	if (rc == 0 && s->errors != 0)
		rc = lsk_out_printf(o, "+%u errors, ", s->errors);
	if (rc == 0)
		rc = lsk_out_printf(o, "%u%% packet loss\n", ping_loss(r, s));
	if (rc == 0 && s->received != 0)
		rc = lsk_out_printf(o, "rtt min/avg/max = %.3f/%.3f/%.3f ms\n",
				    s->min, s->avg, s->max);
	return rc;
}

static int
ping_write_json(struct lsk_out *o, const struct cmd_ping_result *r,
		const struct ping_sum *s)
{
	char dst[ADDR_TEXT], src[ADDR_TEXT], from[ADDR_TEXT];
	unsigned int i, k;
	int rc;

	addr_text(r->v6, r->dst, &r->dst6, dst);
	addr_text(r->v6, r->src, &r->src6, src);
	rc = lsk_out_printf(o, "{\"destination\": \"%s\", \"source\": \"%s\", "
			    "\"size\": %u, \"replies\": [", dst, src, r->size);
	for (i = 0, k = 0; rc == 0 && i < r->n; i++) {
		const struct cmd_ping_answer *a = &r->answers[i];

		if (!cmd_ping_is_reply(r->v6, a->type))
			continue;
		addr_text(r->v6, a->from, &a->from6, from);
		rc = lsk_out_printf(o, "%s{\"bytes\": %u, \"from\": \"%s\", "
				    "\"icmp_seq\": %u, \"ttl\": %u, "
				    "\"time_ms\": %.3f}", k++ ? ", " : "",
				    a->bytes, from, a->seq, a->ttl, a->ms);
	}
	if (rc == 0)
		rc = lsk_out_printf(o, "], \"errors\": [");
	for (i = 0, k = 0; rc == 0 && i < r->n; i++) {
		const struct cmd_ping_answer *a = &r->answers[i];

		if (cmd_ping_is_reply(r->v6, a->type))
			continue;
		addr_text(r->v6, a->from, &a->from6, from);
		rc = lsk_out_printf(o, "%s{\"from\": \"%s\", \"icmp_seq\": %u, "
				    "\"type\": %u, \"code\": %u, \"text\": "
				    "\"%s\"}", k++ ? ", " : "", from, a->seq,
				    a->type, a->code,
				    error_text(r->v6, a->type, a->code));
	}
	if (rc == 0)
		rc = lsk_out_printf(o, "], \"transmitted\": %u, \"received\": "
				    "%u, \"loss_percent\": %u", r->transmitted,
				    s->received, ping_loss(r, s));
	if (rc == 0 && s->received != 0)
		rc = lsk_out_printf(o, ", \"rtt_min_ms\": %.3f, "
				    "\"rtt_avg_ms\": %.3f, "
				    "\"rtt_max_ms\": %.3f}\n", s->min,
				    s->avg, s->max);
	else if (rc == 0)
		rc = lsk_out_printf(o, ", \"rtt_min_ms\": null, \"rtt_avg_ms\":"
				    " null, \"rtt_max_ms\": null}\n");
	return rc;
}

int
cmd_ping_write(struct lsk_out *o, const struct cmd_ping_result *r)
{
	struct ping_sum s;

	ping_sum(r, &s);
	return o->json ? ping_write_json(o, r, &s) : ping_write_text(o, r, &s);
}

/* traceroute's mark after a time: !N, !H, !P, !F, !X or !<code> for an
 * unreachable that is not the port's (the end a UDP probe looks for);
 * IPv6's as traceroute6's: !N no route, !X prohibited, !S beyond scope,
 * !H address unreachable. */
static void
trace_mark(bool v6, const struct cmd_trace_probe *p, char *buf, size_t len)
{
	static const char marks[] = "NHP?F", marks6[] = "NXSH";

	buf[0] = '\0';
	if (v6) {
		if (p->type != 1 || p->code == 4)
			return;
		if (p->code < sizeof(marks6) - 1)
			snprintf(buf, len, " !%c", marks6[p->code]);
		else
			snprintf(buf, len, " !%u", p->code);
		return;
	}
	if (p->type != 3 || p->code == 3)
		return;
	if (p->code < sizeof(marks) - 1)
		snprintf(buf, len, " !%c", marks[p->code]);
	else if (p->code == 13)
		snprintf(buf, len, " !X");
	else
		snprintf(buf, len, " !%u", p->code);
}

static int
trace_write_text(struct lsk_out *o, const struct cmd_trace_result *r)
{
	char dst[ADDR_TEXT], src[ADDR_TEXT], from[ADDR_TEXT], mark[8];
	const struct cmd_trace_probe *last;
	unsigned int h, i;
	int rc;

	addr_text(r->v6, r->dst, &r->dst6, dst);
	addr_text(r->v6, r->src, &r->src6, src);
	rc = lsk_out_printf(o, "traceroute to %s from %s, %u hops max\n",
			    dst, src, r->max_hops);
	for (h = 0; rc == 0 && h < r->hops; h++) {
		rc = lsk_out_printf(o, "%2u", h + 1);
		last = NULL;
		for (i = 0; rc == 0 && i < r->probes; i++) {
			const struct cmd_trace_probe *p = &r->p[h][i];

			if (!p->answered) {
				rc = lsk_out_printf(o, "  *");
				continue;
			}
			if (last == NULL || p->from != last->from ||
			    memcmp(&p->from6, &last->from6,
				   sizeof(p->from6)) != 0) {
				addr_text(r->v6, p->from, &p->from6, from);
				rc = lsk_out_printf(o, "  %s", from);
				last = p;
			}
			trace_mark(r->v6, p, mark, sizeof(mark));
			if (rc == 0)
				rc = lsk_out_printf(o, "  %.3f ms%s", p->ms,
						    mark);
		}
		if (rc == 0)
			rc = lsk_out_printf(o, "\n");
	}
	return rc;
}

static int
trace_write_json(struct lsk_out *o, const struct cmd_trace_result *r)
{
	char dst[ADDR_TEXT], src[ADDR_TEXT], from[ADDR_TEXT];
	unsigned int h, i;
	int rc;

	addr_text(r->v6, r->dst, &r->dst6, dst);
	addr_text(r->v6, r->src, &r->src6, src);
	rc = lsk_out_printf(o, "{\"destination\": \"%s\", \"source\": \"%s\", "
			    "\"reached\": %s, \"hops\": [", dst, src,
			    r->reached ? "true" : "false");
	for (h = 0; rc == 0 && h < r->hops; h++) {
		rc = lsk_out_printf(o, "%s{\"hop\": %u, \"probes\": [",
				    h ? ", " : "", h + 1);
		for (i = 0; rc == 0 && i < r->probes; i++) {
			const struct cmd_trace_probe *p = &r->p[h][i];

			if (!p->answered) {
				rc = lsk_out_printf(o, "%snull", i ? ", " : "");
				continue;
			}
			addr_text(r->v6, p->from, &p->from6, from);
			rc = lsk_out_printf(o, "%s{\"from\": \"%s\", "
					    "\"time_ms\": %.3f, \"type\": %u, "
					    "\"code\": %u}", i ? ", " : "",
					    from, p->ms, p->type, p->code);
		}
		if (rc == 0)
			rc = lsk_out_printf(o, "]}");
	}
	return rc == 0 ? lsk_out_printf(o, "]}\n") : rc;
}

int
cmd_trace_write(struct lsk_out *o, const struct cmd_trace_result *r)
{
	return o->json ? trace_write_json(o, r) : trace_write_text(o, r);
}
