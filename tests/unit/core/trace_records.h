/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the trace tests read of a traced packet (core/trace.h): its
 * stages, space-separated ("rx eth_input ..."), in a buffer the next call
 * reuses, and its last record's text. Both fail the test on NULL. The
 * k-th ended packet of worker 0, and the text of a stage's record.
 */
#ifndef LSK_TEST_TRACE_RECORDS_H
#define LSK_TEST_TRACE_RECORDS_H

#include <stdio.h>
#include <string.h>

#include "unit_common.h"
#include "core/trace.h"

static inline const char *
stages(const struct lsk_trace_pkt *p)
{
	static char buf[512];
	size_t len = 0;
	unsigned int k;

	assert_non_null(p);
	buf[0] = '\0';
	for (k = 0; k < p->n_recs; k++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					k ? " " : "",
					p->rec[k].stage);
	return buf;
}

static inline const char *
last_text(const struct lsk_trace_pkt *p)
{
	assert_non_null(p);
	assert_true(p->n_recs > 0);
	return p->rec[p->n_recs - 1].text;
}

/* The k-th ended packet (from 0, worker 0's slot order), or NULL. */
static inline const struct lsk_trace_pkt *
ended(struct unit_fixture *f, unsigned int k)
{
	const struct lsk_trace *t = f->stack->sh.trace;
	unsigned int j;

	assert_non_null(t);
	for (j = 0; j < LSK_TRACE_PKTS; j++) {
		if (t->w[0].pkt[j].state != LSK_TRACE_DONE)
			continue;
		if (k-- == 0)
			return &t->w[0].pkt[j];
	}
	return NULL;
}

/* The record of stage (its declared name) in p, or fail. */
static inline const char *
text_of(const struct lsk_trace_pkt *p, const char *stage)
{
	unsigned int k;

	for (k = 0; k < p->n_recs; k++)
		if (strcmp(p->rec[k].stage, stage) == 0)
			return p->rec[k].text;
	fail_msg("no %s record in: %s", stage, stages(p));
	return NULL;
}

#endif /* LSK_TEST_TRACE_RECORDS_H */
