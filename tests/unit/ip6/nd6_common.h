/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the neighbour discovery tests share: the fixture with an nd6
 * table and a table of our IPv6 addresses made here (two ports, each a
 * link-local and a global /64), ND messages built byte by byte, and the
 * frames the worker sent.
 */
#ifndef LSK_TEST_ND6_COMMON_H
#define LSK_TEST_ND6_COMMON_H

#include <string.h>

#include <rte_cycles.h>
#include <rte_ip.h>

#include "unit_common.h"
#include "core/fwd6.h"
#include "core/tx.h"
#include "l2/neigh.h"
#include "ip6/nd6.h"
#include "ip6/nd6_priv.h"

#define ND_CAP 64

/* our addresses: P0 fe80::ff:fe00:fe (its MAC's) and 2001:db8::1, P1
 * fe80::ff:fe00:1fe and 2001:db8:1::1 */
static const struct lsk_ip6_addr ll0 = { .a = { 0xfe, 0x80, [11] = 0xff,
	[12] = 0xfe, [15] = 0xfe } };
static const struct lsk_ip6_addr gl0 = { .a = { 0x20, 0x01, 0x0d, 0xb8,
	[15] = 1 } };
static const struct lsk_ip6_addr ll1 = { .a = { 0xfe, 0x80, [11] = 0xff,
	[12] = 0xfe, [14] = 1, [15] = 0xfe } };
static const struct lsk_ip6_addr gl1 = { .a = { 0x20, 0x01, 0x0d, 0xb8,
	0, 1, [15] = 1 } };
/* hosts */
static const struct lsk_ip6_addr h7 = { .a = { 0x20, 0x01, 0x0d, 0xb8,
	[15] = 7 } };
static const struct lsk_ip6_addr h7ll = { .a = { 0xfe, 0x80, [8] = 0x12,
	[15] = 7 } };
static const struct lsk_ip6_addr unspec;
static const struct lsk_ip6_addr all_nodes6 = { .a = { 0xff, 0x02,
	[15] = 1 } };
static const struct rte_ether_addr h7_mac = {
	.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x07 } };
static const struct rte_ether_addr h7_new = {
	.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x77 } };
static const struct rte_ether_addr p0_mac = {
	.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x00, 0xfe } };
static const struct rte_ether_addr p1_mac = {
	.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x01, 0xfe } };

static inline struct lsk_nd6_table *
nd(struct unit_fixture *f)
{
	return f->stack->sh.nd6;
}

/* Our addresses as the control side makes them (and the worker's copy
 * of the table: the tests call ND's functions outside a burst). */
static inline void
nd_cmd(struct unit_fixture *f, const char *line)
{
	unit_cmd(f, line);
	f->worker->fwd6 = f->stack->sh.fwd6;
}

static inline void
nd_addrs(struct unit_fixture *f, bool ra)
{
	nd_cmd(f, "address add 2001:db8::1/64 port 0");
	nd_cmd(f, "address add 2001:db8:1::1/64 port 1");
	if (ra)
		nd_cmd(f, "port 0 ra on");
}

static inline void
nd_flush(struct unit_fixture *f)
{
	lsk_tx_flush_port(f->worker, 0);
	lsk_tx_flush_port(f->worker, 1);
}

/* Run worker 0's timer now. */
static inline void
nd_timer(struct unit_fixture *f, struct lsk_list *unreach)
{
	nd(f)->next_timer = 0;
	lsk_nd6_timer(f->worker, unreach);
	nd_flush(f);
}

/* Our addresses past DAD (its probes sent and forgotten). */
static inline void
nd_dad_pass(struct unit_fixture *f)
{
	struct lsk_list unreach = { 0 };
	uint32_t k;

	nd_timer(f, &unreach);
	for (k = 0; k < nd(f)->n_addrs; k++)
		nd(f)->addrs[k].due = 0;
	nd_timer(f, &unreach);
	unit_tx_free(f);
}

static inline struct unit_fixture *
nd_fixture(bool ra, bool dad)
{
	struct unit_fixture *f = unit_fixture_create(LSK_MODE_LIST);
	char name[32];
	static unsigned int seq;

	if (f == NULL)
		return NULL;
	snprintf(name, sizeof(name), "nd%u", seq++);
	/* the stack's own table (control/stack.c) is bigger: this one's
	 * ND_CAP makes it full in a few entries */
	lsk_nd6_table_free(f->stack->sh.nd6);
	f->stack->sh.nd6 = NULL;
	if (lsk_nd6_table_create(&f->stack->sh, name, ND_CAP) < 0)
		return NULL;
	/* the tests' own IPv6 table stands in for the stack's */
	lsk_fwd6_table_free(f->stack->sh.fwd6);
	f->stack->sh.fwd6 = NULL;
	/* what ND sends of its own (DAD, RAs) comes from the send pool, as
	 * listack-fwd's */
	lsk_stack_set_send_pool(f->stack, unit_pool);
	nd_addrs(f, ra);
	if (dad)
		nd_dad_pass(f);
	return f;
}

static inline void
nd_fixture_destroy(struct unit_fixture *f)
{
	struct lsk_stats st = { 0 };

	lsk_nd6_forget_all(nd(f), &st);
	lsk_nd6_table_free(nd(f));
	f->stack->sh.nd6 = NULL;
	unit_fixture_destroy(f);
}

/*
 * An ND message in b: IPv6 from src to dst (hop limit hl), ICMPv6 type
 * and code, the 4 bytes after the checksum (flags), a target (NULL:
 * none), then opt_len bytes of options; returns the length from the
 * IPv6 header. The checksum is right (icmp6_input checks it before ND).
 */
static inline size_t
nd_msg(uint8_t *b, const struct lsk_ip6_addr *src,
       const struct lsk_ip6_addr *dst, uint8_t hl, uint8_t type,
       uint8_t code, uint32_t flags, const struct lsk_ip6_addr *target,
       const uint8_t *opts, size_t opt_len)
{
	uint8_t *icmp = b + 40;
	size_t len = 8 + (target ? 16 : 0) + opt_len;
	uint16_t sum;

	memset(b, 0, 40 + len);
	b[0] = 0x60;
	put16(b + 4, (uint16_t)len);
	b[6] = IPPROTO_ICMPV6;
	b[7] = hl;
	memcpy(b + 8, src, 16);
	memcpy(b + 24, dst, 16);
	icmp[0] = type;
	icmp[1] = code;
	put32(icmp + 4, flags);
	if (target != NULL)
		memcpy(icmp + 8, target, 16);
	if (opt_len != 0)	/* opts may be NULL then */
		memcpy(icmp + 8 + (target ? 16 : 0), opts, opt_len);
	sum = rte_ipv6_udptcp_cksum((const struct rte_ipv6_hdr *)b, icmp);
	memcpy(icmp + 2, &sum, 2);
	return 40 + len;
}

/* A link-layer option (type 1 source, 2 target). */
static inline void
nd_lla(uint8_t *o, uint8_t type, const struct rte_ether_addr *mac)
{
	o[0] = type;
	o[1] = 1;
	memcpy(o + 2, mac, 6);
}

/* Hand one message (data at its IPv6 header) to nd6_input as arrived
 * on port. */
static inline void
nd_in(struct unit_fixture *f, uint16_t port, const uint8_t *b, size_t len)
{
	struct rte_mbuf *m = unit_mbuf_from_bytes(b, len, port);
	struct lsk_list l = { 0 };

	assert_non_null(m);
	lsk_list_push(&l, m, 0);
	lsk_nd6_input(f->worker, &l);
	assert_int_equal(l.n, 0);
	nd_flush(f);
}

/* An NS for target from src (with src's MAC as option unless NULL). */
static inline void
nd_ns_in(struct unit_fixture *f, uint16_t port,
	 const struct lsk_ip6_addr *src, const struct lsk_ip6_addr *dst,
	 const struct lsk_ip6_addr *target, const struct rte_ether_addr *mac)
{
	uint8_t b[128], o[8];

	if (mac != NULL)
		nd_lla(o, 1, mac);
	nd_in(f, port, b, nd_msg(b, src, dst, 255, 135, 0, 0, target, o,
				 mac ? 8 : 0));
}

/* An NA for target (flags R 0x80, S 0x40, O 0x20 in the first byte). */
static inline void
nd_na_in(struct unit_fixture *f, uint16_t port,
	 const struct lsk_ip6_addr *src, const struct lsk_ip6_addr *dst,
	 const struct lsk_ip6_addr *target, uint8_t flags,
	 const struct rte_ether_addr *mac)
{
	uint8_t b[128], o[8];

	if (mac != NULL)
		nd_lla(o, 2, mac);
	nd_in(f, port, b, nd_msg(b, src, dst, 255, 136, 0,
				 (uint32_t)flags << 24, target, o,
				 mac ? 8 : 0));
}

/* The ICMPv6 message of frame m sent, at its type; NULL when m is not
 * ICMPv6 in IPv6. */
static inline const uint8_t *
nd_icmp(const struct rte_mbuf *m)
{
	const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);

	if (get16(b + 12) != RTE_ETHER_TYPE_IPV6 || b[14 + 6] != 58)
		return NULL;
	return b + 14 + 40;
}

/* The checksum of the frame's ICMPv6 message is right. */
static inline void
nd_assert_cksum(const struct rte_mbuf *m)
{
	const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t sum = rte_ipv6_phdr_cksum(
		(const struct rte_ipv6_hdr *)(b + 14), 0);

	/* the pseudo header and the message sum to all ones */
	sum += rte_raw_cksum(b + 54, get16(b + 18));
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	assert_int_equal(sum, 0xffff);
}

/* Frames of ICMPv6 type sent on port. */
static inline unsigned int
nd_sent(const struct unit_fixture *f, uint16_t port, uint8_t type)
{
	unsigned int i, n = 0;

	for (i = 0; i < f->tx.n[port]; i++) {
		const uint8_t *icmp = nd_icmp(f->tx.pkts[port][i]);

		n += icmp != NULL && icmp[0] == type;
	}
	return n;
}

static inline struct rte_mbuf *
nd_sent_nth(const struct unit_fixture *f, uint16_t port, uint8_t type,
	    unsigned int nth)
{
	unsigned int i;

	for (i = 0; i < f->tx.n[port]; i++) {
		const uint8_t *icmp = nd_icmp(f->tx.pkts[port][i]);

		if (icmp != NULL && icmp[0] == type && nth-- == 0)
			return f->tx.pkts[port][i];
	}
	return NULL;
}

/* A datagram to forward (data at its Ethernet header, its type set, as
 * ip6_forward hands it to lsk_nd6_resolve) carrying tag. */
static inline struct rte_mbuf *
nd_datagram(uint8_t tag)
{
	uint8_t b[14 + 40 + 8] = { 0 };

	put16(b + 12, RTE_ETHER_TYPE_IPV6);
	b[14] = 0x60;
	b[14 + 6] = 17;
	b[14 + 7] = 63;
	b[14 + 40] = tag;
	return unit_mbuf_from_bytes(b, sizeof(b), 0);
}

static inline uint8_t
nd_state(struct unit_fixture *f, const struct lsk_ip6_addr *a, uint16_t iface,
	 struct rte_ether_addr *mac)
{
	struct rte_ether_addr m;

	return lsk_nd6_state_of(nd(f), a, iface, mac ? mac : &m);
}

/* cmocka's setups: addresses past DAD, with port 0's RAs on or not;
 * addresses fresh (tentative); and the teardown. */
static inline int
nd_setup_router(void **state)
{
	*state = nd_fixture(true, true);
	return *state == NULL ? -1 : 0;
}

static inline int
nd_setup(void **state)
{
	*state = nd_fixture(false, true);
	return *state == NULL ? -1 : 0;
}

static inline int
nd_setup_fresh(void **state)
{
	*state = nd_fixture(false, false);
	return *state == NULL ? -1 : 0;
}

static inline int
nd_teardown(void **state)
{
	nd_fixture_destroy(*state);
	return 0;
}

#endif /* LSK_TEST_ND6_COMMON_H */
