/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECMP and learned routes in the grammar and the views (cli/cmd_route.c,
 * cli/route_show.c, cli/show_config.c): `route add P via G [weight W]
 * ...`, unreachable and prohibit, the errors; `show routes` with a line
 * per path, weights, the protocol of learned routes and the shadowed
 * ones (text and JSON); `show config` writing configured ECMP routes and
 * never learned ones, read back the same; `route get` with a flow.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit_common.h"
#include "cli/cli.h"

static char *
run(struct unit_fixture *f, const char *text, bool json, int want_rc)
{
	struct lsk_out o;
	char *a;
	int rc;

	lsk_out_init(&o, json);
	lsk_worker_offline(f->worker);
	rc = lsk_command_run(f->stack, text, strlen(text), "t", &o);
	unit_worker_sync(f);
	if (rc != want_rc)
		print_error("'%s': %d %s\n", text, rc, o.err);
	assert_int_equal(rc, want_rc);
	a = strdup(rc < 0 ? o.err : o.buf ? o.buf : "");
	assert_non_null(a);
	lsk_out_free(&o);
	return a;
}

static void
ok(struct unit_fixture *f, const char *text)
{
	free(run(f, text, false, 0));
}

static void
assert_has(const char *text, const char *part)
{
	if (strstr(text, part) == NULL)
		print_error("'%s'\nhas no\n'%s'\n", text, part);
	assert_non_null(strstr(text, part));
}

static void
refused(struct unit_fixture *f, const char *text, int rc, const char *why)
{
	char *e = run(f, text, false, rc);

	assert_has(e, why);
	free(e);
}

static void
learn(struct unit_fixture *f, uint32_t prefix, uint8_t depth, uint8_t proto,
      uint32_t gw)
{
	struct lsk_route_learned r;

	memset(&r, 0, sizeof(r));
	r.prefix = prefix;
	r.depth = depth;
	r.proto = proto;
	r.n_paths = 1;
	r.paths[0] = (struct lsk_route_path){ .gateway = gw,
					      .iface = LSK_IFACE_ANY };
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_route_learn(f->stack, &r, 1), 0);
	unit_worker_sync(f);
}

static void
test_grammar(void **state)
{
	struct unit_fixture *f = *state;

	ok(f, "route add 30.0.0.0/8 via 10.0.0.1 weight 1 via 10.0.1.1 "
	      "weight 3");
	ok(f, "route add 31.0.0.0/8 unreachable");
	ok(f, "route add 32.0.0.0/8 prohibit");
	/* unique prefixes of the keywords, as elsewhere */
	ok(f, "route add 33.0.0.0/8 v 10.0.0.1 w 2 v 10.0.1.1");
	ok(f, "route replace 31.0.0.0/8 via 10.0.0.1 via 10.0.1.1");
	refused(f, "route add 34.0.0.0/8 via 10.0.0.1 weight 0", -EINVAL,
		"bad weight '0' (1-256)");
	refused(f, "route add 34.0.0.0/8 via 10.0.0.1 weight 257", -EINVAL,
		"bad weight '257' (1-256)");
	refused(f, "route add 34.0.0.0/8 via 10.0.0.1 via 10.0.0.1", -EINVAL,
		"gateway 10.0.0.1 given twice");
	refused(f, "route add 34.0.0.0/8 via 10.0.0.1 via 10.7.0.1",
		-ENETUNREACH, "gateway 10.7.0.1 is not on a connected subnet");
	refused(f, "route add 34.0.0.0/8 via 10.0.0.1 weight", -EINVAL,
		"usage: route");
	refused(f, "route add 34.0.0.0/8 weight 2", -EINVAL, "usage: route");
	refused(f, "route add 34.0.0.0/8 via 10.0.0.1 blackhole", -EINVAL,
		"usage: route");
	refused(f, "route add 34.0.0.0/8 via 10.0.0.1 via 10.0.0.2 via "
		"10.0.0.3 via 10.0.0.4 via 10.0.0.5 via 10.0.0.6 via 10.0.0.7 "
		"via 10.0.0.8 via 10.0.0.9 via 10.0.0.10 via 10.0.0.11 via "
		"10.0.0.12 via 10.0.0.13 via 10.0.0.14 via 10.0.0.15 via "
		"10.0.0.16 via 10.0.0.17", -EINVAL, "more than 16 paths");
	refused(f, "route del 30.0.0.0/8 via 10.0.0.1", -ENOENT,
		"route 30.0.0.0/8 is via 10.0.0.1 weight 1 via 10.0.1.1 "
		"weight 3, not 10.0.0.1");
	refused(f, "route del 32.0.0.0/8 unreachable", -ENOENT,
		"route 32.0.0.0/8 is prohibit, not unreachable");
	ok(f, "route del 30.0.0.0/8 via 10.0.1.1 via 10.0.0.1");
	ok(f, "route del 32.0.0.0/8 prohibit");
	refused(f, "route get 10.9.0.1 proto xyz", -EINVAL,
		"bad protocol 'xyz'");
	refused(f, "route get 10.9.0.1 sport 70000", -EINVAL,
		"bad port '70000'");
	refused(f, "route get 10.9.0.1 from", -EINVAL, "'from' needs a value");
}

static void
test_show_routes(void **state)
{
	struct unit_fixture *f = *state;
	const struct unit_json *r;
	struct unit_json *j;
	char *t;

	ok(f, "route add 30.0.0.0/8 via 10.0.0.1 weight 1 via 10.0.1.1 "
	      "weight 3");
	ok(f, "route add 31.0.0.0/8 unreachable");
	learn(f, UNIT_IPV4(40, 0, 0, 0), 8, 186, UNIT_A_IP);
	learn(f, UNIT_IPV4(30, 0, 0, 0), 8, 188, UNIT_B_IP);	/* shadowed */
	t = run(f, "show routes", false, 0);
	assert_has(t, "30.0.0.0/8          via        10.0.0.1         "
		      "port0  weight 1\n");
	assert_has(t, "30.0.0.0/8          via        10.0.1.1         "
		      "port1  weight 3\n");
	assert_has(t, "30.0.0.0/8          via        10.0.1.1         "
		      "port1  proto ospf shadowed\n");
	assert_has(t, "31.0.0.0/8          unreachable  -");
	assert_has(t, "40.0.0.0/8          via        10.0.0.1         "
		      "port0  proto bgp\n");
	/* the configured line before the learned one it hides */
	assert_true(strstr(t, "weight 3") < strstr(t, "proto ospf"));
	free(t);
	t = run(f, "show routes 30.1.2.3", false, 0);
	assert_has(t, "weight 1");
	assert_has(t, "proto ospf shadowed");
	assert_true(strstr(t, "40.0.0.0") == NULL);
	free(t);

	t = run(f, "show routes 30.0.0.0/8", true, 0);
	j = unit_json_parse(t, NULL);
	assert_non_null(j);
	assert_int_equal(unit_json_len(j), 2);
	r = unit_json_at(j, 0);
	assert_string_equal(unit_json_get(r, "gateway")->str, "10.0.0.1");
	assert_int_equal(unit_json_len(unit_json_get(r, "nexthops")), 2);
	assert_int_equal(unit_json_get(unit_json_at(unit_json_get(r,
		"nexthops"), 1), "weight")->u, 3);
	assert_null(unit_json_get(r, "proto"));
	r = unit_json_at(j, 1);
	assert_string_equal(unit_json_get(r, "proto")->str, "ospf");
	assert_int_equal(unit_json_get(r, "shadowed")->type, UNIT_JSON_TRUE);
	unit_json_free(j);
	free(t);
}

/* show config: configured ECMP routes as given, no learned one; read
 * back into a fresh stack, the same text. */
static void
test_show_config(void **state)
{
	struct unit_fixture *f = *state;
	char path[] = "/tmp/lsk_route_show_XXXXXX";
	struct lsk_stack *s2;
	struct lsk_out o;
	char err[256], *t;
	FILE *fp;
	int fd;

	ok(f, "route add 30.0.0.0/8 via 10.0.0.1 weight 1 via 10.0.1.1 "
	      "weight 3");
	ok(f, "route add 33.0.0.0/8 via 10.0.0.1 via 10.0.1.1");
	ok(f, "route add 31.0.0.0/8 unreachable");
	ok(f, "route add 32.0.0.0/8 prohibit");
	learn(f, UNIT_IPV4(40, 0, 0, 0), 8, 186, UNIT_A_IP);
	t = run(f, "show config", false, 0);
	assert_has(t, "route add 30.0.0.0/8 via 10.0.0.1 weight 1 via "
		      "10.0.1.1 weight 3\n");
	assert_has(t, "route add 33.0.0.0/8 via 10.0.0.1 via 10.0.1.1\n");
	assert_has(t, "route add 31.0.0.0/8 unreachable\n");
	assert_has(t, "route add 32.0.0.0/8 prohibit\n");
	assert_true(strstr(t, "40.0.0.0") == NULL);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	fputs(t, fp);
	fclose(fp);
	s2 = unit_bare_stack("rshow");
	assert_int_equal(lsk_config_load(s2, path, err, sizeof(err)), 0);
	lsk_out_init(&o, false);
	assert_int_equal(lsk_command_run(s2, "show config", 11, "t", &o), 0);
	assert_string_equal(o.buf, t);
	lsk_out_free(&o);
	lsk_stack_destroy(s2);
	unlink(path);
	free(t);
}

static void
test_route_get_flow(void **state)
{
	struct unit_fixture *f = *state;
	unsigned int sport, on[2] = { 0, 0 };
	char line[128], *t;
	struct unit_json *j;

	ok(f, "route add 30.0.0.0/8 via 10.0.0.1 via 10.0.1.1");
	for (sport = 1000; sport < 1064; sport++) {
		snprintf(line, sizeof(line), "route get 30.1.2.3 from 10.0.0.1 "
			 "proto udp sport %u dport 53", sport);
		t = run(f, line, false, 0);
		if (strstr(t, "via 10.0.0.1 dev port0") != NULL) {
			assert_has(t, " route path 1/2 neigh static");
			on[0]++;
		} else {
			assert_has(t, "via 10.0.1.1 dev port1");
			assert_has(t, " route path 2/2 neigh static");
			on[1]++;
		}
		free(t);
	}
	assert_true(on[0] > 8 && on[1] > 8);
	learn(f, UNIT_IPV4(40, 0, 0, 0), 8, 186, UNIT_A_IP);
	t = run(f, "route get 40.0.0.1 proto tcp sport 1 dport 2", false, 0);
	assert_has(t, "prefix 40.0.0.0/8 route proto bgp neigh static");
	free(t);
	t = run(f, "route get 30.1.2.3 proto icmp", true, 0);
	j = unit_json_parse(t, NULL);
	assert_non_null(j);
	assert_int_equal(unit_json_get(j, "paths")->u, 2);
	assert_true(unit_json_get(j, "path")->u >= 1);
	unit_json_free(j);
	free(t);
	ok(f, "route add 31.0.0.0/8 prohibit");
	t = run(f, "route get 31.0.0.1", false, 0);
	assert_has(t, "31.0.0.1 prohibited prefix 31.0.0.0/8");
	free(t);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_grammar),
		T(test_show_routes),
		T(test_show_config),
		T(test_route_get_flow),
	};

	return cmocka_run_group_tests_name("route_show", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
