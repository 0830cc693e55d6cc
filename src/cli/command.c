/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Command batches (cli/cli.h): the answer buffer, and the runner
 * that checks every line of a batch before it applies any, then applies
 * them between lsk_config_begin and lsk_config_commit so that the workers
 * see the whole batch or nothing of it (lsk_config_abort puts back what a
 * refused line found). Configuration files are such batches.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "control/control.h"
#include "cli/cmd.h"

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
 * a NUL byte, which string functions would cut short) with o->err set
 * and *pos past that line.
 */
static int
next_line(struct cmd_ctx *c, const char *text, size_t len, size_t *pos,
	  char *buf)
{
	size_t n = 0;

	if (*pos >= len)
		return 0;
	while (*pos < len && text[*pos] != '\n') {
		if (text[*pos] == '\0' || n == LSK_COMMAND_LINE_MAX) {
			const char *why = text[*pos] == '\0' ?
				"NUL byte in the line" : "line too long";

			/* the next line is the check pass's next one */
			while (*pos < len && text[*pos] != '\n')
				(*pos)++;
			if (*pos < len)
				(*pos)++;
			return cmd_error(c, -EINVAL, "%s", why);
		}
		buf[n++] = text[(*pos)++];
	}
	if (*pos < len)
		(*pos)++;	/* the newline */
	buf[n] = '\0';
	return 1;
}

/*
 * The check pass goes on past a bad line, so that one answer names every
 * bad line of a file: their errors, one a line, the first
 * LSK_BATCH_ERRORS of them, then "... and N more".
 */
struct batch_errors {
	char text[sizeof(((struct lsk_out *)0)->err)];
	size_t len;
	unsigned int n;
	int rc;		/* the first line's */
};

static void
note_error(struct batch_errors *e, int rc, const char *err)
{
	int n;

	if (e->n++ == 0)
		e->rc = rc;
	if (e->n > LSK_BATCH_ERRORS)
		return;
	n = snprintf(e->text + e->len, sizeof(e->text) - e->len, "%s%s",
		     e->len ? "\n" : "", err);
	if (n > 0 && e->len + (size_t)n < sizeof(e->text))
		e->len += (size_t)n;
	else
		e->text[e->len] = '\0';	/* the line that did not fit */
}

static int
errors_done(struct cmd_ctx *c, struct batch_errors *e)
{
	if (e->n > LSK_BATCH_ERRORS)
		snprintf(e->text + e->len, sizeof(e->text) - e->len,
			 "\n... and %u more", e->n - LSK_BATCH_ERRORS);
	memcpy(c->o->err, e->text, sizeof(e->text));
	return e->rc;
}

/*
 * One pass over the batch: check it (nothing changes; every bad line
 * noted) or run it (the first refusal ends it). *changes tells the check
 * pass's caller whether any line changes the stack.
 */
static int
batch_pass(struct cmd_ctx *c, const char *text, size_t len, bool *changes)
{
	char buf[LSK_COMMAND_LINE_MAX + 1];
	struct batch_errors e = { .n = 0 };
	size_t pos = 0;
	int rc;

	c->line = 0;
	for (;;) {
		c->line++;
		rc = next_line(c, text, len, &pos, buf);
		if (rc == 0)
			break;
		if (rc > 0)
			rc = cmd_split(c, buf);
		if (rc == 0 && c->argc == 0)
			continue;
		if (rc == 0 && changes != NULL && cmd_changes(c))
			*changes = true;
		if (rc == 0)
			rc = cmd_dispatch(c);
		if (rc < 0 && !c->check)
			return rc;
		if (rc < 0)
			note_error(&e, rc, c->o->err);
	}
	c->line--;	/* the last line there was */
	return e.n ? errors_done(c, &e) : 0;
}

/* Set while lsk_config_load runs a file: its lines are configuration,
 * and actions (ping, cli/ping_cmd.c) refuse to run from it. */
static __thread bool loading_file;

int
lsk_command_run(struct lsk_stack *s, const char *text, size_t len,
		const char *source, struct lsk_out *o)
{
	struct cmd_ctx c = { .s = s, .source = source ? source : "-",
			     .o = o, .file = loading_file };
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
	s->mtu_refused_port = -1;
	s->host_refused[0] = '\0';
	rc = lsk_config_commit(s);
	if (rc < 0) {
		out_drop_body(o);
		if (s->mtu_refused_port >= 0)
			return cmd_error(&c, rc, "port %d: the device refused "
					 "mtu %u: %s", s->mtu_refused_port,
					 s->mtu_refused, strerror(-rc));
		if (s->host_refused[0] != '\0')	/* control/host_ctl.c */
			return cmd_error(&c, rc, "cannot make host-if %s: %s",
					 s->host_refused, strerror(-rc));
		return cmd_error(&c, rc, "cannot build tables: %s",
				 strerror(-rc));
	}
	return 0;
}

/* --- one line, and files ---------------------------------------- */

int
lsk_config_exec(struct lsk_stack *s, const char *line, const char *file,
		unsigned int lineno, char *err, size_t err_len)
{
	struct lsk_out o;
	struct cmd_ctx c = { .s = s, .source = file ? file : "-",
			     .line = lineno, .o = &o, .file = true };
	char buf[LSK_COMMAND_LINE_MAX + 1];
	int rc;

	lsk_out_init(&o, false);
	if (strlen(line) > LSK_COMMAND_LINE_MAX)
		rc = cmd_error(&c, -EINVAL, "line too long");
	else {
		strcpy(buf, line);
		rc = cmd_split(&c, buf);
		if (rc == 0)
			rc = cmd_dispatch(&c);
	}
	if (err_len) {
		snprintf(err, err_len, "%s", o.err);
	}
	lsk_out_free(&o);
	return rc;
}

/*
 * Only a regular file is a configuration (a directory reads as empty,
 * /dev/zero never ends). O_NONBLOCK: opening a FIFO does not wait for a
 * writer; it changes nothing for a regular file.
 */
static FILE *
config_open(const char *path, char *err, size_t err_len, int *rc)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	const char *why = NULL;
	struct stat st;
	FILE *f;

	if (fd < 0) {
		*rc = -errno;
		snprintf(err, err_len, "%s:0: cannot open: %s", path,
			 strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		*rc = -errno;
		why = strerror(errno);
	} else if (S_ISDIR(st.st_mode)) {
		*rc = -EISDIR;
		why = strerror(EISDIR);
	} else if (!S_ISREG(st.st_mode)) {
		*rc = -EINVAL;
		why = "not a regular file";
	} else if ((f = fdopen(fd, "r")) != NULL) {
		return f;
	} else {
		*rc = -errno;
		why = strerror(errno);
	}
	snprintf(err, err_len, "%s:0: cannot read: %s", path, why);
	close(fd);
	return NULL;
}

/* A configuration file is read whole, then run as one batch. */
#define CONFIG_FILE_MAX (1ul << 30)

static int
config_read_all(FILE *f, char **text, size_t *len)
{
	size_t cap = 0, n = 0, got;
	char *buf = NULL, *p;

	for (;;) {
		if (n == cap) {
			if (cap >= CONFIG_FILE_MAX) {
				free(buf);
				return -EFBIG;
			}
			cap = cap ? cap * 2 : 65536;
			p = realloc(buf, cap);
			if (p == NULL) {
				free(buf);
				return -ENOMEM;
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		return -EIO;
	}
	*text = buf;
	*len = n;
	return 0;
}

int
lsk_config_load(struct lsk_stack *s, const char *path, char *err,
		size_t err_len)
{
	struct lsk_out o;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int rc = 0;

	if (err_len)
		err[0] = '\0';
	f = config_open(path, err, err_len, &rc);
	if (f == NULL)
		return rc;
	rc = config_read_all(f, &text, &len);
	fclose(f);
	if (rc < 0) {
		snprintf(err, err_len, "%s:0: cannot read: %s", path,
			 strerror(-rc));
		return rc;
	}
	lsk_out_init(&o, false);
	loading_file = true;
	rc = lsk_command_run(s, text, len, path, &o);
	loading_file = false;
	if (rc < 0 && err_len)
		snprintf(err, err_len, "%s", o.err);
	lsk_out_free(&o);
	free(text);
	return rc;
}
