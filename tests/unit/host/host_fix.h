/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host path the punt tests (test_host_punt.c for IPv4,
 * test_host_punt6.c for IPv6) put on a fixture: rings of the test's own,
 * no TAP and no thread, so every punted frame stays where the test can
 * read it; a TAP on port 0 only.
 */
#ifndef HOST_FIX_H
#define HOST_FIX_H

#include <stdio.h>
#include <stdlib.h>

#include <rte_ring.h>

#include "unit_common.h"
#include "core/shared.h"
#include "host/host.h"

struct hfix {
	struct unit_fixture *f;
	struct lsk_host host;
	struct lsk_host_table *t;
	/* what makes the worker see the tables (IPv6's also its fwd6) */
	void (*sync)(struct unit_fixture *f);
};

/* The host path on f (rate pps, punt rings of ring_size slots named
 * after tag). */
static inline struct hfix *
hfix_attach(struct unit_fixture *f, void (*sync)(struct unit_fixture *f),
	    uint32_t pps, unsigned int ring_size, const char *tag)
{
	struct hfix *h = calloc(1, sizeof(*h));
	static unsigned int seq;
	char name[32];
	unsigned int i;

	assert_non_null(h);
	h->f = f;
	h->sync = sync;
	for (i = 0; i < LSK_MAX_WORKERS; i++) {
		snprintf(name, sizeof(name), "%sp%u_%u", tag, seq, i);
		h->host.punt[i] = rte_ring_create(name, ring_size, SOCKET_ID_ANY,
						  RING_F_SP_ENQ | RING_F_SC_DEQ);
		assert_non_null(h->host.punt[i]);
	}
	snprintf(name, sizeof(name), "%si%u", tag, seq++);
	h->host.inject = rte_ring_create(name, 64, SOCKET_ID_ANY,
					 RING_F_SP_ENQ | RING_F_SC_DEQ);
	assert_non_null(h->host.inject);
	h->host.buckets = calloc(LSK_MAX_WORKERS, sizeof(*h->host.buckets));
	h->t = calloc(1, sizeof(*h->t));
	assert_non_null(h->t);
	h->t->host = &h->host;
	h->t->ifaces = 1;		/* iface 0 = port 0 */
	h->t->mcast_ports = 1;
	h->t->rate[0] = pps;
	h->t->burst[0] = 8;
	lsk_worker_offline(h->f->worker);
	h->f->stack->sh.host = h->t;
	sync(h->f);
	return h;
}

static inline unsigned int
punted(struct hfix *h)
{
	return rte_ring_count(h->host.punt[0]);
}

/* The host path off, the fixture and the rings gone (the test has taken
 * the punted frames off first). */
static inline void
hfix_detach(struct hfix *h)
{
	unsigned int i;

	lsk_worker_offline(h->f->worker);
	h->f->stack->sh.host = NULL;
	h->sync(h->f);
	unit_tx_free(h->f);
	unit_fixture_destroy(h->f);
	for (i = 0; i < LSK_MAX_WORKERS; i++)
		rte_ring_free(h->host.punt[i]);
	rte_ring_free(h->host.inject);
	free(h->host.buckets);
	free(h->t);
	free(h);
}

#endif /* HOST_FIX_H */
