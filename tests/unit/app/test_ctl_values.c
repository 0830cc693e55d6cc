/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-ctl's values from the running stack (src/app/ctl_values.c):
 * where a port, a route, a neighbour or a service goes, TAB offers those
 * the stack has, read from the stack's own views as JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"
#include "cli/cli.h"
#include "app/ctl_values.h"

static void
run(struct unit_fixture *f, const char *text, struct lsk_out *o)
{
	lsk_out_init(o, true);
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_command_run(f->stack, text, strlen(text), "t", o),
			 0);
	unit_worker_sync(f);
}

/* The values of kind the stack's view gives, joined by spaces. */
static void
assert_values(struct unit_fixture *f, enum ctl_value_kind kind,
	      const char *want)
{
	char *v[CTL_VALUES_MAX], got[512] = "";
	unsigned int n, i;
	struct lsk_out o;

	run(f, ctl_values_request(kind), &o);
	n = ctl_values_parse(kind, o.buf, v, CTL_VALUES_MAX);
	for (i = 0; i < n; i++) {
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s",
			 i ? " " : "", v[i]);
		free(v[i]);
	}
	lsk_out_free(&o);
	if (strcmp(got, want) != 0)
		print_error("%s: got '%s'\n", ctl_values_request(kind), got);
	assert_string_equal(got, want);
}

static void
test_where_values_go(void **state)
{
	(void)state;
	assert_int_equal(ctl_values_kind("port "), CTL_VALUE_PORT);
	assert_int_equal(ctl_values_kind("address add 10.0.0.1/24 port "),
			 CTL_VALUE_PORT);
	assert_int_equal(ctl_values_kind("route del "), CTL_VALUE_ROUTE);
	assert_int_equal(ctl_values_kind("route d "), CTL_VALUE_ROUTE);
	assert_int_equal(ctl_values_kind("neigh del "), CTL_VALUE_NEIGH);
	assert_int_equal(ctl_values_kind("udp close "), CTL_VALUE_UDP);
	assert_int_equal(ctl_values_kind("route add "), CTL_VALUE_NONE);
	assert_int_equal(ctl_values_kind("help port "), CTL_VALUE_NONE);
	assert_int_equal(ctl_values_kind(""), CTL_VALUE_NONE);
	assert_null(ctl_values_request(CTL_VALUE_NONE));
}

static void
test_values_of_the_stack(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_out o;

	run(f, "port 1 name uplink\n"
	    "address add 10.3.0.1/24 port 0\n"
	    "address add 10.7.0.1/24 port 0 vlan 7\n"
	    "route add 10.8.0.0/16 blackhole\n"
	    "neigh add 10.3.0.3 lladdr 02:00:00:00:00:03\n"
	    "udp listen 10.3.0.1:7 echo\n", &o);
	lsk_out_free(&o);
	assert_values(f, CTL_VALUE_PORT, "0 1 uplink");
	assert_values(f, CTL_VALUE_ROUTE, "10.8.0.0/16 10.9.0.0/16");
	/* the fixture's route and neighbours too (tests/unit/unit_common.c) */
	assert_values(f, CTL_VALUE_NEIGH, "10.0.0.1 10.0.1.1 10.3.0.3");
	assert_values(f, CTL_VALUE_UDP, "10.3.0.1:7");
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_where_values_go),
		T(test_values_of_the_stack),
	};

	return cmocka_run_group_tests_name("ctl_values", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
