/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * show: every view as text and as JSON, checked whole (the fixture's
 * configuration, and a few more items, give exact answers), every JSON
 * answer parsed by a small checker, and `show config` loaded into a fresh
 * stack giving the same `show config` back.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit_common.h"
#include "cli/cli.h"
#include "control/control.h"

#include <rte_version.h>

/* --- a JSON checker: one value, whole, nothing after it ------------- */

static const char *json_value(const char *p, int depth);

static const char *
json_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *
json_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				int i;

				for (i = 1; i <= 4; i++)
					if (!isxdigit((unsigned char)p[i]))
						return NULL;
				p += 4;
			} else if (strchr("\"\\/bfnrt", *p) == NULL) {
				return NULL;
			}
		}
		p++;
	}
	return p + 1;
}

static const char *
json_number(const char *p)
{
	const char *start;

	if (*p == '-')
		p++;
	start = p;
	while (isdigit((unsigned char)*p))
		p++;
	if (p == start)
		return NULL;
	if (*p == '.') {
		start = ++p;
		while (isdigit((unsigned char)*p))
			p++;
		if (p == start)
			return NULL;
	}
	return p;
}

/* The members of an object (obj) or the items of an array. */
static const char *
json_list(const char *p, int depth, bool obj)
{
	char close = obj ? '}' : ']';

	p = json_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		p = json_ws(p);
		if (obj) {
			p = json_string(p);
			if (p == NULL)
				return NULL;
			p = json_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = json_value(p, depth + 1);
		if (p == NULL)
			return NULL;
		p = json_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *
json_value(const char *p, int depth)
{
	if (depth > 16)
		return NULL;
	p = json_ws(p);
	if (*p == '{' || *p == '[')
		return json_list(p, depth, *p == '{');
	if (*p == '"')
		return json_string(p);
	if (strncmp(p, "true", 4) == 0 || strncmp(p, "null", 4) == 0)
		return p + 4;
	if (strncmp(p, "false", 5) == 0)
		return p + 5;
	return json_number(p);
}

static void
assert_json(const char *text)
{
	const char *end = json_value(text, 0);

	if (end == NULL || *json_ws(end) != '\0')
		print_error("not one JSON value:\n%s\n", text);
	assert_non_null(end);
	assert_int_equal(*json_ws(end), '\0');
}

/* The checker itself refuses what is not JSON. */
static void
test_json_checker(void **state)
{
	static const char *const bad[] = {
		"", "[", "[1,]", "{\"a\" 1}", "{\"a\": 1,}", "[1] 2", "\"a",
		"[01x]", "{a: 1}", "[\"\\q\"]", "-", "1.", "[nul]",
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < RTE_DIM(bad); i++) {
		const char *end = json_value(bad[i], 0);

		assert_true(end == NULL || *json_ws(end) != '\0');
	}
	assert_non_null(json_value("{\"a\": [1, -2.5, \"x\\u0001\", null, "
				   "true, false, {}]}", 0));
}

/* --- running views ------------------------------------------------ */

static int
run_on(struct lsk_stack *s, struct lsk_worker *w, const char *text,
       bool json, struct lsk_out *o)
{
	int rc;

	lsk_out_init(o, json);
	if (w != NULL)
		lsk_worker_offline(w);
	rc = lsk_command_run(s, text, strlen(text), "t", o);
	if (rc != 0)
		print_error("'%s': %s\n", text, o->err);
	return rc;
}

/* The answer to text (asserted accepted), malloc'd; JSON is checked. */
static char *
answer(struct unit_fixture *f, const char *text, bool json)
{
	struct lsk_out o;
	char *a;

	assert_int_equal(run_on(f->stack, f->worker, text, json, &o), 0);
	unit_worker_sync(f);
	a = strdup(o.buf ? o.buf : "");
	assert_non_null(a);
	lsk_out_free(&o);
	if (json)
		assert_json(a);
	return a;
}

static void
assert_prefix(const char *text, const char *prefix)
{
	if (text == NULL || strncmp(text, prefix, strlen(prefix)) != 0)
		print_error("'%s'\ndoes not start with\n'%s'\n",
			    text ? text : "(null)", prefix);
	assert_non_null(text);
	assert_int_equal(strncmp(text, prefix, strlen(prefix)), 0);
}

static void
assert_answer(struct unit_fixture *f, const char *text, bool json,
	      const char *want)
{
	char *a = answer(f, text, json);

	if (strcmp(a, want) != 0)
		print_error("'%s' (json %d):\n%s\nwant:\n%s\n", text, json, a,
			    want);
	assert_string_equal(a, want);
	free(a);
}

static void
cmd(struct unit_fixture *f, const char *text)
{
	free(answer(f, text, false));
}

static const char more_conf[] =
	"address add 10.0.5.1/24 port 1 vlan 100\n"
	"address add 192.0.2.1/31 port 0\n"
	"udp listen 10.0.0.254:7 echo\n"
	"udp listen 0.0.0.0:9 discard ring 256\n"
	"filter add drop proto udp dst 10.0.0.0/24 dport 53\n"
	"filter add accept src 10.1.0.0/16 proto 6 sport 1000-2000\n";

static void
test_show_interfaces(void **state)
{
	struct unit_fixture *f = *state;

	cmd(f, more_conf);
	/* the view's layout and its facts: tests/unit/cli/test_iface.c */
	assert_answer(f, "show interfaces", false,
		"0: port0: <UP> mtu 1500 state UNKNOWN\n"
		"    link/ether 02:00:00:00:00:FE\n"
		"    RX: bytes packets errors missed dropped\n"
		"            -       -      -      -       0\n"
		"    TX: bytes packets errors dropped\n"
		"            -       -      -       0\n"
		"1: port1: <UP> mtu 1500 state UNKNOWN\n"
		"    link/ether 02:00:00:00:01:FE\n"
		"    RX: bytes packets errors missed dropped\n"
		"            -       -      -      -       0\n"
		"    TX: bytes packets errors dropped\n"
		"            -       -      -       0\n"
		"2: port1.100@port1: <UP> mtu 1500 state UNKNOWN\n"
		"    link/ether 02:00:00:00:01:FE vlan 100\n"
		"    counters: port1's (the stack counts none per VLAN)\n");
	free(answer(f, "show interfaces", true));	/* JSON, checked */
}

static void
test_show_addresses(void **state)
{
	struct unit_fixture *f = *state;

	cmd(f, more_conf);
	assert_answer(f, "show addresses", false,
		"IFACE      ADDRESS               BROADCAST   STATE\n"
		"port0      10.0.0.254/24         10.0.0.255  -\n"
		"port1      10.0.1.254/24         10.0.1.255  -\n"
		"port1.100  10.0.5.1/24           10.0.5.255  -\n"
		"port0      192.0.2.1/31          -           -\n"
		"port0      fe80::ff:fe00:fe/64   -           tentative\n"
		"port1      fe80::ff:fe00:1fe/64  -           tentative\n"
		"port1.100  fe80::ff:fe00:1fe/64  -           tentative\n");
	assert_answer(f, "show addresses", true,
		"[{\"iface\": \"port0\", \"address\": \"10.0.0.254/24\", "
		"\"broadcast\": \"10.0.0.255\"}, "
		"{\"iface\": \"port1\", \"address\": \"10.0.1.254/24\", "
		"\"broadcast\": \"10.0.1.255\"}, "
		"{\"iface\": \"port1.100\", \"address\": \"10.0.5.1/24\", "
		"\"broadcast\": \"10.0.5.255\"}, "
		"{\"iface\": \"port0\", \"address\": \"192.0.2.1/31\", "
		"\"broadcast\": null}, "
		"{\"iface\": \"port0\", \"address\": \"fe80::ff:fe00:fe/64\", "
		"\"broadcast\": null, \"scope\": \"link\", \"state\": "
		"\"tentative\"}, "
		"{\"iface\": \"port1\", \"address\": "
		"\"fe80::ff:fe00:1fe/64\", \"broadcast\": null, \"scope\": "
		"\"link\", \"state\": \"tentative\"}, "
		"{\"iface\": \"port1.100\", \"address\": "
		"\"fe80::ff:fe00:1fe/64\", \"broadcast\": null, \"scope\": "
		"\"link\", \"state\": \"tentative\"}]\n");
}

/* Statics, one learnt by ARP, one waiting for ARP with a packet held. */
static void
test_show_neigh(void **state)
{
	static const struct rte_ether_addr mac9 = {
		{ 0x02, 0, 0, 0, 0, 0x09 } };
	struct unit_fixture *f = *state;
	struct unit_pkt p;

	unit_input_one(f, unit_arp_mbuf(UNIT_P0, 1, &unit_p0_mac, &mac9,
					UNIT_IPV4(10, 0, 0, 9), NULL,
					UNIT_P0_IP));
	unit_pkt_init(&p, UNIT_IPV4(10, 0, 1, 3));
	unit_input_pkt(f, &p);
	unit_tx_free(f);
	assert_answer(f, "show neigh", false,
		"ADDRESS   IFACE  MAC                STATE       HELD\n"
		"10.0.0.1  port0  02:00:00:00:00:01  static      0\n"
		"10.0.0.9  port0  02:00:00:00:00:09  reachable   0\n"
		"10.0.1.1  port1  02:00:00:00:01:01  static      0\n"
		"10.0.1.3  port1  -                  incomplete  1\n");
	assert_answer(f, "show neigh", true,
		"[{\"address\": \"10.0.0.1\", \"iface\": \"port0\", "
		"\"mac\": \"02:00:00:00:00:01\", \"state\": \"static\", "
		"\"held\": 0}, "
		"{\"address\": \"10.0.0.9\", \"iface\": \"port0\", "
		"\"mac\": \"02:00:00:00:00:09\", \"state\": \"reachable\", "
		"\"held\": 0}, "
		"{\"address\": \"10.0.1.1\", \"iface\": \"port1\", "
		"\"mac\": \"02:00:00:00:01:01\", \"state\": \"static\", "
		"\"held\": 0}, "
		"{\"address\": \"10.0.1.3\", \"iface\": \"port1\", "
		"\"mac\": null, \"state\": \"incomplete\", \"held\": 1}]\n");
}

/* Services, then what an application bound; one datagram waits. */
static void
test_show_udp(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep;
	struct unit_pkt p;
	char path[64], want[1024];
	int fd;

	snprintf(path, sizeof(path), "/tmp/lsk_show_XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	snprintf(want, sizeof(want), "udp listen 10.0.1.254:5 pcap %s", path);
	cmd(f, more_conf);
	cmd(f, want);
	ep = unit_bind(f, UNIT_P0_IP, 4000, NULL);
	unit_pkt_init(&p, UNIT_P0_IP);
	p.dport = 9;
	unit_input_pkt(f, &p);
	unit_tx_free(f);
	{
		char *a = answer(f, "show udp", false);

		/* the columns widen for the longest LISTEN */
		assert_non_null(strstr(a, "LISTEN           SERVICE  RING  "
					  "QUEUED  DATAGRAMS  FILE\n"));
		assert_non_null(strstr(a, "\n0.0.0.0:9        discard  256   "
					  "1       0          -\n"));
		assert_non_null(strstr(a, "\n10.0.0.254:4000  app      4096  "
					  "0       -          -\n"));
		assert_non_null(strstr(a, "\n10.0.0.254:7     echo     4096  "
					  "0       0          -\n"));
		assert_memory_equal(strstr(a, "\n10.0.1.254:5"),
				    "\n10.0.1.254:5     pcap     4096  0       "
				    "0          /tmp/lsk_show_", 59);
		free(a);
	}
	snprintf(want, sizeof(want),
		"[{\"listen\": \"10.0.0.254:7\", \"service\": \"echo\", "
		"\"ring\": 4096, \"queued\": 0, \"datagrams\": 0, "
		"\"file\": null}, "
		"{\"listen\": \"0.0.0.0:9\", \"service\": \"discard\", "
		"\"ring\": 256, \"queued\": 1, \"datagrams\": 0, "
		"\"file\": null}, "
		"{\"listen\": \"10.0.1.254:5\", \"service\": \"pcap\", "
		"\"ring\": 4096, \"queued\": 0, \"datagrams\": 0, "
		"\"file\": \"%s\"}, "
		"{\"listen\": \"10.0.0.254:4000\", \"service\": \"app\", "
		"\"ring\": 4096, \"queued\": 0, \"datagrams\": null, "
		"\"file\": null}]\n", path);
	assert_answer(f, "show udp", true, want);
	/* the service has taken it */
	lsk_services_poll(f->stack);
	{
		char *a = answer(f, "show udp", true);

		assert_non_null(strstr(a, "\"listen\": \"0.0.0.0:9\", "
					  "\"service\": \"discard\", \"ring\": "
					  "256, \"queued\": 0, \"datagrams\": 1"));
		free(a);
	}
	unit_close(f, ep);
	cmd(f, "udp close 10.0.1.254:5");
	unlink(path);
}

static void
test_show_filter(void **state)
{
	struct unit_fixture *f = *state;

	assert_answer(f, "show filter", false,
		      "N  ACTION  PROTO  SRC  DST  SPORT  DPORT\n");
	assert_answer(f, "show filter", true, "[]\n");
	cmd(f, more_conf);
	assert_answer(f, "show filter", false,
		"N  ACTION  PROTO  SRC          DST          SPORT      DPORT\n"
		"1  drop    udp    0.0.0.0/0    10.0.0.0/24  0-65535    53\n"
		"2  accept  tcp    10.1.0.0/16  0.0.0.0/0    1000-2000  0-65535\n");
	cmd(f, "filter add accept");
	assert_answer(f, "show filter", true,
		"[{\"n\": 1, \"action\": \"drop\", \"proto\": \"udp\", "
		"\"src\": \"0.0.0.0/0\", \"dst\": \"10.0.0.0/24\", "
		"\"sport\": \"0-65535\", \"dport\": \"53\"}, "
		"{\"n\": 2, \"action\": \"accept\", \"proto\": \"tcp\", "
		"\"src\": \"10.1.0.0/16\", \"dst\": \"0.0.0.0/0\", "
		"\"sport\": \"1000-2000\", \"dport\": \"0-65535\"}, "
		"{\"n\": 3, \"action\": \"accept\", \"proto\": null, "
		"\"src\": \"0.0.0.0/0\", \"dst\": \"0.0.0.0/0\", "
		"\"sport\": \"0-65535\", \"dport\": \"0-65535\"}]\n");
}

/*
 * What `show stats -j` (and --stats-json) writes after
 * unit_traffic_fwd_noroute(), written out here rather than by the writer
 * under test; each stage's cycles (a measure) stand as C, see
 * stats_cycles_as_c.
 */
static const char traffic_stats_json[] =
	"{\"ip\": {\"InReceives\": 3, \"InHdrErrors\": 0, "
	"\"InTruncatedPkts\": 0, \"InCsumErrors\": 0, "
	"\"InAddrErrors\": 0, \"InNoRoutes\": 1, \"InDiscards\": 0, "
	"\"InUnknownProtos\": 0, \"ForwDatagrams\": 2, "
	"\"OutDiscards\": 0, \"InDelivers\": 0, \"OutNoRoutes\": 0, "
	"\"FragFails\": 0, \"FragOKs\": 0, \"FragCreates\": 0, "
	"\"ReasmReqds\": 0, \"ReasmOKs\": 0, \"ReasmFails\": 0, "
	"\"ReasmTimeout\": 0, \"ReasmOverlaps\": 0, "
	"\"ReasmDuplicates\": 0},\n"
	" \"udp\": {\"InDatagrams\": 0, \"NoPorts\": 0, \"InErrors\": 0, "
	"\"InCsumErrors\": 0, \"RcvbufErrors\": 0, "
	"\"OutDatagrams\": 0, \"IgnoredMulti\": 0},\n"
	" \"icmp\": {\"InMsgs\": 0, \"InErrors\": 0, "
	"\"InCsumErrors\": 0, \"InEchos\": 0, \"InEchoReps\": 0, "
	"\"InDestUnreachs\": 0, \"InTimeExcds\": 0, \"OutMsgs\": 1, "
	"\"OutErrors\": 0, \"OutEchoReps\": 0, \"OutDestUnreachs\": 1, "
	"\"OutTimeExcds\": 0, \"OutRateLimited\": 0, "
	"\"OutNoAddrs\": 0, \"OutEchos\": 0, "
	"\"InEchoRepsUnmatched\": 0},\n"
	" \"eth\": {\"InFrames\": 3, \"NotForUs\": 0, "
	"\"UnknownType\": 0, \"UnknownVlan\": 0, \"Runts\": 0},\n"
	" \"arp\": {\"InRequests\": 0, \"InReplies\": 0, "
	"\"InErrors\": 0, \"OutRequests\": 0, \"OutReplies\": 0, "
	"\"Updates\": 0, \"ResFailed\": 0, \"UnresolvedDiscards\": 0, "
	"\"TableFulls\": 0, \"Evictions\": 0, \"OutDiscards\": 0},\n"
	" \"gro\": {\"Trains\": 0, \"Merged\": 0},\n"
	" \"route_cache\": {\"Hits\": 0, \"Misses\": 0, "
	"\"Evictions\": 0, \"Bypassed\": 0},\n"
	" \"filter\": {\"Dropped\": 0},\n"
	" \"gso\": {\"Segments\": 0},\n"
	" \"host\": {\"ToKernel\": 0, \"FromKernel\": 0, \"Drops\": 0, "
	"\"DropsRate\": 0, \"DropsRing\": 0, \"DropsArp\": 0, \"DropsNotIp4\": 0, "
	"\"DropsThread\": 0, \"DropsNd\": 0},\n"
	" \"fpm\": {\"Connections\": 0, \"Refused\": 0, "
	"\"Disconnects\": 0, \"Frames\": 0, \"Messages\": 0, "
	"\"RoutesAdded\": 0, \"RoutesDeleted\": 0, \"RoutesSwept\": 0, "
	"\"RoutesRejected\": 0, \"NexthopsAdded\": 0, "
	"\"NexthopsDeleted\": 0, \"NexthopsFull\": 0, \"ErrFrames\": 0, "
	"\"ErrMessages\": 0, \"ErrAttributes\": 0, \"ErrValues\": 0, "
	"\"SkipInet6\": 0, \"SkipFamily\": 0, \"SkipTable\": 0, "
	"\"SkipType\": 0, \"SkipMsgType\": 0, \"SkipConnected\": 0, "
	"\"SkipEncap\": 0, \"SkipNoNexthop\": 0, \"SkipNoPath\": 0, "
	"\"PathsCut\": 0},\n"
	" \"ip6\": {\"InReceives\": 0, \"InHdrErrors\": 0, "
	"\"InTooBigErrors\": 0, \"InNoRoutes\": 0, "
	"\"InAddrErrors\": 0, \"InUnknownProtos\": 0, "
	"\"InTruncatedPkts\": 0, \"InDiscards\": 0, \"InDelivers\": 0, "
	"\"OutForwDatagrams\": 0, \"OutRequests\": 0, "
	"\"OutDiscards\": 0, \"OutNoRoutes\": 0, \"ReasmTimeout\": 0, "
	"\"ReasmReqds\": 0, \"ReasmOKs\": 0, \"ReasmFails\": 0, "
	"\"FragOKs\": 0, \"FragFails\": 0, \"FragCreates\": 0, "
	"\"InMcastPkts\": 0, \"OutMcastPkts\": 0, \"ReasmDuplicates\": 0},\n"
	" \"icmp6\": {\"InMsgs\": 0, \"InErrors\": 0, \"OutMsgs\": 0, "
	"\"OutErrors\": 0, \"InCsumErrors\": 0, \"InDestUnreachs\": 0, "
	"\"InPktTooBigs\": 0, \"InTimeExcds\": 0, "
	"\"InParmProblems\": 0, \"InEchos\": 0, \"InEchoReplies\": 0, "
	"\"InRouterSolicits\": 0, \"InRouterAdvertisements\": 0, "
	"\"InNeighborSolicits\": 0, \"InNeighborAdvertisements\": 0, "
	"\"InRedirects\": 0, \"OutDestUnreachs\": 0, "
	"\"OutPktTooBigs\": 0, \"OutTimeExcds\": 0, "
	"\"OutParmProblems\": 0, \"OutEchos\": 0, "
	"\"OutEchoReplies\": 0, \"OutRouterAdvertisements\": 0, "
	"\"OutNeighborSolicits\": 0, \"OutNeighborAdvertisements\": 0, "
	"\"OutRateLimited\": 0},\n"
	" \"udp6\": {\"InDatagrams\": 0, \"NoPorts\": 0, "
	"\"InErrors\": 0, \"OutDatagrams\": 0, \"RcvbufErrors\": 0, "
	"\"InCsumErrors\": 0, \"IgnoredMulti\": 0},\n"
	" \"nd\": {\"Updates\": 0, \"ResFailed\": 0, "
	"\"UnresolvedDiscards\": 0, \"TableFulls\": 0, "
	"\"Evictions\": 0, \"OutDiscards\": 0, \"DadProbes\": 0, "
	"\"DadFailed\": 0},\n"
	" \"ports\": [{\"id\": 0, \"rx\": 3, \"tx\": 1, \"rx_dropped\": 0, "
	"\"tx_dropped\": 0}, {\"id\": 1, \"rx\": 0, \"tx\": 2, "
	"\"rx_dropped\": 0, \"tx_dropped\": 0}],\n"
	" \"stages\": [{\"name\": \"fwd_fast\", \"calls\": 3, "
	"\"packets\": 2, \"cycles\": C}, {\"name\": \"eth_input\", "
	"\"calls\": 1, \"packets\": 1, \"cycles\": C}, "
	"{\"name\": \"arp_input\", \"calls\": 0, \"packets\": 0, "
	"\"cycles\": C}, {\"name\": \"udp4_gro\", \"calls\": 0, "
	"\"packets\": 0, \"cycles\": C}, {\"name\": \"ip4_input\", "
	"\"calls\": 1, \"packets\": 1, \"cycles\": C}, "
	"{\"name\": \"ip4_filter\", \"calls\": 0, \"packets\": 0, "
	"\"cycles\": C}, {\"name\": \"ip4_route\", \"calls\": 1, "
	"\"packets\": 1, \"cycles\": C}, {\"name\": \"ip4_local\", "
	"\"calls\": 0, \"packets\": 0, \"cycles\": C}, "
	"{\"name\": \"ip4_forward\", \"calls\": 0, \"packets\": 0, "
	"\"cycles\": C}, {\"name\": \"udp4_input\", \"calls\": 0, "
	"\"packets\": 0, \"cycles\": C}, {\"name\": \"icmp4_input\", "
	"\"calls\": 0, \"packets\": 0, \"cycles\": C}, "
	"{\"name\": \"fwd6_fast\", \"calls\": 0, \"packets\": 0, "
	"\"cycles\": C}, "
	"{\"name\": \"udp6_gro\", \"calls\": 0, \"packets\": 0, "
	"\"cycles\": C}, "
	"{\"name\": \"ip6_input\", \"calls\": 0, \"packets\": 0, "
	"\"cycles\": C}, {\"name\": \"ip6_route\", \"calls\": 0, "
	"\"packets\": 0, \"cycles\": C}, {\"name\": \"ip6_local\", "
	"\"calls\": 0, \"packets\": 0, \"cycles\": C}, "
	"{\"name\": \"ip6_forward\", \"calls\": 0, \"packets\": 0, "
	"\"cycles\": C}, {\"name\": \"udp6_input\", \"calls\": 0, "
	"\"packets\": 0, \"cycles\": C}, {\"name\": \"icmp6_input\", \"calls\": 0, "
	"\"packets\": 0, \"cycles\": C}, {\"name\": \"ip6_output\", "
	"\"calls\": 0, \"packets\": 0, \"cycles\": C}, "
	"{\"name\": \"ip4_output\", \"calls\": 1, \"packets\": 1, "
	"\"cycles\": C}, {\"name\": \"tx\", \"calls\": 3, \"packets\": 3, "
	"\"cycles\": C}],\n"
	" \"services\": []}\n";

/* text with every "cycles": N (N digits) as "cycles": C, in place. */
static void
stats_cycles_as_c(char *text)
{
	static const char key[] = "\"cycles\": ";
	char *p = text, *q;

	while ((p = strstr(p, key)) != NULL) {
		p += sizeof(key) - 1;
		q = p;
		while (*q >= '0' && *q <= '9')
			q++;
		assert_true(q > p);
		*p++ = 'C';
		memmove(p, q, strlen(q) + 1);
	}
}

/* Text: every counter a row; JSON: what --stats-json writes, both to the
 * letter. */
static void
test_show_stats(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stats st;
	char *a, *got, *w;
	size_t len;
	FILE *m;

	unit_traffic_fwd_noroute(f);
	a = answer(f, "show stats", false);
	assert_prefix(a, "SECTION      COUNTER                    VALUE\n"
			       "ip           InReceives                 3\n");
	assert_non_null(strstr(a, "\nip           ForwDatagrams              2\n"));
	assert_non_null(strstr(a, "\nip           InNoRoutes                 1\n"));
	assert_non_null(strstr(a, "\nport0        rx                         3\n"));
	assert_non_null(strstr(a, "\nport1        tx                         2\n"));
	assert_non_null(strstr(a, "\ngso          Segments                   0\n"));
	free(a);

	a = answer(f, "show stats", true);
	stats_cycles_as_c(a);
	/* the workers' longest poll gaps (a time: test_poll_gap's) out */
	w = strstr(a, ",\n \"workers\": [{\"worker\": 0, ");
	assert_non_null(w);
	memmove(w, strchr(w, ']') + 1, strlen(strchr(w, ']') + 1) + 1);
	assert_string_equal(a, traffic_stats_json);
	free(a);
	/* --stats-json's writer, on the same counters */
	lsk_stats_read(f->stack, &st);
	m = open_memstream(&got, &len);
	assert_non_null(m);
	assert_int_equal(lsk_stats_write_json(&st, f->stack->n_ports, -1,
					      "\"services\": []", m), 0);
	fclose(m);
	stats_cycles_as_c(got);
	assert_string_equal(got, traffic_stats_json);
	free(got);
	/* after a clear, from zero */
	cmd(f, "stats clear");
	a = answer(f, "show stats", true);
	assert_non_null(strstr(a, "{\"ip\": {\"InReceives\": 0, "));
	assert_non_null(strstr(a, "\"ports\": [{\"id\": 0, \"rx\": 0, "));
	free(a);
}

static void
test_show_runtime(void **state)
{
	struct unit_fixture *f = *state;
	char *a;

	unit_traffic_fwd_noroute(f);
	a = answer(f, "show runtime", false);
	assert_prefix(a, "NAME         CALLS  PACKETS  PACKETS/CALL  "
			       "CYCLES/PACKET\n"
			       "fwd_fast     3      2        0.7           ");
	assert_non_null(strstr(a, "\neth_input    1      1        1.0    "));
	assert_non_null(strstr(a, "\nip4_route    1      1        1.0    "));
	assert_non_null(strstr(a, "\nip4_local    0      0        0.0           "
				  "0.0\n"));
	assert_non_null(strstr(a, "\ntx           "));
	free(a);
	a = answer(f, "show runtime", true);
	assert_prefix(a, "[{\"name\": \"fwd_fast\", \"calls\": 3, "
			       "\"packets\": 2, \"packets_per_call\": 0.7, "
			       "\"cycles_per_packet\": ");
	assert_non_null(strstr(a, "{\"name\": \"eth_input\", \"calls\": 1, "
				  "\"packets\": 1, \"packets_per_call\": 1.0, "
				  "\"cycles_per_packet\": "));
	assert_non_null(strstr(a, "{\"name\": \"ip4_local\", \"calls\": 0, "
				  "\"packets\": 0, \"packets_per_call\": 0.0, "
				  "\"cycles_per_packet\": 0.0}"));
	free(a);
}

/*
 * `show version`: listack's version, DPDK's (rte_version without its
 * "DPDK " prefix) and the stack's uptime, as a table and as JSON; the
 * uptime counts from the stack's creation.
 */
static void
test_show_version(void **state)
{
	struct unit_fixture *f = *state;
	const char *dpdk = rte_version() + strlen("DPDK ");
	char want[128], ver[32];
	unsigned int h, m, sec;
	struct lsk_out o;
	char *a, *row;

	a = answer(f, "show version", false);
	assert_prefix(a, "VERSION  ");
	row = strchr(a, '\n');
	assert_non_null(row);
	assert_int_equal(sscanf(row + 1, "%31s", ver), 1);
	assert_true(isdigit((unsigned char)ver[0]));
	assert_non_null(strchr(ver, '.'));
	assert_non_null(strstr(row, dpdk));
	assert_int_equal(sscanf(strstr(row, dpdk) + strlen(dpdk),
				" %u:%u:%u", &h, &m, &sec), 3);
	assert_true(h == 0 && m < 60 && sec < 60);
	free(a);
	a = answer(f, "show version", true);
	snprintf(want, sizeof(want), "{\"version\": \"%s\", \"dpdk\": \"%s\", "
		 "\"uptime\": ", ver, dpdk);
	assert_prefix(a, want);
	free(a);
	/* an hour and a day after the stack was made */
	f->stack->created -= (int64_t)(86400 + 3600 + 61) * 1000000000;
	a = answer(f, "show version", false);
	assert_non_null(strstr(a, "  1d 1:01:0"));
	free(a);
	f->stack->created += (int64_t)(86400 + 3600 + 61) * 1000000000;
	lsk_out_init(&o, false);
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_command_run(f->stack, "show version x", 14, "t",
					 &o), -EINVAL);
	assert_memory_equal(o.err, "t:1: usage: show ", 17);
	unit_worker_sync(f);
	lsk_out_free(&o);
}

/*
 * Without -a the counters that counted only, grouped by the stage that
 * counts them in pipeline order, the larger first within a stage (the
 * same count: the table's order); -a: then every other one, grouped the
 * same way. A counter counted in two stages names both.
 */
static void
test_show_errors(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t buf[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;
	char *a;

	assert_answer(f, "show errors", false, "STAGE  COUNTER  PACKETS\n");
	assert_answer(f, "show errors", true, "[]\n");
	unit_traffic_fwd_noroute(f);
	assert_answer(f, "show errors", false,
		      "STAGE      COUNTER        PACKETS\n"
		      "ip4_route  ip.InNoRoutes  1\n");
	assert_answer(f, "show errors", true,
		      "[{\"stage\": \"ip4_route\", \"stages\": "
		      "[\"ip4_route\"], \"section\": \"ip\", \"counter\": "
		      "\"InNoRoutes\", \"packets\": 1}]\n");
	/* two bad checksums (ip.InCsumErrors and ip.InHdrErrors each), a
	 * TTL expired (ip.InHdrErrors, in ip4_forward), a runt */
	unit_pkt_init(&p, UNIT_FAR_IP);
	len = unit_pkt_build(&p, buf, sizeof(buf));
	buf[UNIT_ETH_LEN + 10] ^= 0x5a;
	unit_input_one(f, unit_mbuf_from_bytes(buf, len, UNIT_P0));
	unit_input_one(f, unit_mbuf_from_bytes(buf, len, UNIT_P0));
	unit_input_one(f, unit_mbuf_from_bytes(buf, 10, UNIT_P0));
	p.ttl = 1;
	unit_input_pkt(f, &p);
	unit_tx_free(f);
	assert_answer(f, "show errors", false,
		      "STAGE                  COUNTER          PACKETS\n"
		      "eth_input              eth.Runts        1\n"
		      "ip4_input,ip4_forward  ip.InHdrErrors   3\n"
		      "ip4_input              ip.InCsumErrors  2\n"
		      "ip4_route              ip.InNoRoutes    1\n");
	a = answer(f, "show errors -a", false);
	/* -a: the columns as wide as ip6.InHdrErrors's stages (four of
	 * them count it) */
	assert_prefix(a, "STAGE                                      "
			 "COUNTER                 PACKETS\n"
			 "eth_input                                  "
			 "eth.Runts               1\n"
			 "ip4_input,ip4_forward                      "
			 "ip.InHdrErrors          3\n"
			 "ip4_input                                  "
			 "ip.InCsumErrors         2\n"
			 "ip4_route                                  "
			 "ip.InNoRoutes           1\n"
			 "rx                                         "
			 "port0.rx_dropped        0\n"
			 "rx                                         "
			 "port1.rx_dropped        0\n"
			 "eth_input                                  "
			 "eth.NotForUs            0\n");
	assert_non_null(strstr(a, "\nip4_input,ip4_route                        "
			 "ip.InDiscards "));
	assert_non_null(strstr(a, "\nip4_forward,ip4_output                     "
			 "ip.FragFails "));
	assert_non_null(strstr(a, "\ntx                                         "
			 "port1.tx_dropped"
				  "        0\n"));
	free(a);
	a = answer(f, "show errors -a", true);
	assert_prefix(a, "[{\"stage\": \"eth_input\", \"stages\": "
			 "[\"eth_input\"], \"section\": \"eth\", "
			 "\"counter\": \"Runts\", \"packets\": 1}, "
			 "{\"stage\": \"ip4_input\", \"stages\": "
			 "[\"ip4_input\", \"ip4_forward\"], \"section\": "
			 "\"ip\", \"counter\": \"InHdrErrors\", "
			 "\"packets\": 3}, ");
	assert_non_null(strstr(a, "{\"stage\": \"tx\", \"stages\": "
				  "[\"tx\"], \"section\": \"port1\", "
				  "\"counter\": \"tx_dropped\", \"packets\": "
				  "0}]\n"));
	free(a);
}

/*
 * show pipeline: the edges with the packets they carried where the stage
 * counters say it, "?" where several sources fed a stage; dot: a node
 * per stage with its packets, the same edges.
 */
static void
test_show_pipeline(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stats st;
	char *a, want[128];

	unit_traffic_fwd_noroute(f);
	lsk_stats_read(f->stack, &st);
	a = answer(f, "show pipeline", false);
	assert_prefix(a, "FROM         TO           PACKETS\n"
			       "rx           fwd_fast     2\n"
			       "rx           eth_input    1\n"
			       "eth_input    arp_input    0\n"
			       "eth_input    udp4_gro     0\n"
			       "eth_input    ip4_input    1\n"
			       "udp4_gro     ip4_input    0\n"
			       "ip4_input    ip4_filter   0\n"
			       "ip4_input    ip4_route    1\n"
			       "ip4_filter   ip4_route    0\n"
			       "ip4_route    ip4_local    0\n"
			       "ip4_route    ip4_forward  0\n");
	/* IPv6's fast path among IPv6's stages: it took nothing */
	assert_non_null(strstr(a, "\nrx           fwd6_fast    0\n"));
	/* tx has other sources (the ICMP error's ip4_output) */
	assert_non_null(strstr(a, "\nfwd_fast     tx           ?\n"));
	/* the datagram without a route got an ICMP error: several stages
	 * could have queued it, so where it came from is not known */
	assert_non_null(strstr(a, "\nip4_route    icmp         ?\n"));
	snprintf(want, sizeof(want), "\nicmp         ip4_output   %" PRIu64 "\n",
		 st.stages[LSK_STAGE_IP4_OUTPUT].packets);
	assert_non_null(strstr(a, want));
	assert_non_null(strstr(a, "\nsend         ip4_output   0\n"));
	assert_non_null(strstr(a, "\nip4_output   ip4_local    0\n"));
	free(a);

	a = answer(f, "show pipeline", true);
	assert_prefix(a, "{\"nodes\": [{\"name\": \"fwd_fast\", "
			       "\"packets\": 2}, {\"name\": \"eth_input\", "
			       "\"packets\": 1}, ");
	assert_non_null(strstr(a, "{\"name\": \"ip4_forward\", \"packets\": "
				  "0}"));
	assert_non_null(strstr(a, "], \"edges\": [{\"from\": \"rx\", "
				  "\"to\": \"fwd_fast\", \"packets\": 2}, "
				  "{\"from\": \"rx\", \"to\": \"eth_input\", "
				  "\"packets\": 1}, "));
	assert_non_null(strstr(a, "{\"from\": \"ip4_route\", \"to\": "
				  "\"icmp\", \"packets\": null}"));
	assert_non_null(strstr(a, "{\"from\": \"rx\", \"to\": \"fwd6_fast\", "
				  "\"packets\": 0}"));
	free(a);
	/* dot is a text form: -j answers the same JSON */
	a = answer(f, "show pipeline dot", true);
	assert_prefix(a, "{\"nodes\": [{\"name\": \"fwd_fast\", ");
	free(a);

	a = answer(f, "show pipeline dot", false);
	assert_prefix(a, "digraph listack {\n");
	assert_non_null(strstr(a, "\t\"fwd_fast\" [label=\"fwd_fast\\n2 "
				  "packets\"];\n"));
	assert_non_null(strstr(a, "\t\"eth_input\" [label=\"eth_input\\n1 "
				  "packets\"];\n"));
	assert_non_null(strstr(a, "\t\"rx\" [label=\"rx\\n3 packets\", "
				  "shape=ellipse];\n"));
	assert_non_null(strstr(a, "\t\"rx\" -> \"fwd_fast\" "
				  "[label=\"2\"];\n"));
	assert_non_null(strstr(a, "\t\"ip4_route\" -> \"icmp\" [label=\"?\", "
				  "style=dashed];\n"));
	assert_int_equal(strcmp(a + strlen(a) - 2, "}\n"), 0);
	free(a);
}

static const char rich_conf[] =
	"port 0 mtu 9000 mac 02:00:00:00:aa:01\n"
	"port 1 mtu 1400\n"
	"address add 10.0.0.254/24 port 0\n"
	"address add 10.0.1.254/24 port 1\n"
	"address add 10.0.5.1/24 port 1 vlan 100\n"
	"address add 10.0.6.1/24 port 0 vlan 4094\n"
	"address add 192.0.2.1/31 port 0\n"
	"address add 198.51.100.7/32 port 1\n"
	"route add 10.9.0.0/16 via 10.0.1.1\n"
	"route add default via 10.0.5.254\n"
	"route add 192.0.2.128/25 blackhole\n"
	"neigh add 10.0.1.1 lladdr 02:00:00:00:01:01\n"
	"neigh add 10.0.5.254 lladdr 02:00:00:00:05:fe\n"
	"udp listen 10.0.0.254:7 echo\n"
	"udp listen 0.0.0.0:9 discard ring 256\n"
	"udp listen 10.0.5.1:5000 pcap /tmp/lsk_show_rt.pcap ring 128\n"
	"filter add drop proto udp dst 10.0.0.0/24 dport 53\n"
	"filter add accept src 10.1.0.0/16 proto tcp sport 1000-2000\n"
	"filter add drop proto 47\n"
	"filter add drop src 203.0.113.0/24 dst 10.0.5.0/24\n"
	"gro fraglist flows 32 segs 16\n"
	"route-cache on entries 1024\n"
	"mode single\n";

static const char rich_show[] =
	"port 0 mtu 9000 mac 02:00:00:00:AA:01\n"
	"port 1 mtu 1400\n"
	"port 1 vlan 100\n"
	"port 0 vlan 4094\n"
	"address add 10.0.0.254/24 port 0\n"
	"address add 10.0.1.254/24 port 1\n"
	"address add 10.0.5.1/24 port 1 vlan 100\n"
	"address add 10.0.6.1/24 port 0 vlan 4094\n"
	"address add 192.0.2.1/31 port 0\n"
	"address add 198.51.100.7/32 port 1\n"
	"route add 10.9.0.0/16 via 10.0.1.1\n"
	"route add 0.0.0.0/0 via 10.0.5.254\n"
	"route add 192.0.2.128/25 blackhole\n"
	"neigh add 10.0.1.1 lladdr 02:00:00:00:01:01\n"
	"neigh add 10.0.5.254 lladdr 02:00:00:00:05:FE\n"
	"udp listen 10.0.0.254:7 echo\n"
	"udp listen 0.0.0.0:9 discard ring 256\n"
	"udp listen 10.0.5.1:5000 pcap /tmp/lsk_show_rt.pcap ring 128\n"
	"filter add drop proto udp dst 10.0.0.0/24 dport 53\n"
	"filter add accept proto tcp src 10.1.0.0/16 sport 1000-2000\n"
	"filter add drop proto 47\n"
	"filter add drop src 203.0.113.0/24 dst 10.0.5.0/24\n"
	"gro fraglist flows 32 segs 16\n"
	"route-cache on entries 1024\n"
	"mode single\n";

static struct lsk_stack *
bare_stack(void)
{
	return unit_bare_stack("show");
}

static char *
stack_config(struct lsk_stack *s, bool json)
{
	struct lsk_out o;
	char *a;

	assert_int_equal(run_on(s, NULL, "show config", json, &o), 0);
	a = strdup(o.buf ? o.buf : "");
	assert_non_null(a);
	lsk_out_free(&o);
	if (json)
		assert_json(a);
	return a;
}

/* A rich configuration, its `show config`, and that loaded into a fresh
 * stack: the same `show config`, as text and as JSON. */
static void
test_show_config_round_trip(void **state)
{
	struct lsk_stack *a = bare_stack(), *b = bare_stack();
	const char *path = "/tmp/lsk_show_rt.conf";
	char *conf, *again, *json_a, *json_b, err[512];
	struct lsk_out o;
	FILE *fp;

	(void)state;
	assert_int_equal(run_on(a, NULL, rich_conf, false, &o), 0);
	lsk_out_free(&o);
	conf = stack_config(a, false);
	assert_string_equal(conf, rich_show);
	/* as a client's batch */
	assert_int_equal(run_on(b, NULL, conf, false, &o), 0);
	lsk_out_free(&o);
	again = stack_config(b, false);
	assert_string_equal(again, conf);
	free(again);
	json_a = stack_config(a, true);
	json_b = stack_config(b, true);
	assert_string_equal(json_a, json_b);
	assert_prefix(json_a, "[\"port 0 mtu 9000 mac 02:00:00:00:AA:01\", "
				    "\"port 1 mtu 1400\", ");
	free(json_a);
	free(json_b);
	lsk_stack_destroy(b);

	/* as a file */
	b = bare_stack();
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(conf, fp);
	fclose(fp);
	assert_int_equal(lsk_config_load(b, path, err, sizeof(err)), 0);
	again = stack_config(b, false);
	assert_string_equal(again, conf);
	free(again);
	free(conf);
	unlink(path);
	unlink("/tmp/lsk_show_rt.pcap");
	lsk_stack_destroy(a);
	lsk_stack_destroy(b);
}

/* The fresh stack's own configuration loads too. */
static void
test_show_config_defaults(void **state)
{
	struct lsk_stack *s = bare_stack();
	char *conf;
	struct lsk_out o;

	(void)state;
	conf = stack_config(s, false);
	assert_string_equal(conf, "port 0 mtu 1500\n"
				  "port 1 mtu 1500\n"
				  "gro off\n"
				  "route-cache off\n"
				  "mode list\n");
	assert_int_equal(run_on(s, NULL, conf, false, &o), 0);
	lsk_out_free(&o);
	free(conf);
	lsk_stack_destroy(s);
}

/* cli/route_show.c's view, reached through `show routes` (its own
 * tests are test_route_table's): JSON parses, a prefix narrows it, route
 * get is a view (a batch of it changes nothing). */
static void
test_show_routes(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_fwd_table *fwd = f->stack->sh.fwd;
	struct lsk_out o;
	char *a;

	a = answer(f, "show routes", false);
	assert_non_null(strstr(a, "10.9.0.0/16"));
	assert_non_null(strstr(a, "10.0.0.0/24"));
	free(a);
	a = answer(f, "show routes 10.9.0.0/16", false);
	assert_non_null(strstr(a, "10.9.0.0/16"));
	assert_null(strstr(a, "10.0.0.0/24"));
	free(a);
	a = answer(f, "show routes", true);
	assert_non_null(strstr(a, "10.9.0.0/16"));
	free(a);
	/* issue 22: an address or a prefix finds the route covering it
	 * with the longest prefix, as `ip route get` does */
	a = answer(f, "show routes 10.9.1.1", false);
	assert_string_equal(a, "the longest match for 10.9.1.1:\n"
			    "destination         type       gateway          "
			    "interface\n"
			    "10.9.0.0/16         via        10.0.1.1         "
			    "port1\n");
	free(a);
	a = answer(f, "show routes 10.9.4.0/24", true);
	assert_string_equal(a, "[{\"dst\":\"10.9.0.0/16\",\"type\":\"via\","
			    "\"gateway\":\"10.0.1.1\",\"dev\":\"port1\"}]\n");
	free(a);
	a = answer(f, "show routes 10.0.0.254", true);
	assert_string_equal(a, "[{\"dst\":\"10.0.0.254/32\",\"type\":"
			    "\"local\",\"gateway\":null,\"dev\":\"port0\"}]\n");
	free(a);
	a = answer(f, "show routes 10.0.0.7", true);
	assert_non_null(strstr(a, "\"dst\":\"10.0.0.0/24\",\"type\":"
			       "\"connected\""));
	free(a);
	a = answer(f, "show routes 192.168.1.1", false);
	assert_string_equal(a, "no route covers 192.168.1.1\n");
	free(a);
	a = answer(f, "show routes 192.168.1.1", true);
	assert_string_equal(a, "[]\n");
	free(a);
	a = answer(f, "route get 10.9.1.1", true);
	free(a);
	assert_ptr_equal(f->stack->sh.fwd, fwd);
	lsk_out_init(&o, false);
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_command_run(f->stack, "show routes 10.9.0.1/33",
					 23, "t", &o), -EINVAL);
	unit_worker_sync(f);
	assert_string_equal(o.err, "t:1: bad prefix '10.9.0.1/33' (want "
			    "A.B.C.D/L)");
	lsk_out_free(&o);
}

static void
test_show_refusals(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_out o;

	lsk_out_init(&o, false);
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_command_run(f->stack, "show", 4, "t", &o),
			 -EINVAL);
	assert_memory_equal(o.err, "t:1: usage: show interfaces|", 28);
	assert_int_equal(lsk_command_run(f->stack, "show bogus", 10, "t", &o),
			 -EINVAL);
	assert_string_equal(o.err, "t:1: show: unknown view 'bogus' "
			    "(interfaces, addresses, routes, ...)");
	assert_int_equal(lsk_command_run(f->stack, "show config now", 15, "t",
					 &o), -EINVAL);
	assert_memory_equal(o.err, "t:1: usage: show ", 17);
	/* the word of errors and pipeline is checked with the batch */
	assert_int_equal(lsk_command_run(f->stack, "show errors all", 15, "t",
					 &o), -EINVAL);
	assert_memory_equal(o.err, "t:1: usage: show ", 17);
	assert_int_equal(lsk_command_run(f->stack, "show pipeline svg", 17,
					 "t", &o), -EINVAL);
	assert_memory_equal(o.err, "t:1: usage: show ", 17);
	unit_worker_sync(f);
	lsk_out_free(&o);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					      unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_checker),
		T(test_show_interfaces),
		T(test_show_addresses),
		T(test_show_neigh),
		T(test_show_udp),
		T(test_show_filter),
		T(test_show_stats),
		T(test_show_runtime),
		T(test_show_version),
		T(test_show_errors),
		T(test_show_pipeline),
		cmocka_unit_test(test_show_config_round_trip),
		cmocka_unit_test(test_show_config_defaults),
		T(test_show_routes),
		T(test_show_refusals),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
