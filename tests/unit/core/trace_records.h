/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the trace tests read of a traced packet (core/trace.h): its
 * stages, space-separated ("rx eth_input ..."), in a buffer the next call
 * reuses, and its last record's text. Both fail the test on NULL.
 */
#ifndef LSK_TEST_TRACE_RECORDS_H
#define LSK_TEST_TRACE_RECORDS_H

#include <stdio.h>

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

#endif /* LSK_TEST_TRACE_RECORDS_H */
