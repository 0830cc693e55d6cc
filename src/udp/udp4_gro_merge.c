/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `gro merge`, the baseline fraglist GRO is measured against: a datagram
 * that joins a train has its payload copied behind the head's, as
 * Linux's non-fraglist UDP GRO does, instead of being chained.
 */
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "core/list.h"
#include "udp/gro.h"
#include "udp/gro_run.h"

/*
 * Does a fresh mbuf of pool hold len bytes? GSO rebuilds each datagram of
 * a merged train in one, and merging copies payloads into them: a head
 * whose pool cannot hold its frame so (a small data room, a frame placed
 * without headroom) is never merged.
 */
static bool
gro_pool_holds(struct rte_mempool *pool, uint32_t len)
{
	uint32_t room = rte_pktmbuf_data_room_size(pool);

	return room >= RTE_PKTMBUF_HEADROOM + len;
}

/*
 * `gro merge`: the member's payload is copied behind the head's (the
 * caller frees the member once done with it); the head's lengths grow to
 * the total as Linux's gro_complete sets them. Only IDs that count up can
 * be rebuilt later.
 */
bool
lsk_gro_merge(struct lsk_gro_slot *s, const struct gro_view *v)
{
	struct rte_mbuf *h = s->head, *seg;
	struct rte_ipv4_hdr *hip = rte_pktmbuf_mtod_offset(h,
		struct rte_ipv4_hdr *, RTE_ETHER_HDR_LEN);
	struct rte_udp_hdr *huh = (struct rte_udp_hdr *)(hip + 1);
	uint16_t len = rte_be_to_cpu_16(v->uh->dgram_len) - 8;
	char *dst;

	if (rte_be_to_cpu_16(v->ip->packet_id) !=
	    (uint16_t)(rte_be_to_cpu_16(hip->packet_id) + s->count))
		return false;
	if (s->count == 1) {
		if (!gro_pool_holds(h->pool, h->data_len))
			return false;
		h->tso_segsz = (uint16_t)(s->ulen - 8);
		/* a merged train has no members to free: its mbuf may
		 * keep the link of an earlier trip (a member delivered) */
		*lsk_train_next(h) = NULL;
	}
	seg = rte_pktmbuf_lastseg(h);
	if (rte_pktmbuf_tailroom(seg) < len) {
		seg = rte_pktmbuf_alloc(h->pool);
		if (seg == NULL || rte_pktmbuf_tailroom(seg) < len ||
		    rte_pktmbuf_chain(h, seg) != 0) {
			rte_pktmbuf_free(seg);
			return false;
		}
	}
	dst = rte_pktmbuf_append(h, len);	/* the room is there */
	memcpy(dst, v->uh + 1, len);
	hip->total_length = rte_cpu_to_be_16(
		(uint16_t)(rte_be_to_cpu_16(hip->total_length) + len));
	huh->dgram_len = rte_cpu_to_be_16(
		(uint16_t)(rte_be_to_cpu_16(huh->dgram_len) + len));
	hip->hdr_checksum = 0;
	hip->hdr_checksum = rte_ipv4_cksum(hip);
	return true;
}
