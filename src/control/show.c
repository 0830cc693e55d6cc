/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The views (`show ...`) and `help`, as aligned text or one JSON value.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "control/control.h"
#include "control/cmd.h"

int
cmd_show(struct cmd_ctx *c)
{
	if (c->argc < 2)
		return cmd_error(c, -EINVAL, "usage: show VIEW");
	return cmd_error(c, -EINVAL, "unknown view '%s'", c->argv[1]);
}

int
cmd_help(struct cmd_ctx *c)
{
	(void)c;
	return 0;
}
