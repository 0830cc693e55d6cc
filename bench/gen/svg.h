/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --plot FILE.svg: the generator's results drawn by the bench itself (no
 * plotting tool needed; any browser renders it). Two panels: throughput
 * by frame size, one bar per device in each size's group (the NDR, or
 * the PDR or MRR for those searches, with the PDR marked above it); and
 * latency percentiles (p50, p99, p99.9) by load, one colour per device,
 * on a log scale.
 */
#ifndef LSK_BENCH_GEN_SVG_H
#define LSK_BENCH_GEN_SVG_H

#include <stdio.h>

#include "gen_report.h"

/* 0 or a negative errno (said on stderr). */
int gen_svg_write(const char *path, const struct gen_summary *s,
		  unsigned int n);
/* The same to an open stream. */
void gen_svg_print(FILE *f, const struct gen_summary *s, unsigned int n);

#endif /* LSK_BENCH_GEN_SVG_H */
