/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generator's results: the table on stdout, --json FILE (every trial
 * and the summaries), the summaries read back from such files (for
 * --from, several devices in one plot and one table), and the combined
 * markdown table.
 *
 * JSON schema (version 1; numbers are JSON numbers, a rate in frames per
 * second; a size is 64 .. 1518 or the string "imix"; a limit is "device",
 * "generator", "max-rate" or "none"; trial and fail_trial index "trials",
 * -1 for none; a verdict "limited": the generator fell short and frames
 * were lost, "limited-pass": it fell short and the device took all it
 * offered, the rate that passed is then offered_pps):
 *
 * {"mode": "generate", "version": 1, "search": "ndr|pdr|mrr",
 *  "device": "NAME",
 *  "params": {"flows": F, "trial_s": S, "resolution_pps": R | null,
 *             "resolution_share": X | null, "pdr_loss": 0.005,
 *             "max_rate_pps": P (0: from the MRR offer),
 *             "min_rate_pps": P, "verify": true, "latency_s": S,
 *             "latency_min_pps": P},
 *  "sizes": [{"size": 64, "mean_frame_bytes": 64,
 *             "high_pps": P,
 *             "mrr": {"pps", "mpps", "limit", "trial"} | null,
 *             "ndr": {"pps", "mpps", "gbit_s_l1", "gbit_s_l2",
 *                     "loss_ratio", "limit", "verified", "trial",
 *                     "fail_trial"} | null,
 *             "pdr": {... as ndr} | null,
 *             "latency": [{"load": "min|10%|50%|90%", "share": 0.1,
 *                          "pps", "trial", "lost", "samples", "p50_ns",
 *                          "p90_ns", "p99_ns", "p999_ns", "max_ns"}]}],
 *  "trials": [{"index", "size", "phase": "mrr|ndr|pdr|verify-ndr|
 *              verify-pdr|latency", "verdict": "none|pass|fail|
 *              limited|limited-pass", "share",
 *              "request": {"rate_pps", "seconds", "size", "flows"},
 *              "offered_pps", "received_pps", "sent", "refused",
 *              "received", "lost", "loss_ratio", "reordered",
 *              "duplicates", "foreign", "stale", "late", "scheduled",
 *              "flows_with_loss", "max_flow_loss",
 *              "generator_limited", "elapsed_s", "max_lag_us",
 *              "latency": {"samples", "min_ns", "mean_ns", "p50_ns",
 *                          "p90_ns", "p99_ns", "p999_ns", "max_ns"}}]}
 */
#ifndef LSK_BENCH_GEN_REPORT_H
#define LSK_BENCH_GEN_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "search.h"

#define GEN_DEVICE_LEN 64
#define GEN_MAX_DEVICES 16		/* files --from reads */
#define GEN_JSON_MAX_BYTES (16u << 20)

struct gen_rate_summary {
	bool found;
	double pps;
	double loss_ratio;
	enum gen_limit limit;
	bool verified;
};

struct gen_lat_summary {
	double share;			/* 0: the minimal load */
	double pps;
	uint64_t lost;
	struct gen_latency lat;
};

struct gen_size_summary {
	uint16_t size;
	bool has_mrr;
	double mrr_pps;
	enum gen_limit mrr_limit;
	struct gen_rate_summary ndr, pdr;
	struct gen_lat_summary lat[GEN_LAT_POINTS];
	unsigned int n_lat;
};

/* What one run found, for a device: what a plot and a table show. */
struct gen_summary {
	char device[GEN_DEVICE_LEN];
	enum gen_search_kind kind;
	struct gen_size_summary sizes[GEN_SEARCH_MAX_SIZES];
	unsigned int n_sizes;
};

void gen_summary_from_run(const struct gen_search_run *run,
			  const char *device, struct gen_summary *s);

/* The table of one run (stdout). */
void gen_report_table(FILE *f, const struct gen_summary *s);
/* One line per trial, as the search goes. */
void gen_report_trial_line(FILE *f, const struct gen_search_trial *t);
/* A markdown table of several runs, one row per device and size. */
void gen_report_markdown(FILE *f, const struct gen_summary *s, unsigned int n);

/* --json FILE; 0 or a negative errno (said on stderr). */
int gen_report_json(const char *path, const struct gen_search_run *run,
		    const char *device);

/*
 * Read back the summaries of a file gen_report_json wrote (at most
 * GEN_JSON_MAX_BYTES). 0, or a negative errno with the reason in err.
 */
int gen_report_read(const char *path, struct gen_summary *s, char *err,
		    size_t err_len);
/* The same from text in memory (len bytes, need not end in NUL). */
int gen_report_parse(const char *text, size_t len, struct gen_summary *s,
		     char *err, size_t err_len);

#endif /* LSK_BENCH_GEN_REPORT_H */
