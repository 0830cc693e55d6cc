/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_input's test of the common frame, shared with the forwarding fast
 * paths (ip4/fwd_fast.c; IPv6's, ip6/fwd6_fast.c, with the IPv6
 * ethertype: lsk_eth_fast6_hdr): an untagged IPv4 frame to its port's MAC, from
 * the port of the run before it, decided by one test of words the caller
 * keeps in registers (the run's port and MAC).
 */
#ifndef LSK_L2_ETH_FAST_H
#define LSK_L2_ETH_FAST_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "core/fwd.h"

/* The 6 bytes at p as the low bits of a word (p holds at least 8). */
static inline uint64_t
lsk_eth_mac48(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v & 0xffffffffffffull;
}

/* Are the 6 bytes at p (which holds at least 8) mac48, a MAC as
 * lsk_eth_mac48 reads it (never lsk_eth_port_mac48's UINT64_MAX, which
 * this would take for the broadcast MAC)? The two bytes after them
 * shifted out: no 48-bit mask to keep in a register. */
static inline bool
lsk_eth_mac48_is(const void *p, uint64_t mac48)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return ((v ^ mac48) << 16) == 0;
}

/* The MAC frames to port must carry to be the fast path's;
 * UINT64_MAX, which no 6 bytes equal, for a port the table lacks. */
static inline uint64_t
lsk_eth_port_mac48(const struct lsk_fwd_table *t, uint16_t port)
{
	uint64_t v = 0;

	if (port >= t->n_ports)
		return UINT64_MAX;
	memcpy(&v, &t->ifaces[port].mac, RTE_ETHER_ADDR_LEN);
	return v;
}

/* lsk_eth_fast for a frame whose first segment the caller knows holds a
 * whole Ethernet header. */
static __rte_always_inline bool
lsk_eth_fast_hdr(const struct rte_mbuf *m, const uint8_t *p, uint16_t port,
		 uint64_t mac48)
{
	return m->port == port && lsk_eth_mac48(p) == mac48 &&
	       ((const struct rte_ether_hdr *)p)->ether_type ==
	       RTE_BE16(RTE_ETHER_TYPE_IPV4);
}

/* lsk_eth_fast_hdr with lsk_eth_mac48_is: mac48 a port's MAC (IPv4's
 * fast path, ip4/fwd_fast.c, which takes no frame of a port the table
 * lacks). */
static __rte_always_inline bool
lsk_eth_fast_hdr_mac(const struct rte_mbuf *m, const uint8_t *p,
		     uint16_t port, uint64_t mac48)
{
	return m->port == port && lsk_eth_mac48_is(p, mac48) &&
	       ((const struct rte_ether_hdr *)p)->ether_type ==
	       RTE_BE16(RTE_ETHER_TYPE_IPV4);
}

/* lsk_eth_fast_hdr for IPv6's fast path (ip6/fwd6_fast.c): the IPv6
 * ethertype. */
static __rte_always_inline bool
lsk_eth_fast6_hdr(const struct rte_mbuf *m, const uint8_t *p, uint16_t port,
		  uint64_t mac48)
{
	return m->port == port && lsk_eth_mac48(p) == mac48 &&
	       ((const struct rte_ether_hdr *)p)->ether_type ==
	       RTE_BE16(RTE_ETHER_TYPE_IPV6);
}

/* Is the frame at p, of m, the fast path's: from the run's port, a whole
 * Ethernet header, to the run's MAC (mac48: the MAC as lsk_eth_mac48
 * reads it), an IPv4 ethertype? */
static __rte_always_inline bool
lsk_eth_fast(const struct rte_mbuf *m, const uint8_t *p, uint16_t port,
	     uint64_t mac48)
{
	return m->data_len >= RTE_ETHER_HDR_LEN &&
	       lsk_eth_fast_hdr(m, p, port, mac48);
}

#endif /* LSK_L2_ETH_FAST_H */
