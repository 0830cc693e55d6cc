/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `fpm listen ADDR:PORT | fpm off` (routes from FRR's zebra, served by
 * serve/fpm_server.c, which follows the setting within a tenth of a
 * second) and `show fpm`: the setting, the server's state, its counters.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_common.h>

#include "control/control.h"
#include "cli/cmd.h"

static int
fpm_set(struct cmd_ctx *c, uint32_t addr, uint16_t port)
{
	if (c->check)
		return 0;
	if (!c->s->in_batch) {
		lsk_fpm_listen_set(c->s, addr, port);
		return 0;
	}
	c->s->batch_set.fpm = true;
	c->s->batch_set.fpm_addr = addr;
	c->s->batch_set.fpm_port = port;
	return 0;
}

int
cmd_fpm(struct cmd_ctx *c)
{
	uint32_t addr;
	uint16_t port;
	int rc;

	if (c->argc >= 2)
		cmd_kw(c, 1, "listen off");
	if (c->argc == 2 && strcmp(c->argv[1], "off") == 0)
		return fpm_set(c, 0, 0);
	if (c->argc != 3 || strcmp(c->argv[1], "listen") != 0)
		return cmd_error(c, -EINVAL, "usage: %s", cmd_usage("fpm"));
	rc = cmd_parse_endpoint(c, c->argv[2], &addr, &port);
	if (rc < 0)
		return rc;
	return fpm_set(c, addr, port);
}

static const char *
fpm_state(const struct lsk_fpm_conf *f)
{
	if (f->port == 0)
		return "off";
	if (!f->served)
		return "not served";	/* no server follows the stack */
	if (!f->listening)
		return "not listening";
	if (!f->connected)
		return "listening";
	return f->dumping ? "connected, dump" : "connected";
}

int
cmd_show_fpm(struct cmd_ctx *c)
{
	static const char *const names[] = {
#define FPM_NAME(n) #n,
		LSK_FPM_COUNTERS(FPM_NAME)
#undef FPM_NAME
	};
	const struct lsk_fpm_conf *f = &c->s->fpm;
	struct lsk_stats st;
	const uint64_t *v;
	char listen[32] = "", ip[16];
	unsigned int i;
	int rc;

	lsk_stats_read(c->s, &st);
	v = (const uint64_t *)&st.fpm;
	if (f->port != 0) {
		cmd_ip_text(f->addr, ip, sizeof(ip));
		snprintf(listen, sizeof(listen), "%s:%u", ip, f->port);
	}
	if (c->o->json) {
		rc = lsk_out_printf(c->o, "{\"listen\": ");
		rc |= lsk_out_json_str(c->o, listen);
		rc |= lsk_out_printf(c->o, ", \"state\": ");
		rc |= lsk_out_json_str(c->o, fpm_state(f));
		rc |= lsk_out_printf(c->o, ", \"error\": ");
		rc |= lsk_out_json_str(c->o, f->listen_error ?
				       strerror(-f->listen_error) : "");
		rc |= lsk_out_printf(c->o, ", \"peer\": ");
		rc |= lsk_out_json_str(c->o, f->connected ? f->peer : "");
		rc |= lsk_out_printf(c->o, ", \"nexthops\": %u, \"counters\": {",
				     f->nexthops);
		for (i = 0; i < RTE_DIM(names); i++)
			rc |= lsk_out_printf(c->o, "%s\"%s\": %" PRIu64,
					     i ? ", " : "", names[i], v[i]);
		rc |= lsk_out_printf(c->o, "}}\n");
		return rc < 0 ? -ENOMEM : 0;
	}
	rc = lsk_out_printf(c->o, "listen   %s\nstate    %s%s%s\n",
			    f->port ? listen : "-", fpm_state(f),
			    f->listen_error ? ": " : "",
			    f->listen_error ? strerror(-f->listen_error) : "");
	if (f->connected)
		rc |= lsk_out_printf(c->o, "peer     %s\n", f->peer);
	rc |= lsk_out_printf(c->o, "nexthops %u\n", f->nexthops);
	for (i = 0; i < RTE_DIM(names); i++)
		if (v[i] != 0)
			rc |= lsk_out_printf(c->o, "%-16s %" PRIu64 "\n",
					     names[i], v[i]);
	return rc < 0 ? -ENOMEM : 0;
}
