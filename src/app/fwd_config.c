/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-fwd's configuration file (--config): loaded at start, where an
 * empty or missing file is an error unless --allow-empty-config (a router
 * that starts with no address because `show config > FILE` met a router
 * that was down must not start silently), and reloaded on SIGHUP, as
 * `config reload` does (docs/configuration.md, "Save and reload").
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <rte_lcore.h>

#include "listack/ctl.h"
#include "listack/listack.h"
#include "fwd.h"
#include "fwd_opts.h"

volatile sig_atomic_t fwd_reload_asked;

/* 1 when path has a line other than blanks and comments, 0 when not,
 * -errno when it cannot be read. */
static int
has_commands(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	int found = 0;

	if (f == NULL)
		return -errno;
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		const char *p = line + strspn(line, " \t\r\n");

		found = *p != '\0' && *p != '#';
	}
	fclose(f);
	return found;
}

int
fwd_config_load(struct lsk_stack *s, const struct fwd_opts *o)
{
	char err[512];
	struct stat st;
	int rc;

	rc = stat(o->config, &st) < 0 ? -errno : 0;
	if (rc == 0 && S_ISREG(st.st_mode)) {
		rc = has_commands(o->config);
		if (rc == 0 && !o->allow_empty_config) {
			fprintf(stderr, "%s:0: no configuration in it (give "
				"--allow-empty-config to start with none)\n",
				o->config);
			return -ENODATA;
		}
	} else if (rc == -ENOENT && o->allow_empty_config) {
		printf("listack-fwd: %s does not exist: starting with no "
		       "configuration (--allow-empty-config)\n", o->config);
		return lsk_config_set_path(s, o->config);
	}
	rc = lsk_config_load(s, o->config, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "%s%s\n", err, rc == -ENOENT ?
			" (give --allow-empty-config to start with none)" : "");
		return rc;
	}
	return lsk_config_set_path(s, o->config);
}

void
fwd_config_reload(struct fwd_app *app)
{
	char msg[768];
	int rc;

	fwd_reload_asked = 0;
	/* a main lcore that polls is the worker a table change waits for */
	if (rte_lcore_count() == 1)
		lsk_worker_offline(app->workers[0].w);
	lsk_stack_lock(app->stack);
	rc = lsk_config_reload(app->stack, NULL, msg, sizeof(msg));
	lsk_stack_unlock(app->stack);
	if (rc < 0)
		fprintf(stderr, "listack-fwd: SIGHUP: reload refused, nothing "
			"changed: %s\n", msg);
	else
		printf("listack-fwd: SIGHUP: reloaded %s\n", msg);
	fflush(stdout);
	fflush(stderr);
}
