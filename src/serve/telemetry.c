/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPDK telemetry serves the same counters as --stats-json, read live:
 *   dpdk-telemetry.py -> /listack/stats
 * Telemetry callbacks take no argument, so one stack per process is served.
 * The callback runs on DPDK's telemetry thread: it reads the stack and its
 * workers under tel_lock, and teardown takes the lock before it frees them.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include <rte_telemetry.h>

#include "control/control.h"

static pthread_mutex_t tel_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct lsk_stack *served_stack;	/* under tel_lock */
/* DPDK keeps a command once registered (and lists it again if asked
 * again): registered once per process, whatever stack is served */
static bool tel_registered;			/* under tel_lock */

static struct rte_tel_data *
tel_stages(const struct lsk_stats *st)
{
	struct rte_tel_data *d = rte_tel_data_alloc();
	unsigned int i;

	if (d == NULL)
		return NULL;
	rte_tel_data_start_dict(d);
	for (i = 0; i < LSK_STAGE_COUNT; i++) {
		char name[64];

		snprintf(name, sizeof(name), "%s_packets", lsk_stage_name(i));
		rte_tel_data_add_dict_u64(d, name, st->stages[i].packets);
		snprintf(name, sizeof(name), "%s_calls", lsk_stage_name(i));
		rte_tel_data_add_dict_u64(d, name, st->stages[i].calls);
		snprintf(name, sizeof(name), "%s_cycles", lsk_stage_name(i));
		rte_tel_data_add_dict_u64(d, name, st->stages[i].cycles);
	}
	return d;
}

static void
tel_add(struct rte_tel_data *d, const char *name, struct rte_tel_data *sub)
{
	if (sub != NULL && rte_tel_data_add_dict_container(d, name, sub, 0) < 0)
		rte_tel_data_free(sub);
}

/* One dict per MIB section, as in the stats file. */
static void
tel_sections(struct rte_tel_data *d, const struct lsk_stats *st)
{
	const struct lsk_counter_desc *c;
	struct rte_tel_data *sec = NULL;
	unsigned int i, n;

	c = lsk_counters(&n);
	for (i = 0; i < n; i++) {
		if (i == 0 || strcmp(c[i - 1].section, c[i].section) != 0) {
			if (sec != NULL)
				tel_add(d, c[i - 1].section, sec);
			sec = rte_tel_data_alloc();
			if (sec == NULL)
				return;
			rte_tel_data_start_dict(sec);
		}
		rte_tel_data_add_dict_u64(sec, c[i].name,
					  lsk_counter_value(st, &c[i]));
	}
	if (sec != NULL)
		tel_add(d, c[n - 1].section, sec);
}

static int
tel_stats(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct lsk_stats st;
	int rc;

	(void)cmd;
	(void)params;
	pthread_mutex_lock(&tel_lock);
	rc = served_stack == NULL ? -ENODEV : lsk_stats_read(served_stack, &st);
	pthread_mutex_unlock(&tel_lock);
	if (rc < 0)
		return -ENODEV;
	rte_tel_data_start_dict(d);
	tel_sections(d, &st);
	tel_add(d, "stages", tel_stages(&st));
	return 0;
}

static void
tel_forget(const struct lsk_stack *stack)
{
	pthread_mutex_lock(&tel_lock);
	if (served_stack == stack)
		served_stack = NULL;
	pthread_mutex_unlock(&tel_lock);
}

static void
tel_quiesce(void)
{
	/* a read that found the worker still listed ends before we return */
	pthread_mutex_lock(&tel_lock);
	pthread_mutex_unlock(&tel_lock);
}

static const struct lsk_stack_reader tel_reader = {
	.forget = tel_forget,
	.quiesce = tel_quiesce,
};

int
lsk_telemetry_register(const struct lsk_stack *stack)
{
	bool first;
	int rc;

	lsk_stack_reader_set(&tel_reader);
	pthread_mutex_lock(&tel_lock);
	first = !tel_registered;
	tel_registered = true;
	served_stack = stack;
	pthread_mutex_unlock(&tel_lock);
	if (!first)
		return 0;
	rc = rte_telemetry_register_cmd("/listack/stats", tel_stats,
					"listack counters (as --stats-json)");
	if (rc < 0) {
		pthread_mutex_lock(&tel_lock);
		tel_registered = false;
		pthread_mutex_unlock(&tel_lock);
	}
	return rc;
}
