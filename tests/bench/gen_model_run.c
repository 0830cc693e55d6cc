/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A search against a model device (tests/unit/bench/model_device.h),
 * with the searches' own options and output (gen_search_main), for test_gen_output.py:
 *
 *   gen-model-run --capacity PPS --gen-max PPS [--json FILE]
 *                 [search options: bench/gen/search_cli.h]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_device.h"
#include "search_cli.h"

int
main(int argc, char **argv)
{
	struct model_dev m = { .capacity_pps = 1e6, .gen_max_pps = 10e6 };
	struct gen_search_opts o;
	const char *json = NULL;
	int i;

	gen_search_opts_init(&o);
	o.params.trial_seconds = 0.01;
	o.params.latency_seconds = 0.01;
	argc = gen_search_take_opts(argc, argv, &o);
	if (argc < 0)
		return 2;
	for (i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--capacity") == 0)
			m.capacity_pps = atof(argv[i + 1]);
		else if (strcmp(argv[i], "--gen-max") == 0)
			m.gen_max_pps = atof(argv[i + 1]);
		else if (strcmp(argv[i], "--max-rate") == 0)
			continue;	/* the searches' too: taken */
		else if (strcmp(argv[i], "--json") == 0)
			json = argv[i + 1];
		else
			break;
	}
	if (i != argc) {
		fprintf(stderr, "usage: %s --capacity PPS --gen-max PPS "
			"[--json FILE] [search options]\n", argv[0]);
		return 2;
	}
	o.search_given = true;
	return gen_search_main(&o, 1, json, model_trial, &m);
}
