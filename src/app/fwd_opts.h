/* SPDX-License-Identifier: BSD-3-Clause */
/* listack-fwd's own options, after EAL's and "--" (src/app/fwd_opts.c). */
#ifndef LSK_FWD_OPTS_H
#define LSK_FWD_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "listack/listack.h"

/* --mbufs: more than any EAL memory could hold is a typo */
#define FWD_MBUFS_MAX (1u << 28)
/* --mbuf-size: an mbuf's data room (and its headroom) is 16 bits; less
 * than a frame of 1500 bytes would cut every packet into segments */
#define FWD_MBUF_SIZE_MIN 1518
#define FWD_MBUF_SIZE_MAX (65535u - 128)

struct fwd_opts {
	const char *config;
	bool allow_empty_config;	/* else an empty --config is an error */
	enum lsk_mode mode;
	const char *stats_json;
	double stats_interval;	/* seconds, 0 = off */
	long idle_exit_ms;	/* -1 = off */
	unsigned int mbufs;	/* per pool; 0 = sized from the ports */
	unsigned int mbuf_size;	/* data bytes per mbuf; 0 = DPDK's 2048 */
	unsigned int rx_burst;	/* frames per RX poll of a queue */
	const char *ctl_socket;	/* NULL: none */
	bool ctl_explicit;	/* given on the command line */
	char metrics_addr[64];	/* "" = no metrics */
	uint16_t metrics_port;
};

/* The usage lines, on f (stderr after a bad option; stdout for --help:
 * every option, and how to see EAL's). */
void fwd_usage(const char *prog, FILE *f, bool all);
/*
 * --version, --help and --eal-help, looked for before EAL parses argv:
 * 0 when main should go on (argv may be changed: --eal-help becomes
 * EAL's --help), 1 when it printed what was asked and is done.
 */
int fwd_early_opts(int argc, char **argv);
/*
 * argv[0..argc) (argv[0] the program) into *o, defaults first. A bad
 * option or argument is said on stderr: -EINVAL.
 */
int fwd_parse_opts(int argc, char **argv, struct fwd_opts *o);

#endif /* LSK_FWD_OPTS_H */
