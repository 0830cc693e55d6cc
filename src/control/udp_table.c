/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * UDP endpoints, the control thread's side: bind and close change the
 * stack's endpoint list, and the table workers read is rebuilt from it
 * and published with RCU like the FIB (a batch publishes at its commit).
 * The application side (receive, send) is udp/udp_ep.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>
#include <rte_ring.h>

#include "core/fwd6.h"
#include "udp/udp.h"
#include "control/control.h"
#include "control/udp_ctl.h"

/* The stack whose list ep is on. */
static struct lsk_stack *
ep_stack(const struct lsk_udp_ep *ep)
{
	return container_of((struct lsk_shared *)(uintptr_t)ep->sh,
			    struct lsk_stack, sh);
}

void
lsk_udp_table_free(struct lsk_udp_table *t)
{
	if (t == NULL)
		return;
	rte_hash_free(t->hash);
	rte_hash_free(t->hash6);
	rte_free(t);
}

/* A hash of keys of key_len bytes for n endpoints, named after s. */
static struct rte_hash *
udp_hash(struct lsk_stack *s, uint32_t key_len, unsigned int n)
{
	struct rte_hash_parameters hp = { 0 };
	char name[64];

	snprintf(name, sizeof(name), "%.20s_udp%u", s->name,
		 ++s->udp_generation);
	hp.name = name;
	hp.entries = RTE_MAX(64u, 2 * n);
	hp.key_len = key_len;
	hp.hash_func = rte_hash_crc;
	hp.socket_id = s->sh.socket_id;
	return rte_hash_create(&hp);
}

int
lsk_udp_table_build(struct lsk_stack *s, struct lsk_udp_table **out)
{
	struct lsk_udp_table *t;
	unsigned int i;

	t = rte_zmalloc_socket("lsk_udp", sizeof(*t), 0, s->sh.socket_id);
	if (t == NULL)
		return -ENOMEM;
	t->hash = udp_hash(s, sizeof(uint64_t), s->n_eps);
	t->hash6 = t->hash == NULL ? NULL :
		   udp_hash(s, sizeof(struct lsk_udp_key6), s->n_eps);
	if (t->hash6 == NULL) {
		int rc = -(rte_errno ? rte_errno : ENOMEM);

		lsk_udp_table_free(t);
		return rc;
	}
	for (i = 0; i < s->n_eps; i++) {
		const struct lsk_udp_ep *ep = s->eps[i];
		uint64_t key = lsk_udp_key(ep->addr, ep->port);
		struct lsk_udp_key6 key6 = { .addr = ep->addr6,
					     .port = ep->port };
		int rc = ep->family == AF_INET6 ?
			rte_hash_add_key_data(t->hash6, &key6, s->eps[i]) :
			rte_hash_add_key_data(t->hash, &key, s->eps[i]);

		if (rc < 0) {
			lsk_udp_table_free(t);
			return -ENOSPC;
		}
		if (ep->family == AF_INET6)
			t->n6++;
		else
			t->n++;
	}
	*out = t;
	return 0;
}

static void
udp_ep_free(struct lsk_udp_ep *ep)
{
	struct lsk_udp_slot slot;

	if (ep->ring != NULL) {
		while (rte_ring_sc_dequeue_elem(ep->ring, &slot,
						sizeof(slot)) == 0)
			rte_pktmbuf_free(slot.mbuf);
		rte_ring_free(ep->ring);
	}
	rte_free(ep);
}

/* Endpoints closed before the table now published: no worker can reach
 * them any more. */
static void
udp_free_closed(struct lsk_stack *s)
{
	while (s->closed != NULL) {
		struct lsk_udp_ep *ep = s->closed;

		s->closed = ep->next_closed;
		udp_ep_free(ep);
	}
}

void
lsk_udp_table_publish(struct lsk_stack *s, struct lsk_udp_table *t)
{
	lsk_publish(s, s->sh.udp, t, lsk_udp_table_free);
	udp_free_closed(s);
}

/* A failure leaves the published table, and every endpoint it names, as
 * they were. Endpoints a batch changes are published at its commit. */
static int
udp_publish(struct lsk_stack *s)
{
	struct lsk_udp_table *t;
	int rc;

	if (s->udp_defer)
		return 0;
	rc = lsk_udp_table_build(s, &t);
	if (rc < 0)
		return rc;
	lsk_publish(s, s->sh.udp, t, lsk_udp_table_free);
	udp_free_closed(s);
	return 0;
}

/* addr:port is bound already. */
static bool
udp_bound(const struct lsk_stack *s, const struct lsk_udp_addr *addr,
	  uint16_t port)
{
	unsigned int i;

	for (i = 0; i < s->n_eps; i++) {
		const struct lsk_udp_ep *ep = s->eps[i];

		if (ep->port != port ||
		    ep->family != (addr->family == AF_INET6 ? AF_INET6 :
				   AF_INET))
			continue;
		if (addr->family == AF_INET6 ?
		    lsk_ip6_equal(&ep->addr6, &addr->v6) :
		    ep->addr == addr->v4)
			return true;
	}
	return false;
}

/* addr is one of ours (any when unspecified). */
static bool
udp_addr_ours(struct lsk_stack *s, const struct lsk_udp_addr *addr)
{
	if (addr->family == AF_INET)
		return addr->v4 == 0 || lsk_stack_is_own(s, addr->v4);
	/* the control thread's own table: it published it */
	return lsk_ip6_is_unspecified(&addr->v6) ||
	       (s->sh.fwd6 != NULL &&
		lsk_fwd6_ours(s->sh.fwd6, &addr->v6, LSK_IFACE_ANY) != NULL);
}

int
lsk_udp_bind(struct lsk_stack *s, uint32_t addr, uint16_t port,
	     const struct lsk_udp_bind_opts *opts, struct lsk_udp_ep **out)
{
	const struct lsk_udp_addr a = { .family = AF_INET, .v4 = addr };

	return lsk_udp_bind_addr(s, &a, port, opts, out);
}

int
lsk_udp_bind_addr(struct lsk_stack *s, const struct lsk_udp_addr *addr,
		  uint16_t port, const struct lsk_udp_bind_opts *opts,
		  struct lsk_udp_ep **out)
{
	static unsigned int ring_id;
	struct lsk_udp_bind_opts o = { 0 };
	struct lsk_udp_ep *ep;
	unsigned int flags;
	char name[RTE_RING_NAMESIZE];
	int rc;

	if (s == NULL || out == NULL || addr == NULL || port == 0)
		return -EINVAL;
	if (addr->family != AF_INET && addr->family != AF_INET6)
		return -EAFNOSUPPORT;
	if (opts != NULL)
		o = *opts;
	if (o.ring_size == 0)
		o.ring_size = LSK_UDP_RING_DEFAULT;
	if (o.ring_size > RTE_RING_SZ_MASK)
		return -EINVAL;
	if (!udp_addr_ours(s, addr))
		return -EADDRNOTAVAIL;
	if (udp_bound(s, addr, port))
		return -EADDRINUSE;
	if (lsk_array_grow((void **)&s->eps, &s->eps_cap, s->n_eps,
			   sizeof(*s->eps), 16) < 0)
		return -ENOMEM;
	ep = rte_zmalloc_socket("lsk_udp_ep", sizeof(*ep), RTE_CACHE_LINE_SIZE,
				s->sh.socket_id);
	if (ep == NULL)
		return -ENOMEM;
	ep->sh = &s->sh;
	ep->family = (uint8_t)addr->family;
	if (addr->family == AF_INET)
		ep->addr = addr->v4;
	else
		ep->addr6 = addr->v6;
	ep->port = port;
	ep->flags = o.flags;
	ep->pool = o.pool;
	ep->next_ip_id = 1;
	flags = RING_F_SC_DEQ | RING_F_EXACT_SZ;
	if (o.flags & LSK_UDP_SP)
		flags |= RING_F_SP_ENQ;
	snprintf(name, sizeof(name), "lsk_ep%u",
		 __atomic_fetch_add(&ring_id, 1, __ATOMIC_RELAXED));
	ep->ring = rte_ring_create_elem(name, sizeof(struct lsk_udp_slot),
					o.ring_size,
					o.socket_id == SOCKET_ID_ANY || !opts ?
					s->sh.socket_id : o.socket_id, flags);
	if (ep->ring == NULL) {
		rc = -(rte_errno ? rte_errno : ENOMEM);
		udp_ep_free(ep);
		return rc;
	}
	s->eps[s->n_eps++] = ep;
	rc = udp_publish(s);
	if (rc < 0) {
		s->n_eps--;
		udp_ep_free(ep);
		return rc;
	}
	*out = ep;
	return 0;
}

void
lsk_udp_unlist(struct lsk_udp_ep *ep)
{
	struct lsk_stack *s = ep_stack(ep);
	unsigned int i;

	for (i = 0; i < s->n_eps; i++) {
		if (s->eps[i] == ep) {
			s->eps[i] = s->eps[--s->n_eps];
			break;
		}
	}
}

/* Room is there: the list had ep when it was taken out, and what came
 * in since went out first. */
void
lsk_udp_relist(struct lsk_udp_ep *ep)
{
	struct lsk_stack *s = ep_stack(ep);

	if (s->n_eps < s->eps_cap)
		s->eps[s->n_eps++] = ep;
}

void
lsk_udp_ep_discard(struct lsk_udp_ep *ep)
{
	lsk_udp_unlist(ep);
	udp_ep_free(ep);
}

void
lsk_udp_close(struct lsk_udp_ep *ep)
{
	struct lsk_stack *s;
	unsigned int i;

	if (ep == NULL)
		return;
	s = ep_stack(ep);
	for (i = 0; i < s->n_eps; i++) {
		if (s->eps[i] == ep) {
			s->eps[i] = s->eps[--s->n_eps];
			break;
		}
	}
	/* freed once a table without it is published: now, or, when no
	 * table can be built now, with the next one (until then the table
	 * in force still delivers to it) */
	ep->next_closed = s->closed;
	s->closed = ep;
	udp_publish(s);
}

void
lsk_udp_close_all(struct lsk_stack *s)
{
	while (s->n_eps > 0)
		lsk_udp_close(s->eps[s->n_eps - 1]);
	/* the stack is going: no worker reads the table any more */
	lsk_udp_table_free(s->sh.udp);
	s->sh.udp = NULL;
	udp_free_closed(s);
}

