/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the route commands of both families share (cli/cmd_route.c,
 * cmd_route6.c, route_show.c, route_show6.c): a route's target in the
 * grammar's words, the route types' words, route get's flow words and
 * answers, and `show routes`' rows. cmd.h includes it.
 */
#ifndef LSK_CLI_CMD_ROUTE_H
#define LSK_CLI_CMD_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "listack/listack.h"

struct cmd_ctx;
struct lsk_out;
struct lsk_stack;
struct lsk_ip6_addr;
struct lsk_route6;

/* A route's target as the grammar writes it: "via A [weight W] via B
 * ..." or "blackhole", "unreachable", "prohibit" (cli/cmd_route.c). */
struct lsk_route;
void cmd_route_target_text(const struct lsk_stack *s,
			   const struct lsk_route *r, char *buf, size_t len);

/* The same for an IPv6 route (cli/cmd_ip6.c). */
void cmd_route6_target_text(const struct lsk_stack *s,
			    const struct lsk_route6 *r, char *buf, size_t len);

/* The route types' words (enum lsk_route_type; LSK_ROUTE_VIA's none). */
#define CMD_ROUTE_TYPES (LSK_ROUTE_PROHIBIT + 1)
extern const char *const cmd_route_type_words[CMD_ROUTE_TYPES];
/* route del's answer to lsk_route_del's or lsk_route6_del's rc; and its
 * refusal when the route is has, not the asked target. */
int cmd_route_deleted(struct cmd_ctx *c, int rc);
int cmd_route_is_not(struct cmd_ctx *c, const char *has, const char *asked);
/* route add's or replace's (verb's) refusal for what the checks of the
 * paths left: rc, -EEXIST a route there already (replace: a connected
 * one, of the family's word connected). */
int cmd_route_refused_rc(struct cmd_ctx *c, int rc, bool replace,
			 const char *verb, const char *connected);
/* route get's words from argv[i] on: `from A` (v6: an IPv6 address
 * into *src, struct lsk_ip6_addr; else IPv4's, uint32_t), proto, sport
 * and dport, each with its value: 0, or an error written
 * (cli/cmd_route.c). */
int cmd_route_get_words(struct cmd_ctx *c, int i, bool v6, void *src,
			uint8_t *proto, uint16_t *sport, uint16_t *dport);
/* route get's words (cli/route_show.c): enum lsk_route_verdict,
 * lsk_route_origin, lsk_route_neigh */
extern const char *const cmd_verdict_names[];
extern const char *const cmd_origin_names[];
extern const char *const cmd_rneigh_names[];
/* One route of `show routes`, either family's, in words: a line per
 * path (text), or one object with its "nexthops" when several (JSON);
 * dev "" for none (cli/route_show.c). */
struct cmd_route_path_text {
	char gw[46];
	char dev[24];
	uint16_t weight;
};
struct cmd_route_row {
	char dst[54];
	const char *kind;
	bool via;		/* the gateway is shown */
	uint8_t learned;	/* 1: learned, 2: and a configured one wins */
	uint8_t proto;
	unsigned int n;
	struct cmd_route_path_text p[LSK_ROUTE_MAX_PATHS];
};
int cmd_route_row(struct lsk_out *o, const struct cmd_route_row *r,
		  bool first);
/* route get's " proto P path K/N" (text) and its JSON members. */
void cmd_route_extra_text(uint8_t learned, uint8_t proto, uint8_t n_paths,
			  uint8_t path, char *buf, size_t len);
int cmd_route_extra_json(struct lsk_out *o, uint8_t learned, uint8_t proto,
			 uint8_t n_paths, uint8_t path);
/* `show routes`' IPv6 rows (all, or the longest match for filter:
 * then the header too), after IPv4's (first: none written yet), and
 * `route get ADDR6` (cli/route_show6.c). */
int lsk_route6_show(struct lsk_stack *s, struct lsk_out *o,
		    const char *filter, bool first);
struct lsk_route6_flow;
int lsk_route6_get_show(struct lsk_stack *s, struct lsk_out *o,
			const struct lsk_ip6_addr *addr, uint16_t in_iface,
			const struct lsk_route6_flow *flow);

#endif /* LSK_CLI_CMD_ROUTE_H */
