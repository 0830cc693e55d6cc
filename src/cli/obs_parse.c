/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `capture start` and `trace add` parsed alone (cli/obs_parse.h),
 * with the very parsers the commands use (cli/capture_cmd.c,
 * cli/trace_cmd.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "control/control.h"
#include "cli/cmd.h"
#include "cli/obs_parse.h"

int
lsk_obs_parse(struct lsk_stack *s, const char *line, struct lsk_obs_req *req,
	      char *err, size_t err_len)
{
	char buf[LSK_COMMAND_LINE_MAX + 1];
	struct lsk_out o;
	struct cmd_ctx c = { .s = s, .source = "-", .line = 1, .o = &o,
			     .check = true };
	unsigned long n = 0;
	int rc;

	memset(req, 0, sizeof(*req));
	lsk_out_init(&o, false);
	if (strlen(line) > LSK_COMMAND_LINE_MAX) {
		rc = cmd_error(&c, -EINVAL, "line too long");
		goto out;
	}
	strcpy(buf, line);
	rc = cmd_split(&c, buf);
	if (rc < 0)
		goto out;
	if (c.argc < 1 || (strcmp(c.argv[0], "capture") != 0 &&
			   strcmp(c.argv[0], "trace") != 0)) {
		rc = cmd_error(&c, -EINVAL, "not a capture or trace command");
		goto out;
	}
	if (c.argc >= 2 && c.argv[0][0] == 'c' &&
	    strcmp(c.argv[1], "start") == 0) {
		rc = cmd_capture_parse(&c, &req->cap);
		if (rc == 0) {
			/* the words go with buf: the request keeps its own */
			snprintf(req->path, sizeof(req->path), "%s",
				 req->cap.path);
			req->cap.path = req->path;
			req->kind = LSK_OBS_CAPTURE_START;
		}
	} else if (c.argc >= 2 && c.argv[0][0] == 't' &&
		   strcmp(c.argv[1], "add") == 0) {
		rc = cmd_trace_parse(&c, &n, &req->match);
		if (rc == 0) {
			req->trace_n = n;
			req->kind = LSK_OBS_TRACE_ADD;
		}
	} else {
		/* the rest take no arguments: the command checks that */
		rc = c.argv[0][0] == 'c' ? cmd_capture(&c) : cmd_trace(&c);
	}
out:
	if (err_len)
		snprintf(err, err_len, "%s", o.err);
	lsk_out_free(&o);
	return rc;
}
