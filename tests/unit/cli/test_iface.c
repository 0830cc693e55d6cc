/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ports as an operator sees them: `port N up|down` (what a down port
 * would send is dropped and counted in its tx_dropped, what it receives
 * in its rx_dropped; the application is told once it is published; `show
 * config` says so), `port N name NAME` (usable wherever a port is, in
 * the same batch too; names unique, of one form) and `show interfaces`
 * with the facts an application supplies, as text and JSON.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"
#include "cli/cli.h"

/* --- the application's side: facts and admin calls --------------- */

struct fake_app {
	unsigned int admin_calls;
	uint16_t admin_port;
	bool admin_up;
};

static int
fake_facts(void *arg, uint16_t port, struct lsk_port_facts *f)
{
	(void)arg;
	if (port == 1)
		return -ENODEV;		/* nothing known of port 1 */
	snprintf(f->driver, sizeof(f->driver), "net_fake");
	f->link_up = true;
	f->full_duplex = true;
	f->speed_mbps = 10000;
	f->have_stats = true;
	f->ipackets = 12;
	f->ibytes = 1234;
	f->ierrors = 1;
	f->imissed = 2;
	f->opackets = 7;
	f->obytes = 700;
	f->oerrors = 3;
	return 0;
}

static void
fake_admin(void *arg, uint16_t port, bool up)
{
	struct fake_app *a = arg;

	a->admin_calls++;
	a->admin_port = port;
	a->admin_up = up;
}

static const struct lsk_port_ops fake_ops = {
	.facts = fake_facts,
	.admin = fake_admin,
};

/* --- running commands --------------------------------------------- */

/* Run text as one batch; the answer (malloc'd) or the error in err. */
/* room for all of an answer's error (struct lsk_out's err) */
#define ERR_LEN sizeof(((struct lsk_out *)0)->err)

static int
run(struct unit_fixture *f, const char *text, bool json, char **answer,
    char *err, size_t err_len)
{
	struct lsk_out o;
	int rc;

	lsk_out_init(&o, json);
	lsk_worker_offline(f->worker);
	rc = lsk_command_run(f->stack, text, strlen(text), "t", &o);
	unit_worker_sync(f);
	if (answer != NULL) {
		*answer = strdup(o.buf ? o.buf : "");
		assert_non_null(*answer);
	}
	if (err != NULL)
		snprintf(err, err_len, "%s", o.err);
	lsk_out_free(&o);
	return rc;
}

static void
assert_answer(struct unit_fixture *f, const char *text, bool json,
	      const char *want)
{
	char *a, err[ERR_LEN];

	assert_int_equal(run(f, text, json, &a, err, sizeof(err)), 0);
	if (strcmp(a, want) != 0)
		print_error("'%s':\n%s\nwant:\n%s\n", text, a, want);
	assert_string_equal(a, want);
	free(a);
}

static void
assert_refused(struct unit_fixture *f, const char *text, int rc,
	       const char *want)
{
	char err[ERR_LEN];

	assert_int_equal(run(f, text, false, NULL, err, sizeof(err)), rc);
	assert_string_equal(err, want);
}

/* Does `show config` hold line? */
static bool
config_has(struct unit_fixture *f, const char *line)
{
	char *a, *p;
	bool found = false;

	assert_int_equal(run(f, "show config", false, &a, NULL, 0), 0);
	for (p = strtok(a, "\n"); p != NULL && !found; p = strtok(NULL, "\n"))
		found = strcmp(p, line) == 0;
	free(a);
	return found;
}

/* A datagram from A (port 0) to B (port 1): forwarded out of port 1. */
static void
send_a_to_b(struct unit_fixture *f)
{
	struct unit_pkt p;

	unit_pkt_init(&p, UNIT_B_IP);
	unit_input_one(f, unit_pkt_mbuf(&p));
}

/* The same from B, arriving on port 1. */
static void
send_b_to_a(struct unit_fixture *f)
{
	struct unit_pkt p;

	unit_pkt_init(&p, UNIT_A_IP);
	p.port = UNIT_P1;
	p.dst_mac = unit_p1_mac;
	p.src_mac = unit_b_mac;
	p.src = UNIT_B_IP;
	unit_input_one(f, unit_pkt_mbuf(&p));
}

/* --- port N down|up ------------------------------------------------ */

static void
test_port_down_up(void **state)
{
	struct unit_fixture *f = *state;
	struct fake_app app = { 0 };
	struct lsk_stats st;

	lsk_port_ops_set(f->stack, &fake_ops, &app);
	assert_answer(f, "port 1 down", false, "");
	assert_int_equal(app.admin_calls, 1);
	assert_int_equal(app.admin_port, 1);
	assert_false(app.admin_up);
	assert_false(lsk_port_admin_up(f->stack, 1));
	assert_true(config_has(f, "port 1 down"));

	/* routed out of it: dropped, counted; nothing it receives is seen */
	send_a_to_b(f);
	send_b_to_a(f);
	st = unit_stats(f);
	assert_int_equal(f->tx.n[UNIT_P1], 0);
	assert_int_equal(f->tx.n[UNIT_P0], 0);
	assert_int_equal(st.ports[1].tx_dropped, 1);
	assert_int_equal(st.ports[1].rx_dropped, 1);
	assert_int_equal(st.ports[1].rx, 0);
	assert_int_equal(st.ports[0].rx, 1);

	/* down again changes nothing, and tells nobody */
	assert_answer(f, "port 1 down", false, "");
	assert_int_equal(app.admin_calls, 1);

	assert_answer(f, "port 1 up", false, "");
	assert_int_equal(app.admin_calls, 2);
	assert_true(app.admin_up);
	assert_false(config_has(f, "port 1 down"));
	send_a_to_b(f);
	send_b_to_a(f);
	assert_int_equal(f->tx.n[UNIT_P1], 1);
	assert_int_equal(f->tx.n[UNIT_P0], 1);
	assert_int_equal(unit_stats(f).ports[1].tx_dropped, 1);
	unit_tx_free(f);
}

/* A batch refused after its `port N down` leaves the port up, and the
 * application was told nothing; an accepted one tells it at commit. */
static void
test_port_down_batch(void **state)
{
	struct unit_fixture *f = *state;
	struct fake_app app = { 0 };

	lsk_port_ops_set(f->stack, &fake_ops, &app);
	assert_refused(f, "port 0 down\nroute add 10.7.0.0/16 via 10.9.9.9\n",
		       -ENETUNREACH, "t:2: gateway 10.9.9.9 is not on a "
		       "connected subnet");
	assert_true(lsk_port_admin_up(f->stack, 0));
	assert_int_equal(app.admin_calls, 0);
	assert_answer(f, "port 0 down mtu 1400\n", false, "");
	assert_int_equal(app.admin_calls, 1);
	assert_true(config_has(f, "port 0 down"));
	assert_true(config_has(f, "port 0 mtu 1400 mac 02:00:00:00:00:FE"));
	/* a VLAN made on a down port is down with it */
	assert_answer(f, "address add 10.5.0.1/24 port 0 vlan 5", false, "");
	assert_true(f->stack->ports[2].down);
}

/* --- port N name NAME ---------------------------------------------- */

static void
test_port_names(void **state)
{
	struct unit_fixture *f = *state;

	/* named and used in the same batch (its check pass applies none) */
	assert_answer(f, "port 0 name wan\n"
		      "address add 10.7.0.1/24 port wan\n"
		      "port wan mtu 1400\n", false, "");
	assert_string_equal(lsk_port_name(f->stack, 0), "wan");
	assert_int_equal(lsk_port_by_name(f->stack, "wan"), 0);
	assert_true(config_has(f, "port 0 mtu 1400 mac 02:00:00:00:00:FE "
			       "name wan"));
	assert_true(config_has(f, "address add 10.7.0.1/24 port 0"));
	assert_answer(f, "address add 10.7.1.1/24 port wan vlan 7\n"
		      "address del 10.7.1.1/24 port wan vlan 7\n"
		      "port wan down\nport wan up\n", false, "");
	assert_answer(f, "trace add 1 port wan\ntrace clear\n", false, "");

	assert_refused(f, "port 1 name wan", -EEXIST,
		       "t:1: port 0 is already named 'wan'");
	assert_refused(f, "port 1 name lan\nport 0 name lan", -EEXIST,
		       "t:2: port 1 is already named 'lan'");
	assert_refused(f, "port 1 name port0", -EINVAL,
		       "t:1: bad port name 'port0' (a-z, then up to 14 of "
		       "a-z 0-9 _ . -; not portN)");
	assert_refused(f, "port 1 name port0.5", -EINVAL,
		       "t:1: bad port name 'port0.5' (a-z, then up to 14 of "
		       "a-z 0-9 _ . -; not portN)");
	assert_refused(f, "port 1 name Lan", -EINVAL,
		       "t:1: bad port name 'Lan' (a-z, then up to 14 of "
		       "a-z 0-9 _ . -; not portN)");
	assert_refused(f, "port 1 name abcdefghijklmnop", -EINVAL,
		       "t:1: bad port name 'abcdefghijklmnop' (a-z, then up "
		       "to 14 of a-z 0-9 _ . -; not portN)");
	assert_refused(f, "port 1 name", -EINVAL,
		       "t:1: bad port name '' (a-z, then up to 14 of "
		       "a-z 0-9 _ . -; not portN)");
	assert_refused(f, "address add 10.8.0.1/24 port lan", -ENODEV,
		       "t:1: no port named 'lan'");
	/* a refused batch's names go back */
	assert_refused(f, "port 1 name lan\nbogus", -EINVAL,
		       "t:2: unknown command 'bogus' (port, address, "
		       "route, ...)");
	assert_string_equal(lsk_port_name(f->stack, 1), "");
	/* port2 is a name like any other: no port 2 exists to clash */
	assert_int_equal(lsk_port_name_check("port"), 0);
	assert_int_equal(lsk_port_name_check("porta"), 0);
	assert_int_equal(lsk_port_name_check("lan-1.b_c"), 0);
	assert_int_equal(lsk_port_name_check("1lan"), -EINVAL);
	/* renamed: the old name is free */
	assert_answer(f, "port 0 name uplink\nport 1 name wan\n", false, "");
	assert_int_equal(lsk_port_by_name(f->stack, "wan"), 1);
	/* "-" takes the name away; the name is then free, and not a port */
	assert_answer(f, "port 1 name -\nport 0 name wan\n", false, "");
	assert_string_equal(lsk_port_name(f->stack, 1), "");
	assert_int_equal(lsk_port_by_name(f->stack, "wan"), 0);
	assert_true(config_has(f, "port 1 mtu 1500 mac 02:00:00:00:01:FE"));
}

/* --- show interfaces ------------------------------------------------ */

static void
test_show_interfaces(void **state)
{
	struct unit_fixture *f = *state;
	struct fake_app app = { 0 };

	lsk_port_ops_set(f->stack, &fake_ops, &app);
	assert_answer(f, "port 0 name wan\n"
		      "address add 10.5.0.1/24 port 1 vlan 100\n", false, "");
	/* a frame port 1 could not send: its tx_dropped */
	assert_answer(f, "port 1 down", false, "");
	send_a_to_b(f);
	assert_answer(f, "show interfaces", false,
		"0: port0 (wan): <UP,LOWER_UP> mtu 1500 state UP\n"
		"    link/ether 02:00:00:00:00:FE driver net_fake "
		"speed 10 Gbps full-duplex\n"
		"    RX: bytes packets errors missed dropped\n"
		"         1234      12      1      2       0\n"
		"    TX: bytes packets errors dropped\n"
		"          700       7      3       0\n"
		"1: port1: <DOWN> mtu 1500 state DOWN\n"
		"    link/ether 02:00:00:00:01:FE\n"
		"    RX: bytes packets errors missed dropped\n"
		"            -       -      -      -       0\n"
		"    TX: bytes packets errors dropped\n"
		"            -       -      -       1\n"
		"2: port1.100@port1: <DOWN> mtu 1500 state DOWN\n"
		"    link/ether 02:00:00:00:01:FE vlan 100\n"
		"    counters: port1's (the stack counts none per VLAN)\n");
	assert_answer(f, "show interfaces", true,
		"[{\"name\": \"port0\", \"alias\": \"wan\", \"id\": 0, "
		"\"port\": 0, \"vlan\": 0, \"mtu\": 1500, "
		"\"mac\": \"02:00:00:00:00:FE\", \"admin\": \"up\", "
		"\"state\": \"UP\", \"link\": \"up\", \"speed_mbps\": 10000, "
		"\"duplex\": \"full\", \"driver\": \"net_fake\", \"host_if\": null, "
		"\"rx\": {\"bytes\": 1234, \"packets\": 12, \"errors\": 1, "
		"\"missed\": 2, \"dropped\": 0}, "
		"\"tx\": {\"bytes\": 700, \"packets\": 7, \"errors\": 3, "
		"\"dropped\": 0}}, "
		"{\"name\": \"port1\", \"alias\": null, \"id\": 1, "
		"\"port\": 1, \"vlan\": 0, \"mtu\": 1500, "
		"\"mac\": \"02:00:00:00:01:FE\", \"admin\": \"down\", "
		"\"state\": \"DOWN\", \"link\": null, \"speed_mbps\": null, "
		"\"duplex\": null, \"driver\": null, \"host_if\": null, "
		"\"rx\": {\"bytes\": null, \"packets\": null, "
		"\"errors\": null, \"missed\": null, \"dropped\": 0}, "
		"\"tx\": {\"bytes\": null, \"packets\": null, "
		"\"errors\": null, \"dropped\": 1}}, "
		"{\"name\": \"port1.100\", \"alias\": null, \"id\": 2, "
		"\"port\": 1, \"vlan\": 100, \"mtu\": 1500, "
		"\"mac\": \"02:00:00:00:01:FE\", \"admin\": \"down\", "
		"\"state\": \"DOWN\", \"link\": null, \"speed_mbps\": null, "
		"\"duplex\": null, \"driver\": null, \"host_if\": null, "
		"\"rx\": null, \"tx\": null}]\n");
}

/* Without an application's facts the stack says what it knows. */
static void
test_show_interfaces_no_facts(void **state)
{
	struct unit_fixture *f = *state;

	assert_answer(f, "show interfaces", false,
		"0: port0: <UP> mtu 1500 state UNKNOWN\n"
		"    link/ether 02:00:00:00:00:FE\n"
		"    RX: bytes packets errors missed dropped\n"
		"            -       -      -      -       0\n"
		"    TX: bytes packets errors dropped\n"
		"            -       -      -       0\n"
		"1: port1: <UP> mtu 1500 state UNKNOWN\n"
		"    link/ether 02:00:00:00:01:FE\n"
		"    RX: bytes packets errors missed dropped\n"
		"            -       -      -      -       0\n"
		"    TX: bytes packets errors dropped\n"
		"            -       -      -       0\n");
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					      unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_port_down_up),
		T(test_port_down_batch),
		T(test_port_names),
		T(test_show_interfaces),
		T(test_show_interfaces_no_facts),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
