/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Commands run on a stack as the control socket runs them (source "t",
 * so an error reads "t:LINE: ..."), for the grammar's tests
 * (test_cmd_ip6.c, test_config_file.c): the result checked, the answer
 * or the error returned; refusals and answers checked whole, one at a
 * time or from a table; config reload's difference of two texts.
 */
#ifndef CLI_RUN_H
#define CLI_RUN_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"
#include "cli/cli.h"
#include "cli/config_diff.h"

/* text run on s: want is its result; the answer (or the error),
 * malloc'd */
static inline char *
cli_run(struct lsk_stack *s, const char *text, int want, bool json)
{
	struct lsk_out o;
	char *a;
	int rc;

	lsk_out_init(&o, json);
	rc = lsk_command_run(s, text, strlen(text), "t", &o);
	if (rc != want)
		print_error("'%s': %d %s\n", text, rc, o.err);
	assert_int_equal(rc, want);
	a = strdup(rc == 0 ? (o.buf ? o.buf : "") : o.err);
	assert_non_null(a);
	lsk_out_free(&o);
	return a;
}

static inline void
cli_ok(struct lsk_stack *s, const char *text)
{
	free(cli_run(s, text, 0, false));
}

/* text is refused with rc and exactly the message err ("t:1: ...") */
static inline void
cli_refused(struct lsk_stack *s, const char *text, int rc, const char *err)
{
	char *a = cli_run(s, text, rc, false);

	if (strcmp(a, err) != 0)
		print_error("'%s':\n got  '%s'\n want '%s'\n", text, a, err);
	assert_string_equal(a, err);
	free(a);
}

/* text's answer is exactly want */
static inline void
cli_answer(struct lsk_stack *s, const char *text, bool json,
	   const char *want)
{
	char *a = cli_run(s, text, 0, json);

	if (strcmp(a, want) != 0)
		print_error("'%s':\n%s\nwant\n%s\n", text, a, want);
	assert_string_equal(a, want);
	free(a);
}

/* One refusal of a table: the command, its result, its whole message. */
struct cli_refusal {
	const char *text;
	int rc;
	const char *err;
};

static inline void
cli_refused_all(struct lsk_stack *s, const struct cli_refusal *r,
		size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		cli_refused(s, r[i].text, r[i].rc, r[i].err);
}

/* One answer of a table: the command (text form) and its answer. */
struct cli_reply {
	const char *text;
	const char *want;
};

static inline void
cli_answer_all(struct lsk_stack *s, const struct cli_reply *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		cli_answer(s, r[i].text, false, r[i].want);
}

/* config reload's difference from running to wanted (both config
 * texts), malloc'd; n: its counts */
static inline char *
cli_diff(const char *running, const char *wanted,
	 struct lsk_config_diff_counts *n)
{
	struct lsk_out o;
	char *text;

	lsk_out_init(&o, false);
	assert_int_equal(lsk_config_diff(running, wanted, &o, n), 0);
	text = strdup(o.buf ? o.buf : "");
	assert_non_null(text);
	lsk_out_free(&o);
	return text;
}

#endif /* CLI_RUN_H */
