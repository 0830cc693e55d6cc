/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generator's frames: UDP/IPv4 over F flows (bench/traffic.c's
 * addressing; or UDP/IPv6, traffic6.c's, with the stamp 20 bytes
 * further), one size or IMIX, each carrying a stamp in the first 18
 * bytes of its UDP payload, all a 64-byte frame has (60 - 14 - 20 - 8):
 *
 *   offset  bytes  field (network order)
 *   0       2      signature GEN_SIGNATURE
 *   2       1      trial tag: frames of another trial are not counted
 *   3       3      flow number, 0 .. F-1 (F <= GEN_MAX_FLOWS)
 *   6       4      per-flow sequence number, from 0 each trial
 *   10      8      TSC when the frame's burst was handed to the port
 *
 * The rest of the payload is zeros. The generator's TX mbufs come from a
 * pool of their own, zeroed once (gen_frames_pool_zero): only the first
 * 60 bytes are ever written there, so every frame's tail is already zero
 * and writing a 1518-byte frame costs what a 64-byte one does. The IPv4
 * and UDP checksums are valid: per-size and per-flow partial sums are
 * computed once, the stamp's nine 16-bit words are added per frame.
 */
#ifndef LSK_BENCH_GEN_FRAMES_H
#define LSK_BENCH_GEN_FRAMES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_udp.h>

#include "../bench.h"
#include "gen.h"

#define GEN_SIGNATURE 0x4c47		/* "LG" */
#define GEN_STAMP_LEN 18
#define GEN_HDR_LEN BENCH_HDR_LEN	/* 42: Ethernet + IPv4 + UDP */
#define GEN_STAMP_OFF GEN_HDR_LEN
#define GEN_WRITTEN_LEN (GEN_HDR_LEN + GEN_STAMP_LEN)	/* 60 */
#define GEN_MAX_FLOWS (1u << 20)	/* per-flow state: ~40 bytes each */
#define GEN_IMIX_PERIOD 48
#define GEN_MAX_SIZES 3			/* IMIX: 64, 570, 1518 */
/* IPv6 (--ip6, traffic6.c's addressing): the stamp behind 62 bytes of
 * headers, so the smallest frame is 84 bytes (80 in the mbuf); no IMIX */
#define GEN_HDR6_LEN BENCH_HDR6_LEN	/* 62: Ethernet + IPv6 + UDP */
#define GEN_MIN_SIZE6 (GEN_HDR6_LEN + GEN_STAMP_LEN + GEN_FCS_LEN)

/* One frame size: mbuf length and what depends on it. */
struct gen_size {
	uint16_t frame;			/* counting the FCS: 64 .. 1518 */
	uint16_t len;			/* in the mbuf: frame - 4 */
	uint32_t ip_sum;		/* IPv4 header without addresses, id */
	uint32_t udp_sum;		/* pseudo header proto + 2 x length */
	uint8_t hdr[GEN_HDR6_LEN];	/* template, addresses/ports zero
					 * (IPv4: the first GEN_HDR_LEN) */
};

/* One flow's addresses (network order) and their partial sums. */
struct gen_flow {
	uint32_t src, dst;
	uint16_t sport, dport;
	uint32_t ip_sum;		/* halves of src and dst */
	uint32_t udp_sum;		/* the same plus sport and dport */
};

struct gen_frames {
	uint32_t flows;
	uint16_t size;			/* request: 64 .. 1518 or IMIX */
	unsigned int n_sizes;
	struct gen_size sizes[GEN_MAX_SIZES];
	/* the sizes in turn: sizes[seq_sizes[pos]], pos = 0 .. period-1
	 * advanced per frame written (no division per frame) */
	unsigned int period, pos;
	uint8_t seq_sizes[GEN_IMIX_PERIOD];
	struct gen_flow *flow;		/* [flows] */
	uint32_t *next_seq;		/* [flows]: the next sequence number */
	uint8_t tag;
	struct rte_ether_addr src_mac, dst_mac;
	bool ip6;			/* IPv6 frames (the traffic's) */
};

/* What a received frame's stamp says. */
struct gen_stamp {
	uint16_t signature;
	uint8_t tag;
	uint32_t flow;
	uint32_t seq;
	uint64_t tsc;
};

/*
 * Build the flows and sizes of one trial. t gives the addressing (flows
 * as bench_flow_get numbers them; t->flows is ignored), size is 64 ..
 * 1518 or GEN_SIZE_IMIX. Returns 0 or -EINVAL / -ENOMEM; on success
 * gen_frames_fini must follow.
 */
int gen_frames_init(struct gen_frames *g, const struct bench_traffic *t,
		    uint32_t flows, uint16_t size, uint8_t tag,
		    const struct rte_ether_addr *src_mac,
		    const struct rte_ether_addr *dst_mac);
void gen_frames_fini(struct gen_frames *g);

/* Zero every mbuf's data room of a pool (its frames' tails, see above). */
void gen_frames_pool_zero(struct rte_mempool *mp);

/* The IMIX sizes in order over one period, interleaved (for tests). */
void gen_imix_order(uint8_t order[GEN_IMIX_PERIOD]);

/* Read the stamp of a frame; false if it is no UDP/IPv4 or UDP/IPv6
 * frame long enough to carry one (the signature is the caller's to
 * check). */
bool gen_stamp_read(const struct rte_mbuf *m, struct gen_stamp *s);

static inline uint32_t
gen_sum16(const uint8_t *p, unsigned int n_words)
{
	uint32_t sum = 0;
	unsigned int i;

	for (i = 0; i < n_words; i++) {
		uint16_t w;

		memcpy(&w, p + 2 * i, 2);
		sum += w;
	}
	return sum;
}

/* The stamp of flow f's frame number seq at st; its sum. */
static inline uint32_t
gen_stamp_write(const struct gen_frames *g, uint8_t *st, uint32_t f,
		uint32_t seq, uint64_t tsc)
{
	uint32_t v32;
	uint64_t v64;

	v32 = rte_cpu_to_be_32((uint32_t)GEN_SIGNATURE << 16 |
			       (uint32_t)g->tag << 8 | f >> 16);
	memcpy(st, &v32, 4);
	st[4] = (uint8_t)(f >> 8);
	st[5] = (uint8_t)f;
	v32 = rte_cpu_to_be_32(seq);
	memcpy(st + 6, &v32, 4);
	v64 = rte_cpu_to_be_64(tsc);
	memcpy(st + 10, &v64, 8);
	return gen_sum16(st, GEN_STAMP_LEN / 2);
}

/* gen_frame_write of IPv6 frames, flow f's frame number seq: the flow's
 * 32-bit fields into the template's addresses (bench.h,
 * bench_write_headers6), no IP ID. */
static inline void
gen_frame_write6(struct gen_frames *g, struct rte_mbuf *m, uint32_t f,
		 uint32_t seq, uint64_t tsc)
{
	const struct gen_size *sz = &g->sizes[g->seq_sizes[g->pos]];
	const struct gen_flow *fl = &g->flow[f];
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(p + 14 + 40);
	uint32_t sum;
	uint16_t c;

	if (++g->pos == g->period)
		g->pos = 0;
	memcpy(p, sz->hdr, GEN_HDR6_LEN);
	memcpy(p + BENCH_IP6_SRC_OFF, &fl->src, 4);
	memcpy(p + BENCH_IP6_DST_OFF, &fl->dst, 4);
	udp->src_port = fl->sport;
	udp->dst_port = fl->dport;
	sum = sz->udp_sum + fl->udp_sum +
	      gen_stamp_write(g, p + GEN_HDR6_LEN, f, seq, tsc);
	c = (uint16_t)~bench_fold(sum);
	udp->dgram_cksum = c == 0 ? 0xffff : c;
	m->data_len = sz->len;
	m->pkt_len = sz->len;
}

/*
 * Write the next frame of the trial (the next size of the IMIX order) of
 * flow f into m, stamped with tsc. m is from a zeroed TX pool
 * (gen_frames_pool_zero) and holds no data yet.
 * Ownership: m stays the caller's.
 */
static inline void
gen_frame_write(struct gen_frames *g, struct rte_mbuf *m, uint32_t f,
		uint64_t tsc)
{
	const struct gen_size *sz = &g->sizes[g->seq_sizes[g->pos]];
	const struct gen_flow *fl = &g->flow[f];
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(p + 14);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint8_t *st = p + GEN_STAMP_OFF;
	uint32_t seq = g->next_seq[f]++;
	uint16_t id = rte_cpu_to_be_16((uint16_t)seq);
	uint32_t sum;
	uint16_t c;

	if (g->ip6) {
		gen_frame_write6(g, m, f, seq, tsc);
		return;
	}
	if (++g->pos == g->period)
		g->pos = 0;
	memcpy(p, sz->hdr, GEN_HDR_LEN);
	ip->packet_id = id;
	ip->src_addr = fl->src;
	ip->dst_addr = fl->dst;
	ip->hdr_checksum = (uint16_t)~bench_fold(sz->ip_sum + fl->ip_sum + id);
	udp->src_port = fl->sport;
	udp->dst_port = fl->dport;

	sum = sz->udp_sum + fl->udp_sum + gen_stamp_write(g, st, f, seq, tsc);
	c = (uint16_t)~bench_fold(sum);
	udp->dgram_cksum = c == 0 ? 0xffff : c;

	m->data_len = sz->len;
	m->pkt_len = sz->len;
}

#endif /* LSK_BENCH_GEN_FRAMES_H */
