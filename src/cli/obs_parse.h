/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The arguments of `capture start` and `trace add` parsed alone: the
 * request a command line makes, with no file opened, nothing armed and
 * nothing of the stack changed. The command fuzzer (tests/fuzz) drives
 * it: the commands themselves are actions that write files and run
 * alone, outside the batches it applies. Control thread only.
 */
#ifndef LSK_CLI_OBS_PARSE_H
#define LSK_CLI_OBS_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "core/trace.h"
#include "control/capture.h"

struct lsk_stack;

enum lsk_obs_kind {
	LSK_OBS_OTHER,		/* show, stop, clear: no arguments */
	LSK_OBS_CAPTURE_START,
	LSK_OBS_TRACE_ADD,
};

struct lsk_obs_req {
	enum lsk_obs_kind kind;
	struct lsk_capture_conf cap;	/* cap.path points at path */
	char path[sizeof(((struct lsk_capture_info *)0)->path)];
	uint64_t trace_n;
	struct lsk_trace_match match;
};

/*
 * line, a `capture ...` or `trace ...` command, into *req (parsing only:
 * as the command checks it before it runs). 0; -EINVAL, with "what is
 * wrong" in err, for a line the command refuses or that is neither.
 */
int lsk_obs_parse(struct lsk_stack *s, const char *line,
		  struct lsk_obs_req *req, char *err, size_t err_len);

#endif /* LSK_CLI_OBS_PARSE_H */
