/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv4: the stages from ip4_input to ip4_forward, ICMP, fragments and the
 * per-worker route cache; the classifier ip4_filter reads.
 */
#ifndef LSK_IP4_H
#define LSK_IP4_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "core/list.h"
#include "core/reasm.h"

struct lsk_worker;
struct lsk_drop;
struct lsk_nexthop;
struct lsk_route_cache;
struct lsk_reasm;
struct rte_acl_ctx;

/* The IPv4 layer's per-worker state (w->ip4w). */
struct lsk_ip4_worker {
	/* ICMP: the rate limit's token bucket, the IDs of what we send */
	uint64_t icmp_tokens, icmp_tokens_tsc;
	uint16_t icmp_ip_id;
	/* reassembly (ip4_reasm.c); reasm_expires: the oldest datagram's
	 * timeout (TSC), UINT64_MAX when none waits */
	struct lsk_reasm *reasm;
	uint64_t reasm_expires;
	struct lsk_route_cache *rcache;	/* rcache_pub, for this burst */
	/* this worker's route cache as the control thread published it
	 * (lsk_route_cache_set), NULL when off */
	struct lsk_route_cache *rcache_pub;
	struct lsk_list out_local;	/* ip4_output: our sends to ourselves */
	uint32_t fast_skip;	/* bursts fwd_fast.c steps aside for */
};

/* What rte_acl looks at, as on the wire. */
struct lsk_filter_key {
	uint8_t proto;
	uint8_t pad[3];
	uint32_t src;
	uint32_t dst;
	union {
		uint32_t ports;
		struct {
			uint16_t sport, dport;
		};
	};
};

/*
 * The filter's screen, built with its rules (control/filter_table.c): for
 * four bytes of the key, the set of values some rule lets that byte take
 * (map[v] is 1: a byte map, tested with one compare). A rule matches a key only when each of its
 * fields holds the key's, so each screened byte of a key a rule matches
 * is in that rule's set, and so in the union: a key with any byte
 * outside its set matches no rule, and is accepted without rte_acl
 * (ip4/ip4_filter.c).
 */
struct lsk_filter_screen {
	uint8_t dst[256];	/* the destination's first byte on the wire */
	uint8_t proto[256];	/* the protocol */
	uint8_t src[256];	/* the source's first byte */
	uint8_t dport[256];	/* the destination port's (0: no ports) */
};

struct lsk_filter_table {
	struct rte_acl_ctx *ctx;
	uint32_t n_rules;
	struct lsk_filter_screen screen;
	bool drop[];		/* per rule */
};

/* ip4_input leaves the packets it passes in l, compacted in place.
 * Ownership: takes the mbufs it drops; the rest stay in l. */
/* The stages' and nodes' declarations (core/stage.h). */
struct lsk_stage_desc;
extern const struct lsk_stage_desc lsk_fwd_fast_stage;
extern const struct lsk_stage_desc lsk_ip4_input_stage;
extern const struct lsk_stage_desc lsk_ip4_filter_stage;
extern const struct lsk_stage_desc lsk_ip4_route_stage;
extern const struct lsk_stage_desc lsk_ip4_local_stage;
extern const struct lsk_stage_desc lsk_ip4_forward_stage;
extern const struct lsk_stage_desc lsk_icmp4_input_stage;
extern const struct lsk_stage_desc lsk_icmp_node;
extern const struct lsk_stage_desc lsk_ip4_output_stage;

void lsk_ip4_input(struct lsk_worker *w, struct lsk_list *l);
/* ip4_filter leaves the packets it passes in l, compacted in place.
 * Ownership: takes the mbufs it drops; the rest stay in l. */
void lsk_ip4_filter(struct lsk_worker *w, struct lsk_list *l);
/* The fast path's filter (ip4/fwd_fast.c): pkts[0, n), single datagrams
 * checked as ip4_input checks them, with their destinations dst (one:
 * all of them dst[0]), classified and dropped as ip4_filter does; those
 * kept close up in pkts and dst. Returns how many it kept.
 * Ownership: takes the mbufs it drops. */
uint32_t lsk_ip4_filter_fast(struct lsk_worker *w, struct rte_mbuf **pkts,
			     uint32_t *dst, uint32_t n, bool one);
/* ip4_route leaves the packets to forward in l, compacted in place;
 * locals go to local.
 * Ownership: takes the mbufs it drops; the rest stay in l or pass to
 * local. */
void lsk_ip4_route(struct lsk_worker *w, struct lsk_list *l,
		   struct lsk_list *local);
/* ip4_local hands UDP on in udp, ICMP in icmp, answers the rest; l is
 * left empty.
 * Ownership: takes l's mbufs; those it hands on pass to udp and icmp. */
void lsk_ip4_local(struct lsk_worker *w, struct lsk_list *l,
		   struct lsk_list *udp, struct lsk_list *icmp);
/* Answer echo requests, drop the rest; l is left empty.
 * Ownership: takes l's mbufs. */
void lsk_icmp4_input(struct lsk_worker *w, struct lsk_list *l);
/*
 * The ICMP types and codes listack sends (RFC 792, RFC 1191); echo
 * request and reply are DPDK's (RTE_IP_ICMP_ECHO_*, rte_icmp.h).
 */
#define LSK_ICMP_DEST_UNREACH 3
#define LSK_ICMP_TIME_EXCEEDED 11
/* codes of LSK_ICMP_DEST_UNREACH */
#define LSK_ICMP_NET_UNREACH 0
#define LSK_ICMP_HOST_UNREACH 1
#define LSK_ICMP_PROT_UNREACH 2
#define LSK_ICMP_PORT_UNREACH 3
#define LSK_ICMP_FRAG_NEEDED 4	/* carries the next hop's MTU */
#define LSK_ICMP_ADMIN_PROHIBITED 13	/* a prohibit route (Linux's) */
/* code of LSK_ICMP_TIME_EXCEEDED */
#define LSK_ICMP_EXC_TTL 0
#define LSK_ICMP_EXC_FRAGTIME 1	/* fragment reassembly time exceeded */
/* Queue an ICMP error about m on icmp_out (a new mbuf).
 * Ownership: m stays the caller's. */
void lsk_icmp4_error(struct lsk_worker *w, const struct rte_mbuf *m,
		     uint32_t meta, uint8_t type, uint8_t code, uint16_t mtu);
/* The same for every datagram of a list entry (a train's members too).
 * Ownership: m stays the caller's. */
void lsk_icmp4_error_entry(struct lsk_worker *w, struct rte_mbuf *m,
			   uint32_t meta, uint8_t type, uint8_t code,
			   uint16_t mtu);
/* Drop the list entry m (meta its meta word: a train counts as its
 * datagrams) for reason r of a stage's table (core/drop.h): counted, r's
 * ICMP error raised (mtu: the next hop's, which only fragmentation
 * needed carries), freed.
 * Ownership: takes m and its members. */
void lsk_ip4_drop(struct lsk_worker *w, struct rte_mbuf *m, uint32_t meta,
		  const struct lsk_drop *r, uint16_t mtu);
/* m, over mtu with DF clear, is sent as fragments by stage: its trace
 * ends (ip4_frag.c). Ownership: m stays the caller's. */
void lsk_ip4_frag_trace(struct lsk_worker *w, const struct rte_mbuf *m,
			uint16_t mtu, const struct lsk_stage_desc *stage);
/* ip4_local's drop reasons (ip4_local.c), reassembly's among them. */
enum lsk_ip4_local_drop {
	LSK_LOCAL_DROP_PROTO,
	LSK_LOCAL_DROP_REASM_FAILS,
	LSK_LOCAL_DROP_REASM_TIMEOUT,
	LSK_LOCAL_DROP_REASM_OVERLAPS,
	LSK_LOCAL_DROP_REASM_DUPLICATES,
	LSK_LOCAL_DROP_COUNT,
};
/* (a pointer: struct lsk_drop is complete in core/drop.h only) */
extern const struct lsk_drop *const lsk_ip4_local_drops;
/* Count an ICMP message by type once it is on its way. */
void lsk_icmp4_count_out(struct lsk_worker *w, uint8_t type);
/* Route and send what icmp_out holds (icmp4.c).
 * Ownership: takes icmp_out's mbufs. */
void lsk_icmp4_output(struct lsk_worker *w);
/* What lsk_ip4_output_burst sends: ICMP (false), datagrams
 * applications queued (true: sources and checksums filled in), or what
 * the kernel sent on a TAP (host/host.h: whole, counted as forwarded
 * traffic would be, not as our ICMP). */
enum lsk_out_kind { LSK_OUT_ICMP = 0, LSK_OUT_UDP = 1, LSK_OUT_HOST = 2 };
/* Route and send n datagrams we made (ip4_output.c).
 * Ownership: takes pkts. */
void lsk_ip4_output_burst(struct lsk_worker *w, struct rte_mbuf **pkts,
			  unsigned int n, int kind);
/* Route and send what applications queued on the stack's output ring.
 * Ownership: takes the mbufs it dequeues. */
void lsk_ip4_output(struct lsk_worker *w);
/* Send each packet to its next hop (or ARP); l is left empty.
 * Ownership: takes l's mbufs. */
void lsk_ip4_forward(struct lsk_worker *w, struct lsk_list *l);
/* The stage fwd_fast (fwd_fast.c): forward the packets of pkts that
 * eth_input, ip4_input, ip4_route and ip4_forward would forward with no
 * other decision; the others go to rest (room for n), in their order,
 * for the stages. Returns how many went to rest; when that is n (none
 * forwarded), they are pkts as they came, and rest may not hold them.
 * Ownership: takes the packets it forwards; those in rest stay the
 * caller's. */
uint16_t lsk_fwd_fast(struct lsk_worker *w, struct rte_mbuf **pkts,
		      uint16_t n, struct rte_mbuf **rest);
/* Is fwd_fast to run on this burst? Not while it steps aside (each
 * burst asked counts one of the bursts it steps aside for). */
static inline bool
lsk_fwd_fast_due(struct lsk_ip4_worker *ip4w)
{
	if (likely(ip4w->fast_skip == 0))
		return true;
	ip4w->fast_skip--;
	return false;
}

/* Fragments (ip4_frag.c) and reassembly (ip4_reasm.c). */
int lsk_reasm_worker_init(struct lsk_worker *w);
void lsk_reasm_worker_fini(struct lsk_worker *w);
/* Fragment m (its TTL already decreased) for nh and send the fragments
 * to `to` (ARP first when nh has no MAC).
 * Ownership: takes m. */
void lsk_ip4_fragment(struct lsk_worker *w, struct rte_mbuf *m,
		      const struct lsk_nexthop *nh, uint32_t to);
/* Put the fragment m (meta its word) in the reassembly table; returns
 * the whole datagram (in segments) when its last piece arrived, else
 * NULL. Ownership: takes m; returns an mbuf the caller owns. */
struct rte_mbuf *lsk_ip4_reassemble(struct lsk_worker *w, struct rte_mbuf *m,
				    uint32_t meta);
/* Drop the datagrams whose time is up (ICMP time exceeded owed). */
void lsk_reasm_expire(struct lsk_worker *w);
/* Fragments the worker holds. */
unsigned int lsk_reasm_held(const struct lsk_worker *w);
/* The time a datagram has for its pieces, from the first (tests). */
void lsk_reasm_timeout_set(struct lsk_worker *w, uint64_t tsc);
/* Drop what waits for fragments (tests, fuzzers): every mbuf back. */
int lsk_frag_drop_incomplete(struct lsk_worker *w);

/* The per-worker route cache (route_cache.c). How a lookup was
 * answered, per destination (seen): */
#define LSK_RC_HIT 0
#define LSK_RC_MISS 1
#define LSK_RC_BYPASSED 2
/* Next hops of dst[0, n) (seen: NULL, or how each was answered). */
void lsk_route_cache_lookup(struct lsk_worker *w, uint32_t *dst,
			    uint64_t *nh, uint32_t n, uint8_t *seen);
/* dst's next hop to nh[0], one lookup counted as n (a burst to one
 * destination: the fast path's, ip4/fwd_fast.c). */
void lsk_route_cache_lookup_same(struct lsk_worker *w, uint32_t dst,
				 uint64_t *nh, uint32_t n, uint8_t *seen);
/* A packet looked up (answered as seen) then handed on to the stages:
 * its lookup uncounted, a miss's entry forgotten. */
void lsk_route_cache_unsee(struct lsk_worker *w, uint32_t dst, uint8_t seen);
/* A cache of `entries` (> 0), or NULL without memory. */
struct lsk_route_cache *lsk_route_cache_create(uint32_t entries, int socket);
/* What the cache will answer for dst in this burst's lookup: 1 hit,
 * 0 miss, -1 bypassed or off (a trace asks before it; core/trace.c). */
int lsk_route_cache_probe(const struct lsk_worker *w, uint32_t dst);
void lsk_route_cache_free(struct lsk_route_cache *c);

/* ICMP destination unreachable (host) about each packet of l (held for a
 * neighbour that never answered, l2/neigh_table.c); l is left empty.
 * Ownership: takes l's mbufs. */
void lsk_icmp4_unreach_host(struct lsk_worker *w, struct lsk_list *l);

#endif /* LSK_IP4_H */
