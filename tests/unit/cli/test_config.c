/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * config: the control-command grammar of docs/configuration.md, as files and as single
 * lines, and its error texts "FILE:LINE: what is wrong". What a command
 * did is read back from the forwarding table it published.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <rte_fib.h>

#include "unit_common.h"
#include "core/fwd.h"

struct config_state {
	struct lsk_stack *s;
	unsigned int in_use_start;
	char path[64];
};

static unsigned int stack_seq;

/* A bare two-port stack, no worker: the control thread alone. */
static int
config_setup(void **state)
{
	struct lsk_stack_params params = {
		.n_ports = 2,
		.socket_id = SOCKET_ID_ANY,
		.mode = LSK_MODE_LIST,
	};
	struct config_state *c = calloc(1, sizeof(*c));
	char name[32];

	if (c == NULL)
		return -1;
	snprintf(name, sizeof(name), "cfg%u", stack_seq++);
	params.name = name;
	c->in_use_start = unit_pool_in_use();
	if (lsk_stack_create(&params, &c->s) < 0) {
		free(c);
		return -1;
	}
	*state = c;
	return 0;
}

static int
config_teardown(void **state)
{
	struct config_state *c = *state;

	if (c->path[0] != '\0')
		unlink(c->path);
	lsk_stack_destroy(c->s);
	assert_int_equal(unit_pool_in_use(), c->in_use_start);
	free(c);
	return 0;
}

/* Write text to a fresh temporary file; its name goes in c->path. */
static const char *
write_conf(struct config_state *c, const char *text)
{
	FILE *f;
	int fd;

	if (c->path[0] != '\0')
		unlink(c->path);
	snprintf(c->path, sizeof(c->path), "/tmp/lsk_unit_XXXXXX");
	fd = mkstemp(c->path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	return c->path;
}

static int
exec(struct config_state *c, const char *line, char *err, size_t err_len)
{
	return lsk_config_exec(c->s, line, "t.conf", 1, err, err_len);
}

static void
exec_ok(struct config_state *c, const char *line)
{
	char err[256];
	int rc = exec(c, line, err, sizeof(err));

	if (rc != 0)
		print_error("'%s': %s\n", line, err);
	assert_int_equal(rc, 0);
	assert_string_equal(err, "");
}

/* The next hop the published table gives for dst (host order). */
static const struct lsk_nexthop *
lookup(const struct config_state *c, uint32_t dst)
{
	const struct lsk_fwd_table *t = c->s->sh.fwd;
	uint64_t nh;

	rte_fib_lookup_bulk(t->fib, &dst, &nh, 1);
	assert_true(nh < t->n_nexthops);
	return &t->nexthops[nh];
}

static void
assert_forwards(const struct config_state *c, uint32_t dst, uint16_t port,
		const struct rte_ether_addr *mac)
{
	const struct lsk_nexthop *nh = lookup(c, dst);

	assert_int_equal(nh->type, LSK_NH_FORWARD);
	assert_int_equal(nh->port, port);
	if (mac == NULL) {
		assert_false(nh->resolved);
	} else {
		assert_true(nh->resolved);
		assert_memory_equal(&nh->dst_mac, mac, RTE_ETHER_ADDR_LEN);
	}
}

static const char fixture_conf[] =
	"# linux-cases.md section 0\n"
	"\n"
	"port 0 mtu 1500 mac 02:00:00:00:00:fe\n"
	"port 1 mac 02:00:00:00:01:fe   # trailing comment\n"
	"\taddress  add\t10.0.0.254/24 port 0\n"
	"address add 10.0.1.254/24 port 1\r\n"
	"   \n"
	"neigh add 10.0.0.1 lladdr 02:00:00:00:00:01\n"
	"neigh add 10.0.1.1 lladdr 02:00:00:00:01:01\n"
	"route add 10.9.0.0/16 via 10.0.1.1\n"
	"route add 10.66.0.0/16 blackhole";	/* no final newline */

static void
load_fixture(struct config_state *c)
{
	char err[256] = "x";

	assert_int_equal(lsk_config_load(c->s, write_conf(c, fixture_conf),
					 err, sizeof(err)), 0);
	assert_string_equal(err, "");
}

/* The fixture as a file: comments, blank lines, tabs, CRLF, no final
 * newline; everything it says is in the published table. */
static void
test_load_fixture_file(void **state)
{
	struct config_state *c = *state;
	struct rte_ether_addr mac;
	uint16_t mtu;

	load_fixture(c);
	assert_int_equal(lsk_port_get(c->s, 0, &mac, &mtu), 0);
	assert_memory_equal(&mac, &unit_p0_mac, RTE_ETHER_ADDR_LEN);
	assert_int_equal(mtu, 1500);
	assert_int_equal(lsk_port_get(c->s, 1, &mac, NULL), 0);
	assert_memory_equal(&mac, &unit_p1_mac, RTE_ETHER_ADDR_LEN);

	assert_int_equal(lookup(c, UNIT_P0_IP)->type, LSK_NH_LOCAL);
	assert_int_equal(lookup(c, UNIT_P1_IP)->type, LSK_NH_LOCAL);
	assert_forwards(c, UNIT_A_IP, UNIT_P0, &unit_a_mac);
	assert_forwards(c, UNIT_B_IP, UNIT_P1, &unit_b_mac);
	assert_forwards(c, UNIT_FAR_IP, UNIT_P1, &unit_b_mac);
	assert_forwards(c, UNIT_IPV4(10, 0, 0, 7), UNIT_P0, NULL);
	assert_int_equal(lookup(c, UNIT_IPV4(10, 66, 1, 1))->type,
			 LSK_NH_BLACKHOLE);
	assert_int_equal(lookup(c, UNIT_IPV4(192, 168, 1, 1))->type,
			 LSK_NH_NONE);
}

#define UDP_USAGE "usage: udp listen ADDR:PORT echo|discard|pcap FILE [ring N] " \
	"| udp close ADDR:PORT"
#define UDP_RING "expected 'ring N' (1-16777216) after the service"
#define GRO_USAGE "usage: gro fraglist|merge [flows F] [segs S] | gro off"
#define RCACHE_USAGE "usage: route-cache on [entries N] | route-cache off"
#define FILTER_USAGE "usage: filter add accept|drop [proto P] [src PFX] " \
	"[dst PFX] [sport A[-B]] [dport A[-B]] | filter del N | filter flush"

struct error_case {
	const char *line;
	int rc;
	const char *text;	/* after "t.conf:LINE: " */
};

/* Every error names the file and line and says what is wrong. */
static void
test_error_texts(void **state)
{
	static const struct error_case cases[] = {
		{ "bogus", -EINVAL, "unknown command 'bogus' (port, address, "
		  "route, ...)" },
		{ "Route add 10.7.0.0/16 via 10.0.1.1", -EINVAL,
		  "unknown command 'Route'; did you mean 'route'? (port, "
		  "address, route, ...)" },
		{ "port", -EINVAL, "usage: port N [mtu M] [mac MAC|default] "
		  "[name NAME] [host-if NAME|none] [ra on|off] [up|down] | "
		  "port N vlan V" },
		{ "port x", -ENODEV, "no port named 'x'" },
		{ "port 1x", -EINVAL, "bad port number '1x'" },
		{ "port -1", -EINVAL, "bad port number '-1'" },
		{ "port 2", -ENODEV, "port 2 does not exist (2 ports)" },
		{ "port 0 mtu 67", -EINVAL, "bad mtu '67' (68-9000)" },
		{ "port 0 mtu 9001", -EINVAL, "bad mtu '9001' (68-9000)" },
		{ "port 0 mtu 1500x", -EINVAL, "bad mtu '1500x' (68-9000)" },
		{ "port 0 mtu", -EINVAL, "bad mtu '' (68-9000)" },
		{ "port 0 mac 01:00:5e:00:00:01", -EINVAL,
		  "MAC address 01:00:5e:00:00:01 is not a unicast address" },
		{ "port 0 mac 00:00:00:00:00:00", -EINVAL,
		  "MAC address 00:00:00:00:00:00 is not a unicast address" },
		{ "port 0 mac 02:00:00:00:00", -EINVAL,
		  "bad MAC address '02:00:00:00:00'" },
		{ "port 0 mac 2:0:0:0:0:fe", -EINVAL,
		  "bad MAC address '2:0:0:0:0:fe'" },
		{ "port 0 mac", -EINVAL, "bad MAC address ''" },
		{ "port 0 speed 10", -EINVAL, "unknown port setting 'speed'" },
		{ "address add 10.0.2.254/24", -EINVAL,
		  "usage: address add|del A.B.C.D/L port N [vlan V]" },
		{ "address del 10.0.9.254/24 port 0", -EADDRNOTAVAIL,
		  "no address 10.0.9.254/24 on port 0" },
		{ "address del 10.0.0.254/16 port 0", -EADDRNOTAVAIL,
		  "no address 10.0.0.254/16 on port 0" },
		{ "address del 10.0.0.254/24 port 1", -EADDRNOTAVAIL,
		  "no address 10.0.0.254/24 on port 1" },
		{ "address del 10.0.0.254/24 port 0 vlan 7", -ENODEV,
		  "port 0 has no vlan 7" },
		{ "address flush", -EINVAL,
		  "address: unknown word 'flush' (add, del)" },
		{ "address add 10.0.2.254/24 port 0 vlen 5", -EINVAL,
		  "usage: address add|del A.B.C.D/L port N [vlan V]" },
		{ "address add 10.0.2.254/24 port 0 vlan 0", -EINVAL,
		  "bad vlan '0' (1-4094)" },
		{ "address add 10.0.2.254/24 port 0 vlan 4095", -EINVAL,
		  "bad vlan '4095' (1-4094)" },
		{ "address add 10.0.2.254 port 0", -EINVAL,
		  "bad address '10.0.2.254' (want A.B.C.D/L)" },
		{ "address add 10.0.2.254/0 port 0", -EINVAL,
		  "bad address '10.0.2.254/0' (want A.B.C.D/L)" },
		{ "address add 10.0.2.254/33 port 0", -EINVAL,
		  "bad address '10.0.2.254/33' (want A.B.C.D/L)" },
		{ "address add 10.0.2/24 port 0", -EINVAL,
		  "bad address '10.0.2/24' (want A.B.C.D/L)" },
		{ "address add 10.0.2.254/24 port 9", -ENODEV,
		  "port 9 does not exist (2 ports)" },
		{ "address add 127.0.0.1/8 port 0", -EINVAL,
		  "127.0.0.1/8 cannot be an interface address" },
		{ "address add 224.0.0.1/24 port 0", -EINVAL,
		  "224.0.0.1/24 cannot be an interface address" },
		{ "address add 0.0.0.1/24 port 0", -EINVAL,
		  "0.0.0.1/24 cannot be an interface address" },
		{ "address add 10.0.0.254/24 port 0", -EEXIST,
		  "address 10.0.0.254/24 is already configured" },
		{ "route add 10.7.0.0/16", -EINVAL,
		  "usage: route add|replace|del PREFIX via GATEWAY "
		  "[weight W]... | blackhole | unreachable | prohibit; "
		  "route del PREFIX; route get ADDRESS [from A] [proto P "
		  "sport S dport D]; route flush" },
		{ "route add 10.7.0.0/16 dev 1", -EINVAL,
		  "usage: route add|replace|del PREFIX via GATEWAY "
		  "[weight W]... | blackhole | unreachable | prohibit; "
		  "route del PREFIX; route get ADDRESS [from A] [proto P "
		  "sport S dport D]; route flush" },
		{ "route add 10.7.0.0/16 via 10.5.5.5", -ENETUNREACH,
		  "gateway 10.5.5.5 is not on a connected subnet" },
		{ "route add 10.7.0.1/16 via 10.0.1.1", -EINVAL,
		  "prefix 10.7.0.1/16 has host bits set (the prefix is "
		  "10.7.0.0/16)" },
		/* issue 22: a route's length is never implied */
		{ "route add 10.8.0.0 via 10.0.1.1", -EINVAL,
		  "route needs a prefix length: 10.8.0.0/LEN (a host route "
		  "is 10.8.0.0/32)" },
		{ "route del 10.9.0.0", -EINVAL,
		  "route needs a prefix length: 10.9.0.0/LEN (a host route "
		  "is 10.9.0.0/32)" },
		{ "route add 10.8.0.1/16 via 10.0.1.1", -EINVAL,
		  "prefix 10.8.0.1/16 has host bits set (the prefix is "
		  "10.8.0.0/16)" },
		{ "route add 10.7.0.0/33 via 10.0.1.1", -EINVAL,
		  "bad prefix '10.7.0.0/33'" },
		{ "route add 10.7.0.0/ via 10.0.1.1", -EINVAL,
		  "bad prefix '10.7.0.0/'" },
		{ "route add 10.7.0.0/16 via 10.0.1", -EINVAL,
		  "bad gateway '10.0.1'" },
		{ "route add 10.9.0.0/16 via 10.0.1.1", -EEXIST,
		  "route 10.9.0.0/16 exists already" },
		{ "route add 10.66.0.0/16 blackhole", -EEXIST,
		  "route 10.66.0.0/16 exists already" },
		/* finding 10: we are no gateway or neighbour of ourselves,
		 * and a broadcast is no host */
		{ "route add 10.7.0.0/16 via 10.0.1.254", -EINVAL,
		  "gateway 10.0.1.254 is one of our addresses" },
		{ "route add 10.7.0.0/16 via 10.0.1.255", -EINVAL,
		  "gateway 10.0.1.255 is a broadcast address" },
		{ "neigh add 10.0.0.254 lladdr 02:00:00:00:00:09", -EINVAL,
		  "10.0.0.254 is one of our addresses" },
		{ "neigh add 10.0.0.255 lladdr 02:00:00:00:00:09", -EINVAL,
		  "10.0.0.255 is a broadcast address" },
		{ "address add 10.0.0.255/32 port 1", -EINVAL,
		  "10.0.0.255/32 cannot be an interface address: it is the "
		  "broadcast address of 10.0.0.254/24" },
		{ "address add 10.0.1.255/28 port 1", -EINVAL,
		  "10.0.1.255/28 cannot be an interface address: it is the "
		  "broadcast address of 10.0.1.254/24" },
		{ "address add 10.0.0.255/32 port 1 vlan 5", -EINVAL,
		  "10.0.0.255/32 cannot be an interface address: it is the "
		  "broadcast address of 10.0.0.254/24" },
		{ "address add 10.0.0.254/24 port 1 vlan 6", -EEXIST,
		  "address 10.0.0.254/24 is already configured" },
		/* issue 22: no address that looks wrong is taken */
		{ "address add 10.0.2.0/24 port 0", -EINVAL,
		  "10.0.2.0/24 cannot be an interface address: 10.0.2.0 is "
		  "the network address of 10.0.2.0/24" },
		{ "address add 10.0.2.0/30 port 0", -EINVAL,
		  "10.0.2.0/30 cannot be an interface address: 10.0.2.0 is "
		  "the network address of 10.0.2.0/30" },
		{ "address add 10.0.2.255/24 port 0", -EINVAL,
		  "10.0.2.255/24 cannot be an interface address: 10.0.2.255 "
		  "is the broadcast address of 10.0.2.0/24" },
		{ "address add 10.0.0.7/16 port 1", -EADDRINUSE,
		  "10.0.0.7/16 overlaps 10.0.0.254/24 on port 0 (a subnet "
		  "is connected on one interface only)" },
		{ "address add 10.0.1.7/28 port 0 vlan 9", -EADDRINUSE,
		  "10.0.1.7/28 overlaps 10.0.1.254/24 on port 1 (a subnet "
		  "is connected on one interface only)" },
		{ "address add 10.0.0.9/32 port 1", -EADDRINUSE,
		  "10.0.0.9/32 overlaps 10.0.0.254/24 on port 0 (a subnet "
		  "is connected on one interface only)" },
		{ "route del 10.7.0.0/16", -ENOENT,
		  "no route 10.7.0.0/16 to delete" },
		{ "route del 10.0.0.0/24", -ENOENT,
		  "no route 10.0.0.0/24 to delete" },
		{ "route del 10.9.0.1/16", -EINVAL,
		  "prefix 10.9.0.1/16 has host bits set (the prefix is "
		  "10.9.0.0/16)" },
		{ "neigh add 10.5.0.1 lladdr 02:00:00:00:05:01", -ENETUNREACH,
		  "10.5.0.1 is not on a connected subnet" },
		{ "neigh add 10.0.0.9 lladdr ff:ff:ff:ff:ff:ff", -EINVAL,
		  "MAC address ff:ff:ff:ff:ff:ff is not a unicast address" },
		{ "neigh add 10.0.0.9 02:00:00:00:00:09", -EINVAL,
		  "usage: neigh add A.B.C.D lladdr MAC | neigh del A.B.C.D | neigh flush" },
		{ "neigh add 10.0.0 lladdr 02:00:00:00:00:09", -EINVAL,
		  "bad address '10.0.0'" },
		{ "udp", -EINVAL, UDP_USAGE },
		{ "udp listen 10.0.0.254:7", -EINVAL, UDP_USAGE },
		{ "udp bind 10.0.0.254:7 echo", -EINVAL,
		  "udp: unknown word 'bind' (listen, close)" },
		{ "udp listen 10.0.0.254 echo", -EINVAL,
		  "bad endpoint '10.0.0.254' (want A.B.C.D:PORT)" },
		{ "udp listen 10.0.0:7 echo", -EINVAL,
		  "bad address in '10.0.0:7'" },
		{ "udp listen 10.0.0.254:0 echo", -EINVAL,
		  "bad port in '10.0.0.254:0' (1-65535)" },
		{ "udp listen 10.0.0.254:65536 echo", -EINVAL,
		  "bad port in '10.0.0.254:65536' (1-65535)" },
		{ "udp listen 10.0.0.254:7 chargen", -EINVAL,
		  "unknown service 'chargen' (echo, discard or pcap FILE)" },
		{ "udp listen 10.0.0.254:7 pcap", -EINVAL, "pcap needs a FILE" },
		{ "udp listen 10.0.0.254:7 echo ring", -EINVAL, UDP_RING },
		{ "udp listen 10.0.0.254:7 echo ring 0", -EINVAL, UDP_RING },
		{ "udp listen 10.0.0.254:7 echo size 5", -EINVAL, UDP_RING },
		{ "udp listen 10.0.5.1:7 echo", -EADDRNOTAVAIL,
		  "10.0.5.1:7: not one of our addresses (add it first, or "
		  "listen on 0.0.0.0)" },
		{ "udp listen 10.0.0.254:7 pcap /nonexistent/x.pcap", -EACCES,
		  "cannot write pcap file '/nonexistent/x.pcap'" },
		{ "gro", -EINVAL, GRO_USAGE },
		{ "gro on", -EINVAL,
		  "gro: unknown word 'on' (fraglist, merge, off)" },
		{ "gro fraglist flows", -EINVAL, GRO_USAGE },
		{ "gro fraglist flows 0", -EINVAL, "bad flows '0' (1-256)" },
		{ "gro fraglist flows 257", -EINVAL, "bad flows '257' (1-256)" },
		{ "gro fraglist segs 1", -EINVAL, "bad segs '1' (2-64)" },
		{ "gro fraglist segs 65", -EINVAL, "bad segs '65' (2-64)" },
		{ "gro fraglist depth 3", -EINVAL,
		  "unknown gro setting 'depth'" },
		{ "route-cache", -EINVAL, RCACHE_USAGE },
		{ "route-cache on entries", -EINVAL, RCACHE_USAGE },
		{ "route-cache on size 5", -EINVAL, RCACHE_USAGE },
		{ "route-cache on entries 0", -EINVAL,
		  "bad entries '0' (1-16777216)" },
		{ "route-cache on entries 16777217", -EINVAL,
		  "bad entries '16777217' (1-16777216)" },
		{ "filter", -EINVAL, FILTER_USAGE },
		{ "filter add reject", -EINVAL, FILTER_USAGE },
		{ "filter add drop proto", -EINVAL, FILTER_USAGE },
		{ "filter add drop proto sctp", -EINVAL,
		  "bad protocol 'sctp' (udp, tcp, icmp or 1-255)" },
		{ "filter add drop proto 0", -EINVAL,
		  "bad protocol '0' (udp, tcp, icmp or 1-255)" },
		{ "filter add drop dst 10.0.0.1/24", -EINVAL,
		  "prefix 10.0.0.1/24 has host bits set (the prefix is "
		  "10.0.0.0/24)" },
		{ "filter add drop src 10.0.0.0/33", -EINVAL,
		  "bad prefix '10.0.0.0/33'" },
		{ "filter add drop proto udp dport 53-1", -EINVAL,
		  "bad port range '53-1' (A or A-B)" },
		{ "filter add drop proto udp sport x", -EINVAL,
		  "bad port range 'x' (A or A-B)" },
		{ "filter add drop dport 53", -EINVAL,
		  "ports need 'proto udp' or 'proto tcp'" },
		{ "filter add drop ttl 5", -EINVAL,
		  "unknown filter field 'ttl'" },
	};
	struct config_state *c = *state;
	struct rte_ether_addr mac;
	unsigned int i;
	uint16_t mtu;

	load_fixture(c);
	for (i = 0; i < RTE_DIM(cases); i++) {
		char err[256], want[256];
		int rc;

		rc = lsk_config_exec(c->s, cases[i].line, "t.conf", 10 + i,
				     err, sizeof(err));
		snprintf(want, sizeof(want), "t.conf:%u: %s", 10 + i,
			 cases[i].text);
		if (rc != cases[i].rc || strcmp(err, want) != 0)
			print_error("'%s': %d '%s'\n", cases[i].line, rc, err);
		assert_int_equal(rc, cases[i].rc);
		assert_string_equal(err, want);
	}

	/* none of it changed anything */
	assert_int_equal(c->s->n_services, 0);
	assert_int_equal(c->s->gro_flows, 0);
	assert_int_equal(c->s->rcache_entries, 0);
	assert_int_equal(c->s->n_filters, 0);
	assert_int_equal(lsk_port_get(c->s, 0, &mac, &mtu), 0);
	assert_memory_equal(&mac, &unit_p0_mac, RTE_ETHER_ADDR_LEN);
	assert_int_equal(mtu, 1500);
	assert_int_equal(lookup(c, UNIT_IPV4(10, 7, 0, 1))->type,
			 LSK_NH_NONE);
	assert_forwards(c, UNIT_FAR_IP, UNIT_P1, &unit_b_mac);
	assert_int_equal(lookup(c, UNIT_IPV4(10, 0, 2, 254))->type,
			 LSK_NH_NONE);
	assert_int_equal(lookup(c, UNIT_IPV4(10, 0, 0, 255))->type,
			 LSK_NH_LOCAL_BCAST);
	assert_int_equal(c->s->n_addrs, 2);
	assert_int_equal(c->s->n_neighs, 2);
	assert_int_equal(c->s->n_routes, 2);
	assert_int_equal(c->s->n_ifaces, 2);	/* no VLAN made for nothing */
}

/* An address whose subnet broadcast is already one of our addresses. */
static void
test_address_broadcast_clash(void **state)
{
	struct config_state *c = *state;
	char err[256];

	exec_ok(c, "address add 10.0.5.255/32 port 1");
	assert_int_equal(exec(c, "address add 10.0.5.1/24 port 0", err,
			      sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.conf:1: 10.0.5.1/24 cannot be an interface "
			    "address: its broadcast address 10.0.5.255 is "
			    "one of our addresses");
	assert_int_equal(c->s->n_addrs, 1);
	assert_int_equal(lookup(c, UNIT_IPV4(10, 0, 5, 1))->type, LSK_NH_NONE);
	/* /31 and /32 have no broadcast address to clash (on port 1: the
	 * /31 holds port 1's 10.0.5.255, no other port may have it) */
	exec_ok(c, "address add 10.0.5.254/31 port 1");
}

/* Issue 22: a subnet is connected on one interface (more addresses in
 * it on that one are fine); /31 and /32 have no network address. */
static void
test_address_overlap(void **state)
{
	struct config_state *c = *state;
	char err[256];

	load_fixture(c);
	exec_ok(c, "address add 10.0.0.9/24 port 0");
	exec_ok(c, "address add 10.5.0.1/24 port 0 vlan 100");
	exec_ok(c, "address add 10.5.0.2/25 port 0 vlan 100");
	assert_int_equal(exec(c, "address add 10.5.0.9/16 port 1", err,
			      sizeof(err)), -EADDRINUSE);
	assert_string_equal(err, "t.conf:1: 10.5.0.9/16 overlaps 10.5.0.1/24 "
			    "on port 0 vlan 100 (a subnet is connected on one "
			    "interface only)");
	assert_int_not_equal(lookup(c, UNIT_IPV4(10, 5, 0, 9))->port, UNIT_P1);
	exec_ok(c, "address add 10.0.4.0/31 port 1");
	exec_ok(c, "address add 10.0.4.2/32 port 1");
	/* the library refuses them too */
	assert_int_equal(lsk_address_add(c->s, UNIT_IPV4(10, 0, 6, 0), 24, 0),
			 -EINVAL);
	assert_int_equal(lsk_address_add(c->s, UNIT_IPV4(10, 0, 0, 8), 16, 1),
			 -EADDRINUSE);
}

/* A refused gro line leaves the mode as it was (found by fuzz_command:
 * 'gro merge flows 0' switched merge on while refusing the line). */
static void
test_refused_gro_keeps_mode(void **state)
{
	struct config_state *c = *state;
	char err[128];

	exec_ok(c, "gro fraglist flows 8 segs 16");
	assert_int_equal(exec(c, "gro merge flows 0", err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(exec(c, "gro merge segs 99", err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(exec(c, "gro merge bogus 1", err, sizeof(err)),
			 -EINVAL);
	assert_false(c->s->gro_merge);
	assert_int_equal(c->s->gro_flows, 8);
	assert_int_equal(c->s->gro_segs, 16);
	exec_ok(c, "gro merge flows 4");
	assert_true(c->s->gro_merge);
	assert_int_equal(exec(c, "gro fraglist flows 300", err, sizeof(err)),
			 -EINVAL);
	assert_true(c->s->gro_merge);
	assert_int_equal(c->s->gro_flows, 4);
}

/* Without a file name the text says "-". */
static void
test_error_without_file_name(void **state)
{
	struct config_state *c = *state;
	char err[64];

	assert_int_equal(lsk_config_exec(c->s, "bogus", NULL, 3, err,
					 sizeof(err)), -EINVAL);
	assert_string_equal(err, "-:3: unknown command 'bogus' (port, "
			    "address, route, ...)");
}

/* A short error buffer gets a truncated, terminated text. */
static void
test_error_buffer_truncated(void **state)
{
	struct config_state *c = *state;
	char err[16];

	memset(err, 'x', sizeof(err));
	assert_int_equal(exec(c, "bogus", err, 12), -EINVAL);
	assert_string_equal(err, "t.conf:1: u");
	assert_int_equal(err[12], 'x');
	/* no buffer at all */
	assert_int_equal(exec(c, "bogus", NULL, 0), -EINVAL);
}

/* Blank lines and comments do nothing. */
static void
test_blank_and_comment_lines(void **state)
{
	static const char *const lines[] = {
		"", "   ", "\t", "# a comment", "   # indented", "\r\n",
	};
	struct config_state *c = *state;
	unsigned int i;

	for (i = 0; i < RTE_DIM(lines); i++)
		exec_ok(c, lines[i]);
}

static void
test_too_many_words(void **state)
{
	struct config_state *c = *state;
	char err[128], line[1024];
	size_t k = 0;
	unsigned int i;

	/* 73 words: more than the grammar's longest line, a route of 16
	 * weighted paths (67), and the 72 a line may have */
	k += (size_t)snprintf(line, sizeof(line), "route add 10.7.0.0/16");
	for (i = 0; i < LSK_ROUTE_MAX_PATHS; i++)
		k += (size_t)snprintf(line + k, sizeof(line) - k,
				      " via 10.0.0.%u weight 1", i + 1);
	snprintf(line + k, sizeof(line) - k, " via 10.0.0.20 weight 1 via "
		 "10.0.0.21");
	assert_int_equal(exec(c, line, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.conf:1: too many words");
}

/* port N mtu M mac MAC, in any order, bounds included. */
static void
test_port_settings(void **state)
{
	static const struct rte_ether_addr mac99 = {
		.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x99 } };
	struct config_state *c = *state;
	struct rte_ether_addr mac;
	uint16_t mtu;

	exec_ok(c, "port 1 mtu 1000 mac 02:00:00:00:01:99");
	assert_int_equal(lsk_port_get(c->s, 1, &mac, &mtu), 0);
	assert_memory_equal(&mac, &mac99, RTE_ETHER_ADDR_LEN);
	assert_int_equal(mtu, 1000);

	exec_ok(c, "port 1 mac 02:00:00:00:01:fe mtu 68");
	assert_int_equal(lsk_port_get(c->s, 1, &mac, &mtu), 0);
	assert_memory_equal(&mac, &unit_p1_mac, RTE_ETHER_ADDR_LEN);
	assert_int_equal(mtu, 68);
	exec_ok(c, "port 1 mtu 9000");
	assert_int_equal(lsk_port_get(c->s, 1, NULL, &mtu), 0);
	assert_int_equal(mtu, 9000);
	/* nothing to set is fine */
	exec_ok(c, "port 1");
	assert_int_equal(lsk_port_get(c->s, 2, NULL, NULL), -ENODEV);

	/* the forwarding table follows */
	exec_ok(c, "address add 10.0.1.254/24 port 1");
	exec_ok(c, "neigh add 10.0.1.1 lladdr 02:00:00:00:01:01");
	assert_int_equal(lookup(c, UNIT_B_IP)->mtu, 9000);
	assert_memory_equal(&lookup(c, UNIT_B_IP)->src_mac, &unit_p1_mac,
			    RTE_ETHER_ADDR_LEN);
}

/* "default" is 0.0.0.0/0, for add and del. */
static void
test_default_route(void **state)
{
	struct config_state *c = *state;
	char err[128];

	load_fixture(c);
	exec_ok(c, "route add default via 10.0.1.1");
	assert_forwards(c, UNIT_IPV4(192, 168, 1, 1), UNIT_P1, &unit_b_mac);
	assert_int_equal(exec(c, "route add 0.0.0.0/0 via 10.0.0.1", err,
			      sizeof(err)), -EEXIST);
	assert_string_equal(err, "t.conf:1: route 0.0.0.0/0 exists already");
	exec_ok(c, "route del 0.0.0.0/0");
	assert_int_equal(lookup(c, UNIT_IPV4(192, 168, 1, 1))->type,
			 LSK_NH_NONE);
	exec_ok(c, "route add 0.0.0.0/0 via 10.0.0.1");
	assert_forwards(c, UNIT_IPV4(192, 168, 1, 1), UNIT_P0, &unit_a_mac);
	exec_ok(c, "route del default");
	assert_int_equal(lookup(c, UNIT_IPV4(192, 168, 1, 1))->type,
			 LSK_NH_NONE);
}

/* A second neigh add for an address replaces its MAC. */
static void
test_neigh_replaced(void **state)
{
	static const struct rte_ether_addr mac = {
		.addr_bytes = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x42 } };
	struct config_state *c = *state;

	load_fixture(c);
	exec_ok(c, "neigh add 10.0.1.1 lladdr 02:00:00:00:01:42");
	assert_forwards(c, UNIT_B_IP, UNIT_P1, &mac);
	assert_forwards(c, UNIT_FAR_IP, UNIT_P1, &mac);
}

/* /31 and /32 interface addresses have no broadcast address. */
static void
test_point_to_point_addresses(void **state)
{
	struct config_state *c = *state;

	exec_ok(c, "address add 10.0.3.1/31 port 1");
	exec_ok(c, "address add 10.0.4.1/32 port 0");
	assert_int_equal(lookup(c, UNIT_IPV4(10, 0, 3, 1))->type,
			 LSK_NH_LOCAL);
	assert_forwards(c, UNIT_IPV4(10, 0, 3, 0), UNIT_P1, NULL);
	assert_int_equal(lookup(c, UNIT_IPV4(10, 0, 4, 1))->type,
			 LSK_NH_LOCAL);
	assert_int_equal(lookup(c, UNIT_IPV4(10, 0, 4, 2))->type,
			 LSK_NH_NONE);
}

/* The service, GRO, route cache and filter commands take effect. */
static void
test_service_and_feature_commands(void **state)
{
	struct config_state *c = *state;
	char err[256];

	load_fixture(c);
	exec_ok(c, "udp listen 10.0.0.254:9 discard");
	exec_ok(c, "udp listen 0.0.0.0:9 discard ring 64");
	assert_int_equal(c->s->n_services, 2);
	assert_int_equal(exec(c, "udp listen 10.0.0.254:9 echo", err,
			      sizeof(err)), -EADDRINUSE);
	assert_string_equal(err, "t.conf:1: 10.0.0.254:9 is already in use");
	assert_int_equal(c->s->n_services, 2);

	exec_ok(c, "gro fraglist");
	assert_int_equal(c->s->gro_flows, 64);
	assert_int_equal(c->s->gro_segs, 64);
	exec_ok(c, "gro fraglist segs 8 flows 16");
	assert_int_equal(c->s->gro_flows, 16);
	assert_int_equal(c->s->gro_segs, 8);
	exec_ok(c, "gro off");
	assert_int_equal(c->s->gro_flows, 0);

	exec_ok(c, "route-cache on");
	assert_int_equal(c->s->rcache_entries, 4096);
	exec_ok(c, "route-cache on entries 128");
	assert_int_equal(c->s->rcache_entries, 128);
	exec_ok(c, "route-cache off");
	assert_int_equal(c->s->rcache_entries, 0);

	exec_ok(c, "filter add drop proto udp dst 10.0.0.0/24 dport 53");
	exec_ok(c, "filter add accept proto 17 sport 1-1023 src 10.9.0.0/16");
	exec_ok(c, "filter add drop proto icmp");
	assert_int_equal(c->s->n_filters, 3);
	exec_ok(c, "filter flush");
	assert_int_equal(c->s->n_filters, 0);
}

/* A bad line in a file: its name and line number, and the error code. */
static void
test_load_error_names_line(void **state)
{
	struct config_state *c = *state;
	char err[256], want[256];
	const char *path;

	path = write_conf(c,
		"# comment\n"
		"address add 10.0.0.254/24 port 0\n"
		"\n"
		"route add 10.9.0.0/16 via 10.0.7.1\n"
		"address add 10.0.1.254/24 port 1\n");
	assert_int_equal(lsk_config_load(c->s, path, err, sizeof(err)),
			 -ENETUNREACH);
	snprintf(want, sizeof(want),
		 "%s:4: gateway 10.0.7.1 is not on a connected subnet", path);
	assert_string_equal(err, want);
	/* the lines after the bad one were not applied */
	assert_int_equal(lookup(c, UNIT_P1_IP)->type, LSK_NH_NONE);
}

/*
 * listack.h: a file with a bad line changes nothing, not even the lines
 * before it: the published table is the one from before the load, and
 * the lists it is built from are as they were.
 */
static void
test_load_error_changes_nothing(void **state)
{
	struct config_state *c = *state;
	const struct lsk_fwd_table *before = c->s->sh.fwd;
	char err[256];
	const char *path;

	path = write_conf(c,
		"address add 10.0.0.254/24 port 0\n"
		"neigh add 10.0.0.1 lladdr 02:00:00:00:00:01\n"
		"bogus\n");
	assert_int_equal(lsk_config_load(c->s, path, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, ":3: unknown command 'bogus' (port, "
			       "address, route, ...)"));
	assert_ptr_equal(c->s->sh.fwd, before);
	assert_int_equal(c->s->n_addrs, 0);
	assert_int_equal(c->s->n_neighs, 0);
	assert_int_not_equal(lookup(c, UNIT_P0_IP)->type, LSK_NH_LOCAL);
}

/* A refused 'udp listen ... pcap FILE' leaves FILE as it was. */
static void
test_refused_pcap_service_keeps_file(void **state)
{
	static const char text[] = "precious data\n";
	struct config_state *c = *state;
	char line[128], err[256], back[64] = { 0 };
	const char *path;
	FILE *f;

	load_fixture(c);
	path = write_conf(c, text);
	snprintf(line, sizeof(line), "udp listen 10.0.5.1:7 pcap %s", path);
	assert_int_equal(exec(c, line, err, sizeof(err)), -EADDRNOTAVAIL);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_true(fread(back, 1, sizeof(back) - 1, f) > 0);
	fclose(f);
	assert_string_equal(back, text);
}

static void
test_load_missing_file(void **state)
{
	struct config_state *c = *state;
	char err[256];

	assert_int_equal(lsk_config_load(c->s, "/nonexistent/x.conf", err,
					 sizeof(err)), -ENOENT);
	assert_string_equal(err, "/nonexistent/x.conf:0: cannot open: "
			    "No such file or directory");
}

static void
test_load_line_too_long(void **state)
{
	struct config_state *c = *state;
	char text[2048], err[256], want[256];
	const char *path;

	snprintf(text, sizeof(text), "# fine\n# %01500d\nport 0 mtu 1400\n",
		 0);
	path = write_conf(c, text);
	assert_int_equal(lsk_config_load(c->s, path, err, sizeof(err)),
			 -EINVAL);
	snprintf(want, sizeof(want), "%s:2: line too long", path);
	assert_string_equal(err, want);
}

/* Finding 10: what is not a config file is refused, never read as one. */
static void
test_load_not_a_regular_file(void **state)
{
	struct config_state *c = *state;
	char err[256];

	assert_int_equal(lsk_config_load(c->s, "/tmp", err, sizeof(err)),
			 -EISDIR);
	assert_string_equal(err, "/tmp:0: cannot read: Is a directory");
	assert_int_equal(lsk_config_load(c->s, "/dev/zero", err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "/dev/zero:0: cannot read: not a regular "
			    "file");
	/* a FIFO with no writer: refused at once, not waited on */
	snprintf(c->path, sizeof(c->path), "/tmp/lsk_unit_fifo%d", getpid());
	assert_int_equal(mkfifo(c->path, 0600), 0);
	assert_int_equal(lsk_config_load(c->s, c->path, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, ":0: cannot read: not a regular file"));
	assert_int_equal(c->s->n_addrs, 0);
}

/* A NUL byte ends no line: the line is refused, not cut short. */
static void
test_load_nul_byte(void **state)
{
	static const char text[] = "# fine\n"
		"address add 10.0.0.254/24 port 0\0port 7\n"
		"address add 10.0.1.254/24 port 1\n";
	struct config_state *c = *state;
	char err[256], want[256];
	FILE *f;

	write_conf(c, "");
	f = fopen(c->path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, sizeof(text) - 1, f),
			 sizeof(text) - 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(lsk_config_load(c->s, c->path, err, sizeof(err)),
			 -EINVAL);
	snprintf(want, sizeof(want), "%s:2: NUL byte in the line", c->path);
	assert_string_equal(err, want);
	assert_int_equal(c->s->n_addrs, 0);
}

/* A file of NUL bytes and no newline (what /dev/zero would give) ends
 * at its first line. */
static void
test_load_zeros(void **state)
{
	static char zeros[1 << 16];
	struct config_state *c = *state;
	char err[256], want[256];
	FILE *f;

	write_conf(c, "");
	f = fopen(c->path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(zeros, 1, sizeof(zeros), f), sizeof(zeros));
	assert_int_equal(fclose(f), 0);
	assert_int_equal(lsk_config_load(c->s, c->path, err, sizeof(err)),
			 -EINVAL);
	snprintf(want, sizeof(want), "%s:1: NUL byte in the line", c->path);
	assert_string_equal(err, want);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, config_setup, \
					       config_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_load_fixture_file),
		T(test_error_texts),
		T(test_error_without_file_name),
		T(test_error_buffer_truncated),
		T(test_blank_and_comment_lines),
		T(test_too_many_words),
		T(test_port_settings),
		T(test_default_route),
		T(test_neigh_replaced),
		T(test_point_to_point_addresses),
		T(test_service_and_feature_commands),
		T(test_load_error_names_line),
		T(test_load_error_changes_nothing),
		T(test_refused_pcap_service_keeps_file),
		T(test_load_missing_file),
		T(test_load_line_too_long),
		T(test_address_broadcast_clash),
		T(test_address_overlap),
		T(test_load_not_a_regular_file),
		T(test_load_nul_byte),
		T(test_load_zeros),
		T(test_refused_gro_keeps_mode),
	};

	return cmocka_run_group_tests_name("config", tests, unit_group_setup,
					   unit_group_teardown);
}
