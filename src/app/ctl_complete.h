/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-ctl's completion (src/app/ctl_complete.c): the phrases of the
 * grammar, and what may come next after the words typed. No terminal
 * here: src/app/ctl_interactive.c hands it libedit's line.
 */
#ifndef LSK_APP_CTL_COMPLETE_H
#define LSK_APP_CTL_COMPLETE_H

#include <stdbool.h>

/* A phrase as help writes it ("route add PREFIX via GATEWAY"). */
void ctl_complete_add(const char *phrase);
/* Every phrase of a `help` answer in JSON: [{"command", "usage": [...],
 * "words": [...]}, ...]. */
void ctl_complete_from_help(const char *json);
/* The first words of the grammar, for a server that gave no help. */
void ctl_complete_fallback(void);
/* Forget every phrase. */
void ctl_complete_clear(void);
/*
 * The state-th (from 0) word of the grammar that may follow the words
 * of before (the line up to the word being typed) and that starts with
 * text, each once; malloc'd, NULL when there is no more. Nothing where
 * the grammar wants a value (PREFIX, ADDRESS, N).
 */
char *ctl_complete_word(const char *before, const char *text, int state);
/* Whether the next word after before is a FILE (file names complete
 * there, and only there). */
bool ctl_complete_wants_file(const char *before);

#endif
