/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Trains (core/list.h): the mbuf dynamic field that chains a train's
 * datagrams behind its head, and freeing a train's members.
 */
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "core/list.h"

int lsk_train_next_offset = -1;

int
lsk_train_register(void)
{
	static const struct rte_mbuf_dynfield desc = {
		.name = "lsk_train_next",
		.size = sizeof(struct rte_mbuf *),
		.align = __alignof__(struct rte_mbuf *),
	};
	int off = rte_mbuf_dynfield_register(&desc);

	if (off < 0)
		return off;
	lsk_train_next_offset = off;
	return 0;
}

void
lsk_train_free_members(struct rte_mbuf *head)
{
	struct rte_mbuf *m = *lsk_train_next(head), *next;

	*lsk_train_next(head) = NULL;
	for (; m != NULL; m = next) {
		next = *lsk_train_next(m);
		rte_pktmbuf_free(m);
	}
}
