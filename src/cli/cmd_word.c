/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The grammar's own words forgive: a unique prefix stands for the word
 * (`sh ro` is `show routes`), and a word that is none of them is named
 * in the error with the nearest one and the list it should come from.
 * The command word and the word after it (help.c's words) are matched
 * here, the keywords after them by each command where one goes
 * (cmd_kw): values (addresses, names, files) are never expanded.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "control/control.h"
#include "cli/cmd.h"

/* The n-th word of the space-separated list: its start and length. */
static bool
list_word(const char *list, unsigned int n, const char **w, size_t *len)
{
	const char *p = list;

	for (;;) {
		p += strspn(p, " ");
		if (*p == '\0')
			return false;
		*len = strcspn(p, " ");
		if (n-- == 0) {
			*w = p;
			return true;
		}
		p += *len;
	}
}

/* strcmp for words that are not NUL-terminated */
static int
word_cmp(const char *a, size_t la, const char *b, size_t lb)
{
	int d = memcmp(a, b, la < lb ? la : lb);

	return d ? d : (la > lb) - (la < lb);
}

int
cmd_word_find(const char *list, const char *word)
{
	size_t wlen = strlen(word), len;
	const char *w;
	unsigned int i;
	int found = -ENOENT;

	if (wlen == 0)
		return -ENOENT;
	for (i = 0; list_word(list, i, &w, &len); i++) {
		if (len == wlen && memcmp(w, word, len) == 0)
			return (int)i;	/* exact wins over prefixes */
		if (len > wlen && memcmp(w, word, wlen) == 0)
			found = found == -ENOENT ? (int)i : -EEXIST;
	}
	return found;
}

/*
 * Edit distance of a and b, both under 64 bytes: insertions, deletions,
 * substitutions and swaps of two neighbours ("lsit"), one each.
 */
static unsigned int
distance(const char *a, size_t la, const char *b, size_t lb)
{
	unsigned int d[3][64], best;
	size_t i, j;

	for (j = 0; j <= lb; j++)
		d[0][j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		unsigned int *row = d[i % 3], *up = d[(i - 1) % 3],
			     *up2 = d[(i + 1) % 3];

		row[0] = (unsigned int)i;
		for (j = 1; j <= lb; j++) {
			best = up[j - 1] + (a[i - 1] != b[j - 1]);
			if (up[j] + 1 < best)
				best = up[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && up2[j - 2] + 1 < best)
				best = up2[j - 2] + 1;
			row[j] = best;
		}
	}
	return d[la % 3][lb];
}

bool
cmd_word_near(const char *list, const char *word, char *buf, size_t buf_len)
{
	size_t wlen = strlen(word), len;
	unsigned int i, d, best = 3;	/* at most 2 edits away */
	const char *w;
	bool found = false;

	if (wlen >= 64)
		return false;
	for (i = 0; list_word(list, i, &w, &len); i++) {
		if (len >= 64)
			continue;
		d = distance(word, wlen, w, len);
		/* an edit in three letters at most: "x" and "fast" are
		 * near nothing */
		if (d < best && d * 3 <= wlen) {
			best = d;
			snprintf(buf, buf_len, "%.*s", (int)len, w);
			found = true;
		}
	}
	return found;
}

/* The words of list word begins, in alphabetical order: "a, b". */
static void
ambiguous_text(const char *list, const char *word, char *buf, size_t buf_len)
{
	size_t wlen = strlen(word), len, n = 0;
	const char *w, *prev = NULL, *next;
	size_t prev_len = 0, next_len = 0;
	unsigned int i;

	buf[0] = '\0';
	for (;;) {
		/* the least word after prev */
		next = NULL;
		for (i = 0; list_word(list, i, &w, &len); i++) {
			if (len <= wlen || memcmp(w, word, wlen) != 0)
				continue;
			if (prev != NULL && word_cmp(w, len, prev,
						     prev_len) <= 0)
				continue;
			if (next == NULL || word_cmp(w, len, next,
						     next_len) < 0) {
				next = w;
				next_len = len;
			}
		}
		if (next == NULL || n >= buf_len)
			return;
		n += (size_t)snprintf(buf + n, buf_len - n, "%s%.*s",
				      n ? ", " : "", (int)next_len, next);
		prev = next;
		prev_len = next_len;
	}
}

/* "a, b, c" or, past five words, "a, b, c, ..." (the list's order) */
static void
list_text(const char *list, char *buf, size_t buf_len)
{
	size_t len, n = 0, count = 0;
	const char *w;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; list_word(list, i, &w, &len); i++)
		count++;
	for (i = 0; list_word(list, i, &w, &len) && n < buf_len; i++) {
		if (count > 5 && i == 3) {
			snprintf(buf + n, buf_len - n, ", ...");
			return;
		}
		n += (size_t)snprintf(buf + n, buf_len - n, "%s%.*s",
				      n ? ", " : "", (int)len, w);
	}
}

int
cmd_word(struct cmd_ctx *c, int i, const char *list, const char *kind)
{
	char near[32], words[256], where[32] = "";
	const char *w;
	size_t len;
	int k;

	if (i >= c->argc || i >= CMD_FULL_WORDS)
		return 0;
	k = cmd_word_find(list, c->argv[i]);
	if (k >= 0) {
		/* k is a word of list: cmd_word_find found it there */
		if (list_word(list, (unsigned int)k, &w, &len)) {
			snprintf(c->full[i], sizeof(c->full[i]), "%.*s",
				 (int)len, w);
			c->argv[i] = c->full[i];
		}
		return 0;
	}
	if (i > 0)
		snprintf(where, sizeof(where), "%s: ", c->argv[0]);
	if (k == -EEXIST)
		ambiguous_text(list, c->argv[i], words, sizeof(words));
	else
		list_text(list, words, sizeof(words));
	if (k == -EEXIST)
		return cmd_error(c, -EINVAL, "%s'%s' is ambiguous: %s", where,
				 c->argv[i], words);
	if (cmd_word_near(list, c->argv[i], near, sizeof(near)))
		return cmd_error(c, -EINVAL, "%sunknown %s '%s'; did you mean "
				 "'%s'? (%s)", where, kind, c->argv[i], near,
				 words);
	return cmd_error(c, -EINVAL, "%sunknown %s '%s' (%s)", where, kind,
			 c->argv[i], words);
}

void
cmd_kw(struct cmd_ctx *c, int i, const char *list)
{
	const char *w;
	size_t len;
	int k;

	if (i >= c->argc || i >= CMD_FULL_WORDS)
		return;
	k = cmd_word_find(list, c->argv[i]);
	if (k < 0 || !list_word(list, (unsigned int)k, &w, &len))
		return;
	snprintf(c->full[i], sizeof(c->full[i]), "%.*s", (int)len, w);
	c->argv[i] = c->full[i];
}

int
cmd_words_resolve(struct cmd_ctx *c)
{
	const char *next;
	int rc;

	if (c->argc == 0)
		return 0;
	rc = cmd_word(c, 0, cmd_words("help"), "command");
	if (rc < 0 || c->argc < 2)
		return rc;
	next = cmd_words(c->argv[0]);
	if (next[0] == '\0')
		return 0;
	return cmd_word(c, 1, next, strcmp(c->argv[0], "show") == 0 ? "view" :
			strcmp(c->argv[0], "help") == 0 ? "command" : "word");
}
