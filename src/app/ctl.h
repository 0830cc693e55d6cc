/* SPDX-License-Identifier: BSD-3-Clause */
/* listack-ctl: what its one-shot and interactive parts share. */
#ifndef LSK_APP_CTL_H
#define LSK_APP_CTL_H

#include <stdbool.h>
#include <stddef.h>

#include "ctl_conn.h"

#define CTL_EXIT_REFUSED 1
#define CTL_EXIT_USAGE 2
#define CTL_EXIT_NOCONN 2

/* An error as listack-ctl prints it: stderr, or a JSON object on stdout. */
void ctl_print_error(bool json, const char *msg, int err);
/* Print an answer; returns the exit status it deserves. */
int ctl_print_answer(const struct ctl_answer *a, bool json);
/* Send one batch and print its answer; returns the exit status. */
int ctl_run(struct ctl_conn *c, const char *text, size_t len,
	    const char *source, bool json);
/* `WORDS... ?`: help for the command first is (every command if NULL). */
int ctl_what_next(struct ctl_conn *c, const char *first, bool json);
/* The prompt, history and completion (app/ctl_interactive.c). */
int ctl_interactive(const char *path, bool json);

#endif /* LSK_APP_CTL_H */
