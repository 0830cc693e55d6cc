/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The receive side's sequence checker: per flow, which sequence numbers
 * came back, in a sliding window of GEN_SEQ_WINDOW below the highest seen.
 *
 * Per flow: top = one past the highest sequence number seen (serial
 * arithmetic, so the 32-bit numbers may wrap), and a bitmap whose bit i
 * says that top - 1 - i came. A frame
 *   - at or past top: in order (or after a gap); the window slides;
 *   - below top, inside the window: reordered (it came behind a later
 *     one) if its bit was clear, a duplicate if it was set;
 *   - below the window (more than GEN_SEQ_WINDOW behind top): too late to
 *     tell a duplicate from a straggler. It is counted as received and
 *     reordered, and in `late`, which says how many such verdicts the
 *     figures hold (a duplicate that late would be counted as a received
 *     frame, making `lost` one too small: `late` bounds the error).
 * Loss is not counted here: it is what was offered less what was
 * received (every sequence number counted once).
 */
#ifndef LSK_BENCH_GEN_SEQ_H
#define LSK_BENCH_GEN_SEQ_H

#include <stdbool.h>
#include <stdint.h>

#define GEN_SEQ_WINDOW 64

struct gen_seq_flow {
	uint32_t top;		/* one past the highest seen */
	uint32_t received;	/* distinct frames (0: none seen yet) */
	uint64_t bits;		/* bit i: top - 1 - i came */
};

struct gen_seq_counts {
	uint64_t received;	/* distinct sequence numbers */
	uint64_t reordered;
	uint64_t duplicates;
	uint64_t late;		/* below the window (see above) */
};

enum gen_seq_verdict {
	GEN_SEQ_IN_ORDER,
	GEN_SEQ_GAP,		/* in order, after missing ones */
	GEN_SEQ_REORDERED,
	GEN_SEQ_DUPLICATE,
	GEN_SEQ_LATE,
};

struct gen_seq {
	uint32_t flows;
	uint32_t start;		/* every flow's first sequence number */
	struct gen_seq_flow *flow;
	struct gen_seq_counts c;
};

/* Checker for flows 0 .. flows-1 whose numbers start at start.
 * Returns 0 or -ENOMEM / -EINVAL. */
int gen_seq_init(struct gen_seq *s, uint32_t flows, uint32_t start);
void gen_seq_fini(struct gen_seq *s);
/* Forget every frame (a new trial). */
void gen_seq_reset(struct gen_seq *s);

/* Per-flow loss against what was sent per flow (sent[f] frames of flow
 * f, numbered from start): how many flows lost any, and the most one
 * lost. */
void gen_seq_flow_loss(const struct gen_seq *s, const uint32_t *sent,
		       uint64_t *flows_with_loss, uint64_t *max_flow_loss);

/* Account frame seq of flow f (f < flows: the caller checks). */
static inline enum gen_seq_verdict
gen_seq_add(struct gen_seq *s, uint32_t f, uint32_t seq)
{
	struct gen_seq_flow *fl = &s->flow[f];
	int32_t ahead;
	uint32_t back;

	if (fl->received == 0 && fl->bits == 0)
		/* nothing seen yet: the window starts at the trial's first
		 * number (a frame before it is late, as one past the
		 * window) */
		fl->top = s->start;
	ahead = (int32_t)(seq - fl->top);
	if (ahead >= 0) {
		uint32_t shift = (uint32_t)ahead + 1;

		fl->bits = shift >= 64 ? 0 : fl->bits << shift;
		fl->bits |= 1;
		fl->top = seq + 1;
		fl->received++;
		s->c.received++;
		return ahead == 0 ? GEN_SEQ_IN_ORDER : GEN_SEQ_GAP;
	}
	back = (uint32_t)(-(ahead + 1));	/* top - 1 - seq */
	if (back >= GEN_SEQ_WINDOW) {
		fl->received++;
		s->c.received++;
		s->c.reordered++;
		s->c.late++;
		return GEN_SEQ_LATE;
	}
	if (fl->bits & (UINT64_C(1) << back)) {
		s->c.duplicates++;
		return GEN_SEQ_DUPLICATE;
	}
	fl->bits |= UINT64_C(1) << back;
	fl->received++;
	s->c.received++;
	s->c.reordered++;
	return GEN_SEQ_REORDERED;
}

#endif /* LSK_BENCH_GEN_SEQ_H */
