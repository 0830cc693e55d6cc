/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Read the summaries back from a --json file (gen_report.h) for --from.
 * A small strict JSON parser (RFC 8259) into a bounded node array: depth
 * at most JSON_MAX_DEPTH, at most JSON_MAX_NODES values, the file at most
 * GEN_JSON_MAX_BYTES; anything else is an error that names the offset.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_report.h"

#define JSON_MAX_DEPTH 16
#define JSON_MAX_NODES (1u << 20)

enum jtype { J_OBJ, J_ARR, J_STR, J_NUM, J_TRUE, J_FALSE, J_NULL };

struct jnode {
	enum jtype type;
	const char *key;		/* raw, in the text; NULL in arrays */
	size_t key_len;
	const char *str;		/* raw (escapes kept) */
	size_t str_len;
	double num;
	int child, next;		/* node indexes, -1 for none */
};

struct jparser {
	const char *s;
	size_t len, pos;
	struct jnode *nodes;
	unsigned int n, cap;
	char *err;
	size_t err_len;
};

static int
jfail(struct jparser *p, const char *what)
{
	if (p->err_len)
		snprintf(p->err, p->err_len, "%s at byte %zu", what, p->pos);
	return -EINVAL;
}

static void
jspace(struct jparser *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' ||
	       p->s[p->pos] == '\t' || p->s[p->pos] == '\n' ||
	       p->s[p->pos] == '\r'))
		p->pos++;
}

static int
jnew(struct jparser *p, enum jtype t)
{
	struct jnode *n;

	if (p->n == p->cap) {
		unsigned int cap = p->cap ? p->cap * 2 : 256;
		void *m;

		if (p->cap >= JSON_MAX_NODES)
			return jfail(p, "too many values");
		m = realloc(p->nodes, (size_t)cap * sizeof(*p->nodes));
		if (m == NULL)
			return -ENOMEM;
		p->nodes = m;
		p->cap = cap;
	}
	n = &p->nodes[p->n];
	memset(n, 0, sizeof(*n));
	n->type = t;
	n->child = n->next = -1;
	return (int)p->n++;
}

/* A string's raw text: escapes are checked, not undone. */
static int
jstring(struct jparser *p, const char **out, size_t *out_len)
{
	size_t start;

	if (p->pos >= p->len || p->s[p->pos] != '"')
		return jfail(p, "expected a string");
	start = ++p->pos;
	while (p->pos < p->len && p->s[p->pos] != '"') {
		unsigned char c = (unsigned char)p->s[p->pos];

		if (c < 0x20)
			return jfail(p, "control character in a string");
		if (c == '\\') {
			unsigned int i;

			if (++p->pos >= p->len)
				break;
			c = (unsigned char)p->s[p->pos];
			if (c == 'u') {
				for (i = 0; i < 4; i++)
					if (++p->pos >= p->len ||
					    !strchr("0123456789abcdefABCDEF",
						    p->s[p->pos]) ||
					    p->s[p->pos] == '\0')
						return jfail(p, "bad \\u escape");
			} else if (!strchr("\"\\/bfnrt", c) || c == '\0') {
				return jfail(p, "bad escape");
			}
		}
		p->pos++;
	}
	if (p->pos >= p->len)
		return jfail(p, "unterminated string");
	*out = p->s + start;
	*out_len = p->pos - start;
	p->pos++;
	return 0;
}

static int
jnumber(struct jparser *p, double *out)
{
	size_t start = p->pos, n;
	char buf[64], *end;

	if (p->pos < p->len && p->s[p->pos] == '-')
		p->pos++;
	if (p->pos >= p->len || p->s[p->pos] < '0' || p->s[p->pos] > '9')
		return jfail(p, "bad number");
	if (p->s[p->pos] == '0' && p->pos + 1 < p->len &&
	    p->s[p->pos + 1] >= '0' && p->s[p->pos + 1] <= '9')
		return jfail(p, "leading zero");
	while (p->pos < p->len && strchr("0123456789.eE+-", p->s[p->pos]) &&
	       p->s[p->pos] != '\0')
		p->pos++;
	n = p->pos - start;
	if (n >= sizeof(buf))
		return jfail(p, "number too long");
	memcpy(buf, p->s + start, n);
	buf[n] = '\0';
	*out = strtod(buf, &end);
	if (*end != '\0' || !isfinite(*out))
		return jfail(p, "bad number");
	return 0;
}

static int jvalue(struct jparser *p, unsigned int depth);

static int
jitems(struct jparser *p, int self, char close, unsigned int depth)
{
	int last = -1, v;

	p->pos++;
	jspace(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		return 0;
	}
	for (;;) {
		const char *key = NULL;
		size_t key_len = 0;

		jspace(p);
		if (close == '}') {
			if (jstring(p, &key, &key_len) < 0)
				return -EINVAL;
			jspace(p);
			if (p->pos >= p->len || p->s[p->pos] != ':')
				return jfail(p, "expected ':'");
			p->pos++;
		}
		v = jvalue(p, depth + 1);
		if (v < 0)
			return v;
		p->nodes[v].key = key;
		p->nodes[v].key_len = key_len;
		if (last < 0)
			p->nodes[self].child = v;
		else
			p->nodes[last].next = v;
		last = v;
		jspace(p);
		if (p->pos < p->len && p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == close) {
			p->pos++;
			return 0;
		}
		return jfail(p, close == '}' ? "expected ',' or '}'" :
			     "expected ',' or ']'");
	}
}

static int
jliteral(struct jparser *p, const char *word, enum jtype t)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
		return jfail(p, "unexpected character");
	p->pos += n;
	return jnew(p, t);
}

static int
jvalue(struct jparser *p, unsigned int depth)
{
	int self, rc;
	char c;

	if (depth > JSON_MAX_DEPTH)
		return jfail(p, "nested too deep");
	jspace(p);
	if (p->pos >= p->len)
		return jfail(p, "unexpected end");
	c = p->s[p->pos];
	if (c == '{' || c == '[') {
		self = jnew(p, c == '{' ? J_OBJ : J_ARR);
		if (self < 0)
			return self;
		rc = jitems(p, self, c == '{' ? '}' : ']', depth);
		return rc < 0 ? rc : self;
	}
	if (c == '"') {
		const char *s;
		size_t n;

		if (jstring(p, &s, &n) < 0)
			return -EINVAL;
		self = jnew(p, J_STR);
		if (self >= 0) {
			p->nodes[self].str = s;
			p->nodes[self].str_len = n;
		}
		return self;
	}
	if (c == 't')
		return jliteral(p, "true", J_TRUE);
	if (c == 'f')
		return jliteral(p, "false", J_FALSE);
	if (c == 'n')
		return jliteral(p, "null", J_NULL);
	{
		double v;

		if (jnumber(p, &v) < 0)
			return -EINVAL;
		self = jnew(p, J_NUM);
		if (self >= 0)
			p->nodes[self].num = v;
		return self;
	}
}

/* Reading the tree */

static const struct jnode *
jget(const struct jparser *p, const struct jnode *obj, const char *key)
{
	size_t n = strlen(key);
	int i;

	if (obj == NULL || obj->type != J_OBJ)
		return NULL;
	for (i = obj->child; i >= 0; i = p->nodes[i].next)
		if (p->nodes[i].key_len == n &&
		    memcmp(p->nodes[i].key, key, n) == 0)
			return &p->nodes[i];
	return NULL;
}

static double
jnum_of(const struct jparser *p, const struct jnode *obj, const char *key,
	double dflt)
{
	const struct jnode *v = jget(p, obj, key);

	return v != NULL && v->type == J_NUM ? v->num : dflt;
}

static bool
jstr_is(const struct jnode *v, const char *s)
{
	return v != NULL && v->type == J_STR && v->str_len == strlen(s) &&
	       memcmp(v->str, s, v->str_len) == 0;
}

/* The raw string, escapes of ASCII undone, others as '?'. */
static void
jstr_copy(const struct jnode *v, char *buf, size_t len)
{
	size_t i, o = 0;

	for (i = 0; v != NULL && v->type == J_STR && i < v->str_len &&
	     o + 1 < len; i++) {
		char c = v->str[i];

		if (c == '\\' && i + 1 < v->str_len) {
			c = v->str[++i];
			if (c == 'u') {
				/* jstring checked the four hex digits */
				char hex[5];
				unsigned long u;

				memcpy(hex, v->str + i + 1, 4);
				hex[4] = '\0';
				u = strtoul(hex, NULL, 16);
				c = u >= 0x20 && u < 0x7f ? (char)u : '?';
				i += 4;
			} else if (strchr("bfnrt", c)) {
				c = ' ';
			}
		}
		buf[o++] = c;
	}
	if (len)
		buf[o] = '\0';
}

static enum gen_limit
jlimit(const struct jnode *v)
{
	static const enum gen_limit all[] = { GEN_LIMIT_NONE, GEN_LIMIT_DEVICE,
		GEN_LIMIT_GENERATOR, GEN_LIMIT_MAX_RATE };
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (jstr_is(v, gen_limit_name(all[i])))
			return all[i];
	return GEN_LIMIT_NONE;
}

static int
jsize_of(const struct jnode *v, uint16_t *size)
{
	if (jstr_is(v, "imix")) {
		*size = GEN_SIZE_IMIX;
		return 0;
	}
	if (v == NULL || v->type != J_NUM || v->num < GEN_MIN_SIZE ||
	    v->num > GEN_MAX_SIZE || v->num != floor(v->num))
		return -EINVAL;
	*size = (uint16_t)v->num;
	return 0;
}

static void
rate_of(const struct jparser *p, const struct jnode *r,
	struct gen_rate_summary *out)
{
	memset(out, 0, sizeof(*out));
	if (r == NULL || r->type != J_OBJ)
		return;
	out->limit = jlimit(jget(p, r, "limit"));
	if (jnum_of(p, r, "trial", -1) < 0)
		return;
	out->found = true;
	out->pps = jnum_of(p, r, "pps", 0);
	out->loss_ratio = jnum_of(p, r, "loss_ratio", 0);
	out->verified = jget(p, r, "verified") != NULL &&
			jget(p, r, "verified")->type == J_TRUE;
}

static void
latency_of(const struct jparser *p, const struct jnode *o,
	   struct gen_latency *l)
{
	l->samples = (uint64_t)jnum_of(p, o, "samples", 0);
	l->min_ns = jnum_of(p, o, "min_ns", 0);
	l->mean_ns = jnum_of(p, o, "mean_ns", 0);
	l->p50_ns = jnum_of(p, o, "p50_ns", 0);
	l->p90_ns = jnum_of(p, o, "p90_ns", 0);
	l->p99_ns = jnum_of(p, o, "p99_ns", 0);
	l->p999_ns = jnum_of(p, o, "p999_ns", 0);
	l->max_ns = jnum_of(p, o, "max_ns", 0);
}

static int
summary_of(struct jparser *p, const struct jnode *root, struct gen_summary *s)
{
	const struct jnode *sizes, *search;
	int i, k;

	memset(s, 0, sizeof(*s));
	if (root->type != J_OBJ || !jstr_is(jget(p, root, "mode"), "generate"))
		return jfail(p, "not a listack-bench --generate result "
			     "(\"mode\": \"generate\")");
	if (jnum_of(p, root, "version", 0) != 1)
		return jfail(p, "\"version\" is not 1");
	search = jget(p, root, "search");
	s->kind = jstr_is(search, "mrr") ? GEN_SEARCH_MRR :
		  jstr_is(search, "pdr") ? GEN_SEARCH_PDR : GEN_SEARCH_NDR;
	jstr_copy(jget(p, root, "device"), s->device, sizeof(s->device));
	sizes = jget(p, root, "sizes");
	if (sizes == NULL || sizes->type != J_ARR)
		return jfail(p, "no \"sizes\" array");
	for (i = sizes->child; i >= 0; i = p->nodes[i].next) {
		const struct jnode *z = &p->nodes[i], *lat, *mrr;
		struct gen_size_summary *ss;

		if (s->n_sizes == GEN_SEARCH_MAX_SIZES)
			return jfail(p, "too many sizes");
		ss = &s->sizes[s->n_sizes];
		if (jsize_of(jget(p, z, "size"), &ss->size) < 0)
			return jfail(p, "a size is not 64 .. 1518 or \"imix\"");
		mrr = jget(p, z, "mrr");
		if (mrr != NULL && mrr->type == J_OBJ) {
			ss->has_mrr = true;
			ss->mrr_pps = jnum_of(p, mrr, "pps", 0);
			ss->mrr_limit = jlimit(jget(p, mrr, "limit"));
		}
		rate_of(p, jget(p, z, "ndr"), &ss->ndr);
		rate_of(p, jget(p, z, "pdr"), &ss->pdr);
		lat = jget(p, z, "latency");
		for (k = lat && lat->type == J_ARR ? lat->child : -1; k >= 0;
		     k = p->nodes[k].next) {
			const struct jnode *l = &p->nodes[k];
			struct gen_lat_summary *ls;

			if (ss->n_lat == GEN_LAT_POINTS)
				return jfail(p, "too many latency loads");
			ls = &ss->lat[ss->n_lat++];
			ls->share = jnum_of(p, l, "share", 0);
			ls->pps = jnum_of(p, l, "pps", 0);
			ls->lost = (uint64_t)jnum_of(p, l, "lost", 0);
			latency_of(p, l, &ls->lat);
		}
		s->n_sizes++;
	}
	return 0;
}

int
gen_report_parse(const char *text, size_t len, struct gen_summary *s,
		 char *err, size_t err_len)
{
	struct jparser p = { .s = text, .len = len, .err = err,
			     .err_len = err_len };
	int root, rc;

	if (err_len)
		err[0] = '\0';
	if (len > GEN_JSON_MAX_BYTES)
		return jfail(&p, "file too big");
	root = jvalue(&p, 0);
	rc = root < 0 ? root : 0;
	if (rc == 0) {
		jspace(&p);
		if (p.pos != p.len)
			rc = jfail(&p, "text after the value");
	}
	if (rc == 0)
		rc = summary_of(&p, &p.nodes[root], s);
	if (rc == -ENOMEM && err_len)
		snprintf(err, err_len, "out of memory");
	free(p.nodes);
	return rc;
}

int
gen_report_read(const char *path, struct gen_summary *s, char *err,
		size_t err_len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;
	int rc;

	if (f == NULL) {
		rc = -errno;
		snprintf(err, err_len, "%s", strerror(errno));
		return rc;
	}
	buf = malloc(GEN_JSON_MAX_BYTES + 1);
	if (buf == NULL) {
		fclose(f);
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	n = fread(buf, 1, GEN_JSON_MAX_BYTES + 1, f);
	if (ferror(f)) {
		rc = -EIO;
		snprintf(err, err_len, "read error");
	} else if (n > GEN_JSON_MAX_BYTES) {
		rc = -EFBIG;
		snprintf(err, err_len, "bigger than %u bytes",
			 GEN_JSON_MAX_BYTES);
	} else {
		rc = gen_report_parse(buf, n, s, err, err_len);
	}
	free(buf);
	fclose(f);
	return rc;
}
