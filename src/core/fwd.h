/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The forwarding table as the workers read it (next hops, our addresses)
 * and the address tests every layer makes on it.
 */
#ifndef LSK_CORE_FWD_H
#define LSK_CORE_FWD_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_byteorder.h>

#include <rte_branch_prediction.h>
#include <rte_ether.h>

#include "listack/listack.h"

struct rte_fib;

#define LSK_MAX_ADDRS 64

/* Next hops, the values stored in the FIB. */
enum lsk_nh_type {
	LSK_NH_NONE = 0,	/* no route */
	LSK_NH_LOCAL,		/* one of our addresses */
	LSK_NH_LOCAL_BCAST,	/* a subnet broadcast or 255.255.255.255 */
	LSK_NH_BLACKHOLE,
	LSK_NH_FORWARD,		/* out a port to a gateway or a host */
	LSK_NH_UNREACHABLE,	/* dropped, ICMP host unreachable */
	LSK_NH_PROHIBIT,	/* dropped, ICMP administratively prohibited */
	LSK_NH_GROUP,		/* ECMP: one of its FORWARD members per flow */
};

struct lsk_nexthop {
	uint8_t type;		/* enum lsk_nh_type */
	uint8_t resolved;	/* dst_mac is known */
	uint16_t port;
	uint16_t mtu;		/* IP MTU of the port */
	uint16_t pad;
	union {
		struct {
			/* host order; the host itself for connected */
			uint32_t gateway;
			/* the Ethernet header the forwarded frame gets */
			struct rte_ether_addr dst_mac;
			struct rte_ether_addr src_mac;
		};
		/* LSK_NH_GROUP: group_words[group, + n_members) are the
		 * members' next hop indexes, the n_buckets words after
		 * them the member of each bucket (filled by weight) */
		struct {
			uint32_t group;
			uint16_t n_members;
			uint16_t n_buckets;
		};
	};
};

/* A port, or a VLAN sub-interface of its parent port. */
struct lsk_port_conf {
	struct rte_ether_addr mac;
	uint16_t mtu;
	uint16_t parent;	/* the port itself when untagged */
	uint16_t vlan;		/* 0: untagged */
	/* admin down (`port N down`): a VLAN follows its port's */
	uint8_t down;
	uint8_t pad;
};

/* One of our addresses and its subnet. */
struct lsk_ifaddr {
	uint32_t addr;
	uint8_t depth;
	uint16_t port;
};

/* Index 0 of every nexthop table means "no route". */
#define LSK_NH_IDX_NONE 0

/*
 * The forwarding table as the workers see it: never written while they
 * can see it. A route change is made to a standby copy, published, and
 * made to the table it replaced after an RCU grace period (the two take
 * turns); other changes build a new one (control/fwd_table.c).
 */
struct lsk_fwd_table {
	struct rte_fib *fib;
	/* fib's tbl24 for prefetches, or 0 (ip4/fib4_prefetch.h) */
	uintptr_t fib_tbl24;
	uint8_t fib_shift;	/* log2 of its entries' bytes */
	uint32_t generation;	/* new for every table built */
	uint32_t n_nexthops;
	uint32_t nh_cap;	/* room in nexthops (the control thread's) */
	struct lsk_nexthop *nexthops;
	/* the ECMP groups' members and buckets (LSK_NH_GROUP) */
	uint32_t n_group_words, group_cap;
	uint16_t *group_words;
	/* each port's first address: the source of what we send out of it */
	uint32_t port_addr[LSK_MAX_IFACES];
	/* our addresses only */
	uint32_t n_own;
	uint32_t own_addrs[LSK_MAX_ADDRS];
	/* copies of the stack's ports and addresses as this table was built
	 * from them: the control thread changes its own lists in place */
	uint16_t n_ports, n_ifaces;
	struct lsk_port_conf ifaces[LSK_MAX_IFACES];
	/* bit p: port p is admin down (workers copy it per burst) */
	uint16_t ports_down;
	uint32_t n_addrs;
	struct lsk_ifaddr addrs[LSK_MAX_ADDRS];
	/* local_addrs[0, n_bcast) are the subnet broadcasts */
	uint32_t n_bcast;
	/* our addresses and subnet broadcasts, for the martian source test:
	 * a one-word Bloom filter first, the list only when it says maybe */
	uint64_t local_bloom;
	uint32_t n_local;
	uint32_t local_addrs[]; /* host order */
};

/* The filter's bit index for an address as it lies in a header
 * (network order: the fast path hashes it without a byte swap). */
static inline unsigned int
lsk_local_bloom_index_be(uint32_t addr_be)
{
	return (addr_be * 0x9e3779b1u) >> 26;
}

/* The filter's bit for addr (host order). */
static inline uint64_t
lsk_local_bloom_bit(uint32_t addr)
{
	return UINT64_C(1) << lsk_local_bloom_index_be(rte_cpu_to_be_32(addr));
}

/* The read side, core/fwd.c (the build: control/fwd_table.c). */
bool lsk_addr_is_local_slow(const struct lsk_fwd_table *t, uint32_t addr);

/* One of our addresses or subnet broadcasts. */
static inline bool
lsk_addr_is_local(const struct lsk_fwd_table *t, uint32_t addr)
{
	if (likely(!(t->local_bloom & lsk_local_bloom_bit(addr))))
		return false;
	return lsk_addr_is_local_slow(t, addr);
}
/* One of our addresses. */
bool lsk_addr_is_ours(const struct lsk_fwd_table *t, uint32_t addr);
/* A subnet broadcast of one of our addresses, or 255.255.255.255. */
bool lsk_fwd_is_broadcast(const struct lsk_fwd_table *t, uint32_t addr);
/* Our address whose subnet holds addr (the longest), or NULL. */
const struct lsk_ifaddr *lsk_fwd_connected(const struct lsk_fwd_table *t,
					   uint32_t addr);
/* The same over a list of n addresses (the control thread's own). */
const struct lsk_ifaddr *lsk_ifaddr_connected(const struct lsk_ifaddr *addrs,
					      unsigned int n, uint32_t addr);

static inline uint32_t
lsk_depth_mask(uint8_t depth)
{
	return depth == 0 ? 0 : ~UINT32_C(0) << (32 - depth);
}

#endif /* LSK_CORE_FWD_H */
