/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control-command grammar (docs/configuration.md), one command a
 * line, shared by configuration files and run-time control: the table of
 * commands and the dispatch. Each command's words are parsed in its own
 * file (cli/cmd_iface.c, cmd_route.c, cmd_udp.c, cmd_filter.c, cmd_fpm.c,
 * capture_cmd.c, trace_cmd.c, show.c, help.c); every error names
 * FILE:LINE (cli/cmd_parse.c).
 */
#include <errno.h>
#include <string.h>

#include <rte_common.h>

#include "control/control.h"
#include "cli/cmd.h"

/* stats clear */
static int
cmd_stats(struct cmd_ctx *c)
{
	if (c->argc != 2 || strcmp(c->argv[1], "clear") != 0)
		return cmd_error(c, -EINVAL, "usage: stats clear");
	if (!c->check)
		lsk_stats_clear(c->s);
	return 0;
}

/*
 * mode list|single: how workers run a burst (worker/worker.c). In a batch
 * it waits for the commit, as the other settings do.
 */
static int
cmd_mode(struct cmd_ctx *c)
{
	enum lsk_mode m;

	if (c->argc != 2)
		return cmd_error(c, -EINVAL, "usage: %s", cmd_usage("mode"));
	if (strcmp(c->argv[1], "list") == 0)
		m = LSK_MODE_LIST;
	else if (strcmp(c->argv[1], "single") == 0)
		m = LSK_MODE_SINGLE;
	else
		return cmd_error(c, -EINVAL, "unknown mode '%s' (list or "
				 "single)", c->argv[1]);
	if (c->check)
		return 0;
	if (!c->s->in_batch)
		return lsk_mode_set(c->s, m);
	c->s->batch_set.mode = true;
	c->s->batch_set.mode_value = (uint8_t)m;
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(struct cmd_ctx *c);
} commands[] = {
	{ "port", cmd_port },
	{ "address", cmd_address },
	{ "route", cmd_route },
	{ "neigh", cmd_neigh },
	{ "udp", cmd_udp },
	{ "gro", cmd_gro },
	{ "route-cache", cmd_route_cache },
	{ "mode", cmd_mode },
	{ "fpm", cmd_fpm },
	{ "filter", cmd_filter },
	{ "host-if", cmd_host_if },
	{ "stats", cmd_stats },
	{ "config", cmd_config },
	{ "capture", cmd_capture },
	{ "trace", cmd_trace },
	{ "ping", cmd_ping },
	{ "traceroute", cmd_ping },
	{ "show", cmd_show },
	{ "help", cmd_help },
};

bool
cmd_changes(const struct cmd_ctx *c)
{
	if (c->argc == 0 || strcmp(c->argv[0], "show") == 0 ||
	    strcmp(c->argv[0], "help") == 0)
		return false;
	/* an action, not configuration (cli/capture_cmd.c) */
	if (strcmp(c->argv[0], "capture") == 0 ||
	    strcmp(c->argv[0], "trace") == 0 ||	/* cli/trace_cmd.c */
	    strcmp(c->argv[0], "ping") == 0 ||	/* cli/ping_cmd.c */
	    strcmp(c->argv[0], "traceroute") == 0 ||
	    strcmp(c->argv[0], "config") == 0)	/* cli/config_file.c */
		return false;
	/* route get is a view too */
	return !(c->argc > 1 && strcmp(c->argv[0], "route") == 0 &&
		 strcmp(c->argv[1], "get") == 0);
}

int
cmd_dispatch(struct cmd_ctx *c)
{
	size_t i;

	if (c->argc == 0)
		return 0;
	for (i = 0; i < RTE_DIM(commands); i++)
		if (strcmp(c->argv[0], commands[i].name) == 0)
			return commands[i].fn(c);
	return cmd_error(c, -EINVAL, "unknown command '%s'", c->argv[0]);
}
