/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pipeline as the views and the trace read it: every stage's
 * declaration (core/stage.h), in pipeline order. The worker module is
 * the one place that knows every stage; the control side's views
 * (`show runtime`, `show pipeline`, `show errors`) walk this list.
 */
#ifndef LSK_WORKER_PIPELINE_H
#define LSK_WORKER_PIPELINE_H

#include "core/stage.h"

/* The declarations in pipeline order, timed stages and the other nodes
 * (rx, the hold queue, what feeds ip4_output) alike. */
extern const struct lsk_stage_desc *const lsk_pipeline[];
extern const unsigned int lsk_pipeline_n;

/* The declaration of timed stage id (enum lsk_stage_id), or NULL. */
const struct lsk_stage_desc *lsk_stage_desc(unsigned int id);
/* The node named name, or NULL. */
const struct lsk_stage_desc *lsk_pipeline_find(const char *name);
/* Its place in lsk_pipeline (lsk_pipeline_n: not there). */
unsigned int lsk_pipeline_index(const struct lsk_stage_desc *s);

#endif /* LSK_WORKER_PIPELINE_H */
