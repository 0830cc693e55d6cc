/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `help [COMMAND]`: every command of the grammar with its usage, and the
 * words that may follow it (what a client completes). Text: one row per
 * form of a command. JSON: [{"command", "usage": [forms], "words": [...]}].
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "control/control.h"
#include "cli/cmd.h"

static const struct {
	const char *name;
	const char *usage;	/* forms, " | " between them */
	const char *words;	/* what may follow the name, space-separated */
} help[] = {
	{ "port", "port N [mtu M] [mac MAC|default] [name NAME] "
		  "[host-if NAME|none] [ra on|off] [up|down] | port N vlan V",
	  "" },
	{ "address", "address add A.B.C.D/L port N [vlan V] | "
		     "address del A.B.C.D/L port N [vlan V] | "
		     "address add ADDRESS6/LEN port N [vlan V] | "
		     "address del ADDRESS6/LEN port N [vlan V]", "add del" },
	{ "route", "route add PREFIX via GATEWAY [weight W] "
		   "[via GATEWAY [weight W]]... | "
		   "route add PREFIX blackhole|unreachable|prohibit | "
		   "route replace PREFIX via GATEWAY [weight W] "
		   "[via GATEWAY [weight W]]... | "
		   "route replace PREFIX blackhole|unreachable|prohibit | "
		   "route del PREFIX [via GATEWAY...|blackhole|unreachable|"
		   "prohibit] | "
		   "route get ADDRESS [from ADDRESS] [proto udp|tcp|icmp|N] "
		   "[sport S] [dport D] | route flush | "
		   "route add PREFIX6 via GATEWAY6 [port N [vlan V]] "
		   "[weight W] [via GATEWAY6 ...]... | "
		   "route replace PREFIX6 via GATEWAY6 [port N [vlan V]] "
		   "[weight W] [via GATEWAY6 ...]... | "
		   "route get ADDRESS6 [port N [vlan V]] [from ADDRESS6] "
		   "[proto udp|tcp|icmp6|N] [sport S] [dport D]",
	  "add replace del get flush" },
	{ "neigh", "neigh add A.B.C.D lladdr MAC | neigh del A.B.C.D | "
		   "neigh flush | neigh add ADDRESS6 lladdr MAC [port N [vlan V]] "
		   "| neigh del ADDRESS6 [port N [vlan V]]", "add del flush" },
	{ "udp", "udp listen ADDR:PORT echo|discard|pcap FILE [ring N] | "
		 "udp close ADDR:PORT", "listen close" },
	{ "filter", "filter add accept|drop [proto P] [src PFX] [dst PFX] "
		    "[sport A[-B]] [dport A[-B]] | filter del N | filter flush",
	  "add del flush" },
	{ "gro", "gro fraglist|merge [flows F] [segs S] | gro off",
	  "fraglist merge off" },
	{ "route-cache", "route-cache on [entries N] | route-cache off",
	  "on off" },
	{ "mode", "mode list|single", "list single" },
	{ "fpm", "fpm listen ADDR:PORT | fpm off", "listen off" },
	{ "host-if", "host-if NAME rate PPS|default", "" },
	{ "stats", "stats clear", "clear" },
	{ "config", "config save [FILE] | config reload [FILE]",
	  "save reload" },
	{ "capture", "capture start FILE [port P] [rx|tx|drop|all] [count N] "
		     "[snaplen B] | capture stop | capture show",
	  "start stop show" },
	{ "trace", "trace add N [port P] [match FIELD VALUE ...] | "
		   "trace show | trace clear", "add show clear" },
	{ "ping", "ping ADDR [count N] [size B] [source ADDR] [interval MS] "
		  "[timeout MS] [port N]", "" },
	{ "traceroute", "traceroute ADDR [max-hops N] [probes N] "
			"[source ADDR] [wait MS] [port N]", "" },
	{ "show", "show interfaces|addresses|routes [PREFIX]|neigh|udp|filter|"
		  "stats|runtime|errors [-a]|config|pipeline [dot]|fpm|version",
	  "interfaces addresses routes neigh udp filter stats runtime errors "
	  "config pipeline fpm version" },
	{ "help", "help [COMMAND]", "port address route neigh udp filter gro "
				    "route-cache mode fpm stats config capture "
				    "trace "
				    "ping traceroute show "
				    "host-if help" },
};

const char *
cmd_usage(const char *name)
{
	size_t i;

	for (i = 0; i < RTE_DIM(help); i++)
		if (strcmp(help[i].name, name) == 0)
			return help[i].usage;
	return "";
}

const char *
cmd_words(const char *name)
{
	size_t i;

	for (i = 0; i < RTE_DIM(help); i++)
		if (strcmp(help[i].name, name) == 0)
			return help[i].words;
	return "";
}

/* Each piece of list, cut at sep, as a JSON string or a table row. */
static int
help_forms(struct lsk_out *o, struct cmd_table *t, const char *name,
	   const char *list, const char *sep)
{
	const char *p = list, *end;
	bool first = true;
	int rc = 0;

	while (*p != '\0' && rc == 0) {
		size_t n;

		end = strstr(p, sep);
		n = end ? (size_t)(end - p) : strlen(p);
		if (o->json) {
			char buf[CMD_CELL * 4];

			snprintf(buf, sizeof(buf), "%.*s", (int)n, p);
			rc = lsk_out_printf(o, first ? "" : ", ");
			if (rc == 0)
				rc = lsk_out_json_str(o, buf);
		} else {
			rc = cmd_table_add(t);
			if (rc == 0) {
				cmd_table_set(t, 0, "%s", first ? name : "");
				cmd_table_set(t, 1, "%.*s", (int)n, p);
			}
		}
		first = false;
		p = end ? end + strlen(sep) : p + n;
	}
	return rc;
}

int
cmd_help(struct cmd_ctx *c)
{
	static const char *const head[] = { "COMMAND", "USAGE" };
	struct lsk_out *o = c->o;
	struct cmd_table t;
	size_t i, n = 0;

	if (c->argc > 2)
		return cmd_error(c, -EINVAL, "usage: %s", cmd_usage("help"));
	if (c->argc == 2 && cmd_usage(c->argv[1])[0] == '\0')
		return cmd_error(c, -EINVAL, "unknown command '%s'", c->argv[1]);
	if (c->check)
		return 0;
	if (o->json)
		lsk_out_printf(o, "[");
	cmd_table_init(&t, head, RTE_DIM(head));
	for (i = 0; i < RTE_DIM(help); i++) {
		if (c->argc == 2 && strcmp(c->argv[1], help[i].name) != 0)
			continue;
		if (o->json) {
			lsk_out_printf(o, "%s{\"command\": \"%s\", \"usage\": [",
				       n ? ", " : "", help[i].name);
			help_forms(o, NULL, NULL, help[i].usage, " | ");
			lsk_out_printf(o, "], \"words\": [");
			help_forms(o, NULL, NULL, help[i].words, " ");
			lsk_out_printf(o, "]}");
		} else {
			help_forms(o, &t, help[i].name, help[i].usage, " | ");
		}
		n++;
	}
	if (o->json)
		return lsk_out_printf(o, "]\n");
	return cmd_table_print(&t, o);
}
