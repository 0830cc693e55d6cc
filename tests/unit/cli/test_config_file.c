/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * config save and config reload (cli/config_file.c, cli/config_diff.c):
 * the difference a reload applies, line kind by line kind; the atomic
 * writer; a reload on a stack (what both have untouched, a bad file
 * changing nothing); `port N mac` and VLAN sub-interfaces in show config.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit_common.h"
#include "cli_run.h"
#include "cli/cli.h"
#include "cli/config_diff.h"
#include "control/control.h"

static const char base[] =
	"port 0 mtu 1500\n"
	"port 1 mtu 1500 mac 02:00:00:00:AA:01\n"
	"port 1 vlan 100\n"
	"address add 10.0.0.1/24 port 0\n"
	"address add 10.0.1.1/24 port 1\n"
	"route add 10.2.0.0/16 via 10.0.1.2\n"
	"route add 10.3.0.0/16 via 10.0.1.2\n"
	"route add 192.0.2.0/24 blackhole\n"
	"neigh add 10.0.1.2 lladdr 02:00:00:00:02:02\n"
	"udp listen 10.0.0.1:7 echo\n"
	"filter add drop proto udp dport 53\n"
	"gro off\n"
	"route-cache off\n"
	"mode list\n";

/* The same text: no command, nothing counted. */
static void
test_diff_same(void **state)
{
	struct lsk_config_diff_counts n;
	char *d;

	(void)state;
	d = cli_diff(base, base, &n);
	assert_string_equal(d, "");
	assert_int_equal(n.added + n.removed + n.changed, 0);
	free(d);
}

/* One of each: what goes first, new addresses before those that go,
 * a changed route replaced, a changed neighbour and service deleted and
 * added, filters flushed and added again, a setting set, a MAC the file
 * no longer gives back to the port's own, a VLAN that stays. */
static void
test_diff_each_kind(void **state)
{
	static const char wanted[] =
		"port 0 mtu 9000\n"
		"port 1 mtu 1500\n"
		"port 0 vlan 5\n"
		"address add 10.0.0.1/24 port 0\n"
		"address add 10.0.1.9/24 port 1\n"
		"route add 10.2.0.0/16 via 10.0.1.2\n"
		"route add 10.3.0.0/16 via 10.0.1.3\n"
		"route add 10.4.0.0/16 blackhole\n"
		"neigh add 10.0.1.2 lladdr 02:00:00:00:02:03\n"
		"udp listen 10.0.0.1:7 discard\n"
		"udp listen 10.0.0.1:9 discard\n"
		"filter add drop proto udp dport 53\n"
		"filter add drop proto 47\n"
		"gro fraglist flows 64 segs 64\n"
		"route-cache off\n"
		"mode list\n";
	struct lsk_config_diff_counts n;
	char *d;

	(void)state;
	d = cli_diff(base, wanted, &n);
	assert_string_equal(d,
		"filter flush\n"
		"udp close 10.0.0.1:7\n"
		"neigh del 10.0.1.2\n"
		"route del 192.0.2.0/24\n"
		"port 0 mtu 9000\n"
		"port 1 mtu 1500 mac default\n"
		"port 0 vlan 5\n"
		"address add 10.0.1.9/24 port 1\n"
		"address del 10.0.1.1/24 port 1\n"
		"route replace 10.3.0.0/16 via 10.0.1.3\n"
		"route add 10.4.0.0/16 blackhole\n"
		"neigh add 10.0.1.2 lladdr 02:00:00:00:02:03\n"
		"udp listen 10.0.0.1:7 discard\n"
		"udp listen 10.0.0.1:9 discard\n"
		"filter add drop proto udp dport 53\n"
		"filter add drop proto 47\n"
		"gro fraglist flows 64 segs 64\n");
	/* added: vlan 5, address, route, service, 2 filters; removed:
	 * address, route, 1 filter (vlan 100 stays); changed: 2 ports,
	 * route, neighbour, service, gro */
	assert_int_equal(n.added, 6);
	assert_int_equal(n.removed, 3);
	assert_int_equal(n.changed, 6);
	free(d);
}

/* Many routes, one changed: only it (the merge is by prefix, not by
 * position). */
static void
test_diff_many_routes(void **state)
{
	struct lsk_config_diff_counts n;
	char *a, *b, *d;
	size_t i, la = 0, lb = 0;

	(void)state;
	a = malloc(4096 * 48);
	b = malloc(4096 * 48);
	assert_non_null(a);
	assert_non_null(b);
	for (i = 0; i < 4096; i++) {
		la += (size_t)sprintf(a + la, "route add 10.%zu.%zu.0/24 via "
				      "10.0.0.2\n", i / 256, i % 256);
		/* the file lists them backwards */
		lb += (size_t)sprintf(b + lb, "route add 10.%zu.%zu.0/24 via "
				      "10.0.0.%s\n", (4095 - i) / 256,
				      (4095 - i) % 256, i == 7 ? "3" : "2");
	}
	d = cli_diff(a, b, &n);
	assert_string_equal(d, "route replace 10.15.248.0/24 via 10.0.0.3\n");
	assert_int_equal(n.changed, 1);
	assert_int_equal(n.added + n.removed, 0);
	free(a);
	free(b);
	free(d);
}

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 65536);

	assert_non_null(f);
	assert_non_null(buf);
	assert_true(fread(buf, 1, 65535, f) < 65535);
	fclose(f);
	return buf;
}

static bool
temp_left(const char *dir)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "ls %s | grep -q 'conf\\.'", dir);
	return system(cmd) == 0;
}

/* Written whole, the mode kept; a failure leaves the file and no
 * temporary file. */
static void
test_write_atomic(void **state)
{
	const char *dir = "/tmp/lsk_cfg_atomic";
	const char *path = "/tmp/lsk_cfg_atomic/listack.conf";
	struct stat st;
	char *got;

	(void)state;
	assert_int_equal(system("rm -rf /tmp/lsk_cfg_atomic && "
				"mkdir /tmp/lsk_cfg_atomic"), 0);
	assert_int_equal(lsk_config_write_atomic(path, "a\n", 2), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_int_equal(chmod(path, 0640), 0);
	assert_int_equal(lsk_config_write_atomic(path, "route flush\n", 12),
			 0);
	got = slurp(path);
	assert_string_equal(got, "route flush\n");
	free(got);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	assert_false(temp_left(dir));
	/* a directory that is not there: nothing written */
	assert_int_equal(lsk_config_write_atomic("/tmp/lsk_cfg_atomic/no/"
						 "x.conf", "a\n", 2), -ENOENT);
	assert_false(temp_left(dir));
	got = slurp(path);
	assert_string_equal(got, "route flush\n");
	free(got);
	assert_int_equal(system("rm -rf /tmp/lsk_cfg_atomic"), 0);
}

static struct lsk_stack *
bare_stack(void)
{
	return unit_bare_stack("cfg");
}

static char *
run(struct lsk_stack *s, const char *text, int want)
{
	return cli_run(s, text, want, false);
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char start_conf[] =
	"address add 10.0.0.1/24 port 0\n"
	"address add 10.0.1.1/24 port 1\n"
	"route add 10.2.0.0/16 via 10.0.1.2\n"
	"route add 10.3.0.0/16 via 10.0.1.2\n"
	"neigh add 10.0.1.2 lladdr 02:00:00:00:02:02\n"
	"udp listen 10.0.0.1:7 echo\n";

/* A reload: what both have is untouched (the service is the same one),
 * what goes goes, what comes comes; show config is then what a fresh
 * stack loading the file shows. */
static void
test_reload(void **state)
{
	const char *path = "/tmp/lsk_cfg_reload.conf";
	struct lsk_stack *s = bare_stack(), *fresh = bare_stack();
	char msg[768], err[512], *a, *b;
	struct lsk_service *svc;

	(void)state;
	write_file(path, start_conf);
	assert_int_equal(lsk_config_load(s, path, err, sizeof(err)), 0);
	assert_int_equal(lsk_config_set_path(s, path), 0);
	svc = s->services[0];
	write_file(path,
		   "address add 10.0.0.1/24 port 0\n"
		   "address add 10.0.1.1/24 port 1\n"
		   "route add 10.2.0.0/16 via 10.0.1.2\n"
		   "route add 10.4.0.0/16 blackhole\n"
		   "neigh add 10.0.1.2 lladdr 02:00:00:00:02:02\n"
		   "udp listen 10.0.0.1:7 echo\n"
		   "gro fraglist\n");
	assert_int_equal(lsk_config_reload(s, NULL, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "/tmp/lsk_cfg_reload.conf: 1 added, 1 "
			    "removed, 1 changed");
	/* the service untouched: the same one, its ring and counts kept */
	assert_int_equal(s->n_services, 1);
	assert_ptr_equal(s->services[0], svc);
	assert_int_equal(lsk_config_load(fresh, path, err, sizeof(err)), 0);
	a = run(s, "show config", 0);
	b = run(fresh, "show config", 0);
	assert_string_equal(a, b);
	assert_null(strstr(a, "10.3.0.0"));
	free(a);
	free(b);
	/* again: nothing to do */
	assert_int_equal(lsk_config_reload(s, NULL, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "/tmp/lsk_cfg_reload.conf: 0 added, 0 "
			    "removed, 0 changed");
	lsk_stack_destroy(fresh);

	/* a neighbour's MAC and a service's kind changed (each deleted and
	 * added in the one batch), the address of a subnet moved (its
	 * route kept), a MAC given */
	write_file(path,
		   "port 1 mac 02:00:00:00:aa:01\n"
		   "address add 10.0.0.1/24 port 0\n"
		   "address add 10.0.1.9/24 port 1\n"
		   "route add 10.2.0.0/16 via 10.0.1.2\n"
		   "route add 10.4.0.0/16 blackhole\n"
		   "neigh add 10.0.1.2 lladdr 02:00:00:00:02:03\n"
		   "udp listen 10.0.0.1:7 discard\n"
		   "gro fraglist\n");
	assert_int_equal(lsk_config_reload(s, NULL, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "/tmp/lsk_cfg_reload.conf: 1 added, 1 "
			    "removed, 3 changed");
	fresh = bare_stack();
	assert_int_equal(lsk_config_load(fresh, path, err, sizeof(err)), 0);
	a = run(s, "show config", 0);
	b = run(fresh, "show config", 0);
	assert_string_equal(a, b);
	free(a);
	free(b);
	a = run(s, "show neigh", 0);
	assert_non_null(strstr(a, "02:00:00:00:02:03"));
	free(a);
	lsk_stack_destroy(fresh);
	lsk_stack_destroy(s);
	unlink(path);
}

/* A bad file, an empty one, none at all: FILE:LINE, nothing changed. */
static void
test_reload_refused(void **state)
{
	const char *path = "/tmp/lsk_cfg_bad.conf";
	struct lsk_stack *s = bare_stack();
	char msg[768], err[512], *before, *after;

	(void)state;
	write_file(path, start_conf);
	assert_int_equal(lsk_config_load(s, path, err, sizeof(err)), 0);
	before = run(s, "show config", 0);
	/* no file was given, none named */
	assert_int_equal(lsk_config_reload(s, NULL, msg, sizeof(msg)),
			 -EINVAL);
	assert_non_null(strstr(msg, "no FILE given"));
	write_file(path, "address add 10.0.0.1/24 port 0\n"
			 "route add 10.9.0.0/16 via 10.7.0.1\n");
	assert_true(lsk_config_reload(s, path, msg, sizeof(msg)) < 0);
	assert_memory_equal(msg, "/tmp/lsk_cfg_bad.conf:2: ", 24);
	/* every bad line, one a line */
	write_file(path, "address add 10.0.0.1/24 port 0\n"
			 "route add 10.9.0.0/33 via 10.0.0.7\n"
			 "port 0 mtu 1\n");
	assert_true(lsk_config_reload(s, path, msg, sizeof(msg)) < 0);
	assert_string_equal(msg, "/tmp/lsk_cfg_bad.conf:2: bad prefix "
			    "'10.9.0.0/33'\n"
			    "/tmp/lsk_cfg_bad.conf:3: bad mtu '1' (68-9000)");
	/* checked, but refused by the running stack (the scratch stack
	 * opens no file): the whole batch goes, the new route too */
	write_file(path, "address add 10.0.0.1/24 port 0\n"
			 "address add 10.0.1.1/24 port 1\n"
			 "route add 10.8.0.0/16 blackhole\n"
			 "udp listen 10.0.0.1:9 pcap /nonexistent/x.pcap\n");
	assert_true(lsk_config_reload(s, path, msg, sizeof(msg)) < 0);
	assert_non_null(strstr(msg, "/tmp/lsk_cfg_bad.conf: cannot apply it: "
			       "reload:"));
	after = run(s, "show config", 0);
	assert_string_equal(before, after);
	free(after);
	write_file(path, "# nothing\n\n");
	assert_int_equal(lsk_config_reload(s, path, msg, sizeof(msg)),
			 -ENODATA);
	assert_memory_equal(msg, "/tmp/lsk_cfg_bad.conf:0: no configuration",
			    40);
	unlink(path);
	assert_int_equal(lsk_config_reload(s, path, msg, sizeof(msg)),
			 -ENOENT);
	after = run(s, "show config", 0);
	assert_string_equal(before, after);
	free(before);
	free(after);
	lsk_stack_destroy(s);
}

/* config save and reload as commands: the file is show config; a batch
 * cannot hold them. */
static void
test_config_commands(void **state)
{
	const char *path = "/tmp/lsk_cfg_cmd.conf";
	struct lsk_stack *s = bare_stack();
	char *a, *conf, *file;

	(void)state;
	a = run(s, start_conf, 0);
	free(a);
	a = run(s, "config save", -EINVAL);
	assert_string_equal(a, "t:1: no FILE given, and the router was "
			    "started from no configuration file");
	free(a);
	a = run(s, "config save /tmp/lsk_cfg_cmd.conf", 0);
	assert_string_equal(a, "saved /tmp/lsk_cfg_cmd.conf\n");
	free(a);
	conf = run(s, "show config", 0);
	file = slurp(path);
	assert_string_equal(conf, file);
	free(file);
	a = run(s, "route del 10.3.0.0/16\nconfig reload /tmp/lsk_cfg_cmd.conf",
		-EBUSY);
	free(a);
	a = run(s, "route del 10.3.0.0/16", 0);
	free(a);
	a = run(s, "config reload /tmp/lsk_cfg_cmd.conf", 0);
	assert_string_equal(a, "route add 10.3.0.0/16 via 10.0.1.2\n"
			    "reloaded /tmp/lsk_cfg_cmd.conf: 1 added, 0 "
			    "removed, 0 changed\n");
	free(a);
	a = run(s, "show config", 0);
	assert_string_equal(a, conf);
	free(a);
	free(conf);
	a = run(s, "config", -EINVAL);
	free(a);
	lsk_stack_destroy(s);
	unlink(path);
}

/* show config writes a MAC only when `port N mac` gave it, `mac default`
 * takes it back, and a VLAN without an address stays in it, so that a
 * restart gives the same interface ids. */
static void
test_mac_and_vlans(void **state)
{
	struct lsk_stack *s = bare_stack(), *t = bare_stack();
	struct rte_ether_addr own = s->ports[1].mac;
	char *a, *b;

	(void)state;
	a = run(s, "port 1 mac 02:00:00:00:aa:01\n"
		   "address add 10.5.0.1/24 port 1 vlan 100\n"
		   "address add 10.6.0.1/24 port 0 vlan 200\n"
		   "address del 10.5.0.1/24 port 1 vlan 100\n", 0);
	free(a);
	a = run(s, "show config", 0);
	assert_string_equal(a, "port 0 mtu 1500\n"
			       "port 1 mtu 1500 mac 02:00:00:00:AA:01\n"
			       "port 1 vlan 100\n"
			       "port 0 vlan 200\n"
			       "address add 10.6.0.1/24 port 0 vlan 200\n"
			       "gro off\nroute-cache off\nmode list\n");
	b = run(t, a, 0);
	free(b);
	b = run(t, "show config", 0);
	assert_string_equal(a, b);
	assert_int_equal(lsk_iface_find(t, 0, 200), 3);
	free(a);
	free(b);
	a = run(s, "port 1 mac default", 0);
	free(a);
	assert_true(rte_is_same_ether_addr(&s->ports[1].mac, &own));
	assert_true(rte_is_same_ether_addr(&s->ports[2].mac, &own));
	a = run(s, "show config", 0);
	assert_memory_equal(a, "port 0 mtu 1500\nport 1 mtu 1500\nport 1 "
			    "vlan 100\n", 40);
	free(a);
	a = run(s, "port 0 vlan 0", -EINVAL);
	free(a);
	lsk_stack_destroy(s);
	lsk_stack_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff_same),
		cmocka_unit_test(test_diff_each_kind),
		cmocka_unit_test(test_diff_many_routes),
		cmocka_unit_test(test_write_atomic),
		cmocka_unit_test(test_reload),
		cmocka_unit_test(test_reload_refused),
		cmocka_unit_test(test_config_commands),
		cmocka_unit_test(test_mac_and_vlans),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
