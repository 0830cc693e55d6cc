/* SPDX-License-Identifier: BSD-3-Clause */
/* listack-ctl's side of the control socket (serve/ctl_proto.h). */
#ifndef LSK_APP_CTL_CONN_H
#define LSK_APP_CTL_CONN_H

#include <stdbool.h>
#include <stddef.h>

#include "serve/ctl_proto.h"

struct ctl_conn {
	int fd;
	bool json;
	char path[108];
};

/* An answer; err and body are NUL-terminated (NULL when empty). */
struct ctl_answer {
	struct lsk_ctl_reply_hdr hdr;
	char *err;
	char *body;
};

/*
 * Connect to path and say hello. 0, or a negative errno with why set
 * (no server; the server's own refusal, a version it does not speak).
 */
int ctl_connect(struct ctl_conn *c, const char *path, bool json, char *why,
		size_t why_len);
void ctl_close(struct ctl_conn *c);

/*
 * Send text as one batch named source ("-" or a file name) and read the
 * answer. 0 with a (whose status may be error or fatal), or a negative
 * errno when the connection failed (why says so). A connection the
 * server closed while idle is opened again first, never after the batch
 * was sent.
 */
int ctl_request(struct ctl_conn *c, const char *text, size_t len,
		const char *source, struct ctl_answer *a, char *why,
		size_t why_len);
void ctl_answer_free(struct ctl_answer *a);

#endif /* LSK_APP_CTL_CONN_H */
