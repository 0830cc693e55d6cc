/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by the unit test programs: EAL, mbuf pool, frame builders and the
 * section 0 fixture (see unit_common.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_udp.h>

#include "unit_common.h"
#include "ip6/nd6_priv.h"
#include "ip6/nd6.h"
#include "ip4/ip4.h"

#define UNIT_POOL_SIZE 8191
#define UNIT_POOL_CACHE 64

const struct rte_ether_addr unit_p0_mac = {
	.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x00, 0xfe } };
const struct rte_ether_addr unit_p1_mac = {
	.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x01, 0xfe } };
const struct rte_ether_addr unit_a_mac = {
	.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 } };
const struct rte_ether_addr unit_b_mac = {
	.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x01 } };
const struct rte_ether_addr unit_bcast_mac = {
	.addr_bytes = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } };
const struct rte_ether_addr unit_allhosts_mac = {
	.addr_bytes = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 } };

struct rte_mempool *unit_pool;
static bool eal_ready;
static unsigned int stack_seq;

/* ---------------------------------------------------------------- EAL */

static int
group_setup(bool telemetry)
{
	/* --no-shconf: no shared files, so test programs run in parallel;
	 * 512 MiB: a test may hold two stacks, each with both families'
	 * tables and their standbys (an IPv6 trie alone is 32 MiB) */
	static char *argv[] = {
		"unit", "--no-huge", "--no-pci", "-m", "512", "--no-shconf",
		"--log-level=*:error", "-l", "0", "--no-telemetry", NULL, NULL,
	};
	static char prefix[48];
	int argc = (int)RTE_DIM(argv) - 2;

	if (telemetry) {
		/* a socket of its own: <runtime dir of the prefix>/... */
		snprintf(prefix, sizeof(prefix), "--file-prefix=unit-tel-%d",
			 (int)getpid());
		argv[argc - 1] = prefix;
	}
	if (!eal_ready) {
		if (rte_eal_init(argc, argv) < 0) {
			fprintf(stderr, "rte_eal_init failed\n");
			return -1;
		}
		eal_ready = true;
	}
	if (unit_pool == NULL) {
		unit_pool = rte_pktmbuf_pool_create("unit_pool",
				UNIT_POOL_SIZE, UNIT_POOL_CACHE, 0,
				RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
		if (unit_pool == NULL) {
			fprintf(stderr, "cannot create the mbuf pool\n");
			return -1;
		}
	}
	return 0;
}

int
unit_group_setup(void **state)
{
	(void)state;
	return group_setup(false);
}

int
unit_group_setup_telemetry(void **state)
{
	(void)state;
	return group_setup(true);
}

int
unit_group_teardown(void **state)
{
	(void)state;
	rte_mempool_free(unit_pool);
	unit_pool = NULL;
	if (eal_ready) {
		rte_eal_cleanup();
		eal_ready = false;
	}
	return 0;
}

struct rte_mempool *
unit_small_pool(const char *name, uint16_t room)
{
	struct rte_mempool *mp = rte_pktmbuf_pool_create(name, 63, 0, 0,
		RTE_PKTMBUF_HEADROOM + room, SOCKET_ID_ANY);

	assert_non_null(mp);
	return mp;
}

unsigned int
unit_pool_in_use(void)
{
	return rte_mempool_in_use_count(unit_pool);
}

/* ------------------------------------------------------------- frames */

uint16_t
unit_ip4_hdr_sum(const uint8_t *ip)
{
	return (uint16_t)~fold(sum16(ip, (ip[0] & 0xf) * 4u, 0));
}

void
unit_ip4_fix_cksum(uint8_t *ip)
{
	put16(ip + 10, 0);
	put16(ip + 10, unit_ip4_hdr_sum(ip));
}

void
unit_pkt_init(struct unit_pkt *p, uint32_t dst)
{
	memset(p, 0, sizeof(*p));
	p->port = UNIT_P0;
	p->dst_mac = unit_p0_mac;
	p->src_mac = unit_a_mac;
	p->ttl = 64;
	p->proto = IPPROTO_UDP;
	p->id = 1;
	p->df = true;
	p->src = UNIT_A_IP;
	p->dst = dst;
	p->sport = 1000;
	p->dport = 2000;
	p->payload_len = 1000;
}

size_t
unit_pkt_build(const struct unit_pkt *p, uint8_t *buf, size_t cap)
{
	size_t ihl = 20 + p->opt_len;
	size_t tot = ihl + 8 + p->payload_len;
	size_t len = UNIT_ETH_LEN + tot + p->trailer_len;
	uint8_t *ip = buf + UNIT_ETH_LEN, *udp = ip + ihl;
	uint32_t sum;
	uint16_t ck;
	size_t i;

	assert_true(p->opt_len % 4 == 0 && p->opt_len <= 40);
	assert_true(len <= cap && tot <= UINT16_MAX);

	memcpy(buf, &p->dst_mac, RTE_ETHER_ADDR_LEN);
	memcpy(buf + 6, &p->src_mac, RTE_ETHER_ADDR_LEN);
	put16(buf + 12, RTE_ETHER_TYPE_IPV4);

	ip[0] = (uint8_t)(0x40 | (ihl / 4));
	ip[1] = p->tos;
	put16(ip + 2, (uint16_t)tot);
	put16(ip + 4, p->id);
	put16(ip + 6, p->df ? 0x4000 : 0);
	ip[8] = p->ttl;
	ip[9] = p->proto;
	put32(ip + 12, p->src);
	put32(ip + 16, p->dst);
	memcpy(ip + 20, p->opts, p->opt_len);
	unit_ip4_fix_cksum(ip);

	put16(udp, p->sport);
	put16(udp + 2, p->dport);
	put16(udp + 4, (uint16_t)(8 + p->payload_len));
	put16(udp + 6, 0);
	for (i = 0; i < p->payload_len; i++)
		udp[8 + i] = (uint8_t)(i * 7 + 3);
	/* pseudo header: src, dst, proto, UDP length */
	sum = sum16(ip + 12, 8, 0) + p->proto + 8u + p->payload_len;
	ck = (uint16_t)~fold(sum16(udp, 8 + p->payload_len, sum));
	put16(udp + 6, ck == 0 ? 0xffff : ck);

	/* a trailer that is clearly not part of the datagram */
	memset(buf + UNIT_ETH_LEN + tot, 0xee, p->trailer_len);
	return len;
}

size_t
unit_icmp_build(const struct unit_pkt *p, uint8_t type, uint8_t code,
		uint32_t rest, uint8_t *buf, size_t cap)
{
	struct unit_pkt q = *p;
	size_t len, ihl = 20 + p->opt_len, i;
	uint8_t *icmp;

	q.proto = IPPROTO_ICMP;
	/* the UDP builder makes the IP header and the room: 8 + payload */
	len = unit_pkt_build(&q, buf, cap);
	icmp = buf + UNIT_ETH_LEN + ihl;
	icmp[0] = type;
	icmp[1] = code;
	put16(icmp + 2, 0);
	put32(icmp + 4, rest);
	for (i = 0; i < p->payload_len; i++)
		icmp[8 + i] = (uint8_t)(i * 5 + 1);
	put16(icmp + 2, (uint16_t)~fold(sum16(icmp, 8 + p->payload_len, 0)));
	return len;
}

bool unit_nic_csum;

/* The flags a checksum-verifying NIC sets for this frame. */
static uint64_t
nic_csum_flags(const uint8_t *b, size_t len)
{
	const struct rte_ipv4_hdr *ip = (const void *)(b + UNIT_ETH_LEN);
	const struct rte_udp_hdr *uh;
	uint64_t flags;
	uint32_t sum;
	size_t hlen;

	if (len < UNIT_ETH_LEN + 20 || b[12] != 0x08 || b[13] != 0x00 ||
	    (ip->version_ihl >> 4) != 4)
		return 0;
	hlen = (ip->version_ihl & 0xf) * 4u;
	if (hlen < 20 || UNIT_ETH_LEN + hlen > len)
		return 0;
	flags = rte_raw_cksum(ip, hlen) == 0xffff ?
		RTE_MBUF_F_RX_IP_CKSUM_GOOD : RTE_MBUF_F_RX_IP_CKSUM_BAD;
	uh = (const void *)((const uint8_t *)ip + hlen);
	if (ip->next_proto_id != IPPROTO_UDP ||
	    (ip->fragment_offset & rte_cpu_to_be_16(0x3fff)) != 0 ||
	    rte_be_to_cpu_16(ip->total_length) != len - UNIT_ETH_LEN ||
	    rte_be_to_cpu_16(uh->dgram_len) !=
	    rte_be_to_cpu_16(ip->total_length) - hlen ||
	    uh->dgram_cksum == 0)
		return flags;
	sum = (uint32_t)rte_ipv4_phdr_cksum(ip, 0) +
	      rte_raw_cksum(uh, rte_be_to_cpu_16(uh->dgram_len));
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return flags | (sum == 0xffff ? RTE_MBUF_F_RX_L4_CKSUM_GOOD :
					RTE_MBUF_F_RX_L4_CKSUM_BAD);
}

struct rte_mbuf *
unit_mbuf_chain_from_bytes(const void *buf, size_t len, size_t first_len,
			   uint16_t port)
{
	struct rte_mbuf *m, *tail;
	char *d;

	if (first_len > len)
		first_len = len;
	m = rte_pktmbuf_alloc(unit_pool);
	assert_non_null(m);
	d = rte_pktmbuf_append(m, (uint16_t)first_len);
	assert_non_null(d);
	memcpy(d, buf, first_len);
	m->port = port;
	if (unit_nic_csum)
		m->ol_flags |= nic_csum_flags(buf, len);
	if (first_len == len)
		return m;

	tail = rte_pktmbuf_alloc(unit_pool);
	assert_non_null(tail);
	d = rte_pktmbuf_append(tail, (uint16_t)(len - first_len));
	assert_non_null(d);
	memcpy(d, (const uint8_t *)buf + first_len, len - first_len);
	assert_int_equal(rte_pktmbuf_chain(m, tail), 0);
	return m;
}

/* Frees an exact segment's buffer and its shared info (opaque). */
static void
exact_buf_free(void *addr, void *opaque)
{
	free(addr);
	free(opaque);
}

static struct rte_mbuf *
exact_seg(const void *data, size_t len)
{
	struct rte_mbuf_ext_shared_info *shinfo;
	size_t buf_len = RTE_PKTMBUF_HEADROOM + len;
	struct rte_mbuf *m;
	uint8_t *b;

	assert_true(buf_len <= UINT16_MAX);
	m = rte_pktmbuf_alloc(unit_pool);
	b = malloc(buf_len);
	shinfo = malloc(sizeof(*shinfo));
	assert_non_null(m);
	assert_non_null(b);
	assert_non_null(shinfo);
	shinfo->free_cb = exact_buf_free;
	shinfo->fcb_opaque = shinfo;
	rte_mbuf_ext_refcnt_set(shinfo, 1);
	rte_pktmbuf_attach_extbuf(m, b, RTE_BAD_IOVA, (uint16_t)buf_len,
				  shinfo);
	m->data_off = RTE_PKTMBUF_HEADROOM;
	memcpy(b + RTE_PKTMBUF_HEADROOM, data, len);
	m->data_len = (uint16_t)len;
	m->pkt_len = (uint32_t)len;
	return m;
}

struct rte_mbuf *
unit_mbuf_exact(const void *buf, size_t len, size_t first_len, uint16_t port)
{
	struct rte_mbuf *m;

	if (first_len > len)
		first_len = len;
	m = exact_seg(buf, first_len);
	m->port = port;
	if (unit_nic_csum)
		m->ol_flags |= nic_csum_flags(buf, len);
	if (first_len < len)
		assert_int_equal(rte_pktmbuf_chain(m, exact_seg(
			(const uint8_t *)buf + first_len, len - first_len)), 0);
	return m;
}

struct rte_mbuf *
unit_mbuf_segs_from_bytes(const void *buf, size_t len, const size_t *seg_len,
			  unsigned int n, uint16_t port)
{
	struct rte_mbuf *m = NULL, *seg;
	size_t off = 0;
	unsigned int i;
	char *d;

	assert_true(n >= 1);
	for (i = 0; i < n; i++) {
		size_t k = i + 1 < n ? seg_len[i] : len - off;

		assert_true(k <= len - off);
		seg = rte_pktmbuf_alloc(unit_pool);
		assert_non_null(seg);
		d = rte_pktmbuf_append(seg, (uint16_t)k);
		assert_non_null(d);
		memcpy(d, (const uint8_t *)buf + off, k);
		off += k;
		if (m == NULL)
			m = seg;
		else
			assert_int_equal(rte_pktmbuf_chain(m, seg), 0);
	}
	m->port = port;
	if (unit_nic_csum)
		m->ol_flags |= nic_csum_flags(buf, len);
	return m;
}

struct rte_mbuf *
unit_mbuf_from_bytes(const void *buf, size_t len, uint16_t port)
{
	return unit_mbuf_chain_from_bytes(buf, len, len, port);
}

struct rte_mbuf *
unit_pkt_mbuf(const struct unit_pkt *p)
{
	uint8_t buf[UNIT_FRAME_MAX];
	size_t len = unit_pkt_build(p, buf, sizeof(buf));

	return unit_mbuf_from_bytes(buf, len, p->port);
}

struct rte_mbuf *
unit_arp_mbuf(uint16_t port, uint16_t op, const struct rte_ether_addr *dst_mac,
	      const struct rte_ether_addr *sha, uint32_t sip,
	      const struct rte_ether_addr *tha, uint32_t tip)
{
	uint8_t b[42] = { 0 };
	uint8_t *a = b + UNIT_ETH_LEN;

	memcpy(b, dst_mac, RTE_ETHER_ADDR_LEN);
	memcpy(b + 6, sha, RTE_ETHER_ADDR_LEN);
	put16(b + 12, RTE_ETHER_TYPE_ARP);
	put16(a, 1);			/* Ethernet */
	put16(a + 2, RTE_ETHER_TYPE_IPV4);
	a[4] = 6;
	a[5] = 4;
	put16(a + 6, op);
	memcpy(a + 8, sha, RTE_ETHER_ADDR_LEN);
	put32(a + 14, sip);
	if (tha != NULL)
		memcpy(a + 18, tha, RTE_ETHER_ADDR_LEN);
	put32(a + 24, tip);
	return unit_mbuf_from_bytes(b, sizeof(b), port);
}

/* ------------------------------------------------------------ fixture */

static uint16_t
unit_tx_hook(void *arg, uint16_t port, uint16_t queue, struct rte_mbuf **pkts,
	     uint16_t n)
{
	struct unit_tx_capture *c = arg;
	uint16_t i, take = n;

	c->calls++;
	c->last_queue[port] = queue;
	if (c->accept >= 0 && take > c->accept)
		take = (uint16_t)c->accept;
	if (take > UNIT_TX_CAP - c->n[port])
		take = (uint16_t)(UNIT_TX_CAP - c->n[port]);
	for (i = 0; i < take; i++)
		c->pkts[port][c->n[port]++] = pkts[i];
	return take;
}

static int
fixture_configure(struct lsk_stack *s)
{
	static const char *const conf[] = {
		"port 0 mac 02:00:00:00:00:fe",
		"port 1 mac 02:00:00:00:01:fe",
		"address add 10.0.0.254/24 port 0",
		"address add 10.0.1.254/24 port 1",
		"neigh add 10.0.0.1 lladdr 02:00:00:00:00:01",
		"neigh add 10.0.1.1 lladdr 02:00:00:00:01:01",
		"route add 10.9.0.0/16 via 10.0.1.1",
	};
	char err[256];
	unsigned int i;
	int rc;

	lsk_config_begin(s);
	for (i = 0; i < RTE_DIM(conf); i++) {
		rc = lsk_config_exec(s, conf[i], "fixture", i + 1, err,
				     sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "%s\n", err);
			return rc;
		}
	}
	return lsk_config_commit(s);
}

void
unit_dad_settle(struct unit_fixture *f)
{
	struct lsk_nd6_table *t = f->stack->sh.nd6;
	uint32_t k;

	if (t == NULL)
		return;
	lsk_stack_set_send_pool(f->stack, unit_pool);
	t->next_timer = 0;
	f->stack->sh.neigh->next_timer = 0;	/* the flush's one deadline (worker.c) */
	lsk_worker_flush(f->worker);
	for (k = 0; k < t->n_addrs; k++)
		t->addrs[k].due = 0;
	t->next_timer = 0;
	f->stack->sh.neigh->next_timer = 0;	/* the flush's one deadline (worker.c) */
	lsk_worker_flush(f->worker);
	lsk_stack_set_send_pool(f->stack, NULL);
	unit_tx_free(f);
	f->tx.calls = 0;
	/* counters as a new worker's: the settling is not the test's */
	memset(&f->worker->stats, 0, sizeof(f->worker->stats));
	memset(f->worker->stage_timed, 0, sizeof(f->worker->stage_timed));
}

struct unit_fixture *
unit_fixture_create(enum lsk_mode mode)
{
	struct lsk_stack_params params = {
		.n_ports = 2,
		.socket_id = SOCKET_ID_ANY,
		.mode = mode,
	};
	struct unit_fixture *f;
	char name[32];

	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return NULL;
	f->in_use_start = unit_pool_in_use();
	f->tx.accept = -1;
	snprintf(name, sizeof(name), "unit%u", stack_seq++);
	params.name = name;
	if (lsk_stack_create(&params, &f->stack) < 0)
		goto fail;
	if (fixture_configure(f->stack) < 0)
		goto fail;
	if (lsk_worker_create(f->stack, 0, &f->worker) < 0)
		goto fail;
	lsk_worker_set_tx_fn(f->worker, unit_tx_hook, &f->tx);
	unit_worker_sync(f);
	unit_dad_settle(f);
	return f;
fail:
	lsk_stack_destroy(f->stack);
	free(f);
	return NULL;
}

bool
unit_fixture_release(struct unit_fixture *f)
{
	unsigned int in_use, start;

	bool clean = true;

	if (f == NULL)
		return true;
	if (f->worker != NULL && f->worker->icmp_out.n != 0) {
		print_error("%u ICMP messages left unsent on icmp_out\n",
			    f->worker->icmp_out.n);
		unit_list_free(&f->worker->icmp_out);
		clean = false;
	}
	lsk_neigh_drop_held(f->stack);
	lsk_worker_destroy(f->worker);	/* may still send what it holds */
	unit_tx_free(f);
	if (f->nd6_made != NULL && f->stack->sh.nd6 == f->nd6_made) {
		lsk_nd6_table_free(f->nd6_made);
		f->stack->sh.nd6 = NULL;
	}
	lsk_stack_destroy(f->stack);
	in_use = unit_pool_in_use();
	start = f->in_use_start;
	free(f);
	if (in_use != start)
		print_error("mbuf leak: %u in use, %u when the test began\n",
			    in_use, start);
	return clean && in_use == start;
}

struct lsk_nd6_table *
unit_nd6(struct unit_fixture *f)
{
	static unsigned int seq;
	char name[32];

	if (f->stack->sh.nd6 == NULL) {
		snprintf(name, sizeof(name), "u6nd%u", seq++);
		if (lsk_nd6_table_create(&f->stack->sh, name, 64) < 0)
			return NULL;
		f->nd6_made = f->stack->sh.nd6;
	}
	return f->stack->sh.nd6;
}

void
unit_fixture_destroy(struct unit_fixture *f)
{
	assert_true(unit_fixture_release(f));
}

static int
setup_mode(void **state, enum lsk_mode mode)
{
	*state = unit_fixture_create(mode);
	return *state == NULL ? -1 : 0;
}

int
unit_setup_list(void **state)
{
	return setup_mode(state, LSK_MODE_LIST);
}

int
unit_setup_single(void **state)
{
	return setup_mode(state, LSK_MODE_SINGLE);
}

int
unit_teardown(void **state)
{
	struct unit_fixture *f = *state;

	*state = NULL;
	unit_fixture_destroy(f);
	unit_nic_csum = false;
	return 0;
}

void
unit_worker_sync(struct unit_fixture *f)
{
	f->worker->fwd = f->stack->sh.fwd;
	f->worker->fwd6 = f->stack->sh.fwd6;
	f->worker->udp = f->stack->sh.udp;
	f->worker->filter = f->stack->sh.filter;
	f->worker->ip4w->rcache = f->worker->ip4w->rcache_pub;
	f->worker->set = f->stack->sh.settings;
}

int
unit_bind_rc(struct unit_fixture *f, uint32_t addr, uint16_t port,
	     const struct lsk_udp_bind_opts *opts, struct lsk_udp_ep **ep)
{
	int rc;

	lsk_worker_offline(f->worker);
	rc = lsk_udp_bind(f->stack, addr, port, opts, ep);
	unit_worker_sync(f);
	return rc;
}

struct lsk_udp_ep *
unit_bind(struct unit_fixture *f, uint32_t addr, uint16_t port,
	  const struct lsk_udp_bind_opts *opts)
{
	struct lsk_udp_ep *ep = NULL;

	assert_int_equal(unit_bind_rc(f, addr, port, opts, &ep), 0);
	assert_non_null(ep);
	return ep;
}

void
unit_close(struct unit_fixture *f, struct lsk_udp_ep *ep)
{
	lsk_worker_offline(f->worker);
	lsk_udp_close(ep);
	unit_worker_sync(f);
}

unsigned int
unit_recv_free(struct lsk_udp_ep *ep, unsigned int n)
{
	struct lsk_udp_msg msgs[64];
	unsigned int got = 0;
	int k, i;

	while (got < n) {
		k = lsk_udp_recv_burst(ep, msgs, RTE_MIN(n - got, 64u));
		assert_true(k >= 0);
		if (k == 0)
			break;
		for (i = 0; i < k; i++)
			rte_pktmbuf_free(msgs[i].mbuf);
		got += (unsigned int)k;
	}
	return got;
}

static int
cmd_exec(struct unit_fixture *f, const char *line, char *err, size_t len)
{
	int rc;

	/*
	 * Publishing a table waits for every worker that polls to pass a
	 * quiescent state; this thread is also the worker's, so the worker
	 * goes off line meanwhile, as one that stops polling must. Its next
	 * poll brings it back.
	 */
	lsk_worker_offline(f->worker);
	rc = lsk_config_exec(f->stack, line, "test", 1, err, len);
	unit_worker_sync(f);
	return rc;
}

int
unit_cmd_rc(struct unit_fixture *f, const char *line)
{
	char err[256];

	return cmd_exec(f, line, err, sizeof(err));
}

void
unit_cmd(struct unit_fixture *f, const char *line)
{
	char err[256];
	int rc = cmd_exec(f, line, err, sizeof(err));

	if (rc != 0)
		print_error("'%s': %s\n", line, err);
	assert_int_equal(rc, 0);
}

void
unit_input(struct unit_fixture *f, struct rte_mbuf **pkts, uint16_t n)
{
	lsk_worker_input(f->worker, pkts, n);
	lsk_worker_flush(f->worker);
}

void
unit_input_one(struct unit_fixture *f, struct rte_mbuf *m)
{
	unit_input(f, &m, 1);
}

void
unit_input_pkt(struct unit_fixture *f, const struct unit_pkt *p)
{
	unit_input_one(f, unit_pkt_mbuf(p));
}

unsigned int
unit_tx_udp_to(const struct unit_fixture *f, uint16_t port, uint32_t dst)
{
	unsigned int i, n = 0;

	for (i = 0; i < f->tx.n[port]; i++) {
		struct rte_mbuf *m = f->tx.pkts[port][i];
		const struct rte_ether_hdr *eh;
		const struct rte_ipv4_hdr *ip;

		if (rte_pktmbuf_data_len(m) < UNIT_ETH_LEN + sizeof(*ip))
			continue;
		eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
		ip = unit_ip4(m);
		if (eh->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV4) &&
		    ip->next_proto_id == IPPROTO_UDP &&
		    (dst == 0 || rte_be_to_cpu_32(ip->dst_addr) == dst))
			n++;
	}
	return n;
}

void
unit_tx_free(struct unit_fixture *f)
{
	unsigned int p;

	for (p = 0; p < LSK_MAX_PORTS; p++) {
		rte_pktmbuf_free_bulk(f->tx.pkts[p], f->tx.n[p]);
		f->tx.n[p] = 0;
	}
}

uint16_t
unit_tx_count_free(void *arg, uint16_t port, uint16_t queue,
		   struct rte_mbuf **pkts, uint16_t n)
{
	unsigned int *count = arg;

	(void)port;
	(void)queue;
	*count += n;
	rte_pktmbuf_free_bulk(pkts, n);
	return n;
}

struct lsk_stats
unit_stats(const struct unit_fixture *f)
{
	struct lsk_stats st;

	assert_int_equal(lsk_stats_read(f->stack, &st), 0);
	return st;
}

void
unit_assert_ip(const struct unit_fixture *f, struct lsk_ip_stats want)
{
#define IP_FIELD(name) { #name, offsetof(struct lsk_ip_stats, name) }
	static const struct {
		const char *name;
		size_t off;
	} fields[] = {
		IP_FIELD(InReceives), IP_FIELD(InHdrErrors),
		IP_FIELD(InTruncatedPkts), IP_FIELD(InCsumErrors),
		IP_FIELD(InAddrErrors), IP_FIELD(InNoRoutes),
		IP_FIELD(InDiscards), IP_FIELD(InUnknownProtos),
		IP_FIELD(ForwDatagrams), IP_FIELD(OutDiscards),
		IP_FIELD(InDelivers), IP_FIELD(OutNoRoutes),
		IP_FIELD(FragFails), IP_FIELD(FragOKs), IP_FIELD(FragCreates),
		IP_FIELD(ReasmReqds), IP_FIELD(ReasmOKs), IP_FIELD(ReasmFails),
		IP_FIELD(ReasmTimeout), IP_FIELD(ReasmOverlaps),
		IP_FIELD(ReasmDuplicates),
	};
#undef IP_FIELD
	struct lsk_stats st = unit_stats(f);
	unsigned int i, bad = 0;

	RTE_BUILD_BUG_ON(RTE_DIM(fields) * sizeof(uint64_t) !=
			 sizeof(struct lsk_ip_stats));
	for (i = 0; i < RTE_DIM(fields); i++) {
		uint64_t got, exp;

		memcpy(&got, (const char *)&st.ip + fields[i].off, sizeof(got));
		memcpy(&exp, (const char *)&want + fields[i].off, sizeof(exp));
		if (got != exp) {
			print_error("ip.%s: %" PRIu64 ", expected %" PRIu64 "\n",
				    fields[i].name, got, exp);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

void
unit_assert_ip_balance(const struct lsk_stats *st)
{
	const struct lsk_ip_stats *ip = &st->ip;

	assert_int_equal(ip->ForwDatagrams + ip->InDelivers + ip->InHdrErrors +
			 ip->InTruncatedPkts + ip->InAddrErrors +
			 ip->InNoRoutes + ip->InDiscards +
			 ip->InUnknownProtos + ip->FragFails,
			 ip->InReceives);
}

void
unit_assert_same_counters(const struct unit_fixture *a,
			  const struct unit_fixture *b, bool ports)
{
	struct lsk_stats x = unit_stats(a), y = unit_stats(b);

	assert_memory_equal(&x.ip, &y.ip, sizeof(x.ip));
	assert_memory_equal(&x.udp, &y.udp, sizeof(x.udp));
	assert_memory_equal(&x.icmp, &y.icmp, sizeof(x.icmp));
	assert_memory_equal(&x.arp, &y.arp, sizeof(x.arp));
	if (ports)
		assert_memory_equal(x.ports, y.ports, sizeof(x.ports));
}

void
unit_assert_reasm_balance(const struct lsk_stats *st)
{
	const struct lsk_ip_stats *ip = &st->ip;

	assert_int_equal(ip->ForwDatagrams + ip->InDelivers + ip->InHdrErrors +
			 ip->InTruncatedPkts + ip->InAddrErrors +
			 ip->InNoRoutes + ip->InDiscards +
			 ip->InUnknownProtos + ip->FragFails +
			 ip->ReasmReqds - ip->ReasmOKs, ip->InReceives);
}

void
unit_traffic_fwd_noroute(struct unit_fixture *f)
{
	struct unit_pkt p;

	unit_pkt_init(&p, UNIT_FAR_IP);
	unit_input_pkt(f, &p);
	unit_input_pkt(f, &p);
	unit_pkt_init(&p, UNIT_IPV4(198, 51, 100, 1));
	unit_input_pkt(f, &p);
	unit_tx_free(f);
}

void
unit_list_free(struct lsk_list *l)
{
	rte_pktmbuf_free_bulk(l->pkts, l->n);
	l->n = 0;
}

size_t
unit_frag_build(const uint8_t *frame, size_t ofs, size_t len, bool mf,
		uint8_t *out, size_t cap)
{
	const uint8_t *ip = frame + UNIT_ETH_LEN;
	size_t ihl = (ip[0] & 0xf) * 4u;
	uint8_t *fip = out + UNIT_ETH_LEN;

	assert_true(ofs % 8 == 0 && ofs / 8 <= 0x1fff);
	assert_true(UNIT_ETH_LEN + ihl + len <= cap && ihl + len <= UINT16_MAX);
	memcpy(out, frame, UNIT_ETH_LEN + ihl);
	memcpy(fip + ihl, ip + ihl + ofs, len);
	put16(fip + 2, (uint16_t)(ihl + len));
	put16(fip + 6, (uint16_t)((mf ? 0x2000 : 0) | ofs / 8));
	unit_ip4_fix_cksum(fip);
	return UNIT_ETH_LEN + ihl + len;
}

struct rte_mbuf *
unit_mbuf_big(const void *buf, size_t len, uint16_t port)
{
	size_t seg_len[64];
	unsigned int n = 0;

	while (len - n * (size_t)UNIT_FRAME_MAX > UNIT_FRAME_MAX) {
		assert_true(n < RTE_DIM(seg_len));
		seg_len[n++] = UNIT_FRAME_MAX;
	}
	return unit_mbuf_segs_from_bytes(buf, len, seg_len, n + 1, port);
}

size_t
unit_mbuf_bytes(const struct rte_mbuf *m, uint8_t *buf, size_t cap)
{
	uint32_t len = rte_pktmbuf_pkt_len(m);
	const void *p;

	assert_true(len <= cap);
	p = rte_pktmbuf_read(m, 0, len, buf);
	assert_non_null(p);
	if (p != buf)
		memcpy(buf, p, len);
	return len;
}

/* ----------------------------------------------------------- JSON */

struct json_in {
	const char *p, *start;
	bool bad;
};

static void
json_ws(struct json_in *in)
{
	while (*in->p == ' ' || *in->p == '\t' || *in->p == '\n' ||
	       *in->p == '\r')
		in->p++;
}

static struct unit_json *json_value(struct json_in *in, unsigned int depth);

static int
json_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A string at in->p (its opening quote); NULL when invalid. */
static char *
json_string(struct json_in *in)
{
	size_t cap = 16, n = 0;
	char *s = malloc(cap);

	if (s == NULL || *in->p != '"')
		goto bad;
	in->p++;
	while (*in->p != '"') {
		char c = *in->p++;

		if ((unsigned char)c < 0x20)
			goto bad;		/* also the end of the text */
		if (c == '\\') {
			int k;

			c = *in->p++;
			switch (c) {
			case '"': case '\\': case '/': break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'u':
				for (k = 0; k < 4; k++)
					if (json_hex(in->p[k]) < 0)
						goto bad;
				in->p += 4;
				c = '?';	/* kept as a mark only */
				break;
			default:
				goto bad;
			}
		}
		if (n + 2 > cap) {
			char *t = realloc(s, cap *= 2);

			if (t == NULL)
				goto bad;
			s = t;
		}
		s[n++] = c;
	}
	in->p++;
	s[n] = '\0';
	return s;
bad:
	free(s);
	in->bad = true;
	return NULL;
}

static bool
json_number(struct json_in *in, struct unit_json *j)
{
	const char *s = in->p, *digits;
	char *end;

	if (*in->p == '-')
		in->p++;
	digits = in->p;
	if (*in->p == '0')
		in->p++;
	else if (*in->p >= '1' && *in->p <= '9')
		while (*in->p >= '0' && *in->p <= '9')
			in->p++;
	else
		return false;
	j->is_uint = *s != '-';
	if (*in->p == '.') {
		in->p++;
		j->is_uint = false;
		if (!(*in->p >= '0' && *in->p <= '9'))
			return false;
		while (*in->p >= '0' && *in->p <= '9')
			in->p++;
	}
	if (*in->p == 'e' || *in->p == 'E') {
		in->p++;
		j->is_uint = false;
		if (*in->p == '+' || *in->p == '-')
			in->p++;
		if (!(*in->p >= '0' && *in->p <= '9'))
			return false;
		while (*in->p >= '0' && *in->p <= '9')
			in->p++;
	}
	j->num = strtod(s, NULL);
	if (j->is_uint) {
		errno = 0;
		j->u = strtoull(digits, &end, 10);
		if (errno != 0)
			j->is_uint = false;
	}
	return true;
}

static bool
json_word(struct json_in *in, const char *w)
{
	size_t n = strlen(w);

	if (strncmp(in->p, w, n) != 0)
		return false;
	in->p += n;
	return true;
}

/* The members (object) or elements (array) up to close. */
static bool
json_items(struct json_in *in, struct unit_json *j, char close,
	   unsigned int depth)
{
	struct unit_json **tail = &j->child;

	in->p++;
	json_ws(in);
	if (*in->p == close) {
		in->p++;
		return true;
	}
	for (;;) {
		struct unit_json *v;
		char *key = NULL;

		json_ws(in);
		if (j->type == UNIT_JSON_OBJECT) {
			const struct unit_json *o;

			key = json_string(in);
			if (key == NULL)
				return false;
			for (o = j->child; o != NULL; o = o->next)
				if (strcmp(o->key, key) == 0) {
					free(key);
					return false;	/* named twice */
				}
			json_ws(in);
			if (*in->p != ':') {
				free(key);
				return false;
			}
			in->p++;
		}
		v = json_value(in, depth + 1);
		if (v == NULL) {
			free(key);
			return false;
		}
		v->key = key;
		*tail = v;
		tail = &v->next;
		json_ws(in);
		if (*in->p == close) {
			in->p++;
			return true;
		}
		if (*in->p != ',')
			return false;
		in->p++;
	}
}

static struct unit_json *
json_value(struct json_in *in, unsigned int depth)
{
	struct unit_json *j = calloc(1, sizeof(*j));
	bool ok;

	if (j == NULL || depth > 64) {
		free(j);
		in->bad = true;
		return NULL;
	}
	json_ws(in);
	switch (*in->p) {
	case '{':
		j->type = UNIT_JSON_OBJECT;
		ok = json_items(in, j, '}', depth);
		break;
	case '[':
		j->type = UNIT_JSON_ARRAY;
		ok = json_items(in, j, ']', depth);
		break;
	case '"':
		j->type = UNIT_JSON_STRING;
		j->str = json_string(in);
		ok = j->str != NULL;
		break;
	case 't':
		j->type = UNIT_JSON_TRUE;
		ok = json_word(in, "true");
		break;
	case 'f':
		j->type = UNIT_JSON_FALSE;
		ok = json_word(in, "false");
		break;
	case 'n':
		j->type = UNIT_JSON_NULL;
		ok = json_word(in, "null");
		break;
	default:
		j->type = UNIT_JSON_NUMBER;
		ok = json_number(in, j);
		break;
	}
	if (!ok) {
		in->bad = true;
		unit_json_free(j);
		return NULL;
	}
	return j;
}

struct unit_json *
unit_json_parse(const char *text, size_t *err_at)
{
	struct json_in in = { .p = text, .start = text };
	struct unit_json *j = json_value(&in, 0);

	if (j != NULL) {
		json_ws(&in);
		if (*in.p != '\0') {
			unit_json_free(j);
			j = NULL;
		}
	}
	if (j == NULL && err_at != NULL)
		*err_at = (size_t)(in.p - in.start);
	return j;
}

void
unit_json_free(struct unit_json *j)
{
	while (j != NULL) {
		struct unit_json *next = j->next;

		unit_json_free(j->child);
		free(j->key);
		free(j->str);
		free(j);
		j = next;
	}
}

const struct unit_json *
unit_json_get(const struct unit_json *j, const char *key)
{
	const struct unit_json *c;

	if (j == NULL || j->type != UNIT_JSON_OBJECT)
		return NULL;
	for (c = j->child; c != NULL; c = c->next)
		if (strcmp(c->key, key) == 0)
			return c;
	return NULL;
}

const struct unit_json *
unit_json_at(const struct unit_json *j, unsigned int i)
{
	const struct unit_json *c;

	if (j == NULL)
		return NULL;
	for (c = j->child; c != NULL && i > 0; c = c->next)
		i--;
	return c;
}

unsigned int
unit_json_len(const struct unit_json *j)
{
	const struct unit_json *c;
	unsigned int n = 0;

	if (j == NULL)
		return 0;
	for (c = j->child; c != NULL; c = c->next)
		n++;
	return n;
}

uint64_t
unit_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UINT64_C(0x2545F4914F6CDD1D);
}

/* ------------------------------------------------ frames we made */

bool
unit_frame_is_icmp(const struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eh =
		rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(eh + 1);

	return rte_pktmbuf_data_len(m) >= UNIT_ETH_LEN + sizeof(*ip) + 8 &&
	       eh->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV4) &&
	       ip->next_proto_id == IPPROTO_ICMP;
}

bool
unit_frame_is_arp(const struct rte_mbuf *m)
{
	const struct rte_ether_hdr *eh =
		rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);

	return rte_pktmbuf_data_len(m) >= UNIT_ETH_LEN + 28 &&
	       eh->ether_type == RTE_BE16(RTE_ETHER_TYPE_ARP);
}

static bool
icmp_is(const struct rte_mbuf *m, int type, int code)
{
	const uint8_t *icmp;

	if (!unit_frame_is_icmp(m))
		return false;
	icmp = rte_pktmbuf_mtod_offset(m, const uint8_t *,
		UNIT_ETH_LEN + (unit_ip4((struct rte_mbuf *)(uintptr_t)m)->
				version_ihl & 0xf) * 4u);
	return (type < 0 || icmp[0] == type) && (code < 0 || icmp[1] == code);
}

unsigned int
unit_tx_icmp(const struct unit_fixture *f, uint16_t port, int type, int code)
{
	unsigned int i, n = 0;

	for (i = 0; i < f->tx.n[port]; i++)
		n += icmp_is(f->tx.pkts[port][i], type, code);
	return n;
}

struct rte_mbuf *
unit_tx_icmp_nth(const struct unit_fixture *f, uint16_t port, int type,
		 int code, unsigned int nth)
{
	unsigned int i, k = 0;

	for (i = 0; i < f->tx.n[port]; i++)
		if (icmp_is(f->tx.pkts[port][i], type, code) && k++ == nth)
			return f->tx.pkts[port][i];
	fail_msg("no ICMP %d/%d number %u on port %u", type, code, nth,
		 port);
	return NULL;
}

unsigned int
unit_tx_icmp_about(const struct unit_fixture *f, uint16_t port, int type,
		   int code, uint32_t orig_dst)
{
	unsigned int i, n = 0;

	for (i = 0; i < f->tx.n[port]; i++) {
		struct rte_mbuf *m = f->tx.pkts[port][i];
		const uint8_t *q;

		if (!icmp_is(m, type, code) ||
		    rte_pktmbuf_data_len(m) < UNIT_ETH_LEN + 28 + 20)
			continue;
		q = rte_pktmbuf_mtod_offset(m, const uint8_t *,
					    UNIT_ETH_LEN + 28);
		if (get32(q + 16) == orig_dst)
			n++;
	}
	return n;
}

unsigned int
unit_tx_arp_requests(const struct unit_fixture *f, uint16_t port,
		     uint32_t tip)
{
	unsigned int i, n = 0;

	for (i = 0; i < f->tx.n[port]; i++) {
		const uint8_t *a;

		if (!unit_frame_is_arp(f->tx.pkts[port][i]))
			continue;
		a = rte_pktmbuf_mtod_offset(f->tx.pkts[port][i],
					    const uint8_t *, UNIT_ETH_LEN);
		if (get16(a + 6) == 1 && (tip == 0 || get32(a + 24) == tip))
			n++;
	}
	return n;
}

unsigned int
unit_tx_count(const struct unit_fixture *f)
{
	unsigned int p, n = 0;

	for (p = 0; p < LSK_MAX_PORTS; p++)
		n += f->tx.n[p];
	return n;
}

void
unit_assert_icmp_error(const struct rte_mbuf *e,
		       const struct unit_icmp_want *want,
		       const uint8_t *orig_ip, size_t orig_len)
{
	const uint8_t *fr = rte_pktmbuf_mtod(e, const uint8_t *);
	const uint8_t *ip = fr + UNIT_ETH_LEN, *icmp = ip + 20;
	size_t quote = RTE_MIN(orig_len, (size_t)(576 - 28));
	uint32_t osrc = get32(orig_ip + 12);

	assert_int_equal(e->nb_segs, 1);
	assert_int_equal(rte_pktmbuf_pkt_len(e), UNIT_ETH_LEN + 28 + quote);
	if (want->dst_mac != NULL)
		assert_memory_equal(fr, want->dst_mac, RTE_ETHER_ADDR_LEN);
	if (want->src_mac != NULL)
		assert_memory_equal(fr + 6, want->src_mac, RTE_ETHER_ADDR_LEN);
	assert_int_equal(get16(fr + 12), RTE_ETHER_TYPE_IPV4);
	assert_int_equal(ip[0], 0x45);
	assert_int_equal(ip[1], (orig_ip[1] & 0x1e) | 0xc0);
	assert_int_equal(get16(ip + 2), 28 + quote);
	assert_int_equal(get16(ip + 6), 0);
	assert_int_equal(ip[8], 64);
	assert_int_equal(ip[9], IPPROTO_ICMP);
	assert_int_equal(unit_ip4_hdr_sum(ip), 0);
	assert_int_equal(get32(ip + 12), want->src);
	assert_int_equal(get32(ip + 16), osrc);
	assert_int_equal(icmp[0], want->type);
	assert_int_equal(icmp[1], want->code);
	assert_int_equal(fold(sum16(icmp, 8 + quote, 0)), 0xffff);
	assert_int_equal(get16(icmp + 4), 0);
	assert_int_equal(get16(icmp + 6),
			 want->type == 3 && want->code == 4 ? want->mtu : 0);
	assert_memory_equal(icmp + 8, orig_ip, quote);
}

bool
unit_udp_csum_ok(const struct rte_mbuf *m)
{
	const uint8_t *ip = rte_pktmbuf_mtod_offset(m, const uint8_t *,
						    UNIT_ETH_LEN);
	size_t ihl = (ip[0] & 0xf) * 4u;
	const uint8_t *udp = ip + ihl;
	uint16_t ulen = get16(udp + 4);
	uint32_t sum;

	if (get16(udp + 6) == 0 ||
	    UNIT_ETH_LEN + ihl + ulen > rte_pktmbuf_data_len(m))
		return false;
	sum = sum16(ip + 12, 8, 0) + IPPROTO_UDP + ulen;
	return fold(sum16(udp, ulen, sum)) == 0xffff;
}

void
unit_icmp_out_send(struct unit_fixture *f)
{
	if (f->worker->icmp_out.n != 0)
		lsk_icmp4_output(f->worker);
	lsk_worker_flush(f->worker);
}

/*
 * EAL memory held by unit_eat_memory: each chunk starts with a pointer
 * to the one taken before it, so holding them needs no memory of its own.
 */
static void *eaten;

void
unit_eat_memory(void)
{
	static const size_t sizes[] = { 1 << 20, 64 << 10, 4 << 10, 256, 64 };
	unsigned int i;
	void *p;

	for (i = 0; i < RTE_DIM(sizes); i++) {
		while ((p = rte_malloc("unit_eat", sizes[i], 0)) != NULL) {
			/* what reuses a freed block finds it overwritten */
			memset(p, 0xa5, sizes[i]);
			*(void **)p = eaten;
			eaten = p;
		}
	}
}

void
unit_free_memory(void)
{
	while (eaten != NULL) {
		void *next = *(void **)eaten;

		rte_free(eaten);
		eaten = next;
	}
}

size_t
unit_heap_allocated(void)
{
	struct rte_malloc_socket_stats st;
	size_t total = 0;
	int s;

	for (s = 0; s < RTE_MAX_NUMA_NODES; s++)
		if (rte_malloc_get_socket_stats(s, &st) == 0)
			total += st.heap_allocsz_bytes;
	return total;
}

/* A frame the stack made, with what may differ between the two cleared:
 * ICMP messages are made in stage order by a list and in packet order
 * alone, so their IP IDs (and header checksums) follow that order. */
struct own_frame {
	uint16_t len;
	uint8_t b[UNIT_FRAME_MAX];
};

static int
own_frame_cmp(const void *x, const void *y)
{
	const struct own_frame *a = x, *b = y;

	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return memcmp(a->b, b->b, a->len);
}

/* The frames f made itself on port, canonical and sorted; returns how
 * many. */
static unsigned int
own_frames(const struct unit_fixture *f, uint16_t port, struct own_frame *o)
{
	unsigned int i, n = 0;

	for (i = 0; i < f->tx.n[port]; i++) {
		struct rte_mbuf *m = f->tx.pkts[port][i];
		uint8_t *b = o[n].b;

		if (!unit_frame_is_icmp(m) && !unit_frame_is_arp(m))
			continue;
		assert_true(rte_pktmbuf_data_len(m) <= UNIT_FRAME_MAX);
		o[n].len = rte_pktmbuf_data_len(m);
		memcpy(b, rte_pktmbuf_mtod(m, void *), o[n].len);
		if (unit_frame_is_icmp(m)) {
			memset(b + UNIT_ETH_LEN + 4, 0, 2);	/* ID */
			memset(b + UNIT_ETH_LEN + 10, 0, 2);	/* checksum */
		}
		n++;
	}
	qsort(o, n, sizeof(o[0]), own_frame_cmp);
	return n;
}

/*
 * a and b sent the same datagrams on each port, in the same order, byte
 * for byte; and the same ICMP and ARP frames, in any order.
 */
void
unit_assert_same_frames(const struct unit_fixture *a,
			const struct unit_fixture *b)
{
	static struct own_frame oa[UNIT_TX_CAP], ob[UNIT_TX_CAP];
	unsigned int port, i, j, na, nb;

	for (port = 0; port < LSK_MAX_PORTS; port++) {
		for (i = 0, j = 0;; i++, j++) {
			struct rte_mbuf *x, *y;

			while (i < a->tx.n[port] &&
			       (unit_frame_is_icmp(a->tx.pkts[port][i]) ||
				unit_frame_is_arp(a->tx.pkts[port][i])))
				i++;
			while (j < b->tx.n[port] &&
			       (unit_frame_is_icmp(b->tx.pkts[port][j]) ||
				unit_frame_is_arp(b->tx.pkts[port][j])))
				j++;
			if (i == a->tx.n[port] || j == b->tx.n[port]) {
				assert_int_equal(i, a->tx.n[port]);
				assert_int_equal(j, b->tx.n[port]);
				break;
			}
			x = a->tx.pkts[port][i];
			y = b->tx.pkts[port][j];
			assert_int_equal(rte_pktmbuf_pkt_len(x),
					 rte_pktmbuf_pkt_len(y));
			assert_memory_equal(rte_pktmbuf_mtod(x, void *),
					    rte_pktmbuf_mtod(y, void *),
					    rte_pktmbuf_data_len(x));
		}
		na = own_frames(a, (uint16_t)port, oa);
		nb = own_frames(b, (uint16_t)port, ob);
		assert_int_equal(na, nb);
		for (i = 0; i < na; i++) {
			assert_int_equal(oa[i].len, ob[i].len);
			assert_memory_equal(oa[i].b, ob[i].b, oa[i].len);
		}
	}
}

size_t
unit_frame_tag(uint8_t *b, size_t len, uint16_t tci)
{
	memmove(b + 16, b + 12, len - 12);
	b[12] = 0x81;
	b[13] = 0x00;
	b[14] = (uint8_t)(tci >> 8);
	b[15] = (uint8_t)tci;
	return len + 4;
}

int
unit_frame_vid(const struct rte_mbuf *m)
{
	const uint8_t *b = rte_pktmbuf_mtod(m, const uint8_t *);

	if (b[12] != 0x81 || b[13] != 0x00)
		return -1;
	return (b[14] << 8 | b[15]) & 0x0fff;
}

struct rte_mbuf *
unit_pkt_mbuf_tagged(const struct unit_pkt *p, uint16_t tci)
{
	uint8_t b[UNIT_FRAME_MAX + 4];
	size_t len = unit_pkt_build(p, b, sizeof(b) - 4);

	len = unit_frame_tag(b, len, tci);
	return unit_mbuf_from_bytes(b, len, p->port);
}

struct rte_mbuf *
unit_mbuf_in_pool(struct rte_mempool *mp, const void *buf, size_t len,
		  uint16_t room, uint16_t port)
{
	const uint8_t *b = buf;
	struct rte_mbuf *head = NULL, *m;
	size_t off, n;
	char *d;

	for (off = 0; off < len; off += n) {
		n = RTE_MIN(len - off, (size_t)room);
		m = rte_pktmbuf_alloc(mp);
		assert_non_null(m);
		d = rte_pktmbuf_append(m, (uint16_t)n);
		assert_non_null(d);
		memcpy(d, b + off, n);
		if (head == NULL)
			head = m;
		else
			assert_int_equal(rte_pktmbuf_chain(head, m), 0);
	}
	assert_non_null(head);
	head->port = port;
	return head;
}

static void *
race_thread(void *arg)
{
	struct unit_race *r = arg;
	struct lsk_worker *w = r->f->worker;
	struct rte_mbuf *pkts[UNIT_RACE_BURST];

	while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE) ||
	       r->bursts < r->min_bursts) {
		uint16_t n = r->burst(r->arg, pkts);

		lsk_worker_input(w, pkts, n);
		lsk_worker_flush(w);
		r->sent += n;
		r->bursts++;
	}
	lsk_worker_offline(w);
	return NULL;
}

void
unit_race_start(struct unit_race *r)
{
	__atomic_store_n(&r->done, 0, __ATOMIC_RELAXED);
	r->sent = r->bursts = 0;
	lsk_worker_offline(r->f->worker);
	assert_int_equal(pthread_create(&r->thread, NULL, race_thread, r), 0);
}

void
unit_race_join(struct unit_race *r)
{
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	assert_int_equal(pthread_join(r->thread, NULL), 0);
}

struct lsk_stack *
unit_bare_stack(const char *prefix)
{
	static unsigned int seq;
	struct lsk_stack_params params = {
		.n_ports = 2,
		.socket_id = SOCKET_ID_ANY,
		.mode = LSK_MODE_LIST,
	};
	struct lsk_stack *s;
	char name[32];

	snprintf(name, sizeof(name), "%.16s%u", prefix, seq++);
	params.name = name;
	assert_int_equal(lsk_stack_create(&params, &s), 0);
	return s;
}
