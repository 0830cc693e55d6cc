/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-ctl's completion (src/app/ctl_complete.c) on the grammar the
 * library's `help` gives: after a command word TAB offers the words
 * that may follow (issue 22: it offered file names), nothing where a
 * value goes, and file names only where a FILE goes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"
#include "cli/cli.h"
#include "app/ctl_complete.h"

/* The phrases of the stack's own `help -j`. */
static void
load_help(struct unit_fixture *f)
{
	struct lsk_out o;

	lsk_out_init(&o, true);
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_command_run(f->stack, "help", 4, "t", &o), 0);
	unit_worker_sync(f);
	ctl_complete_clear();
	ctl_complete_from_help(o.buf);
	ctl_complete_add("quit");
	lsk_out_free(&o);
}

/* Every candidate for text after before, space-separated. */
static void
candidates(const char *before, const char *text, char *buf, size_t len)
{
	char *w;
	int state = 0;

	buf[0] = '\0';
	while ((w = ctl_complete_word(before, text, state++)) != NULL) {
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 buf[0] ? " " : "", w);
		free(w);
	}
}

static void
assert_candidates(const char *before, const char *text, const char *want)
{
	char got[1024];

	candidates(before, text, got, sizeof(got));
	if (strcmp(got, want) != 0)
		print_error("'%s' + '%s': '%s', want '%s'\n", before, text, got,
			    want);
	assert_string_equal(got, want);
}

static void
test_command_words(void **state)
{
	load_help(*state);
	assert_candidates("", "sh", "show");
	assert_candidates("", "ro", "route route-cache");
	assert_candidates("", "q", "quit");
	assert_candidates("route ", "", "add replace del get flush");
	assert_candidates("route ", "d", "del");
	assert_candidates("show ", "ru", "runtime");
	assert_candidates("show ", "v", "version");
	assert_candidates("show ", "pi", "pipeline");
	assert_candidates("capture ", "", "start stop show");
	/* several words typed, and blanks between them */
	assert_candidates("route  add 10.0.0.0/8 ", "",
			  "via blackhole unreachable prohibit");
	ctl_complete_clear();
}

/* Where the grammar wants a value or nothing more: no word, and no
 * file name either (libedit's fallback, turned off). */
static void
test_nothing_fits(void **state)
{
	load_help(*state);
	assert_candidates("route add ", "", "");
	assert_candidates("show ", "zz", "");
	assert_candidates("bogus ", "", "");
	assert_false(ctl_complete_wants_file("route add "));
	assert_false(ctl_complete_wants_file("show "));
	assert_false(ctl_complete_wants_file(""));
	ctl_complete_clear();
}

static void
test_file_words(void **state)
{
	load_help(*state);
	assert_true(ctl_complete_wants_file("capture start "));
	assert_true(ctl_complete_wants_file("udp listen 10.0.0.1:9 pcap "));
	/* echo and discard take no file */
	assert_false(ctl_complete_wants_file("udp listen 10.0.0.1:9 echo "));
	assert_false(ctl_complete_wants_file("capture stop "));
	ctl_complete_clear();
}

/* Without a server's help: the first words only. */
static void
test_fallback(void **state)
{
	(void)state;
	ctl_complete_clear();
	ctl_complete_fallback();
	assert_candidates("", "st", "stats");
	assert_candidates("show ", "", "");
	ctl_complete_clear();
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_command_words),
		T(test_nothing_fits),
		T(test_file_words),
		cmocka_unit_test(test_fallback),
	};

	return cmocka_run_group_tests_name("ctl_complete", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
