/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A trial's result as a table line and as JSON:
 *
 *   {"rate_pps": 10000, "seconds": 1, "size": 64, "flows": 1,
 *    "offered_pps": ..., "received_pps": ..., "sent": ..., "refused": ...,
 *    "received": ..., "lost": ..., "loss_ratio": ..., "reordered": ...,
 *    "duplicates": ..., "late": ..., "foreign": ..., "stale": ...,
 *    "scheduled": ..., "flows_with_loss": ..., "max_flow_loss": ...,
 *    "elapsed_s": ..., "max_lag_us": ..., "generator_limited": false,
 *    "latency_ns": {"samples": ..., "min": ..., "mean": ..., "p50": ...,
 *                   "p90": ..., "p99": ..., "p99.9": ..., "max": ...}}
 *
 * "size" is a number or "imix".
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "gen_result.h"

const char *
gen_size_name(uint16_t size, char *buf, size_t len)
{
	if (size == GEN_SIZE_IMIX)
		snprintf(buf, len, "imix");
	else
		snprintf(buf, len, "%u", size);
	return buf;
}

void
gen_result_header(FILE *f)
{
	fprintf(f, "%-5s %6s %12s %12s %12s %10s %8s %6s %6s %8s %8s %8s "
		"%8s %s\n", "size", "flows", "rate_pps", "offered_pps",
		"recv_pps", "lost", "loss%", "reord", "dups", "p50_us",
		"p99_us", "p99.9_us", "max_us", "note");
}

void
gen_result_line(FILE *f, const struct gen_trial_result *r)
{
	char sz[8];

	fprintf(f, "%-5s %6u %12.0f %12.0f %12.0f %10" PRIu64 " %8.4f %6"
		PRIu64 " %6" PRIu64 " %8.2f %8.2f %8.2f %8.2f %s\n",
		gen_size_name(r->req.size, sz, sizeof(sz)), r->req.flows,
		r->req.rate_pps, r->offered_pps, r->received_pps, r->lost,
		gen_loss_ratio(r) * 100, r->reordered, r->duplicates,
		r->latency.p50_ns / 1e3, r->latency.p99_ns / 1e3,
		r->latency.p999_ns / 1e3, r->latency.max_ns / 1e3,
		r->generator_limited ? "GENERATOR-LIMITED" : "");
}

void
gen_result_warn(FILE *f, const struct gen_trial_result *r)
{
	if (!r->generator_limited)
		return;
	if (r->req.rate_pps > 0)
		fprintf(f, "WARNING: the generator could not keep the "
			"schedule at %.0f pps: it offered %" PRIu64 " of %"
			PRIu64 " frames (lag up to %.1f us); this trial "
			"measures the generator, not the device\n",
			r->req.rate_pps, r->sent + r->refused, r->scheduled,
			r->max_lag_us);
	else
		fprintf(f, "WARNING: at full load the device took every "
			"frame (%.0f pps): the generator, not the device, "
			"set this rate\n", r->offered_pps);
}

static void
num(FILE *f, const char *name, double v, const char *sep)
{
	if (isfinite(v))
		fprintf(f, "\"%s\": %.17g%s", name, v, sep);
	else
		fprintf(f, "\"%s\": null%s", name, sep);
}

void
gen_result_json(FILE *f, const struct gen_trial_result *r)
{
	const struct gen_latency *l = &r->latency;

	fprintf(f, "{");
	num(f, "rate_pps", r->req.rate_pps, ", ");
	num(f, "seconds", r->req.seconds, ", ");
	if (r->req.size == GEN_SIZE_IMIX)
		fprintf(f, "\"size\": \"imix\", ");
	else
		fprintf(f, "\"size\": %u, ", r->req.size);
	fprintf(f, "\"flows\": %u, ", r->req.flows);
	num(f, "offered_pps", r->offered_pps, ", ");
	num(f, "received_pps", r->received_pps, ", ");
	fprintf(f, "\"sent\": %" PRIu64 ", \"refused\": %" PRIu64
		", \"received\": %" PRIu64 ", \"lost\": %" PRIu64 ", ",
		r->sent, r->refused, r->received, r->lost);
	num(f, "loss_ratio", gen_loss_ratio(r), ", ");
	fprintf(f, "\"reordered\": %" PRIu64 ", \"duplicates\": %" PRIu64
		", \"late\": %" PRIu64 ", \"foreign\": %" PRIu64
		", \"stale\": %" PRIu64 ", \"scheduled\": %" PRIu64 ", ",
		r->reordered, r->duplicates, r->late, r->foreign, r->stale,
		r->scheduled);
	fprintf(f, "\"flows_with_loss\": %" PRIu64 ", \"max_flow_loss\": %"
		PRIu64 ", ", r->flows_with_loss, r->max_flow_loss);
	num(f, "elapsed_s", r->elapsed_s, ", ");
	num(f, "max_lag_us", r->max_lag_us, ", ");
	fprintf(f, "\"generator_limited\": %s, \"latency_ns\": {",
		r->generator_limited ? "true" : "false");
	fprintf(f, "\"samples\": %" PRIu64 ", ", l->samples);
	num(f, "min", l->min_ns, ", ");
	num(f, "mean", l->mean_ns, ", ");
	num(f, "p50", l->p50_ns, ", ");
	num(f, "p90", l->p90_ns, ", ");
	num(f, "p99", l->p99_ns, ", ");
	num(f, "p99.9", l->p999_ns, ", ");
	num(f, "max", l->max_ns, "}}");
}
