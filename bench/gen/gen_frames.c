/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generator's frames: per-size templates, per-flow sums, the IMIX
 * order, and reading a stamp back (gen_frames.h says the layout).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mempool.h>

#include "gen_frames.h"

/* IMIX: 28 x 64, 16 x 570, 4 x 1518 in every 48 frames */
static const uint16_t imix_size[GEN_MAX_SIZES] = { 64, 570, 1518 };
static const unsigned int imix_weight[GEN_MAX_SIZES] = { 28, 16, 4 };

/*
 * Smooth weighted round robin: each step every size gains its weight, the
 * one with the most credit goes next and pays the period. The sizes come
 * interleaved (64 570 64 64 570 1518 ...), never in blocks.
 */
void
gen_imix_order(uint8_t order[GEN_IMIX_PERIOD])
{
	int credit[GEN_MAX_SIZES] = { 0 };
	unsigned int k, i, best;

	for (k = 0; k < GEN_IMIX_PERIOD; k++) {
		best = 0;
		for (i = 0; i < GEN_MAX_SIZES; i++) {
			credit[i] += (int)imix_weight[i];
			if (credit[i] > credit[best])
				best = i;
		}
		credit[best] -= GEN_IMIX_PERIOD;
		order[k] = (uint8_t)best;
	}
}

static void
size_init(struct gen_size *sz, uint16_t frame,
	  const struct rte_ether_addr *src_mac,
	  const struct rte_ether_addr *dst_mac)
{
	struct rte_ether_hdr *eh = (struct rte_ether_hdr *)sz->hdr;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eh + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint16_t len = (uint16_t)(frame - GEN_FCS_LEN);
	uint16_t ip_len = (uint16_t)(len - RTE_ETHER_HDR_LEN);
	uint16_t udp_len = (uint16_t)(ip_len - sizeof(*ip));

	memset(sz, 0, sizeof(*sz));
	sz->frame = frame;
	sz->len = len;
	eh->dst_addr = *dst_mac;
	eh->src_addr = *src_mac;
	eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(ip_len);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	udp->dgram_len = rte_cpu_to_be_16(udp_len);
	/* addresses, id, ports and checksums are zero in the template */
	sz->ip_sum = rte_raw_cksum(ip, sizeof(*ip));
	sz->udp_sum = rte_cpu_to_be_16(IPPROTO_UDP) +
		      2u * rte_cpu_to_be_16(udp_len);
}

/* size_init of IPv6 frames: the addresses' fixed bytes in the template
 * and in the UDP sum (traffic6.c). */
static void
size_init6(struct gen_size *sz, uint16_t frame,
	   const struct bench_traffic *t,
	   const struct rte_ether_addr *src_mac,
	   const struct rte_ether_addr *dst_mac)
{
	struct rte_ether_hdr *eh = (struct rte_ether_hdr *)sz->hdr;
	struct rte_ipv6_hdr *ip = (struct rte_ipv6_hdr *)(eh + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint16_t len = (uint16_t)(frame - GEN_FCS_LEN);
	uint16_t udp_len = (uint16_t)(len - GEN_HDR6_LEN + sizeof(*udp));

	memset(sz, 0, sizeof(*sz));
	sz->frame = frame;
	sz->len = len;
	eh->dst_addr = *dst_mac;
	eh->src_addr = *src_mac;
	eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
	ip->vtc_flow = RTE_BE32(6u << 28);
	ip->payload_len = rte_cpu_to_be_16(udp_len);
	ip->proto = IPPROTO_UDP;
	ip->hop_limits = 64;
	bench_ip6_src(t, 0, ip->src_addr);
	bench_ip6_dst(0, ip->dst_addr);
	udp->dgram_len = rte_cpu_to_be_16(udp_len);
	sz->udp_sum = rte_raw_cksum(ip->src_addr, 32) +
		      rte_cpu_to_be_16(IPPROTO_UDP) +
		      2u * rte_cpu_to_be_16(udp_len);
}

int
gen_frames_init(struct gen_frames *g, const struct bench_traffic *t,
		uint32_t flows, uint16_t size, uint8_t tag,
		const struct rte_ether_addr *src_mac,
		const struct rte_ether_addr *dst_mac)
{
	unsigned int i;
	uint32_t f;

	memset(g, 0, sizeof(*g));
	if (flows == 0 || flows > GEN_MAX_FLOWS)
		return -EINVAL;
	if (size != GEN_SIZE_IMIX &&
	    (size < GEN_MIN_SIZE || size > GEN_MAX_SIZE))
		return -EINVAL;
	if (t->ip6 && (size == GEN_SIZE_IMIX || size < GEN_MIN_SIZE6))
		return -EINVAL;
	g->flow = calloc(flows, sizeof(*g->flow));
	g->next_seq = calloc(flows, sizeof(*g->next_seq));
	if (g->flow == NULL || g->next_seq == NULL) {
		gen_frames_fini(g);
		return -ENOMEM;
	}
	g->flows = flows;
	g->size = size;
	g->tag = tag;
	g->src_mac = *src_mac;
	g->dst_mac = *dst_mac;
	if (size == GEN_SIZE_IMIX) {
		g->n_sizes = GEN_MAX_SIZES;
		for (i = 0; i < GEN_MAX_SIZES; i++)
			size_init(&g->sizes[i], imix_size[i], src_mac,
				  dst_mac);
		g->period = GEN_IMIX_PERIOD;
		gen_imix_order(g->seq_sizes);
	} else if (t->ip6) {
		g->ip6 = true;
		g->n_sizes = 1;
		size_init6(&g->sizes[0], size, t, src_mac, dst_mac);
		g->period = 1;
		g->seq_sizes[0] = 0;
	} else {
		g->n_sizes = 1;
		size_init(&g->sizes[0], size, src_mac, dst_mac);
		g->period = 1;
		g->seq_sizes[0] = 0;
	}
	for (f = 0; f < flows; f++) {
		struct gen_flow *fl = &g->flow[f];
		struct bench_flow bf;

		bench_flow_get(t, f, &bf);
		fl->src = rte_cpu_to_be_32(bf.src);
		fl->dst = rte_cpu_to_be_32(bf.dst);
		fl->sport = rte_cpu_to_be_16(bf.sport);
		fl->dport = rte_cpu_to_be_16(bf.dport);
		fl->ip_sum = bench_halves(fl->src) + bench_halves(fl->dst);
		fl->udp_sum = fl->ip_sum + fl->sport + fl->dport;
	}
	return 0;
}

void
gen_frames_fini(struct gen_frames *g)
{
	free(g->flow);
	free(g->next_seq);
	g->flow = NULL;
	g->next_seq = NULL;
}

static void
zero_one(struct rte_mempool *mp, void *arg, void *obj, unsigned int idx)
{
	struct rte_mbuf *m = obj;

	(void)mp;
	(void)arg;
	(void)idx;
	memset(m->buf_addr, 0, m->buf_len);
}

void
gen_frames_pool_zero(struct rte_mempool *mp)
{
	rte_mempool_obj_iter(mp, zero_one, NULL);
}

bool
gen_stamp_read(const struct rte_mbuf *m, struct gen_stamp *s)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(p + 14);
	const struct rte_ipv6_hdr *ip6 = (const struct rte_ipv6_hdr *)(p + 14);
	const uint8_t *st = p + GEN_STAMP_OFF;
	uint16_t et;
	uint32_t v32;
	uint64_t v64;

	if (m->data_len < GEN_WRITTEN_LEN)
		return false;
	memcpy(&et, p + 12, 2);
	if (et == RTE_BE16(RTE_ETHER_TYPE_IPV6)) {
		if (m->data_len < GEN_HDR6_LEN + GEN_STAMP_LEN ||
		    (rte_be_to_cpu_32(ip6->vtc_flow) >> 28) != 6 ||
		    ip6->proto != IPPROTO_UDP ||
		    rte_be_to_cpu_16(ip6->payload_len) <
		    sizeof(struct rte_udp_hdr) + GEN_STAMP_LEN)
			return false;
		st = p + GEN_HDR6_LEN;
	} else if (et != RTE_BE16(RTE_ETHER_TYPE_IPV4) ||
		   ip->version_ihl != RTE_IPV4_VHL_DEF ||
		   ip->next_proto_id != IPPROTO_UDP ||
		   rte_be_to_cpu_16(ip->total_length) <
		   sizeof(*ip) + sizeof(struct rte_udp_hdr) + GEN_STAMP_LEN) {
		return false;
	}
	memcpy(&v32, st, 4);
	v32 = rte_be_to_cpu_32(v32);
	s->signature = (uint16_t)(v32 >> 16);
	s->tag = (uint8_t)(v32 >> 8);
	s->flow = (v32 & 0xff) << 16 | (uint32_t)st[4] << 8 | st[5];
	memcpy(&v32, st + 6, 4);
	s->seq = rte_be_to_cpu_32(v32);
	memcpy(&v64, st + 10, 8);
	s->tsc = rte_be_to_cpu_64(v64);
	return true;
}
