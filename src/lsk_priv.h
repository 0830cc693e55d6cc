/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the stages and the control path share: the stack's tables, the
 * per-worker state and the packet list. Nothing here is public.
 */
#ifndef LSK_PRIV_H
#define LSK_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_hash_crc.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_ip_frag.h>
#include <rte_rcu_qsbr.h>
#include <rte_spinlock.h>

#include "listack/listack.h"
#include "listack/udp.h"

struct rte_fib;
struct rte_hash;
struct rte_ring;

/*
 * A list is a bounded vector of mbufs plus one 32-bit word of per-packet
 * metadata kept beside it, so the stages never touch the mbuf's second
 * cache line to carry their decisions forward.
 */
struct lsk_list {
	uint32_t n;
	struct rte_mbuf *pkts[LSK_BURST_MAX];
	uint32_t meta[LSK_BURST_MAX];
};

/*
 * meta: bit 31 is set by eth_input for frames to a broadcast/multicast
 * MAC; bits 24-30 hold a train's member count minus one (udp4_gro); bit
 * 23 marks a train whose payloads were merged into its head (`gro merge`);
 * bits 0-22 the next hop index (ip4_route).
 */
#define LSK_META_L2_BCAST (1u << 31)
#define LSK_META_COUNT_SHIFT 24
#define LSK_META_COUNT_MASK (0x7fu << LSK_META_COUNT_SHIFT)
#define LSK_META_MERGED (1u << 23)
#define LSK_META_NH_MASK 0x007fffffu

/* Datagrams a list entry stands for: 1, or the members of a train. */
static inline uint32_t
lsk_meta_count(uint32_t meta)
{
	return 1 + ((meta & LSK_META_COUNT_MASK) >> LSK_META_COUNT_SHIFT);
}

/*
 * A train is a head mbuf and the member datagrams chained behind it
 * through a registered dynamic field (never through mbuf->next, which
 * means segments of one packet). Only trains have members.
 */
extern int lsk_train_next_offset;

static inline struct rte_mbuf **
lsk_train_next(struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, lsk_train_next_offset, struct rte_mbuf **);
}

int lsk_train_register(void);
/* Free a train's members (not its head), e.g. when the train is dropped. */
void lsk_train_free_members(struct rte_mbuf *head);
/* Free a list entry: the packet, or the whole train. */
static inline void
lsk_entry_free(struct rte_mbuf *m, uint32_t meta)
{
	if (unlikely(meta & LSK_META_COUNT_MASK))
		lsk_train_free_members(m);
	rte_pktmbuf_free(m);
}

static inline void
lsk_list_push(struct lsk_list *l, struct rte_mbuf *m, uint32_t meta)
{
	l->pkts[l->n] = m;
	l->meta[l->n] = meta;
	l->n++;
}

#define LSK_MAX_ADDRS 64

/* Next hops, the values stored in the FIB. */
enum lsk_nh_type {
	LSK_NH_NONE = 0,	/* no route */
	LSK_NH_LOCAL,		/* one of our addresses */
	LSK_NH_LOCAL_BCAST,	/* a subnet broadcast or 255.255.255.255 */
	LSK_NH_BLACKHOLE,
	LSK_NH_FORWARD,		/* out a port to a gateway or a host */
};

struct lsk_nexthop {
	uint8_t type;		/* enum lsk_nh_type */
	uint8_t resolved;	/* dst_mac is known */
	uint16_t port;
	uint16_t mtu;		/* IP MTU of the port */
	uint16_t pad;
	uint32_t gateway;	/* host order; the host itself for connected */
	/* the Ethernet header the forwarded frame gets: dst, src */
	struct rte_ether_addr dst_mac;
	struct rte_ether_addr src_mac;
};

/* Index 0 of every nexthop table means "no route". */
#define LSK_NH_IDX_NONE 0

/*
 * The forwarding table as the workers see it: replaced whole on every
 * change and reclaimed after an RCU grace period.
 */
struct lsk_fwd_table {
	struct rte_fib *fib;
	uint32_t generation;	/* new for every table built */
	uint32_t n_nexthops;
	struct lsk_nexthop *nexthops;
	/* each port's first address: the source of what we send out of it */
	uint32_t port_addr[LSK_MAX_IFACES];
	/* our addresses only */
	uint32_t n_own;
	uint32_t own_addrs[LSK_MAX_ADDRS];
	/* our addresses and subnet broadcasts, for the martian source test:
	 * a one-word Bloom filter first, the list only when it says maybe */
	uint64_t local_bloom;
	uint32_t n_local;
	uint32_t local_addrs[]; /* host order */
};

static inline uint64_t
lsk_local_bloom_bit(uint32_t addr)
{
	return UINT64_C(1) << ((addr * 0x9e3779b1u) >> 26);
}

/* The UDP endpoints as the workers see them, published like the FIB. */
struct lsk_udp_table {
	struct rte_hash *hash;	/* key: lsk_udp_key(addr, port) */
	uint32_t n;
};

static inline uint64_t
lsk_udp_key(uint32_t addr, uint16_t port)
{
	return (uint64_t)addr << 16 | port;
}

struct lsk_udp_ep {
	struct lsk_stack *stack;
	uint32_t addr;
	uint16_t port;
	unsigned int flags;
	struct rte_ring *ring;
	struct rte_mempool *pool;
	uint16_t next_ip_id;	/* updated atomically by senders */
	struct lsk_udp_ep *next_closed;	/* on the stack's closed list */
};

/* A `filter add` rule, in host order; depth 0 and 0-65535 match all. */
struct lsk_filter_rule {
	bool drop;
	uint8_t proto;		/* 0 = any */
	uint8_t src_depth, dst_depth;
	uint32_t src, dst;
	uint16_t sport_lo, sport_hi, dport_lo, dport_hi;
};

#define LSK_FILTER_MAX_RULES 65536

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

struct rte_acl_ctx;

struct lsk_filter_table {
	struct rte_acl_ctx *ctx;
	uint32_t n_rules;
	bool drop[];		/* per rule */
};

/* Neighbour states, as Linux's NUD_* */
enum lsk_neigh_state {
	LSK_NEIGH_INCOMPLETE = 1,
	LSK_NEIGH_REACHABLE,
	LSK_NEIGH_STALE,
	LSK_NEIGH_FAILED,
	LSK_NEIGH_STATIC,
};

/* packets an unresolved neighbour holds, as Linux's unres_qlen */
#define LSK_NEIGH_HOLD 3
#define LSK_NEIGH_MAX 4096
/* entries one pass of the full table's collector keeps for later */
#define LSK_NEIGH_GC_PICKS 32

struct lsk_neigh_entry {
	uint64_t word;		/* MAC in bytes 0-5, state in bits 56-63 */
	uint32_t addr;		/* host order; changes under both locks */
	uint16_t port;
	uint8_t probes;
	uint8_t n_held;
	uint64_t confirmed;	/* TSC of the last confirmation */
	uint64_t next_probe;	/* TSC */
	uint64_t updated;	/* TSC of creation or the last ARP from it */
	rte_spinlock_t lock;	/* hold queue and probes */
	struct rte_mbuf *held[LSK_NEIGH_HOLD];
};

struct lsk_neigh_table {
	struct rte_hash *hash;	/* address -> entry index */
	rte_spinlock_t create_lock;	/* creation, eviction, static */
	uint32_t n, cap;
	uint32_t hand;		/* where the collector looks first */
	/* the best of its last pass, best first, and their `updated` then */
	uint32_t n_picks, next_pick;
	uint64_t picks_tsc;
	uint32_t picks[LSK_NEIGH_GC_PICKS];
	uint64_t pick_updated[LSK_NEIGH_GC_PICKS];
	uint32_t hold_max;	/* lsk_neigh_set_hold_max; 0: automatic */
	uint32_t held_mbufs;	/* held by all entries; atomic */
	uint64_t next_timer;
	struct lsk_neigh_entry e[];
};

/* A port, or a VLAN sub-interface of its parent port. */
struct lsk_port_conf {
	struct rte_ether_addr mac;
	uint16_t mtu;
	uint16_t parent;	/* the port itself when untagged */
	uint16_t vlan;		/* 0: untagged */
};

struct lsk_ifaddr {
	uint32_t addr;
	uint8_t depth;
	uint16_t port;
};

struct lsk_route {
	uint32_t prefix;
	uint8_t depth;
	uint8_t type;		/* enum lsk_route_type */
	uint32_t gateway;
};

struct lsk_neigh {
	uint32_t addr;
	struct rte_ether_addr mac;
};

struct lsk_stack {
	char name[32];
	unsigned int n_ports;
	int socket_id;
	enum lsk_mode mode;
	uint32_t max_routes;

	unsigned int n_ifaces;	/* ports, then VLAN sub-interfaces */
	struct lsk_port_conf ports[LSK_MAX_IFACES];

	/* the configuration as given (the RIB); the FIB is built from it */
	unsigned int n_addrs;
	struct lsk_ifaddr addrs[LSK_MAX_ADDRS];
	unsigned int n_routes, routes_cap;
	struct lsk_route *routes;
	struct rte_hash *route_index;	/* which (prefix, depth) are routed */
	unsigned int n_neighs, neighs_cap;
	struct lsk_neigh *neighs;

	/* fraglist GRO: off when gro_flows is 0; gro_merge copies payloads
	 * into the head instead (the baseline fraglist is measured against) */
	uint32_t gro_flows, gro_segs;
	bool gro_merge;
	/* route cache entries per worker, 0 = off */
	uint32_t rcache_entries;

	/* filter rules as given, and the classifier workers read */
	uint32_t n_filters, filters_cap;
	struct lsk_filter_rule *filters;
	uint32_t filter_generation;
	struct lsk_filter_table *filter;

	bool in_batch;
	struct lsk_rib_copy *batch_rib;	/* the RIB at lsk_config_begin */
	uint32_t fib_generation;	/* names each FIB uniquely */
	struct lsk_fwd_table *fwd;	/* read by workers */

	struct lsk_neigh_table *neigh;	/* learnt and static neighbours */
	/* what the control path itself counted (added to every read) */
	struct lsk_stats ctl_stats;

	/* UDP endpoints: the control list and the table workers read */
	unsigned int n_eps, eps_cap;
	struct lsk_udp_ep **eps;
	uint32_t udp_generation;
	struct lsk_udp_table *udp;
	/* closed while the published table still names them: freed once a
	 * table without them is */
	struct lsk_udp_ep *closed;
	/* datagrams applications send, drained by worker 0 */
	struct rte_ring *out_ring;
	struct rte_mempool *send_pool;
	struct rte_mempool *indirect_pool;	/* fragments' data references */

	unsigned int n_services, services_cap;
	struct lsk_service **services;

	struct rte_rcu_qsbr *qsbr;
	struct lsk_worker *workers[LSK_MAX_WORKERS];
};

/* Endpoints a burst may fill at once before one is delivered early. */
#define LSK_UDP_PENDING_EPS 8

/*
 * One datagram in an endpoint's ring. The worker, whose cache holds the
 * headers it just checked, writes what a receive reports next to the
 * mbuf pointer, so the application's core reads the ring and neither the
 * mbuf nor the frame. The destination port is the endpoint's.
 */
struct lsk_udp_slot {
	struct rte_mbuf *mbuf;
	void *payload;
	uint32_t src_addr, dst_addr;	/* host order */
	uint16_t src_port, len, in_port, gso_size;
};

/* Describe a checked datagram; gro: the endpoint takes coalesced trains */
void lsk_udp_slot_fill(struct lsk_udp_slot *slot, struct rte_mbuf *m,
		       bool gro);

/* udp4_input's per-endpoint sublists of one burst */
struct lsk_udp_pending {
	struct lsk_udp_ep *ep;
	uint32_t n;
	struct lsk_udp_slot slots[LSK_BURST_MAX];
};

struct lsk_udp_deliveries {
	unsigned int n;
	struct lsk_udp_pending ep[LSK_UDP_PENDING_EPS];
};

/* udp4_gro's flow table, emptied at the end of every burst */
#define LSK_GRO_SLOTS (2 * LSK_BURST_MAX)
#define LSK_GRO_SEEN (4 * LSK_BURST_MAX)

struct lsk_gro_slot {
	bool used;		/* the flow was seen in this burst */
	bool head_checked;	/* the head's checksums were verified */
	uint16_t in_port;
	uint32_t src, dst, ports;	/* as on the wire */
	struct rte_mbuf *head;	/* the open train, NULL when none */
	struct rte_mbuf *tail;
	uint32_t count;		/* datagrams in the train */
	uint32_t bytes;		/* as Linux counts: 28 + the payloads */
	uint16_t ulen;		/* the train's UDP length */
	uint32_t list_idx;	/* where the head sits in the list */
	uint32_t train_id;
};

/* open trains in the order they opened, for closing the oldest */
struct lsk_gro_age {
	uint16_t slot;
	uint32_t train_id;
};

struct lsk_gro_table {
	uint32_t slot_mask;	/* slots in use this burst, minus one */
	bool track_age;		/* more datagrams than open trains allowed */
	uint32_t n_open;
	uint32_t n_touched;
	uint32_t n_age, age_first;
	uint32_t next_train_id;
	uint16_t touched[LSK_BURST_MAX];
	struct lsk_gro_age age[LSK_BURST_MAX];
	struct lsk_gro_slot slots[LSK_GRO_SLOTS];
	bool no_runs;		/* lsk_gro_rx_runs found none last time */
	uint32_t rx_probe;	/* bursts since, for lsk_gro_rx_runs tries */
	/* the repeat check (lsk_gro_note): list number << 32 | flow hash */
	uint32_t seen_list;
	uint32_t noted;		/* entries of the list noted, from its first */
	bool repeat;		/* two of them hashed alike */
	uint64_t seen[LSK_GRO_SEEN];
};

/*
 * The first stage to read a received burst (eth_input, or GRO's run pass
 * before it) finds its lines with the core or device that wrote them.
 * It asks for the mbufs LSK_RX_AHEAD packets ahead and for the frames
 * (to be read, then written on forwarding) half as far, so the burst is
 * not read one miss at a time even when its mbufs lie in no order the
 * CPU's own prefetcher can follow (a NIC refilling from a mempool cache,
 * mbufs reordered by trains on their previous trip).
 */
#define LSK_RX_AHEAD 8

static inline void
lsk_rx_prefetch_start(struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i;

	for (i = 0; i < n && i < LSK_RX_AHEAD; i++)
		rte_prefetch0(pkts[i]);
	for (i = 0; i < n && i < LSK_RX_AHEAD / 2; i++)
		__builtin_prefetch(rte_pktmbuf_mtod(pkts[i], void *), 1, 3);
}

/* Before reading packet i. */
static inline void
lsk_rx_prefetch(struct rte_mbuf **pkts, uint16_t i, uint16_t n)
{
	if (i + LSK_RX_AHEAD < n)
		rte_prefetch0(pkts[i + LSK_RX_AHEAD]);
	if (i + LSK_RX_AHEAD / 2 < n)
		__builtin_prefetch(rte_pktmbuf_mtod(pkts[i + LSK_RX_AHEAD / 2],
						    void *), 1, 3);
}

/* Where the flow key sits in an IHL-5 frame: addresses, then ports. */
#define LSK_GRO_KEY_OFF (RTE_ETHER_HDR_LEN + 12)
#define LSK_GRO_KEY_END (LSK_GRO_KEY_OFF + 12)

/*
 * The repeat check's hash: the NIC's RSS hash when it gave one (as Linux
 * picks the GRO bucket by skb->hash), else a CRC of the addresses and
 * ports at their IHL-5 places. Either is equal for two datagrams that
 * can join one train; other packets of a flow may hash otherwise, which
 * does not matter: only two datagrams that can join make a train.
 */
static inline uint32_t
lsk_gro_repeat_hash(const struct rte_mbuf *m)
{
	const uint8_t *key = rte_pktmbuf_mtod_offset(m, const uint8_t *,
						     LSK_GRO_KEY_OFF);
	uint64_t addrs;
	uint32_t ports;

	if (m->ol_flags & RTE_MBUF_F_RX_RSS_HASH)
		return m->hash.rss;
	memcpy(&addrs, key, 8);
	memcpy(&ports, key + 8, 4);
	return rte_hash_crc_8byte(addrs, ports);
}

/* A new list for the repeat check; returns its number. */
static inline uint32_t
lsk_gro_note_start(struct lsk_gro_table *t)
{
	t->noted = 0;
	t->repeat = false;
	if (unlikely(++t->seen_list == 0)) {
		memset(t->seen, 0, sizeof(t->seen));
		t->seen_list = 1;
	}
	return t->seen_list;
}

/*
 * Note an entry of the list. Only if two entries of a list hash alike
 * can a train form, so a list of many flows (a scan, a flood of new
 * connections) skips GRO's table work. eth_input notes each IPv4 frame
 * while its lines are at hand; udp4_gro notes a list no one noted. The
 * caller sets t->noted once at the end (a count kept in memory would
 * chain every packet to the one before).
 */
static inline void
lsk_gro_note(struct lsk_gro_table *t, const struct rte_mbuf *m,
	     uint32_t list)
{
	if (likely(m->data_len >= LSK_GRO_KEY_END)) {
		uint32_t h = lsk_gro_repeat_hash(m), i;
		uint64_t want = (uint64_t)list << 32 | h;

		for (i = h & (LSK_GRO_SEEN - 1);; i = (i + 1) & (LSK_GRO_SEEN - 1)) {
			uint64_t e = t->seen[i];

			if ((uint32_t)(e >> 32) != list) {
				t->seen[i] = want;
				return;
			}
			if (e == want) {
				t->repeat = true;
				return;
			}
		}
	}
}

struct lsk_txbuf {
	uint16_t queue;
	uint16_t n;
	struct rte_mbuf *pkts[2 * LSK_BURST_MAX];
};

struct lsk_worker {
	struct lsk_stack *stack;
	unsigned int id;
	bool online;		/* in the RCU quiescent-state reporting */
	lsk_tx_fn tx_fn;
	void *tx_arg;
	/* the stack's table as loaded at the start of the current burst */
	const struct lsk_fwd_table *fwd;

	const struct lsk_udp_table *udp;
	const struct lsk_filter_table *filter;

	/* the burst with runs of one flow chained (lsk_gro_rx_runs): each
	 * entry and how many datagrams follow it in its train */
	struct rte_mbuf *rx_heads[LSK_BURST_MAX];
	uint8_t rx_members[LSK_BURST_MAX];

	/* lists between stages, reused every burst */
	struct lsk_list ip4;
	struct lsk_list arp;
	struct lsk_list local;
	struct lsk_list icmp4;		/* ICMP to us */
	struct lsk_list icmp_out;	/* ICMP we send */
	struct lsk_list out_local;	/* our sends to ourselves */
	uint64_t icmp_tokens, icmp_tokens_tsc;
	struct rte_ip_frag_tbl *reasm;
	struct rte_ip_frag_death_row death_row;
	uint16_t icmp_ip_id;
	struct lsk_list udp4;
	struct lsk_udp_deliveries udp_pending;
	struct lsk_gro_table gro;
	struct lsk_route_cache *rcache;
	uint32_t rcache_entries;	/* the setting rcache was made for */

	struct lsk_txbuf tx[LSK_MAX_PORTS];
	struct lsk_stats stats;		/* stages[].cycles: timed runs only */
	uint64_t stage_timed[LSK_STAGE_COUNT];	/* packets of timed runs */
} __rte_cache_aligned;

/*
 * Stage counters: calls and packets of every run, cycles of one run in
 * LSK_STAGE_SAMPLE (and of the first), scaled up when read. Reading the
 * TSC twice per stage per packet would cost single mode more than its
 * stages do and make every list/single ratio flatter than it is.
 */
#define LSK_STAGE_SAMPLE 16

static inline uint64_t
lsk_stage_begin(const struct lsk_worker *w, enum lsk_stage_id id)
{
	if (w->stats.stages[id].calls % LSK_STAGE_SAMPLE != 0)
		return 0;
	return rte_rdtsc();
}

static inline void
lsk_stage_end(struct lsk_worker *w, enum lsk_stage_id id, uint32_t n,
	      uint64_t start)
{
	struct lsk_stage_stats *s = &w->stats.stages[id];

	s->calls++;
	s->packets += n;
	if (start != 0) {
		s->cycles += rte_rdtsc() - start;
		w->stage_timed[id] += n;
	}
}

/* Work of a stage done ahead of its call in the same burst: its cycles
 * count with the call that follows (sampled alike), no call of its own. */
static inline void
lsk_stage_ahead(struct lsk_worker *w, enum lsk_stage_id id, uint64_t start)
{
	if (start != 0)
		w->stats.stages[id].cycles += rte_rdtsc() - start;
}

/* The stages, in pipeline order. Each consumes its input list whole. */
/*
 * Returns how many of pkts it took: it stops at ARP following IPv4.
 * members: NULL, or for each of pkts how many datagrams are chained
 * behind it (lsk_gro_rx_runs); a train is classified, counted and
 * dropped as the datagrams it holds.
 */
uint16_t lsk_eth_input(struct lsk_worker *w, struct rte_mbuf **pkts,
		       uint16_t n, const uint8_t *members,
		       struct lsk_list *ip4, struct lsk_list *arp);
/*
 * Before eth_input: datagrams that continue the frame before them back to
 * back (its first 48 bytes but for IP ID and checksums, checksums the
 * PMD vouched for) are chained behind it into a train, so eth_input and
 * GRO see the run once. Fills w->rx_heads and w->rx_members; returns
 * their number. udp4_gro takes these trains as it would have made them.
 */
uint16_t lsk_gro_rx_runs(struct lsk_worker *w, struct rte_mbuf **pkts,
			 uint16_t n);
void lsk_udp4_gro(struct lsk_worker *w, struct lsk_list *l);
void lsk_ip4_input(struct lsk_worker *w, struct lsk_list *l);
void lsk_ip4_filter(struct lsk_worker *w, struct lsk_list *l);
/* ip4_route leaves the packets to forward in l, locals go to local */
void lsk_ip4_route(struct lsk_worker *w, struct lsk_list *l,
		   struct lsk_list *local);
/* ip4_local hands UDP on in udp, ICMP in icmp, answers the rest */
void lsk_ip4_local(struct lsk_worker *w, struct lsk_list *l,
		   struct lsk_list *udp, struct lsk_list *icmp);
void lsk_icmp4_input(struct lsk_worker *w, struct lsk_list *l);
/* Queue an ICMP error about m (which stays the caller's) on icmp_out. */
void lsk_icmp4_error(struct lsk_worker *w, const struct rte_mbuf *m,
		     uint32_t meta, uint8_t type, uint8_t code, uint16_t mtu);
/* The same for every datagram of a list entry (a train's members too). */
void lsk_icmp4_error_entry(struct lsk_worker *w, struct rte_mbuf *m,
			   uint32_t meta, uint8_t type, uint8_t code,
			   uint16_t mtu);
/* Count an ICMP message by type once it is on its way. */
void lsk_icmp4_count_out(struct lsk_worker *w, uint8_t type);
/* Route and send what icmp_out holds. */
void lsk_icmp4_output(struct lsk_worker *w);
void lsk_udp4_input(struct lsk_worker *w, struct lsk_list *l);
/* Route and send what applications queued on the stack's output ring. */
void lsk_ip4_output(struct lsk_worker *w);
void lsk_ip4_forward(struct lsk_worker *w, struct lsk_list *l);

/*
 * TTL-1 and the RFC 1624 update of the checksum, equal bit for bit to a
 * full recompute (0xFEFF at TTL 195 becomes 0x0000, never 0xFFFF).
 */
static inline void
lsk_ip4_decrease_ttl(struct rte_ipv4_hdr *ip)
{
	uint32_t check = ip->hdr_checksum;

	check += RTE_BE16(0x0100);
	ip->hdr_checksum = (uint16_t)(check + (check >= 0xffff));
	ip->time_to_live--;
}

/* The IP header follows a 14-byte Ethernet header: 2-byte aligned only. */
typedef uint32_t __attribute__((aligned(2), may_alias)) lsk_u32_a2;

/* One's complement sum of the 20-byte base header; 0xffff when valid. */
static inline uint16_t
lsk_ip4_hdr_sum20(const void *hdr)
{
	const lsk_u32_a2 *w = hdr;
	uint64_t sum = (uint64_t)w[0] + w[1] + w[2] + w[3] + w[4];

	sum = (sum & 0xffffffff) + (sum >> 32);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* Both UDP ports as one word, as on the wire. */
static inline uint32_t
lsk_udp_ports(const void *udp)
{
	return *(const lsk_u32_a2 *)udp;
}

/* The UDP checksum over the pseudo-header and ulen bytes is valid. */
static inline bool
lsk_udp4_csum_valid(const struct rte_ipv4_hdr *ip, const void *udp,
		    uint16_t ulen)
{
	uint32_t sum = __rte_raw_cksum(&ip->src_addr, 8, 0);

	sum += rte_cpu_to_be_16(IPPROTO_UDP) + rte_cpu_to_be_16(ulen);
	sum = __rte_raw_cksum(udp, ulen, sum);
	return __rte_raw_cksum_reduce(sum) == 0xffff;
}

/* Cut m to frame_len bytes, segments and all. */
void lsk_mbuf_trim_to(struct rte_mbuf *m, uint32_t frame_len);
/* The folded one's complement sum of len bytes of m from off, in any
 * segments; -1 when m holds fewer. */
int lsk_mbuf_cksum(const struct rte_mbuf *m, uint32_t off, uint32_t len,
		   uint16_t *cksum);

/* Fragments (ip4_frag.c). */
int lsk_frag_worker_init(struct lsk_worker *w);
void lsk_frag_worker_fini(struct lsk_worker *w);
void lsk_ip4_fragment(struct lsk_worker *w, struct rte_mbuf *m,
		      const struct lsk_nexthop *nh, uint32_t to);
struct rte_mbuf *lsk_ip4_reassemble(struct lsk_worker *w, struct rte_mbuf *m);
void lsk_frag_free_death_row(struct lsk_worker *w);
/* Drop what waits for fragments (tests, fuzzers): every mbuf back. */
int lsk_frag_drop_incomplete(struct lsk_worker *w);
/* Give a train's members the head's headers; returns the first member
 * (chained through the train link), the head left alone. */
struct rte_mbuf *lsk_gso_unchain(struct rte_mbuf *head);

/*
 * Cut a merged train back into its datagrams (gso.c): each gets the
 * head's headers (as rewritten), its own length, ID and checksums.
 * Returns how many are in out (at most 64), the head consumed.
 */
unsigned int lsk_gso_resegment(struct lsk_worker *w, struct rte_mbuf *head,
			       uint32_t meta, struct rte_mbuf **out);
/* Datagram k of a merged train in a fresh mbuf, the head left as it is;
 * NULL when there is none, or no mbuf or room for it (gso.c). */
struct rte_mbuf *lsk_gso_rebuild(const struct rte_mbuf *head, unsigned int k);

/* Unchain a train to TX, members rewritten like the head (gso.c). */
void lsk_gso_send(struct lsk_worker *w, struct rte_mbuf *head, uint16_t port);
/* The same towards a neighbour ARP has yet to find (or confirm). */
void lsk_gso_resolve(struct lsk_worker *w, struct rte_mbuf *head,
		     uint32_t addr, uint16_t port);

/* TX buffering: queue one packet for a port; flush sends what is held. */
void lsk_tx_flush_port(struct lsk_worker *w, uint16_t port);
/* The sub-interface for (port, vlan), or -1. */
int lsk_vlan_lookup(const struct lsk_stack *s, uint16_t port, uint16_t vlan);
/* Tag m for its VLAN sub-interface; returns the port it leaves by, or
 * UINT16_MAX when m had to be dropped. */
uint16_t lsk_vlan_tag(struct lsk_worker *w, uint16_t iface, struct rte_mbuf *m);

/* Queue m to leave by iface (a port, or a VLAN on one). */
static inline void
lsk_tx_enqueue(struct lsk_worker *w, uint16_t iface, struct rte_mbuf *m)
{
	uint16_t port = likely(iface < w->stack->n_ports) ? iface :
			lsk_vlan_tag(w, iface, m);
	struct lsk_txbuf *b;

	if (unlikely(port == UINT16_MAX))
		return;		/* no room for the tag: counted, freed */
	b = &w->tx[port];

	b->pkts[b->n++] = m;
	if (unlikely(b->n == RTE_DIM(b->pkts)))
		lsk_tx_flush_port(w, port);
}

enum lsk_service_kind {
	LSK_SERVICE_ECHO,
	LSK_SERVICE_DISCARD,
	LSK_SERVICE_PCAP,
};
struct lsk_service;
int lsk_service_add(struct lsk_stack *s, enum lsk_service_kind kind,
		    uint32_t addr, uint16_t port, const char *path,
		    uint32_t ring_size);
void lsk_services_free(struct lsk_stack *s);
/* A subnet broadcast of one of our addresses, or 255.255.255.255. */
bool lsk_stack_is_broadcast(const struct lsk_stack *s, uint32_t addr);
/* One of our addresses (as configured, batch or not). */
bool lsk_stack_is_own(const struct lsk_stack *s, uint32_t addr);
/* The address of ours whose subnet broadcast addr is, or NULL. */
const struct lsk_ifaddr *lsk_stack_broadcast_of(const struct lsk_stack *s,
						uint32_t addr);

/* The per-worker route cache (route_cache.c). */
struct lsk_route_cache;
void lsk_route_cache_lookup(struct lsk_worker *w, uint32_t *dst,
			    uint64_t *nh, uint32_t n);
void lsk_route_cache_sync(struct lsk_worker *w);
void lsk_route_cache_free(struct lsk_route_cache *c);

/* Neighbours (neigh_table.c). */
int lsk_neigh_table_create(struct lsk_stack *s, uint32_t cap);
void lsk_neigh_table_free(struct lsk_neigh_table *t);
struct lsk_neigh_entry *lsk_neigh_lookup(const struct lsk_neigh_table *t,
					 uint32_t addr);
int lsk_neigh_set_static(struct lsk_stack *s, uint32_t addr, uint16_t port,
			 const struct rte_ether_addr *mac);
/* Send m to addr out of port: now (true), or once ARP answers (false:
 * held, or dropped and counted). Takes m either way. */
bool lsk_neigh_resolve(struct lsk_worker *w, uint32_t addr, uint16_t port,
		       struct rte_mbuf *m);
void lsk_neigh_learn(struct lsk_worker *w, uint32_t addr, uint16_t port,
		     const struct rte_ether_addr *mac, bool confirmed,
		     bool create);
void lsk_neigh_timer(struct lsk_worker *w);
void lsk_arp_input(struct lsk_worker *w, struct lsk_list *l);
/* ICMP destination unreachable (host) about m, which it takes. */
void lsk_icmp4_unreach_host(struct lsk_worker *w, struct rte_mbuf *m);

/* Tables (control path). */
int lsk_filter_table_build(struct lsk_stack *s, struct lsk_filter_table **out);
void lsk_filter_table_free(struct lsk_filter_table *t);
int lsk_filter_add(struct lsk_stack *s, const struct lsk_filter_rule *rule);
int lsk_filter_flush(struct lsk_stack *s);
int lsk_filter_commit(struct lsk_stack *s);
int lsk_udp_table_build(struct lsk_stack *s, struct lsk_udp_table **out);
void lsk_udp_table_free(struct lsk_udp_table *t);
void lsk_udp_close_all(struct lsk_stack *s);
int lsk_fwd_table_build(struct lsk_stack *s, struct lsk_fwd_table **out);
void lsk_fwd_table_free(struct lsk_fwd_table *t);
bool lsk_addr_is_local_slow(const struct lsk_fwd_table *t, uint32_t addr);

/* One of our addresses or subnet broadcasts. */
static inline bool
lsk_addr_is_local(const struct lsk_fwd_table *t, uint32_t addr)
{
	if (likely(!(t->local_bloom & lsk_local_bloom_bit(addr))))
		return false;
	return lsk_addr_is_local_slow(t, addr);
}
bool lsk_addr_is_ours(const struct lsk_fwd_table *t, uint32_t addr);
const struct lsk_ifaddr *lsk_connected_lookup(const struct lsk_stack *s,
					      uint32_t addr);

/* The MIB counters of struct lsk_stats, for the JSON and telemetry. */
struct lsk_counter_desc {
	const char *section;	/* "ip", "udp", ... */
	const char *name;	/* "InReceives", ... */
	size_t offset;		/* in struct lsk_stats */
};
const struct lsk_counter_desc *lsk_counters(unsigned int *n);
uint64_t lsk_counter_value(const struct lsk_stats *st,
			   const struct lsk_counter_desc *c);

/* Stop serving a stack that is going away. */
void lsk_telemetry_forget(const struct lsk_stack *stack);

static inline uint32_t
lsk_depth_mask(uint8_t depth)
{
	return depth == 0 ? 0 : ~UINT32_C(0) << (32 - depth);
}

#endif /* LSK_PRIV_H */
