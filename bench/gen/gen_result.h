/* SPDX-License-Identifier: BSD-3-Clause */
/* A trial's result as a table line and as a JSON object. */
#ifndef LSK_BENCH_GEN_RESULT_H
#define LSK_BENCH_GEN_RESULT_H

#include <stdio.h>

#include "gen.h"

/* "64", "imix" */
const char *gen_size_name(uint16_t size, char *buf, size_t len);
void gen_result_header(FILE *f);
void gen_result_line(FILE *f, const struct gen_trial_result *r);
/* Say on f why a trial measures the generator, if it does. */
void gen_result_warn(FILE *f, const struct gen_trial_result *r);
/* "name": v and sep (null when v is not finite); a JSON string of s. */
void gen_json_num(FILE *f, const char *name, double v, const char *sep);
void gen_json_str(FILE *f, const char *s);
/* One trial as a JSON object (no trailing newline). */
void gen_result_json(FILE *f, const struct gen_trial_result *r);

#endif /* LSK_BENCH_GEN_RESULT_H */
