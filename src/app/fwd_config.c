/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-fwd's configuration file (--config): loaded at start, where an
 * empty or missing file is an error unless --allow-empty-config (a router
 * that starts with no address because `show config > FILE` met a router
 * that was down must not start silently), and reloaded on SIGHUP, as
 * `config reload` does (docs/configuration.md, "Save and reload").
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <rte_lcore.h>

#include "listack/ctl.h"
#include "listack/listack.h"
#include "fwd.h"
#include "fwd_notify.h"
#include "fwd_opts.h"

volatile sig_atomic_t fwd_reload_asked;

int
fwd_config_load(struct lsk_stack *s, const struct fwd_opts *o)
{
	char err[4096];	/* every bad line (listack.h) */
	struct stat st;
	int rc;

	rc = stat(o->config, &st) < 0 ? -errno : 0;
	if (rc == 0 && S_ISREG(st.st_mode)) {
		rc = lsk_config_file_has_commands(o->config);
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

struct reload_job {
	struct fwd_app *app;
	volatile bool done;
	int rc;
	char msg[4096];
};

static void *
reload_thread(void *arg)
{
	struct reload_job *j = arg;

	lsk_stack_lock(j->app->stack);
	j->rc = lsk_config_reload(j->app->stack, NULL, j->msg, sizeof(j->msg));
	lsk_stack_unlock(j->app->stack);
	__atomic_store_n(&j->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * The reload runs on a thread of its own, as a listack-ctl's would on
 * the control socket's: a table change waits for every worker to pass a
 * quiescent state, and a port's new MTU for each to finish its pass
 * (main.c, device_mtu_set). A main lcore that is the only worker keeps
 * polling meanwhile; one that is not just waits.
 */
void
fwd_config_reload(struct fwd_app *app)
{
	struct reload_job j = { .app = app };
	bool polling = rte_lcore_count() == 1;
	pthread_t t;

	fwd_reload_asked = 0;
	/* systemd's reload waits for READY=1 again (ExecReload) */
	fwd_notify_reloading();
	if (pthread_create(&t, NULL, reload_thread, &j) != 0) {
		fprintf(stderr, "listack-fwd: SIGHUP: no thread to reload "
			"with\n");
		fwd_notify_ready(app->n_ports, app->n_workers);
		return;
	}
	while (!__atomic_load_n(&j.done, __ATOMIC_ACQUIRE)) {
		struct timespec ts = { 0, 100 * 1000L };

		if (polling)
			fwd_worker_poll(&app->workers[0]);
		else
			nanosleep(&ts, NULL);
	}
	pthread_join(t, NULL);
	if (j.rc < 0)
		fprintf(stderr, "listack-fwd: SIGHUP: reload refused, nothing "
			"changed: %s\n", j.msg);
	else
		printf("listack-fwd: SIGHUP: reloaded %s\n", j.msg);
	fflush(stdout);
	fflush(stderr);
	fwd_notify_ready(app->n_ports, app->n_workers);
}
