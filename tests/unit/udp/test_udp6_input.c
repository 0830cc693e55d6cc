/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * udp6_input and the UDP API of either family: datagrams to IPv6
 * endpoints delivered with their addresses (lsk_udp_msg src_addr6,
 * dst_addr6); the checksum required (a zero one dropped, counted as
 * Linux's __udp6_lib_rcv counts it: InCsumErrors and InErrors); bad
 * lengths; [::]:PORT taking every IPv6 address and multicast, never
 * IPv4, and 0.0.0.0:PORT never IPv6; no endpoint: NoPorts and ICMPv6
 * port unreachable, multicast IgnoredMulti; lsk_udp_bind_addr's errors.
 * The stage is called as ip6_local calls it: frames, the UDP header's
 * offset from the IPv6 header in the meta word.
 */
#include <string.h>
#include <sys/socket.h>

#include "unit_common.h"
#include "core/worker.h"
#include "ip6/ip6.h"
#include "ip6/nd6.h"
#include "core/shared.h"
#include "control/control.h"
#include "udp/udp.h"

#define IP6_LEN 40

static const struct lsk_ip6_addr our6 = { { 0x20, 0x01, 0x0d, 0xb8,
	[15] = 0xfe } };
static const struct lsk_ip6_addr other6 = { { 0x20, 0x01, 0x0d, 0xb8,
	0, 1, [15] = 0xfe } };
static const struct lsk_ip6_addr a6 = { { 0x20, 0x01, 0x0d, 0xb8,
	[15] = 0x01 } };
static const struct lsk_ip6_addr all_nodes = { { 0xff, 0x02, [15] = 1 } };

static int
setup(void **state)
{
	struct unit_fixture *f;
	int rc = unit_setup_list(state);

	if (rc != 0)
		return rc;
	f = *state;
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_address6_add(f->stack, &our6, 64, UNIT_P0), 0);
	assert_int_equal(lsk_address6_add(f->stack, &other6, 64, UNIT_P1), 0);
	unit_worker_sync(f);
	return 0;
}

static struct lsk_udp_ep *
bind6(struct unit_fixture *f, const struct lsk_ip6_addr *a, uint16_t port)
{
	struct lsk_udp_addr addr = { .family = AF_INET6, .v6 = *a };
	struct lsk_udp_ep *ep = NULL;

	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_udp_bind_addr(f->stack, &addr, port, NULL, &ep),
			 0);
	unit_worker_sync(f);
	return ep;
}

static uint16_t
udp6_sum(const uint8_t *ip, const uint8_t *u, size_t ulen)
{
	uint32_t sum = sum16(ip + 8, 32, 0);

	sum += IPPROTO_UDP + (uint32_t)ulen;
	return (uint16_t)~fold(sum16(u, ulen, sum));
}

/* A UDP/IPv6 frame from A:1000 to dst:dport, payload bytes; ulen_delta
 * added to the UDP length; csum: 1 valid, 0 zero, -1 bad. */
static size_t
frame6(uint8_t *b, const struct lsk_ip6_addr *dst, uint16_t dport,
       size_t payload, int ulen_delta, int csum)
{
	uint8_t *ip = b + UNIT_ETH_LEN, *u = ip + IP6_LEN;
	size_t i, ulen = 8 + payload;
	uint16_t ck;

	memcpy(b, &unit_p0_mac, 6);
	memcpy(b + 6, &unit_a_mac, 6);
	put16(b + 12, 0x86dd);
	memset(ip, 0, IP6_LEN);
	ip[0] = 0x60;
	put16(ip + 4, (uint16_t)ulen);
	ip[6] = IPPROTO_UDP;
	ip[7] = 64;
	memcpy(ip + 8, &a6, 16);
	memcpy(ip + 24, dst, 16);
	put16(u, 1000);
	put16(u + 2, dport);
	put16(u + 4, (uint16_t)((int)ulen + ulen_delta));
	put16(u + 6, 0);
	for (i = 0; i < payload; i++)
		u[8 + i] = (uint8_t)(i + dport);
	ck = udp6_sum(ip, u, ulen);
	if (ck == 0)
		ck = 0xffff;
	put16(u + 6, csum > 0 ? ck : csum == 0 ? 0 : (uint16_t)(ck ^ 0x5a5a));
	return UNIT_ETH_LEN + IP6_LEN + ulen;
}

/* The frames b[0..n) through udp6_input as one list (meta: the UDP
 * header at 40). */
static void
input6(struct unit_fixture *f, uint8_t (*b)[UNIT_FRAME_MAX],
       const size_t *len, unsigned int n)
{
	struct lsk_list l = { .n = 0 };
	unsigned int i;

	for (i = 0; i < n; i++)
		lsk_list_push(&l, unit_mbuf_from_bytes(b[i], len[i], UNIT_P0),
			      IP6_LEN);
	lsk_udp6_input(f->worker, &l);
	assert_int_equal(l.n, 0);
}

static void
input1(struct unit_fixture *f, uint8_t *b, size_t len)
{
	input6(f, (uint8_t (*)[UNIT_FRAME_MAX])b, &len, 1);
}

/* One datagram in ep from A:1000, to dst, of payload bytes. */
static void
assert_got(struct lsk_udp_ep *ep, const struct lsk_ip6_addr *dst,
	   uint16_t dport, size_t payload)
{
	struct lsk_udp_msg msg;
	size_t i;

	assert_int_equal(lsk_udp_recv_burst(ep, &msg, 1), 1);
	assert_int_equal(msg.src_addr, 0);
	assert_int_equal(msg.dst_addr, 0);
	assert_memory_equal(&msg.src_addr6, &a6, 16);
	assert_memory_equal(&msg.dst_addr6, dst, 16);
	assert_int_equal(msg.src_port, 1000);
	assert_int_equal(msg.dst_port, dport);
	assert_int_equal(msg.in_port, UNIT_P0);
	assert_int_equal(msg.len, payload);
	for (i = 0; i < payload; i++)
		assert_int_equal(((uint8_t *)msg.payload)[i],
				 (uint8_t)(i + dport));
	/* a frame, as IPv4's */
	assert_int_equal(get16(rte_pktmbuf_mtod(msg.mbuf, uint8_t *) + 12),
			 0x86dd);
	rte_pktmbuf_free(msg.mbuf);
}

static void
assert_none(struct lsk_udp_ep *ep)
{
	struct lsk_udp_msg msg;

	assert_int_equal(lsk_udp_recv_burst(ep, &msg, 1), 0);
}

/* To [our6]:2000, 1 and 1400 bytes, and [::]:3000 from either address:
 * delivered, in order; udp6.InDatagrams. */
static void
test_udp6_delivered(void **state)
{
	static uint8_t b[4][UNIT_FRAME_MAX];
	static const struct lsk_ip6_addr any;
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = bind6(f, &our6, 2000);
	struct lsk_udp_ep *wild = bind6(f, &any, 3000);
	size_t len[4];

	len[0] = frame6(b[0], &our6, 2000, 1, 0, 1);
	len[1] = frame6(b[1], &our6, 2000, 1400, 0, 1);
	len[2] = frame6(b[2], &other6, 3000, 10, 0, 1);
	len[3] = frame6(b[3], &our6, 3000, 11, 0, 1);
	input6(f, b, len, 4);
	assert_got(ep, &our6, 2000, 1);
	assert_got(ep, &our6, 2000, 1400);
	assert_none(ep);
	assert_got(wild, &other6, 3000, 10);
	assert_got(wild, &our6, 3000, 11);
	assert_int_equal(unit_stats(f).udp6.InDatagrams, 4);
	assert_int_equal(unit_stats(f).udp.InDatagrams, 0);
	unit_close(f, ep);
	unit_close(f, wild);
}

/* One family per endpoint: 0.0.0.0:4000 takes no IPv6 datagram. */
static void
test_udp6_not_to_ip4_endpoints(void **state)
{
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *v4 = unit_bind(f, 0, 4000, NULL);

	input1(f, b, frame6(b, &our6, 4000, 20, 0, 1));
	assert_none(v4);
	assert_int_equal(unit_stats(f).udp6.NoPorts, 1);
	unit_list_free(&f->worker->icmp6_out);
	unit_close(f, v4);
}

/* The checksum is required: zero is dropped as Linux counts it, a bad
 * one too; the PMD's verdict is taken when it gave one. */
static void
test_udp6_checksums(void **state)
{
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = bind6(f, &our6, 2000);
	struct lsk_udp6_stats st;
	struct lsk_list l = { .n = 0 };
	struct rte_mbuf *m;
	size_t len;

	input1(f, b, frame6(b, &our6, 2000, 30, 0, 0));
	input1(f, b, frame6(b, &our6, 2000, 30, 0, -1));
	assert_none(ep);
	st = unit_stats(f).udp6;
	assert_int_equal(st.InCsumErrors, 2);
	assert_int_equal(st.InErrors, 2);
	/* the PMD said good: no sum taken (a bad sum goes through) */
	len = frame6(b, &our6, 2000, 30, 0, -1);
	m = unit_mbuf_from_bytes(b, len, UNIT_P0);
	m->ol_flags |= RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	lsk_list_push(&l, m, IP6_LEN);
	lsk_udp6_input(f->worker, &l);
	assert_got(ep, &our6, 2000, 30);
	/* ... said bad: dropped, whatever the sum */
	len = frame6(b, &our6, 2000, 30, 0, 1);
	m = unit_mbuf_from_bytes(b, len, UNIT_P0);
	m->ol_flags |= RTE_MBUF_F_RX_L4_CKSUM_BAD;
	lsk_list_push(&l, m, IP6_LEN);
	lsk_udp6_input(f->worker, &l);
	assert_none(ep);
	assert_int_equal(unit_stats(f).udp6.InCsumErrors, 3);
	assert_int_equal(f->worker->icmp6_out.n, 0);	/* never answered */
	unit_close(f, ep);
}

/* A UDP length past the payload, or under 8: InErrors; shorter than
 * the payload: cut to it and delivered. */
static void
test_udp6_lengths(void **state)
{
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = bind6(f, &our6, 2000);
	size_t len;

	input1(f, b, frame6(b, &our6, 2000, 30, 1, 1));
	len = frame6(b, &our6, 2000, 30, 0, 1);
	put16(b + UNIT_ETH_LEN + IP6_LEN + 4, 7);
	input1(f, b, len);
	assert_none(ep);
	assert_int_equal(unit_stats(f).udp6.InErrors, 2);
	/* 20 bytes of UDP payload, 10 more of IP payload after it */
	len = frame6(b, &our6, 2000, 30, 0, 1);
	put16(b + UNIT_ETH_LEN + IP6_LEN + 4, 28);
	put16(b + UNIT_ETH_LEN + IP6_LEN + 6, 0);
	put16(b + UNIT_ETH_LEN + IP6_LEN + 6,
	      udp6_sum(b + UNIT_ETH_LEN, b + UNIT_ETH_LEN + IP6_LEN, 28));
	input1(f, b, len);
	assert_got(ep, &our6, 2000, 20);
	unit_close(f, ep);
}

/* No endpoint: NoPorts and port unreachable to A, quoting the datagram;
 * to a multicast group with no [::] endpoint: IgnoredMulti, silently;
 * with one: delivered. */
static void
test_udp6_no_port(void **state)
{
	static const struct lsk_ip6_addr any;
	uint8_t b[UNIT_FRAME_MAX], e[UNIT_FRAME_MAX];
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *wild;
	struct lsk_list *out = &f->worker->icmp6_out;

	input1(f, b, frame6(b, &our6, 5555, 40, 0, 1));
	assert_int_equal(unit_stats(f).udp6.NoPorts, 1);
	assert_int_equal(out->n, 1);
	unit_mbuf_bytes(out->pkts[0], e, sizeof(e));
	assert_int_equal(e[6], 58);
	assert_memory_equal(e + 8, &our6, 16);
	assert_memory_equal(e + 24, &a6, 16);
	assert_int_equal(e[IP6_LEN], LSK_ICMP6_DST_UNREACH);
	assert_int_equal(e[IP6_LEN + 1], LSK_ICMP6_PORT_UNREACH);
	assert_memory_equal(e + IP6_LEN + 8, b + UNIT_ETH_LEN,
			    IP6_LEN + 8 + 40);
	unit_list_free(out);

	input1(f, b, frame6(b, &all_nodes, 3001, 5, 0, 1));
	assert_int_equal(unit_stats(f).udp6.IgnoredMulti, 1);
	assert_int_equal(out->n, 0);
	wild = bind6(f, &any, 3001);
	input1(f, b, frame6(b, &all_nodes, 3001, 5, 0, 1));
	assert_got(wild, &all_nodes, 3001, 5);
	unit_close(f, wild);
}

/* lsk_udp_bind_addr: an address not ours, one bound twice, another
 * family refused; the same port in both families, and on [::] and an
 * address, allowed; lsk_udp_ep_local says what was bound. */
static void
test_udp6_bind(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_addr a = { .family = AF_INET6, .v6 = a6 };
	struct lsk_udp_ep *ep, *v4, *wild;
	struct lsk_udp_addr got;

	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_udp_bind_addr(f->stack, &a, 7, NULL, &ep),
			 -EADDRNOTAVAIL);
	a.v6 = our6;
	assert_int_equal(lsk_udp_bind_addr(f->stack, &a, 7, NULL, &ep), 0);
	assert_int_equal(lsk_udp_bind_addr(f->stack, &a, 7, NULL, &wild),
			 -EADDRINUSE);
	a.family = AF_UNIX;
	assert_int_equal(lsk_udp_bind_addr(f->stack, &a, 8, NULL, &wild),
			 -EAFNOSUPPORT);
	unit_worker_sync(f);
	v4 = unit_bind(f, 0, 7, NULL);
	memset(&a.v6, 0, sizeof(a.v6));
	wild = bind6(f, &a.v6, 7);
	lsk_udp_ep_local(ep, &got);
	assert_int_equal(got.family, AF_INET6);
	assert_memory_equal(&got.v6, &our6, 16);
	assert_int_equal(lsk_udp_ep_addr(ep), 0);
	lsk_udp_ep_local(v4, &got);
	assert_int_equal(got.family, AF_INET);
	assert_int_equal(got.v4, 0);
	unit_close(f, ep);
	unit_close(f, v4);
	unit_close(f, wild);
}

static const char *
services_json(struct unit_fixture *f)
{
	static char buf[1024];
	FILE *m = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(m);
	assert_int_equal(lsk_services_write_json(f->stack, m), 0);
	assert_int_equal(fclose(m), 0);
	return buf;
}

/* `udp listen [ADDR6]:PORT`: brackets as in URLs; a multicast, an
 * address not ours, a missing bracket refused; close by the same words. */
static void
test_udp6_listen_words(void **state)
{
	struct unit_fixture *f = *state;

	lsk_worker_offline(f->worker);
	assert_int_equal(unit_cmd_rc(f, "udp listen [2001:db8::fe:7 echo"),
			 -EINVAL);
	assert_int_equal(unit_cmd_rc(f, "udp listen [ff02::1]:7 echo"),
			 -EINVAL);
	assert_int_equal(unit_cmd_rc(f, "udp listen [2001:db8::99]:7 echo"),
			 -EADDRNOTAVAIL);
	assert_int_equal(unit_cmd_rc(f, "udp listen [2001:db8::fe]:0 echo"),
			 -EINVAL);
	unit_cmd(f, "udp listen [2001:db8::fe]:7 echo");
	unit_cmd(f, "udp listen [::]:9 discard");
	unit_cmd(f, "udp listen 0.0.0.0:9 discard");
	assert_string_equal(services_json(f),
		"[{\"listen\": \"[2001:db8::fe]:7\", \"kind\": \"echo\", "
		"\"datagrams\": 0}, {\"listen\": \"[::]:9\", \"kind\": "
		"\"discard\", \"datagrams\": 0}, {\"listen\": \"0.0.0.0:9\", "
		"\"kind\": \"discard\", \"datagrams\": 0}]");
	assert_int_equal(unit_cmd_rc(f, "udp listen [2001:db8::fe]:7 discard"),
			 -EADDRINUSE);
	unit_cmd(f, "udp close [::]:9");
	unit_cmd(f, "udp close [2001:db8::fe]:7");
	assert_int_equal(unit_cmd_rc(f, "udp close [2001:db8::fe]:7"),
			 -ENOENT);
	unit_worker_sync(f);
}

/* `address del` of the IPv6 address a `udp listen` service is bound to
 * is refused (-EBUSY), as IPv4's, and the address stays; the service
 * closed, it goes. A service on [::] keeps no address. */
static void
test_udp6_address_in_use(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_route6_answer a;

	lsk_worker_offline(f->worker);
	unit_cmd(f, "udp listen [2001:db8::fe]:7 echo");
	unit_cmd(f, "udp listen [::]:9 discard");
	assert_int_equal(unit_cmd_rc(f, "address del 2001:db8::fe/64 port 0"),
			 -EBUSY);
	assert_int_equal(lsk_route6_get(f->stack, &our6, LSK_IFACE_ANY, &a), 0);
	assert_int_equal(a.verdict, LSK_VERDICT_LOCAL);
	unit_cmd(f, "udp close [2001:db8::fe]:7");
	unit_cmd(f, "address del 2001:db8::fe/64 port 0");
	assert_int_equal(lsk_route6_get(f->stack, &our6, LSK_IFACE_ANY, &a), 0);
	assert_int_not_equal(a.verdict, LSK_VERDICT_LOCAL);
	unit_cmd(f, "udp close [::]:9");
	unit_worker_sync(f);
}

/* The echo service on [our6]:7 answers from our6:7 to A:1000 out of P0
 * (the neighbour static), the checksum made by ip6_output; one of 3000
 * bytes leaves in fragments that reassemble to the whole echo. */
static void
test_udp6_echo_service(void **state)
{
	static uint8_t b[UNIT_FRAME_MAX], r[70000];
	struct unit_fixture *f = *state;
	struct lsk_stats st;
	unsigned int i, n;
	size_t len, total = 0;

	lsk_worker_offline(f->worker);
	lsk_stack_set_send_pool(f->stack, unit_pool);
	assert_int_equal(lsk_nd6_set_static(unit_nd6(f), &a6, UNIT_P0,
					    &unit_a_mac, &st), 0);
	unit_cmd(f, "udp listen [2001:db8::fe]:7 echo");
	unit_worker_sync(f);
	input1(f, b, frame6(b, &our6, 7, 100, 0, 1));
	assert_int_equal(lsk_services_poll(f->stack), 1);
	lsk_worker_flush(f->worker);
	n = 0;
	for (i = 0; i < f->tx.n[UNIT_P0]; i++) {
		struct rte_mbuf *m = f->tx.pkts[UNIT_P0][i];
		uint8_t *e = r, *ip = e + UNIT_ETH_LEN, *u = ip + IP6_LEN;

		len = unit_mbuf_bytes(m, r, sizeof(r));
		if (memcmp(e, &unit_a_mac, 6) != 0)
			continue;	/* DAD's */
		n++;
		assert_int_equal(len, UNIT_ETH_LEN + IP6_LEN + 8 + 100);
		assert_memory_equal(e + 6, &unit_p0_mac, 6);
		assert_int_equal(ip[6], IPPROTO_UDP);
		assert_memory_equal(ip + 8, &our6, 16);
		assert_memory_equal(ip + 24, &a6, 16);
		assert_int_equal(get16(u), 7);
		assert_int_equal(get16(u + 2), 1000);
		assert_int_equal(get16(u + 4), 108);
		assert_int_equal(udp6_sum(ip, u, 108), 0);
		assert_memory_equal(u + 8, b + UNIT_ETH_LEN + IP6_LEN + 8, 100);
	}
	assert_int_equal(n, 1);
	unit_tx_free(f);
	assert_int_equal(unit_stats(f).udp6.OutDatagrams, 1);

	/* 3000 bytes, in segments: out in fragments of P0's 1500 */
	len = frame6(r, &our6, 7, 3000, 0, 1);
	{
		struct lsk_list l = { .n = 0 };

		lsk_list_push(&l, unit_mbuf_big(r, len, UNIT_P0), IP6_LEN);
		lsk_udp6_input(f->worker, &l);
	}
	memcpy(b, r, UNIT_ETH_LEN + IP6_LEN + 8);	/* its headers */
	assert_int_equal(lsk_services_poll(f->stack), 1);
	lsk_worker_flush(f->worker);
	n = 0;
	for (i = 0; i < f->tx.n[UNIT_P0]; i++) {
		struct rte_mbuf *m = f->tx.pkts[UNIT_P0][i];
		uint8_t fr[UNIT_FRAME_MAX];
		const uint8_t *ip = fr + UNIT_ETH_LEN, *fh = ip + IP6_LEN;
		size_t fl = unit_mbuf_bytes(m, fr, sizeof(fr)), piece;

		if (memcmp(fr, &unit_a_mac, 6) != 0)
			continue;
		n++;
		assert_true(fl <= UNIT_ETH_LEN + 1500);
		assert_int_equal(ip[6], 44);
		assert_int_equal(fh[0], IPPROTO_UDP);
		piece = get16(ip + 4) - 8;
		assert_int_equal(get16(fh + 2) & 0xfff8, total);
		memcpy(r + total, fh + 8, piece);
		total += piece;
	}
	assert_true(n >= 3);
	assert_int_equal(total, 3008);
	assert_int_equal(get16(r), 7);
	assert_int_equal(get16(r + 2), 1000);
	assert_int_equal(get16(r + 4), 3008);
	unit_tx_free(f);
	assert_int_equal(unit_stats(f).ip6.FragOKs, 1);
	assert_int_equal(unit_stats(f).ip6.FragCreates, n);
	lsk_worker_offline(f->worker);
	unit_cmd(f, "udp close [2001:db8::fe]:7");
	unit_worker_sync(f);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_udp6_delivered),
		T(test_udp6_not_to_ip4_endpoints),
		T(test_udp6_checksums),
		T(test_udp6_lengths),
		T(test_udp6_no_port),
		T(test_udp6_bind),
		T(test_udp6_listen_words),
		T(test_udp6_address_in_use),
		T(test_udp6_echo_service),
	};

	return cmocka_run_group_tests_name("udp6_input", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
