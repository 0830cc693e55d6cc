/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `config save [FILE]` and `config reload [FILE]` (docs/configuration.md,
 * "Save and reload"): FILE defaults to the file the stack was configured
 * from (lsk_config_set_path; listack-fwd's --config).
 *
 * Save writes `show config` atomically (lsk_config_write_atomic): the
 * file is the old one or the new one whole, never empty or half.
 *
 * Reload loads the file into a scratch stack first (every line checked
 * as at start, FILE:LINE on the first bad one, no service file opened),
 * reads both stacks' `show config` and applies the difference
 * (cli/config_diff.c) to the running stack as one batch: nothing that
 * is in both is touched, and a refused batch changes nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_lcore.h>

#include "control/control.h"
#include "cli/cmd.h"
#include "cli/config_diff.h"

int
lsk_config_set_path(struct lsk_stack *s, const char *path)
{
	char *p = NULL;

	if (path != NULL) {
		/* the process's directory now: a later save goes there */
		p = realpath(path, NULL);
		if (p == NULL)
			p = strdup(path);
		if (p == NULL)
			return -ENOMEM;
	}
	free(s->config_path);
	s->config_path = p;
	return 0;
}

static int
write_all(int fd, const char *text, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, text, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		text += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The directory's entry for the new file is on disk too. */
static void
sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (copy == NULL)
		return;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

int
lsk_config_write_atomic(const char *path, const char *text, size_t len)
{
	char *real = realpath(path, NULL);	/* a link's target is saved */
	const char *dst = real ? real : path;
	mode_t mode = 0644;
	struct stat st;
	char *tmp;
	int fd, rc;

	if (asprintf(&tmp, "%s.XXXXXX", dst) < 0) {
		free(real);
		return -ENOMEM;
	}
	if (stat(dst, &st) == 0)
		mode = st.st_mode & 07777;
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	rc = write_all(fd, text, len);
	if (rc == 0 && fchmod(fd, mode) < 0)
		rc = -errno;
	if (rc == 0 && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, dst) < 0)
		rc = -errno;
	if (rc < 0)
		unlink(tmp);
	else
		sync_dir(dst);
out:
	free(tmp);
	free(real);
	return rc;
}

/* s's `show config` text into *text (malloc'd). */
static int
config_text(struct lsk_stack *s, char **text)
{
	struct lsk_out o;
	int rc;

	lsk_out_init(&o, false);
	rc = lsk_command_run(s, "show config", 11, "-", &o);
	if (rc == 0 && o.oom)
		rc = -ENOMEM;
	*text = rc == 0 ? strdup(o.buf ? o.buf : "") : NULL;
	lsk_out_free(&o);
	if (rc == 0 && *text == NULL)
		rc = -ENOMEM;
	return rc;
}

static const char *
file_or_default(const struct lsk_stack *s, const char *path, char *err,
		size_t err_len)
{
	if (path == NULL)
		path = s->config_path;
	if (path == NULL)
		snprintf(err, err_len, "no FILE given, and the router was "
			 "started from no configuration file");
	return path;
}

int
lsk_config_save(struct lsk_stack *s, const char *path, char *err,
		size_t err_len)
{
	char *text;
	int rc;

	err[0] = '\0';
	path = file_or_default(s, path, err, err_len);
	if (path == NULL)
		return -EINVAL;
	rc = config_text(s, &text);
	if (rc == 0) {
		rc = lsk_config_write_atomic(path, text, strlen(text));
		free(text);
	}
	if (rc < 0)
		snprintf(err, err_len, "%s: cannot save: %s", path,
			 strerror(-rc));
	return rc;
}

int
lsk_config_file_has_commands(const char *path)
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

/* The file loaded into a scratch stack made as s was (ports, their own
 * MACs, the starting mode); its `show config` into *wanted. */
static int
scratch_text(struct lsk_stack *s, const char *path, char **wanted,
	     char *err, size_t err_len)
{
	struct lsk_stack_params p = {
		.n_ports = s->n_ports,
		.socket_id = s->sh.socket_id,
		.mode = s->start_mode,
		.max_routes = s->max_routes,
		.name = "reload",
	};
	struct lsk_stack *t;
	unsigned int i;
	int rc;

	rc = lsk_stack_create(&p, &t);
	if (rc < 0) {
		snprintf(err, err_len, "%s: cannot check it: %s", path,
			 strerror(-rc));
		return rc;
	}
	t->scratch = true;
	for (i = 0; i < s->n_ports; i++)
		t->ports[i].mac = s->mac_given[i] ? s->dev_mac[i] :
			s->ports[i].mac;
	rc = lsk_config_load(t, path, err, err_len);
	if (rc == 0)
		rc = config_text(t, wanted);
	lsk_stack_destroy(t);
	return rc;
}

/*
 * The reload: the commands it applied into applied (one a line), the
 * counts into n. On error err says why and nothing changed.
 */
static int
reload(struct lsk_stack *s, const char *path, struct lsk_out *applied,
       struct lsk_config_diff_counts *n, char *err, size_t err_len)
{
	char *running = NULL, *wanted = NULL;
	struct lsk_out o;
	int rc;

	memset(n, 0, sizeof(*n));
	/* nothing but blanks and comments: it would remove everything */
	rc = lsk_config_file_has_commands(path);
	if (rc == 0) {
		snprintf(err, err_len, "%s:0: no configuration in it (a "
			 "reload would remove everything)", path);
		return -ENODATA;
	}
	rc = scratch_text(s, path, &wanted, err, err_len);
	if (rc == 0)
		rc = config_text(s, &running);
	if (rc == 0)
		rc = lsk_config_diff(running, wanted, applied, n);
	if (rc == 0 && applied->oom)
		rc = -ENOMEM;
	if (rc < 0 && err[0] == '\0')
		snprintf(err, err_len, "%s: cannot reload: %s", path,
			 strerror(-rc));
	if (rc == 0 && applied->len > 0) {
		lsk_out_init(&o, false);
		rc = lsk_command_run(s, applied->buf, applied->len, "reload",
				     &o);
		if (rc < 0)
			snprintf(err, err_len, "%s: cannot apply it: %s", path,
				 o.err);
		lsk_out_free(&o);
	}
	free(running);
	free(wanted);
	return rc;
}

int
lsk_config_reload(struct lsk_stack *s, const char *path, char *msg,
		  size_t msg_len)
{
	struct lsk_config_diff_counts n;
	struct lsk_out applied;
	int rc;

	msg[0] = '\0';
	path = file_or_default(s, path, msg, msg_len);
	if (path == NULL)
		return -EINVAL;
	lsk_out_init(&applied, false);
	rc = reload(s, path, &applied, &n, msg, msg_len);
	if (rc == 0)
		snprintf(msg, msg_len, "%s: %u added, %u removed, %u changed",
			 path, n.added, n.removed, n.changed);
	lsk_out_free(&applied);
	return rc;
}

/* The reason names the file (and the line), not the command's source. */
static int
file_error(struct cmd_ctx *c, int rc, const char *why)
{
	snprintf(c->o->err, sizeof(c->o->err), "%s", why);
	return rc;
}

/* config save [FILE] | config reload [FILE]: actions, never in a batch */
int
cmd_config(struct cmd_ctx *c)
{
	struct lsk_config_diff_counts n;
	struct lsk_out applied;
	const char *path;
	char err[4096];	/* every bad line (listack.h) */
	char *p, *line;
	int rc;

	if ((c->argc != 2 && c->argc != 3) ||
	    (strcmp(c->argv[1], "save") != 0 &&
	     strcmp(c->argv[1], "reload") != 0))
		return cmd_error(c, -EINVAL, "usage: %s", cmd_usage("config"));
	if (c->check)
		return 0;
	if (c->s->in_batch)
		return cmd_error(c, -EBUSY, "config %s cannot be part of a "
				 "batch", c->argv[1]);
	err[0] = '\0';
	path = file_or_default(c->s, c->argc == 3 ? c->argv[2] : NULL, err,
			       sizeof(err));
	if (path == NULL)
		return cmd_error(c, -EINVAL, "%s", err);
	if (c->argv[1][0] == 's') {
		rc = lsk_config_save(c->s, path, err, sizeof(err));
		if (rc < 0)
			return file_error(c, rc, err);
		if (c->o->json) {
			lsk_out_printf(c->o, "{\"saved\": ");
			lsk_out_json_str(c->o, path);
			return lsk_out_printf(c->o, "}\n");
		}
		return lsk_out_printf(c->o, "saved %s\n", path);
	}
	lsk_out_init(&applied, false);
	rc = reload(c->s, path, &applied, &n, err, sizeof(err));
	if (rc < 0) {
		lsk_out_free(&applied);
		return file_error(c, rc, err);
	}
	if (c->o->json) {
		lsk_out_printf(c->o, "{\"reloaded\": ");
		lsk_out_json_str(c->o, path);
		lsk_out_printf(c->o, ", \"added\": %u, \"removed\": %u, "
			       "\"changed\": %u, \"commands\": [", n.added,
			       n.removed, n.changed);
	}
	for (p = applied.buf; p != NULL && *p != '\0'; p = line + 1) {
		line = strchr(p, '\n');
		*line = '\0';
		if (c->o->json) {
			lsk_out_printf(c->o, "%s", p == applied.buf ? "" :
				       ", ");
			lsk_out_json_str(c->o, p);
		} else {
			lsk_out_printf(c->o, "%s\n", p);
		}
	}
	lsk_out_free(&applied);
	if (c->o->json)
		return lsk_out_printf(c->o, "]}\n");
	return lsk_out_printf(c->o, "reloaded %s: %u added, %u removed, %u "
			      "changed\n", path, n.added, n.removed,
			      n.changed);
}
