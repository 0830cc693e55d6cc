/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket's server (serve/ctl_server.c) on the unit
 * fixture: a batch waits for the stack's lock while lsk_services_poll
 * (which never waits for it) goes on; the socket file's rules (a live
 * socket is -EADDRINUSE, a stale one replaced, anything else left alone).
 * The protocol against a running listack-fwd, hostile clients included,
 * is tests/integration/test_ctl.py.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "unit_common.h"
#include "listack/ctl.h"
#include "serve/ctl_proto.h"

static char dir[64];

static void
sock_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static int
client(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

/* An answer's header line within ms (0 and *h filled), or -ETIMEDOUT. */
static int
answer(int fd, int ms, struct lsk_ctl_reply_hdr *h, char *err, size_t cap)
{
	char line[LSK_CTL_HEADER_MAX];
	size_t len = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, ms) != 1)
			return -ETIMEDOUT;
		assert_int_equal(read(fd, line + len, 1), 1);
		if (line[len] == '\n')
			break;
		assert_true(++len < sizeof(line));
	}
	assert_int_equal(lsk_ctl_parse_reply(line, len, h), 0);
	assert_true(h->err_len < cap);
	assert_int_equal(read(fd, err, h->err_len), (ssize_t)h->err_len);
	err[h->err_len] = '\0';
	assert_int_equal(h->body_len, 0);
	return 0;
}

static void
send_str(int fd, const char *s)
{
	assert_int_equal(write(fd, s, strlen(s)), (ssize_t)strlen(s));
}

static void
test_batch_waits_for_the_lock(void **state)
{
	struct unit_fixture *f = *state;
	static const char cmd[] = "route add 10.5.0.0/16 via 10.0.1.1\n";
	struct lsk_ctl_reply_hdr h;
	struct lsk_ctl *ctl;
	char path[100], err[512], hdr[64];
	int fd;

	lsk_worker_offline(f->worker);
	sock_path(path, sizeof(path), "lock.sock");
	assert_int_equal(lsk_ctl_start(f->stack, path, &ctl), 0);
	fd = client(path);
	send_str(fd, "listack-ctl 1 text\n");
	assert_int_equal(answer(fd, 5000, &h, err, sizeof(err)), 0);
	assert_int_equal(h.status, LSK_CTL_OK);

	lsk_stack_lock(f->stack);
	assert_int_equal(lsk_stack_trylock(f->stack), -EBUSY);
	snprintf(hdr, sizeof(hdr), "run %zu\n", strlen(cmd));
	send_str(fd, hdr);
	send_str(fd, cmd);
	/* the batch cannot run while the lock is held ... */
	assert_int_equal(answer(fd, 300, &h, err, sizeof(err)), -ETIMEDOUT);
	/* ... and the services' poll does not wait for it */
	assert_int_equal(lsk_services_poll(f->stack), 0);
	lsk_stack_unlock(f->stack);
	assert_int_equal(answer(fd, 5000, &h, err, sizeof(err)), 0);
	assert_int_equal(h.status, LSK_CTL_OK);

	/* applied: the same route again is refused, as SOURCE:LINE */
	send_str(fd, hdr);
	send_str(fd, cmd);
	assert_int_equal(answer(fd, 5000, &h, err, sizeof(err)), 0);
	assert_int_equal(h.status, LSK_CTL_ERROR);
	assert_int_equal(h.err, EEXIST);
	assert_non_null(strstr(err, "-:1:"));
	close(fd);

	assert_int_equal(lsk_stack_trylock(f->stack), 0);
	lsk_stack_unlock(f->stack);
	lsk_ctl_stop(ctl);
	assert_int_equal(access(path, F_OK), -1);
}

/*
 * A batch that runs longer than a client may stall (the lock held past
 * CTL_STALL_MS, 5 s, as a million routes would): neither its client nor
 * one that said hello meanwhile is dropped for the time the server took.
 */
static void
test_long_batch_drops_nobody(void **state)
{
	struct unit_fixture *f = *state;
	static const char cmd[] = "route add 10.6.0.0/16 via 10.0.1.1\n";
	struct lsk_ctl_reply_hdr h;
	struct lsk_ctl *ctl;
	char path[100], err[512], hdr[64];
	int a, b;

	lsk_worker_offline(f->worker);
	sock_path(path, sizeof(path), "long.sock");
	assert_int_equal(lsk_ctl_start(f->stack, path, &ctl), 0);
	a = client(path);
	send_str(a, "listack-ctl 1 text\n");
	assert_int_equal(answer(a, 5000, &h, err, sizeof(err)), 0);
	lsk_stack_lock(f->stack);
	snprintf(hdr, sizeof(hdr), "run %zu\n", strlen(cmd));
	send_str(a, hdr);
	send_str(a, cmd);
	usleep(200 * 1000);	/* the server is in the batch now */
	b = client(path);
	send_str(b, "listack-ctl 1 text\n");
	sleep(6);
	lsk_stack_unlock(f->stack);
	assert_int_equal(answer(a, 5000, &h, err, sizeof(err)), 0);
	assert_int_equal(h.status, LSK_CTL_OK);
	assert_int_equal(answer(b, 5000, &h, err, sizeof(err)), 0);
	assert_int_equal(h.status, LSK_CTL_OK);
	close(a);
	close(b);
	lsk_ctl_stop(ctl);
}

static void
test_socket_file_rules(void **state)
{
	struct unit_fixture *f = *state;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct lsk_ctl *ctl, *other;
	char path[100], plain[100], stale[100], deep[100], lng[200];
	struct stat st;
	FILE *fp;
	int fd;

	sock_path(path, sizeof(path), "live.sock");
	assert_int_equal(lsk_ctl_start(f->stack, path, &ctl), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0660);
	assert_int_equal(lsk_ctl_start(f->stack, path, &other), -EADDRINUSE);
	lsk_ctl_stop(ctl);
	assert_int_equal(access(path, F_OK), -1);

	/* bound and closed, never listened on: stale, replaced */
	sock_path(stale, sizeof(stale), "stale.sock");
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", stale);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	close(fd);
	assert_int_equal(lsk_ctl_start(f->stack, stale, &ctl), 0);
	close(client(stale));
	lsk_ctl_stop(ctl);

	/* not a socket: left as it is */
	sock_path(plain, sizeof(plain), "plain");
	fp = fopen(plain, "w");
	assert_non_null(fp);
	fclose(fp);
	assert_int_equal(lsk_ctl_start(f->stack, plain, &ctl), -EEXIST);
	assert_int_equal(stat(plain, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	unlink(plain);

	/* the directories are made, 0755 */
	sock_path(deep, sizeof(deep), "a/b/s.sock");
	assert_int_equal(lsk_ctl_start(f->stack, deep, &ctl), 0);
	lsk_ctl_stop(ctl);
	snprintf(deep, sizeof(deep), "%s/a/b", dir);
	assert_int_equal(stat(deep, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0755);
	rmdir(deep);
	snprintf(deep, sizeof(deep), "%s/a", dir);
	rmdir(deep);

	memset(lng, 'x', sizeof(lng) - 1);
	lng[0] = '/';
	lng[sizeof(lng) - 1] = '\0';
	assert_int_equal(lsk_ctl_start(f->stack, lng, &ctl), -ENAMETOOLONG);
	assert_int_equal(lsk_ctl_start(f->stack, "", &ctl), -EINVAL);
	/* nothing to stop */
	lsk_ctl_stop(NULL);
}

static int
dir_setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/lsk-ctl-unit-%d", (int)getpid());
	if (mkdir(dir, 0700) < 0)
		return -1;
	return unit_group_setup(state);
}

static int
dir_teardown(void **state)
{
	rmdir(dir);
	return unit_group_teardown(state);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_batch_waits_for_the_lock,
						unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_long_batch_drops_nobody,
						unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_socket_file_rules,
						unit_setup_list, unit_teardown),
	};

	return cmocka_run_group_tests(tests, dir_setup, dir_teardown);
}
