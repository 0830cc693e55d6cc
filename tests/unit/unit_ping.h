/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ping sink the ping tests (ip4/test_ping.c, ip6/test_ping6.c) give
 * the stack, as the control thread's ping does (control/ping.h): the
 * replies and errors that match its ident land in its ring.
 */
#ifndef UNIT_PING_H
#define UNIT_PING_H

#include <rte_ring.h>

#include "unit_common.h"
#include "core/ping.h"

/* s on f's stack with ident and a ring of 64 replies named name. */
static inline int
unit_ping_attach(struct unit_fixture *f, struct lsk_ping_sink *s,
		 const char *name, uint16_t ident)
{
	s->ident = ident;
	s->ring = rte_ring_create_elem(name, sizeof(struct lsk_ping_reply), 64,
				       SOCKET_ID_ANY, RING_F_SC_DEQ);
	if (s->ring == NULL)
		return -1;
	f->stack->sh.ping = s;
	return 0;
}

static inline void
unit_ping_detach(struct unit_fixture *f, struct lsk_ping_sink *s)
{
	f->stack->sh.ping = NULL;
	rte_ring_free(s->ring);
}

/* Up to n of the replies s has. */
static inline unsigned int
unit_ping_take(struct lsk_ping_sink *s, struct lsk_ping_reply *r,
	       unsigned int n)
{
	return rte_ring_sc_dequeue_burst_elem(s->ring, r, sizeof(*r), n, NULL);
}

/* The fixture of unit_setup_list (configure(f) then, when given) with
 * s attached: a cmocka setup's body. */
static inline int
unit_ping_setup(void **state, void (*configure)(struct unit_fixture *f),
		struct lsk_ping_sink *s, const char *name, uint16_t ident)
{
	int rc = unit_setup_list(state);

	if (rc != 0)
		return rc;
	if (configure != NULL)
		configure(*state);
	return unit_ping_attach(*state, s, name, ident);
}

static inline int
unit_ping_teardown(void **state, struct lsk_ping_sink *s)
{
	unit_ping_detach(*state, s);
	return unit_teardown(state);
}

/*
 * An echo reply to s (seq 7, ttl 63, 56 bytes of data) reaches it once,
 * of type, with its time; st: the counters after, r: the reply (the
 * family's own checks).
 */
static inline void
unit_ping_matched(struct unit_fixture *f, struct lsk_ping_sink *s,
		  struct rte_mbuf *(*reply)(uint16_t ident, uint16_t seq,
					    uint8_t ttl),
		  uint8_t type, struct lsk_ping_reply *r, struct lsk_stats *st)
{
	struct lsk_ping_reply got[4];

	unit_input_one(f, reply(s->ident, 7, 63));
	assert_int_equal(unit_ping_take(s, got, 4), 1);
	*r = got[0];
	assert_int_equal(r->type, type);
	assert_int_equal(r->seq, 7);
	assert_int_equal(r->ttl, 63);
	assert_int_equal(r->len, 8 + 56);
	assert_true(r->tsc != 0);
	lsk_stats_read(f->stack, st);
	assert_int_equal(unit_tx_count(f), 0);
}

/*
 * An echo reply of another ident, then one of s's while no ping is in
 * progress: neither reaches s; st: the counters after (the family's to
 * check). reply(ident, seq, ttl): an echo reply to us.
 */
static inline void
unit_ping_unmatched(struct unit_fixture *f, struct lsk_ping_sink *s,
		    struct rte_mbuf *(*reply)(uint16_t ident, uint16_t seq,
					      uint8_t ttl),
		    struct lsk_stats *st)
{
	struct lsk_ping_reply r[4];

	unit_input_one(f, reply(s->ident + 1, 1, 64));
	assert_int_equal(unit_ping_take(s, r, 4), 0);
	f->stack->sh.ping = NULL;	/* no ping in progress */
	unit_input_one(f, reply(s->ident, 2, 64));
	f->stack->sh.ping = s;
	assert_int_equal(unit_ping_take(s, r, 4), 0);
	lsk_stats_read(f->stack, st);
}

#endif /* UNIT_PING_H */
