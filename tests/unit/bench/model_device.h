/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Model devices for the searches' tests (bench/gen/search.h): a
 * gen_trial_fn that answers from a formula instead of ports.
 *
 * The device forwards up to capacity_pps (or what line_bps carries at the
 * frame size, if lower) without loss and drops the excess above it. The
 * generator offers at most gen_max_pps: a trial asked for more is
 * generator-limited and offers gen_max_pps. noise moves the capacity of
 * each trial by up to +-noise (a share), at random from seed. After
 * degrade_after trials (0: never) the capacity is degrade times what it
 * was. fail_at: that call (1-based) returns -EIO.
 */
#ifndef MODEL_DEVICE_H
#define MODEL_DEVICE_H

#include <stdint.h>

#include "gen.h"

struct model_dev {
	double capacity_pps;
	double line_bps;		/* 0: no line limit */
	double gen_max_pps;
	double noise;
	uint64_t seed;
	unsigned int degrade_after;
	double degrade;
	unsigned int fail_at;
	double lat_base_ns;		/* latency at no load */
	unsigned int calls;
};

/* The capacity at a frame size, before noise. */
double model_capacity(const struct model_dev *m, uint16_t size);

int model_trial(void *ctx, const struct gen_trial_request *req,
		struct gen_trial_result *res);

#endif /* MODEL_DEVICE_H */
