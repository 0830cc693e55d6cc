/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `ping` and `traceroute` (cli/ping_cmd.c runs them, cli/ping_show.c
 * writes their answers): what a run gathered, as the views write it.
 * Control thread only.
 */
#ifndef LSK_CLI_PING_H
#define LSK_CLI_PING_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli.h"
#include "listack/ip6.h"

/* The bounds that keep one call short (docs/operating.md): the control
 * socket serves one batch at a time. */
#define CMD_PING_COUNT_MAX 100
#define CMD_PING_TOTAL_MS_MAX 60000
#define CMD_TRACE_HOPS_MAX 30
#define CMD_TRACE_PROBES_MAX 5

/* One answer: an echo reply, or an ICMP error about the probe (ICMPv6
 * when the run's v6 is set: from6, ICMPv6's types, ttl the hop limit). */
struct cmd_ping_answer {
	uint32_t from;
	uint16_t seq;
	uint16_t bytes;		/* ICMP bytes */
	uint8_t type, code, ttl;
	double ms;
	struct lsk_ip6_addr from6;
};

struct cmd_ping_result {
	uint32_t dst, src;
	bool v6;		/* IPv6: dst6, src6 */
	struct lsk_ip6_addr dst6, src6;
	uint16_t size;
	unsigned int transmitted;
	unsigned int n;		/* answers, in the order they came */
	struct cmd_ping_answer answers[CMD_PING_COUNT_MAX];
};

struct cmd_trace_probe {
	bool answered;
	uint32_t from;
	uint8_t type, code;
	double ms;
	struct lsk_ip6_addr from6;
};

struct cmd_trace_result {
	uint32_t dst, src;
	bool v6;		/* IPv6: dst6, src6, the probes' from6 */
	struct lsk_ip6_addr dst6, src6;
	unsigned int hops, probes;	/* hops shown, probes per hop */
	unsigned int max_hops;
	bool reached;
	struct cmd_trace_probe p[CMD_TRACE_HOPS_MAX][CMD_TRACE_PROBES_MAX];
};

/* The answers as Linux's ping and traceroute print them (IPv6's errors
 * as ping6 and traceroute6 name them), or JSON (o->json). 0 or
 * -ENOMEM. */
int cmd_ping_write(struct lsk_out *o, const struct cmd_ping_result *r);
int cmd_trace_write(struct lsk_out *o, const struct cmd_trace_result *r);
/* Whether an answer of the family (v6) is an echo reply, and one that
 * ends a traceroute (not a time exceeded). */
bool cmd_ping_is_reply(bool v6, uint8_t type);
bool cmd_trace_is_end(bool v6, uint8_t type);

#endif /* LSK_CLI_PING_H */
