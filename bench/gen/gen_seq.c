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
