/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * command: batches through lsk_command_run are all or nothing (a bad line
 * anywhere, a refused change anywhere, no memory at commit: the running
 * configuration and every published table stay as they were), and the
 * run-time commands (address del, neigh del|flush, udp close, filter
 * del|flush, port mtu (and the device behind the port), gro,
 * route-cache, mode, stats clear, help, ping and traceroute), each with
 * its refusals. What
 * changed is read back from `show config` and from the
 * tables the workers read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_fib.h>
#include <rte_hash.h>

#include "unit_common.h"
#include "core/fwd.h"
#include "ip4/ip4.h"
#include "l2/l2.h"
#include "udp/udp.h"
#include "cli/cli.h"
#include "control/control.h"

/* Run text as one batch, the worker off line meanwhile; the answer stays
 * in o (lsk_out_free it). */
static int
run_out(struct unit_fixture *f, const char *text, bool json,
	struct lsk_out *o)
{
	int rc;

	lsk_out_init(o, json);
	lsk_worker_offline(f->worker);
	rc = lsk_command_run(f->stack, text, strlen(text), "b", o);
	unit_worker_sync(f);
	return rc;
}

/* room for all of an answer's error (struct lsk_out's err) */
#define ERR_LEN sizeof(((struct lsk_out *)0)->err)

/* Run text; returns rc, the error copied into err (if not NULL). */
static int
run(struct unit_fixture *f, const char *text, char *err, size_t len)
{
	struct lsk_out o;
	int rc = run_out(f, text, false, &o);

	if (err != NULL)
		snprintf(err, len, "%s", o.err);
	if (rc == 0)
		assert_string_equal(o.err, "");
	lsk_out_free(&o);
	return rc;
}

static void
run_ok(struct unit_fixture *f, const char *text)
{
	char err[ERR_LEN];
	int rc = run(f, text, err, sizeof(err));

	if (rc != 0)
		print_error("'%s': %s\n", text, err);
	assert_int_equal(rc, 0);
}

/* The refusal of text: its rc and its whole error text. */
static void
run_refused(struct unit_fixture *f, const char *text, int want_rc,
	    const char *want_err)
{
	char err[ERR_LEN];

	assert_int_equal(run(f, text, err, sizeof(err)), want_rc);
	assert_string_equal(err, want_err);
}

/* `show VIEW` as text, malloc'd. */
static char *
show(struct unit_fixture *f, const char *view)
{
	char line[64];
	struct lsk_out o;
	char *text;

	snprintf(line, sizeof(line), "show %s", view);
	assert_int_equal(run_out(f, line, false, &o), 0);
	text = strdup(o.buf ? o.buf : "");
	assert_non_null(text);
	lsk_out_free(&o);
	return text;
}

static bool
has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line)) != NULL) {
		if ((p == text || p[-1] == '\n') &&
		    (p[n] == '\n' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

static void
assert_config_has(struct unit_fixture *f, const char *line, bool want)
{
	char *conf = show(f, "config");

	if (has_line(conf, line) != want)
		print_error("config %s '%s':\n%s", want ? "lacks" : "has",
			    line, conf);
	assert_true(has_line(conf, line) == want);
	free(conf);
}

/* The next hop the published table gives for dst. */
static const struct lsk_nexthop *
lookup(const struct unit_fixture *f, uint32_t dst)
{
	const struct lsk_fwd_table *t = f->stack->sh.fwd;
	uint64_t nh;

	rte_fib_lookup_bulk(t->fib, &dst, &nh, 1);
	assert_true(nh < t->n_nexthops);
	return &t->nexthops[nh];
}

/* Is addr in the neighbour table, and in which state (0: absent)? */
static uint8_t
neigh_state(const struct unit_fixture *f, uint32_t addr)
{
	struct lsk_neigh_info n[64];
	uint32_t i, k = lsk_neigh_list(f->stack->sh.neigh, n,
					 RTE_DIM(n));

	for (i = 0; i < k; i++)
		if (n[i].addr == addr)
			return n[i].state;
	return 0;
}

/* What a failed batch must leave as it was. */
struct snapshot {
	char *config;
	const struct lsk_fwd_table *fwd;
	uint32_t fwd_generation;
	const struct lsk_filter_table *filter;
	const struct lsk_udp_table *udp;
	unsigned int n_eps, n_services;
	uint64_t in_receives;
	uint8_t neigh_a;
};

static void
snap(struct unit_fixture *f, struct snapshot *s)
{
	struct lsk_stats st;

	s->config = show(f, "config");
	s->fwd = f->stack->sh.fwd;
	s->fwd_generation = f->stack->sh.fwd->generation;
	s->filter = f->stack->sh.filter;
	s->udp = f->stack->sh.udp;
	s->n_eps = f->stack->n_eps;
	s->n_services = f->stack->n_services;
	lsk_stats_read(f->stack, &st);
	s->in_receives = st.ip.InReceives;
	s->neigh_a = neigh_state(f, UNIT_A_IP);
}

static void
assert_unchanged(struct unit_fixture *f, struct snapshot *s)
{
	struct snapshot now;

	snap(f, &now);
	assert_string_equal(now.config, s->config);
	assert_ptr_equal(now.fwd, s->fwd);
	assert_int_equal(now.fwd_generation, s->fwd_generation);
	assert_ptr_equal(now.filter, s->filter);
	assert_ptr_equal(now.udp, s->udp);
	assert_int_equal(now.n_eps, s->n_eps);
	assert_int_equal(now.n_services, s->n_services);
	assert_int_equal(now.in_receives, s->in_receives);
	assert_int_equal(now.neigh_a, s->neigh_a);
	assert_false(f->stack->in_batch);
	free(now.config);
	free(s->config);
}

/* One forwarded datagram, so that counters are not all zero. */
static void
forward_one(struct unit_fixture *f)
{
	struct unit_pkt p;

	unit_pkt_init(&p, UNIT_FAR_IP);
	unit_input_pkt(f, &p);
	assert_int_equal(unit_tx_udp_to(f, UNIT_P1, UNIT_FAR_IP), 1);
	unit_tx_free(f);
}

/* 1000 lines of routes; line bad (from 1) replaced by bad_text. */
static char *
big_batch(unsigned int bad, const char *bad_text)
{
	size_t cap = 1000 * 48 + 256, n = 0;
	char *text = malloc(cap);
	unsigned int i;

	assert_non_null(text);
	for (i = 1; i <= 1000; i++) {
		if (i == bad)
			n += (size_t)snprintf(text + n, cap - n, "%s\n",
					      bad_text);
		else if (i == 1)
			n += (size_t)snprintf(text + n, cap - n,
				"address add 10.0.7.1/24 port 0\n");
		else
			n += (size_t)snprintf(text + n, cap - n,
				"route add 10.%u.%u.0/24 via 10.0.1.1\n",
				100 + i / 256, i % 256);
	}
	return text;
}

/* A syntax error on line 500 of 1000: nothing of lines 1-499 (nor
 * 501-1000) is applied, the tables in force are the same ones. */
static void
test_bad_line_500_of_1000_changes_nothing(void **state)
{
	struct unit_fixture *f = *state;
	char *text = big_batch(500, "route add 10.200.0.0/16 via");
	struct snapshot before;
	char err[ERR_LEN];

	forward_one(f);
	snap(f, &before);
	assert_int_equal(run(f, text, err, sizeof(err)), -EINVAL);
	assert_memory_equal(err, "b:500: ", 7);
	assert_non_null(strstr(err, "usage: route"));
	assert_unchanged(f, &before);
	assert_int_equal(lookup(f, UNIT_IPV4(10, 101, 44, 1))->type,
			 LSK_NH_NONE);
	free(text);

	/* without the bad line the same batch is applied whole */
	text = big_batch(0, "");
	run_ok(f, text);
	assert_int_equal(lookup(f, UNIT_IPV4(10, 101, 44, 1))->type,
			 LSK_NH_FORWARD);
	assert_int_equal(lookup(f, UNIT_IPV4(10, 0, 7, 1))->type,
			 LSK_NH_LOCAL);
	free(text);
}

/* Line 500 is valid words but a refused change (a route that exists):
 * every kind of change made before it is put back. */
static void
test_refused_change_mid_batch_changes_nothing(void **state)
{
	static const char head[] =
		"port 1 mtu 1400 mac 02:00:00:00:01:77\n"
		"address add 10.0.5.1/24 port 1 vlan 100\n"
		"neigh add 10.0.5.7 lladdr 02:00:00:00:05:07\n"
		"neigh del 10.0.0.1\n"
		"filter flush\n"
		"filter add drop proto udp dport 53\n"
		"udp close 10.0.1.254:5\n"
		"udp listen 10.0.0.254:7 echo\n"
		"udp listen 0.0.0.0:9 discard ring 64\n"
		"gro fraglist flows 8 segs 8\n"
		"route-cache on entries 64\n"
		"stats clear\n"
		"route del 10.9.0.0/16\n";
	struct unit_fixture *f = *state;
	struct snapshot before;
	size_t cap = sizeof(head) + 1000 * 48, n;
	char *text = malloc(cap);
	char err[ERR_LEN];
	unsigned int i;

	assert_non_null(text);
	run_ok(f, "udp listen 10.0.1.254:5 discard\n"
		  "filter add accept proto udp sport 1000");
	forward_one(f);
	n = (size_t)snprintf(text, cap, "%s", head);
	for (i = 14; i < 500; i++)
		n += (size_t)snprintf(text + n, cap - n,
				      "route add 10.%u.%u.0/24 via 10.0.1.1\n",
				      100 + i / 256, i % 256);
	snprintf(text + n, cap - n, "route add 10.100.20.0/24 via 10.0.1.1\n"
		 "route add 10.200.0.0/16 blackhole\n");
	snap(f, &before);
	assert_int_equal(run(f, text, err, sizeof(err)), -EEXIST);
	assert_string_equal(err, "b:500: route 10.100.20.0/24 exists already");
	assert_unchanged(f, &before);
	/* the closed service still receives, the static is still there */
	assert_int_equal(neigh_state(f, UNIT_A_IP), LSK_NEIGH_STATIC);
	assert_config_has(f, "udp listen 10.0.1.254:5 discard", true);
	assert_config_has(f, "gro off", true);
	assert_config_has(f, "route-cache off", true);
	assert_int_equal(lookup(f, UNIT_FAR_IP)->type, LSK_NH_FORWARD);

	/* the batch without its last two lines: every change, at once */
	text[n] = '\0';
	run_ok(f, text);
	assert_config_has(f, "port 1 mtu 1400 mac 02:00:00:00:01:77", true);
	assert_config_has(f, "address add 10.0.5.1/24 port 1 vlan 100", true);
	assert_config_has(f, "neigh add 10.0.5.7 lladdr 02:00:00:00:05:07",
			  true);
	assert_config_has(f, "neigh add 10.0.0.1 lladdr 02:00:00:00:00:01",
			  false);
	assert_config_has(f, "filter add accept proto udp sport 1000", false);
	assert_config_has(f, "filter add drop proto udp dport 53", true);
	assert_config_has(f, "udp listen 10.0.1.254:5 discard", false);
	assert_config_has(f, "udp listen 10.0.0.254:7 echo", true);
	assert_config_has(f, "udp listen 0.0.0.0:9 discard ring 64", true);
	assert_config_has(f, "gro fraglist flows 8 segs 8", true);
	assert_config_has(f, "route-cache on entries 64", true);
	assert_int_equal(neigh_state(f, UNIT_A_IP), 0);
	assert_int_equal(neigh_state(f, UNIT_IPV4(10, 0, 5, 7)),
			 LSK_NEIGH_STATIC);
	assert_int_equal(f->stack->sh.udp->n, 2);
	assert_int_equal(f->stack->sh.filter->n_rules, 1);
	assert_int_equal(f->stack->sh.fwd->ifaces[1].mtu, 1400);
	assert_int_equal(lookup(f, UNIT_FAR_IP)->type, LSK_NH_NONE);
	{
		struct lsk_stats st;

		lsk_stats_read(f->stack, &st);
		assert_int_equal(st.ip.InReceives, 0);
	}
	free(text);
}

/* No memory when the batch's tables are built: nothing changes, and
 * nothing the batch allocated is left behind. */
static void
test_no_memory_at_commit_changes_nothing(void **state)
{
	struct unit_fixture *f = *state;
	const char *text = "address add 10.0.2.254/24 port 0 vlan 7\n"
			   "route add 10.77.0.0/16 via 10.0.1.1\n"
			   "filter add drop proto udp dport 9\n"
			   "neigh del 10.0.0.1\n"
			   "port 1 mtu 1000\n";
	struct snapshot before;
	size_t heap;
	char err[ERR_LEN];

	snap(f, &before);
	heap = unit_heap_allocated();
	unit_eat_memory();
	assert_int_equal(run(f, text, err, sizeof(err)), -ENOMEM);
	unit_free_memory();
	assert_string_equal(err, "b:5: cannot build tables: Cannot allocate "
			    "memory");
	assert_int_equal(unit_heap_allocated(), heap);
	assert_unchanged(f, &before);
	assert_int_equal(f->stack->n_ifaces, 2);
}

/* Views in a batch of views only change nothing; a refused view in a
 * batch of changes refuses the batch, and the answer is the reason. */
static void
test_views_in_batches(void **state)
{
	struct unit_fixture *f = *state;
	struct snapshot before;
	struct lsk_out o;

	snap(f, &before);
	assert_int_equal(run_out(f, "address add 10.0.2.1/24 port 0\n"
				    "show interfaces\nshow nothing\n", false,
				 &o), -EINVAL);
	assert_non_null(strstr(o.err, "b:3: show: unknown view 'nothing' "
			       "(interfaces, "));
	assert_int_equal(o.len, 0);
	lsk_out_free(&o);
	assert_unchanged(f, &before);
	/* views see the batch's own changes, in order */
	assert_int_equal(run_out(f, "address add 10.0.2.1/24 port 0\n"
				    "show addresses\n", false, &o), 0);
	assert_non_null(strstr(o.buf, "10.0.2.1/24"));
	lsk_out_free(&o);
}

static void
test_address_del(void **state)
{
	struct unit_fixture *f = *state;
	struct snapshot before;

	/* refusals, each changing nothing */
	snap(f, &before);
	run_refused(f, "address del 10.0.1.254/16 port 1", -EADDRNOTAVAIL,
		    "b:1: no address 10.0.1.254/16 on port 1");
	run_refused(f, "address del 10.0.1.254/24 port 0", -EADDRNOTAVAIL,
		    "b:1: no address 10.0.1.254/24 on port 0");
	run_refused(f, "address del 10.0.1.254/24 port 1 vlan 3", -ENODEV,
		    "b:1: port 1 has no vlan 3");
	run_refused(f, "address del 10.0.1.254/24 port 2", -ENODEV,
		    "b:1: port 2 does not exist (2 ports)");
	run_refused(f, "address del 10.0.1.254 port 1", -EINVAL,
		    "b:1: bad address '10.0.1.254' (want A.B.C.D/L)");
	assert_unchanged(f, &before);
	run_ok(f, "udp listen 10.0.1.254:7 echo");
	snap(f, &before);
	run_refused(f, "address del 10.0.1.254/24 port 1", -EBUSY,
		    "b:1: 10.0.1.254/24 is in use by a 'udp listen' service "
		    "(udp close it first)");
	assert_unchanged(f, &before);
	run_ok(f, "udp close 10.0.1.254:7");

	/* the subnet goes, with the route via 10.0.1.1 and the static
	 * neighbour 10.0.1.1 */
	run_ok(f, "address del 10.0.1.254/24 port 1");
	assert_int_equal(lookup(f, UNIT_P1_IP)->type, LSK_NH_NONE);
	assert_int_equal(lookup(f, UNIT_B_IP)->type, LSK_NH_NONE);
	assert_int_equal(lookup(f, UNIT_FAR_IP)->type, LSK_NH_NONE);
	assert_config_has(f, "route add 10.9.0.0/16 via 10.0.1.1", false);
	assert_config_has(f, "neigh add 10.0.1.1 lladdr 02:00:00:00:01:01",
			  false);
	assert_int_equal(neigh_state(f, UNIT_B_IP), 0);
	assert_int_equal(neigh_state(f, UNIT_A_IP), LSK_NEIGH_STATIC);
	assert_int_equal(lookup(f, UNIT_P0_IP)->type, LSK_NH_LOCAL);

	/* on a VLAN: the sub-interface stays, its address goes */
	run_ok(f, "address add 10.0.5.1/24 port 1 vlan 100");
	assert_int_equal(lookup(f, UNIT_IPV4(10, 0, 5, 1))->type,
			 LSK_NH_LOCAL);
	run_refused(f, "address del 10.0.5.1/24 port 1", -EADDRNOTAVAIL,
		    "b:1: no address 10.0.5.1/24 on port 1");
	run_ok(f, "address del 10.0.5.1/24 port 1 vlan 100");
	assert_int_equal(lookup(f, UNIT_IPV4(10, 0, 5, 1))->type,
			 LSK_NH_NONE);
	/* and it can come back */
	run_ok(f, "address add 10.0.1.254/24 port 1\n"
		  "route add 10.9.0.0/16 via 10.0.1.1");
	assert_int_equal(lookup(f, UNIT_FAR_IP)->type, LSK_NH_FORWARD);
}

/* A learnt neighbour: an ARP request from addr on port 0. */
static void
learn(struct unit_fixture *f, uint32_t addr, const struct rte_ether_addr *mac)
{
	struct rte_mbuf *m = unit_arp_mbuf(UNIT_P0, 1, &unit_p0_mac, mac,
					   addr, NULL, UNIT_P0_IP);

	unit_input_one(f, m);
	unit_tx_free(f);
	assert_int_not_equal(neigh_state(f, addr), 0);
	assert_int_not_equal(neigh_state(f, addr), LSK_NEIGH_STATIC);
}

static void
test_neigh_del_and_flush(void **state)
{
	static const struct rte_ether_addr mac9 = {
		{ 0x02, 0, 0, 0, 0, 0x09 } };
	struct unit_fixture *f = *state;
	const uint32_t c9 = UNIT_IPV4(10, 0, 0, 9);
	struct snapshot before;

	snap(f, &before);
	run_refused(f, "neigh del 10.0.0.77", -ENOENT,
		    "b:1: no neighbour 10.0.0.77");
	run_refused(f, "neigh del 10.0.0", -EINVAL,
		    "b:1: bad address '10.0.0'");
	run_refused(f, "neigh del", -EINVAL, "b:1: usage: neigh del A.B.C.D");
	run_refused(f, "neigh flush now", -EINVAL, "b:1: usage: neigh flush");
	assert_unchanged(f, &before);

	/* a static one: out of the list, the table and the next hops */
	assert_true(lookup(f, UNIT_A_IP)->resolved);
	run_ok(f, "neigh del 10.0.0.1");
	assert_int_equal(neigh_state(f, UNIT_A_IP), 0);
	assert_false(lookup(f, UNIT_A_IP)->resolved);
	assert_config_has(f, "neigh add 10.0.0.1 lladdr 02:00:00:00:00:01",
			  false);
	/* a learnt one */
	learn(f, c9, &mac9);
	run_ok(f, "neigh del 10.0.0.9");
	assert_int_equal(neigh_state(f, c9), 0);
	run_refused(f, "neigh del 10.0.0.9", -ENOENT,
		    "b:1: no neighbour 10.0.0.9");
	/* and learnt again by the next ARP */
	learn(f, c9, &mac9);

	/* flush: statics and learnt ones */
	run_ok(f, "neigh flush");
	assert_int_equal(neigh_state(f, c9), 0);
	assert_int_equal(neigh_state(f, UNIT_B_IP), 0);
	assert_false(lookup(f, UNIT_FAR_IP)->resolved);
	{
		char *n = show(f, "neigh");

		assert_string_equal(n, "ADDRESS  IFACE  MAC  STATE  HELD\n");
		free(n);
	}
	assert_config_has(f, "neigh add 10.0.1.1 lladdr 02:00:00:00:01:01",
			  false);
}

static void
test_udp_close(void **state)
{
	struct unit_fixture *f = *state;
	struct snapshot before;
	struct unit_pkt p;

	run_ok(f, "udp listen 10.0.0.254:7 discard");
	assert_int_equal(f->stack->sh.udp->n, 1);
	snap(f, &before);
	run_refused(f, "udp close 10.0.0.254:8", -ENOENT,
		    "b:1: no 'udp listen' service on 10.0.0.254:8");
	run_refused(f, "udp close 0.0.0.0:7", -ENOENT,
		    "b:1: no 'udp listen' service on 0.0.0.0:7");
	run_refused(f, "udp close 10.0.0.254", -EINVAL,
		    "b:1: bad endpoint '10.0.0.254' (want A.B.C.D:PORT)");
	run_refused(f, "udp close 10.0.0.254:0", -EINVAL,
		    "b:1: bad port in '10.0.0.254:0' (1-65535)");
	assert_unchanged(f, &before);
	run_ok(f, "udp close 10.0.0.254:7");
	assert_int_equal(f->stack->sh.udp->n, 0);
	assert_int_equal(f->stack->n_eps, 0);
	/* nobody listens any more: a datagram to it is NoPorts */
	unit_pkt_init(&p, UNIT_P0_IP);
	p.dport = 7;
	unit_input_pkt(f, &p);
	unit_tx_free(f);
	{
		struct lsk_stats st;

		lsk_stats_read(f->stack, &st);
		assert_int_equal(st.udp.NoPorts, 1);
	}
	/* open and closed in one batch: never published */
	run_ok(f, "udp listen 10.0.0.254:7 echo\nudp close 10.0.0.254:7");
	assert_int_equal(f->stack->n_eps, 0);
	assert_int_equal(f->stack->sh.udp->n, 0);
}

static void
test_filter_del_and_flush(void **state)
{
	struct unit_fixture *f = *state;
	struct snapshot before;
	char *text;

	run_ok(f, "filter add drop proto udp dport 1\n"
		  "filter add drop proto udp dport 2\n"
		  "filter add drop proto udp dport 3");
	snap(f, &before);
	run_refused(f, "filter del 4", -ENOENT, "b:1: no rule 4 (3 rules)");
	run_refused(f, "filter del 0", -EINVAL,
		    "b:1: bad rule number '0' (as 'show filter' numbers them)");
	run_refused(f, "filter del x", -EINVAL,
		    "b:1: bad rule number 'x' (as 'show filter' numbers them)");
	assert_unchanged(f, &before);
	run_ok(f, "filter del 2");
	assert_int_equal(f->stack->sh.filter->n_rules, 2);
	text = show(f, "filter");
	assert_string_equal(text,
		"N  ACTION  PROTO  SRC        DST        SPORT    DPORT\n"
		"1  drop    udp    0.0.0.0/0  0.0.0.0/0  0-65535  1\n"
		"2  drop    udp    0.0.0.0/0  0.0.0.0/0  0-65535  3\n");
	free(text);
	/* numbers as shown: two deletes of rule 1 in one batch */
	run_ok(f, "filter del 1\nfilter del 1");
	assert_null(f->stack->sh.filter);	/* no rules: no classifier */
	run_ok(f, "filter add accept\nfilter flush");
	assert_int_equal(f->stack->n_filters, 0);
	assert_null(f->stack->sh.filter);
}

static void
test_port_mtu_live(void **state)
{
	struct unit_fixture *f = *state;
	struct snapshot before;

	snap(f, &before);
	run_refused(f, "port 1 mtu 67", -EINVAL, "b:1: bad mtu '67' (68-9000)");
	run_refused(f, "port 2 mtu 1400", -ENODEV,
		    "b:1: port 2 does not exist (2 ports)");
	assert_unchanged(f, &before);
	run_ok(f, "address add 10.0.5.1/24 port 1 vlan 100");
	run_ok(f, "port 1 mtu 1400");
	assert_int_equal(f->stack->sh.fwd->ifaces[1].mtu, 1400);
	assert_int_equal(f->stack->sh.fwd->ifaces[2].mtu, 1400);	/* its VLAN */
	assert_int_equal(f->stack->sh.fwd->ifaces[0].mtu, 1500);
	assert_config_has(f, "port 1 mtu 1400 mac 02:00:00:00:01:FE", true);
}

/* A device behind the ports, as listack-fwd's hook drives one: what it
 * was told, and the port whose MTU it refuses (-1: none). */
struct fake_devices {
	uint16_t mtu[2];
	unsigned int calls;
	int refuse_port;
};

static int
fake_device_mtu(void *arg, uint16_t port, uint16_t mtu)
{
	struct fake_devices *d = arg;

	d->calls++;
	if ((int)port == d->refuse_port)
		return -EINVAL;
	d->mtu[port] = mtu;
	return 0;
}

static void
test_port_mtu_reaches_the_device(void **state)
{
	struct unit_fixture *f = *state;
	struct fake_devices d = { .mtu = { 1500, 1500 }, .refuse_port = -1 };
	struct snapshot before;
	uint16_t mtu;

	lsk_port_mtu_hook(f->stack, fake_device_mtu, &d);
	run_ok(f, "port 1 mtu 1400");
	assert_int_equal(d.calls, 1);
	assert_int_equal(d.mtu[1], 1400);
	assert_int_equal(f->stack->sh.fwd->ifaces[1].mtu, 1400);
	/* the same MTU again, or a MAC alone: the device is not asked */
	run_ok(f, "port 1 mtu 1400\nport 0 mac 02:00:00:00:00:77");
	assert_int_equal(d.calls, 1);

	/* the device refuses port 1: nothing changes, port 0's device is
	 * set back to what it had */
	snap(f, &before);
	d.refuse_port = 1;
	run_refused(f, "port 0 mtu 9000\nport 1 mtu 1300", -EINVAL,
		    "b:2: port 1: the device refused mtu 1300: Invalid argument");
	assert_unchanged(f, &before);
	assert_int_equal(d.mtu[0], 1500);
	assert_int_equal(d.mtu[1], 1400);
	assert_int_equal(d.calls, 4);	/* 0 to 9000, 1 refused, 0 back */
	assert_int_equal(f->stack->sh.fwd->ifaces[0].mtu, 1500);

	/* outside a batch, the library call alike */
	assert_int_equal(lsk_port_set(f->stack, 1, NULL, 1000), -EINVAL);
	assert_int_equal(lsk_port_get(f->stack, 1, NULL, &mtu), 0);
	assert_int_equal(mtu, 1400);
	d.refuse_port = -1;
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_port_set(f->stack, 1, NULL, 1000), 0);
	unit_worker_sync(f);
	assert_int_equal(d.mtu[1], 1000);
	assert_int_equal(f->stack->sh.fwd->ifaces[1].mtu, 1000);
	lsk_port_mtu_hook(f->stack, NULL, NULL);
}

/* What a burst moved of the GRO and route cache counters. */
struct switch_counts {
	uint64_t trains, merged, hits, misses;
};

/*
 * A burst of 4 datagrams of one flow to B's far subnet: all 4 go out on
 * P1 (GSO splits what GRO merged); what it moved of the counters (no
 * `stats clear`: a batch between two bursts could hide a cache hit).
 */
static struct switch_counts
forward_flow(struct unit_fixture *f)
{
	struct lsk_stats a = unit_stats(f), b;
	struct rte_mbuf *pkts[4];
	struct unit_pkt p;
	uint16_t i;

	for (i = 0; i < RTE_DIM(pkts); i++) {
		unit_pkt_init(&p, UNIT_FAR_IP);
		p.id = (uint16_t)(i + 1);
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, RTE_DIM(pkts));
	assert_int_equal(unit_tx_udp_to(f, UNIT_P1, UNIT_FAR_IP), 4);
	unit_tx_free(f);
	b = unit_stats(f);
	return (struct switch_counts){
		.trains = b.gro.Trains - a.gro.Trains,
		.merged = b.gro.Merged - a.gro.Merged,
		.hits = b.route_cache.Hits - a.route_cache.Hits,
		.misses = b.route_cache.Misses - a.route_cache.Misses,
	};
}

/* The switches took effect: GRO makes trains of the flow (Trains,
 * Merged) and the route cache is asked (Hits, Misses) while on, and
 * neither while off; `show config` says which. */
static void
test_gro_and_route_cache_live(void **state)
{
	struct unit_fixture *f = *state;
	struct snapshot before;
	struct switch_counts st;

	/* both off by default */
	st = forward_flow(f);
	assert_int_equal(st.trains + st.merged, 0);
	assert_int_equal(st.hits + st.misses, 0);
	snap(f, &before);
	run_refused(f, "gro fraglist segs 1", -EINVAL,
		    "b:1: bad segs '1' (2-64)");
	run_refused(f, "route-cache on entries 0", -EINVAL,
		    "b:1: bad entries '0' (1-16777216)");
	assert_unchanged(f, &before);

	run_ok(f, "gro merge flows 16 segs 4\nroute-cache on entries 128");
	assert_config_has(f, "gro merge flows 16 segs 4", true);
	assert_config_has(f, "route-cache on entries 128", true);
	assert_config_has(f, "gro off", false);
	assert_config_has(f, "route-cache off", false);
	st = forward_flow(f);
	/* one train of the 4; its lookup misses the empty cache */
	assert_int_equal(st.trains, 1);
	assert_int_equal(st.merged, 3);
	assert_int_equal(st.misses, 1);
	assert_int_equal(st.hits, 0);
	st = forward_flow(f);
	assert_int_equal(st.trains, 1);
	assert_int_equal(st.misses, 0);
	assert_int_equal(st.hits, 1);

	run_ok(f, "gro off\nroute-cache off");
	assert_config_has(f, "gro off", true);
	assert_config_has(f, "route-cache off", true);
	assert_config_has(f, "gro merge flows 16 segs 4", false);
	assert_config_has(f, "route-cache on entries 128", false);
	st = forward_flow(f);
	assert_int_equal(st.trains + st.merged, 0);
	assert_int_equal(st.hits + st.misses, 0);
}

/* A burst of n datagrams to B's far subnet; returns the calls the first
 * stage took for it (fwd_fast's one for the burst in list mode, eth_input's
 * one a datagram in single). */
static uint64_t
forward_burst(struct unit_fixture *f, uint16_t n)
{
	struct rte_mbuf *pkts[8];
	struct lsk_stats st;
	struct unit_pkt p;
	uint16_t i;

	assert_true(n <= RTE_DIM(pkts));
	run_ok(f, "stats clear");
	unit_pkt_init(&p, UNIT_FAR_IP);
	for (i = 0; i < n; i++) {
		p.sport = (uint16_t)(1000 + i);
		pkts[i] = unit_pkt_mbuf(&p);
		assert_non_null(pkts[i]);
	}
	unit_input(f, pkts, n);
	assert_int_equal(unit_tx_udp_to(f, UNIT_P1, UNIT_FAR_IP), n);
	unit_tx_free(f);
	lsk_stats_read(f->stack, &st);
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].packets +
			 st.stages[LSK_STAGE_ETH_INPUT].packets, n);
	return st.stages[LSK_STAGE_FWD_FAST].calls +
	       st.stages[LSK_STAGE_ETH_INPUT].calls;
}

/* mode list|single at run time: bad words change nothing, the workers'
 * next burst runs in the new mode, a batch sets it at its commit (or not
 * at all when refused), and the library call refuses a bad value. */
static void
test_mode_live(void **state)
{
	struct unit_fixture *f = *state;
	struct snapshot before;

	assert_config_has(f, "mode list", true);
	assert_int_equal(forward_burst(f, 4), 1);
	snap(f, &before);
	run_refused(f, "mode", -EINVAL, "b:1: usage: mode list|single");
	run_refused(f, "mode list single", -EINVAL,
		    "b:1: usage: mode list|single");
	run_refused(f, "mode vector", -EINVAL,
		    "b:1: mode: unknown word 'vector' (list, single)");
	run_refused(f, "mode single\nroute add 10.9.0.0/16 via 10.0.1.1",
		    -EEXIST, "b:2: route 10.9.0.0/16 exists already");
	assert_int_equal(lsk_mode_set(f->stack, (enum lsk_mode)2), -EINVAL);
	assert_unchanged(f, &before);
	assert_int_equal(lsk_stack_mode(f->stack), LSK_MODE_LIST);

	run_ok(f, "mode single");
	assert_int_equal(lsk_stack_mode(f->stack), LSK_MODE_SINGLE);
	assert_config_has(f, "mode single", true);
	assert_config_has(f, "mode list", false);
	assert_int_equal(forward_burst(f, 4), 4);
	/* in a batch: with the rest of it */
	run_ok(f, "route add 10.8.0.0/16 via 10.0.1.1\nmode list");
	assert_config_has(f, "mode list", true);
	assert_int_equal(forward_burst(f, 4), 1);
	assert_int_equal(lsk_mode_set(f->stack, LSK_MODE_SINGLE), 0);
	assert_config_has(f, "mode single", true);
	assert_int_equal(forward_burst(f, 3), 3);
}

static void
test_stats_clear(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stats st;

	forward_one(f);
	forward_one(f);
	lsk_stats_read(f->stack, &st);
	assert_int_equal(st.ip.ForwDatagrams, 2);
	run_refused(f, "stats clear all", -EINVAL, "b:1: usage: stats clear");
	run_refused(f, "stats", -EINVAL, "b:1: usage: stats clear");
	run_ok(f, "stats clear");
	lsk_stats_read(f->stack, &st);
	assert_int_equal(st.ip.ForwDatagrams, 0);
	assert_int_equal(st.ports[UNIT_P1].tx, 0);
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].packets, 0);
	/* the worker's own counters are its own: untouched */
	assert_int_equal(f->worker->stats.ip.ForwDatagrams, 2);
	forward_one(f);
	lsk_stats_read(f->stack, &st);
	assert_int_equal(st.ip.ForwDatagrams, 1);
	assert_int_equal(st.stages[LSK_STAGE_FWD_FAST].packets, 1);
}

static void
test_help(void **state)
{
	static const char *const commands[] = {
		"port", "address", "route", "neigh", "udp", "filter", "gro",
		"route-cache", "mode", "stats", "show", "help" };
	struct unit_fixture *f = *state;
	struct lsk_out o;
	unsigned int i;
	char want[64];

	assert_int_equal(run_out(f, "help", false, &o), 0);
	assert_memory_equal(o.buf, "COMMAND      USAGE\n", 19);
	for (i = 0; i < RTE_DIM(commands); i++) {
		snprintf(want, sizeof(want), "\n%-11s  %s ", commands[i],
			 commands[i]);
		if (strstr(o.buf, want) == NULL)
			print_error("no '%s' in:\n%s", want, o.buf);
		assert_non_null(strstr(o.buf, want));
	}
	lsk_out_free(&o);
	assert_int_equal(run_out(f, "help udp", false, &o), 0);
	assert_string_equal(o.buf,
		"COMMAND  USAGE\n"
		"udp      udp listen ADDR:PORT echo|discard|pcap FILE [ring N]\n"
		"         udp close ADDR:PORT\n");
	lsk_out_free(&o);
	assert_int_equal(run_out(f, "help udp", true, &o), 0);
	assert_string_equal(o.buf,
		"[{\"command\": \"udp\", \"usage\": [\"udp listen ADDR:PORT "
		"echo|discard|pcap FILE [ring N]\", \"udp close ADDR:PORT\"], "
		"\"words\": [\"listen\", \"close\"]}]\n");
	lsk_out_free(&o);
	run_refused(f, "help bogus", -EINVAL, "b:1: help: unknown command "
		    "'bogus' (port, address, route, ...)");
	run_refused(f, "help udp listen", -EINVAL,
		    "b:1: usage: help [COMMAND]");
}

/* Issue 22: a batch whose second address overlaps its first one's
 * subnet on another port is refused whole; so is one with a route
 * without its length. */
static void
test_batch_address_overlap(void **state)
{
	struct unit_fixture *f = *state;
	struct snapshot before;

	snap(f, &before);
	run_refused(f, "address add 10.0.7.1/24 port 0\n"
		    "address add 10.0.7.2/24 port 1", -EADDRINUSE,
		    "b:2: 10.0.7.2/24 overlaps 10.0.7.1/24 on port 0 (a subnet "
		    "is connected on one interface only)");
	run_refused(f, "route add 10.7.0.0/16 via 10.0.1.1\n"
		    "route add 10.8.0.0 via 10.0.1.1", -EINVAL,
		    "b:2: route needs a prefix length: 10.8.0.0/LEN (a host "
		    "route is 10.8.0.0/32)");
	assert_unchanged(f, &before);
	run_ok(f, "address add 10.0.7.1/24 port 0\n"
	       "address add 10.0.7.2/24 port 0");
}

/* Lines that cannot be commands, anywhere in a batch. */
static void
test_batch_line_errors(void **state)
{
	struct unit_fixture *f = *state;
	struct snapshot before;
	char text[2100];
	struct lsk_out o;

	snap(f, &before);
	run_refused(f, "address add 10.0.2.1/24 port 0\nbogus 1", -EINVAL,
		    "b:2: unknown command 'bogus' (port, address, route, ...)");
	memset(text, 'a', sizeof(text));
	memcpy(text, "port 0 mtu 1400\n", 16);
	text[sizeof(text) - 1] = '\0';
	run_refused(f, text, -EINVAL, "b:2: line too long");
	lsk_out_init(&o, false);
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_command_run(f->stack, "port 0 mtu 1400\nx\0y", 20,
					 "b", &o), -EINVAL);
	unit_worker_sync(f);
	assert_string_equal(o.err, "b:2: NUL byte in the line");
	lsk_out_free(&o);
	assert_unchanged(f, &before);
	/* comments and blank lines are lines: the numbers count them */
	run_refused(f, "# one\n\n  \nport 0 mtu 1\n", -EINVAL,
		    "b:4: bad mtu '1' (68-9000)");
	run_ok(f, "");
	run_ok(f, "# nothing\n\n");
}

/* ping and traceroute: their words, their bounds, and that they are
 * actions (cli/ping_cmd.c): not in a batch of changes, not in a
 * configuration file. Nothing is sent when they are refused. */
static void
test_ping_refusals(void **state)
{
	struct unit_fixture *f = *state;
	struct snapshot before;
	char path[] = "/tmp/lsk-ping-XXXXXX", err[ERR_LEN], want[600];
	FILE *fp;
	int fd;

	snap(f, &before);
	run_refused(f, "address add 10.0.2.1/24 port 0\nping 10.0.0.1", -EINVAL,
		    "b:2: ping runs alone, not in a batch of changes");
	assert_unchanged(f, &before);
	snap(f, &before);
	run_refused(f, "ping 10.0.0.1 count 0", -EINVAL,
		    "b:1: ping: bad count '0' (1 to 100)");
	run_refused(f, "ping 10.0.0.1 size 1473", -EINVAL,
		    "b:1: ping: bad size '1473' (0 to 1472)");
	run_refused(f, "ping 10.0.0.1 interval 5", -EINVAL,
		    "b:1: ping: bad interval '5' (10 to 10000)");
	run_refused(f, "ping 10.0.0.1 count 7 interval 10000", -EINVAL,
		    "b:1: ping: (count - 1) x interval + timeout is over "
		    "60000 ms");
	run_refused(f, "ping 10.0.0.1 count", -EINVAL, "b:1: usage: ping ADDR "
		    "[count N] [size B] [source ADDR] [interval MS] "
		    "[timeout MS] [port N]");
	run_refused(f, "traceroute 10.0.0.1 count 3", -EINVAL, "b:1: usage: "
		    "traceroute ADDR [max-hops N] [probes N] [source ADDR] "
		    "[wait MS] [port N]");
	run_refused(f, "ping 10.0.0.1 port 0", -EINVAL, "b:1: ping: 'port' is "
		    "for IPv6 link-local destinations");
	run_refused(f, "ping 2001:db8::1 source 10.0.0.254", -EINVAL,
		    "b:1: ping: bad source '10.0.0.254'");
	run_refused(f, "traceroute 10.0.0.1 max-hops 31", -EINVAL,
		    "b:1: traceroute: bad max-hops '31' (1 to 30)");
	run_refused(f, "ping 10.0.0.300", -EINVAL,
		    "b:1: ping: bad address '10.0.0.300'");
	run_refused(f, "ping 10.0.0.254", -EINVAL, "b:1: ping: 10.0.0.254 is "
		    "one of our addresses: only other hosts are probed");
	run_refused(f, "ping 10.0.0.255", -EINVAL, "b:1: ping: 10.0.0.255 is "
		    "a broadcast: only other hosts are probed");
	run_refused(f, "ping 10.0.0.1 source 10.0.0.1", -EADDRNOTAVAIL,
		    "b:1: ping: source 10.0.0.1 is not one of our addresses");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	fputs("ping 10.0.0.1\n", fp);
	fclose(fp);
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_config_load(f->stack, path, err, sizeof(err)),
			 -EINVAL);
	unit_worker_sync(f);
	snprintf(want, sizeof(want), "%s:1: ping is an action, not "
		 "configuration: not in a configuration file", path);
	assert_string_equal(err, want);
	unlink(path);
	assert_int_equal(unit_tx_count(f), 0);
	assert_unchanged(f, &before);
}

/* A refused batch leaves pcap files as they were: an existing one keeps
 * its bytes, one it made goes; an applied batch truncates them. */
static long
file_size(const char *path)
{
	FILE *fp = fopen(path, "r");
	long size;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	size = ftell(fp);
	fclose(fp);
	return size;
}

static void
test_refused_batch_keeps_pcap_files(void **state)
{
	struct unit_fixture *f = *state;
	const char *old = "/tmp/lsk_cmd_old.pcap";
	const char *made = "/tmp/lsk_cmd_new.pcap";
	char text[256];
	size_t n;
	FILE *fp;

	unlink(made);
	fp = fopen(old, "w");
	assert_non_null(fp);
	fputs("keep me", fp);
	fclose(fp);
	/* a syntax error: nothing is even tried */
	snprintf(text, sizeof(text), "udp listen 10.0.0.254:5 pcap %s\n"
		 "udp listen 10.0.0.254:6 pcap %s\nbogus 1\n", old, made);
	run_refused(f, text, -EINVAL, "b:3: unknown command 'bogus' (port, "
		    "address, route, ...)");
	n = (size_t)snprintf(text, sizeof(text),
			     "udp listen 10.0.0.254:5 pcap %s\n"
			     "udp listen 10.0.0.254:6 pcap %s\n", old, made);
	snprintf(text + n, sizeof(text) - n,
		 "route add 10.9.0.0/16 via 10.0.1.1\n");
	run_refused(f, text, -EEXIST, "b:3: route 10.9.0.0/16 exists already");
	assert_int_equal(access(made, F_OK), -1);
	assert_int_equal(file_size(old), 7);
	assert_int_equal(f->stack->n_services, 0);
	/* applied: both opened as pcap files */
	text[n] = '\0';
	run_ok(f, text);
	assert_int_equal(f->stack->sh.udp->n, 2);
	/* truncated (the pcap header may still sit in stdio's buffer) */
	assert_int_not_equal(file_size(old), 7);
	assert_int_equal(access(made, F_OK), 0);
	run_ok(f, "udp close 10.0.0.254:5\nudp close 10.0.0.254:6");
	unlink(old);
	unlink(made);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					      unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_bad_line_500_of_1000_changes_nothing),
		T(test_refused_change_mid_batch_changes_nothing),
		T(test_no_memory_at_commit_changes_nothing),
		T(test_views_in_batches),
		T(test_address_del),
		T(test_neigh_del_and_flush),
		T(test_udp_close),
		T(test_filter_del_and_flush),
		T(test_port_mtu_live),
		T(test_port_mtu_reaches_the_device),
		T(test_gro_and_route_cache_live),
		T(test_mode_live),
		T(test_stats_clear),
		T(test_help),
		T(test_batch_line_errors),
		T(test_batch_address_overlap),
		T(test_refused_batch_keeps_pcap_files),
		T(test_ping_refusals),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
