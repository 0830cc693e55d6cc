/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The two stacks the fast path's tests (ip4/test_fwd_fast.c,
 * ip6/test_fwd6_fast.c) send every burst to: a in list mode (the fast
 * path on), b in single mode (the stages alone, packet by packet); the
 * frames of a burst, built once and given to both.
 */
#ifndef UNIT_PAIR_H
#define UNIT_PAIR_H

#include <stdbool.h>
#include <stdlib.h>

#include "unit_common.h"

#define FRAMES_MAX 256

struct frames {
	unsigned int n;
	size_t len[FRAMES_MAX];
	uint16_t port[FRAMES_MAX];
	uint8_t b[FRAMES_MAX][UNIT_FRAME_MAX];
};

struct pair {
	struct unit_fixture *a, *b;	/* list (fast path), single */
};

/* A cmocka setup's body: the pair in *state, each configure()d when
 * configure is given. */
static inline int
pair_create(void **state, void (*configure)(struct unit_fixture *f))
{
	struct pair *pr = calloc(1, sizeof(*pr));

	if (pr == NULL)
		return -1;
	pr->a = unit_fixture_create(LSK_MODE_LIST);
	pr->b = unit_fixture_create(LSK_MODE_SINGLE);
	*state = pr;
	if (pr->a == NULL || pr->b == NULL)
		return -1;
	if (configure != NULL) {
		configure(pr->a);
		configure(pr->b);
	}
	return 0;
}

/* Both fixtures' frames freed, what waits for ARP dropped. */
static inline void
pair_clear(struct pair *pr)
{
	unit_tx_free(pr->a);
	unit_tx_free(pr->b);
	lsk_neigh_drop_held(pr->a->stack);
	lsk_neigh_drop_held(pr->b->stack);
}

/* The fixtures gone, each with every mbuf back (cleared first). */
static inline void
pair_release(struct pair *pr)
{
	bool a_ok, b_ok;

	b_ok = unit_fixture_release(pr->b);
	a_ok = unit_fixture_release(pr->a);
	free(pr);
	assert_true(a_ok && b_ok);
}

/* The next frame's slot, for a frame in on port. */
static inline unsigned int
frames_next(struct frames *fr, uint16_t port)
{
	unsigned int i = fr->n++;

	assert_true(i < FRAMES_MAX);
	fr->port[i] = port;
	return i;
}

/* An IPv4 frame p builds; its bytes. */
static inline uint8_t *
frames_add(struct frames *fr, const struct unit_pkt *p)
{
	unsigned int i = frames_next(fr, p->port);

	fr->len[i] = unit_pkt_build(p, fr->b[i], sizeof(fr->b[i]));
	return fr->b[i];
}

/* The burst to both (a's mbufs of the frames' exact size). */
static inline void
pair_input(struct pair *pr, const struct frames *fr)
{
	struct rte_mbuf *pa[FRAMES_MAX], *pb[FRAMES_MAX];
	unsigned int i;

	for (i = 0; i < fr->n; i++) {
		pa[i] = unit_mbuf_exact(fr->b[i], fr->len[i], fr->len[i],
					fr->port[i]);
		pb[i] = unit_mbuf_from_bytes(fr->b[i], fr->len[i],
					     fr->port[i]);
	}
	unit_input(pr->a, pa, (uint16_t)fr->n);
	unit_input(pr->b, pb, (uint16_t)fr->n);
}

#endif /* UNIT_PAIR_H */
