/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-ctl's completion of command words (src/app/ctl_complete.h).
 * The words come from the server's `help` (as JSON: each usage form is
 * a phrase, and so is "COMMAND WORD" for each word that may follow a
 * command), so a client completes what its server has; without that
 * answer, the first words of the grammar only. A phrase's word is typed
 * as it is (a lower-case word, or a|b|c), or stands for a value (PREFIX,
 * [port P], FILE): a value matches whatever was typed, and is never
 * offered itself.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_complete.h"

#define PHRASES_MAX 512
#define PHRASE_WORDS 16
#define WORD_MAX 64

/* A command as help writes it, cut into words ("route", "add", "PREFIX"). */
struct phrase {
	unsigned int n;
	char *w[PHRASE_WORDS];
};

static struct phrase phrases[PHRASES_MAX];
static unsigned int n_phrases;

static const char *const fallback_words[] = {
	"address", "capture", "filter", "fpm", "gro", "help", "neigh", "port",
	"route", "route-cache", "show", "stats", "trace", "udp", "quit",
};

void
ctl_complete_add(const char *text)
{
	struct phrase *p;
	char *copy, *save = NULL, *w;

	if (n_phrases == PHRASES_MAX)
		return;
	copy = strdup(text);
	if (copy == NULL)
		return;
	p = &phrases[n_phrases];
	p->n = 0;
	for (w = strtok_r(copy, " \t\n", &save); w && p->n < PHRASE_WORDS;
	     w = strtok_r(NULL, " \t\n", &save)) {
		p->w[p->n] = strdup(w);
		if (p->w[p->n] != NULL)
			p->n++;
	}
	free(copy);
	if (p->n > 0)
		n_phrases++;
}

void
ctl_complete_clear(void)
{
	unsigned int i, k;

	for (i = 0; i < n_phrases; i++)
		for (k = 0; k < phrases[i].n; k++)
			free(phrases[i].w[k]);
	n_phrases = 0;
}

void
ctl_complete_fallback(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(fallback_words) / sizeof(fallback_words[0]);
	     i++)
		ctl_complete_add(fallback_words[i]);
}

/* The JSON string at *s (s at its opening quote), unescaped; NULL if bad. */
static char *
json_string(const char **s)
{
	const char *p = *s + 1;
	char *out = malloc(strlen(p) + 1), *o = out;

	if (out == NULL)
		return NULL;
	while (*p && *p != '"') {
		if (*p == '\\' && p[1]) {
			p++;
			*o++ = *p == 'n' || *p == 't' ? ' ' : *p;
			if (*p == 'u')	/* \uXXXX: not a command word */
				o[-1] = '?', p += strlen(p) >= 5 ? 4 : 0;
			p++;
			continue;
		}
		*o++ = *p++;
	}
	*o = '\0';
	if (*p != '"') {
		free(out);
		return NULL;
	}
	*s = p + 1;
	return out;
}

void
ctl_complete_from_help(const char *j)
{
	char *key = NULL;	/* the key whose value is being read */
	char *list = NULL;	/* the key of the array being read */
	char cmd[64] = "";
	const char *p = j;

	while (*p) {
		if (*p == '"') {
			char *s = json_string(&p);

			if (s == NULL)
				break;
			while (*p == ' ' || *p == '\n' || *p == '\t')
				p++;
			if (*p == ':' && list == NULL) {
				free(key);
				key = s;
				p++;
				continue;
			}
			if (list != NULL && strcmp(list, "usage") == 0) {
				ctl_complete_add(s);
			} else if (list != NULL && strcmp(list, "words") == 0 &&
				   cmd[0]) {
				char phrase[256];

				snprintf(phrase, sizeof(phrase), "%s %s", cmd, s);
				ctl_complete_add(phrase);
			} else if (list == NULL && key &&
				   strcmp(key, "command") == 0) {
				snprintf(cmd, sizeof(cmd), "%s", s);
				ctl_complete_add(s);
			}
			free(s);
			continue;
		}
		if (*p == '[' && key != NULL && list == NULL) {
			list = key;
			key = NULL;
		} else if (*p == ']' && list != NULL) {
			free(list);
			list = NULL;
		}
		p++;
	}
	free(key);
	free(list);
}

/* A word of a phrase that is typed as it is (not PREFIX, not [...]). */
static bool
literal(const char *w)
{
	return (w[0] >= 'a' && w[0] <= 'z') || (w[0] >= '0' && w[0] <= '9');
}

/* Does typed match phrase word w (a placeholder or one of a|b|c)? */
static bool
word_matches(const char *w, const char *typed)
{
	size_t n = strlen(typed);
	const char *p = w;

	if (!literal(w))
		return true;
	while (*p) {
		size_t alt = strcspn(p, "|");

		if (alt == n && strncmp(p, typed, n) == 0)
			return true;
		p += alt;
		if (*p == '|')
			p++;
	}
	return false;
}

/* The words of before. */
static unsigned int
typed_words(const char *before, char words[][WORD_MAX], unsigned int max)
{
	char line[1024];
	char *save = NULL, *w;
	unsigned int n = 0;

	snprintf(line, sizeof(line), "%s", before);
	for (w = strtok_r(line, " \t", &save); w && n < max;
	     w = strtok_r(NULL, " \t", &save))
		snprintf(words[n++], WORD_MAX, "%s", w);
	return n;
}

/* Does phrase p start with the n typed words? */
static bool
phrase_follows(const struct phrase *p, char words[][WORD_MAX], unsigned int n)
{
	unsigned int k;

	if (p->n <= n)
		return false;
	for (k = 0; k < n; k++)
		if (!word_matches(p->w[k], words[k]))
			return false;
	return true;
}

char *
ctl_complete_word(const char *before, const char *text, int state)
{
	static unsigned int pi, alt_off;
	static char words[PHRASE_WORDS][WORD_MAX];
	static unsigned int n_words;
	size_t tl = strlen(text);

	if (state == 0) {
		pi = 0;
		alt_off = 0;
		n_words = typed_words(before, words, PHRASE_WORDS);
	}
	for (; pi < n_phrases; pi++, alt_off = 0) {
		const struct phrase *p = &phrases[pi];
		const char *w;

		if (!phrase_follows(p, words, n_words) ||
		    !literal(p->w[n_words]))
			continue;
		w = p->w[n_words];
		/* each alternative of a|b in turn */
		while (alt_off < strlen(w)) {
			const char *a = w + alt_off;
			size_t alen = strcspn(a, "|");
			char cand[WORD_MAX];
			unsigned int q;
			bool dup = false;

			alt_off += (unsigned int)alen + 1;
			snprintf(cand, sizeof(cand), "%.*s", (int)alen, a);
			if (strncmp(cand, text, tl) != 0)
				continue;
			/* once only, if an earlier phrase offered it */
			for (q = 0; q < pi && !dup; q++)
				dup = phrase_follows(&phrases[q], words,
						     n_words) &&
				      literal(phrases[q].w[n_words]) &&
				      word_matches(phrases[q].w[n_words], cand);
			if (!dup)
				return strdup(cand);
		}
	}
	return NULL;
}

/* w is FILE or [FILE] */
static bool
is_file(const char *w)
{
	return strcmp(w, "FILE") == 0 || strcmp(w, "[FILE]") == 0;
}

bool
ctl_complete_wants_file(const char *before)
{
	char words[PHRASE_WORDS][WORD_MAX];
	unsigned int n = typed_words(before, words, PHRASE_WORDS), i;

	if (n == 0)
		return false;
	for (i = 0; i < n_phrases; i++) {
		const struct phrase *p = &phrases[i];
		const char *prev, *last;

		if (!phrase_follows(p, words, n) || !is_file(p->w[n]))
			continue;
		/* "echo|discard|pcap FILE": the file follows the last
		 * alternative only */
		prev = p->w[n - 1];
		last = strrchr(prev, '|');
		if (!literal(prev) || last == NULL ||
		    strcmp(last + 1, words[n - 1]) == 0)
			return true;
	}
	return false;
}
