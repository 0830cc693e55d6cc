/* SPDX-License-Identifier: BSD-3-Clause */
/* listack-fwd's own options, after EAL's and "--" (src/app/fwd_opts.c). */
#ifndef LSK_FWD_OPTS_H
#define LSK_FWD_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "listack/listack.h"

/* --mbufs: more than any EAL memory could hold is a typo */
#define FWD_MBUFS_MAX (1u << 28)

struct fwd_opts {
	const char *config;
	bool allow_empty_config;	/* else an empty --config is an error */
	enum lsk_mode mode;
	const char *stats_json;
	double stats_interval;	/* seconds, 0 = off */
	long idle_exit_ms;	/* -1 = off */
	unsigned int mbufs;	/* per pool; 0 = sized from the ports */
	unsigned int rx_burst;	/* frames per RX poll of a queue */
	const char *ctl_socket;	/* NULL: none */
	bool ctl_explicit;	/* given on the command line */
	char metrics_addr[64];	/* "" = no metrics */
	uint16_t metrics_port;
};

/* The usage lines, on stderr. */
void fwd_usage(const char *prog);
/*
 * argv[0..argc) (argv[0] the program) into *o, defaults first. A bad
 * option or argument is said on stderr: -EINVAL.
 */
int fwd_parse_opts(int argc, char **argv, struct fwd_opts *o);

#endif /* LSK_FWD_OPTS_H */
