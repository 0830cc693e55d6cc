/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The route cache (route-cache on [entries N]): per worker, a 4-way
 * exact-match cache of destination -> next hop in front of the FIB. Its
 * counters (hits, misses, evictions: round robin in a full bucket), its
 * invalidation by any route or neighbour change (Linux case C22), and
 * that it never changes an answer: on random destinations it gives what
 * the FIB alone gives, and the wire is the same with it on or off.
 *
 * Which bucket a destination falls in depends on a random seed; tests
 * that need it seed DPDK's generator first (rte_srand) and compute the
 * buckets as route_cache.c does.
 */
#include <string.h>

#include <rte_fib.h>
#include <rte_hash_crc.h>
#include <rte_random.h>

#include "unit_common.h"
#include "ip4/ip4.h"

#define WAYS 4

/* Turn the cache on with `entries` and make this worker's now, with a
 * seed we know; returns the seed. */
static uint32_t
cache_on(struct unit_fixture *f, uint32_t entries, uint64_t rseed)
{
	char cmd[64];
	uint32_t seed;

	snprintf(cmd, sizeof(cmd), "route-cache on entries %u", entries);
	rte_srand(rseed);
	seed = (uint32_t)rte_rand();
	rte_srand(rseed);
	/* the control thread makes the worker's cache, drawing its seed */
	unit_cmd(f, cmd);
	assert_non_null(f->worker->ip4w->rcache);
	return seed;
}

static uint32_t
bucket_of(uint32_t dst, uint32_t seed, uint32_t entries)
{
	uint32_t buckets = rte_align32pow2(RTE_MAX(entries, (uint32_t)WAYS)) /
			   WAYS;

	return rte_hash_crc_4byte(dst, seed) & (buckets - 1);
}

/* n destinations in 10.9.0.0/16 (forwarded via B) in the same bucket. */
static void
same_bucket(uint32_t seed, uint32_t entries, uint32_t *dst, unsigned int n)
{
	uint32_t a, want = UINT32_MAX;
	unsigned int k = 0;

	for (a = UNIT_IPV4(10, 9, 0, 1); k < n; a++) {
		uint32_t b = bucket_of(a, seed, entries);

		if (want == UINT32_MAX)
			want = b;
		if (b == want)
			dst[k++] = a;
	}
}

/* One burst of datagrams to dst[0..n) through the worker; each must
 * leave by P1 (10.9.0.0/16 via B). */
static void
burst_to(struct unit_fixture *f, const uint32_t *dst, unsigned int n)
{
	struct rte_mbuf *pkts[LSK_BURST_MAX];
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < n; i++) {
		unit_pkt_init(&p, dst[i]);
		p.payload_len = 18;
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, (uint16_t)n);
	assert_int_equal(unit_tx_udp_to(f, UNIT_P1, 0), n);
	unit_tx_free(f);
}

static void
assert_rc(struct unit_fixture *f, uint64_t hits, uint64_t misses,
	  uint64_t evictions)
{
	struct lsk_stats st = unit_stats(f);

	if (st.route_cache.Hits != hits || st.route_cache.Misses != misses ||
	    st.route_cache.Evictions != evictions)
		fail_msg("route cache %lu/%lu/%lu, expected %lu/%lu/%lu",
			 (unsigned long)st.route_cache.Hits,
			 (unsigned long)st.route_cache.Misses,
			 (unsigned long)st.route_cache.Evictions,
			 (unsigned long)hits, (unsigned long)misses,
			 (unsigned long)evictions);
}

/* A destination misses once and hits after; nothing is evicted while
 * there is room. */
static void
test_hits_and_misses(void **state)
{
	struct unit_fixture *f = *state;
	uint32_t dst[3] = { UNIT_FAR_IP, UNIT_IPV4(10, 9, 1, 1),
			    UNIT_IPV4(10, 9, 2, 2) };

	cache_on(f, 64, 1);
	burst_to(f, dst, 3);
	assert_rc(f, 0, 3, 0);
	burst_to(f, dst, 3);
	assert_rc(f, 3, 3, 0);
	burst_to(f, &dst[1], 1);
	assert_rc(f, 4, 3, 0);
	/* off: the counters stay where they are */
	unit_cmd(f, "route-cache off");
	burst_to(f, dst, 3);
	assert_null(f->worker->ip4w->rcache);
	assert_rc(f, 4, 3, 0);
}

/*
 * A full bucket (4 ways) evicts round robin: the fifth destination takes
 * the first way, the next newcomer the second, and each eviction counts.
 */
static void
test_evictions(void **state)
{
	struct unit_fixture *f = *state;
	uint32_t seed = cache_on(f, 16, 42);
	uint32_t d[6];

	same_bucket(seed, 16, d, 6);
	burst_to(f, d, 4);				/* d0..d3 */
	assert_rc(f, 0, 4, 0);
	burst_to(f, &d[4], 1);				/* evicts d0 */
	assert_rc(f, 0, 5, 1);
	burst_to(f, &d[1], 4);				/* d1..d4 */
	assert_rc(f, 4, 5, 1);
	burst_to(f, &d[0], 1);				/* evicts d1 */
	assert_rc(f, 4, 6, 2);
	burst_to(f, &d[2], 3);				/* d2, d3, d4 */
	burst_to(f, &d[0], 1);
	assert_rc(f, 8, 6, 2);
	burst_to(f, &d[1], 1);				/* gone */
	assert_rc(f, 8, 7, 3);
	/* a sixth takes the next way in turn */
	burst_to(f, &d[5], 1);
	assert_rc(f, 8, 8, 4);
	burst_to(f, &d[4], 1);				/* still there */
	assert_rc(f, 9, 8, 4);
}

/*
 * One burst of datagrams to one new destination takes one way: it must
 * neither evict the bucket's other destinations nor count evictions.
 */
static void
test_one_destination_one_way(void **state)
{
	struct unit_fixture *f = *state;
	uint32_t seed = cache_on(f, 16, 7);
	uint32_t d[4], burst[8];
	unsigned int i;

	same_bucket(seed, 16, d, 4);
	burst_to(f, d, 3);				/* d0..d2 cached */
	for (i = 0; i < 8; i++)
		burst[i] = d[3];
	burst_to(f, burst, 8);
	assert_int_equal(unit_stats(f).route_cache.Evictions, 0);
	burst_to(f, d, 4);				/* all still there */
	assert_int_equal(unit_stats(f).route_cache.Hits, 4);
}

/*
 * C22: a route replaced between two bursts applies to the second: the
 * cache is emptied (it misses again), the datagram leaves by the new
 * route. A neighbour change does the same.
 */
static void
test_invalidation(void **state)
{
	static const struct rte_ether_addr mac = {
		.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x42 } };
	struct unit_fixture *f = *state;
	uint32_t far = UNIT_FAR_IP;
	struct unit_pkt p;

	cache_on(f, 64, 3);
	burst_to(f, &far, 1);
	burst_to(f, &far, 1);
	assert_rc(f, 1, 1, 0);

	unit_cmd(f, "route del 10.9.0.0/16");
	unit_cmd(f, "route add 10.9.0.0/16 via 10.0.0.1");
	unit_pkt_init(&p, UNIT_FAR_IP);
	unit_input_pkt(f, &p);
	assert_int_equal(unit_tx_udp_to(f, UNIT_P0, UNIT_FAR_IP), 1);
	assert_int_equal(unit_tx_udp_to(f, UNIT_P1, UNIT_FAR_IP), 0);
	assert_memory_equal(rte_pktmbuf_mtod(f->tx.pkts[UNIT_P0][0], void *),
			    &unit_a_mac, RTE_ETHER_ADDR_LEN);
	unit_tx_free(f);
	assert_rc(f, 1, 2, 0);

	/* back through B, then B gets a new MAC */
	unit_cmd(f, "route del 10.9.0.0/16");
	unit_cmd(f, "route add 10.9.0.0/16 via 10.0.1.1");
	burst_to(f, &far, 1);
	burst_to(f, &far, 1);
	assert_rc(f, 2, 3, 0);
	unit_cmd(f, "neigh add 10.0.1.1 lladdr 02:00:00:00:01:42");
	unit_input_pkt(f, &p);
	assert_int_equal(f->tx.n[UNIT_P1], 1);
	assert_memory_equal(rte_pktmbuf_mtod(f->tx.pkts[UNIT_P1][0], void *),
			    &mac, RTE_ETHER_ADDR_LEN);
	unit_tx_free(f);
	assert_rc(f, 2, 4, 0);
}

/* A mix of what the table holds: connected hosts (some unresolved),
 * routes, a blackhole inside a route, locals, broadcasts, no route. */
static uint32_t
random_dst(uint64_t *rnd, const uint32_t *pool, unsigned int n)
{
	return pool[unit_rand(rnd) % n];
}

static void
make_pool(uint64_t *rnd, uint32_t *pool, unsigned int n)
{
	static const uint32_t base[] = {
		UNIT_IPV4(10, 0, 0, 0), UNIT_IPV4(10, 0, 1, 0),
		UNIT_IPV4(10, 9, 0, 0), UNIT_IPV4(10, 10, 0, 0),
		UNIT_IPV4(10, 11, 0, 0), UNIT_IPV4(10, 12, 0, 0),
		UNIT_IPV4(192, 168, 0, 0),
	};
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint64_t r = unit_rand(rnd);

		pool[i] = base[r % RTE_DIM(base)] |
			  (uint32_t)((r >> 8) & (r & 0x100 ? 0xff : 0xffff));
		if (pool[i] == 0 || (pool[i] >> 24) == 0)
			pool[i] = UNIT_FAR_IP;
	}
}

static const char *const mix_routes[] = {
	"route add 10.10.0.0/16 via 10.0.0.1",
	"route add 10.11.0.0/24 via 10.0.1.1",
	"route add 10.11.0.128/25 blackhole",
	"route add 10.12.0.0/16 via 10.0.1.1",
};

/*
 * Through the cache (small: most lookups evict) the next hop of every
 * destination is the FIB's, lookup batches with repeats included, and
 * still after the table changes.
 */
static void
test_same_answers_as_fib(void **state)
{
	struct unit_fixture *f = *state;
	uint64_t rnd = 0x726f757465ULL;
	static uint32_t pool[60];
	uint32_t dst[LSK_BURST_MAX];
	uint64_t nh[LSK_BURST_MAX], want[LSK_BURST_MAX];
	unsigned int i, b, k, n;

	for (i = 0; i < RTE_DIM(mix_routes); i++)
		unit_cmd(f, mix_routes[i]);
	make_pool(&rnd, pool, RTE_DIM(pool));
	cache_on(f, 32, 11);
	for (b = 0; b < 60; b++) {
		if (b == 30) {
			unit_cmd(f, "route add 10.12.7.0/24 blackhole");
			unit_cmd(f, "neigh add 10.0.0.9 lladdr "
				 "02:00:00:00:00:09");
		}
		n = 1 + (unsigned int)(unit_rand(&rnd) % LSK_BURST_MAX);
		for (k = 0; k < n; k++)
			dst[k] = random_dst(&rnd, pool, 60);
		lsk_route_cache_lookup(f->worker, dst, nh, n, NULL);
		rte_fib_lookup_bulk(f->worker->fwd->fib, dst, want, (int)n);
		for (k = 0; k < n; k++)
			if (nh[k] != want[k])
				fail_msg("burst %u: %#x -> %lu, FIB %lu", b,
					 dst[k], (unsigned long)nh[k],
					 (unsigned long)want[k]);
	}
	assert_true(unit_stats(f).route_cache.Hits > 1000);
	assert_true(unit_stats(f).route_cache.Evictions > 100);
}

/* n lookups of 32 destinations; returns how many the FIB answered alike */
static unsigned int
lookup_bursts(struct unit_fixture *f, uint32_t (*dst_of)(unsigned int),
	      unsigned int bursts, unsigned int *seq)
{
	uint32_t dst[32];
	uint64_t nh[32], want[32];
	unsigned int b, k, same = 0;

	for (b = 0; b < bursts; b++) {
		for (k = 0; k < 32; k++)
			dst[k] = dst_of((*seq)++);
		lsk_route_cache_lookup(f->worker, dst, nh, 32, NULL);
		rte_fib_lookup_bulk(f->worker->fwd->fib, dst, want, 32);
		for (k = 0; k < 32; k++)
			same += nh[k] == want[k];
	}
	return same;
}

/* a new destination every lookup: the cache never hits */
static uint32_t
scan_dst(unsigned int i)
{
	return UNIT_IPV4(10, 9, 0, 0) + 1 + i % 65000;
}

/* 8 destinations over and over: nearly every lookup hits */
static uint32_t
hot_dst(unsigned int i)
{
	return UNIT_IPV4(10, 9, 1, 1) + i % 8;
}

/*
 * A cache that hits too little steps aside: after 1024 lookups of a scan
 * (no hit) the next 1024 bursts go to the FIB alone, counted Bypassed,
 * with the same answers; then it samples again, finds a hot set and
 * caches again. Every lookup is counted once: Hits + Misses + Bypassed.
 */
static void
test_bypass_when_useless(void **state)
{
	struct unit_fixture *f = *state;
	unsigned int seq = 0, total = 0;
	struct lsk_stats st;

	cache_on(f, 4096, 5);
	total += 32 * 32;
	assert_int_equal(lookup_bursts(f, scan_dst, 32, &seq), 32 * 32);
	st = unit_stats(f);
	assert_int_equal(st.route_cache.Misses, 1024);
	assert_int_equal(st.route_cache.Bypassed, 0);

	/* bypassed: a hot set now is not looked up in the cache yet */
	total += 1024 * 32;
	assert_int_equal(lookup_bursts(f, hot_dst, 1024, &seq), 1024 * 32);
	st = unit_stats(f);
	assert_int_equal(st.route_cache.Bypassed, 1024 * 32);
	assert_int_equal(st.route_cache.Hits + st.route_cache.Misses, 1024);

	/* sampling again: the hot set hits and keeps the cache on */
	total += 64 * 32;
	assert_int_equal(lookup_bursts(f, hot_dst, 64, &seq), 64 * 32);
	st = unit_stats(f);
	assert_int_equal(st.route_cache.Bypassed, 1024 * 32);
	assert_true(st.route_cache.Hits >= 64 * 32 - 8);
	assert_int_equal(st.route_cache.Hits + st.route_cache.Misses +
			 st.route_cache.Bypassed, total);
}

/*
 * The same random traffic through two stacks, one with a small cache:
 * the same frames leave, in the same order, and every counter but the
 * cache's agrees.
 */
static void
test_same_wire_as_without(void **state)
{
	struct unit_fixture *on = *state, *off;
	struct unit_fixture *both[2];
	struct lsk_udp_ep *ep[2];
	static uint32_t pool[300];
	uint64_t rnd = 0x77697265ULL, r2;
	struct lsk_stats x, y;
	unsigned int i, k, b, port, n;

	off = unit_fixture_create(LSK_MODE_LIST);
	assert_non_null(off);
	both[0] = off;
	both[1] = on;
	for (k = 0; k < 2; k++) {
		for (i = 0; i < RTE_DIM(mix_routes); i++)
			unit_cmd(both[k], mix_routes[i]);
		/* locals are listened for: no ICMP, whose rate limit
		 * depends on time */
		ep[k] = unit_bind(both[k], 0, 2000, NULL);
	}
	cache_on(on, 16, 5);
	make_pool(&rnd, pool, RTE_DIM(pool));
	/* only what is routed without ICMP: forwarded to A or B or via
	 * them, blackholed, or ours */
	for (i = 0; i < RTE_DIM(pool); i++) {
		uint32_t a = pool[i];

		if ((a >> 16) == UNIT_IPV4(10, 0, 0, 0) >> 16)
			pool[i] = i % 3 ? UNIT_A_IP : UNIT_P0_IP;
		else if ((a >> 16) == UNIT_IPV4(192, 168, 0, 0) >> 16 ||
			 (a >> 8) == UNIT_IPV4(10, 11, 1, 0) >> 8 ||
			 (a >> 16) == UNIT_IPV4(10, 11, 0, 0) >> 16)
			pool[i] = i % 2 ? UNIT_B_IP : UNIT_IPV4(10, 11, 0, 200);
	}
	for (b = 0; b < 20; b++) {
		struct rte_mbuf *pkts[2][128];
		struct unit_pkt p;

		r2 = rnd;
		for (k = 0; k < 2; k++) {
			rnd = r2;
			for (i = 0; i < 128; i++) {
				unit_pkt_init(&p, random_dst(&rnd, pool,
							     RTE_DIM(pool)));
				p.id = (uint16_t)(b * 128 + i);
				p.payload_len = 18;
				pkts[k][i] = unit_pkt_mbuf(&p);
			}
			unit_input(both[k], pkts[k], 128);
		}
		for (port = 0; port < 2; port++) {
			n = off->tx.n[port];
			assert_int_equal(on->tx.n[port], n);
			for (i = 0; i < n; i++)
				assert_memory_equal(
					rte_pktmbuf_mtod(off->tx.pkts[port][i],
							 void *),
					rte_pktmbuf_mtod(on->tx.pkts[port][i],
							 void *),
					rte_pktmbuf_data_len(
						off->tx.pkts[port][i]));
		}
		unit_tx_free(off);
		unit_tx_free(on);
		unit_recv_free(ep[0], 1024);
		unit_recv_free(ep[1], 1024);
	}
	x = unit_stats(off);
	y = unit_stats(on);
	assert_memory_equal(&x.ip, &y.ip, sizeof(x.ip));
	assert_memory_equal(&x.udp, &y.udp, sizeof(x.udp));
	assert_memory_equal(&x.icmp, &y.icmp, sizeof(x.icmp));
	assert_int_equal(x.route_cache.Hits + x.route_cache.Misses, 0);
	assert_int_equal(y.route_cache.Hits + y.route_cache.Misses,
			 20 * 128);
	assert_true(y.route_cache.Hits > 0 && y.route_cache.Evictions > 0);
	assert_int_equal(x.icmp.OutMsgs, 0);
	unit_close(off, ep[0]);
	unit_close(on, ep[1]);
	unit_fixture_destroy(off);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_hits_and_misses),
		T(test_evictions),
		T(test_one_destination_one_way),
		T(test_invalidation),
		T(test_same_answers_as_fib),
		T(test_bypass_when_useless),
		T(test_same_wire_as_without),
	};

	return cmocka_run_group_tests_name("route_cache", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
