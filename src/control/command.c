/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Command batches (control/command.h): the answer buffer, and the runner
 * that checks every line of a batch before it applies any, then applies
 * them between lsk_config_begin and lsk_config_commit so that the workers
 * see the whole batch or nothing of it (lsk_config_abort puts back what a
 * refused line found).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/control.h"
#include "control/cmd.h"

void
lsk_out_init(struct lsk_out *o, bool json)
{
	memset(o, 0, sizeof(*o));
	o->json = json;
}

void
lsk_out_free(struct lsk_out *o)
{
	free(o->buf);
	o->buf = NULL;
	o->len = 0;
	o->cap = 0;
}

static int
out_reserve(struct lsk_out *o, size_t more)
{
	size_t cap;
	char *p;

	if (o->len + more + 1 <= o->cap)
		return 0;
	cap = o->cap ? o->cap : 256;
	while (cap < o->len + more + 1) {
		if (cap > SIZE_MAX / 2)
			goto oom;
		cap *= 2;
	}
	p = realloc(o->buf, cap);
	if (p == NULL)
		goto oom;
	o->buf = p;
	o->cap = cap;
	return 0;
oom:
	o->oom = true;
	return -ENOMEM;
}

int
lsk_out_printf(struct lsk_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if (out_reserve(o, (size_t)n) < 0)
		return -ENOMEM;
	va_start(ap, fmt);
	vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	o->len += (size_t)n;
	return 0;
}

int
lsk_out_json_str(struct lsk_out *o, const char *s)
{
	const unsigned char *p;
	int rc = lsk_out_printf(o, "\"");

	for (p = (const unsigned char *)s; rc == 0 && *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			rc = lsk_out_printf(o, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			rc = lsk_out_printf(o, "\\u%04x", *p);
		else
			rc = lsk_out_printf(o, "%c", *p);
	}
	return rc == 0 ? lsk_out_printf(o, "\"") : rc;
}

/* The body goes when a batch is refused: the answer is the reason. */
static void
out_drop_body(struct lsk_out *o)
{
	o->len = 0;
	if (o->buf != NULL)
		o->buf[0] = '\0';
}

/*
 * Line lineno of text, from *pos, into buf (LSK_COMMAND_LINE_MAX + 1
 * bytes): 1, 0 at the end of text, or -EINVAL (a line too long, or with
 * a NUL byte, which string functions would cut short) with o->err set.
 */
static int
next_line(struct cmd_ctx *c, const char *text, size_t len, size_t *pos,
	  char *buf)
{
	size_t n = 0;

	if (*pos >= len)
		return 0;
	while (*pos < len && text[*pos] != '\n') {
		if (text[*pos] == '\0')
			return cmd_error(c, -EINVAL, "NUL byte in the line");
		if (n == LSK_COMMAND_LINE_MAX)
			return cmd_error(c, -EINVAL, "line too long");
		buf[n++] = text[(*pos)++];
	}
	if (*pos < len)
		(*pos)++;	/* the newline */
	buf[n] = '\0';
	return 1;
}

/*
 * One pass over the batch: check it (nothing changes) or run it. *changes
 * tells the check pass's caller whether any line changes the stack.
 */
static int
batch_pass(struct cmd_ctx *c, const char *text, size_t len, bool *changes)
{
	char buf[LSK_COMMAND_LINE_MAX + 1];
	size_t pos = 0;
	int rc;

	c->line = 0;
	for (;;) {
		c->line++;
		rc = next_line(c, text, len, &pos, buf);
		if (rc <= 0)
			break;
		rc = cmd_split(c, buf);
		if (rc < 0)
			break;
		if (c->argc == 0)
			continue;
		if (changes != NULL && cmd_changes(c))
			*changes = true;
		rc = cmd_dispatch(c);
		if (rc < 0)
			break;
	}
	if (rc == 0)
		c->line--;	/* the last line there was */
	return rc;
}

int
lsk_command_run(struct lsk_stack *s, const char *text, size_t len,
		const char *source, struct lsk_out *o)
{
	struct cmd_ctx c = { .s = s, .source = source ? source : "-",
			     .o = o };
	bool changes = false;
	int rc;

	o->err[0] = '\0';
	if (text == NULL && len != 0)
		return cmd_error(&c, -EINVAL, "no text");
	if (s->in_batch)
		return cmd_error(&c, -EBUSY, "a batch is in progress");
	c.check = true;
	rc = batch_pass(&c, text, len, &changes);
	if (rc < 0)
		return rc;
	c.check = false;
	if (!changes)
		return batch_pass(&c, text, len, NULL);	/* views only */
	rc = lsk_config_begin(s);
	if (rc < 0)
		return cmd_error(&c, rc, "no memory to start the batch");
	rc = batch_pass(&c, text, len, NULL);
	if (rc < 0) {
		lsk_config_abort(s);
		out_drop_body(o);
		return rc;
	}
	rc = lsk_config_commit(s);
	if (rc < 0) {
		out_drop_body(o);
		return cmd_error(&c, rc, "cannot build tables: %s",
				 strerror(-rc));
	}
	return 0;
}
