/* SPDX-License-Identifier: BSD-3-Clause */
/* The sequence checker's tables (gen_seq.h says the rules). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gen_seq.h"

int
gen_seq_init(struct gen_seq *s, uint32_t flows, uint32_t start)
{
	memset(s, 0, sizeof(*s));
	if (flows == 0)
		return -EINVAL;
	s->flow = calloc(flows, sizeof(*s->flow));
	if (s->flow == NULL)
		return -ENOMEM;
	s->flows = flows;
	s->start = start;
	return 0;
}

void
gen_seq_fini(struct gen_seq *s)
{
	free(s->flow);
	s->flow = NULL;
	s->flows = 0;
}

void
gen_seq_reset(struct gen_seq *s)
{
	memset(s->flow, 0, (size_t)s->flows * sizeof(*s->flow));
	memset(&s->c, 0, sizeof(s->c));
}

void
gen_seq_flow_loss(const struct gen_seq *s, const uint32_t *sent,
		  uint64_t *flows_with_loss, uint64_t *max_flow_loss)
{
	uint64_t n = 0, worst = 0;
	uint32_t f;

	for (f = 0; f < s->flows; f++) {
		uint32_t got = s->flow[f].received;

		if (got < sent[f]) {
			n++;
			if (sent[f] - got > worst)
				worst = sent[f] - got;
		}
	}
	*flows_with_loss = n;
	*max_flow_loss = worst;
}
