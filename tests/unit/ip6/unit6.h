/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the IPv6 stage tests share (header only: each test is one
 * program): the fixture's IPv6 side (an address per port, a route, the
 * two peers as static neighbours), IPv6 frames (UDP or ICMPv6, any
 * extension headers, lying lengths) and the checks on what was sent.
 *
 * The fixture (tests/unit/unit_common.h) gets, through the library's
 * calls as a control thread makes them:
 *	P0 2001:db8::fe/64      A 2001:db8::1 (unit_a_mac) on P0
 *	P1 2001:db8:1::fe/64    B 2001:db8:1::1 (unit_b_mac) on P1
 *	route 2001:db8:9::/48 via B
 */
#ifndef UNIT6_H
#define UNIT6_H

#include <string.h>

#include <rte_ip.h>

#include "unit_common.h"
#include "core/fwd6.h"
#include "ip6/ip6.h"
#include "ip6/nd6.h"
#include "ip6/nd6_priv.h"

#define UNIT6(...) ((struct lsk_ip6_addr){ .a = { __VA_ARGS__ } })
#define UNIT6_P0 UNIT6(0x20, 0x01, 0x0d, 0xb8, [15] = 0xfe)
#define UNIT6_P1 UNIT6(0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 0xfe)
#define UNIT6_A UNIT6(0x20, 0x01, 0x0d, 0xb8, [15] = 1)
#define UNIT6_B UNIT6(0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 1)
#define UNIT6_FAR UNIT6(0x20, 0x01, 0x0d, 0xb8, 0, 9, [15] = 5)
#define UNIT6_NOWHERE UNIT6(0x20, 0x01, 0x0d, 0xb8, 0, 0x77, [15] = 1)
#define UNIT6_A_LL UNIT6(0xfe, 0x80, [15] = 0xa)
#define UNIT6_ALL_NODES UNIT6(0xff, 0x02, [15] = 1)

/* The fixture's worker sees the tables as published now. */
static inline void
unit6_sync(struct unit_fixture *f)
{
	unit_worker_sync(f);
	f->worker->fwd6 = f->stack->sh.fwd6;
}

/* A static neighbour (the control side's call, as `neigh add` makes). */
static inline void
unit6_neigh(struct unit_fixture *f, struct lsk_ip6_addr addr, uint16_t iface,
	    const struct rte_ether_addr *mac)
{
	struct lsk_stats st;

	memset(&st, 0, sizeof(st));
	assert_int_equal(lsk_nd6_set_static(f->stack->sh.nd6, &addr, iface,
					    mac, &st), 0);
}

/* The fixture's IPv6 side (above), or the test fails. */
static inline void
unit6_configure(struct unit_fixture *f)
{
	const struct lsk_ip6_addr p0 = UNIT6_P0, p1 = UNIT6_P1, a = UNIT6_A,
		b = UNIT6_B, far = UNIT6(0x20, 0x01, 0x0d, 0xb8, 0, 9);

	struct lsk_list unreach = { .n = 0 };
	uint32_t k;

	assert_non_null(unit_nd6(f));
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_address6_add(f->stack, &p0, 64, UNIT_P0), 0);
	assert_int_equal(lsk_address6_add(f->stack, &p1, 64, UNIT_P1), 0);
	assert_int_equal(lsk_route6_add(f->stack, &far, 48, LSK_ROUTE_VIA, &b,
					LSK_IFACE_ANY), 0);
	unit6_neigh(f, a, UNIT_P0, &unit_a_mac);
	unit6_neigh(f, b, UNIT_P1, &unit_b_mac);
	unit6_sync(f);
	/* our addresses past DAD: its probes sent (and freed), then its
	 * second made to have passed */
	f->stack->sh.nd6->next_timer = 0;
	lsk_nd6_timer(f->worker, &unreach);
	for (k = 0; k < f->stack->sh.nd6->n_addrs; k++)
		f->stack->sh.nd6->addrs[k].due = 0;
	f->stack->sh.nd6->next_timer = 0;
	lsk_nd6_timer(f->worker, &unreach);
	lsk_worker_flush(f->worker);
	assert_int_equal(unreach.n, 0);
	unit_tx_free(f);
	assert_true(lsk_nd6_addr_usable(f->stack->sh.nd6, &p0, UNIT_P0));
}

/* A route of type to prefix/depth (no gateway). */
static inline void
unit6_route(struct unit_fixture *f, struct lsk_ip6_addr prefix,
	    uint8_t depth, enum lsk_route_type type)
{
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_route6_add(f->stack, &prefix, depth, type, NULL,
					LSK_IFACE_ANY), 0);
	unit6_sync(f);
}

/* A frame to build. */
struct unit6_pkt {
	uint16_t port;
	struct rte_ether_addr dst_mac, src_mac;
	struct lsk_ip6_addr src, dst;
	uint8_t hlim;
	uint8_t proto;		/* the upper layer: 17 UDP, 58 ICMPv6, ... */
	uint8_t icmp_type, icmp_code;
	uint32_t icmp_rest;	/* the ICMPv6 header's second word */
	uint16_t sport, dport;
	uint16_t payload_len;	/* after the UDP or ICMPv6 header */
	/* extension headers as on the wire; the first's value in ext_nh,
	 * each one's next header byte is the caller's, the last's is set
	 * to proto */
	uint8_t ext_nh;
	uint16_t ext_len;
	uint16_t ext_last;	/* the last one's offset in ext */
	uint8_t ext[320];
	uint16_t trailer_len;	/* bytes after the datagram (padding) */
	int plen_delta;		/* added to the true payload length */
};

/* A UDP datagram from A (on P0) to dst, 100 bytes, hop limit 64. */
static inline void
unit6_pkt_init(struct unit6_pkt *p, struct lsk_ip6_addr dst)
{
	memset(p, 0, sizeof(*p));
	p->port = UNIT_P0;
	p->dst_mac = unit_p0_mac;
	p->src_mac = unit_a_mac;
	p->src = UNIT6_A;
	p->dst = dst;
	p->hlim = 64;
	p->proto = IPPROTO_UDP;
	p->sport = 1000;
	p->dport = 2000;
	p->payload_len = 100;
}

/* An ICMPv6 message instead. */
static inline void
unit6_pkt_icmp(struct unit6_pkt *p, uint8_t type, uint8_t code,
	       uint32_t rest)
{
	p->proto = 58;
	p->icmp_type = type;
	p->icmp_code = code;
	p->icmp_rest = rest;
}

/* Append an extension header of value nh (its bytes, len a multiple of
 * 8, the next header byte and the length byte filled in here). */
static inline void
unit6_pkt_ext(struct unit6_pkt *p, uint8_t nh, const uint8_t *body,
	      size_t len)
{
	assert_true(len >= 8 && p->ext_len + len <= sizeof(p->ext));
	if (p->ext_len == 0)
		p->ext_nh = nh;
	else
		p->ext[p->ext_last] = nh;
	memcpy(p->ext + p->ext_len, body, len);
	if (nh != 44)
		p->ext[p->ext_len + 1] = (uint8_t)(len / 8 - 1);
	p->ext_last = p->ext_len;
	p->ext_len = (uint16_t)(p->ext_len + len);
}

static inline uint32_t
unit6_sum(const uint8_t *p, size_t len, uint32_t sum)
{
	return sum16(p, len, sum);
}

/* Write the frame; returns its length. */
static inline size_t
unit6_pkt_build(const struct unit6_pkt *p, uint8_t *buf, size_t cap)
{
	const size_t l4 = (p->proto == 17 ? 8u : p->proto == 58 ? 8u : 0u) +
			  p->payload_len;
	const size_t len = UNIT_ETH_LEN + 40 + p->ext_len + l4;
	uint8_t *ip = buf + UNIT_ETH_LEN, *x = ip + 40 + p->ext_len;
	uint32_t sum;
	size_t i;

	assert_true(len + p->trailer_len <= cap);
	memcpy(buf, &p->dst_mac, 6);
	memcpy(buf + 6, &p->src_mac, 6);
	put16(buf + 12, 0x86dd);
	put32(ip, 6u << 28);
	put16(ip + 4, (uint16_t)(p->ext_len + l4 + p->plen_delta));
	ip[6] = p->ext_len ? p->ext_nh : p->proto;
	ip[7] = p->hlim;
	memcpy(ip + 8, &p->src, 16);
	memcpy(ip + 24, &p->dst, 16);
	memcpy(ip + 40, p->ext, p->ext_len);
	if (p->ext_len)
		ip[40 + p->ext_last] = p->proto;
	for (i = 0; i < p->payload_len; i++)
		x[(p->proto == 17 || p->proto == 58 ? 8 : 0) + i] =
			(uint8_t)(i * 7 + 3);
	if (p->proto == 17) {
		put16(x, p->sport);
		put16(x + 2, p->dport);
		put16(x + 4, (uint16_t)l4);
		put16(x + 6, 0);
	} else if (p->proto == 58) {
		x[0] = p->icmp_type;
		x[1] = p->icmp_code;
		put16(x + 2, 0);
		put32(x + 4, p->icmp_rest);
	}
	if (p->proto == 17 || p->proto == 58) {
		sum = unit6_sum(ip + 8, 32, 0);
		sum += (uint32_t)l4 + p->proto;
		sum = unit6_sum(x, l4, sum);
		put16(x + (p->proto == 17 ? 6 : 2),
		      (uint16_t)(fold(sum) == 0xffff ? 0xffff : ~fold(sum)));
	}
	memset(buf + len, 0xee, p->trailer_len);
	return len + p->trailer_len;
}

static inline struct rte_mbuf *
unit6_pkt_mbuf(const struct unit6_pkt *p)
{
	uint8_t buf[UNIT_FRAME_MAX];
	size_t len = unit6_pkt_build(p, buf, sizeof(buf));

	return unit_mbuf_from_bytes(buf, len, p->port);
}

/* Is m an IPv6 frame carrying ICMPv6 right behind its header, of type
 * (any when < 0)? */
static inline bool
unit6_frame_is_icmp(const struct rte_mbuf *m, int type)
{
	const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);

	return rte_pktmbuf_data_len(m) >= UNIT_ETH_LEN + 48 &&
	       get16(b + 12) == 0x86dd && b[UNIT_ETH_LEN + 6] == 58 &&
	       (type < 0 || b[UNIT_ETH_LEN + 40] == type);
}

/* Frames sent on port that are ICMPv6 of type/code (any when < 0). */
static inline unsigned int
unit6_tx_icmp(const struct unit_fixture *f, uint16_t port, int type, int code)
{
	unsigned int i, n = 0;

	for (i = 0; i < f->tx.n[port]; i++) {
		const struct rte_mbuf *m = f->tx.pkts[port][i];

		if (unit6_frame_is_icmp(m, type) &&
		    (code < 0 || rte_pktmbuf_mtod(m, const uint8_t *)
				[UNIT_ETH_LEN + 41] == code))
			n++;
	}
	return n;
}

static inline struct rte_mbuf *
unit6_tx_icmp_nth(const struct unit_fixture *f, uint16_t port, int type,
		  unsigned int nth)
{
	unsigned int i;

	for (i = 0; i < f->tx.n[port]; i++)
		if (unit6_frame_is_icmp(f->tx.pkts[port][i], type) &&
		    nth-- == 0)
			return f->tx.pkts[port][i];
	fail_msg("no ICMPv6 type %d number %u on port %u", type, nth, port);
	return NULL;
}

/*
 * An ICMPv6 error (e, a frame) as RFC 4443 wants it: Ethernet from
 * src_mac to dst_mac, IPv6 hop limit 64 from src to the original's
 * source, type, code, the second word info, a valid checksum, the quote
 * the first bytes of orig (the datagram as it was when the error was
 * made), as many as fit in 1280 bytes.
 */
static inline void
unit6_assert_error(const struct rte_mbuf *e, uint8_t type, uint8_t code,
		   uint32_t info, const struct lsk_ip6_addr *src,
		   const struct rte_ether_addr *dst_mac,
		   const struct rte_ether_addr *src_mac, const uint8_t *orig,
		   size_t orig_len)
{
	const uint8_t *b = rte_pktmbuf_mtod(e, const uint8_t *);
	const uint8_t *ip = b + UNIT_ETH_LEN, *ih = ip + 40;
	size_t quote = orig_len < 1280 - 48 ? orig_len : 1280 - 48;
	uint32_t sum;

	assert_int_equal(rte_pktmbuf_data_len(e), UNIT_ETH_LEN + 48 + quote);
	assert_memory_equal(b, dst_mac, 6);
	assert_memory_equal(b + 6, src_mac, 6);
	assert_int_equal(get16(b + 12), 0x86dd);
	assert_int_equal(get32(ip), 6u << 28);
	assert_int_equal(get16(ip + 4), 8 + quote);
	assert_int_equal(ip[6], 58);
	assert_int_equal(ip[7], 64);
	assert_memory_equal(ip + 8, src, 16);
	assert_memory_equal(ip + 24, orig + 8, 16);
	assert_int_equal(ih[0], type);
	assert_int_equal(ih[1], code);
	assert_int_equal(get32(ih + 4), info);
	sum = unit6_sum(ip + 8, 32, 0) + 8 + (uint32_t)quote + 58;
	sum = unit6_sum(ih, 8 + quote, sum);
	assert_int_equal(fold(sum), 0xffff);
	assert_memory_equal(ih + 8, orig, quote);
}

/* The counter sets of a and b agree (ip6, icmp6, nd). */
static inline void
unit6_assert_same_counters(const struct unit_fixture *a,
			   const struct unit_fixture *b)
{
	struct lsk_stats x = unit_stats(a), y = unit_stats(b);

	assert_memory_equal(&x.ip6, &y.ip6, sizeof(x.ip6));
	assert_memory_equal(&x.icmp6, &y.icmp6, sizeof(x.icmp6));
	assert_memory_equal(&x.nd, &y.nd, sizeof(x.nd));
}

/* a and b sent the same frames on each port: the same non-ICMPv6
 * frames in the same order, and the same ICMPv6 frames in any order
 * (list mode sends a burst's errors after it, single mode each after
 * its packet). */
static inline void
unit6_assert_same_frames(const struct unit_fixture *a,
			 const struct unit_fixture *b)
{
	unsigned int port, i, j;

	for (port = 0; port < LSK_MAX_PORTS; port++) {
		bool used[UNIT_TX_CAP] = { false };
		unsigned int ia = 0, ib = 0;

		assert_int_equal(a->tx.n[port], b->tx.n[port]);
		for (i = 0; i < a->tx.n[port]; i++) {
			const struct rte_mbuf *x = a->tx.pkts[port][i];

			if (unit6_frame_is_icmp(x, -1))
				continue;
			while (ib < b->tx.n[port] &&
			       unit6_frame_is_icmp(b->tx.pkts[port][ib], -1))
				ib++;
			assert_true(ib < b->tx.n[port]);
			assert_int_equal(x->pkt_len,
					 b->tx.pkts[port][ib]->pkt_len);
			assert_memory_equal(rte_pktmbuf_mtod(x, void *),
				rte_pktmbuf_mtod(b->tx.pkts[port][ib], void *),
				x->data_len);
			ib++;
			ia++;
		}
		for (i = 0; i < a->tx.n[port]; i++) {
			const struct rte_mbuf *x = a->tx.pkts[port][i];
			bool found = false;

			if (!unit6_frame_is_icmp(x, -1))
				continue;
			for (j = 0; j < b->tx.n[port] && !found; j++) {
				const struct rte_mbuf *y = b->tx.pkts[port][j];

				if (used[j] || y->pkt_len != x->pkt_len ||
				    memcmp(rte_pktmbuf_mtod(x, void *),
					   rte_pktmbuf_mtod(y, void *),
					   x->data_len) != 0)
					continue;
				used[j] = found = true;
			}
			assert_true(found);
		}
		(void)ia;
	}
}

#endif /* UNIT6_H */
