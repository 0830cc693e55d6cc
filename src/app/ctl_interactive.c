/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-ctl on a terminal: a prompt (libedit), history in
 * ~/.listack_history, and completion of command words. The words come
 * from the server's `help` (as JSON: every string a "command", "name",
 * "syntax" or "usage" holds, or that a "commands" array lists), so a
 * client completes what its server has; without that answer, the first
 * words of the grammar only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <editline/readline.h>

#include "ctl.h"

#define HISTORY_FILE ".listack_history"
#define HISTORY_LINES 1000
#define PHRASES_MAX 512
#define PHRASE_WORDS 16

/* A command as help writes it, cut into words ("route", "add", "PREFIX"). */
struct phrase {
	unsigned int n;
	char *w[PHRASE_WORDS];
};

static struct phrase phrases[PHRASES_MAX];
static unsigned int n_phrases;

static const char *const fallback_words[] = {
	"address", "capture", "filter", "gro", "help", "neigh", "port",
	"route", "route-cache", "show", "stats", "trace", "udp", "quit",
};

static void
phrase_add(const char *text)
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
	     w = strtok_r(NULL, " \t\n", &save))
		p->w[p->n++] = strdup(w);
	free(copy);
	if (p->n > 0)
		n_phrases++;
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

/*
 * Collect the phrases of a help answer: [{"command": C, "usage": [...],
 * "words": [...]}, ...]. Each usage line is a phrase, and so is "C W"
 * for each of the words that may follow C. Anything else is skipped.
 */
static void
phrases_from_json(const char *j)
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
				phrase_add(s);
			} else if (list != NULL && strcmp(list, "words") == 0 &&
				   cmd[0]) {
				char phrase[256];

				snprintf(phrase, sizeof(phrase), "%s %s", cmd, s);
				phrase_add(phrase);
			} else if (list == NULL && key &&
				   strcmp(key, "command") == 0) {
				snprintf(cmd, sizeof(cmd), "%s", s);
				phrase_add(s);
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

static void
load_phrases(const char *path)
{
	struct ctl_conn c;
	struct ctl_answer a;
	char why[256];
	unsigned int i;

	if (ctl_connect(&c, path, true, why, sizeof(why)) == 0) {
		if (ctl_request(&c, "help\n", 5, "-", &a, why,
				sizeof(why)) == 0) {
			if (a.hdr.status == LSK_CTL_OK && a.body)
				phrases_from_json(a.body);
			ctl_answer_free(&a);
		}
		ctl_close(&c);
	}
	if (n_phrases == 0)
		for (i = 0; i < sizeof(fallback_words) /
		     sizeof(fallback_words[0]); i++)
			phrase_add(fallback_words[i]);
	phrase_add("quit");
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

/* The words typed before the one being completed. */
static unsigned int
typed_words(char words[][64], unsigned int max, int start)
{
	char line[1024];
	char *save = NULL, *w;
	unsigned int n = 0;

	snprintf(line, sizeof(line), "%.*s", start, rl_line_buffer);
	for (w = strtok_r(line, " \t", &save); w && n < max;
	     w = strtok_r(NULL, " \t", &save))
		snprintf(words[n++], 64, "%s", w);
	return n;
}

static char *
complete_next(const char *text, int state)
{
	static unsigned int pi, alt_off;
	static char words[PHRASE_WORDS][64];
	static unsigned int n_words;
	size_t tl = strlen(text);

	if (state == 0) {
		pi = 0;
		alt_off = 0;
		n_words = typed_words(words, PHRASE_WORDS, rl_point -
				      (int)tl);
	}
	for (; pi < n_phrases; pi++, alt_off = 0) {
		const struct phrase *p = &phrases[pi];
		unsigned int k;
		const char *w;

		if (p->n <= n_words)
			continue;
		for (k = 0; k < n_words; k++)
			if (!word_matches(p->w[k], words[k]))
				break;
		if (k < n_words || !literal(p->w[n_words]))
			continue;
		w = p->w[n_words];
		/* each alternative of a|b in turn */
		while (alt_off < strlen(w)) {
			const char *a = w + alt_off;
			size_t alen = strcspn(a, "|");
			char cand[64];
			unsigned int q;
			bool dup = false;

			alt_off += (unsigned int)alen + 1;
			snprintf(cand, sizeof(cand), "%.*s", (int)alen, a);
			if (strncmp(cand, text, tl) != 0)
				continue;
			/* once only, if an earlier phrase offered it */
			for (q = 0; q < pi && !dup; q++) {
				const struct phrase *o = &phrases[q];
				unsigned int m;

				if (o->n <= n_words)
					continue;
				for (m = 0; m < n_words; m++)
					if (!word_matches(o->w[m], words[m]))
						break;
				dup = m == n_words &&
				      literal(o->w[n_words]) &&
				      word_matches(o->w[n_words], cand);
			}
			if (!dup)
				return strdup(cand);
		}
	}
	return NULL;
}

static char **
complete(const char *text, int start, int end)
{
	(void)start;
	(void)end;
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
	while ((line = readline("listack> ")) != NULL) {
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
	return rc;
}
