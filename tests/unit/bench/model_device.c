/* SPDX-License-Identifier: BSD-3-Clause */
/* Model devices for the searches' tests (model_device.h). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "model_device.h"
#include "search.h"

static double
uniform(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (double)((*s * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

double
model_capacity(const struct model_dev *m, uint16_t size)
{
	double c = m->capacity_pps;

	if (m->line_bps > 0 && m->line_bps / ((gen_size_mean(size) + 20) * 8) < c)
		c = m->line_bps / ((gen_size_mean(size) + 20) * 8);
	return c;
}

int
model_trial(void *ctx, const struct gen_trial_request *req,
	    struct gen_trial_result *res)
{
	struct model_dev *m = ctx;
	double rate, cap, util;

	m->calls++;
	if (m->fail_at && m->calls == m->fail_at)
		return -EIO;
	if (m->seed == 0)
		m->seed = 88172645463325252ull;
	memset(res, 0, sizeof(*res));
	res->req = *req;
	rate = req->rate_pps > 0 ? req->rate_pps : m->gen_max_pps;
	if (rate > m->gen_max_pps) {
		rate = m->gen_max_pps;
		res->generator_limited = true;
	}
	cap = model_capacity(m, req->size);
	if (m->degrade_after && m->calls > m->degrade_after)
		cap *= m->degrade;
	if (m->noise > 0)
		cap *= 1 + m->noise * (2 * uniform(&m->seed) - 1);
	res->offered_pps = rate;
	res->sent = (uint64_t)llround(rate * req->seconds);
	if (rate <= cap)
		res->received = res->sent;
	else
		res->received = (uint64_t)floor((double)res->sent * cap / rate);
	res->lost = res->sent - res->received;
	res->received_pps = (double)res->received / req->seconds;
	util = rate < cap ? rate / cap : 1;
	if (res->received) {
		double b = m->lat_base_ns > 0 ? m->lat_base_ns : 1000;

		res->latency.samples = res->received;
		res->latency.min_ns = b * 0.8;
		res->latency.p50_ns = b * (1 + 4 * pow(util, 4));
		res->latency.mean_ns = res->latency.p50_ns * 1.05;
		res->latency.p90_ns = res->latency.p50_ns * 1.5;
		res->latency.p99_ns = res->latency.p50_ns * 3;
		res->latency.p999_ns = res->latency.p50_ns * 6;
		res->latency.max_ns = res->latency.p50_ns * 20;
	}
	return 0;
}
