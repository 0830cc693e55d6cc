/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv6: the stages from ip6_input to ip6_forward and ip6_output, ICMPv6,
 * fragments and reassembly; neighbour discovery is ip6/nd6.h. The same
 * kinds of stages as IPv4's (ip4/ip4.h), by the same rules: lists in,
 * compacted lists out, every drop counted under a named reason.
 *
 * A list entry's meta word is core/list.h's; ip6_route writes the index
 * of its struct lsk_nexthop6 (core/fwd6.h) in LSK_META_NH_MASK, as
 * ip4_route does IPv4's. The stages hold frames (data at the Ethernet
 * header, as IPv4's); what ip6_local hands to udp6_input and
 * icmp6_input carries in those bits instead the upper-layer header's
 * offset from the IPv6 header (after the extension headers).
 */
#ifndef LSK_IP6_H
#define LSK_IP6_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "listack/listack.h"
#include "core/list.h"

struct lsk_worker;
struct lsk_drop;
struct lsk_nexthop6;
struct lsk_reasm;

/* The IPv6 layer's per-worker state (w->ip6w), in the worker's block
 * (worker/worker_make.c). */
struct lsk_ip6_worker {
	/* ICMPv6's rate limit (a token bucket, as ICMP's) */
	uint64_t icmp_tokens, icmp_tokens_tsc;
	/* reassembly of what is addressed to us (ip6_reasm.c);
	 * reasm_expires: the oldest datagram's timeout (TSC), UINT64_MAX
	 * when none waits */
	struct lsk_reasm *reasm;
	uint64_t reasm_expires;
	uint32_t frag_id;	/* the fragment header's id of our sends */
	struct lsk_list out_local;	/* ip6_output: our sends to ourselves */
	uint32_t fast_skip;	/* bursts fwd6_fast.c steps aside for */
};

/* The stages' and nodes' declarations (core/stage.h). */
struct lsk_stage_desc;
extern const struct lsk_stage_desc lsk_ip6_input_stage;
extern const struct lsk_stage_desc lsk_ip6_route_stage;
extern const struct lsk_stage_desc lsk_ip6_local_stage;
extern const struct lsk_stage_desc lsk_ip6_forward_stage;
extern const struct lsk_stage_desc lsk_icmp6_input_stage;
/* the ICMPv6 the stages queue (icmp6_out), sent by ip6_output */
extern const struct lsk_stage_desc lsk_icmp6_node;
extern const struct lsk_stage_desc lsk_ip6_output_stage;

/* ip6_input (RFC 8200's checks; extension headers walked, bounded)
 * leaves the packets it passes in l, compacted in place.
 * Ownership: takes the mbufs it drops; the rest stay in l. */
void lsk_ip6_input(struct lsk_worker *w, struct lsk_list *l);
/* ip6_route leaves the packets to forward in l; ours (and the multicast
 * groups we joined) go to local.
 * Ownership: takes the mbufs it drops; the rest stay in l or pass to
 * local. */
void lsk_ip6_route(struct lsk_worker *w, struct lsk_list *l,
		   struct lsk_list *local);
/* ip6_local reassembles fragments, hands UDP on in udp, ICMPv6 in icmp
 * and answers the rest (parameter problem, unknown next header); l is
 * left empty.
 * Ownership: takes l's mbufs; those it hands on pass to udp and icmp. */
void lsk_ip6_local(struct lsk_worker *w, struct lsk_list *l,
		   struct lsk_list *udp, struct lsk_list *icmp);
/* Answer echo requests, hand neighbour discovery's messages to nd6
 * (ip6/nd6.h), count and drop the rest; l is left empty.
 * Ownership: takes l's mbufs. */
void lsk_icmp6_input(struct lsk_worker *w, struct lsk_list *l);
/* Hop limit, MTU (never fragmented: packet too big), MAC rewrite, to the
 * neighbour (nd6); l is left empty.
 * Ownership: takes l's mbufs. */
void lsk_ip6_forward(struct lsk_worker *w, struct lsk_list *l);

/* ICMPv6 types and codes (RFC 4443) listack sends; echo and ND's are
 * DPDK's or ip6/nd6.h's. */
#define LSK_ICMP6_DST_UNREACH 1
#define LSK_ICMP6_PKT_TOO_BIG 2
#define LSK_ICMP6_TIME_EXCEEDED 3
#define LSK_ICMP6_PARAM_PROB 4
#define LSK_ICMP6_ECHO_REQUEST 128
#define LSK_ICMP6_ECHO_REPLY 129
/* codes of LSK_ICMP6_DST_UNREACH */
#define LSK_ICMP6_NOROUTE 0
#define LSK_ICMP6_ADM_PROHIBITED 1
#define LSK_ICMP6_NOT_NEIGHBOUR 2	/* beyond the source's scope */
#define LSK_ICMP6_ADDR_UNREACH 3
#define LSK_ICMP6_PORT_UNREACH 4
#define LSK_ICMP6_REJECT_ROUTE 6
/* codes of LSK_ICMP6_TIME_EXCEEDED */
#define LSK_ICMP6_EXC_HOPLIMIT 0
#define LSK_ICMP6_EXC_FRAGTIME 1
/* codes of LSK_ICMP6_PARAM_PROB */
#define LSK_ICMP6_HDR_FIELD 0
#define LSK_ICMP6_UNK_NEXTHDR 1
#define LSK_ICMP6_UNK_OPTION 2

/*
 * Queue an ICMPv6 error about m (data at its IPv6 header) on icmp6_out,
 * a new mbuf (RFC 4443 2.4: never about an error, a multicast
 * destination but for too big and option code 2, an unspecified or
 * multicast source; rate limited, counted icmp6.OutRateLimited). info:
 * the MTU for packet too big, the pointer for parameter problem.
 * Ownership: m stays the caller's.
 */
void lsk_icmp6_error(struct lsk_worker *w, const struct rte_mbuf *m,
		     uint32_t meta, uint8_t type, uint8_t code, uint32_t info);
/* Drop the list entry m for reason r of a stage's table (core/drop.h):
 * counted, r's ICMPv6 error raised (info as above), freed.
 * Ownership: takes m and its members. */
void lsk_ip6_drop(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
		  const struct lsk_drop *r, uint32_t info);
/* Route and send what icmp6_out holds.
 * Ownership: takes icmp6_out's mbufs. */
void lsk_icmp6_output(struct lsk_worker *w);
/* ICMPv6 address unreachable about each packet of l (held for a
 * neighbour that never answered, ip6/nd6.h); l is left empty.
 * Ownership: takes l's mbufs. */
void lsk_icmp6_unreach_addr(struct lsk_worker *w, struct lsk_list *l);

/*
 * Route and send n packets we made (data at the IPv6 header, with room
 * in front for the Ethernet header): ICMPv6, our UDP datagrams, what the
 * kernel sent on a TAP; kind is enum lsk_out_kind (ip4/ip4.h). A source
 * left unspecified is filled in (lsk_fwd6_source) with the checksum;
 * what is larger than the egress MTU leaves in fragments
 * (lsk_ip6_fragment), as a host's datagrams do.
 * Ownership: takes pkts.
 */
void lsk_ip6_output_burst(struct lsk_worker *w, struct rte_mbuf **pkts,
			  unsigned int n, int kind);

/* Fragments (ip6_frag.c) and reassembly (ip6_reasm.c). */
int lsk_reasm6_worker_init(struct lsk_worker *w);
void lsk_reasm6_worker_fini(struct lsk_worker *w);
/* Send m (ours, over nh's MTU) as fragments to the neighbour `to` out of
 * nh's interface (RFC 8200 4.5; ids from ip6w->frag_id).
 * Ownership: takes m. */
void lsk_ip6_fragment(struct lsk_worker *w, struct rte_mbuf *m,
		      const struct lsk_nexthop6 *nh,
		      const struct lsk_ip6_addr *to);
/* Put the fragment m (data at its IPv6 header; frag_off: the fragment
 * header's offset from it) in the reassembly table; returns the whole
 * datagram (its fragment header gone) when its last piece came, else
 * NULL (held, or dropped and counted).
 * Ownership: takes m; returns an mbuf the caller owns. */
struct rte_mbuf *lsk_ip6_reassemble(struct lsk_worker *w, struct rte_mbuf *m,
				    uint32_t meta, uint16_t frag_off);
/* Drop the datagrams whose time is up (ReasmTimeout; ICMPv6 time
 * exceeded, code 1, when the first piece had come). */
void lsk_reasm6_expire(struct lsk_worker *w);
/* Fragments the worker holds; the time a datagram has for its pieces
 * (tests); drop what waits for pieces (tests, fuzzers). */
unsigned int lsk_reasm6_held(const struct lsk_worker *w);
void lsk_reasm6_timeout_set(struct lsk_worker *w, uint64_t tsc);
void lsk_reasm6_flush(struct lsk_worker *w);
/* The reassembly's node (ip6_reasm.c): its drop reasons. */
extern const struct lsk_stage_desc lsk_ip6_reasm_node;

/*
 * The IPv6 forwarding fast path (fwd6_fast.c), as IPv4's lsk_fwd_fast
 * (ip4/ip4.h): forward what it can of pkts[0, n) from the first frame
 * on (timed as its own stage, fwd6_fast); the rest go to rest (or stay
 * in pkts when it took none), in order, for the stages. Returns how
 * many are left.
 * Ownership: takes the packets it forwards; those in rest stay the
 * caller's.
 */
extern const struct lsk_stage_desc lsk_fwd6_fast_stage;
uint16_t lsk_fwd6_fast(struct lsk_worker *w, struct rte_mbuf **pkts,
		       uint16_t n, struct rte_mbuf **rest);
/* Is fwd6_fast to run on this burst? Not while it steps aside (each
 * burst asked counts one of the bursts it steps aside for). */
static inline bool
lsk_fwd6_fast_due(struct lsk_ip6_worker *ip6w)
{
	if (likely(ip6w->fast_skip == 0))
		return true;
	ip6w->fast_skip--;
	return false;
}

#endif /* LSK_IP6_H */
