/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-ctl on a terminal: a prompt (libedit), history in
 * ~/.listack_history, and completion of command words from the
 * server's `help` (src/app/ctl_complete.c); file names only where the
 * grammar takes a FILE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <editline/readline.h>

#include "ctl.h"
#include "ctl_complete.h"

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
 * libedit completes file names when this finds nothing, unless told
 * that the attempt is over: file names only where a FILE goes.
 */
static char **
complete(const char *text, int start, int end)
{
	(void)end;
	snprintf(line_before, sizeof(line_before), "%.*s", start,
		 rl_line_buffer);
	rl_attempted_completion_over = 1;
	if (ctl_complete_wants_file(line_before))
		return rl_completion_matches(text,
					     rl_filename_completion_function);
	return rl_completion_matches(text, complete_next);
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
	return rc;
}
