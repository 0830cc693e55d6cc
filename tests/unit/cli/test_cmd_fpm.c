/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `fpm listen ADDR:PORT | fpm off` and `show fpm` (cli/cmd_fpm.c): the
 * setting and its generation (what the FPM server follows), a batch that
 * fails changing nothing, show config writing the line only when set,
 * config reload's difference turning a line that went into `fpm off`,
 * bad words refused; show fpm as text and JSON.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"
#include "cli/cli.h"
#include "cli/config_diff.h"
#include "control/control.h"

static struct lsk_stack *s;

static int
run(const char *text, bool json, char **answer)
{
	struct lsk_out o;
	int rc;

	lsk_out_init(&o, json);
	rc = lsk_command_run(s, text, strlen(text), "t", &o);
	if (answer != NULL) {
		*answer = strdup(rc == 0 ? (o.buf ? o.buf : "") : o.err);
		assert_non_null(*answer);
	}
	lsk_out_free(&o);
	return rc;
}

static int
setup(void **state)
{
	(void)state;
	s = unit_bare_stack("fpmcmd");
	return s == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	(void)state;
	lsk_stack_destroy(s);
	return 0;
}

static void
test_listen_off(void **state)
{
	uint32_t gen = s->fpm.generation;
	char *a;

	(void)state;
	assert_int_equal(s->fpm.port, 0);
	assert_int_equal(run("fpm listen 127.0.0.1:2620", false, NULL), 0);
	assert_int_equal(s->fpm.addr, UNIT_IPV4(127, 0, 0, 1));
	assert_int_equal(s->fpm.port, 2620);
	assert_int_equal(s->fpm.generation, gen + 1);
	/* the same again: no change for the server to follow */
	assert_int_equal(run("fpm l 127.0.0.1:2620", false, NULL), 0);
	assert_int_equal(s->fpm.generation, gen + 1);

	assert_int_equal(run("show config", false, &a), 0);
	assert_non_null(strstr(a, "\nfpm listen 127.0.0.1:2620\n"));
	free(a);

	/* a batch refused on a later line changes nothing */
	assert_int_not_equal(run("fpm listen 10.0.0.1:179\nroute add x",
				 false, NULL), 0);
	assert_int_equal(s->fpm.port, 2620);
	assert_int_equal(s->fpm.generation, gen + 1);

	assert_int_equal(run("fpm off", false, NULL), 0);
	assert_int_equal(s->fpm.port, 0);
	assert_int_equal(s->fpm.addr, 0);
	assert_int_equal(s->fpm.generation, gen + 2);
	assert_int_equal(run("show config", false, &a), 0);
	assert_null(strstr(a, "fpm"));
	free(a);
}

static void
test_refused(void **state)
{
	static const char *const bad[] = {
		"fpm", "fpm listen", "fpm listen 127.0.0.1", "fpm listen :2620",
		"fpm listen 127.0.0.1:0", "fpm listen 127.0.0.1:65536",
		"fpm listen 1.2.3:4", "fpm off now", "fpm on",
		"fpm listen 127.0.0.1:1 2",
	};
	unsigned int i;
	char *a;

	(void)state;
	for (i = 0; i < RTE_DIM(bad); i++) {
		assert_int_equal(run(bad[i], false, &a), -EINVAL);
		assert_true(strncmp(a, "t:1: ", 5) == 0);
		free(a);
	}
	assert_int_equal(s->fpm.port, 0);
}

static void
test_show_fpm(void **state)
{
	char *a;

	(void)state;
	assert_int_equal(run("show fpm", false, &a), 0);
	assert_string_equal(a, "listen   -\nstate    off\nnexthops 0\n");
	free(a);
	assert_int_equal(run("fpm listen 127.0.0.1:2620", false, NULL), 0);
	s->ctl_stats.fpm.Refused = 2;
	assert_int_equal(run("show fpm", false, &a), 0);
	/* no server follows a bare stack */
	assert_string_equal(a, "listen   127.0.0.1:2620\nstate    not served\n"
			    "nexthops 0\nRefused          2\n");
	free(a);
	s->fpm.served = s->fpm.listening = s->fpm.connected = true;
	s->fpm.dumping = true;
	strcpy(s->fpm.peer, "127.0.0.1:40000");
	assert_int_equal(run("show fpm", true, &a), 0);
	assert_non_null(strstr(a, "{\"listen\": \"127.0.0.1:2620\", "
			       "\"state\": \"connected, dump\", \"error\": \"\", "
			       "\"peer\": \"127.0.0.1:40000\", \"nexthops\": 0, "
			       "\"counters\": {\"Connections\": 0, "
			       "\"Refused\": 2, "));
	free(a);
	assert_int_equal(run("show stats", true, &a), 0);
	assert_non_null(strstr(a, "\"fpm\": {\"Connections\": 0, "
			       "\"Refused\": 2, "));
	free(a);
	s->fpm.served = s->fpm.listening = s->fpm.connected = false;
	s->fpm.dumping = false;
	s->ctl_stats.fpm.Refused = 0;
	assert_int_equal(run("fpm off", false, NULL), 0);
}

static char *
diff(const char *running, const char *wanted)
{
	struct lsk_config_diff_counts n;
	struct lsk_out o;
	char *text;

	lsk_out_init(&o, false);
	assert_int_equal(lsk_config_diff(running, wanted, &o, &n), 0);
	text = strdup(o.buf ? o.buf : "");
	assert_non_null(text);
	lsk_out_free(&o);
	return text;
}

static void
test_reload_diff(void **state)
{
	char *d;

	(void)state;
	d = diff("mode list\n", "mode list\nfpm listen 127.0.0.1:2620\n");
	assert_string_equal(d, "fpm listen 127.0.0.1:2620\n");
	free(d);
	d = diff("mode list\nfpm listen 127.0.0.1:2620\n",
		 "mode list\nfpm listen 127.0.0.1:2621\n");
	assert_string_equal(d, "fpm listen 127.0.0.1:2621\n");
	free(d);
	d = diff("mode list\nfpm listen 127.0.0.1:2620\n", "mode list\n");
	assert_string_equal(d, "fpm off\n");
	free(d);
	d = diff("fpm listen 127.0.0.1:2620\n", "fpm listen 127.0.0.1:2620\n");
	assert_string_equal(d, "");
	free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listen_off),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_show_fpm),
		cmocka_unit_test(test_reload_diff),
	};
	int rc;

	if (unit_group_setup(NULL) != 0 || setup(NULL) != 0)
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	teardown(NULL);
	unit_group_teardown(NULL);
	return rc;
}
