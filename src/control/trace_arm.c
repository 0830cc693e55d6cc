/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet trace, the control state (control/control.h; the commands are
 * cli/trace_cmd.c, the workers' side core/trace.h): arming builds a
 * trace with fresh record buffers and publishes it like a table
 * (s->sh.trace, lsk_publish), replacing the one before (its records go);
 * clearing publishes none. The old trace is freed after the grace
 * period, so no worker can still be writing it.
 */
#include <errno.h>

#include <rte_common.h>
#include <rte_malloc.h>

#include "core/trace.h"
#include "control/control.h"

static void
trace_free(struct lsk_trace *t)
{
	rte_free(t);
}

int
lsk_trace_arm(struct lsk_stack *s, uint64_t n,
	      const struct lsk_trace_match *match)
{
	unsigned int i, n_workers = 0;
	struct lsk_trace *t;
	int rc;

	if (n == 0 || match == NULL)
		return -EINVAL;
	rc = lsk_trace_register();
	if (rc < 0)
		return rc;
	/* buffers only for the workers there are */
	for (i = 0; i < LSK_MAX_WORKERS; i++)
		if (s->workers[i] != NULL)
			n_workers = i + 1;
	t = rte_zmalloc_socket("lsk_trace", sizeof(*t) + (size_t)n_workers *
			       sizeof(t->w[0]), RTE_CACHE_LINE_SIZE,
			       s->sh.socket_id);
	if (t == NULL)
		return -ENOMEM;
	t->gen = ++s->trace_gen;
	t->budget = n;
	t->match = *match;
	t->n_workers = n_workers;
	lsk_publish(s, s->sh.trace, t, trace_free);
	return 0;
}

void
lsk_trace_clear(struct lsk_stack *s)
{
	struct lsk_trace *none = NULL;

	lsk_publish(s, s->sh.trace, none, trace_free);
}

void
lsk_trace_free_stack(struct lsk_stack *s)
{
	/* the stack goes: no worker runs any more */
	rte_free(s->sh.trace);
	s->sh.trace = NULL;
}
