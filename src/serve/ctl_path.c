/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket's file (serve/serve.h): its directory made,
 * what is at the path judged (nothing, a stale socket, a live one,
 * something else), the socket bound 0660 before anyone may connect.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "listack/ctl.h"
#include "serve/serve.h"

/* mkdir -p of path's directory, each new one 0755. */
static int
make_parent(const char *path)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char *p, c;

	snprintf(dir, sizeof(dir), "%s", path);
	p = strrchr(dir, '/');
	if (p == NULL || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		c = *p;
		*p = '\0';
		/* 0755 whatever the umask: clients must reach the socket */
		if (mkdir(dir, 0755) == 0)
			chmod(dir, 0755);
		else if (errno != EEXIST)
			return -errno;
		*p = c;
		if (c == '\0')
			break;
	}
	return 0;
}

/*
 * What is at path: nothing (0), a stale socket (1), a live one
 * (-EADDRINUSE) or something that is not a socket (-EEXIST). Nothing is
 * changed; clear_path removes a stale one.
 */
static int
judge_path(const struct sockaddr_un *sa)
{
	struct stat st;
	int fd, rc;

	if (lstat(sa->sun_path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode))
		return -EEXIST;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	rc = connect(fd, (const struct sockaddr *)sa, sizeof(*sa));
	close(fd);
	if (rc == 0)
		return -EADDRINUSE;
	if (errno != ECONNREFUSED)
		return -errno;
	return 1;	/* stale */
}

static int
clear_path(const struct sockaddr_un *sa)
{
	int rc = judge_path(sa);

	if (rc <= 0)
		return rc;
	return unlink(sa->sun_path) < 0 ? -errno : 0;
}

int
lsk_ctl_probe(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int rc;

	if (path == NULL)
		return -EINVAL;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	rc = judge_path(&sa);
	return rc > 0 ? 0 : rc;
}

int
lsk_ctl_path_listen(const char *path, int backlog, dev_t *dev, ino_t *ino)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, rc;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	rc = make_parent(path);
	if (rc == 0)
		rc = clear_path(&sa);
	if (rc < 0)
		return rc;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	/* before listen: nobody connects while the mode is umask's */
	if (chmod(path, 0660) < 0 || stat(path, &st) < 0 ||
	    listen(fd, backlog) < 0) {
		rc = -errno;
		unlink(path);
		close(fd);
		return rc;
	}
	*dev = st.st_dev;
	*ino = st.st_ino;
	return fd;
}

void
lsk_ctl_path_unlink(const char *path, dev_t dev, ino_t ino)
{
	struct stat st;

	if (stat(path, &st) == 0 && st.st_dev == dev && st.st_ino == ino)
		unlink(path);
}
