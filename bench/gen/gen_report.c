/* SPDX-License-Identifier: BSD-3-Clause */
/* The generator's table, markdown table and --json FILE (gen_report.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gen_report.h"

static void
rate_summary(const struct gen_search_run *run, const struct gen_rate_result *r,
	     struct gen_rate_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->limit = r->limit;
	if (r->trial < 0 || (unsigned int)r->trial >= run->n_trials)
		return;
	out->found = true;
	out->pps = r->rate_pps;
	out->loss_ratio = r->loss_ratio;
	out->verified = r->verified;
}

void
gen_summary_from_run(const struct gen_search_run *run, const char *device,
		     struct gen_summary *s)
{
	unsigned int i, k;

	memset(s, 0, sizeof(*s));
	snprintf(s->device, sizeof(s->device), "%s", device ? device : "");
	s->kind = run->params.kind;
	s->n_sizes = run->n_sizes;
	for (i = 0; i < run->n_sizes; i++) {
		const struct gen_size_result *sr = &run->sizes[i];
		struct gen_size_summary *ss = &s->sizes[i];

		ss->size = sr->size;
		ss->has_mrr = sr->mrr_trial >= 0;
		ss->mrr_pps = sr->mrr_pps;
		ss->mrr_limit = sr->mrr_limit;
		rate_summary(run, &sr->ndr, &ss->ndr);
		rate_summary(run, &sr->pdr, &ss->pdr);
		for (k = 0; k < sr->n_lat; k++) {
			const struct gen_trial_result *r;

			if (sr->lat[k].trial < 0 ||
			    (unsigned int)sr->lat[k].trial >= run->n_trials)
				continue;
			r = &run->trials[sr->lat[k].trial].res;
			ss->lat[ss->n_lat].share = sr->lat[k].share;
			ss->lat[ss->n_lat].pps = sr->lat[k].rate_pps;
			ss->lat[ss->n_lat].lost = r->lost;
			ss->lat[ss->n_lat].lat = r->latency;
			ss->n_lat++;
		}
	}
}

static void
load_text(double share, char *buf, size_t len)
{
	if (share <= 0)
		snprintf(buf, len, "min");
	else
		snprintf(buf, len, "%.0f%%", share * 100);
}

/* Who set the limit; with no rate found ("-"), who stopped the lowest
 * trial. */
static const char *
limit_text(const struct gen_rate_summary *r)
{
	return gen_limit_name(r->limit);
}

static void
rate_cells(FILE *f, uint16_t size, const struct gen_rate_summary *r)
{
	if (!r->found) {
		fprintf(f, " %9s %9s %9s", "-", "-", "-");
		return;
	}
	fprintf(f, " %9.4f %9.3f %9.3f", r->pps / 1e6,
		gen_l1_bps(size, r->pps) / 1e9, gen_l2_bps(size, r->pps) / 1e9);
}

void
gen_report_table(FILE *f, const struct gen_summary *s)
{
	char sz[8], load[8], title[32];
	unsigned int i, k;

	fprintf(f, "\ndevice %s, search %s\n", s->device[0] ? s->device :
		"(unnamed)", gen_search_kind_name(s->kind));
	fprintf(f, "%-5s %9s %-9s | %9s %9s %9s %9s %-10s | %9s %9s %9s "
		"%-10s\n", "size", "MRR Mpps", "MRR limit", "NDR Mpps",
		"Gbit/s L1", "Gbit/s L2", "loss", "NDR limit", "PDR Mpps",
		"Gbit/s L1", "Gbit/s L2", "PDR limit");
	for (i = 0; i < s->n_sizes; i++) {
		const struct gen_size_summary *ss = &s->sizes[i];

		gen_size_text(ss->size, sz, sizeof(sz));
		if (ss->has_mrr)
			fprintf(f, "%-5s %9.4f %-9s |", sz, ss->mrr_pps / 1e6,
				gen_limit_name(ss->mrr_limit));
		else
			fprintf(f, "%-5s %9s %-9s |", sz, "-", "-");
		rate_cells(f, ss->size, &ss->ndr);
		if (ss->ndr.found)
			fprintf(f, " %8.4f%%", ss->ndr.loss_ratio * 100);
		else
			fprintf(f, " %9s", "-");
		fprintf(f, " %-10s |", s->kind == GEN_SEARCH_NDR ?
			limit_text(&ss->ndr) : "-");
		rate_cells(f, ss->size, &ss->pdr);
		fprintf(f, " %-10s\n", s->kind != GEN_SEARCH_MRR ?
			limit_text(&ss->pdr) : "-");
	}
	fprintf(f, "Gbit/s L1 counts 20 B of preamble and gap per frame, L2 "
		"the frames with FCS; limit: who stopped the search (device: "
		"a trial just above lost; generator: it could not offer "
		"more; max-rate: it passed there); '-': no rate passed\n");
	for (i = 0; i < s->n_sizes; i++) {
		const struct gen_size_summary *ss = &s->sizes[i];

		if (ss->n_lat == 0)
			continue;
		gen_size_text(ss->size, sz, sizeof(sz));
		snprintf(title, sizeof(title), "latency ns, %s B", sz);
		fprintf(f, "%-21s %-5s %9s %9s %9s %9s %9s %9s %8s\n", title,
			"load", "Mpps", "p50", "p90", "p99", "p99.9", "max",
			"lost");
		for (k = 0; k < ss->n_lat; k++) {
			const struct gen_lat_summary *l = &ss->lat[k];

			load_text(l->share, load, sizeof(load));
			fprintf(f, "%21s %-5s %9.4f %9.0f %9.0f %9.0f %9.0f "
				"%9.0f %8" PRIu64 "\n", "", load, l->pps / 1e6,
				l->lat.p50_ns, l->lat.p90_ns, l->lat.p99_ns,
				l->lat.p999_ns, l->lat.max_ns, l->lost);
		}
	}
	fflush(f);
}

void
gen_report_trial_line(FILE *f, const struct gen_search_trial *t)
{
	const struct gen_trial_result *r = &t->res;
	char sz[8];

	fprintf(f, "trial %3u %5s %-10s asked %10.0f pps offered %10.0f "
		"received %10.0f lost %" PRIu64 " (%.4f%%) %s\n", t->index,
		gen_size_text(t->size, sz, sizeof(sz)), gen_phase_name(t->phase),
		r->req.rate_pps, r->offered_pps, r->received_pps, r->lost,
		gen_loss_ratio(r) * 100, gen_verdict_name(t->verdict));
	fflush(f);
}

static void
md_rate(FILE *f, uint16_t size, const struct gen_rate_summary *r)
{
	if (!r->found)
		fprintf(f, " - | - | - |");
	else
		fprintf(f, " %.4f | %.3f | %s |", r->pps / 1e6,
			gen_l1_bps(size, r->pps) / 1e9, gen_limit_name(r->limit));
}

/* A name in a table cell: '|' would end the cell. */
static void
md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

void
gen_report_markdown(FILE *f, const struct gen_summary *s, unsigned int n)
{
	unsigned int d, i, k;
	char sz[8];

	fprintf(f, "| device | size | NDR Mpps | NDR Gbit/s L1 | NDR limit | "
		"PDR Mpps | PDR Gbit/s L1 | PDR limit | MRR Mpps | "
		"p50 / p99 ns at 10 %% NDR |\n");
	fprintf(f, "|---|---|---:|---:|---|---:|---:|---|---:|---:|\n");
	for (d = 0; d < n; d++) {
		for (i = 0; i < s[d].n_sizes; i++) {
			const struct gen_size_summary *ss = &s[d].sizes[i];
			const struct gen_lat_summary *l10 = NULL;

			fprintf(f, "| ");
			md_text(f, s[d].device);
			fprintf(f, " | %s |", gen_size_text(ss->size, sz,
							    sizeof(sz)));
			md_rate(f, ss->size, &ss->ndr);
			md_rate(f, ss->size, &ss->pdr);
			if (ss->has_mrr)
				fprintf(f, " %.4f |", ss->mrr_pps / 1e6);
			else
				fprintf(f, " - |");
			for (k = 0; k < ss->n_lat; k++)
				if (fabs(ss->lat[k].share - 0.1) < 1e-9)
					l10 = &ss->lat[k];
			if (l10 != NULL && l10->lat.samples)
				fprintf(f, " %.0f / %.0f |\n", l10->lat.p50_ns,
					l10->lat.p99_ns);
			else
				fprintf(f, " - |\n");
		}
	}
}

/* JSON output */

static void
jnum(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.17g", v);
	else
		fprintf(f, "null");
}

static void
jstr(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void
jsize(FILE *f, uint16_t size)
{
	if (size == GEN_SIZE_IMIX)
		fprintf(f, "\"imix\"");
	else
		fprintf(f, "%u", size);
}

static void
json_rate(FILE *f, const char *name, uint16_t size,
	  const struct gen_rate_result *r, bool present)
{
	fprintf(f, ", \"%s\": ", name);
	if (!present) {
		fprintf(f, "null");
		return;
	}
	fprintf(f, "{\"pps\": ");
	jnum(f, r->trial >= 0 ? r->rate_pps : 0);
	fprintf(f, ", \"mpps\": ");
	jnum(f, r->trial >= 0 ? r->rate_pps / 1e6 : 0);
	fprintf(f, ", \"gbit_s_l1\": ");
	jnum(f, r->trial >= 0 ? gen_l1_bps(size, r->rate_pps) / 1e9 : 0);
	fprintf(f, ", \"gbit_s_l2\": ");
	jnum(f, r->trial >= 0 ? gen_l2_bps(size, r->rate_pps) / 1e9 : 0);
	fprintf(f, ", \"loss_ratio\": ");
	jnum(f, r->loss_ratio);
	fprintf(f, ", \"limit\": \"%s\", \"verified\": %s, \"trial\": %d, "
		"\"fail_trial\": %d}", gen_limit_name(r->limit),
		r->verified ? "true" : "false", r->trial, r->fail_trial);
}

static void
json_latency(FILE *f, const struct gen_latency *l)
{
	fprintf(f, "\"samples\": %" PRIu64 ", \"min_ns\": ", l->samples);
	jnum(f, l->min_ns);
	fprintf(f, ", \"mean_ns\": ");
	jnum(f, l->mean_ns);
	fprintf(f, ", \"p50_ns\": ");
	jnum(f, l->p50_ns);
	fprintf(f, ", \"p90_ns\": ");
	jnum(f, l->p90_ns);
	fprintf(f, ", \"p99_ns\": ");
	jnum(f, l->p99_ns);
	fprintf(f, ", \"p999_ns\": ");
	jnum(f, l->p999_ns);
	fprintf(f, ", \"max_ns\": ");
	jnum(f, l->max_ns);
}

static void
json_size(FILE *f, const struct gen_search_run *run,
	  const struct gen_size_result *sr)
{
	enum gen_search_kind kind = run->params.kind;
	char load[8];
	unsigned int k;

	fprintf(f, "  {\"size\": ");
	jsize(f, sr->size);
	fprintf(f, ", \"mean_frame_bytes\": ");
	jnum(f, gen_size_mean(sr->size));
	fprintf(f, ", \"high_pps\": ");
	jnum(f, sr->high_pps);
	fprintf(f, ",\n   \"mrr\": ");
	if (sr->mrr_trial >= 0) {
		fprintf(f, "{\"pps\": ");
		jnum(f, sr->mrr_pps);
		fprintf(f, ", \"mpps\": ");
		jnum(f, sr->mrr_pps / 1e6);
		fprintf(f, ", \"limit\": \"%s\", \"trial\": %d}",
			gen_limit_name(sr->mrr_limit), sr->mrr_trial);
	} else {
		fprintf(f, "null");
	}
	json_rate(f, "ndr", sr->size, &sr->ndr, kind == GEN_SEARCH_NDR);
	json_rate(f, "pdr", sr->size, &sr->pdr, kind != GEN_SEARCH_MRR);
	fprintf(f, ",\n   \"latency\": [");
	for (k = 0; k < sr->n_lat; k++) {
		const struct gen_latency_point *lp = &sr->lat[k];
		const struct gen_trial_result *r = &run->trials[lp->trial].res;

		load_text(lp->share, load, sizeof(load));
		fprintf(f, "%s\n    {\"load\": \"%s\", \"share\": ",
			k ? "," : "", load);
		jnum(f, lp->share);
		fprintf(f, ", \"pps\": ");
		jnum(f, lp->rate_pps);
		fprintf(f, ", \"trial\": %d, \"lost\": %" PRIu64 ", ",
			lp->trial, r->lost);
		json_latency(f, &r->latency);
		fprintf(f, "}");
	}
	fprintf(f, "]}");
}

static void
json_trial(FILE *f, const struct gen_search_trial *t)
{
	const struct gen_trial_result *r = &t->res;

	fprintf(f, "  {\"index\": %u, \"size\": ", t->index);
	jsize(f, t->size);
	fprintf(f, ", \"phase\": \"%s\", \"verdict\": \"%s\", \"share\": ",
		gen_phase_name(t->phase), gen_verdict_name(t->verdict));
	jnum(f, t->share);
	fprintf(f, ",\n   \"request\": {\"rate_pps\": ");
	jnum(f, r->req.rate_pps);
	fprintf(f, ", \"seconds\": ");
	jnum(f, r->req.seconds);
	fprintf(f, ", \"size\": ");
	jsize(f, r->req.size);
	fprintf(f, ", \"flows\": %u},\n   \"offered_pps\": ", r->req.flows);
	jnum(f, r->offered_pps);
	fprintf(f, ", \"received_pps\": ");
	jnum(f, r->received_pps);
	fprintf(f, ", \"sent\": %" PRIu64 ", \"refused\": %" PRIu64
		", \"received\": %" PRIu64 ", \"lost\": %" PRIu64
		", \"loss_ratio\": ", r->sent, r->refused, r->received,
		r->lost);
	jnum(f, gen_loss_ratio(r));
	fprintf(f, ", \"reordered\": %" PRIu64 ", \"duplicates\": %" PRIu64
		", \"foreign\": %" PRIu64 ", \"stale\": %" PRIu64
		", \"late\": %" PRIu64 ", \"scheduled\": %" PRIu64
		", \"flows_with_loss\": %" PRIu64 ", \"max_flow_loss\": %"
		PRIu64 ", \"generator_limited\": %s, \"elapsed_s\": ",
		r->reordered, r->duplicates, r->foreign, r->stale, r->late,
		r->scheduled, r->flows_with_loss, r->max_flow_loss,
		r->generator_limited ? "true" : "false");
	jnum(f, r->elapsed_s);
	fprintf(f, ", \"max_lag_us\": ");
	jnum(f, r->max_lag_us);
	fprintf(f, ",\n   \"latency\": {");
	json_latency(f, &r->latency);
	fprintf(f, "}}");
}

int
gen_report_json(const char *path, const struct gen_search_run *run,
		const char *device)
{
	const struct gen_search_params *p = &run->params;
	FILE *f = fopen(path, "w");
	unsigned int i;
	int rc = 0;

	if (f == NULL) {
		rc = -errno;
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return rc;
	}
	fprintf(f, "{\"mode\": \"generate\", \"version\": 1, \"search\": "
		"\"%s\", \"device\": ", gen_search_kind_name(p->kind));
	jstr(f, device ? device : "");
	fprintf(f, ",\n \"params\": {\"flows\": %u, \"trial_s\": ", p->flows);
	jnum(f, p->trial_seconds);
	fprintf(f, ", \"resolution_pps\": ");
	if (p->resolution_is_share)
		fprintf(f, "null, \"resolution_share\": ");
	jnum(f, p->resolution);
	if (!p->resolution_is_share)
		fprintf(f, ", \"resolution_share\": null");
	fprintf(f, ", \"pdr_loss\": ");
	jnum(f, p->pdr_loss);
	fprintf(f, ", \"max_rate_pps\": ");
	jnum(f, p->max_rate_pps);
	fprintf(f, ", \"min_rate_pps\": ");
	jnum(f, p->min_rate_pps);
	fprintf(f, ", \"verify\": %s, \"latency_s\": ", p->verify ? "true" :
		"false");
	jnum(f, p->latency_seconds);
	fprintf(f, ", \"latency_min_pps\": ");
	jnum(f, p->latency_min_pps);
	fprintf(f, "},\n \"sizes\": [\n");
	for (i = 0; i < run->n_sizes; i++) {
		json_size(f, run, &run->sizes[i]);
		fprintf(f, "%s\n", i + 1 < run->n_sizes ? "," : "");
	}
	fprintf(f, " ],\n \"trials\": [\n");
	for (i = 0; i < run->n_trials; i++) {
		json_trial(f, &run->trials[i]);
		fprintf(f, "%s\n", i + 1 < run->n_trials ? "," : "");
	}
	fprintf(f, " ]}\n");
	if (ferror(f))
		rc = -EIO;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc < 0)
		fprintf(stderr, "%s: %s\n", path, strerror(-rc));
	return rc;
}
