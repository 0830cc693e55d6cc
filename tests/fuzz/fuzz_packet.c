/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the packet path (IPv4 and IPv6): whatever bytes arrive on a port,
 * pushed through lsk_worker_input in bursts of up to LSK_BURST_MAX, must
 * neither crash the stack, nor read or write outside a frame, nor keep an
 * mbuf, nor break the IPv4 counting identity (docs/configuration.md "What happens to
 * a packet"), nor count a valid datagram as a checksum error (whatever
 * its segments).
 *
 * Every segment of every frame lives in a malloc'd buffer of exactly its
 * size (plus headroom before it) attached as an external buffer, so ASan
 * stops on the first byte read past a frame's end; a pool mbuf's data
 * room would hide such a read in its tailroom.
 *
 * Input (all numbers big-endian):
 *   byte 0    variant: bit 0 single mode; bits 1-2 GRO off / fraglist /
 *             merge / fraglist with 4 flows of 8; bit 3 route cache on;
 *             bits 4-5 checksum flags none / GOOD / BAD / per frame;
 *             bit 6 packet_type set; bit 7 RSS hash set
 *   byte 1    burst size minus one (1-256 frames per lsk_worker_input)
 *   frames, each:
 *     2 bytes length (modulo FRAME_MAX + 1)
 *     1 byte  control: bits 0-1 ingress port (modulo the 3 ports);
 *             bits 2-3 segments minus one (3 means 3); bits 4-5 and
 *             6-7 the IP and L4 checksum flags when the variant says per
 *             frame: unknown / GOOD / BAD / what a verifying NIC says
 *     2 bytes per split point (modulo the length) when segmented
 *     the frame's bytes (cut short when the input ends)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_hash_crc.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_udp.h>

#include "listack/listack.h"
#include "listack/udp.h"
#include "core/worker.h"
#include "l2/l2.h"
#include "ip4/ip4.h"
#include "ip6/ip6.h"
#include "ip6/nd6_priv.h"
#include "l2/neigh.h"
#include "udp/udp.h"
#include "control/control.h"

#include "fuzz_common.h"


#define N_PORTS 3
#define FRAME_MAX 9216		/* a jumbo frame */
#define HEADROOM RTE_PKTMBUF_HEADROOM
#define FRAME_POOL_SIZE 16383
#define SEND_POOL_SIZE 4095
#define NEIGH_CARRY 64		/* neighbours one input may leave the next */

/* the variant byte */
#define V_SINGLE 0x01u
#define V_GRO_SHIFT 1
#define V_RCACHE 0x08u
#define V_CSUM_SHIFT 4
#define V_PTYPE 0x40u
#define V_RSS 0x80u

enum csum_mode { CSUM_NONE, CSUM_GOOD, CSUM_BAD, CSUM_PER_FRAME };

/*
 * The fixture of the unit tests (two ports, static neighbours, a route
 * via B) plus what reaches every stage: a third port with a small MTU
 * (fragmentation), a VLAN sub-interface, a gateway that never answers
 * (ARP requests, hold queues), a blackhole, filter rules, endpoints and
 * the route cache (on the fast path too).
 */
static const char *const stack_conf[] = {
	"port 0 mac 02:00:00:00:00:fe",
	"port 1 mac 02:00:00:00:01:fe",
	"port 2 mtu 576 mac 02:00:00:00:02:fe",
	"address add 10.0.0.254/24 port 0",
	"address add 10.0.1.254/24 port 1",
	"address add 10.0.2.254/24 port 2",
	"address add 10.0.3.254/24 port 1 vlan 100",
	"neigh add 10.0.0.1 lladdr 02:00:00:00:00:01",
	"neigh add 10.0.1.1 lladdr 02:00:00:00:01:01",
	"neigh add 10.0.2.1 lladdr 02:00:00:00:02:01",
	"neigh add 10.0.3.1 lladdr 02:00:00:00:03:01",
	"route add 10.9.0.0/16 via 10.0.1.1",
	"route add 10.8.0.0/16 via 10.0.2.1",
	"route add 10.7.0.0/16 via 10.0.1.7",
	"route add 10.6.0.0/16 via 10.0.3.1",
	"route add 192.0.2.0/24 blackhole",
	"filter add drop proto udp dport 6666",
	"filter add drop src 10.0.0.66/32",
	"filter add accept proto udp sport 1000-2000",
	"route-cache on",
	"udp listen 10.0.0.254:7 echo",
	"udp listen 0.0.0.0:9 discard ring 64",
	"udp listen 10.0.1.254:11 pcap /dev/null",
	/* IPv6 (make_packet_seeds.py's seeds6): addresses, static
	 * neighbours (one link-local), routes via them, via a link-local
	 * gateway, via a silent one, a blackhole, RAs, an echo service */
	"address add 2001:db8:a::fe/64 port 0",
	"address add 2001:db8:b::fe/64 port 1",
	"address add 2001:db8:c::fe/64 port 1 vlan 100",
	"neigh add 2001:db8:a::1 lladdr 02:00:00:00:00:01",
	"neigh add 2001:db8:b::1 lladdr 02:00:00:00:01:01",
	"neigh add fe80::b1 lladdr 02:00:00:00:01:02 port 1",
	"route add 2001:db8:9::/48 via 2001:db8:b::1",
	"route add 2001:db8:8::/48 via fe80::b1 port 1",
	"route add 2001:db8:7::/48 via 2001:db8:b::7",
	"route add 2001:db8:6::/48 via 2001:db8:c::1",
	"route add 2001:db8:dead::/48 blackhole",
	"port 0 ra on",
	"udp listen [2001:db8:a::fe]:7 echo",
};

/* The unresolved gateway above, asked for once at set-up so that its
 * entry is part of the state every input starts from. */
#define GW_UNRESOLVED RTE_IPV4(10, 0, 1, 7)
#define LOCAL_P0 RTE_IPV4(10, 0, 0, 254)
#define LOCAL_VLAN RTE_IPV4(10, 0, 3, 254)

/* One stack per mode; GRO and the route cache are set per input. */
struct fuzz_stack {
	struct lsk_stack *stack;
	struct lsk_worker *worker;
	struct lsk_udp_ep *eps[2];	/* ours to drain (services drain theirs) */
	uint32_t neigh_base;		/* neighbour entries after set-up */
	uint32_t nd6_base;		/* IPv6's */
	uint64_t reasm_seen;		/* ReasmReqds when last emptied */
};

static struct rte_mempool *frame_pool, *send_pool;
static struct fuzz_stack stacks[2];
static unsigned int stack_seq;
static uint64_t tx_frames;
static uint8_t tx_scratch[65536];

/* ------------------------------------------------------------ frames */

static void
ext_free(void *addr, void *opaque)
{
	free(addr);
	free(opaque);
}

/* A segment holding len bytes, in a buffer of exactly HEADROOM + len. */
static struct rte_mbuf *
seg_make(const uint8_t *data, uint16_t len)
{
	struct rte_mbuf_ext_shared_info *sh;
	struct rte_mbuf *m;
	uint8_t *buf;

	m = rte_pktmbuf_alloc(frame_pool);
	buf = malloc(HEADROOM + len);
	sh = malloc(sizeof(*sh));
	if (m == NULL || buf == NULL || sh == NULL)
		fuzz_fail("out of frame memory");
	/* headroom zeroed: what is prepended there starts the same each run */
	memset(buf, 0, HEADROOM);
	memcpy(buf + HEADROOM, data, len);
	sh->free_cb = ext_free;
	sh->fcb_opaque = sh;
	rte_mbuf_ext_refcnt_set(sh, 1);
	rte_pktmbuf_attach_extbuf(m, buf, (rte_iova_t)(uintptr_t)buf,
				  (uint16_t)(HEADROOM + len), sh);
	m->data_off = HEADROOM;
	m->data_len = len;
	m->pkt_len = len;
	return m;
}

static uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* The checksum flags of a NIC that verifies IPv4 and UDP checksums. */
static uint64_t
nic_csum_flags(const uint8_t *b, size_t len)
{
	const struct rte_ipv4_hdr *ip = (const void *)(b + RTE_ETHER_HDR_LEN);
	const struct rte_udp_hdr *uh;
	uint64_t flags;
	uint32_t sum;
	size_t hlen;
	uint16_t tot, ulen;

	if (len < RTE_ETHER_HDR_LEN + 20 || rd16(b + 12) != 0x0800 ||
	    (ip->version_ihl >> 4) != 4)
		return 0;
	hlen = (ip->version_ihl & 0xf) * 4u;
	if (hlen < 20 || RTE_ETHER_HDR_LEN + hlen > len)
		return 0;
	flags = rte_raw_cksum(ip, hlen) == 0xffff ?
		RTE_MBUF_F_RX_IP_CKSUM_GOOD : RTE_MBUF_F_RX_IP_CKSUM_BAD;
	tot = rte_be_to_cpu_16(ip->total_length);
	if (ip->next_proto_id != IPPROTO_UDP ||
	    (ip->fragment_offset & rte_cpu_to_be_16(0x3fff)) != 0 ||
	    tot < hlen + 8 || RTE_ETHER_HDR_LEN + (size_t)tot > len)
		return flags;
	uh = (const void *)((const uint8_t *)ip + hlen);
	ulen = rte_be_to_cpu_16(uh->dgram_len);
	if (ulen != tot - hlen || uh->dgram_cksum == 0)
		return flags;
	sum = (uint32_t)rte_ipv4_phdr_cksum(ip, 0) + rte_raw_cksum(uh, ulen);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return flags | (sum == 0xffff ? RTE_MBUF_F_RX_L4_CKSUM_GOOD :
					RTE_MBUF_F_RX_L4_CKSUM_BAD);
}

/*
 * A whole UDP/IPv4 datagram, untagged, not a fragment, every length and
 * checksum right (padding after it allowed): nothing may count it as a
 * checksum error, however it is split into segments.
 */
static bool
frame_udp_valid(const uint8_t *b, size_t len)
{
	const struct rte_ipv4_hdr *ip = (const void *)(b + RTE_ETHER_HDR_LEN);
	const struct rte_udp_hdr *uh;
	size_t hlen, tot, ulen;
	uint32_t sum;

	if (len < RTE_ETHER_HDR_LEN + 28 || rd16(b + 12) != 0x0800 ||
	    (ip->version_ihl >> 4) != 4 || ip->next_proto_id != IPPROTO_UDP ||
	    (rd16((const uint8_t *)ip + 6) & 0x3fff) != 0)
		return false;
	hlen = (ip->version_ihl & 0xf) * 4u;
	tot = rte_be_to_cpu_16(ip->total_length);
	if (hlen < 20 || tot < hlen + 8 || RTE_ETHER_HDR_LEN + tot > len ||
	    rte_raw_cksum(ip, hlen) != 0xffff)
		return false;
	uh = (const void *)((const uint8_t *)ip + hlen);
	ulen = rte_be_to_cpu_16(uh->dgram_len);
	if (ulen != tot - hlen)
		return false;
	if (uh->dgram_cksum == 0)
		return true;
	sum = (uint32_t)rte_ipv4_phdr_cksum(ip, 0) + rte_raw_cksum(uh, ulen);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return sum == 0xffff;
}

static uint64_t
csum_flags(enum csum_mode mode, uint8_t ctl, const uint8_t *b, size_t len)
{
	static const uint64_t ipf[] = { 0, RTE_MBUF_F_RX_IP_CKSUM_GOOD,
					RTE_MBUF_F_RX_IP_CKSUM_BAD };
	static const uint64_t l4f[] = { 0, RTE_MBUF_F_RX_L4_CKSUM_GOOD,
					RTE_MBUF_F_RX_L4_CKSUM_BAD };
	unsigned int i = (ctl >> 4) & 3, k = (ctl >> 6) & 3;
	uint64_t nic = 0;

	switch (mode) {
	case CSUM_NONE:
		return 0;
	case CSUM_GOOD:
		return RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	case CSUM_BAD:
		return RTE_MBUF_F_RX_IP_CKSUM_BAD | RTE_MBUF_F_RX_L4_CKSUM_BAD;
	case CSUM_PER_FRAME:
		break;
	}
	if (i == 3 || k == 3)
		nic = nic_csum_flags(b, len);
	return (i == 3 ? nic & RTE_MBUF_F_RX_IP_CKSUM_MASK : ipf[i]) |
	       (k == 3 ? nic & RTE_MBUF_F_RX_L4_CKSUM_MASK : l4f[k]);
}

/* The packet type a parsing NIC reports for these bytes. */
static uint32_t
nic_ptype(const uint8_t *b, size_t len)
{
	uint32_t t = RTE_PTYPE_L2_ETHER;
	const uint8_t *ip = b + RTE_ETHER_HDR_LEN;
	uint16_t type;

	if (len < RTE_ETHER_HDR_LEN)
		return RTE_PTYPE_UNKNOWN;
	type = rd16(b + 12);
	if (type == RTE_ETHER_TYPE_ARP)
		return RTE_PTYPE_L2_ETHER_ARP;
	if (type == RTE_ETHER_TYPE_VLAN)
		return RTE_PTYPE_L2_ETHER_VLAN;
	if (type != RTE_ETHER_TYPE_IPV4 || len < RTE_ETHER_HDR_LEN + 20 ||
	    (ip[0] >> 4) != 4)
		return t;
	t |= (ip[0] & 0xf) == 5 ? RTE_PTYPE_L3_IPV4 : RTE_PTYPE_L3_IPV4_EXT;
	if ((rd16(ip + 6) & 0x3fff) != 0)
		return t | RTE_PTYPE_L4_FRAG;
	if (ip[9] == IPPROTO_UDP)
		return t | RTE_PTYPE_L4_UDP;
	if (ip[9] == IPPROTO_ICMP)
		return t | RTE_PTYPE_L4_ICMP;
	return t;
}

/* ------------------------------------------------------------- stack */

/* Frames the worker sends: checked whole, read to the last byte (ASan
 * sees a sent frame that points at freed or foreign memory), freed. */
static uint16_t
fuzz_tx(void *arg, uint16_t port, uint16_t queue, struct rte_mbuf **pkts,
	uint16_t n)
{
	const char *why;
	uint16_t i;

	(void)arg;
	(void)queue;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];

		if (port >= N_PORTS)
			fuzz_fail("frame sent on port %u of %u", port, N_PORTS);
		if (rte_mbuf_check(m, 1, &why) != 0)
			fuzz_fail("frame sent on port %u is a broken mbuf: %s",
				  port, why);
		if (rte_pktmbuf_read(m, 0, m->pkt_len, tx_scratch) == NULL)
			fuzz_fail("frame sent on port %u cannot be read", port);
	}
	tx_frames += n;
	rte_pktmbuf_free_bulk(pkts, n);
	return n;
}

/* A control command, the worker off line as a control thread needs. */
static void
fuzz_cmd(struct fuzz_stack *fs, const char *line)
{
	char err[256];

	if (fs->worker != NULL)
		lsk_worker_offline(fs->worker);
	if (lsk_config_exec(fs->stack, line, "fuzz", 1, err, sizeof(err)) < 0)
		fuzz_fail("set-up command '%s': %s", line, err);
}

/*
 * Our IPv6 addresses past duplicate address detection, as a second after
 * start leaves them: the timer probes them (the probes go to fuzz_tx),
 * then their time is made up. Without this an input's fate would hang
 * on how long after the stack's creation it came.
 */
static void
dad_pass(struct fuzz_stack *fs)
{
	struct lsk_nd6_table *t = fs->stack->sh.nd6;
	uint32_t k;

	t->next_timer = 0;
	fs->stack->sh.neigh->next_timer = 0;	/* the flush's one deadline (worker.c) */
	lsk_worker_flush(fs->worker);
	for (k = 0; k < t->n_addrs; k++)
		t->addrs[k].due = 0;
	t->next_timer = 0;
	fs->stack->sh.neigh->next_timer = 0;	/* the flush's one deadline (worker.c) */
	lsk_worker_flush(fs->worker);
}

/* What IPv6 neighbours hold for resolution goes, as ARP's
 * (lsk_neigh_drop_held), the entries stay. */
static void
nd6_drop_held(struct fuzz_stack *fs)
{
	struct lsk_nd6_table *t = fs->stack->sh.nd6;
	struct rte_mbuf *out[LSK_NEIGH_HOLD];
	uint32_t i, n;

	for (i = 0; i < t->n; i++) {
		struct lsk_nd6_entry *e = &t->e[i];

		rte_spinlock_lock(&e->lock);
		n = lsk_neigh_held_take(e->held, &e->n_held, out);
		rte_spinlock_unlock(&e->lock);
		if (n == 0)
			continue;
		lsk_neigh_hold_give(fs->stack->sh.neigh, out, n);
		rte_pktmbuf_free_bulk(out, n);
	}
}

static void
stack_destroy(struct fuzz_stack *fs)
{
	if (fs->stack == NULL)
		return;
	lsk_neigh_drop_held(fs->stack);
	lsk_worker_destroy(fs->worker);
	lsk_stack_destroy(fs->stack);
	memset(fs, 0, sizeof(*fs));
}

static void drain(struct fuzz_stack *fs);

static void
stack_create(struct fuzz_stack *fs, enum lsk_mode mode)
{
	struct lsk_stack_params params = {
		.n_ports = N_PORTS,
		.socket_id = SOCKET_ID_ANY,
		.mode = mode,
		.max_routes = 256,
		.send_pool = send_pool,
	};
	struct lsk_udp_bind_opts gro = { .ring_size = 256,
					 .socket_id = SOCKET_ID_ANY,
					 .flags = LSK_UDP_GRO };
	struct lsk_udp_bind_opts small = { .ring_size = 16,
					   .socket_id = SOCKET_ID_ANY };
	uint8_t probe[RTE_ETHER_HDR_LEN + 28] = { 0 };
	struct rte_mbuf *m;
	char name[32];
	unsigned int i;

	snprintf(name, sizeof(name), "fz%u", stack_seq++);
	params.name = name;
	if (lsk_stack_create(&params, &fs->stack) < 0)
		fuzz_fail("lsk_stack_create failed");
	lsk_config_begin(fs->stack);
	for (i = 0; i < RTE_DIM(stack_conf); i++)
		fuzz_cmd(fs, stack_conf[i]);
	if (lsk_config_commit(fs->stack) < 0)
		fuzz_fail("lsk_config_commit failed");
	/* a GRO endpoint on every address, and a small ring on the VLAN */
	if (lsk_udp_bind(fs->stack, 0, 5000, &gro, &fs->eps[0]) < 0 ||
	    lsk_udp_bind(fs->stack, LOCAL_VLAN, 53, &small, &fs->eps[1]) < 0)
		fuzz_fail("lsk_udp_bind failed");
	if (lsk_worker_create(fs->stack, 0, &fs->worker) < 0)
		fuzz_fail("lsk_worker_create failed");
	lsk_worker_set_tx_fn(fs->worker, fuzz_tx, NULL);

	/* one datagram via the silent gateway makes its (incomplete) entry */
	memcpy(probe, "\x02\x00\x00\x00\x01\xfe\x02\x00\x00\x00\x01\x01"
	       "\x08\x00\x45\x00\x00\x1c\x00\x01\x00\x00\x40\x11\x00\x00"
	       "\x0a\x00\x01\x01\x0a\x07\x00\x01\x03\xe8\x07\xd0\x00\x08"
	       "\x00\x00", sizeof(probe));
	{
		struct rte_ipv4_hdr *ip = (void *)(probe + RTE_ETHER_HDR_LEN);

		ip->hdr_checksum = rte_ipv4_cksum(ip);
	}
	m = seg_make(probe, sizeof(probe));
	m->port = 1;
	lsk_worker_input(fs->worker, &m, 1);
	drain(fs);
	if (lsk_neigh_lookup(fs->stack->sh.neigh, GW_UNRESOLVED) == NULL)
		fuzz_fail("the unresolved gateway has no neighbour entry");
	dad_pass(fs);
	nd6_drop_held(fs);
	fs->neigh_base = fs->stack->sh.neigh->n;
	fs->nd6_base = fs->stack->sh.nd6->n;
}

/* Take what the endpoints hold, check what they say, free it. */
static void
drain_ep(struct lsk_udp_ep *ep)
{
	struct lsk_udp_msg msgs[64];
	int n, i;

	while ((n = lsk_udp_recv_burst(ep, msgs, RTE_DIM(msgs))) > 0) {
		for (i = 0; i < n; i++) {
			struct rte_mbuf *m = msgs[i].mbuf;
			uintptr_t off = (uintptr_t)msgs[i].payload -
				rte_pktmbuf_mtod(m, uintptr_t);

			if (off > m->data_len || off + msgs[i].len > m->pkt_len)
				fuzz_fail("datagram of %u bytes at offset %zu "
					  "of a %u-byte frame", msgs[i].len,
					  (size_t)off, m->pkt_len);
			if (rte_pktmbuf_read(m, (uint32_t)off, msgs[i].len,
					     tx_scratch) == NULL)
				fuzz_fail("datagram payload cannot be read");
			rte_pktmbuf_free(m);
		}
	}
}

/* Everything the stack may still hold after an input goes: sends,
 * service rings (echo replies leave at the next flush), our endpoints,
 * ARP hold queues, incomplete reassemblies. */
static void
drain(struct fuzz_stack *fs)
{
	lsk_worker_flush(fs->worker);
	lsk_services_poll(fs->stack);
	lsk_worker_flush(fs->worker);
	drain_ep(fs->eps[0]);
	drain_ep(fs->eps[1]);
	lsk_neigh_drop_held(fs->stack);
	nd6_drop_held(fs);
	if (lsk_reasm6_held(fs->worker) != 0)
		lsk_reasm6_flush(fs->worker);
	if (fs->worker->stats.ip.ReasmReqds != fs->reasm_seen) {
		/* fragments came: some may wait in the table */
		if (lsk_frag_drop_incomplete(fs->worker) < 0)
			fuzz_fail("cannot remake the reassembly table");
		fs->reasm_seen = fs->worker->stats.ip.ReasmReqds;
	}
	lsk_worker_flush(fs->worker);
}

static void
check_pools(const struct fuzz_stack *fs)
{
	const struct rte_mempool *pools[] = {
		frame_pool, send_pool, fs->stack->sh.indirect_pool,
	};
	unsigned int i, used;

	for (i = 0; i < RTE_DIM(pools); i++) {
		used = rte_mempool_in_use_count(pools[i]);
		if (used != 0)
			fuzz_fail("%u mbufs of pool %s not returned", used,
				  pools[i]->name);
	}
	if (fs->worker->icmp_out.n != 0)
		fuzz_fail("%u ICMP messages left on icmp_out",
			  fs->worker->icmp_out.n);
}

/*
 * docs/configuration.md: apart from InCsumErrors every IPv4 packet received lands
 * in one disposition (unit_assert_ip_balance's sum); a fragment for us
 * lands in none, its datagram once reassembled lands in one.
 */
static void
check_ip_balance(const struct fuzz_stack *fs)
{
	struct lsk_stats st;
	const struct lsk_ip_stats *ip = &st.ip;
	uint64_t sum;

	if (lsk_stats_read(fs->stack, &st) < 0)
		fuzz_fail("lsk_stats_read failed");
	sum = ip->ForwDatagrams + ip->InDelivers + ip->InHdrErrors +
	      ip->InTruncatedPkts + ip->InAddrErrors + ip->InNoRoutes +
	      ip->InDiscards + ip->InUnknownProtos + ip->FragFails +
	      ip->ReasmReqds - ip->ReasmOKs;
	if (sum != ip->InReceives)
		fuzz_fail("ip counters do not add up: InReceives %" PRIu64
			  ", dispositions + fragments in reassembly %" PRIu64
			  " (Forw %" PRIu64 " Deliv %" PRIu64 " HdrErr %"
			  PRIu64 " Trunc %" PRIu64 " AddrErr %" PRIu64
			  " NoRoute %" PRIu64 " Discard %" PRIu64
			  " UnkProto %" PRIu64 " FragFails %" PRIu64
			  " ReasmReqds %" PRIu64 " ReasmOKs %" PRIu64 ")",
			  ip->InReceives, sum, ip->ForwDatagrams,
			  ip->InDelivers, ip->InHdrErrors, ip->InTruncatedPkts,
			  ip->InAddrErrors, ip->InNoRoutes, ip->InDiscards,
			  ip->InUnknownProtos, ip->FragFails, ip->ReasmReqds,
			  ip->ReasmOKs);
}

/* ------------------------------------------------------------- input */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	fuzz_eal_init((*argv)[0], "768");
	fuzz_lsan_scan_dpdk_memory();
	frame_pool = rte_pktmbuf_pool_create("fz_frames", FRAME_POOL_SIZE, 64,
					     0, RTE_MBUF_DEFAULT_BUF_SIZE,
					     SOCKET_ID_ANY);
	send_pool = rte_pktmbuf_pool_create("fz_send", SEND_POOL_SIZE, 64, 0,
					    RTE_MBUF_DEFAULT_BUF_SIZE,
					    SOCKET_ID_ANY);
	if (frame_pool == NULL || send_pool == NULL)
		fuzz_fail("cannot create the mbuf pools");
	return 0;
}

/* Settings of this input; GRO and the route cache are cheap to switch. */
static void
apply_variant(struct fuzz_stack *fs, uint8_t v)
{
	static const uint32_t flows[] = { 0, 64, 64, 4 };
	static const uint32_t segs[] = { 0, 64, 64, 8 };
	unsigned int g = (v >> V_GRO_SHIFT) & 3;
	struct lsk_worker *w = fs->worker;

	/* a new route cache is published: the worker (this thread) goes
	 * off line meanwhile; its next poll loads the settings */
	lsk_worker_offline(w);
	if (lsk_gro_set(fs->stack, flows[g], segs[g]) < 0)
		fuzz_fail("lsk_gro_set failed");
	lsk_gro_set_merge(fs->stack, g == 2);
	if (lsk_route_cache_set(fs->stack, v & V_RCACHE ? 64 : 0) < 0)
		fuzz_fail("lsk_route_cache_set failed");
	/* what depends on earlier inputs or the clock starts the same:
	 * GRO's probing of runs, the ICMP rate limit's bucket (full) */
	w->udpw->gro.no_runs = false;
	w->udpw->gro.rx_probe = 0;
	w->ip4w->icmp_tokens_tsc = 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rte_mbuf *burst[LSK_BURST_MAX];
	struct fuzz_stack *fs;
	enum csum_mode csum;
	unsigned int burst_max, n = 0, may_fail_csum = 0;
	uint64_t csum_errors;
	size_t pos = 2;
	uint8_t v;

	if (size < 2)
		return -1;	/* not worth keeping in the corpus */
	v = data[0];
	burst_max = data[1] + 1u;
	csum = (enum csum_mode)((v >> V_CSUM_SHIFT) & 3);
	fs = &stacks[v & V_SINGLE ? 1 : 0];
	if (fs->stack == NULL)
		stack_create(fs, v & V_SINGLE ? LSK_MODE_SINGLE : LSK_MODE_LIST);
	apply_variant(fs, v);
	csum_errors = fs->worker->stats.udp.InCsumErrors;

	while (pos + 3 <= size) {
		uint16_t len = rd16(data + pos) % (FRAME_MAX + 1);
		uint8_t ctl = data[pos + 2];
		unsigned int segs = (ctl >> 2) & 3, i;
		uint16_t cut[3] = { 0 };
		const uint8_t *b;
		struct rte_mbuf *m, *last;

		pos += 3;
		if (segs == 3)
			segs = 2;
		/* split points between 1 and len - 1, in order */
		for (i = 0; i < segs; i++) {
			if (pos + 2 > size)
				break;
			cut[i] = rd16(data + pos);
			pos += 2;
		}
		if (len > size - pos)
			len = (uint16_t)(size - pos);
		b = data + pos;
		pos += len;
		segs = len >= 2 + segs ? segs : 0;
		for (i = 0; i < segs; i++)
			cut[i] = (uint16_t)(1 + cut[i] % (len - 1));
		if (segs == 2 && cut[0] > cut[1]) {
			uint16_t t = cut[0];

			cut[0] = cut[1];
			cut[1] = t;
		}
		if (segs == 2 && cut[0] == cut[1])
			segs = 1;
		cut[segs] = len;

		m = seg_make(b, cut[0]);
		for (last = m, i = 1; i <= segs; i++) {
			last->next = seg_make(b + cut[i - 1],
					      (uint16_t)(cut[i] - cut[i - 1]));
			last = last->next;
			m->nb_segs++;
			m->pkt_len += last->data_len;
		}
		m->port = (uint16_t)((ctl & 3) % N_PORTS);
		m->ol_flags |= csum_flags(csum, ctl, b, len);
		if (v & V_PTYPE)
			m->packet_type = nic_ptype(b, len);
		if (v & V_RSS) {
			/* per flow, as a NIC's Toeplitz hash is */
			uint8_t key[12] = { 0 };

			if (len >= 38)
				memcpy(key, b + 26, sizeof(key));
			m->hash.rss = rte_hash_crc(key, sizeof(key), 0);
			m->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
		}
		if (!frame_udp_valid(b, len) ||
		    (m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK) ==
		    RTE_MBUF_F_RX_IP_CKSUM_BAD ||
		    (m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK) ==
		    RTE_MBUF_F_RX_L4_CKSUM_BAD)
			may_fail_csum++;
		burst[n++] = m;
		if (n == burst_max) {
			lsk_worker_input(fs->worker, burst, (uint16_t)n);
			lsk_worker_flush(fs->worker);
			n = 0;
		}
	}
	if (n != 0)
		lsk_worker_input(fs->worker, burst, (uint16_t)n);
	drain(fs);
	check_pools(fs);
	check_ip_balance(fs);
	csum_errors = fs->worker->stats.udp.InCsumErrors - csum_errors;
	if (csum_errors > may_fail_csum)
		fuzz_fail("%" PRIu64 " datagrams counted udp.InCsumErrors, but "
			  "only %u frames were not valid datagrams or flagged "
			  "bad by the NIC", csum_errors, may_fail_csum);
	/*
	 * Neighbours learnt or asked for are state the next input inherits.
	 * A new stack costs fifty inputs, and many inputs make a neighbour:
	 * the table may hold a few before it starts from set-up again (a
	 * crash file is checked alone before it is kept).
	 */
	if (fs->stack->sh.neigh->n > fs->neigh_base + NEIGH_CARRY ||
	    fs->stack->sh.nd6->n > fs->nd6_base + NEIGH_CARRY)
		stack_destroy(fs);
	return 0;
}
