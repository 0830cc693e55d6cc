/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * word: the grammar forgives (cli/cmd_word.c): a unique prefix of a
 * command or of the word after it stands for the word (`sh ro`), never
 * a value's prefix; an unknown or ambiguous word is named with what it
 * could be; and a batch's check names every bad line, up to 20
 * (cli/command.c), changing nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"
#include "core/fwd.h"
#include "cli/cli.h"
#include "cli/cmd.h"
#include "control/control.h"

static int
run_out(struct unit_fixture *f, const char *text, struct lsk_out *o)
{
	int rc;

	lsk_out_init(o, false);
	lsk_worker_offline(f->worker);
	rc = lsk_command_run(f->stack, text, strlen(text), "b", o);
	unit_worker_sync(f);
	return rc;
}

static void
run_refused(struct unit_fixture *f, const char *text, const char *want)
{
	struct lsk_out o;

	assert_int_equal(run_out(f, text, &o), -EINVAL);
	assert_string_equal(o.err, want);
	lsk_out_free(&o);
}

/* The answer's body of an accepted batch, malloc'd. */
static char *
run_body(struct unit_fixture *f, const char *text)
{
	struct lsk_out o;
	char *body;
	int rc = run_out(f, text, &o);

	if (rc != 0)
		print_error("'%s': %s\n", text, o.err);
	assert_int_equal(rc, 0);
	body = strdup(o.buf ? o.buf : "");
	assert_non_null(body);
	lsk_out_free(&o);
	return body;
}

static void
test_word_find(void **state)
{
	const char *list = "route route-cache show stats";

	(void)state;
	assert_int_equal(cmd_word_find(list, "show"), 2);
	assert_int_equal(cmd_word_find(list, "sh"), 2);
	assert_int_equal(cmd_word_find(list, "sta"), 3);
	/* the exact word wins over the longer one it begins */
	assert_int_equal(cmd_word_find(list, "route"), 0);
	assert_int_equal(cmd_word_find(list, "route-"), 1);
	assert_int_equal(cmd_word_find(list, "s"), -EEXIST);
	assert_int_equal(cmd_word_find(list, "ro"), -EEXIST);
	assert_int_equal(cmd_word_find(list, "shows"), -ENOENT);
	assert_int_equal(cmd_word_find(list, "x"), -ENOENT);
	assert_int_equal(cmd_word_find(list, ""), -ENOENT);
}

static void
test_word_near(void **state)
{
	const char *list = "interfaces addresses routes neigh udp";
	char buf[32];

	(void)state;
	assert_true(cmd_word_near(list, "rutes", buf, sizeof(buf)));
	assert_string_equal(buf, "routes");
	assert_true(cmd_word_near(list, "niegh", buf, sizeof(buf)));
	assert_string_equal(buf, "neigh");
	assert_true(cmd_word_near(list, "interface", buf, sizeof(buf)));
	assert_string_equal(buf, "interfaces");
	assert_true(cmd_word_near("list single", "lsit", buf, sizeof(buf)));
	assert_string_equal(buf, "list");
	/* too far, or too short to guess from */
	assert_false(cmd_word_near("list single", "fast", buf, sizeof(buf)));
	assert_false(cmd_word_near(list, "bogus", buf, sizeof(buf)));
	assert_false(cmd_word_near(list, "x", buf, sizeof(buf)));
}

static void
test_prefixes_run(void **state)
{
	struct unit_fixture *f = *state;
	char *full = run_body(f, "show routes");
	char *prefix = run_body(f, "sh ro");
	char *conf;

	assert_string_equal(prefix, full);
	free(prefix);
	free(full);
	/* in a file too; show config writes the full words */
	free(run_body(f, "add add 10.0.9.1/24 port 0\n"
		      "route ad 10.99.0.0/16 via 10.0.9.2\nport 1 name sh"));
	conf = run_body(f, "show config");
	assert_non_null(strstr(conf, "\naddress add 10.0.9.1/24 port 0\n"));
	assert_non_null(strstr(conf, "\nroute add 10.99.0.0/16 via "
			       "10.0.9.2\n"));
	/* a value is never expanded: the port is named "sh" */
	assert_non_null(strstr(conf, " name sh\n"));
	free(conf);
	free(run_body(f, "he sh"));
	/* the keywords after them too, where a keyword goes */
	free(run_body(f, "port 0 mt 1400 n lan\nneigh add 10.0.9.7 ll "
		      "02:00:00:00:09:07\nfilter add d pr udp dp 9\n"
		      "route add 10.98.0.0/16 b\nudp listen 10.0.9.1:7 e r 64\n"
		      "address add 10.0.8.1/24 p 1 v 8\ngro merge f 8 s 4\n"
		      "route-cache on e 1024"));
	conf = run_body(f, "show config");
	assert_non_null(strstr(conf, "port 0 mtu 1400"));
	assert_non_null(strstr(conf, " name lan\n"));
	assert_non_null(strstr(conf, "\nneigh add 10.0.9.7 lladdr "
			       "02:00:00:00:09:07\n"));
	assert_non_null(strstr(conf, "\nfilter add drop proto udp dport 9\n"));
	assert_non_null(strstr(conf, "\nroute add 10.98.0.0/16 blackhole\n"));
	assert_non_null(strstr(conf, "\nudp listen 10.0.9.1:7 echo ring 64\n"));
	assert_non_null(strstr(conf, "\naddress add 10.0.8.1/24 port 1 vlan "
			       "8\n"));
	assert_non_null(strstr(conf, "\ngro merge flows 8 segs 4\n"));
	assert_non_null(strstr(conf, "\nroute-cache on entries 1024\n"));
	free(conf);
	/* "m" begins mtu and mac: the command says it knows no such word */
	run_refused(f, "port 0 m 1400", "b:1: unknown port setting 'm'");
}

static void
test_word_errors(void **state)
{
	struct unit_fixture *f = *state;

	run_refused(f, "show rutes",
		    "b:1: show: unknown view 'rutes'; did you mean 'routes'? "
		    "(interfaces, addresses, routes, ...)");
	run_refused(f, "s routes", "b:1: 's' is ambiguous: show, stats");
	run_refused(f, "show r", "b:1: show: 'r' is ambiguous: routes, "
		    "runtime");
	run_refused(f, "shw routes",
		    "b:1: unknown command 'shw'; did you mean 'show'? (port, "
		    "address, route, ...)");
	run_refused(f, "neigh frob 10.0.0.1",
		    "b:1: neigh: unknown word 'frob' (add, del, flush)");
	run_refused(f, "mode lsit", "b:1: mode: unknown word 'lsit'; did you "
		    "mean 'list'? (list, single)");
}

/* Three bad lines: all three named, nothing changed. */
static void
test_every_bad_line(void **state)
{
	struct unit_fixture *f = *state;
	char text[2048];
	size_t n = 0;
	unsigned int i;
	uint16_t mtu = f->stack->sh.fwd->ifaces[0].mtu;
	char *conf;

	run_refused(f, "port 0 mtu 1400\nshw\nroute add 10.1.0.0/16 via "
		    "10.0.0.1\nport 0 mtu 1\nport 9 up",
		    "b:2: unknown command 'shw'; did you mean 'show'? (port, "
		    "address, route, ...)\n"
		    "b:4: bad mtu '1' (68-9000)\n"
		    "b:5: port 9 does not exist (2 ports)");
	assert_int_equal(f->stack->sh.fwd->ifaces[0].mtu, mtu);
	conf = run_body(f, "show config");
	assert_null(strstr(conf, "10.1.0.0/16"));
	free(conf);
	/* past 20, the count */
	for (i = 0; i < 25; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "bogus\n");
	{
		struct lsk_out o;
		const char *last;

		assert_int_equal(run_out(f, text, &o), -EINVAL);
		assert_non_null(strstr(o.err, "b:20: unknown command"));
		assert_null(strstr(o.err, "b:21:"));
		last = strrchr(o.err, '\n');
		assert_non_null(last);
		assert_string_equal(last, "\n... and 5 more");
		lsk_out_free(&o);
	}
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					      unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_word_find),
		cmocka_unit_test(test_word_near),
		T(test_prefixes_run),
		T(test_word_errors),
		T(test_every_bad_line),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
