/* SPDX-License-Identifier: BSD-3-Clause */
/* The searches' options, their output, and --from (search_cli.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_report.h"
#include "search_cli.h"
#include "svg.h"

void
gen_search_opts_init(struct gen_search_opts *o)
{
	memset(o, 0, sizeof(*o));
	gen_search_defaults(&o->params);
}

void
gen_search_usage(FILE *f)
{
	fprintf(f,
		"searches (with --generate):\n"
		"  --search ndr|pdr|mrr  ndr: NDR then PDR; pdr: PDR; mrr: "
		"full load only\n"
		"  --sizes LIST          64 .. 1518, imix (default "
		"64,1518,imix)\n"
		"  --trial S             trial length (default 1)\n"
		"  --resolution X        pps, or X%% of the high bound "
		"(default 0.5%%)\n"
		"  --max-rate PPS        high bound (default: the generator's "
		"offer at full load)\n"
		"  --min-rate PPS        low bound, taken to pass (default 0)\n"
		"  --pdr-loss PCT        PDR loss in percent (default 0.5)\n"
		"  --no-verify           no final trial at the found rate\n"
		"  --latency-seconds S   latency trials at min, 10, 50, 90 %% "
		"of the NDR (default 1; 0: none)\n"
		"  --latency-min-rate PPS  the minimal load (default 10k)\n"
		"  --device NAME         label of the run\n"
		"  --plot FILE.svg       throughput and latency plot\n"
		"merge (no EAL): listack-bench --from A.json,B.json,... "
		"[--plot FILE.svg] [--table-md FILE]\n");
}

static int
bad(const char *opt, const char *val, const char *what)
{
	fprintf(stderr, "%s: '%s' is not %s\n", opt, val, what);
	return -EINVAL;
}

/* A number with an optional k or M; [min, max]. */
static int
parse_num(const char *opt, const char *s, double min, double max,
	  const char *what, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno)
		return bad(opt, s, what);
	if (*end == 'k' || *end == 'K')
		v *= 1e3, end++;
	else if (*end == 'M')
		v *= 1e6, end++;
	if (*end != '\0' || !(v >= min && v <= max))
		return bad(opt, s, what);
	*out = v;
	return 0;
}

static int
parse_sizes(const char *s, struct gen_search_params *p)
{
	const char *c = s;
	unsigned int n = 0, i;

	while (*c != '\0') {
		const char *end = strchr(c, ',');
		size_t len = end ? (size_t)(end - c) : strlen(c);
		char word[8], *e;
		unsigned long v;

		if (len == 0 || len >= sizeof(word) || n == GEN_SEARCH_MAX_SIZES)
			return bad("--sizes", s, "a list of at most 16 sizes");
		memcpy(word, c, len);
		word[len] = '\0';
		if (strcmp(word, "imix") == 0) {
			v = GEN_SIZE_IMIX;
		} else {
			v = strtoul(word, &e, 10);
			if (*e != '\0' || word[0] == '-' || v < GEN_MIN_SIZE ||
			    v > GEN_MAX_SIZE)
				return bad("--sizes", word, "64 .. 1518 or imix");
		}
		for (i = 0; i < n; i++)
			if (p->sizes[i] == v)
				return bad("--sizes", word, "given once");
		p->sizes[n++] = (uint16_t)v;
		c += len + (end != NULL);
		if (end != NULL && *c == '\0')
			return bad("--sizes", s, "a list (trailing comma)");
	}
	if (n == 0)
		return bad("--sizes", s, "a list of sizes");
	p->n_sizes = n;
	return 0;
}

static int
take_one(struct gen_search_opts *o, const char *name, const char *val)
{
	struct gen_search_params *p = &o->params;
	double v;
	size_t n;

	if (strcmp(name, "search") == 0) {
		if (strcmp(val, "ndr") == 0)
			p->kind = GEN_SEARCH_NDR;
		else if (strcmp(val, "pdr") == 0)
			p->kind = GEN_SEARCH_PDR;
		else if (strcmp(val, "mrr") == 0)
			p->kind = GEN_SEARCH_MRR;
		else
			return bad("--search", val, "ndr, pdr or mrr");
		o->search_given = true;
		return 0;
	}
	if (strcmp(name, "sizes") == 0)
		return parse_sizes(val, p);
	if (strcmp(name, "trial") == 0)
		return parse_num("--trial", val, 0.001, 3600, "seconds from "
				 "0.001 to 3600", &p->trial_seconds);
	if (strcmp(name, "resolution") == 0) {
		n = strlen(val);
		if (n > 1 && val[n - 1] == '%') {
			char buf[32];

			if (n >= sizeof(buf))
				return bad("--resolution", val, "X% or PPS");
			memcpy(buf, val, n - 1);
			buf[n - 1] = '\0';
			if (parse_num("--resolution", buf, 0.001, 50,
				      "0.001% .. 50%", &v) < 0)
				return -EINVAL;
			p->resolution = v / 100;
			p->resolution_is_share = true;
			return 0;
		}
		p->resolution_is_share = false;
		return parse_num("--resolution", val, 1, 1e10, "a rate from 1 "
				 "pps (or X%)", &p->resolution);
	}
	if (strcmp(name, "max-rate") == 0)
		return parse_num("--max-rate", val, 1, 1e10, "a rate in pps",
				 &p->max_rate_pps);
	if (strcmp(name, "min-rate") == 0)
		return parse_num("--min-rate", val, 0, 1e10, "a rate in pps",
				 &p->min_rate_pps);
	if (strcmp(name, "pdr-loss") == 0) {
		if (parse_num("--pdr-loss", val, 0, 99, "a percentage from 0 "
			      "to 99", &v) < 0)
			return -EINVAL;
		p->pdr_loss = v / 100;
		return 0;
	}
	if (strcmp(name, "latency-seconds") == 0)
		return parse_num("--latency-seconds", val, 0, 3600, "seconds "
				 "from 0 to 3600", &p->latency_seconds);
	if (strcmp(name, "latency-min-rate") == 0)
		return parse_num("--latency-min-rate", val, 1, 1e10,
				 "a rate in pps", &p->latency_min_pps);
	if (strcmp(name, "device") == 0) {
		if (val[0] == '\0' || strlen(val) >= GEN_DEVICE_LEN)
			return bad("--device", val, "a name of 1 to 63 bytes");
		o->device = val;
		return 0;
	}
	if (strcmp(name, "plot") == 0) {
		if (val[0] == '\0')
			return bad("--plot", val, "a file name");
		o->plot = val;
		return 0;
	}
	return 1;
}

static const char *const with_value[] = {
	"search", "sizes", "trial", "resolution", "max-rate", "min-rate",
	"pdr-loss", "latency-seconds", "latency-min-rate", "device", "plot",
};
/* --generate's single trial takes it too (its --rate N%) */
#define SHARED_OPT "max-rate"

int
gen_search_take_opts(int argc, char **argv, struct gen_search_opts *o)
{
	int i, out = 1;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq, *val = NULL;
		char name[32];
		unsigned int k;
		size_t len;

		if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
			argv[out++] = argv[i];
			continue;
		}
		a += 2;
		if (strcmp(a, "no-verify") == 0) {
			o->params.verify = false;
			o->any_given = true;
			continue;
		}
		eq = strchr(a, '=');
		len = eq ? (size_t)(eq - a) : strlen(a);
		for (k = 0; k < sizeof(with_value) / sizeof(with_value[0]);
		     k++)
			if (strlen(with_value[k]) == len &&
			    strncmp(with_value[k], a, len) == 0)
				break;
		if (k == sizeof(with_value) / sizeof(with_value[0])) {
			argv[out++] = argv[i];
			continue;
		}
		memcpy(name, a, len);
		name[len] = '\0';
		if (eq != NULL) {
			val = eq + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			fprintf(stderr, "--%s needs a value\n", name);
			return -EINVAL;
		}
		if (take_one(o, name, val) != 0)
			return -EINVAL;
		if (strcmp(name, SHARED_OPT) == 0) {
			argv[out++] = argv[eq ? i : i - 1];
			if (eq == NULL)
				argv[out++] = argv[i];
			continue;
		}
		o->any_given = true;
	}
	argv[out] = NULL;
	return out;
}

static void
print_trial(void *arg, const struct gen_search_trial *t)
{
	gen_report_trial_line(arg, t);
}

int
gen_search_main(struct gen_search_opts *o, uint32_t flows, const char *json,
		gen_trial_fn fn, void *ctx)
{
	struct gen_search_run run;
	int rc, out;

	if (!o->search_given) {
		fprintf(stderr, "the search options need --search "
			"ndr|pdr|mrr\n");
		return 2;
	}
	o->params.flows = flows;
	o->params.progress = print_trial;
	o->params.progress_arg = stdout;
	rc = gen_search_run(&o->params, fn, ctx, &run);
	if (rc < 0)
		fprintf(stderr, "--search: stopped after %u trials: %s\n",
			run.n_trials, strerror(-rc));
	/* what was done until then is reported too */
	out = gen_search_output(o, &run, json);
	gen_search_free(&run);
	return rc < 0 || out < 0 ? 1 : 0;
}

int
gen_search_output(const struct gen_search_opts *o,
		  const struct gen_search_run *run, const char *json)
{
	static struct gen_summary s;
	int rc = 0;

	gen_summary_from_run(run, o->device, &s);
	gen_report_table(stdout, &s);
	if (json != NULL && gen_report_json(json, run, o->device) < 0)
		rc = -EIO;
	if (o->plot != NULL && gen_svg_write(o->plot, &s, 1) < 0)
		rc = -EIO;
	return rc;
}

bool
gen_merge_wanted(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--from") == 0 ||
		    strncmp(argv[i], "--from=", 7) == 0)
			return true;
	return false;
}

static int
merge_usage(const char *why)
{
	fprintf(stderr, "%s\nusage: listack-bench --from A.json,B.json,... "
		"[--plot FILE.svg] [--table-md FILE]\n", why);
	return 2;
}

int
gen_merge_main(int argc, char **argv)
{
	static struct gen_summary s[GEN_MAX_DEVICES];
	const char *from = NULL, *plot = NULL, *md = NULL;
	char err[160], path[4096];
	unsigned int n = 0;
	int i, rc = 0;

	for (i = 1; i < argc; i++) {
		const char **dst = strcmp(argv[i], "--from") == 0 ? &from :
				   strcmp(argv[i], "--plot") == 0 ? &plot :
				   strcmp(argv[i], "--table-md") == 0 ? &md :
				   NULL;

		if (strcmp(argv[i], "--") == 0)
			continue;
		if (dst == NULL) {
			if (strncmp(argv[i], "--from=", 7) == 0) {
				from = argv[i] + 7;
				continue;
			}
			fprintf(stderr, "--from: unexpected '%s'\n", argv[i]);
			return merge_usage("the merge mode takes --from, "
					   "--plot and --table-md only");
		}
		if (i + 1 >= argc)
			return merge_usage("an option needs a value");
		*dst = argv[++i];
	}
	if (from == NULL || from[0] == '\0')
		return merge_usage("--from needs a list of JSON files");
	while (*from != '\0') {
		const char *end = strchr(from, ',');
		size_t len = end ? (size_t)(end - from) : strlen(from);

		if (len == 0 || len >= sizeof(path))
			return merge_usage("--from: an empty or too long name");
		if (n == GEN_MAX_DEVICES)
			return merge_usage("--from: at most 16 files");
		memcpy(path, from, len);
		path[len] = '\0';
		if (gen_report_read(path, &s[n], err, sizeof(err)) < 0) {
			fprintf(stderr, "%s: %s\n", path, err);
			return 1;
		}
		if (s[n].device[0] == '\0')
			snprintf(s[n].device, sizeof(s[n].device), "%.*s",
				 GEN_DEVICE_LEN - 1, path);
		n++;
		from += len + (end != NULL);
	}
	if (plot != NULL && gen_svg_write(plot, s, n) < 0)
		rc = 1;
	if (md != NULL && strcmp(md, "-") != 0) {
		FILE *f = fopen(md, "w");

		if (f == NULL) {
			fprintf(stderr, "%s: %s\n", md, strerror(errno));
			return 1;
		}
		gen_report_markdown(f, s, n);
		if (fclose(f) != 0) {
			fprintf(stderr, "%s: %s\n", md, strerror(errno));
			rc = 1;
		}
	} else {
		gen_report_markdown(stdout, s, n);
	}
	return rc;
}
