/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The UDP endpoint API of include/listack/udp.h as an application uses
 * it: lsk_udp_bind's errors, lsk_udp_close freeing what is queued,
 * lsk_udp_recv_burst (never more than n, in order, one dequeue),
 * lsk_udp_recv_burst_timeout (its timeout holds while datagrams trickle
 * in), and lsk_udp_send_burst with and without gso_size: which sizes are
 * refused (-EMSGSIZE: GSO pieces over the MTU, the 64 KiB payload, 64
 * segments), datagrams over the MTU leaving in fragments, and
 * what each datagram carries once worker 0 routes it at lsk_worker_flush
 * (IP ID, lengths, IP and UDP checksums, payload), as Linux case E13
 * and udpgso.c check it.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ring.h>

#include "unit_common.h"

#define IP(b) ((b) + UNIT_ETH_LEN)

static double
now_ms(void)
{
	return (double)rte_get_timer_cycles() * 1000.0 /
	       (double)rte_get_timer_hz();
}

static const struct lsk_udp_bind_opts pool_opts = {
	.socket_id = SOCKET_ID_ANY,
};

/* An endpoint that sends from the unit pool. */
static struct lsk_udp_ep *
bind_sender(struct unit_fixture *f, uint32_t addr, uint16_t port)
{
	struct lsk_udp_bind_opts o = pool_opts;

	o.pool = unit_pool;
	return unit_bind(f, addr, port, &o);
}

/* n datagrams from A to ep's address:port, through the worker. */
static void
deliver(struct unit_fixture *f, uint32_t dst, uint16_t port, unsigned int n)
{
	struct rte_mbuf *pkts[LSK_BURST_MAX];
	struct unit_pkt p;
	unsigned int i;

	assert_true(n <= LSK_BURST_MAX);
	unit_pkt_init(&p, dst);
	p.dport = port;
	p.payload_len = 32;
	for (i = 0; i < n; i++) {
		p.sport = (uint16_t)(1000 + i);
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, (uint16_t)n);
}

/* ------------------------------------------------------------- bind */

static void
test_bind_errors(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_bind_opts big = pool_opts;
	struct lsk_udp_ep *e0, *any, *e1, *ep = NULL;

	e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	assert_int_equal(lsk_udp_ep_addr(e0), UNIT_P0_IP);
	assert_int_equal(lsk_udp_ep_port(e0), 2000);
	/* the same address:port again */
	assert_int_equal(unit_bind_rc(f, UNIT_P0_IP, 2000, NULL, &ep),
			 -EADDRINUSE);
	/* the wildcard and the other address are other endpoints */
	any = unit_bind(f, 0, 2000, NULL);
	assert_int_equal(unit_bind_rc(f, 0, 2000, NULL, &ep), -EADDRINUSE);
	e1 = unit_bind(f, UNIT_P1_IP, 2000, NULL);

	/* not one of our addresses: a peer, a broadcast, a stranger */
	assert_int_equal(unit_bind_rc(f, UNIT_A_IP, 2000, NULL, &ep),
			 -EADDRNOTAVAIL);
	assert_int_equal(unit_bind_rc(f, UNIT_IPV4(10, 0, 0, 255), 2000, NULL,
				      &ep), -EADDRNOTAVAIL);
	assert_int_equal(unit_bind_rc(f, UNIT_IPV4(192, 168, 1, 1), 2001,
				      NULL, &ep), -EADDRNOTAVAIL);
	/* port 0, no place for the result, an impossible ring */
	assert_int_equal(unit_bind_rc(f, UNIT_P0_IP, 0, NULL, &ep), -EINVAL);
	assert_int_equal(unit_bind_rc(f, 0, 0, NULL, &ep), -EINVAL);
	assert_int_equal(unit_bind_rc(f, UNIT_P0_IP, 2001, NULL, NULL),
			 -EINVAL);
	big.ring_size = RTE_RING_SZ_MASK + 1;
	assert_int_equal(unit_bind_rc(f, UNIT_P0_IP, 2001, &big, &ep),
			 -EINVAL);
	assert_null(ep);

	/* a refused bind changed nothing: E0 still gets its datagrams */
	deliver(f, UNIT_P0_IP, 2000, 1);
	assert_int_equal(unit_recv_free(e0, 4), 1);

	/* once closed, the address:port is free again */
	unit_close(f, e0);
	e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	unit_close(f, e0);
	unit_close(f, any);
	unit_close(f, e1);
}

/*
 * Closing an endpoint frees what its ring still holds; what the
 * application took before stays its own; afterwards nothing reaches it
 * (the datagram finds no port).
 */
static void
test_close_frees_queued(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct lsk_udp_msg msgs[5];
	unsigned int i;

	deliver(f, UNIT_P0_IP, 2000, 20);
	assert_int_equal(unit_pool_in_use(), f->in_use_start + 20);
	assert_int_equal(lsk_udp_recv_burst(e0, msgs, 5), 5);
	unit_close(f, e0);
	assert_int_equal(unit_pool_in_use(), f->in_use_start + 5);
	for (i = 0; i < 5; i++) {
		assert_int_equal(msgs[i].src_port, 1000 + i);
		assert_int_equal(msgs[i].len, 32);
		rte_pktmbuf_free(msgs[i].mbuf);
	}
	assert_int_equal(unit_pool_in_use(), f->in_use_start);

	deliver(f, UNIT_P0_IP, 2000, 1);
	assert_int_equal(unit_stats(f).udp.NoPorts, 1);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 3, 3), 1);
	unit_tx_free(f);
	assert_int_equal(unit_pool_in_use(), f->in_use_start);
}


/*
 * Finding 9: a bind or close whose endpoint table cannot be built (EAL
 * memory used up) leaves the published table in force, whole: a closed
 * endpoint that table still names stays alive (whatever reached it is
 * freed with it once a table without it is published), a refused bind
 * binds nothing, and nothing leaks.
 */
static void
test_bind_close_without_memory(void **state)
{
	struct unit_fixture *f = *state;
	size_t heap = unit_heap_allocated();
	struct lsk_udp_ep *e0, *e1, *ep = NULL;
	struct lsk_stats st;

	e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	e1 = unit_bind(f, UNIT_P0_IP, 2001, NULL);
	unit_eat_memory();
	assert_int_equal(unit_bind_rc(f, UNIT_P0_IP, 2002, NULL, &ep),
			 -ENOMEM);
	unit_close(f, e0);
	/* whatever the closed endpoint's memory was, it is not free */
	unit_eat_memory();
	deliver(f, UNIT_P0_IP, 2000, 1);
	deliver(f, UNIT_P0_IP, 2001, 1);
	deliver(f, UNIT_P0_IP, 2002, 1);
	st = unit_stats(f);
	assert_int_equal(st.udp.InDatagrams, 2);
	assert_int_equal(st.udp.NoPorts, 1);
	assert_int_equal(unit_recv_free(e1, 4), 1);
	unit_tx_free(f);
	unit_free_memory();

	/* the next table published reclaims the closed endpoint */
	ep = unit_bind(f, UNIT_P0_IP, 2002, NULL);
	assert_int_equal(unit_pool_in_use(), f->in_use_start);
	deliver(f, UNIT_P0_IP, 2000, 1);
	assert_int_equal(unit_stats(f).udp.NoPorts, 2);
	unit_tx_free(f);
	unit_close(f, ep);
	unit_close(f, e1);
	assert_int_equal(unit_heap_allocated(), heap);
}

/* ---------------------------------------------------------- receive */

/*
 * F1, F2: never more than n, in arrival order, what is left stays queued
 * for the next call, and the messages past the count are not touched.
 */
static void
test_recv_burst_at_most_n(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct lsk_udp_msg msgs[8], canary;
	unsigned int i, next = 0;
	int k;

	memset(&canary, 0x5a, sizeof(canary));
	deliver(f, UNIT_P0_IP, 2000, 10);
	assert_int_equal(lsk_udp_recv_burst(e0, msgs, 0), 0);
	assert_int_equal(lsk_udp_recv_burst(e0, NULL, 0), 0);
	assert_int_equal(lsk_udp_recv_burst(NULL, msgs, 1), -EINVAL);
	assert_int_equal(lsk_udp_recv_burst(e0, NULL, 1), -EINVAL);
	while (next < 10) {
		for (i = 0; i < RTE_DIM(msgs); i++)
			msgs[i] = canary;
		k = lsk_udp_recv_burst(e0, msgs, 3);
		assert_int_equal(k, RTE_MIN(3u, 10 - next));
		for (i = 0; i < (unsigned int)k; i++, next++) {
			assert_int_equal(msgs[i].src_addr, UNIT_A_IP);
			assert_int_equal(msgs[i].dst_addr, UNIT_P0_IP);
			assert_int_equal(msgs[i].src_port, 1000 + next);
			assert_int_equal(msgs[i].dst_port, 2000);
			assert_int_equal(msgs[i].in_port, UNIT_P0);
			assert_int_equal(msgs[i].len, 32);
			assert_ptr_equal(msgs[i].payload,
				rte_pktmbuf_mtod_offset(msgs[i].mbuf, void *,
					UNIT_ETH_LEN + 28));
			rte_pktmbuf_free(msgs[i].mbuf);
		}
		for (; i < RTE_DIM(msgs); i++)
			assert_memory_equal(&msgs[i], &canary,
					    sizeof(canary));
		assert_int_equal(rte_ring_count(e0->ring), 10 - next);
	}
	assert_int_equal(lsk_udp_recv_burst(e0, msgs, 8), 0);
	unit_close(f, e0);
}

/* A producer standing in for a worker: one datagram every period_us. */
struct trickle {
	struct rte_ring *ring;
	struct rte_mbuf *pkts[64];
	unsigned int n, sent;
	unsigned int period_us;
	volatile bool stop;
};

static void *
trickle_run(void *arg)
{
	struct trickle *t = arg;

	while (!t->stop && t->sent < t->n) {
		struct timespec ts = { 0, (long)t->period_us * 1000 };
		struct lsk_udp_slot slot;

		nanosleep(&ts, NULL);
		lsk_udp_slot_fill(&slot, t->pkts[t->sent], false);
		if (rte_ring_mp_enqueue_elem(t->ring, &slot,
					     sizeof(slot)) == 0)
			__atomic_add_fetch(&t->sent, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/*
 * The timeout holds: n datagrams never come together, one arrives every
 * 2 ms, and the call still returns about when its 30 ms are up, with what
 * had come by then, in one dequeue.
 */
static void
test_recv_timeout_with_trickle(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	static struct trickle t;
	struct lsk_udp_msg msgs[64];
	struct unit_pkt p;
	pthread_t th;
	double start, took;
	unsigned int i, sent;
	int k;

	memset(&t, 0, sizeof(t));
	unit_pkt_init(&p, UNIT_P0_IP);
	p.payload_len = 8;
	t.n = RTE_DIM(t.pkts);
	for (i = 0; i < t.n; i++) {
		p.sport = (uint16_t)(1000 + i);
		t.pkts[i] = unit_pkt_mbuf(&p);
	}
	t.ring = e0->ring;
	t.period_us = 2000;
	assert_int_equal(pthread_create(&th, NULL, trickle_run, &t), 0);

	start = now_ms();
	k = lsk_udp_recv_burst_timeout(e0, msgs, 64, 30 * 1000);
	took = now_ms() - start;
	sent = __atomic_load_n(&t.sent, __ATOMIC_ACQUIRE);
	t.stop = true;
	pthread_join(th, NULL);

	print_message("trickle: %d of 64 in %.1f ms (%u sent)\n", k, took,
		      sent);
	assert_true(took >= 29.9);
	assert_true(took < 30 + 200);		/* not until 64 came */
	assert_true(k >= 1 && k < 64);
	assert_true((unsigned int)k <= sent);
	for (i = 0; i < (unsigned int)k; i++) {
		assert_int_equal(msgs[i].src_port, 1000 + i);
		rte_pktmbuf_free(msgs[i].mbuf);
	}
	/* the rest: what arrived after, and what never went */
	assert_int_equal(unit_recv_free(e0, 64), t.sent - (unsigned int)k);
	for (i = t.sent; i < t.n; i++)
		rte_pktmbuf_free(t.pkts[i]);
	unit_close(f, e0);
}

/* With n queued it returns at once; with nothing it waits its timeout
 * and returns 0; never more than n. */
static void
test_recv_timeout_bounds(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct lsk_udp_msg msgs[8];
	double start, took;
	int k, i;

	start = now_ms();
	assert_int_equal(lsk_udp_recv_burst_timeout(e0, msgs, 8, 20 * 1000),
			 0);
	took = now_ms() - start;
	assert_true(took >= 19.9 && took < 20 + 200);

	deliver(f, UNIT_P0_IP, 2000, 7);
	start = now_ms();
	k = lsk_udp_recv_burst_timeout(e0, msgs, 5, 5 * 1000 * 1000);
	took = now_ms() - start;
	assert_int_equal(k, 5);
	assert_true(took < 200);
	for (i = 0; i < k; i++) {
		assert_int_equal(msgs[i].src_port, 1000 + i);
		rte_pktmbuf_free(msgs[i].mbuf);
	}
	/* fewer than n queued: all of them once the time is up */
	k = lsk_udp_recv_burst_timeout(e0, msgs, 8, 10 * 1000);
	assert_int_equal(k, 2);
	for (i = 0; i < k; i++)
		rte_pktmbuf_free(msgs[i].mbuf);
	assert_int_equal(lsk_udp_recv_burst_timeout(NULL, msgs, 1, 0),
			 -EINVAL);
	unit_close(f, e0);
}

/* ------------------------------------------------------------- send */

/* The bytes of message k of a test: distinct per byte and message. */
static void
fill_payload(uint8_t *p, uint32_t len, unsigned int k)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 13 + k * 101 + (i >> 8));
}

static uint8_t payload[LSK_UDP_MAX_PAYLOAD + 1];

/* What a send's datagrams must look like on the wire. */
struct send_want {
	uint32_t src, dst;
	uint16_t sport, dport;
	uint16_t first_id;
	uint16_t seg;			/* gso_size, or the whole length */
	uint32_t len;			/* the message's payload */
	const uint8_t *payload;
	const struct rte_ether_addr *dst_mac, *src_mac;
};

/* frames[0..n) are the datagrams of one message, in order. */
static void
assert_datagrams(struct rte_mbuf *const *frames, unsigned int n,
		 const struct send_want *w)
{
	uint32_t off = 0;
	unsigned int i;

	assert_int_equal(n, w->len == 0 ? 1 : (w->len + w->seg - 1) / w->seg);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = frames[i];
		const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);
		const uint8_t *ip = IP(b), *udp = ip + 20;
		uint32_t len = RTE_MIN((uint32_t)w->seg, w->len - off);

		assert_int_equal(m->nb_segs, 1);
		assert_int_equal(rte_pktmbuf_pkt_len(m),
				 UNIT_ETH_LEN + 28 + len);
		assert_memory_equal(b, w->dst_mac, RTE_ETHER_ADDR_LEN);
		assert_memory_equal(b + 6, w->src_mac, RTE_ETHER_ADDR_LEN);
		assert_int_equal(get16(b + 12), RTE_ETHER_TYPE_IPV4);
		assert_int_equal(ip[0], 0x45);
		assert_int_equal(ip[1], 0);
		assert_int_equal(get16(ip + 2), 28 + len);
		assert_int_equal(get16(ip + 4), (uint16_t)(w->first_id + i));
		assert_int_equal(get16(ip + 6), 0x4000);	/* DF */
		assert_int_equal(ip[8], 64);
		assert_int_equal(ip[9], IPPROTO_UDP);
		assert_int_equal(unit_ip4_hdr_sum(ip), 0);
		assert_int_equal(get32(ip + 12), w->src);
		assert_int_equal(get32(ip + 16), w->dst);
		assert_int_equal(get16(udp), w->sport);
		assert_int_equal(get16(udp + 2), w->dport);
		assert_int_equal(get16(udp + 4), 8 + len);
		assert_true(unit_udp_csum_ok(m));
		assert_memory_equal(udp + 8, w->payload + off, len);
		off += len;
	}
	assert_int_equal(off, w->len);
}

/*
 * Send one message of len bytes with gso_size from ep to B:7000; NULL
 * expectations are for a refused send (rc). Returns the send's result.
 */
static int
send_one(struct unit_fixture *f, struct lsk_udp_ep *ep, uint32_t len,
	 uint16_t gso_size, uint16_t *next_id, unsigned int k)
{
	struct lsk_udp_msg msg = {
		.dst_addr = UNIT_B_IP, .dst_port = 7000,
		.gso_size = gso_size, .len = len, .payload = payload,
	};
	struct send_want w = {
		.src = UNIT_P1_IP, .dst = UNIT_B_IP,
		.sport = lsk_udp_ep_port(ep), .dport = 7000,
		.first_id = *next_id, .len = len, .payload = payload,
		.seg = gso_size && gso_size < len ? gso_size : (uint16_t)len,
		.dst_mac = &unit_b_mac, .src_mac = &unit_p1_mac,
	};
	struct lsk_stats before = unit_stats(f), after;
	unsigned int n;
	int rc;

	fill_payload(payload, len, k);
	rc = lsk_udp_send_burst(ep, &msg, 1);
	if (rc < 0) {
		lsk_worker_flush(f->worker);
		assert_int_equal(unit_tx_count(f), 0);
		return rc;
	}
	assert_int_equal(rc, 1);
	n = w.len && w.seg ? (len + w.seg - 1) / w.seg : 1;
	/* queued for worker 0, which sends them at its flush */
	assert_int_equal(rte_ring_count(f->stack->sh.out_ring), n);
	assert_int_equal(unit_tx_count(f), 0);
	lsk_worker_flush(f->worker);
	assert_int_equal(rte_ring_count(f->stack->sh.out_ring), 0);
	assert_int_equal(unit_tx_count(f), f->tx.n[UNIT_P1]);
	assert_datagrams(f->tx.pkts[UNIT_P1], f->tx.n[UNIT_P1], &w);
	after = unit_stats(f);
	assert_int_equal(after.udp.OutDatagrams - before.udp.OutDatagrams,
			 n);
	unit_tx_free(f);
	*next_id = (uint16_t)(*next_id + n);
	return rc;
}

/*
 * E13 with the IP MTU 1500 (1472 bytes of payload a datagram): without
 * gso_size up to 1472 leaves as one datagram; with gso_size the payload
 * is cut in gso_size pieces (the last shorter); a piece over the MTU,
 * more than 65507 bytes or more than 64 pieces is -EMSGSIZE and nothing
 * is sent (larger datagrams without gso_size: test_send_fragmented).
 */
static void
test_send_gso_sizes(void **state)
{
	static const struct {
		uint32_t len;
		uint16_t gso;
		int rc;		/* 0: sent */
	} cases[] = {
		{ 1, 0, 0 },
		{ 1472, 0, 0 },
		{ 1472, 1472, 0 },		/* one: no GSO needed */
		{ 1473, 1472, 0 },		/* 1472 + 1 */
		{ 2944, 1472, 0 },		/* 2 x 1472 */
		{ 2945, 1472, 0 },		/* 2 x 1472 + 1 */
		{ 1000, 1473, 0 },		/* gso_size over the payload */
		{ 2000, 1473, -EMSGSIZE },	/* pieces over the MTU */
		{ 3000, 1000, 0 },		/* exactly 3 */
		{ 5, 2, 0 },			/* 2 + 2 + 1 */
		{ 1, 1, 0 },
		{ 64, 1, 0 },			/* 64 segments */
		{ 65, 1, -EMSGSIZE },		/* 65 */
		{ 65 * 1000, 1000, -EMSGSIZE },
		{ 64 * 1000, 1000, 0 },
		{ 64768, 1472, 0 },		/* 44 x 1472 */
		{ LSK_UDP_MAX_PAYLOAD, 1472, 0 },	/* 44 x 1472 + 739 */
		{ LSK_UDP_MAX_PAYLOAD + 1, 1472, -EMSGSIZE },
		{ LSK_UDP_MAX_PAYLOAD + 1, 0, -EMSGSIZE },
	};
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = bind_sender(f, 0, 6000);
	uint16_t next_id = 1;		/* a new endpoint's first ID */
	unsigned int i;

	for (i = 0; i < RTE_DIM(cases); i++) {
		int rc = send_one(f, ep, cases[i].len, cases[i].gso,
				  &next_id, i);

		if (rc != (cases[i].rc ? cases[i].rc : 1))
			fail_msg("len %u gso_size %u: %d, expected %d",
				 cases[i].len, cases[i].gso, rc,
				 cases[i].rc ? cases[i].rc : 1);
	}
	assert_int_equal(unit_stats(f).gso.Segments, 0);
	unit_close(f, ep);
}

/* GSO's pieces must fit the largest MTU of the ports: at it, and one
 * over. */
static void
test_send_mtu_limit(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep;
	uint16_t next_id = 1;

	unit_cmd(f, "port 0 mtu 1000");
	unit_cmd(f, "port 1 mtu 1200");
	ep = bind_sender(f, 0, 6000);
	assert_int_equal(send_one(f, ep, 1172, 0, &next_id, 1), 1);
	assert_int_equal(send_one(f, ep, 5000, 1172, &next_id, 3), 1);
	assert_int_equal(send_one(f, ep, 5000, 1173, &next_id, 4),
			 -EMSGSIZE);

	/* under the largest MTU but over the egress port's: accepted, then
	 * fragmented by worker 0 (test_ip4_output.c checks the pieces) */
	unit_cmd(f, "port 1 mtu 1000");
	unit_cmd(f, "port 0 mtu 1500");
	assert_int_equal(lsk_udp_send_burst(ep, &(struct lsk_udp_msg){
		.dst_addr = UNIT_B_IP, .dst_port = 7000, .len = 1400,
		.payload = payload }, 1), 1);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_tx_count(f), 2);
	unit_tx_free(f);
	assert_int_equal(unit_stats(f).ip.FragOKs, 1);
	assert_int_equal(unit_stats(f).ip.FragFails, 0);
	unit_close(f, ep);
}

/*
 * Datagrams over the MTU and over one mbuf, without gso_size, leave as
 * Linux's UDP sends them (IP_PMTUDISC_WANT): one datagram in fragments
 * of the egress MTU, DF clear, which put together carry the UDP header
 * with the whole length, a valid checksum over the whole and the
 * payload byte for byte; 65507 bytes, the most, in 45 fragments.
 */
static void
test_send_fragmented(void **state)
{
	static const uint32_t lens[] = { 1473, 3000, 16000,
					 LSK_UDP_MAX_PAYLOAD };
	static uint8_t frame[UNIT_ETH_LEN + 65535], dgram[65535];
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = bind_sender(f, 0, 6000);
	unsigned int i, k;

	for (i = 0; i < RTE_DIM(lens); i++) {
		struct lsk_udp_msg msg = { .dst_addr = UNIT_B_IP,
			.dst_port = 7000, .len = lens[i], .payload = payload };
		uint32_t got = 0, want = 8 + lens[i];
		struct rte_ipv4_hdr *ip;
		uint16_t ck;

		fill_payload(payload, lens[i], 40 + i);
		assert_int_equal(lsk_udp_send_burst(ep, &msg, 1), 1);
		lsk_worker_flush(f->worker);
		assert_int_equal(f->tx.n[UNIT_P1], (want + 1479) / 1480);
		for (k = 0; k < f->tx.n[UNIT_P1]; k++) {
			size_t n = unit_mbuf_bytes(f->tx.pkts[UNIT_P1][k],
						   frame, sizeof(frame));
			const uint8_t *h = frame + UNIT_ETH_LEN;
			uint16_t fo = get16(h + 6);

			assert_int_equal(fo & 0x4000, 0);	/* DF */
			assert_int_equal((fo & 0x1fff) * 8u, got);
			assert_int_equal(!!(fo & 0x2000),
					 k + 1 < f->tx.n[UNIT_P1]);
			assert_true(n <= UNIT_ETH_LEN + 1500u);
			assert_int_equal(unit_ip4_hdr_sum(h), 0);
			memcpy(dgram + 20 + got, h + 20, n - UNIT_ETH_LEN - 20);
			if (k == 0)
				memcpy(dgram, h, 20);
			got += (uint32_t)(n - UNIT_ETH_LEN - 20);
		}
		assert_int_equal(got, want);
		ip = (struct rte_ipv4_hdr *)dgram;
		ip->total_length = rte_cpu_to_be_16((uint16_t)(20 + want));
		ip->fragment_offset = 0;
		assert_int_equal(get16(dgram + 20 + 4), want);	/* UDP length */
		/* the checksum sent is the one of the whole */
		ck = get16(dgram + 26);
		memset(dgram + 26, 0, 2);
		assert_int_equal(rte_be_to_cpu_16(rte_ipv4_udptcp_cksum(ip,
					dgram + 20)), ck);
		assert_memory_equal(dgram + 28, payload, lens[i]);
		unit_tx_free(f);
	}
	assert_int_equal(unit_stats(f).udp.OutDatagrams, RTE_DIM(lens));
	assert_int_equal(unit_stats(f).ip.FragOKs, RTE_DIM(lens));
	unit_close(f, ep);
}

/* A source that is a broadcast of ours (an answer to a broadcast from an
 * endpoint bound to any address) leaves from the egress port's address,
 * as a source of 0 would: worker 0 decides it from the table it reads. */
static void
test_send_from_broadcast(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = bind_sender(f, 0, 6000);
	const uint32_t srcs[] = { UNIT_IPV4(10, 0, 1, 255), UINT32_MAX };
	unsigned int i;

	for (i = 0; i < RTE_DIM(srcs); i++) {
		const struct rte_ipv4_hdr *ip;

		fill_payload(payload, 32, i);
		assert_int_equal(lsk_udp_send_burst(ep, &(struct lsk_udp_msg){
			.src_addr = srcs[i], .dst_addr = UNIT_B_IP,
			.dst_port = 7000, .len = 32, .payload = payload }, 1),
			1);
		lsk_worker_flush(f->worker);
		assert_int_equal(f->tx.n[UNIT_P1], 1);
		ip = rte_pktmbuf_mtod_offset(f->tx.pkts[UNIT_P1][0],
			const struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
		assert_int_equal(rte_be_to_cpu_32(ip->src_addr), UNIT_P1_IP);
		unit_tx_free(f);
	}
	unit_close(f, ep);
}

/* A burst stops at the first message it cannot queue: the count of those
 * queued whole, or the error when it is the first. */
static void
test_send_burst_results(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = bind_sender(f, 0, 6000), *nopool;
	struct lsk_udp_msg m[3] = {
		{ .dst_addr = UNIT_B_IP, .dst_port = 7000, .len = 100,
		  .payload = payload },
		{ .dst_addr = UNIT_B_IP, .dst_port = 7000,
		  .len = LSK_UDP_MAX_PAYLOAD + 1, .payload = payload },
		{ .dst_addr = UNIT_B_IP, .dst_port = 7001, .len = 100,
		  .payload = payload },
	};
	struct lsk_udp_msg bad;

	assert_int_equal(lsk_udp_send_burst(ep, m, 3), 1);
	assert_int_equal(lsk_udp_send_burst(ep, &m[1], 2), -EMSGSIZE);
	assert_int_equal(lsk_udp_send_burst(ep, m, 0), 0);
	bad = m[0];
	bad.dst_port = 0;
	assert_int_equal(lsk_udp_send_burst(ep, &bad, 1), -EINVAL);
	bad = m[0];
	bad.payload = NULL;
	assert_int_equal(lsk_udp_send_burst(ep, &bad, 1), -EINVAL);
	assert_int_equal(lsk_udp_send_burst(NULL, m, 1), -EINVAL);
	assert_int_equal(lsk_udp_send_burst(ep, NULL, 1), -EINVAL);

	/* no pool of its own and none for the stack */
	nopool = unit_bind(f, 0, 6001, NULL);
	assert_int_equal(lsk_udp_send_burst(nopool, m, 1), -ENOBUFS);
	/* with the stack's */
	lsk_stack_set_send_pool(f->stack, unit_pool);
	assert_int_equal(lsk_udp_send_burst(nopool, &m[2], 1), 1);

	lsk_worker_flush(f->worker);
	assert_int_equal(unit_tx_udp_to(f, UNIT_P1, UNIT_B_IP), 2);
	assert_int_equal(unit_stats(f).udp.OutDatagrams, 2);
	unit_tx_free(f);
	unit_close(f, nopool);
	unit_close(f, ep);
}

/* A full output ring refuses with -ENOBUFS and keeps nothing of it. */
static void
test_send_ring_full(void **state)
{
	struct lsk_stack_params params = {
		.n_ports = 1, .socket_id = SOCKET_ID_ANY,
		.send_pool = unit_pool, .out_ring_size = 64,
		.name = "udp_api_ring",
	};
	struct lsk_stack *s;
	struct lsk_udp_ep *ep;
	struct lsk_udp_msg m = { .dst_addr = UNIT_A_IP, .dst_port = 7000,
				 .len = 10, .payload = payload,
				 .gso_size = 1 };
	unsigned int start = unit_pool_in_use(), i;

	(void)state;
	assert_int_equal(lsk_stack_create(&params, &s), 0);
	assert_int_equal(lsk_address_add(s, UNIT_P0_IP, 24, 0), 0);
	assert_int_equal(lsk_udp_bind(s, 0, 6000, NULL, &ep), 0);
	for (i = 0; i < 6; i++)		/* 60 of 64 places */
		assert_int_equal(lsk_udp_send_burst(ep, &m, 1), 1);
	assert_int_equal(lsk_udp_send_burst(ep, &m, 1), -ENOBUFS);
	assert_int_equal(rte_ring_count(s->sh.out_ring), 60);
	assert_int_equal(unit_pool_in_use(), start + 60);
	m.len = 4;
	assert_int_equal(lsk_udp_send_burst(ep, &m, 1), 1);
	assert_int_equal(rte_ring_count(s->sh.out_ring), 64);
	lsk_stack_destroy(s);			/* frees what is queued */
	assert_int_equal(unit_pool_in_use(), start);
}

/* IP IDs count up per endpoint across messages and segments; each
 * endpoint counts on its own. */
static void
test_send_ip_ids(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *a = bind_sender(f, 0, 6000);
	struct lsk_udp_ep *b = bind_sender(f, UNIT_P0_IP, 6001);
	struct lsk_udp_msg m[2] = {
		{ .dst_addr = UNIT_B_IP, .dst_port = 7000, .len = 30,
		  .gso_size = 10, .payload = payload },
		{ .dst_addr = UNIT_B_IP, .dst_port = 7000, .len = 5,
		  .payload = payload },
	};
	static const uint16_t want_a[] = { 1, 2, 3, 4 }, want_b[] = { 1 };
	unsigned int i, na = 0, nb = 0;

	assert_int_equal(lsk_udp_send_burst(a, m, 2), 2);
	assert_int_equal(lsk_udp_send_burst(b, &m[1], 1), 1);
	lsk_worker_flush(f->worker);
	assert_int_equal(f->tx.n[UNIT_P1], 5);
	for (i = 0; i < 5; i++) {
		struct rte_mbuf *x = f->tx.pkts[UNIT_P1][i];
		const uint8_t *ip = IP(rte_pktmbuf_mtod(x, const uint8_t *));

		if (get32(ip + 12) == UNIT_P0_IP) {
			/* bound to P0's address: its source, out of P1 */
			assert_int_equal(get16(ip + 4), want_b[nb++]);
		} else {
			assert_int_equal(get32(ip + 12), UNIT_P1_IP);
			assert_int_equal(get16(ip + 4), want_a[na++]);
		}
		assert_true(unit_udp_csum_ok(x));
	}
	assert_int_equal(na, 4);
	assert_int_equal(nb, 1);
	unit_tx_free(f);
	unit_close(f, a);
	unit_close(f, b);
}

/* A send to one of our own addresses is delivered locally at the flush,
 * from that address, with a valid checksum. */
static void
test_send_to_ourselves(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *tx = bind_sender(f, 0, 6000);
	struct lsk_udp_ep *rx = unit_bind(f, UNIT_P1_IP, 7000, NULL);
	struct lsk_udp_msg m = { .dst_addr = UNIT_P1_IP, .dst_port = 7000,
				 .len = 3000, .gso_size = 1000,
				 .payload = payload };
	struct lsk_udp_msg got[4];
	int k, i;

	fill_payload(payload, 3000, 7);
	assert_int_equal(lsk_udp_send_burst(tx, &m, 1), 1);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_tx_count(f), 0);
	k = lsk_udp_recv_burst(rx, got, 4);
	assert_int_equal(k, 3);
	for (i = 0; i < k; i++) {
		assert_int_equal(got[i].src_addr, UNIT_P1_IP);
		assert_int_equal(got[i].src_port, 6000);
		assert_int_equal(got[i].len, 1000);
		assert_memory_equal(got[i].payload, payload + 1000 * i, 1000);
		assert_true(unit_udp_csum_ok(got[i].mbuf));
		rte_pktmbuf_free(got[i].mbuf);
	}
	assert_int_equal(unit_stats(f).udp.InDatagrams, 3);
	/* the loopback runs ip4_local and udp4_input as stage calls */
	assert_int_equal(unit_stats(f).stages[LSK_STAGE_IP4_LOCAL].calls, 1);
	assert_int_equal(unit_stats(f).stages[LSK_STAGE_IP4_LOCAL].packets, 3);
	assert_int_equal(unit_stats(f).stages[LSK_STAGE_UDP4_INPUT].packets, 3);
	unit_close(f, rx);
	unit_close(f, tx);
}

/*
 * A send to one of our addresses where nothing listens: NoPorts. The
 * port unreachable that makes (to ourselves) must not wait in the
 * worker after its flush: destroyed then, the worker would leak it.
 */
static void
test_send_to_ourselves_no_port(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *tx = bind_sender(f, 0, 6000);
	struct lsk_udp_msg m = { .dst_addr = UNIT_P0_IP, .dst_port = 3999,
				 .len = 10, .payload = payload };

	assert_int_equal(lsk_udp_send_burst(tx, &m, 1), 1);
	lsk_worker_flush(f->worker);
	assert_int_equal(unit_stats(f).udp.NoPorts, 1);
	assert_int_equal(f->worker->icmp_out.n, 0);
	/* the datagram's ip4_output call, then the ICMP output's */
	assert_int_equal(unit_stats(f).stages[LSK_STAGE_IP4_OUTPUT].calls, 2);
	assert_int_equal(unit_stats(f).stages[LSK_STAGE_IP4_OUTPUT].packets, 2);
	assert_int_equal(unit_pool_in_use(), f->in_use_start);
	unit_close(f, tx);
}

/*
 * The same left-over ICMP plus a full burst of echo requests (whose
 * replies are not rate limited): icmp_out holds at most LSK_BURST_MAX.
 * Under ASan this overflows lsk_icmp4_output's stack array; run last.
 */
static void
test_icmp_out_overflow(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *tx = bind_sender(f, 0, 6000);
	struct lsk_udp_msg m[50];
	struct rte_mbuf *pkts[LSK_BURST_MAX];
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	unsigned int i;
	size_t len;

	for (i = 0; i < 50; i++)
		m[i] = (struct lsk_udp_msg){ .dst_addr = UNIT_P0_IP,
			.dst_port = 3999, .len = 10, .payload = payload };
	assert_int_equal(lsk_udp_send_burst(tx, m, 50), 50);
	lsk_worker_flush(f->worker);
	unit_pkt_init(&p, UNIT_P0_IP);
	p.payload_len = 8;
	len = unit_icmp_build(&p, 8, 0, 1, b, sizeof(b));
	for (i = 0; i < LSK_BURST_MAX; i++)
		pkts[i] = unit_mbuf_from_bytes(b, len, UNIT_P0);
	unit_input(f, pkts, LSK_BURST_MAX);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 0, 0), LSK_BURST_MAX);
	unit_tx_free(f);
	unit_close(f, tx);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					       unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_bind_errors),
		T(test_close_frees_queued),
		T(test_bind_close_without_memory),
		T(test_recv_burst_at_most_n),
		T(test_recv_timeout_with_trickle),
		T(test_recv_timeout_bounds),
		T(test_send_gso_sizes),
		T(test_send_mtu_limit),
		T(test_send_from_broadcast),
		T(test_send_burst_results),
		T(test_send_fragmented),
		cmocka_unit_test(test_send_ring_full),
		T(test_send_ip_ids),
		T(test_send_to_ourselves),
		T(test_send_to_ourselves_no_port),
		T(test_icmp_out_overflow),
	};

	return cmocka_run_group_tests_name("udp_api", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
