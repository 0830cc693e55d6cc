/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * config save and config reload (cli/config_file.c), and the difference
 * a reload applies (cli/config_diff.c).
 */
#ifndef LSK_CLI_CONFIG_DIFF_H
#define LSK_CLI_CONFIG_DIFF_H

#include <stddef.h>

#include "cli/cli.h"

struct lsk_config_diff_counts {
	unsigned int added, removed, changed;
};

/*
 * The commands, one a line, appended to o, of the one batch that turns
 * the configuration `running` (a `show config` text) into `wanted` (the
 * same of the file to load), touching nothing the two share; n counts
 * the lines added, removed and changed. 0, or -ENOMEM.
 */
int lsk_config_diff(const char *running, const char *wanted,
		    struct lsk_out *o, struct lsk_config_diff_counts *n);

/*
 * Write len bytes of text to path atomically: a temporary file in the
 * same directory, written, fsync'ed, then renamed over path (whose mode
 * it keeps; 0644 for a new file), and the directory fsync'ed. On
 * failure path is as it was and the temporary file gone. 0 or -errno.
 */
int lsk_config_write_atomic(const char *path, const char *text, size_t len);

#endif /* LSK_CLI_CONFIG_DIFF_H */
