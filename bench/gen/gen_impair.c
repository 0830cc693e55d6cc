/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-bench --impair: a device under test that spoils the
 * generator's traffic on purpose, deterministically, and counts what it
 * did, so that the generator's loss, reordering and duplicate counts can
 * be checked exactly.
 *
 *   listack-bench [EAL options with 2 ports] -- --impair drop=D,swap=S,dup=U
 *       [--seconds S] [--json FILE]
 *
 * Frames from port 0 go out of port 1 and back, as testpmd io does. Of
 * the frames from port 0 that carry the generator's stamp (gen_frames.h),
 * numbered n = 1, 2, ... as they arrive, in this order of precedence:
 *   - a frame of a flow with a frame held: sent, then the held one after
 *     it (one reordered frame: `swapped`);
 *   - n % D == 0: dropped (`dropped`);
 *   - n % S == 0: held until the next frame of its flow (above);
 *   - n % U == 0: sent twice (`duplicated`).
 * A frame is in at most one of these, and a held frame's partner is
 * never dropped, held or duplicated, so each count is exactly what the
 * generator must find. A held frame whose flow sends nothing more for
 * GEN_IMPAIR_FLUSH_MS (the trial ended) is sent as it is (`flushed`: in
 * order, nothing to count). 0 turns an impairment off. A full TX ring is
 * waited for (send_out); frames it still refuses are counted
 * (`tx_refused`): losses the device did not choose, which void the
 * comparison.
 *
 * It stops on SIGINT/SIGTERM (or after --seconds), prints its counts,
 * writes --json FILE, and fails if any mbuf is still in use.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "gen_frames.h"
#include "gen_main.h"

#define IMP_BURST 32
#define IMP_MAX_HELD 4096
#define IMP_POOL 8191
#define IMP_TX_WAIT_MS 2000
#define GEN_IMPAIR_FLUSH_MS 5	/* below the generator's drain idle, 10 ms */

struct impair {
	uint64_t drop, swap, dup;	/* every n-th; 0 = off */
	struct rte_mempool *pool;
	uint32_t *slot;			/* [GEN_MAX_FLOWS]: held index + 1 */
	struct { uint32_t flow; struct rte_mbuf *m; } held[IMP_MAX_HELD];
	unsigned int n_held;
	/* counts */
	uint64_t frames, dropped, swapped, duplicated, flushed;
	uint64_t tx_refused, passed, no_mbuf;
};

static void
imp_on_signal(int sig)
{
	(void)sig;
	bench_signalled = 1;
}

static int
parse_spec(struct impair *im, const char *spec)
{
	char buf[128], *save = NULL, *tok;

	if (strlen(spec) >= sizeof(buf))
		goto bad;
	strcpy(buf, spec);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *end;
		unsigned long long v;
		uint64_t *dst;

		if (eq == NULL)
			goto bad;
		*eq = '\0';
		if (strcmp(tok, "drop") == 0)
			dst = &im->drop;
		else if (strcmp(tok, "swap") == 0)
			dst = &im->swap;
		else if (strcmp(tok, "dup") == 0)
			dst = &im->dup;
		else
			goto bad;
		errno = 0;
		v = strtoull(eq + 1, &end, 10);
		if (errno || end == eq + 1 || *end != '\0' || eq[1] == '-' ||
		    v == 1 || v > 1000000000ull)
			goto bad;
		*dst = v;
	}
	return 0;
bad:
	fprintf(stderr, "--impair: '%s' is not drop=N,swap=N,dup=N (every "
		"N-th stamped frame, N >= 2, 0 = off)\n", spec);
	return -EINVAL;
}

static int
port_start(struct impair *im, uint16_t port)
{
	struct rte_eth_conf conf;
	uint16_t nrx = 1024, ntx = 1024;
	int rc;

	memset(&conf, 0, sizeof(conf));
	rc = rte_eth_dev_configure(port, 1, 1, &conf);
	if (rc == 0)
		rc = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nrx, &ntx);
	if (rc == 0)
		rc = rte_eth_rx_queue_setup(port, 0, nrx,
					    rte_eth_dev_socket_id(port), NULL,
					    im->pool);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(port, 0, ntx,
					    rte_eth_dev_socket_id(port), NULL);
	if (rc == 0) {
		rte_eth_promiscuous_enable(port);
		rc = rte_eth_dev_start(port);
	}
	if (rc < 0)
		fprintf(stderr, "port %u: cannot start: %s\n", port,
			strerror(-rc));
	return rc;
}

static void
unhold(struct impair *im, unsigned int i)
{
	unsigned int last = im->n_held - 1;

	im->slot[im->held[i].flow] = 0;
	if (i != last) {
		im->held[i] = im->held[last];
		im->slot[im->held[i].flow] = i + 1;
	}
	im->n_held--;
}

/*
 * Send n frames of out on port. A full TX ring (the generator lost its
 * CPU for a while) is waited for, up to IMP_TX_WAIT_MS, rather than
 * dropped: meanwhile the device's own RX ring fills and the generator's
 * port refuses, which the generator counts. What is still refused then
 * is freed and counted (tx_refused).
 * Ownership: the function takes every mbuf of out.
 */
static void
send_out(struct impair *im, uint16_t port, struct rte_mbuf **out,
	 unsigned int n)
{
	uint64_t give_up = rte_rdtsc() + rte_get_tsc_hz() * IMP_TX_WAIT_MS /
				       1000;
	unsigned int done = 0;

	while (done < n) {
		uint16_t k = (uint16_t)RTE_MIN(n - done, 64u);
		uint16_t ret = rte_eth_tx_burst(port, 0, out + done, k);

		done += ret;
		if (ret < k && (rte_rdtsc() > give_up || bench_signalled)) {
			im->tx_refused += n - done;
			rte_pktmbuf_free_bulk(out + done, n - done);
			return;
		}
	}
}

/* One burst from port 0: impaired, out of port 1.
 * Ownership: the function takes every mbuf of in. */
static void
impair_burst(struct impair *im, struct rte_mbuf **in, uint16_t n)
{
	struct rte_mbuf *out[3 * IMP_BURST];
	unsigned int n_out = 0;
	struct gen_stamp st;
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = in[i], *copy;
		uint32_t h;

		if (!gen_stamp_read(m, &st) || st.signature != GEN_SIGNATURE ||
		    st.flow >= GEN_MAX_FLOWS) {
			out[n_out++] = m;
			im->passed++;
			continue;
		}
		im->frames++;
		h = im->slot[st.flow];
		if (h != 0) {
			out[n_out++] = m;
			out[n_out++] = im->held[h - 1].m;
			unhold(im, h - 1);
			im->swapped++;
		} else if (im->drop && im->frames % im->drop == 0) {
			rte_pktmbuf_free(m);
			im->dropped++;
		} else if (im->swap && im->frames % im->swap == 0 &&
			   im->n_held < IMP_MAX_HELD) {
			im->held[im->n_held].flow = st.flow;
			im->held[im->n_held].m = m;
			im->slot[st.flow] = ++im->n_held;
		} else if (im->dup && im->frames % im->dup == 0 &&
			   (copy = rte_pktmbuf_copy(m, im->pool, 0,
						    UINT32_MAX)) != NULL) {
			out[n_out++] = m;
			out[n_out++] = copy;
			im->duplicated++;
		} else {
			if (im->dup && im->frames % im->dup == 0)
				im->no_mbuf++;	/* the copy failed: sent once */
			out[n_out++] = m;
		}
	}
	send_out(im, 1, out, n_out);
}

static void
flush_held(struct impair *im)
{
	while (im->n_held > 0) {
		struct rte_mbuf *m = im->held[im->n_held - 1].m;

		unhold(im, im->n_held - 1);
		im->flushed++;
		send_out(im, 1, &m, 1);
	}
}

static void
report(const struct impair *im, const char *json, long long in_use)
{
	printf("impair: frames %" PRIu64 " dropped %" PRIu64 " swapped %"
	       PRIu64 " duplicated %" PRIu64 " flushed %" PRIu64
	       " tx_refused %" PRIu64 " passed %" PRIu64 " no_mbuf %" PRIu64
	       "\nmbufs in use after closing the ports: %lld\n", im->frames,
	       im->dropped, im->swapped, im->duplicated, im->flushed,
	       im->tx_refused, im->passed, im->no_mbuf, in_use);
	if (json != NULL) {
		FILE *f = fopen(json, "w");

		if (f == NULL) {
			fprintf(stderr, "--json %s: %s\n", json,
				strerror(errno));
			return;
		}
		fprintf(f, "{\"frames\": %" PRIu64 ", \"dropped\": %" PRIu64
			", \"swapped\": %" PRIu64 ", \"duplicated\": %" PRIu64
			", \"flushed\": %" PRIu64 ", \"tx_refused\": %" PRIu64
			", \"passed\": %" PRIu64 ", \"no_mbuf\": %" PRIu64
			", \"mbufs_in_use\": %lld}\n", im->frames,
			im->dropped, im->swapped, im->duplicated, im->flushed,
			im->tx_refused, im->passed, im->no_mbuf, in_use);
		fclose(f);
	}
}

static void
run(struct impair *im, double seconds)
{
	const uint64_t hz = rte_get_tsc_hz();
	const uint64_t flush = hz * GEN_IMPAIR_FLUSH_MS / 1000;
	uint64_t end = seconds > 0 ? rte_rdtsc() + (uint64_t)(seconds *
							       (double)hz) : 0;
	uint64_t last = rte_rdtsc(), now;
	struct rte_mbuf *in[IMP_BURST];
	uint16_t n;

	while (!bench_signalled) {
		now = rte_rdtsc();
		if (end && now >= end)
			break;
		n = rte_eth_rx_burst(0, 0, in, IMP_BURST);
		if (n) {
			impair_burst(im, in, n);
			last = now;
		} else if (im->n_held && now - last > flush) {
			flush_held(im);
		}
		n = rte_eth_rx_burst(1, 0, in, IMP_BURST);
		if (n) {
			im->passed += n;
			send_out(im, 0, in, n);
		}
	}
	flush_held(im);
}

int
gen_impair_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "impair", required_argument, NULL, 'i' },
		{ "seconds", required_argument, NULL, 't' },
		{ "json", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	static struct impair im;
	const char *json = NULL;
	double seconds = 0;
	long long in_use;
	char *end;
	int c, status = 0;

	memset(&im, 0, sizeof(im));
	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (parse_spec(&im, optarg) < 0)
				return 2;
			break;
		case 't':
			seconds = strtod(optarg, &end);
			if (*end != '\0' || !(seconds >= 0) || seconds > 3600) {
				fprintf(stderr, "--seconds: 0 (until a signal) "
					"to 3600\n");
				return 2;
			}
			break;
		case 'j':
			json = optarg;
			break;
		default:
			fprintf(stderr, "usage: listack-bench [EAL options "
				"with 2 ports] -- --impair drop=N,swap=N,dup=N "
				"[--seconds S] [--json FILE]\n");
			return 2;
		}
	}
	if (rte_eth_dev_count_avail() != 2) {
		fprintf(stderr, "--impair: 2 ports, the EAL gave %u\n",
			rte_eth_dev_count_avail());
		return 2;
	}
	signal(SIGINT, imp_on_signal);
	signal(SIGTERM, imp_on_signal);
	im.slot = calloc(GEN_MAX_FLOWS, sizeof(*im.slot));
	im.pool = rte_pktmbuf_pool_create("impair", IMP_POOL, 256, 0,
					  RTE_MBUF_DEFAULT_BUF_SIZE,
					  (int)rte_socket_id());
	if (im.slot == NULL || im.pool == NULL) {
		fprintf(stderr, "--impair: out of memory (-m 256)\n");
		free(im.slot);
		rte_mempool_free(im.pool);
		return 1;
	}
	if (port_start(&im, 0) < 0 || port_start(&im, 1) < 0) {
		status = 1;
	} else {
		printf("impair: drop every %" PRIu64 ", swap every %" PRIu64
		       ", duplicate every %" PRIu64 " (0: never)\n", im.drop,
		       im.swap, im.dup);
		fflush(stdout);
		run(&im, seconds);
	}
	rte_eth_dev_stop(0);
	rte_eth_dev_stop(1);
	rte_eth_dev_close(0);
	rte_eth_dev_close(1);
	in_use = (long long)rte_mempool_in_use_count(im.pool);
	report(&im, json, in_use);
	if (in_use != 0 || im.tx_refused != 0)
		status = 1;
	rte_mempool_free(im.pool);
	free(im.slot);
	return status;
}
