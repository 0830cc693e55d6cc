/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The bench's traffic: UDP/IPv4 frames of one size over F flows and R
 * routes, and the check that a forwarded frame is what the stack must send.
 *
 * Addressing (the stack is configured to match, see scenario_fwd.c):
 *   port 0  10.0.0.1/24, mac 02:00:00:00:00:01, senders 10.0.0.2-254
 *   port 1  10.0.1.1/24, mac 02:00:00:00:01:01, gateway 10.0.1.2
 *           (02:00:00:00:02:02)
 *   route k 198.18.1.0/24 + k*256, via the gateway; 198.18.0.0/15 is the
 *           benchmarking range of RFC 2544, and 198.18.1.0/24 goes to port
 *           1 in DPDK l3fwd's default table too
 * Flow i goes to route i % R; its source port, source host and the host in
 * the destination prefix tell flows apart.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_thash.h>
#include <rte_udp.h>

#include "bench.h"
#include "table.h"
#include "listack/udp.h"

#define IPV4(a, b, c, d) \
	((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

#define SPORT_SPAN BENCH_SPORT_SPAN
#define SRC_HOSTS BENCH_SRC_HOSTS
#define DST_HOSTS BENCH_DST_HOSTS
#define UDP_DPORT BENCH_UDP_DPORT

#define BENCH_MAX_FLOWS (1u << 24)
#define BENCH_MAX_ROUTES (1u << 20)	/* route-cache: 1M */
#define BENCH_MIN_FRAME BENCH_HDR_LEN
#define BENCH_MAX_FRAME (RTE_ETHER_HDR_LEN + 1500)

static const struct rte_ether_addr mac_port0 = {{ 2, 0, 0, 0, 0, 1 }};
static const struct rte_ether_addr mac_port1 = {{ 2, 0, 0, 0, 1, 1 }};
static const struct rte_ether_addr mac_client = {{ 2, 0, 0, 0, 0, 2 }};
static const struct rte_ether_addr mac_gateway = {{ 2, 0, 0, 0, 2, 2 }};
static const struct rte_ether_addr mac_gateway2 = {{ 2, 0, 0, 0, 2, 3 }};

static inline uint8_t
payload_byte(unsigned int j)
{
	return (uint8_t)(j * 7 + 1);
}

int
bench_traffic_init(struct bench_traffic *t, uint32_t flows, uint32_t routes,
		   uint16_t size)
{
	struct rte_ether_hdr *eh;
	struct rte_ipv4_hdr *ip;
	struct rte_udp_hdr *udp;
	uint8_t payload[BENCH_MAX_FRAME];
	unsigned int j;

	if (flows == 0 || flows > BENCH_MAX_FLOWS) {
		fprintf(stderr, "--flows: 1 to %u\n", BENCH_MAX_FLOWS);
		return -EINVAL;
	}
	if (routes == 0 || routes > BENCH_MAX_ROUTES) {
		fprintf(stderr, "--routes: 1 to %u\n", BENCH_MAX_ROUTES);
		return -EINVAL;
	}
	if (size < BENCH_MIN_FRAME || size > BENCH_MAX_FRAME) {
		fprintf(stderr, "--size: %u to %u bytes (frame without FCS)\n",
			BENCH_MIN_FRAME, BENCH_MAX_FRAME);
		return -EINVAL;
	}
	memset(t, 0, sizeof(*t));
	t->flows = flows;
	t->routes = routes;
	t->size = size;
	t->ip_len = (uint16_t)(size - RTE_ETHER_HDR_LEN);
	t->udp_len = (uint16_t)(t->ip_len - sizeof(*ip));
	t->payload_len = (uint16_t)(t->udp_len - sizeof(*udp));
	t->ttl = 64;
	t->hdr_len = BENCH_HDR_LEN;
	t->port_mac[0] = mac_port0;
	t->port_mac[1] = mac_port1;
	t->client_mac = mac_client;
	t->gw_mac = mac_gateway;
	t->port_addr[0] = IPV4(10, 0, 0, 1);
	t->port_addr[1] = IPV4(10, 0, 1, 1);
	t->gw_addr = IPV4(10, 0, 1, 2);
	t->gw2_mac = mac_gateway2;
	t->gw2_addr = IPV4(10, 0, 1, 3);
	t->route_base = IPV4(198, 18, 1, 0);

	eh = (struct rte_ether_hdr *)t->hdr;
	eh->dst_addr = t->port_mac[0];
	eh->src_addr = t->client_mac;
	eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ip = (struct rte_ipv4_hdr *)(eh + 1);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->type_of_service = 0;
	ip->total_length = rte_cpu_to_be_16(t->ip_len);
	ip->packet_id = 0;
	ip->fragment_offset = 0;
	ip->time_to_live = t->ttl;
	ip->next_proto_id = IPPROTO_UDP;
	ip->hdr_checksum = 0;
	ip->src_addr = 0;
	ip->dst_addr = 0;
	udp = (struct rte_udp_hdr *)(ip + 1);
	udp->src_port = 0;
	udp->dst_port = RTE_BE16(UDP_DPORT);
	udp->dgram_len = rte_cpu_to_be_16(t->udp_len);
	udp->dgram_cksum = 0;

	/* what stays the same in every header, summed once: the IP header
	 * without id/addresses; the UDP pseudo header's protocol and length,
	 * the UDP length field and the payload (written once per mbuf) */
	t->ip_base_sum = rte_raw_cksum(ip, sizeof(*ip));
	for (j = 0; j < t->payload_len; j++)
		payload[j] = payload_byte(j);
	t->udp_base_sum = rte_raw_cksum(payload, t->payload_len) +
			  rte_cpu_to_be_16(IPPROTO_UDP) +
			  2u * rte_cpu_to_be_16(t->udp_len);
	return 0;
}

void
bench_flow_get(const struct bench_traffic *t, uint32_t i,
	       struct bench_flow *f)
{
	bench_flow_fields(t, i % t->routes, (i / t->routes) % DST_HOSTS,
			  i % SPORT_SPAN, (i / SPORT_SPAN) % SRC_HOSTS, f);
}

void
bench_flow_cursor_init(struct bench_flow_cursor *c)
{
	memset(c, 0, sizeof(*c));
}

void
bench_write_frame(const struct bench_traffic *t, uint8_t *frame,
		  const struct bench_flow *f, uint16_t ip_id)
{
	uint8_t *payload = frame + (t->ip6 ? BENCH_HDR6_LEN : BENCH_HDR_LEN);
	unsigned int j;

	for (j = 0; j < t->payload_len; j++)
		payload[j] = payload_byte(j);
	bench_write_headers(t, frame, f, ip_id);
}

/* The Toeplitz key NICs are commonly programmed with. */
const uint8_t bench_rss_key[40] = {
	0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
	0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
	0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
	0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
	0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

uint32_t
bench_rss_v4(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
	     bool l4)
{
	struct rte_ipv4_tuple tuple;

	memset(&tuple, 0, sizeof(tuple));
	tuple.src_addr = src;
	tuple.dst_addr = dst;
	tuple.sport = sport;
	tuple.dport = dport;
	return rte_softrss((uint32_t *)&tuple, l4 ? RTE_THASH_V4_L4_LEN :
			   RTE_THASH_V4_L3_LEN, bench_rss_key);
}

/*
 * Each flow's 4-tuple Toeplitz hash, worked out once: a NIC with RSS on
 * hands it over with every packet (the sfc PMD sets RTE_MBUF_F_RX_RSS_HASH),
 * and the generator must not spend its time computing it.
 */
static int
gen_rss_table(const struct bench_traffic *t, struct bench_gen *g)
{
	struct bench_flow_cursor c;
	uint32_t i;

	g->flow_rss = malloc(t->flows * sizeof(uint32_t));
	if (g->flow_rss == NULL)
		return -ENOMEM;
	bench_flow_cursor_init(&c);
	for (i = 0; i < t->flows; i++) {
		struct bench_flow fl;

		bench_flow_next(t, &c, &fl);
		if (t->ip6) {
			uint8_t src[16], dst[16];

			bench_ip6_src(t, fl.src, src);
			bench_ip6_dst(fl.dst, dst);
			g->flow_rss[i] = bench_rss_v6(src, dst, fl.sport,
						      fl.dport, true);
			continue;
		}
		g->flow_rss[i] = bench_rss_v4(fl.src, g->plan ==
					      BENCH_DST_LOCAL ?
					      t->port_addr[0] : fl.dst,
					      fl.sport, fl.dport, true);
	}
	return 0;
}

int
bench_gen_init(struct bench_gen *g, const struct bench_traffic *t,
	       const struct bench_scenario *sc, const struct bench_variant *v,
	       bool rss)
{
	int rc;

	memset(g, 0, sizeof(*g));
	bench_flow_cursor_init(&g->cursor);
	g->plan = v != NULL && v->dst ? v->dst : sc->dst;
	if (t->table_flows != NULL && g->plan == BENCH_DST_ROUTES)
		g->plan = BENCH_DST_TABLE;
	if (rss && (g->plan == BENCH_DST_ROUTES ||
		    g->plan == BENCH_DST_LOCAL)) {
		rc = gen_rss_table(t, g);
		if (rc < 0)
			return rc;
	}
	if (sc->per_flow_ip_id) {
		g->flow_ids = calloc(t->flows, sizeof(uint16_t));
		if (g->flow_ids == NULL)
			return -ENOMEM;
	}
	if (g->plan == BENCH_DST_HOT || g->plan == BENCH_DST_RANDOM) {
		/* a fixed seed: the same destinations for every variant */
		uint64_t x = 0x9e3779b97f4a7c15ull;
		uint32_t size = g->plan == BENCH_DST_HOT ? BENCH_HOT_SET :
				BENCH_RANDOM_TABLE, k;

		g->table = malloc(size * sizeof(uint32_t));
		if (g->table == NULL)
			return -ENOMEM;
		for (k = 0; k < size; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			g->table[k] = (uint32_t)((x >> 11) % t->routes);
		}
		g->tmask = size - 1;
		g->tpos = 0;
	}
	return 0;
}

void
bench_gen_fini(struct bench_gen *g)
{
	free(g->table);
	free(g->flow_ids);
	free(g->flow_rss);
	g->table = NULL;
	g->flow_ids = NULL;
	g->flow_rss = NULL;
}

#define CHECK(cond, ...) do {					\
	if (!(cond)) {						\
		snprintf(why, len, __VA_ARGS__);		\
		return false;					\
	}							\
} while (0)

bool
bench_check_forwarded(const struct bench_traffic *t,
		      const struct rte_mbuf *m, uint16_t out_port,
		      char *why, size_t len)
{
	const struct rte_ether_hdr *eh;
	const struct rte_ipv4_hdr *ip;
	uint32_t src, dst, k;
	char a[RTE_ETHER_ADDR_FMT_SIZE], b[RTE_ETHER_ADDR_FMT_SIZE];

	if (t->ip6)
		return bench_check_forwarded6(t, m, out_port, why, len);
	CHECK(out_port == 1, "sent out port %u, not port 1", out_port);
	CHECK(m->nb_segs == 1 && m->pkt_len == t->size &&
	      m->data_len == t->size, "frame of %u bytes (%u segs), not %u",
	      m->pkt_len, m->nb_segs, t->size);
	eh = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);
	ip = (const struct rte_ipv4_hdr *)(eh + 1);
	k = (rte_be_to_cpu_32(ip->dst_addr) - t->route_base) >> 8;
	/* a churned route only ever goes to one gateway or the other:
	 * a packet that leaves by any other next hop was misrouted; with
	 * --table, the flow's longest match's (table.h) */
	if (!(t->table_flows != NULL ? bench_table_hop_ok(t, eh) :
	      rte_is_same_ether_addr(&eh->dst_addr, &t->gw_mac) ||
	      (k < t->churn_routes &&
	       rte_is_same_ether_addr(&eh->dst_addr, &t->gw2_mac))) ||
	    !rte_is_same_ether_addr(&eh->src_addr, &t->port_mac[1])) {
		rte_ether_format_addr(a, sizeof(a), &eh->dst_addr);
		rte_ether_format_addr(b, sizeof(b), &eh->src_addr);
		snprintf(why, len, "macs %s <- %s, not the gateway's <- "
			 "port 1's (misrouted)", a, b);
		return false;
	}
	CHECK(eh->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV4),
	      "ethertype 0x%04x", rte_be_to_cpu_16(eh->ether_type));
	CHECK(ip->version_ihl == RTE_IPV4_VHL_DEF, "version/ihl 0x%02x",
	      ip->version_ihl);
	CHECK(ip->time_to_live == t->ttl - 1, "ttl %u, not %u",
	      ip->time_to_live, t->ttl - 1);
	CHECK(rte_be_to_cpu_16(ip->total_length) == t->ip_len,
	      "total length %u", rte_be_to_cpu_16(ip->total_length));
	CHECK(rte_raw_cksum(ip, sizeof(*ip)) == 0xffff,
	      "bad IPv4 header checksum 0x%04x",
	      rte_be_to_cpu_16(ip->hdr_checksum));
	src = rte_be_to_cpu_32(ip->src_addr);
	dst = rte_be_to_cpu_32(ip->dst_addr);
	CHECK((src & 0xffffff00) == (t->port_addr[0] & 0xffffff00),
	      "source 0x%08x is none of ours", src);
	k = (dst - t->route_base) >> 8;
	/* with --table, bench_table_hop_ok found the flow's own */
	CHECK(t->table_flows != NULL || (dst >= t->route_base &&
	      k < t->routes && (dst & 0xff) >= 1 && (dst & 0xff) <= DST_HOSTS),
	      "destination 0x%08x is none of ours", dst);
	CHECK(ip->next_proto_id == IPPROTO_UDP &&
	      bench_fold(rte_ipv4_phdr_cksum(ip, 0) +
		   rte_raw_cksum(ip + 1, t->udp_len)) == 0xffff,
	      "UDP datagram changed (checksum no longer verifies)");
	return true;
}

bool
bench_check_delivered(const struct bench_traffic *t,
		      const struct lsk_udp_msg *msg, char *why, size_t len)
{
	CHECK(msg->mbuf != NULL, "no mbuf");
	CHECK(msg->len == t->payload_len, "payload of %u bytes, not %u",
	      msg->len, t->payload_len);
	CHECK(t->payload_len == 0 ||
	      ((const uint8_t *)msg->payload)[0] == payload_byte(0),
	      "payload byte 0x%02x, not 0x%02x",
	      ((const uint8_t *)msg->payload)[0], payload_byte(0));
	CHECK(msg->dst_addr == t->port_addr[0] && msg->dst_port == UDP_DPORT,
	      "to 0x%08x:%u, not port 0's address:%u", msg->dst_addr,
	      msg->dst_port, UDP_DPORT);
	CHECK((msg->src_addr & 0xffffff00) == (t->port_addr[0] & 0xffffff00)
	      && msg->src_addr != t->port_addr[0] &&
	      msg->src_port >= BENCH_SPORT_BASE,
	      "from 0x%08x:%u, none of our senders", msg->src_addr,
	      msg->src_port);
	CHECK(msg->in_port == 0, "arrived on port %u", msg->in_port);
	return true;
}
