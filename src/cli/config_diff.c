/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `config reload`'s difference (docs/configuration.md, "Reload"): from
 * two `show config` texts, the running one and the file's (both in
 * show config's own words, so that equal things read equal), the
 * commands of one batch that turn the first into the second and touch
 * nothing that is in both.
 *
 * Each line has a kind and a key: a route is keyed by its prefix, a
 * static neighbour by its address, a service by ADDR:PORT, a port's
 * settings by the port, GRO, route cache and mode by their name; an
 * address or a VLAN sub-interface is its whole line. Same key, same
 * line: untouched. Same key, another line: changed (route replace; a
 * neighbour or service deleted and added; a setting set). Only in the
 * running text: removed (address del, route del, neigh del, udp close);
 * a VLAN sub-interface stays (no command removes one, and interface ids
 * must not move). Only in the file: added. Filter rules are an ordered
 * list: equal, untouched; else flushed and added again.
 *
 * The batch's order lets every line apply: what goes first (filters,
 * services, neighbours, routes), then ports and VLANs, new addresses
 * before the addresses that go (a subnet that keeps another address
 * keeps its routes), then routes, neighbours, services, filters and the
 * settings.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/config_diff.h"

enum kind { K_PORT, K_VLAN, K_ADDR, K_ROUTE, K_NEIGH, K_UDP, K_FILTER,
	    K_SETTING, K_OTHER };

/* What a line's part in the batch is. */
enum act { A_NONE, A_ADD, A_DEL, A_CHANGE };

struct cline {
	const char *line;	/* NUL-terminated, in the copy of the text */
	const char *key;
	size_t key_len;
	enum kind kind;
	enum act act;
	const struct cline *old;	/* A_CHANGE: the running line */
};

struct ctext {
	char *buf;
	struct cline *v;
	size_t n;
};

static bool
starts(const char *s, const char *word)
{
	return strncmp(s, word, strlen(word)) == 0;
}

/* The n-th word (from 0) of s and its length. */
static const char *
word(const char *s, unsigned int n, size_t *len)
{
	for (;;) {
		while (*s == ' ')
			s++;
		*len = strcspn(s, " ");
		if (n-- == 0 || *s == '\0')
			return s;
		s += *len;
	}
}

static void
classify(struct cline *l)
{
	const char *s = l->line;
	size_t len;

	l->kind = K_OTHER;
	l->key = s;
	l->key_len = strlen(s);
	if (starts(s, "port ") && strstr(s, " ra ") != NULL) {
		/* `port N ra on`, keyed by "port N ra" */
		l->kind = K_SETTING;
		l->key_len = (size_t)(word(s, 2, &len) - s) + len;
	} else if (starts(s, "port ")) {
		if (strstr(s, " vlan ") != NULL) {
			l->kind = K_VLAN;
			return;
		}
		l->kind = K_PORT;
		l->key_len = (size_t)(word(s, 1, &len) - s) + len;
	} else if (starts(s, "address add ")) {
		l->kind = K_ADDR;
	} else if (starts(s, "route add ")) {
		l->kind = K_ROUTE;
		l->key = word(s, 2, &l->key_len);
	} else if (starts(s, "neigh add ")) {
		l->kind = K_NEIGH;
		l->key = word(s, 2, &l->key_len);
	} else if (starts(s, "udp listen ")) {
		l->kind = K_UDP;
		l->key = word(s, 2, &l->key_len);
	} else if (starts(s, "filter add ")) {
		l->kind = K_FILTER;
	} else if (starts(s, "gro ") || starts(s, "route-cache ") ||
		   starts(s, "mode ") || starts(s, "fpm ")) {
		l->kind = K_SETTING;
		l->key = word(s, 0, &l->key_len);
	} else if (starts(s, "host-if ")) {
		/* a host-if's rate, keyed by the host-if */
		l->kind = K_SETTING;
		l->key_len = (size_t)(word(s, 1, &len) - s) + len;
	}
}

static void
ctext_free(struct ctext *t)
{
	free(t->buf);
	free(t->v);
}

/* text's lines (blank ones left out) into t. */
static int
ctext_split(const char *text, struct ctext *t)
{
	size_t n = 1, i;
	char *p, *next;

	memset(t, 0, sizeof(*t));
	t->buf = strdup(text ? text : "");
	if (t->buf == NULL)
		return -ENOMEM;
	for (p = t->buf; *p; p++)
		n += *p == '\n';
	t->v = calloc(n, sizeof(*t->v));
	if (t->v == NULL) {
		ctext_free(t);
		return -ENOMEM;
	}
	for (p = t->buf, i = 0; p != NULL; p = next) {
		next = strchr(p, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (*p == '\0')
			continue;
		t->v[i].line = p;
		classify(&t->v[i++]);
	}
	t->n = i;
	return 0;
}

static int
cline_cmp(const void *a, const void *b)
{
	const struct cline *x = *(const struct cline *const *)a;
	const struct cline *y = *(const struct cline *const *)b;
	size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
	int c;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	c = memcmp(x->key, y->key, n);
	if (c != 0)
		return c;
	return x->key_len < y->key_len ? -1 : x->key_len > y->key_len;
}

static struct cline **
sorted(struct ctext *t)
{
	struct cline **p = malloc((t->n ? t->n : 1) * sizeof(*p));
	size_t i;

	if (p == NULL)
		return NULL;
	for (i = 0; i < t->n; i++)
		p[i] = &t->v[i];
	qsort(p, t->n, sizeof(*p), cline_cmp);
	return p;
}

/* The filter rules, in order, equal in both? */
static bool
filters_equal(const struct ctext *a, const struct ctext *b)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < a->n && a->v[i].kind != K_FILTER)
			i++;
		while (j < b->n && b->v[j].kind != K_FILTER)
			j++;
		if (i == a->n || j == b->n)
			return i == a->n && j == b->n;
		if (strcmp(a->v[i].line, b->v[j].line) != 0)
			return false;
		i++;
		j++;
	}
}

/* Mark each line's act: sorted merge of the two by (kind, key). */
static void
mark(struct cline **a, size_t na, struct cline **b, size_t nb,
     struct lsk_config_diff_counts *n)
{
	size_t i = 0, j = 0;

	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : cline_cmp(&a[i], &b[j]);

		if (c < 0) {
			/* a VLAN sub-interface stays (see above) */
			if (a[i]->kind != K_VLAN && a[i]->kind != K_OTHER) {
				a[i]->act = A_DEL;
				n->removed++;
			}
			i++;
		} else if (c > 0) {
			b[j]->act = A_ADD;
			n->added++;
			j++;
		} else {
			if (strcmp(a[i]->line, b[j]->line) != 0) {
				a[i]->act = A_CHANGE;
				b[j]->act = A_CHANGE;
				b[j]->old = a[i];
				n->changed++;
			}
			i++;
			j++;
		}
	}
}

/* The batch's steps, in order (see the top of this file). */
enum step { S_FILTER_FLUSH, S_UDP_CLOSE, S_NEIGH_DEL, S_ROUTE_DEL, S_PORT,
	    S_ADDR_ADD, S_ADDR_DEL, S_ROUTE, S_NEIGH, S_UDP, S_FILTER,
	    S_SETTING, S_OTHER, S_COUNT };

/* The words after the first two of line ("route add X" -> "X"). */
static const char *
rest(const char *line)
{
	size_t len;

	return word(line, 2, &len);
}

static int
emit_old(struct lsk_out *o, enum step st, const struct cline *l)
{
	size_t len;
	const char *k = word(l->line, 2, &len);

	if (l->act != A_DEL && l->act != A_CHANGE)
		return 0;
	if (st == S_UDP_CLOSE && l->kind == K_UDP)
		return lsk_out_printf(o, "udp close %.*s\n", (int)len, k);
	/* an IPv6 link-local neighbour's interface with it */
	if (st == S_NEIGH_DEL && l->kind == K_NEIGH)
		return lsk_out_printf(o, "neigh del %.*s%s\n", (int)len, k,
				      strstr(l->line, " port ") ?
				      strstr(l->line, " port ") : "");
	if (l->act != A_DEL)
		return 0;
	/* a host-if's rate the file no longer gives, before the port
	 * lines (which may remove the host-if) */
	if (st == S_UDP_CLOSE && l->kind == K_SETTING &&
	    starts(l->line, "host-if ")) {
		k = word(l->line, 1, &len);
		return lsk_out_printf(o, "host-if %.*s rate default\n",
				      (int)len, k);
	}
	if (st == S_ROUTE_DEL && l->kind == K_ROUTE)
		return lsk_out_printf(o, "route del %.*s\n", (int)len, k);
	if (st == S_ADDR_DEL && l->kind == K_ADDR)
		return lsk_out_printf(o, "address del %s\n", rest(l->line));
	/* the one setting a file may leave out (show config writes it only
	 * when set) */
	if (st == S_SETTING && l->kind == K_SETTING && starts(l->line, "fpm "))
		return lsk_out_printf(o, "fpm off\n");
	/* nor router advertisements */
	if (st == S_SETTING && l->kind == K_SETTING && starts(l->line, "port "))
		return lsk_out_printf(o, "%.*s off\n", (int)l->key_len,
				      l->line);
	return 0;
}

static int
emit_new(struct lsk_out *o, enum step st, const struct cline *l)
{
	static const enum step step_of[] = {
		[K_PORT] = S_PORT, [K_VLAN] = S_PORT, [K_ADDR] = S_ADDR_ADD,
		[K_ROUTE] = S_ROUTE, [K_NEIGH] = S_NEIGH, [K_UDP] = S_UDP,
		[K_FILTER] = S_FILTER, [K_SETTING] = S_SETTING,
		[K_OTHER] = S_OTHER,
	};

	if ((l->act != A_ADD && l->act != A_CHANGE) || step_of[l->kind] != st)
		return 0;
	if (l->kind == K_FILTER)
		return 0;	/* as a list (lsk_config_diff) */
	if (l->act == A_CHANGE && l->kind == K_ROUTE)
		return lsk_out_printf(o, "route replace %s\n", rest(l->line));
	/* a MAC the file no longer gives: the port's own again; a host-if
	 * it no longer gives: none */
	if (l->act == A_CHANGE && l->kind == K_PORT)
		return lsk_out_printf(o, "%s%s%s\n", l->line,
				      strstr(l->line, " mac ") == NULL &&
				      strstr(l->old->line, " mac ") != NULL ?
				      " mac default" : "",
				      strstr(l->line, " host-if ") == NULL &&
				      strstr(l->old->line, " host-if ") !=
				      NULL ? " host-if none" : "");
	return lsk_out_printf(o, "%s\n", l->line);
}

static int
emit(struct lsk_out *o, const struct ctext *a, const struct ctext *b,
     bool filters_differ)
{
	int st;
	size_t i;
	int rc = 0;

	for (st = 0; st < S_COUNT && rc == 0; st++) {
		if (st == S_FILTER_FLUSH && filters_differ)
			rc = lsk_out_printf(o, "filter flush\n");
		for (i = 0; i < a->n && rc == 0; i++)
			rc = emit_old(o, (enum step)st, &a->v[i]);
		for (i = 0; i < b->n && rc == 0; i++) {
			if (st == S_FILTER && filters_differ &&
			    b->v[i].kind == K_FILTER)
				rc = lsk_out_printf(o, "%s\n", b->v[i].line);
			else
				rc = emit_new(o, (enum step)st, &b->v[i]);
		}
	}
	return rc;
}

int
lsk_config_diff(const char *running, const char *wanted, struct lsk_out *o,
		struct lsk_config_diff_counts *n)
{
	struct cline **sa = NULL, **sb = NULL;
	struct ctext a, b;
	size_t na = 0, nb = 0, i;
	bool filters_differ;
	int rc;

	memset(n, 0, sizeof(*n));
	rc = ctext_split(running, &a);
	if (rc < 0)
		return rc;
	rc = ctext_split(wanted, &b);
	if (rc < 0) {
		ctext_free(&a);
		return rc;
	}
	sa = sorted(&a);
	sb = sorted(&b);
	if (sa == NULL || sb == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	/* filters are a list, compared whole: out of the merge */
	for (i = 0; i < a.n; i++)
		if (sa[i]->kind != K_FILTER)
			sa[na++] = sa[i];
	for (i = 0; i < b.n; i++)
		if (sb[i]->kind != K_FILTER)
			sb[nb++] = sb[i];
	mark(sa, na, sb, nb, n);
	filters_differ = !filters_equal(&a, &b);
	if (filters_differ) {
		n->removed += (unsigned int)(a.n - na);
		n->added += (unsigned int)(b.n - nb);
	}
	rc = emit(o, &a, &b, filters_differ);
out:
	free(sa);
	free(sb);
	ctext_free(&a);
	ctext_free(&b);
	return rc;
}
