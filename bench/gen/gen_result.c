/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A trial's result as a table line and as JSON:
 *
 *   {"rate_pps": 10000, "seconds": 1, "size": 64, "flows": 1,
 *    "offered_pps": ..., "received_pps": ..., "sent": ..., "refused": ...,
 *    "received": ..., "lost": ..., "loss_ratio": ..., "reordered": ...,
 *    "duplicates": ..., "late": ..., "foreign": ..., "stale": ...,
 *    "scheduled": ..., "flows_with_loss": ..., "max_flow_loss": ...,
 *    "elapsed_s": ..., "cpu_share": ..., "max_lag_us": ...,
 *    "generator_limited": false,
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
	char sz[8], cpu[16] = "";

	if (r->cpu_share > 0 && r->cpu_share < 0.95)
		snprintf(cpu, sizeof(cpu), " cpu=%.0f%%", r->cpu_share * 100);
	fprintf(f, "%-5s %6u %12.0f %12.0f %12.0f %10" PRIu64 " %8.4f %6"
		PRIu64 " %6" PRIu64 " %8.2f %8.2f %8.2f %8.2f %s%s\n",
		gen_size_name(r->req.size, sz, sizeof(sz)), r->req.flows,
		r->req.rate_pps, r->offered_pps, r->received_pps, r->lost,
		gen_loss_ratio(r) * 100, r->reordered, r->duplicates,
		r->latency.p50_ns / 1e3, r->latency.p99_ns / 1e3,
		r->latency.p999_ns / 1e3, r->latency.max_ns / 1e3,
		r->generator_limited ? "GENERATOR-LIMITED" : "", cpu);
}

void
gen_result_warn(FILE *f, const struct gen_trial_result *r)
{
	if (r->cpu_share > 0 && r->cpu_share < 0.95)
		fprintf(f, "WARNING: the generator had its CPU %.0f %% of the "
			"sending time (other work on it): latency includes its "
			"waits, and it may not have kept the rate\n",
			r->cpu_share * 100);
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

void
gen_json_num(FILE *f, const char *name, double v, const char *sep)
{
	if (isfinite(v))
		fprintf(f, "\"%s\": %.17g%s", name, v, sep);
	else
		fprintf(f, "\"%s\": null%s", name, sep);
}

void
gen_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

void
gen_result_json(FILE *f, const struct gen_trial_result *r)
{
	const struct gen_latency *l = &r->latency;

	fprintf(f, "{");
	gen_json_num(f, "rate_pps", r->req.rate_pps, ", ");
	gen_json_num(f, "seconds", r->req.seconds, ", ");
	if (r->req.size == GEN_SIZE_IMIX)
		fprintf(f, "\"size\": \"imix\", ");
	else
		fprintf(f, "\"size\": %u, ", r->req.size);
	fprintf(f, "\"flows\": %u, ", r->req.flows);
	gen_json_num(f, "offered_pps", r->offered_pps, ", ");
	gen_json_num(f, "received_pps", r->received_pps, ", ");
	fprintf(f, "\"sent\": %" PRIu64 ", \"refused\": %" PRIu64
		", \"received\": %" PRIu64 ", \"lost\": %" PRIu64 ", ",
		r->sent, r->refused, r->received, r->lost);
	gen_json_num(f, "loss_ratio", gen_loss_ratio(r), ", ");
	fprintf(f, "\"reordered\": %" PRIu64 ", \"duplicates\": %" PRIu64
		", \"late\": %" PRIu64 ", \"foreign\": %" PRIu64
		", \"stale\": %" PRIu64 ", \"scheduled\": %" PRIu64 ", ",
		r->reordered, r->duplicates, r->late, r->foreign, r->stale,
		r->scheduled);
	fprintf(f, "\"flows_with_loss\": %" PRIu64 ", \"max_flow_loss\": %"
		PRIu64 ", ", r->flows_with_loss, r->max_flow_loss);
	gen_json_num(f, "elapsed_s", r->elapsed_s, ", ");
	gen_json_num(f, "cpu_share", r->cpu_share, ", ");
	gen_json_num(f, "max_lag_us", r->max_lag_us, ", ");
	fprintf(f, "\"generator_limited\": %s, \"latency_ns\": {",
		r->generator_limited ? "true" : "false");
	fprintf(f, "\"samples\": %" PRIu64 ", ", l->samples);
	gen_json_num(f, "min", l->min_ns, ", ");
	gen_json_num(f, "mean", l->mean_ns, ", ");
	gen_json_num(f, "p50", l->p50_ns, ", ");
	gen_json_num(f, "p90", l->p90_ns, ", ");
	gen_json_num(f, "p99", l->p99_ns, ", ");
	gen_json_num(f, "p99.9", l->p999_ns, ", ");
	gen_json_num(f, "max", l->max_ns, "}}");
}
