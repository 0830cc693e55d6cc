/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-bench as a generator (--generate): what the sending and
 * receiving side (one trial at one offered rate) and the searches and
 * reports above it share.
 *
 * A trial offers frames of one size (or IMIX) over F flows at a TSC-paced
 * rate for a fixed time, then waits a short drain time for what is still
 * in flight, and says what came back: per-flow loss, reordering,
 * duplicates, and a latency histogram. A search (NDR, PDR, MRR) is a
 * sequence of trials; it only sees struct gen_trial_result.
 *
 * Frame sizes count the FCS, as RFC 2544 does: a 64-byte frame is 60
 * bytes in the mbuf. GEN_SIZE_IMIX stands for 28 x 64, 16 x 570 and
 * 4 x 1518 in every 48 frames.
 */
#ifndef LSK_BENCH_GEN_H
#define LSK_BENCH_GEN_H

#include <stdbool.h>
#include <stdint.h>

#define GEN_SIZE_IMIX 0
#define GEN_MIN_SIZE 64
#define GEN_MAX_SIZE 1518
#define GEN_FCS_LEN 4

/* Latency percentiles of one trial, nanoseconds; all 0 when no frame
 * carried a timestamp back. */
struct gen_latency {
	uint64_t samples;
	double min_ns, mean_ns, p50_ns, p90_ns, p99_ns, p999_ns, max_ns;
};

struct gen_trial_request {
	double rate_pps;		/* offered frames per second; 0 = as
					 * fast as the generator can (MRR) */
	double seconds;			/* sending time */
	uint16_t size;			/* 64 .. 1518 or GEN_SIZE_IMIX */
	uint32_t flows;
};

struct gen_trial_result {
	struct gen_trial_request req;
	double offered_pps;		/* rate the generator kept up, frames
					 * handed to the port per second */
	double received_pps;		/* frames of the trial back per second
					 * of sending time */
	uint64_t sent;			/* frames handed to the port */
	uint64_t refused;		/* frames the port's TX refused: the
					 * wire or the device's RX was full;
					 * counted as lost */
	uint64_t received;		/* frames of this trial back, each
					 * counted once */
	uint64_t lost;			/* sent + refused - received */
	uint64_t reordered;		/* came back behind a later one */
	uint64_t duplicates;		/* came back again */
	uint64_t foreign;		/* frames without our signature, or
					 * of an earlier trial */
	/* The generator could not keep the schedule (its CPU, not the
	 * device, set the rate): the trial says nothing of the device. */
	bool generator_limited;
	struct gen_latency latency;
	/* added by the generator (gen_trial.c); a model device may leave
	 * them 0 */
	uint64_t scheduled;		/* frames the schedule asked for over
					 * the sending time (0 at rate 0) */
	uint64_t late;			/* came back more than the checker's
					 * window behind: counted received
					 * and reordered (bench/gen/gen_seq.h) */
	double elapsed_s;		/* sending time as it was */
	double max_lag_us;		/* worst lag behind the schedule */
	uint64_t stale;			/* of foreign: our signature, an
					 * earlier trial's tag */
	uint64_t flows_with_loss;	/* flows that lost any frame */
	uint64_t max_flow_loss;		/* the most frames one flow lost */
};

/* Loss as a share of what was offered, 0 .. 1. */
static inline double
gen_loss_ratio(const struct gen_trial_result *r)
{
	uint64_t offered = r->sent + r->refused;

	return offered ? (double)r->lost / (double)offered : 0.0;
}

/*
 * One trial. Returns 0 and fills *res, or a negative errno (the ports
 * failed; the search stops). The generator side implements it
 * (gen_trial.c); the searches take it as a function so that they can be
 * tested against a model device.
 */
typedef int (*gen_trial_fn)(void *ctx, const struct gen_trial_request *req,
			    struct gen_trial_result *res);

#endif /* LSK_BENCH_GEN_H */
