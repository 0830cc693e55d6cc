/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The host path's control side (control/host_ctl.c, host/tap.c): `port N
 * host-if NAME` makes a kernel TAP mirroring the port (MAC, MTU, admin
 * state, addresses, IFF_NOARP), NAME.V for its VLANs, shown by `show
 * config` and `show interfaces`, found by ifindex
 * (lsk_host_iface_of_ifindex); `port N host-if none` removes it; bad and
 * taken names are refused and change nothing; `host-if NAME rate PPS`;
 * IPv6 on the TAP (its addresses, its link-local one as ours, no DAD).
 * Makes real TAPs: root and /dev/net/tun, else skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <net/if.h>

#include "unit_common.h"
#include "cli/cli.h"
#include "cli/config_diff.h"
#include "control/host_ctl.h"

#define ERR_LEN sizeof(((struct lsk_out *)0)->err)
#define TAP "lsktst0"

static bool
can_tap(void)
{
	int fd = open("/dev/net/tun", O_RDWR);

	if (fd < 0 || geteuid() != 0) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	close(fd);
	return true;
}

static int
run(struct unit_fixture *f, const char *text, char **answer, char *err)
{
	struct lsk_out o;
	int rc;

	lsk_out_init(&o, false);
	lsk_worker_offline(f->worker);
	rc = lsk_command_run(f->stack, text, strlen(text), "t", &o);
	unit_worker_sync(f);
	if (answer != NULL) {
		*answer = strdup(o.buf ? o.buf : "");
		assert_non_null(*answer);
	}
	if (err != NULL)
		snprintf(err, ERR_LEN, "%s", o.err);
	lsk_out_free(&o);
	return rc;
}

static bool
answer_has(struct unit_fixture *f, const char *cmd, const char *text)
{
	char *a;
	bool found;

	assert_int_equal(run(f, cmd, &a, NULL), 0);
	found = strstr(a, text) != NULL;
	if (!found)
		print_message("'%s' has no '%s':\n%s", cmd, text, a);
	free(a);
	return found;
}

/* A file of /sys/class/net/NAME/, first line ("" when none). */
static void
sys_read(const char *name, const char *what, char *buf, size_t len)
{
	char path[128];
	FILE *fp;

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", name, what);
	buf[0] = '\0';
	fp = fopen(path, "r");
	if (fp == NULL)
		return;
	if (fgets(buf, (int)len, fp) == NULL)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(fp);
}

/* Does `ip -4 addr show dev name` list addr (A.B.C.D/L)? */
static bool
kernel_has_addr(const char *name, const char *addr)
{
	char cmd[128], line[256];
	bool found = false;
	FILE *fp;

	snprintf(cmd, sizeof(cmd), "ip -4 -o addr show dev %s 2>/dev/null",
		 name);
	fp = popen(cmd, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp) != NULL)
		if (strstr(line, addr) != NULL)
			found = true;
	pclose(fp);
	return found;
}

/* Does `ip -6 addr show dev name` list addr (A::B/L), usable (not
 * tentative: no DAD on a TAP)? */
static bool
kernel_has_addr6(const char *name, const char *addr)
{
	char cmd[128], line[256];
	bool found = false;
	FILE *fp;

	snprintf(cmd, sizeof(cmd), "ip -6 -o addr show dev %s 2>/dev/null",
		 name);
	fp = popen(cmd, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp) != NULL)
		if (strstr(line, addr) != NULL && !strstr(line, "tentative"))
			found = true;
	pclose(fp);
	return found;
}

/* /proc/sys/net/ipv6/conf/NAME/KEY's value (-1: none). */
static int
conf6(const char *name, const char *key)
{
	char path[128], buf[16] = "";
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/%s", name,
		 key);
	fp = fopen(path, "r");
	if (fp == NULL)
		return -1;
	if (fgets(buf, sizeof(buf), fp) == NULL)
		buf[0] = '\0';
	fclose(fp);
	return buf[0] ? atoi(buf) : -1;
}

static int
setup(void **state)
{
	*state = unit_fixture_create(LSK_MODE_LIST);
	return *state == NULL;
}

static int
teardown(void **state)
{
	unit_fixture_destroy(*state);
	return 0;
}

static void
test_tap_mirrors_port(void **state)
{
	struct unit_fixture *f = *state;
	char buf[64], err[ERR_LEN];
	unsigned int idx;
	int iface;

	if (!can_tap())
		skip();
	assert_int_equal(run(f, "port 0 mtu 1400 host-if " TAP, NULL, err), 0);
	idx = if_nametoindex(TAP);
	assert_true(idx > 0);
	assert_int_equal(lsk_host_iface_of_ifindex(f->stack, idx), 0);
	assert_int_equal(lsk_host_iface_of_ifindex(f->stack, idx + 1000),
			 -ENOENT);
	/* the port's MAC, MTU, up, NOARP */
	sys_read(TAP, "address", buf, sizeof(buf));
	assert_string_equal(buf, "02:00:00:00:00:fe");
	sys_read(TAP, "mtu", buf, sizeof(buf));
	assert_string_equal(buf, "1400");
	sys_read(TAP, "flags", buf, sizeof(buf));
	assert_true((strtoul(buf, NULL, 16) & (IFF_UP | IFF_NOARP)) ==
		    (IFF_UP | IFF_NOARP));
	/* the fixture's address on port 0, and one added and deleted */
	assert_true(kernel_has_addr(TAP, "10.0.0.254/24"));
	assert_int_equal(run(f, "address add 10.5.0.1/16 port 0", NULL, err),
			 0);
	assert_true(kernel_has_addr(TAP, "10.5.0.1/16"));
	assert_int_equal(run(f, "address del 10.5.0.1/16 port 0", NULL, err),
			 0);
	assert_false(kernel_has_addr(TAP, "10.5.0.1/16"));
	/* a new MAC and admin down follow */
	assert_int_equal(run(f, "port 0 mac 02:00:00:00:00:aa down", NULL,
			     err), 0);
	sys_read(TAP, "address", buf, sizeof(buf));
	assert_string_equal(buf, "02:00:00:00:00:aa");
	sys_read(TAP, "flags", buf, sizeof(buf));
	assert_int_equal(strtoul(buf, NULL, 16) & IFF_UP, 0);
	assert_int_equal(run(f, "port 0 up", NULL, err), 0);

	assert_true(answer_has(f, "show config",
			       "port 0 mtu 1400 mac 02:00:00:00:00:AA "
			       "host-if " TAP "\n"));
	snprintf(buf, sizeof(buf), "host-if " TAP " ifindex %u", idx);
	assert_true(answer_has(f, "show interfaces", buf));

	/* a VLAN's: NAME.V, its own interface */
	assert_int_equal(run(f, "port 0 vlan 7", NULL, err), 0);
	idx = if_nametoindex(TAP ".7");
	assert_true(idx > 0);
	iface = lsk_host_iface_of_ifindex(f->stack, idx);
	assert_int_equal(iface, lsk_iface_find(f->stack, 0, 7));
	assert_int_equal(run(f, "address add 10.7.0.1/24 port 0 vlan 7", NULL,
			     err), 0);
	assert_true(kernel_has_addr(TAP ".7", "10.7.0.1/24"));

	/* the rate: shown when not the default */
	assert_int_equal(run(f, "host-if " TAP " rate 500", NULL, err), 0);
	assert_true(answer_has(f, "show config", "host-if " TAP " rate 500"));

	/* none: the TAPs go */
	idx = if_nametoindex(TAP);
	assert_int_equal(run(f, "port 0 host-if none", NULL, err), 0);
	assert_int_equal(if_nametoindex(TAP), 0);
	assert_int_equal(if_nametoindex(TAP ".7"), 0);
	assert_int_equal(lsk_host_iface_of_ifindex(f->stack, idx), -ENOENT);
	assert_false(answer_has(f, "show config", "host-if"));
}

/* IPv6 on the TAP: the port's IPv6 addresses (no DAD) as they come and
 * go, its link-local address the EUI-64 of the port's MAC as listack's,
 * and no DAD, RS or RA of the kernel's own (host/tap.c). */
static void
test_tap_ipv6(void **state)
{
	struct unit_fixture *f = *state;
	char err[ERR_LEN];
	int i;

	if (!can_tap() || access("/proc/sys/net/ipv6", F_OK) != 0)
		skip();
	assert_int_equal(run(f, "address add 2001:db8:5::1/64 port 0", NULL,
			     err), 0);
	assert_int_equal(run(f, "port 0 host-if " TAP, NULL, err), 0);
	assert_int_equal(conf6(TAP, "disable_ipv6"), 0);
	assert_int_equal(conf6(TAP, "accept_ra"), 0);
	assert_int_equal(conf6(TAP, "accept_dad"), 0);
	assert_int_equal(conf6(TAP, "router_solicitations"), 0);
	assert_true(kernel_has_addr6(TAP, "2001:db8:5::1/64"));
	/* the kernel makes it when the TAP is up: a moment */
	for (i = 0; i < 50 && !kernel_has_addr6(TAP, "fe80::ff:fe00:fe/64");
	     i++)
		usleep(20000);
	assert_true(kernel_has_addr6(TAP, "fe80::ff:fe00:fe/64"));
	assert_int_equal(run(f, "address add 2001:db8:6::1/48 port 0", NULL,
			     err), 0);
	assert_true(kernel_has_addr6(TAP, "2001:db8:6::1/48"));
	assert_int_equal(run(f, "address del 2001:db8:5::1/64 port 0", NULL,
			     err), 0);
	assert_false(kernel_has_addr6(TAP, "2001:db8:5::1/64"));
	assert_true(kernel_has_addr6(TAP, "2001:db8:6::1/48"));
	/* an address on port 1 (no host-if) is not the TAP's */
	assert_int_equal(run(f, "address add 2001:db8:7::1/64 port 1", NULL,
			     err), 0);
	assert_false(kernel_has_addr6(TAP, "2001:db8:7::1/64"));
	/* a new MAC: the link-local address follows, as listack's */
	assert_int_equal(run(f, "port 0 mac 02:00:00:00:00:aa", NULL, err), 0);
	assert_true(kernel_has_addr6(TAP, "fe80::ff:fe00:aa/64"));
	assert_false(kernel_has_addr6(TAP, "fe80::ff:fe00:fe/64"));
	assert_int_equal(run(f, "port 0 host-if none", NULL, err), 0);
	assert_int_equal(if_nametoindex(TAP), 0);
}

static void
test_refused(void **state)
{
	struct unit_fixture *f = *state;
	char err[ERR_LEN];

	/* bad names: refused by the check, no TAP made */
	assert_int_equal(run(f, "port 0 host-if 0bad", NULL, err), -EINVAL);
	assert_non_null(strstr(err, "bad host-if name '0bad'"));
	assert_int_equal(run(f, "port 0 host-if waytoolongname", NULL, err),
			 -EINVAL);
	assert_int_equal(run(f, "port 0 host-if", NULL, err), -EINVAL);
	assert_int_equal(run(f, "host-if nosuch rate 5", NULL, err), -ENODEV);
	assert_non_null(strstr(err, "no host-if nosuch"));
	assert_int_equal(run(f, "host-if nosuch rate x", NULL, err), -EINVAL);
	assert_int_equal(if_nametoindex("0bad"), 0);
	if (!can_tap())
		skip();
	/* one name, one port; a batch refused makes no TAP */
	assert_int_equal(run(f, "port 0 host-if " TAP, NULL, err), 0);
	assert_int_equal(run(f, "port 1 host-if " TAP, NULL, err), -EEXIST);
	assert_non_null(strstr(err, "host-if " TAP " is port 0's"));
	assert_int_equal(run(f, "port 1 host-if lsktst1\nroute add x", NULL,
			     err), -EINVAL);
	assert_int_equal(if_nametoindex("lsktst1"), 0);
	assert_false(answer_has(f, "show config", "lsktst1"));
	/* a TAP the kernel will not make (lo is no TAP): the batch is
	 * refused whole, and the TAPs it made are gone */
	assert_true(run(f, "port 1 host-if lo", NULL, err) < 0);
	assert_true(run(f, "port 1 host-if lo\n"
			"address add 10.9.9.1/24 port 1", NULL, err) < 0);
	assert_non_null(strstr(err, "cannot make host-if lo: "));
	assert_false(answer_has(f, "show config", "10.9.9.1"));
	assert_false(answer_has(f, "show config", "host-if lo"));
	assert_true(run(f, "port 0 vlan 9\nport 1 host-if lo", NULL, err) < 0);
	assert_int_equal(if_nametoindex(TAP ".9"), 0);
	/* a batch that makes one: at its commit */
	assert_int_equal(run(f, "port 1 host-if lsktst1\n"
			     "host-if lsktst1 rate 20", NULL, err), 0);
	assert_true(if_nametoindex("lsktst1") > 0);
	assert_true(answer_has(f, "show config", "host-if lsktst1 rate 20"));
}

static char *
diff(const char *running, const char *wanted)
{
	struct lsk_config_diff_counts n;
	struct lsk_out o;
	char *d;

	lsk_out_init(&o, false);
	assert_int_equal(lsk_config_diff(running, wanted, &o, &n), 0);
	d = strdup(o.buf ? o.buf : "");
	lsk_out_free(&o);
	return d;
}

/* config reload: a host-if and its rate the file adds, changes or no
 * longer gives (none, the default rate, before the port line) */
static void
test_reload_diff(void **state)
{
	static const char with[] = "port 0 mtu 1500 host-if wan0\n"
				   "port 1 mtu 1500\n"
				   "host-if wan0 rate 500\n";
	static const char without[] = "port 0 mtu 1500\n"
				      "port 1 mtu 1500\n";
	char *d;

	(void)state;
	d = diff(without, with);
	assert_string_equal(d, "port 0 mtu 1500 host-if wan0\n"
			    "host-if wan0 rate 500\n");
	free(d);
	d = diff(with, without);
	assert_string_equal(d, "host-if wan0 rate default\n"
			    "port 0 mtu 1500 host-if none\n");
	free(d);
	d = diff(with, "port 0 mtu 1500 host-if wan0\nport 1 mtu 1500\n"
		 "host-if wan0 rate 700\n");
	assert_string_equal(d, "host-if wan0 rate 700\n");
	free(d);
	d = diff(with, with);
	assert_string_equal(d, "");
	free(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tap_ipv6, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_tap_mirrors_port, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test(test_reload_diff),
	};

	return cmocka_run_group_tests_name("host_ctl", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
