/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv4 fragments with DPDK's rte_ip_frag: forwarded datagrams larger than
 * the egress MTU with DF clear leave as fragments (ip_fragment); fragments
 * addressed to us are reassembled in a bounded per-worker table with a
 * timeout (ip_defrag). Forwarded fragments pass as they are.
 *
 * A datagram that would reassemble past 65535 bytes is dropped whole
 * (ReasmFails), as Linux does. What DPDK frees goes on the worker's death
 * row, emptied before any call could overflow it and after every burst.
 *
 * Known gaps: rte_ip_frag reassembles at most RTE_LIBRTE_IP_FRAG_MAX_FRAG
 * fragments per datagram; larger ones count ReasmFails. Every fragment
 * carries the whole header, options included.
 */
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ip.h>
#include <rte_ip_frag.h>
#include <rte_mbuf.h>

#include "core/fwd.h"
#include "core/worker.h"
#include "core/tx.h"
#include "l2/l2.h"
#include "ip4/ip4.h"
#include "control/control.h"

/* the most pieces a datagram makes: 65515 bytes of data in pieces of
 * 48, what the smallest IP MTU (68) holds */
#define FRAG_MAX_OUT ((UINT16_MAX - 20 + 47) / 48)
#define REASM_BUCKETS 1024
#define REASM_BUCKET_ENTRIES 4
#define REASM_TIMEOUT_S 30	/* Linux's ipfrag_time */
/*
 * The most one rte_ipv4_frag_reassemble_packet call parks on the death
 * row: a held datagram's RTE_LIBRTE_IP_FRAG_MAX_FRAG fragments and the
 * fragment that spoils it (one too many, a duplicate first or last, a
 * hole). A stale or evicted entry freed on the way leaves an empty one,
 * which the new fragment cannot spoil.
 */
#define REASM_MAX_PARKED (RTE_LIBRTE_IP_FRAG_MAX_FRAG + 1)

int
lsk_frag_worker_init(struct lsk_worker *w)
{
	uint64_t timeout = rte_get_tsc_hz() * REASM_TIMEOUT_S;

	w->ip4w.reasm = rte_ip_frag_table_create(REASM_BUCKETS,
					    REASM_BUCKET_ENTRIES,
					    REASM_BUCKETS * REASM_BUCKET_ENTRIES,
					    timeout, w->stack->socket_id);
	return w->ip4w.reasm ? 0 : -ENOMEM;
}

void
lsk_frag_worker_fini(struct lsk_worker *w)
{
	if (w->ip4w.reasm != NULL) {
		rte_ip_frag_free_death_row(&w->ip4w.death_row, 0);
		rte_ip_frag_table_destroy(w->ip4w.reasm);
		w->ip4w.reasm = NULL;
	}
}

/*
 * Fragment m (its TTL already decreased) for nh and send the fragments
 * to `to` (ARP first when nh has no MAC). Takes m.
 */
void
lsk_ip4_fragment(struct lsk_worker *w, struct rte_mbuf *m,
		 const struct lsk_nexthop *nh, uint32_t to)
{
	struct rte_mbuf *out[FRAG_MAX_OUT];
	uint16_t in_port = m->port;
	int32_t n, i;

	rte_pktmbuf_adj(m, RTE_ETHER_HDR_LEN);
	n = rte_ipv4_fragment_packet(m, out, FRAG_MAX_OUT, nh->mtu, m->pool,
				     w->stack->indirect_pool);
	rte_pktmbuf_free(m);	/* the fragments hold references */
	if (n < 0) {
		w->stats.ip.FragFails++;
		return;
	}
	w->stats.ip.FragOKs++;
	w->stats.ip.FragCreates += (uint64_t)n;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *f = out[i];
		struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod(f,
			struct rte_ipv4_hdr *);
		struct rte_ether_hdr *eh;

		ip->hdr_checksum = 0;
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		eh = (struct rte_ether_hdr *)rte_pktmbuf_prepend(f,
							sizeof(*eh));
		if (eh == NULL) {
			w->stats.ip.FragFails++;
			rte_pktmbuf_free(f);
			continue;
		}
		memcpy(eh, &nh->dst_mac, 2 * RTE_ETHER_ADDR_LEN);
		eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
		f->port = in_port;
		if (nh->resolved)
			lsk_tx_enqueue(w, nh->port, f);
		else
			lsk_neigh_resolve(w, to, nh->port, f);
	}
}

/*
 * Past 65535 bytes of IP (ip_frag_reasm's "Oversized IP packet"): DPDK
 * chains it whole but writes its total length in 16 bits, so it would
 * read as a short datagram, or one shorter than its header.
 */
static inline bool
reasm_oversized(const struct rte_mbuf *whole)
{
	return whole->pkt_len - RTE_ETHER_HDR_LEN > UINT16_MAX;
}

/*
 * A fragment for us goes into the reassembly table; the whole datagram
 * comes back (in segments) when its last piece arrives, else NULL.
 */
struct rte_mbuf *
lsk_ip4_reassemble(struct lsk_worker *w, struct rte_mbuf *m)
{
	struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(
		m, struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	struct rte_mbuf *whole;
	uint32_t before;

	w->stats.ip.ReasmReqds++;
	/* DPDK never bounds the row: empty it before a call could overflow
	 * it into the worker (a burst can spoil many held datagrams) */
	if (unlikely(w->ip4w.death_row.cnt >
		     RTE_IP_FRAG_DEATH_ROW_MBUF_LEN - REASM_MAX_PARKED))
		rte_ip_frag_free_death_row(&w->ip4w.death_row, 0);
	before = w->ip4w.death_row.cnt;
	m->l2_len = RTE_ETHER_HDR_LEN;
	m->l3_len = (ip->version_ihl & 0xf) * 4u;
	whole = rte_ipv4_frag_reassemble_packet(w->ip4w.reasm, &w->ip4w.death_row, m,
						rte_rdtsc(), ip);
	if (w->ip4w.death_row.cnt > before)
		w->stats.ip.ReasmFails++;
	if (whole != NULL && unlikely(reasm_oversized(whole))) {
		w->stats.ip.ReasmFails++;
		rte_pktmbuf_free(whole);
		return NULL;
	}
	if (whole != NULL) {
		w->stats.ip.ReasmOKs++;
		/* the datagram reads as one: total length of the whole */
		ip = rte_pktmbuf_mtod_offset(whole, struct rte_ipv4_hdr *,
					     RTE_ETHER_HDR_LEN);
		ip->hdr_checksum = 0;
		ip->hdr_checksum = rte_ipv4_cksum(ip);
		/* the PMD's L4 verdict was about the first fragment only */
		whole->ol_flags &= ~RTE_MBUF_F_RX_L4_CKSUM_MASK;
	}
	return whole;
}

void
lsk_frag_free_death_row(struct lsk_worker *w)
{
	if (w->ip4w.death_row.cnt)
		rte_ip_frag_free_death_row(&w->ip4w.death_row, 0);
}

/*
 * Drop every datagram still waiting for fragments, as their timeout
 * would (not counted: the timeout itself is not counted either), so that
 * a test or a fuzzer can check that every mbuf is back: a new, empty
 * table (destroying one frees what it holds). Control path.
 */
int
lsk_frag_drop_incomplete(struct lsk_worker *w)
{
	lsk_frag_worker_fini(w);
	return lsk_frag_worker_init(w);
}
