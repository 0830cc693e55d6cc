/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What every unit test program shares: EAL start-up (once per process), an
 * mbuf pool, frame builders (Ethernet + IPv4 + UDP with correct checksums)
 * and the fixture (tests/integration/lsk.py has the same): a two-port
 * stack and a worker whose transmit hook captures what it sends, per port.
 *
 * Every fixture remembers how many mbufs were in use when it was made;
 * its teardown asserts the count is back there (no mbuf leaked).
 */
#ifndef UNIT_COMMON_H
#define UNIT_COMMON_H

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "listack/listack.h"
#include "core/list.h"
#include "core/worker.h"
#include "ip4/ip4.h"
#include "udp/udp.h"
#include "control/control.h"

/* RTE_IPV4 shifts an int: undefined for a first byte above 127. */
#define UNIT_IPV4(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | \
			       (uint32_t)(c) << 8 | (uint32_t)(d))

/* The fixture (addresses in host order). */
#define UNIT_P0 0
#define UNIT_P1 1
#define UNIT_P0_IP UNIT_IPV4(10, 0, 0, 254)
#define UNIT_P1_IP UNIT_IPV4(10, 0, 1, 254)
#define UNIT_A_IP UNIT_IPV4(10, 0, 0, 1)		/* peer A, on P0 */
#define UNIT_B_IP UNIT_IPV4(10, 0, 1, 1)		/* peer B, on P1 */
#define UNIT_FAR_IP UNIT_IPV4(10, 9, 0, 5)	/* in 10.9.0.0/16 via B */

extern const struct rte_ether_addr unit_p0_mac;	/* 02:00:00:00:00:fe */
extern const struct rte_ether_addr unit_p1_mac;	/* 02:00:00:00:01:fe */
extern const struct rte_ether_addr unit_a_mac;	/* 02:00:00:00:00:01 */
extern const struct rte_ether_addr unit_b_mac;	/* 02:00:00:00:01:01 */
extern const struct rte_ether_addr unit_bcast_mac;
extern const struct rte_ether_addr unit_allhosts_mac;	/* 01:00:5e:00:00:01 */

#define UNIT_ETH_LEN 14
#define UNIT_FRAME_MAX 2048

extern struct rte_mempool *unit_pool;

/* cmocka group setup/teardown: EAL (once per process) and the pool. */
int unit_group_setup(void **state);
int unit_group_teardown(void **state);
/* The same with DPDK telemetry on: its socket in the EAL runtime
 * directory (rte_eal_get_runtime_dir) of a file prefix of the process's
 * own. */
int unit_group_setup_telemetry(void **state);
unsigned int unit_pool_in_use(void);
/* A pool of 63 mbufs holding room bytes each after the headroom. */
struct rte_mempool *unit_small_pool(const char *name, uint16_t room);

/*
 * A UDP/IPv4 datagram in an Ethernet frame. unit_pkt_init gives the default
 * packet of the fixture: A (10.0.0.1:1000) on P0 to dst:2000, Ethernet to
 * P0's MAC, IHL 5, TOS 0, DF, TTL 64, 1000 bytes of payload, valid IP and
 * (non-zero) UDP checksums.
 */
struct unit_pkt {
	uint16_t port;			/* ingress port (mbuf->port) */
	struct rte_ether_addr dst_mac, src_mac;
	uint8_t tos, ttl, proto;
	uint16_t id;
	bool df;
	uint32_t src, dst;		/* host order */
	uint16_t sport, dport;
	uint16_t payload_len;
	uint8_t opt_len;		/* IP option bytes, a multiple of 4 */
	uint8_t opts[40];
	uint16_t trailer_len;		/* bytes after the datagram (padding) */
};

void unit_pkt_init(struct unit_pkt *p, uint32_t dst);
/* Write the frame into buf; returns its length. */
size_t unit_pkt_build(const struct unit_pkt *p, uint8_t *buf, size_t cap);
/*
 * An ICMP message instead of the UDP datagram: the IPv4 header as p says
 * (proto forced to 1), then type, code, a valid checksum, the 32-bit rest
 * of the header (ident << 16 | seq for echoes) and p->payload_len bytes
 * of data. Returns the frame length.
 */
size_t unit_icmp_build(const struct unit_pkt *p, uint8_t type, uint8_t code,
		       uint32_t rest, uint8_t *buf, size_t cap);
/* Put an 802.1Q tag of tci after the MACs of the frame at b (len bytes,
 * 4 more of room); returns the tagged frame's length. */
size_t unit_frame_tag(uint8_t *b, size_t len, uint16_t tci);
/* The VLAN ID of the frame in m (its first segment), or -1 untagged. */
int unit_frame_vid(const struct rte_mbuf *m);
/* The frame of p tagged so, in a fresh mbuf (one segment). */
struct rte_mbuf *unit_pkt_mbuf_tagged(const struct unit_pkt *p, uint16_t tci);
/* Build the frame in a fresh mbuf (one segment). */
struct rte_mbuf *unit_pkt_mbuf(const struct unit_pkt *p);
/* Copy bytes into a fresh mbuf; with first_len < len the frame is split in
 * two segments after first_len bytes. */
struct rte_mbuf *unit_mbuf_from_bytes(const void *buf, size_t len,
				      uint16_t port);
/* Big-endian fields of a frame being built or read. */
static inline void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void
put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static inline uint16_t
get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

/* One's complement sum of big-endian 16-bit words, not folded. */
static inline uint32_t
sum16(const uint8_t *p, size_t len, uint32_t sum)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

static inline uint16_t
fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/*
 * When set, mbufs made from bytes carry the checksum flags a NIC that
 * verifies IPv4 and UDP checksums would set (GOOD or BAD; none for what
 * it would not look at: fragments, zero UDP checksums, lengths that lie).
 */
extern bool unit_nic_csum;
struct rte_mbuf *unit_mbuf_chain_from_bytes(const void *buf, size_t len,
					    size_t first_len, uint16_t port);
/* The frame in mbufs of mp, each filled to room bytes (the pool's data
 * room, unit_small_pool), chained as a PMD receiving into them would. */
struct rte_mbuf *unit_mbuf_in_pool(struct rte_mempool *mp, const void *buf,
				   size_t len, uint16_t room, uint16_t port);
/* Copy bytes into a chain of n segments of seg_len[0..n-2] bytes, the
 * last holding the rest (at most UNIT_FRAME_MAX bytes a segment). */
struct rte_mbuf *unit_mbuf_segs_from_bytes(const void *buf, size_t len,
					   const size_t *seg_len,
					   unsigned int n, uint16_t port);

/*
 * The same, each segment's data ending exactly where its buffer does: a
 * malloc'd buffer of RTE_PKTMBUF_HEADROOM + the segment's bytes attached
 * to a unit_pool mbuf as an external buffer, so ASan sees a read past the
 * frame that a 2 KB pool buffer would hide, and a read after the mbuf is
 * freed. Freeing the mbuf frees the buffer and returns the mbuf to the
 * pool (the fixtures' leak check holds).
 */
struct rte_mbuf *unit_mbuf_exact(const void *buf, size_t len,
				 size_t first_len, uint16_t port);

/*
 * An ARP frame (Ethernet, IPv4, 42 bytes) arriving on port: op 1 request,
 * 2 reply; sender sha/sip, target tha/tip (tha NULL: zeros), Ethernet
 * from sha to dst_mac.
 */
struct rte_mbuf *unit_arp_mbuf(uint16_t port, uint16_t op,
			       const struct rte_ether_addr *dst_mac,
			       const struct rte_ether_addr *sha, uint32_t sip,
			       const struct rte_ether_addr *tha, uint32_t tip);

/* Internet checksum (RFC 1071) of an IPv4 header of IHL words, computed
 * with the checksum field as it is: 0 when the header is valid. */
uint16_t unit_ip4_hdr_sum(const uint8_t *ip);
/* Recompute the header checksum of the IPv4 header at ip. */
void unit_ip4_fix_cksum(uint8_t *ip);

/* The IPv4 header of a frame held in an mbuf (first segment). */
static inline struct rte_ipv4_hdr *
unit_ip4(struct rte_mbuf *m)
{
	return rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, UNIT_ETH_LEN);
}

/* Transmit hook state: what the worker sent, per port, in order. */
#define UNIT_TX_CAP 1024

struct unit_tx_capture {
	unsigned int n[LSK_MAX_PORTS];
	struct rte_mbuf *pkts[LSK_MAX_PORTS][UNIT_TX_CAP];
	uint16_t last_queue[LSK_MAX_PORTS];
	unsigned int calls;		/* times the hook was called */
	int accept;			/* most taken per call; < 0: all */
};

struct lsk_nd6_table;

struct unit_fixture {
	struct lsk_stack *stack;
	struct lsk_worker *worker;
	struct unit_tx_capture tx;
	unsigned int in_use_start;
	struct lsk_nd6_table *nd6_made;	/* unit_nd6's, freed with f */
};

/* The stack's IPv6 neighbour table (sh.nd6), made for f when the stack
 * has none; freed, with what it holds, when f goes. */
struct lsk_nd6_table *unit_nd6(struct unit_fixture *f);
/* The stack's IPv6 addresses past duplicate address detection, as a
 * second after start leaves them (its probes sent and dropped, the
 * counters zeroed): what a test of anything else starts from. */
void unit_dad_settle(struct unit_fixture *f);

/* The section 0 fixture in the given mode. NULL on failure. */
struct unit_fixture *unit_fixture_create(enum lsk_mode mode);
/* Destroy it and assert no mbuf leaked since it was created; release
 * says so instead of asserting. Both first drop what waits for ARP
 * (lsk_neigh_drop_held): held packets are the stack's until then. */
void unit_fixture_destroy(struct unit_fixture *f);
bool unit_fixture_release(struct unit_fixture *f);
/* cmocka per-test setup/teardown around the two functions above. */
int unit_setup_list(void **state);
int unit_setup_single(void **state);
int unit_teardown(void **state);

/*
 * Apply one control command (the config grammar) as a control thread
 * would, the worker off line meanwhile. unit_cmd_rc returns the
 * lsk_config_exec result; unit_cmd fails the test on an error.
 */
/* A stack of two ports and no workers, named prefix and a number of its
 * own (the control side alone: show config, reload, ...). */
struct lsk_stack *unit_bare_stack(const char *prefix);
int unit_cmd_rc(struct unit_fixture *f, const char *line);
void unit_cmd(struct unit_fixture *f, const char *line);

/*
 * A worker thread racing the control thread (the publication tests):
 * burst(arg, pkts) makes the next burst (at most UNIT_RACE_BURST mbufs)
 * and returns its size; the thread runs bursts through the worker until
 * unit_race_join is called and min_bursts are done, then goes off line.
 */
#define UNIT_RACE_BURST 64

struct unit_race {
	struct unit_fixture *f;
	uint16_t (*burst)(void *arg, struct rte_mbuf **pkts);
	void *arg;
	uint64_t min_bursts;
	int done;			/* __atomic: set by unit_race_join */
	uint64_t sent, bursts;		/* the thread's alone until joined */
	pthread_t thread;
};

/* Take the fixture's worker off line (its thread polls from now on) and
 * start the thread. */
void unit_race_start(struct unit_race *r);
/* Let the thread finish (after min_bursts at least) and join it. */
void unit_race_join(struct unit_race *r);

/* Let stage functions called directly see the stack's current tables
 * (forwarding, UDP endpoints, filter). */
void unit_worker_sync(struct unit_fixture *f);

/*
 * Bind and close UDP endpoints as a control thread would, the worker off
 * line meanwhile. unit_bind fails the test unless lsk_udp_bind succeeds;
 * unit_bind_rc returns its result.
 */
int unit_bind_rc(struct unit_fixture *f, uint32_t addr, uint16_t port,
		 const struct lsk_udp_bind_opts *opts,
		 struct lsk_udp_ep **ep);
struct lsk_udp_ep *unit_bind(struct unit_fixture *f, uint32_t addr,
			     uint16_t port,
			     const struct lsk_udp_bind_opts *opts);
void unit_close(struct unit_fixture *f, struct lsk_udp_ep *ep);

/* Take up to n datagrams from ep, free them, return how many. */
unsigned int unit_recv_free(struct lsk_udp_ep *ep, unsigned int n);

/* Push one burst through lsk_worker_input and flush the TX buffers. */
void unit_input(struct unit_fixture *f, struct rte_mbuf **pkts, uint16_t n);
/* Same for one mbuf, and for one packet built from p. */
void unit_input_one(struct unit_fixture *f, struct rte_mbuf *m);
void unit_input_pkt(struct unit_fixture *f, const struct unit_pkt *p);

/*
 * Captured frames on port that are UDP datagrams to dst (any destination
 * when dst is 0): what was forwarded there. Frames the stack makes itself
 * (ICMP errors, ARP) do not count.
 */
unsigned int unit_tx_udp_to(const struct unit_fixture *f, uint16_t port,
			    uint32_t dst);

/*
 * a and b sent the same datagrams on each port, in the same order, byte
 * for byte, and the same ICMP and ARP frames in any order, their IP IDs
 * and header checksums aside: the stack numbers its messages in the order
 * it makes them, stage by stage in a list, packet by packet alone.
 */
void unit_assert_same_frames(const struct unit_fixture *a,
			     const struct unit_fixture *b);
/* The same datagram counters (ip, udp, icmp, arp), and with ports the
 * ports' too: GRO and GSO must leave them as without. */
void unit_assert_same_counters(const struct unit_fixture *a,
			       const struct unit_fixture *b, bool ports);

/* Free everything the hook captured. */
void unit_tx_free(struct unit_fixture *f);

/* A TX hook for a worker of a test's own (lsk_worker_set_tx_fn): adds n
 * to the unsigned int at arg and frees the frames. */
uint16_t unit_tx_count_free(void *arg, uint16_t port, uint16_t queue,
			    struct rte_mbuf **pkts, uint16_t n);

/*
 * Frames the stack makes itself. An ICMP message is an IPv4 frame with
 * protocol 1; an ARP frame has ethertype 0x0806.
 */
bool unit_frame_is_icmp(const struct rte_mbuf *m);
bool unit_frame_is_arp(const struct rte_mbuf *m);
/* Captured ICMP messages on port of the given type and code (any type or
 * code when < 0), and the i-th of them (asserts it exists). */
unsigned int unit_tx_icmp(const struct unit_fixture *f, uint16_t port,
			  int type, int code);
struct rte_mbuf *unit_tx_icmp_nth(const struct unit_fixture *f,
				  uint16_t port, int type, int code,
				  unsigned int i);
/* Captured ICMP messages on port of type/code whose quoted datagram was
 * addressed to orig_dst. */
unsigned int unit_tx_icmp_about(const struct unit_fixture *f, uint16_t port,
				int type, int code, uint32_t orig_dst);
/* Captured ARP requests on port asking for tip (any when 0). */
unsigned int unit_tx_arp_requests(const struct unit_fixture *f,
				  uint16_t port, uint32_t tip);
/* Every frame captured on every port. */
unsigned int unit_tx_count(const struct unit_fixture *f);

/*
 * What an ICMP error about a datagram must be (docs/configuration.md "What happens
 * to a packet"): Ethernet from src_mac to dst_mac, type IPv4; IPv4
 * header 0x45, TOS (orig TOS & 0x1e) | 0xc0, no fragment bits, TTL 64,
 * protocol 1, valid checksum, from src to the original source; ICMP
 * type/code, valid checksum, unused word 0 except the next-hop MTU for
 * 3/4; the quote is the first bytes of orig_ip (the datagram as it was
 * when the error was made), as many as fit in 576 bytes.
 */
struct unit_icmp_want {
	uint8_t type, code;
	uint16_t mtu;
	uint32_t src;				/* host order */
	const struct rte_ether_addr *dst_mac, *src_mac;
};
void unit_assert_icmp_error(const struct rte_mbuf *e,
			    const struct unit_icmp_want *want,
			    const uint8_t *orig_ip, size_t orig_len);

/* The UDP checksum of the IPv4/UDP frame in m (one segment) is valid and
 * not zero. */
bool unit_udp_csum_ok(const struct rte_mbuf *m);

/*
 * Stages called directly leave their ICMP on the worker's icmp_out list:
 * unit_icmp_out_send routes and captures it as the worker would, and the
 * fixture's teardown fails when a test left any behind.
 */
void unit_icmp_out_send(struct unit_fixture *f);

/* The stack's summed counters. */
struct lsk_stats unit_stats(const struct unit_fixture *f);

/* Assert every ip counter of the stack equals want's (names the ones that
 * differ). */
void unit_assert_ip(const struct unit_fixture *f, struct lsk_ip_stats want);

/*
 * docs/configuration.md: apart from InCsumErrors, every IPv4 packet received lands
 * in exactly one disposition counter, so they add up to InReceives.
 */
void unit_assert_ip_balance(const struct lsk_stats *st);
/* The same with fragments reassembled for us: each counts ReasmReqds and
 * each datagram they make ReasmOKs, so InReceives = the dispositions +
 * ReasmReqds - ReasmOKs. */
void unit_assert_reasm_balance(const struct lsk_stats *st);
/* Two datagrams from A forwarded (by the fast path, ip4/fwd_fast.c) and
 * one without a route (handed on to the stages), the frames out freed:
 * the counters the show and metrics views are checked against. */
void unit_traffic_fwd_noroute(struct unit_fixture *f);

/* Free every mbuf of a list and empty it. */
void unit_list_free(struct lsk_list *l);


/*
 * Make allocation fail for real: unit_eat_memory takes every byte of EAL
 * memory rte_malloc will give (filled with 0xa5), unit_free_memory gives
 * it back. unit_heap_allocated: bytes allocated from the EAL heaps, to
 * see that a failed change leaked nothing.
 */
void unit_eat_memory(void);
void unit_free_memory(void);
size_t unit_heap_allocated(void);

/*
 * Fragments. unit_frag_build cuts the frame of a whole datagram (Ethernet,
 * IPv4 header with its options, payload: what unit_pkt_build makes) to
 * the len bytes of IP payload at byte offset ofs: the same header with
 * the total length of the piece, DF clear, MF as given, the offset
 * ofs / 8 and a valid checksum. Returns the fragment frame's length.
 */
size_t unit_frag_build(const uint8_t *frame, size_t ofs, size_t len,
		       bool mf, uint8_t *out, size_t cap);
/* A frame of any length (up to 14 + 65535 + more) in a chain of
 * UNIT_FRAME_MAX-byte segments, the last holding the rest. */
struct rte_mbuf *unit_mbuf_big(const void *buf, size_t len, uint16_t port);
/* Copy the bytes of an mbuf chain into buf (assert they fit); returns
 * how many. */
size_t unit_mbuf_bytes(const struct rte_mbuf *m, uint8_t *buf, size_t cap);

/*
 * A small strict JSON parser for what the stack writes (stats, telemetry):
 * the whole text must be one value (RFC 8259), an object may not name a
 * member twice. Numbers keep their value as a double, and as u when
 * they are a non-negative integer that fits 64 bits (is_uint).
 */
enum unit_json_type {
	UNIT_JSON_OBJECT,
	UNIT_JSON_ARRAY,
	UNIT_JSON_STRING,
	UNIT_JSON_NUMBER,
	UNIT_JSON_TRUE,
	UNIT_JSON_FALSE,
	UNIT_JSON_NULL,
};

struct unit_json {
	enum unit_json_type type;
	char *key;			/* its name, in an object */
	char *str;			/* a string's text, unescaped */
	double num;
	uint64_t u;
	bool is_uint;
	struct unit_json *child;	/* first member or element */
	struct unit_json *next;		/* the next one in its parent */
};

/* NULL (and where in *err_at, when not NULL) when text is not valid. */
struct unit_json *unit_json_parse(const char *text, size_t *err_at);
void unit_json_free(struct unit_json *j);
/* The member key of object j, or NULL. */
const struct unit_json *unit_json_get(const struct unit_json *j,
				      const char *key);
/* Element i of array j (or member i of object j), or NULL. */
const struct unit_json *unit_json_at(const struct unit_json *j,
				     unsigned int i);
unsigned int unit_json_len(const struct unit_json *j);

/* Deterministic pseudo-random numbers (xorshift64*). */
uint64_t unit_rand(uint64_t *state);

#endif /* UNIT_COMMON_H */
