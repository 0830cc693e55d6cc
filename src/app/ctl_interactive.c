/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-ctl on a terminal: a prompt (libedit), history in
 * ~/.listack_history, and completion of command words from the
 * server's `help` (src/app/ctl_complete.c); file names only where the
 * grammar takes a FILE; values (ports, routes, neighbours, services)
 * from the running stack where they go; `?` shows what may follow the
 * words typed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/socket.h>
#include <sys/time.h>

#include <editline/readline.h>

#include "ctl.h"
#include "ctl_complete.h"
#include "ctl_values.h"

#define HISTORY_FILE ".listack_history"
#define HISTORY_LINES 1000

static void
load_phrases(const char *path)
{
	struct ctl_conn c;
	struct ctl_answer a;
	char why[256];
	bool got = false;

	if (ctl_connect(&c, path, true, why, sizeof(why)) == 0) {
		if (ctl_request(&c, "help\n", 5, "-", &a, why,
				sizeof(why)) == 0) {
			got = a.hdr.status == LSK_CTL_OK && a.body;
			if (got)
				ctl_complete_from_help(a.body);
			ctl_answer_free(&a);
		}
		ctl_close(&c);
	}
	if (!got)
		ctl_complete_fallback();
	ctl_complete_add("quit");
}

/* the line up to the word being completed */
static char line_before[1024];

static char *
complete_next(const char *text, int state)
{
	return ctl_complete_word(line_before, text, state);
}

/*
 * Values from the running stack (src/app/ctl_values.c), asked for when
 * TAB is pressed where one goes, on a connection of their own (JSON)
 * that waits at most VALUES_WAIT_MS for the answer.
 */
#define VALUES_WAIT_MS 500

static const char *session_path;
static char *values[CTL_VALUES_MAX];
static unsigned int n_values;

static void
values_clear(void)
{
	while (n_values > 0)
		free(values[--n_values]);
}

static void
values_fetch(enum ctl_value_kind kind)
{
	struct timeval tv = { 0, VALUES_WAIT_MS * 1000L };
	const char *req = ctl_values_request(kind);
	struct ctl_answer a;
	struct ctl_conn c;
	char why[256];

	values_clear();
	if (req == NULL ||
	    ctl_connect(&c, session_path, true, why, sizeof(why)) < 0)
		return;
	setsockopt(c.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(c.fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (ctl_request(&c, req, strlen(req), "-", &a, why,
			sizeof(why)) == 0) {
		if (a.hdr.status == LSK_CTL_OK && a.body != NULL)
			n_values = ctl_values_parse(kind, a.body, values,
						    CTL_VALUES_MAX);
		ctl_answer_free(&a);
	}
	ctl_close(&c);
}

static char *
complete_value(const char *text, int state)
{
	static unsigned int i;
	size_t n = strlen(text);

	if (state == 0)
		i = 0;
	for (; i < n_values; i++)
		if (strncmp(values[i], text, n) == 0)
			return strdup(values[i++]);
	return NULL;
}

/*
 * libedit completes file names when this finds nothing, unless told
 * that the attempt is over: file names only where a FILE goes.
 */
static char **
complete(const char *text, int start, int end)
{
	enum ctl_value_kind kind;

	(void)end;
	snprintf(line_before, sizeof(line_before), "%.*s", start,
		 rl_line_buffer);
	rl_attempted_completion_over = 1;
	if (ctl_complete_wants_file(line_before))
		return rl_completion_matches(text,
					     rl_filename_completion_function);
	kind = ctl_values_kind(line_before);
	if (kind != CTL_VALUE_NONE) {
		values_fetch(kind);
		return rl_completion_matches(text, complete_value);
	}
	return rl_completion_matches(text, complete_next);
}

/* The session's connection and output, for the `?` key. */
static struct ctl_conn *session;
static bool session_json;

/*
 * `?`: what may follow the words typed so far (help for the command),
 * printed under the line, then the line again as it was.
 */
static int
what_next_key(int count, int key)
{
	char first[64] = "";

	(void)count;
	(void)key;
	if (rl_line_buffer != NULL)
		sscanf(rl_line_buffer, "%63s", first);
	putchar('\n');
	fflush(stdout);
	ctl_what_next(session, first[0] ? first : NULL, session_json);
	rl_on_new_line();
	rl_forced_update_display();
	return 0;
}

int
ctl_interactive(const char *path, bool json)
{
	struct ctl_conn c;
	char history[4096], why[512];
	const char *home = getenv("HOME");
	char *line;
	int rc;

	rc = ctl_connect(&c, path, json, why, sizeof(why));
	if (rc < 0) {
		ctl_print_error(json, why, -rc);
		return CTL_EXIT_NOCONN;
	}
	load_phrases(path);
	rl_readline_name = "listack-ctl";
	rl_attempted_completion_function = complete;
	session = &c;
	session_path = path;
	session_json = json;
	rl_initialize();
	rl_add_defun("listack-what-next", what_next_key, '?');
	history[0] = '\0';
	if (home != NULL)
		snprintf(history, sizeof(history), "%s/%s", home, HISTORY_FILE);
	using_history();
	stifle_history(HISTORY_LINES);
	if (history[0])
		read_history(history);
	for (;;) {
		line = readline("listack> ");
		if (line == NULL) {	/* Ctrl-D: the shell's prompt on a line
					 * of its own */
			putchar('\n');
			break;
		}
		char *p = line;
		size_t len;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0') {
			free(line);
			continue;
		}
		add_history(p);
		if (strcmp(p, "quit") == 0 || strcmp(p, "exit") == 0) {
			free(line);
			break;
		}
		len = strlen(p);
		p[len] = '\n';	/* readline's buffer has room: its NUL */
		if (ctl_run(&c, p, len + 1, "-", json) == CTL_EXIT_NOCONN &&
		    c.fd < 0) {
			rc = ctl_connect(&c, path, json, why, sizeof(why));
			if (rc < 0) {
				ctl_print_error(json, why, -rc);
				free(line);
				rc = CTL_EXIT_NOCONN;
				break;
			}
		}
		rc = 0;
		free(line);
	}
	if (history[0])
		write_history(history);
	ctl_close(&c);
	ctl_complete_clear();
	values_clear();
	return rc;
}
