/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generator's reports (bench/gen/gen_report*.c, svg.c) on a search
 * against a model device: --json parses (the strict parser of
 * unit_common.c) and holds every trial and the summaries; reading it back
 * gives the same summaries; hostile or cut files are clear errors; the
 * markdown table has a row per device and size; the plot has a series per
 * device. (tests/bench/test_gen_output.py parses the SVG as XML.)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit_common.h"

#include "gen_report.h"
#include "model_device.h"
#include "search.h"
#include "svg.h"

static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void
run_model(struct gen_search_run *run, double cap, double gen_max)
{
	struct model_dev m = { .capacity_pps = cap, .gen_max_pps = gen_max };
	struct gen_search_params p;

	gen_search_defaults(&p);
	p.sizes[0] = 64;
	p.sizes[1] = GEN_SIZE_IMIX;
	p.n_sizes = 2;
	p.trial_seconds = 0.01;
	p.latency_seconds = 0.01;
	p.resolution = 0.02;
	assert_int_equal(gen_search_run(&p, model_trial, &m, run), 0);
	assert_int_equal(run->n_trials, m.calls);
}

static void
tmp_path(char *buf, size_t len, const char *what)
{
	snprintf(buf, len, "/tmp/lsk-gen-report-%d-%s", (int)getpid(), what);
}

static double
num(const struct unit_json *o, const char *key)
{
	const struct unit_json *v = unit_json_get(o, key);

	assert_non_null(v);
	assert_int_equal(v->type, UNIT_JSON_NUMBER);
	return v->num;
}

static void
test_json_every_trial(void **state)
{
	struct gen_search_run run;
	struct unit_json *j;
	const struct unit_json *trials, *sizes, *ndr, *t;
	char path[128], *text;
	size_t len, at = 0;
	unsigned int i;

	(void)state;
	run_model(&run, 1e6, 10e6);
	tmp_path(path, sizeof(path), "a.json");
	assert_int_equal(gen_report_json(path, &run, "dev \"a\"\\1"), 0);
	text = slurp(path, &len);
	j = unit_json_parse(text, &at);
	if (j == NULL)
		fail_msg("not JSON at byte %zu: %.60s", at, text + at);
	assert_string_equal(unit_json_get(j, "mode")->str, "generate");
	assert_string_equal(unit_json_get(j, "search")->str, "ndr");
	assert_string_equal(unit_json_get(j, "device")->str, "dev \"a\"\\1");
	assert_true(num(j, "version") == 1);
	trials = unit_json_get(j, "trials");
	assert_int_equal(unit_json_len(trials), run.n_trials);
	for (i = 0; i < run.n_trials; i++) {
		const struct gen_trial_result *r = &run.trials[i].res;
		const struct unit_json *req;

		t = unit_json_at(trials, i);
		assert_true(num(t, "index") == i);
		req = unit_json_get(t, "request");
		assert_true(num(req, "rate_pps") == r->req.rate_pps);
		assert_true(num(req, "seconds") == r->req.seconds);
		assert_true(num(t, "sent") == (double)r->sent);
		assert_true(num(t, "received") == (double)r->received);
		assert_true(num(t, "lost") == (double)r->lost);
		assert_true(num(t, "reordered") == (double)r->reordered);
		assert_true(num(t, "duplicates") == (double)r->duplicates);
		assert_string_equal(unit_json_get(t, "phase")->str,
				    gen_phase_name(run.trials[i].phase));
		assert_true(num(unit_json_get(t, "latency"), "p99_ns") ==
			    r->latency.p99_ns);
	}
	sizes = unit_json_get(j, "sizes");
	assert_int_equal(unit_json_len(sizes), 2);
	assert_true(num(unit_json_at(sizes, 0), "size") == 64);
	assert_string_equal(unit_json_get(unit_json_at(sizes, 1), "size")->str,
			    "imix");
	ndr = unit_json_get(unit_json_at(sizes, 0), "ndr");
	assert_true(num(ndr, "pps") == run.sizes[0].ndr.rate_pps);
	assert_string_equal(unit_json_get(ndr, "limit")->str, "device");
	/* the found trial lost nothing, the one above it lost */
	t = unit_json_at(trials, (unsigned int)num(ndr, "trial"));
	assert_true(num(t, "lost") == 0);
	t = unit_json_at(trials, (unsigned int)num(ndr, "fail_trial"));
	assert_true(num(t, "lost") > 0);
	assert_true(fabs(num(ndr, "gbit_s_l1") - run.sizes[0].ndr.rate_pps *
			 84 * 8 / 1e9) < 1e-6);
	assert_int_equal(unit_json_len(unit_json_get(unit_json_at(sizes, 0),
						     "latency")), 4);
	unit_json_free(j);
	free(text);
	unlink(path);
	gen_search_free(&run);
}

static void
test_read_back(void **state)
{
	struct gen_search_run run;
	struct gen_summary a, b;
	char path[128], err[160];
	unsigned int i, k;

	(void)state;
	run_model(&run, 2e6, 1.5e6);	/* the generator is the limit */
	tmp_path(path, sizeof(path), "b.json");
	assert_int_equal(gen_report_json(path, &run, "limited"), 0);
	gen_summary_from_run(&run, "limited", &a);
	assert_int_equal(gen_report_read(path, &b, err, sizeof(err)), 0);
	assert_string_equal(b.device, "limited");
	assert_int_equal(b.kind, GEN_SEARCH_NDR);
	assert_int_equal(b.n_sizes, a.n_sizes);
	for (i = 0; i < a.n_sizes; i++) {
		assert_int_equal(b.sizes[i].size, a.sizes[i].size);
		assert_true(b.sizes[i].ndr.found);
		assert_true(b.sizes[i].ndr.pps == a.sizes[i].ndr.pps);
		assert_int_equal(b.sizes[i].ndr.limit, GEN_LIMIT_GENERATOR);
		assert_int_equal(b.sizes[i].mrr_limit, GEN_LIMIT_GENERATOR);
		assert_true(b.sizes[i].pdr.pps == a.sizes[i].pdr.pps);
		assert_int_equal(b.sizes[i].n_lat, a.sizes[i].n_lat);
		for (k = 0; k < a.sizes[i].n_lat; k++) {
			assert_true(b.sizes[i].lat[k].share ==
				    a.sizes[i].lat[k].share);
			assert_true(b.sizes[i].lat[k].lat.p999_ns ==
				    a.sizes[i].lat[k].lat.p999_ns);
		}
	}
	/* escapes in the device's name */
	{
		static const char text[] = "{\"mode\": \"generate\", "
			"\"version\": 1, \"device\": \"a\\u0041\\\"\\n\\u00e9\", "
			"\"sizes\": []}";

		assert_int_equal(gen_report_parse(text, strlen(text), &b, err,
						  sizeof(err)), 0);
		assert_string_equal(b.device, "aA\" ?");
		assert_int_equal(b.n_sizes, 0);
	}
	assert_int_equal(gen_report_read("/nonexistent/x.json", &b, err,
					 sizeof(err)), -ENOENT);
	unlink(path);
	gen_search_free(&run);
}

/* Every cut of a good file is an error, never a crash; so is what is not
 * ours. */
static void
test_hostile_json(void **state)
{
	static const char *const bad[] = {
		"", "{", "[]", "{\"mode\": \"scenario\", \"version\": 1}",
		"{\"mode\": \"generate\", \"version\": 2, \"sizes\": []}",
		"{\"mode\": \"generate\", \"version\": 1}",
		"{\"mode\": \"generate\", \"version\": 1, \"sizes\": "
		"[{\"size\": 63}]}",
		"{\"mode\": \"generate\", \"version\": 1, \"sizes\": "
		"[{\"size\": 64.5}]}",
		"{\"mode\": \"generate\", \"version\": 1, \"sizes\": [] } x",
		"{\"mode\": \"generate\", \"version\": 01, \"sizes\": []}",
		"{\"mode\": \"gen\\erate\"}", "{\"a\": 1e999}",
		"{\"a\": \"\x01\"}", "{\"a\" 1}", "[1,]", "nul",
	};
	struct gen_search_run run;
	struct gen_summary s;
	char path[128], err[160], deep[64];
	char *text;
	size_t len, cut;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(gen_report_parse(bad[i], strlen(bad[i]), &s,
						  err, sizeof(err)), -EINVAL);
		assert_true(err[0] != '\0');
	}
	memset(deep, '[', sizeof(deep));
	assert_int_equal(gen_report_parse(deep, sizeof(deep), &s, err,
					  sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "deep"));
	/* 17 sizes: one more than a summary holds */
	{
		char many[1024];
		int o = snprintf(many, sizeof(many), "{\"mode\": \"generate\", "
				 "\"version\": 1, \"sizes\": [");

		for (i = 0; i < 17; i++)
			o += snprintf(many + o, sizeof(many) - (size_t)o,
				      "%s{\"size\": %u}", i ? "," : "", 64 + i);
		snprintf(many + o, sizeof(many) - (size_t)o, "]}");
		assert_int_equal(gen_report_parse(many, strlen(many), &s, err,
						  sizeof(err)), -EINVAL);
	}
	run_model(&run, 1e6, 10e6);
	tmp_path(path, sizeof(path), "c.json");
	assert_int_equal(gen_report_json(path, &run, "x"), 0);
	text = slurp(path, &len);
	assert_int_equal(gen_report_parse(text, len, &s, err, sizeof(err)), 0);
	for (cut = 0; cut + 1 < len; cut += 7)
		assert_int_equal(gen_report_parse(text, cut, &s, err,
						  sizeof(err)), -EINVAL);
	free(text);
	unlink(path);
	gen_search_free(&run);
}

static unsigned int
count(const char *text, const char *what)
{
	unsigned int n = 0;

	for (; (text = strstr(text, what)) != NULL; text++)
		n++;
	return n;
}

static void
test_markdown_and_plot(void **state)
{
	struct gen_search_run run;
	struct gen_summary s[2];
	char path[128], *text;
	size_t len;
	FILE *f;

	(void)state;
	run_model(&run, 1e6, 10e6);
	gen_summary_from_run(&run, "fast <&>|", &s[0]);
	gen_search_free(&run);
	run_model(&run, 0.4e6, 10e6);
	gen_summary_from_run(&run, "slow", &s[1]);
	s[1].sizes[1].ndr.pps = -5;	/* as a hostile file may say */
	gen_search_free(&run);

	tmp_path(path, sizeof(path), "t.md");
	f = fopen(path, "w");
	assert_non_null(f);
	gen_report_markdown(f, s, 2);
	fclose(f);
	text = slurp(path, &len);
	/* header, rule, 2 devices x 2 sizes */
	assert_int_equal(count(text, "\n"), 6);
	assert_int_equal(count(text, "| slow | imix |"), 1);
	assert_int_equal(count(text, "| fast <&>\\| | 64 |"), 1);
	free(text);

	tmp_path(path, sizeof(path), "p.svg");
	assert_int_equal(gen_svg_write(path, s, 2), 0);
	text = slurp(path, &len);
	assert_int_equal(count(text, "<rect class=\"bar\" data-device=\"slow\""),
			 2);
	assert_int_equal(count(text, "<rect class=\"bar\" data-device=\"fast "
			       "&lt;&amp;&gt;|\""), 2);
	assert_null(strstr(text, "height=\"-"));
	assert_int_equal(count(text, "class=\"latency\" data-device=\"slow\""),
			 3);
	assert_int_equal(count(text, "<svg"), 1);
	assert_int_equal(count(text, "</svg>"), 1);
	assert_null(strstr(text, "nan"));
	assert_null(strstr(text, "inf"));
	free(text);
	unlink(path);
	assert_true(gen_svg_write("/nonexistent/p.svg", s, 2) < 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_every_trial),
		cmocka_unit_test(test_read_back),
		cmocka_unit_test(test_hostile_json),
		cmocka_unit_test(test_markdown_and_plot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
