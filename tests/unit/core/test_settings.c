/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control thread changes the settings a worker follows (GRO's flows
 * and segments, the route cache's size) while a worker thread forwards
 * trains of one flow. A change takes effect between bursts: every
 * datagram leaves, none is lost or duplicated, every mbuf comes back
 * (the fixture checks at teardown). Bounded iterations and no timing.
 */
#include <string.h>

#include "unit_common.h"

#define CHANGES 120		/* settings changes */
#define MIN_BURSTS 300		/* the worker's bursts, at least */
#define BURST 32

struct settings_race {
	struct unit_race w;		/* the worker thread (unit_common.h) */
	/* the worker thread's alone until it is joined */
	uint64_t out, bad;
	uint16_t next_id;
};

/* Checks and frees what the worker sends: datagrams to UNIT_FAR_IP by
 * port 1, each one frame. */
static uint16_t
settings_tx(void *arg, uint16_t port, uint16_t queue, struct rte_mbuf **pkts,
	    uint16_t n)
{
	struct settings_race *r = arg;
	uint16_t i;

	(void)queue;
	for (i = 0; i < n; i++) {
		const struct rte_ether_hdr *eh =
			rte_pktmbuf_mtod(pkts[i], const struct rte_ether_hdr *);
		const struct rte_ipv4_hdr *ip = (const void *)(eh + 1);

		if (port != UNIT_P1 ||
		    eh->ether_type != RTE_BE16(RTE_ETHER_TYPE_IPV4) ||
		    ip->next_proto_id != IPPROTO_UDP ||
		    rte_be_to_cpu_32(ip->dst_addr) != UNIT_FAR_IP ||
		    pkts[i]->nb_segs != 1)
			r->bad++;
		r->out++;
		rte_pktmbuf_free(pkts[i]);
	}
	return n;
}

/* Two flows: GRO, when on, makes trains of them. */
static uint16_t
settings_burst(void *arg, struct rte_mbuf **pkts)
{
	struct settings_race *r = arg;
	struct unit_pkt p;
	uint16_t i;

	for (i = 0; i < BURST; i++) {
		unit_pkt_init(&p, UNIT_FAR_IP);
		p.id = r->next_id++;
		/* two flows interleaved: with one train open at most, each
		 * closes the other's */
		p.sport = (uint16_t)(1000 + (i & 1));
		pkts[i] = unit_pkt_mbuf(&p);
		assert_non_null(pkts[i]);
	}
	return BURST;
}

static void
test_settings_change_while_forwarding(void **state)
{
	static const uint32_t flows[] = { 64, 1, 0, 4, 256, 2 };
	static const uint32_t segs[] = { 64, 2, 0, 8, 64, 3 };
	static const uint32_t entries[] = { 64, 0, 4096, 4 };
	struct unit_fixture *f = *state;
	static struct settings_race r;
	struct lsk_stats st;
	unsigned int i;

	memset(&r, 0, sizeof(r));
	r.w = (struct unit_race){ .f = f, .burst = settings_burst, .arg = &r,
				  .min_bursts = MIN_BURSTS };
	lsk_worker_set_tx_fn(f->worker, settings_tx, &r);
	unit_cmd(f, "gro fraglist flows 64 segs 64");

	unit_race_start(&r.w);
	for (i = 0; i < CHANGES; i++) {
		unsigned int g = i % RTE_DIM(flows);

		assert_int_equal(lsk_gro_set(f->stack, flows[g], segs[g]), 0);
		assert_int_equal(lsk_route_cache_set(f->stack,
				 entries[i % RTE_DIM(entries)]), 0);
	}
	unit_race_join(&r.w);

	assert_int_equal(lsk_stats_read(f->stack, &st), 0);
	assert_int_equal(r.bad, 0);
	assert_int_equal(r.out, r.w.sent);
	assert_int_equal(st.ip.ForwDatagrams, r.w.sent);
	assert_int_equal(st.ip.InDiscards + st.ip.OutDiscards +
			 st.ip.InNoRoutes + st.ip.InHdrErrors, 0);
	/* the worker did see GRO and the cache on at times */
	assert_true(st.gro.Trains > 0);
	assert_true(st.route_cache.Hits + st.route_cache.Misses > 0);
}

/* Settings changed with the worker between bursts (one thread): the
 * next burst follows them, the cache is the new size or gone. */
static void
test_settings_follow_between_bursts(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[8];
	struct lsk_stats st;
	struct unit_pkt p;
	unsigned int i;

	unit_cmd(f, "gro fraglist flows 64 segs 64");
	for (i = 0; i < 8; i++) {
		unit_pkt_init(&p, UNIT_FAR_IP);
		p.id = (uint16_t)i;
		pkts[i] = unit_pkt_mbuf(&p);
	}
	lsk_worker_input(f->worker, pkts, 8);
	lsk_worker_flush(f->worker);
	assert_int_equal(lsk_stats_read(f->stack, &st), 0);
	assert_int_equal(st.gro.Trains, 1);
	assert_int_equal(st.gro.Merged, 7);

	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_gro_set(f->stack, 0, 0), 0);
	assert_int_equal(lsk_route_cache_set(f->stack, 16), 0);
	assert_non_null(f->worker->ip4w->rcache_pub);
	for (i = 0; i < 16; i++) {
		unit_pkt_init(&p, UNIT_FAR_IP);
		pkts[i % 8] = unit_pkt_mbuf(&p);
		if (i % 8 == 7) {
			lsk_worker_input(f->worker, pkts, 8);
			lsk_worker_flush(f->worker);
		}
	}
	assert_int_equal(lsk_stats_read(f->stack, &st), 0);
	assert_int_equal(st.gro.Trains, 1);	/* GRO off: no new train */
	/* the first burst misses (a burst's misses are looked up once),
	 * the second hits */
	assert_int_equal(st.route_cache.Misses, 8);
	assert_int_equal(st.route_cache.Hits, 8);
	assert_int_equal(st.ip.ForwDatagrams, 24);

	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_route_cache_set(f->stack, 0), 0);
	assert_null(f->worker->ip4w->rcache_pub);
	assert_int_equal(lsk_route_cache_set(f->stack, 1u << 25), -EINVAL);
	assert_null(f->worker->ip4w->rcache_pub);
	assert_int_equal(lsk_gro_set(f->stack, 1000, 64), -EINVAL);
	assert_int_equal(f->stack->sh.settings.gro_flows, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_settings_change_while_forwarding,
			unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(
			test_settings_follow_between_bursts,
			unit_setup_list, unit_teardown),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
