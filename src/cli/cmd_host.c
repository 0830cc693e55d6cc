/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `host-if NAME rate PPS`: how many packets a second the host-if NAME
 * (made by `port N host-if NAME`, cli/cmd_iface.c) may take from the
 * workers (docs/host-path.md); what is over it counts host.Drops.
 */
#include <errno.h>
#include <string.h>

#include "host/host.h"
#include "control/control.h"
#include "control/host_ctl.h"
#include "cli/cmd.h"

#define HOST_IF_USAGE "usage: host-if NAME rate PPS (1-10000000, or default)"

int
cmd_host_if(struct cmd_ctx *c)
{
	unsigned long pps = 0;
	int port, rc;

	cmd_kw(c, 2, "rate");
	if (c->argc != 4 || strcmp(c->argv[2], "rate") != 0)
		return cmd_error(c, -EINVAL, HOST_IF_USAGE);
	if (strcmp(c->argv[3], "default") != 0 &&
	    (cmd_parse_uint(c->argv[3], LSK_HOST_RATE_MAX, &pps) < 0 ||
	     pps == 0))
		return cmd_error(c, -EINVAL, "bad rate '%s' (" HOST_IF_USAGE
				 ")", c->argv[3]);
	/* the check pass does not make host-ifs: a batch may name one it
	 * makes in an earlier line */
	if (c->check)
		return lsk_host_name_check(c->argv[1]) < 0 ?
		       cmd_error(c, -EINVAL, "bad host-if name '%s'",
				 c->argv[1]) : 0;
	port = lsk_host_if_port(c->s, c->argv[1]);
	if (port < 0)
		return cmd_error(c, -ENODEV, "no host-if %s (port N host-if "
				 "NAME makes one)", c->argv[1]);
	rc = lsk_host_rate_set(c->s, (uint16_t)port, (uint32_t)pps);
	if (rc < 0)
		return cmd_error(c, rc, "cannot set the rate of host-if %s: "
				 "%s", c->argv[1], strerror(-rc));
	return 0;
}
