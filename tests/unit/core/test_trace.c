/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trace: `trace add N [port P] [match ...]` traces the next N matching
 * packets; each traced packet's records name the stages it went through,
 * in order, and end in `tx port N` or the counter of its drop: a
 * forwarded packet, a local UDP one, every member of a GRO train on its
 * own, one packet of each drop class; match selects only what it should,
 * N is honoured, the buffer stays bounded under a flood (overflow
 * counted), `trace clear` forgets, `trace show -j` is JSON; no mbuf
 * leaks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"
#include "core/trace.h"
#include "trace_records.h"
#include "l2/l2.h"
#include "cli/cli.h"

static unsigned int
n_ended(struct unit_fixture *f)
{
	unsigned int k = 0;

	while (ended(f, k) != NULL)
		k++;
	return k;
}

static void
assert_prefix_of(const char *text, const char *prefix)
{
	if (strncmp(text, prefix, strlen(prefix)) != 0)
		fail_msg("'%s' does not start with '%s'", text, prefix);
}

static void
one_traced(struct unit_fixture *f, const struct unit_pkt *p,
	   const char *want_stages, const char *want_end)
{
	const struct lsk_trace_pkt *t;

	unit_cmd(f, "trace add 1");
	unit_input_pkt(f, p);
	assert_int_equal(n_ended(f), 1);
	t = ended(f, 0);
	assert_string_equal(stages(t), want_stages);
	assert_string_equal(last_text(t), want_end);
	assert_int_equal(t->recs_lost, 0);
	unit_tx_free(f);
}

static void
test_forwarded(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_pkt p;
	const struct lsk_trace_pkt *t;

	unit_pkt_init(&p, UNIT_FAR_IP);
	one_traced(f, &p, "rx eth_input ip4_input ip4_route ip4_forward tx",
		   "port 1 queue 0");
	t = ended(f, 0);
	assert_string_equal(text_of(t, "eth_input"),
			    "02:00:00:00:00:01 > 02:00:00:00:00:FE vlan 0 "
			    "type 0x0800: ip4");
	assert_string_equal(text_of(t, "ip4_input"),
			    "10.0.0.1 > 10.9.0.5 proto 17 ttl 64 len 1028 "
			    "cksum good");
	/* the prefix matched, the next hop's address, port and MTU; no
	 * route cache here */
	assert_prefix_of(text_of(t, "ip4_route"), "10.9.0.0/16 via "
			 "10.0.1.1 port 1 mtu 1500, next hop ");
	assert_null(strstr(text_of(t, "ip4_route"), "cache"));
	assert_string_equal(text_of(t, "ip4_forward"), "ttl 64 -> 63");
}

static void
test_local_udp(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	const struct lsk_trace_pkt *t;
	struct unit_pkt p;

	unit_cmd(f, "trace add 1");
	unit_pkt_init(&p, UNIT_P0_IP);
	unit_input_pkt(f, &p);
	assert_int_equal(n_ended(f), 1);
	t = ended(f, 0);
	assert_string_equal(stages(t),
			    "rx eth_input ip4_input ip4_route udp4_input");
	assert_prefix_of(text_of(t, "ip4_route"),
			 "10.0.0.254/32 local, next hop ");
	assert_non_null(strstr(last_text(t), "endpoint 10.0.0.254:2000, "
					     "ring "));
	assert_non_null(strstr(text_of(t, "ip4_route"), "local"));
	assert_int_equal(unit_recv_free(ep, 8), 1);
	unit_close(f, ep);
}

/* Four datagrams of one flow become one train: each its own trace, its
 * position in the train, its own segment out and its own tx. */
static void
test_train(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *m[4];
	unsigned int i;

	unit_cmd(f, "gro fraglist flows 64 segs 64");
	unit_cmd(f, "trace add 4");
	for (i = 0; i < 4; i++) {
		struct unit_pkt p;

		unit_pkt_init(&p, UNIT_FAR_IP);
		p.id = (uint16_t)(7 + i);
		p.payload_len = 200;
		m[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, m, 4);
	assert_int_equal(unit_tx_udp_to(f, UNIT_P1, UNIT_FAR_IP), 4);
	assert_int_equal(n_ended(f), 4);
	for (i = 0; i < 4; i++) {
		const struct lsk_trace_pkt *t = ended(f, i);
		char want[64];

		assert_string_equal(stages(t), "rx eth_input udp4_gro ip4_input "
				    "ip4_route ip4_forward gso tx");
		snprintf(want, sizeof(want), "train of 4, position %u", i + 1);
		assert_string_equal(text_of(t, "udp4_gro"), want);
		snprintf(want, sizeof(want), "segment %u of 4", i + 1);
		assert_string_equal(text_of(t, "gso"), want);
		assert_string_equal(last_text(t), "port 1 queue 0");
	}
	unit_tx_free(f);
}

/* over the egress MTU with DF clear: fragmented into k, and the trace
 * ends there (the fragments are packets of their own) */
static void
test_fragmented(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_trace_pkt *t;
	struct unit_pkt p;

	unit_cmd(f, "port 1 mtu 576");
	unit_pkt_init(&p, UNIT_FAR_IP);
	p.df = false;
	one_traced(f, &p, "rx eth_input ip4_input ip4_route ip4_forward "
		   "ip4_forward", "1028 bytes over mtu 576, DF clear: "
		   "fragmented into 2");
	t = ended(f, 0);
	assert_string_equal(text_of(t, "ip4_forward"), "ttl 64 -> 63");
	/* DF set: dropped, frag needed */
	p.df = true;
	one_traced(f, &p, "rx eth_input ip4_input ip4_route ip4_forward "
		   "icmp drop", "ip.FragFails");
	assert_string_equal(text_of(ended(f, 0), "icmp"),
			    "error type 3 code 4: made");
}

/* the route cache: a miss fills it, the next packet hits */
static void
test_route_cache(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_pkt p;

	unit_cmd(f, "route-cache on entries 64");
	unit_cmd(f, "trace add 2");
	unit_pkt_init(&p, UNIT_FAR_IP);
	unit_input_pkt(f, &p);
	unit_input_pkt(f, &p);
	assert_int_equal(n_ended(f), 2);
	/* one record: the route, then the cache's answer */
	assert_string_equal(stages(ended(f, 0)), "rx eth_input ip4_input "
			    "ip4_route ip4_forward tx");
	assert_prefix_of(text_of(ended(f, 0), "ip4_route"),
			 "10.9.0.0/16 via 10.0.1.1 port 1 mtu 1500, next hop ");
	assert_non_null(strstr(text_of(ended(f, 0), "ip4_route"),
			       ", cache miss"));
	assert_non_null(strstr(text_of(ended(f, 1), "ip4_route"),
			       ", cache hit"));
	unit_tx_free(f);
}

/* A next hop with no MAC: the packet waits (in flight, not shown), an
 * ARP reply sends it, and its trace ends in tx; the ARP frame its own */
static void
test_neigh_arp(void **state)
{
	struct unit_fixture *f = *state;
	const struct rte_ether_addr c_mac = {
		.addr_bytes = { 2, 0, 0, 0, 1, 0x77 } };
	const uint32_t c_ip = UNIT_IPV4(10, 0, 1, 77);
	const struct lsk_trace_pkt *t;
	struct lsk_out o;
	struct unit_pkt p;

	unit_cmd(f, "trace add 2");
	unit_pkt_init(&p, c_ip);
	unit_input_pkt(f, &p);
	assert_int_equal(n_ended(f), 0);
	assert_int_equal(unit_tx_arp_requests(f, UNIT_P1, c_ip), 1);
	lsk_out_init(&o, false);
	assert_int_equal(lsk_command_run(f->stack, "trace show", 10, "-", &o),
			 0);
	assert_non_null(strstr(o.buf, "0 ended, 1 in flight"));
	lsk_out_free(&o);
	unit_input_one(f, unit_arp_mbuf(UNIT_P1, 2, &unit_p1_mac, &c_mac,
					c_ip, &unit_p1_mac, UNIT_P1_IP));
	assert_int_equal(n_ended(f), 2);
	/* the ARP reply ended first, then the packet it let go */
	t = ended(f, 0);
	assert_string_equal(stages(t), "rx eth_input ip4_input ip4_route "
			    "ip4_forward neigh tx");
	assert_non_null(strstr(text_of(t, "neigh"), "10.0.1.77 not "
						      "resolved"));
	assert_string_equal(last_text(t), "port 1 queue 0");
	t = ended(f, 1);
	assert_string_equal(stages(t), "rx eth_input arp_input");
	assert_non_null(strstr(text_of(t, "eth_input"),
			       "type 0x0806: arp"));
	assert_int_equal(unit_tx_udp_to(f, UNIT_P1, c_ip), 1);
	unit_tx_free(f);
}

/* One packet of each drop class: its last record names its counter. */
static void
test_drops(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t buf[UNIT_FRAME_MAX];
	const struct lsk_trace_pkt *t;
	struct unit_pkt p;
	struct rte_mbuf *m;
	size_t len;

	/* a runt */
	unit_cmd(f, "trace add 1");
	unit_pkt_init(&p, UNIT_FAR_IP);
	len = unit_pkt_build(&p, buf, sizeof(buf));
	m = unit_mbuf_from_bytes(buf, 10, UNIT_P0);
	unit_input_one(f, m);
	t = ended(f, 0);
	assert_non_null(t);
	assert_string_equal(stages(t), "rx eth_input drop");
	assert_string_equal(last_text(t), "eth.Runts");

	/* a bad header checksum */
	unit_cmd(f, "trace add 1");
	buf[UNIT_ETH_LEN + 10] ^= 0x5a;
	unit_input_one(f, unit_mbuf_from_bytes(buf, len, UNIT_P0));
	t = ended(f, 0);
	assert_string_equal(stages(t), "rx eth_input ip4_input drop");
	assert_non_null(strstr(text_of(t, "ip4_input"), "cksum bad"));
	assert_string_equal(last_text(t), "ip.InCsumErrors");

	/* TTL expired: time exceeded made, then the drop */
	p.ttl = 1;
	one_traced(f, &p, "rx eth_input ip4_input ip4_route ip4_forward "
		   "icmp drop", "ip.InHdrErrors");
	assert_string_equal(text_of(ended(f, 0), "icmp"),
			    "error type 11 code 0: made");

	/* no route */
	unit_pkt_init(&p, UNIT_IPV4(192, 0, 2, 1));
	one_traced(f, &p, "rx eth_input ip4_input ip4_route icmp drop",
		   "ip.InNoRoutes");
	assert_non_null(strstr(text_of(ended(f, 0), "ip4_route"),
			       "no route"));

	/* a closed port */
	unit_pkt_init(&p, UNIT_P0_IP);
	p.dport = 9999;
	one_traced(f, &p, "rx eth_input ip4_input ip4_route icmp drop",
		   "udp.NoPorts");
	assert_string_equal(text_of(ended(f, 0), "icmp"),
			    "error type 3 code 3: made");

	/* a blackhole */
	unit_cmd(f, "route add 10.66.0.0/16 blackhole");
	unit_pkt_init(&p, UNIT_IPV4(10, 66, 0, 1));
	one_traced(f, &p, "rx eth_input ip4_input ip4_route drop",
		   "ip.InDiscards");
	assert_string_equal(text_of(ended(f, 0), "ip4_route"),
			    "blackhole");

	/* to us, a protocol we do not speak */
	unit_pkt_init(&p, UNIT_P0_IP);
	p.proto = 47;
	one_traced(f, &p, "rx eth_input ip4_input ip4_route icmp drop",
		   "ip.InUnknownProtos");

	/* a filter rule */
	unit_cmd(f, "filter add drop proto 17 dport 2000");
	unit_pkt_init(&p, UNIT_FAR_IP);
	one_traced(f, &p, "rx eth_input ip4_input ip4_filter drop",
		   "filter.Dropped");
	assert_string_equal(text_of(ended(f, 0), "ip4_filter"),
			    "rule 1: drop");
	unit_cmd(f, "filter flush");
}

/* The drops outside the stages' tables: TX refused by the port, a
 * malformed ARP packet, a full UDP receive ring, what waits for a
 * neighbour (the oldest past the hold queue's bound; all of it when the
 * neighbour never answers, after its ICMP): each ends in drop with the
 * counter that counted it. */
static void
test_drops_outside(void **state)
{
	struct unit_fixture *f = *state;
	const uint32_t c_ip = UNIT_IPV4(10, 0, 1, 77);
	struct lsk_udp_bind_opts opts = { .ring_size = 2,
					  .socket_id = SOCKET_ID_ANY };
	const struct lsk_trace_pkt *t;
	struct rte_mbuf *m[8];
	struct lsk_udp_ep *ep;
	struct lsk_neigh_table *nt;
	struct unit_pkt p;
	unsigned int i, k, dropped, delivered, probe;

	/* the port takes nothing */
	f->tx.accept = 0;
	unit_pkt_init(&p, UNIT_FAR_IP);
	one_traced(f, &p, "rx eth_input ip4_input ip4_route ip4_forward tx "
		   "drop", "port1.tx_dropped");
	assert_string_equal(text_of(ended(f, 0), "tx"), "port 1 queue 0");
	assert_int_equal(unit_stats(f).ports[UNIT_P1].tx_dropped, 1);
	f->tx.accept = -1;

	/* ARP with a hardware address length of 5 */
	unit_cmd(f, "trace add 1");
	m[0] = unit_arp_mbuf(UNIT_P1, 1, &unit_p1_mac, &unit_p1_mac,
			     UNIT_IPV4(10, 0, 1, 9), NULL, UNIT_P1_IP);
	rte_pktmbuf_mtod(m[0], uint8_t *)[UNIT_ETH_LEN + 4] = 5;
	unit_input_one(f, m[0]);
	t = ended(f, 0);
	assert_string_equal(stages(t), "rx eth_input arp_input drop");
	assert_non_null(strstr(text_of(t, "arp_input"), "hln 5"));
	assert_string_equal(last_text(t), "arp.InErrors");
	assert_int_equal(unit_stats(f).arp.InErrors, 1);

	/* a ring of 2 (or what lsk_udp_bind makes of it), 8 datagrams */
	ep = unit_bind(f, UNIT_P0_IP, 2100, &opts);
	unit_cmd(f, "trace add 8");
	for (i = 0; i < 8; i++) {
		unit_pkt_init(&p, UNIT_P0_IP);
		p.dport = 2100;
		p.sport = (uint16_t)(4000 + i);
		m[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, m, 8);
	assert_int_equal(n_ended(f), 8);
	dropped = delivered = 0;
	for (i = 0; i < 8; i++) {
		t = ended(f, i);
		if (strcmp(last_text(t), "udp.RcvbufErrors") == 0) {
			assert_string_equal(stages(t), "rx eth_input ip4_input "
					    "ip4_route udp4_input drop");
			dropped++;
		} else {
			assert_string_equal(stages(t), "rx eth_input ip4_input "
					    "ip4_route udp4_input");
			delivered++;
		}
	}
	assert_true(dropped > 0 && delivered > 0);
	assert_int_equal(dropped, unit_stats(f).udp.RcvbufErrors);
	assert_int_equal(delivered, unit_recv_free(ep, 8));
	unit_close(f, ep);

	/* an unresolved neighbour: LSK_NEIGH_HOLD held, one more pushes
	 * the oldest out */
	unit_cmd(f, "trace add 8");
	for (i = 0; i <= LSK_NEIGH_HOLD; i++) {
		unit_pkt_init(&p, c_ip);
		p.id = (uint16_t)(1 + i);
		unit_input_pkt(f, &p);
	}
	assert_int_equal(n_ended(f), 1);
	t = ended(f, 0);
	assert_string_equal(stages(t), "rx eth_input ip4_input ip4_route "
			    "ip4_forward neigh drop");
	assert_string_equal(last_text(t), "arp.UnresolvedDiscards");
	unit_tx_free(f);
	/* no answer to any request: the rest get host unreachable */
	nt = f->stack->sh.neigh;
	for (probe = 0; probe < 4 && n_ended(f) == 1; probe++) {
		for (k = 0; k < nt->n; k++)
			nt->e[k].next_probe = 0;
		nt->next_timer = 0;
		lsk_worker_flush(f->worker);
		unit_tx_free(f);
	}
	assert_int_equal(n_ended(f), 1 + LSK_NEIGH_HOLD);
	for (i = 1; i <= LSK_NEIGH_HOLD; i++) {
		t = ended(f, i);
		assert_string_equal(stages(t), "rx eth_input ip4_input "
				    "ip4_route ip4_forward neigh icmp drop");
		assert_string_equal(text_of(t, "icmp"),
				    "error type 3 code 1: made");
		assert_string_equal(last_text(t), "arp.UnresolvedDiscards");
	}
	assert_int_equal(unit_stats(f).arp.UnresolvedDiscards,
			 1 + LSK_NEIGH_HOLD);
}

/* ICMP errors past the rate limit: the trace says which were made */
static void
test_icmp_rate_limited(void **state)
{
	struct unit_fixture *f = *state;
	unsigned int b, i, made = 0, limited = 0;

	unit_cmd(f, "trace add 96");
	for (b = 0; b < 12; b++) {
		struct rte_mbuf *m[8];

		for (i = 0; i < 8; i++) {
			struct unit_pkt p;

			unit_pkt_init(&p, UNIT_FAR_IP);
			p.ttl = 1;
			p.sport = (uint16_t)(1000 + b * 8 + i);
			m[i] = unit_pkt_mbuf(&p);
		}
		unit_input(f, m, 8);
	}
	assert_int_equal(n_ended(f), 96);
	for (i = 0; i < 96; i++) {
		const char *t = text_of(ended(f, i), "icmp");

		made += strcmp(t, "error type 11 code 0: made") == 0;
		limited += strcmp(t, "error type 11 code 0: rate-limited") == 0;
		assert_string_equal(last_text(ended(f, i)), "ip.InHdrErrors");
	}
	assert_int_equal(made + limited, 96);
	assert_int_equal(made, unit_tx_icmp(f, UNIT_P0, 11, 0));
	assert_int_equal(limited, unit_stats(f).icmp.OutRateLimited);
	assert_true(limited > 0);
	unit_tx_free(f);
}

/* match takes only what it names; port P is a match field too */
static void
test_match(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *m[8];
	unsigned int i;

	unit_cmd(f, "trace add 100 port 0 match dport 2001 src 10.0.0.0/24");
	for (i = 0; i < 8; i++) {
		struct unit_pkt p;

		unit_pkt_init(&p, UNIT_FAR_IP);
		p.dport = (uint16_t)(2000 + i % 2);	/* odd: 2001 */
		if (i == 5)
			p.src = UNIT_IPV4(10, 0, 3, 1);	/* outside the match */
		p.sport = (uint16_t)(3000 + i);
		m[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, m, 8);
	/* 1, 3 and 7: dport 2001 from 10.0.0.0/24 (5 is from 10.0.3.1) */
	assert_int_equal(n_ended(f), 3);
	for (i = 0; i < 3; i++)
		assert_non_null(strstr(text_of(ended(f, i), "ip4_input"),
				       "10.0.0.1 > 10.9.0.5"));
	assert_int_equal(f->stack->sh.trace->claimed, 3);
	unit_tx_free(f);

	unit_cmd(f, "trace add 100 match proto icmp");
	{
		struct unit_pkt p;

		unit_pkt_init(&p, UNIT_FAR_IP);	/* UDP: not taken */
		unit_input_pkt(f, &p);
	}
	unit_tx_free(f);
	assert_int_equal(f->stack->sh.trace->claimed, 0);

	/* refused: a batch, bad fields, bad values; the trace unchanged */
	assert_int_not_equal(unit_cmd_rc(f, "trace add 0"), 0);
	assert_int_not_equal(unit_cmd_rc(f, "trace add 5 match colour red"),
			     0);
	assert_int_not_equal(unit_cmd_rc(f, "trace add 5 match dport"), 0);
	assert_int_not_equal(unit_cmd_rc(f, "trace add 5 port 9"), 0);
	assert_int_not_equal(unit_cmd_rc(f, "trace add 5 match src 1.2.3"),
			     0);
	assert_int_equal(f->stack->sh.trace->budget, 100);
}

/* N honoured across bursts; claimed never passes it */
static void
test_budget(void **state)
{
	struct unit_fixture *f = *state;
	unsigned int b, i;

	unit_cmd(f, "trace add 3");
	for (b = 0; b < 3; b++) {
		struct rte_mbuf *m[2];

		for (i = 0; i < 2; i++) {
			struct unit_pkt p;

			unit_pkt_init(&p, UNIT_FAR_IP);
			p.sport = (uint16_t)(1000 + b * 2 + i);
			m[i] = unit_pkt_mbuf(&p);
		}
		unit_input(f, m, 2);
	}
	assert_int_equal(n_ended(f), 3);
	assert_int_equal(f->stack->sh.trace->claimed, 3);
	assert_int_equal(unit_tx_udp_to(f, UNIT_P1, UNIT_FAR_IP), 6);
	/* the budget spent and nothing open: the hooks are off again */
	assert_int_equal(f->worker->obs, 0);
	unit_tx_free(f);
}

/* A flood: the buffer keeps LSK_TRACE_PKTS, the rest is overflow */
static void
test_flood(void **state)
{
	struct unit_fixture *f = *state;
	const unsigned int total = LSK_TRACE_PKTS + 72;
	unsigned int b, i;

	unit_cmd(f, "trace add 100000");
	for (b = 0; b < total / 8; b++) {
		struct rte_mbuf *m[8];

		for (i = 0; i < 8; i++) {
			struct unit_pkt p;

			unit_pkt_init(&p, UNIT_FAR_IP);
			p.payload_len = 64;
			p.sport = (uint16_t)(1000 + b * 8 + i);
			m[i] = unit_pkt_mbuf(&p);
		}
		unit_input(f, m, 8);
		unit_tx_free(f);
	}
	assert_int_equal(n_ended(f), LSK_TRACE_PKTS);
	assert_int_equal(f->stack->sh.trace->w[0].used, LSK_TRACE_PKTS);
	assert_int_equal(f->stack->sh.trace->w[0].overflow, total - LSK_TRACE_PKTS);
	assert_int_equal(f->stack->sh.trace->claimed, total);
}

static int
show(struct unit_fixture *f, bool json, struct lsk_out *o)
{
	lsk_out_init(o, json);
	return lsk_command_run(f->stack, "trace show", 10, "-", o);
}

static void
test_clear(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_out o;
	struct unit_pkt p;

	unit_cmd(f, "trace add 2");
	unit_pkt_init(&p, UNIT_FAR_IP);
	unit_input_pkt(f, &p);
	assert_int_equal(show(f, false, &o), 0);
	assert_non_null(strstr(o.buf, "trace  2 armed, 1 claimed, 1 ended"));
	assert_non_null(strstr(o.buf, "packet 1  worker 0  port 0\n  rx"));
	assert_non_null(strstr(o.buf, "\n  tx           port 1 queue 0\n"));
	lsk_out_free(&o);
	unit_cmd(f, "trace clear");
	assert_null(f->stack->sh.trace);
	assert_int_equal(show(f, false, &o), 0);
	assert_string_equal(o.buf, "trace  none\n");
	lsk_out_free(&o);
	unit_input_pkt(f, &p);	/* nothing armed: nothing marked */
	assert_int_equal(f->worker->obs, 0);
	unit_tx_free(f);
	/* not in a batch */
	lsk_out_init(&o, false);
	assert_int_not_equal(lsk_command_run(f->stack, "gro off\ntrace clear",
					     19, "-", &o), 0);
	lsk_out_free(&o);
}

/* Every record's stage in the `trace show -j` answer, in order,
 * space-separated (unit_common's JSON reader). */
static void
json_stages(const struct unit_json *show, char *out, size_t cap)
{
	const struct unit_json *pkts = unit_json_get(show, "packets");
	unsigned int i, k;
	size_t n = 0;

	out[0] = '\0';
	assert_non_null(pkts);
	for (i = 0; i < unit_json_len(pkts); i++) {
		const struct unit_json *recs =
			unit_json_get(unit_json_at(pkts, i), "records");

		assert_non_null(recs);
		for (k = 0; k < unit_json_len(recs); k++) {
			const struct unit_json *st =
				unit_json_get(unit_json_at(recs, k), "stage");

			assert_non_null(st);
			assert_int_equal(st->type, UNIT_JSON_STRING);
			n += (size_t)snprintf(out + n, cap - n, "%s%s",
					      n ? " " : "", st->str);
		}
	}
}

static void
test_json(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_out o;
	struct unit_json *js;
	struct unit_pkt p;
	char st[256];

	assert_int_equal(show(f, true, &o), 0);
	assert_string_equal(o.buf, "null\n");
	lsk_out_free(&o);

	unit_cmd(f, "trace add 2");
	unit_pkt_init(&p, UNIT_FAR_IP);
	unit_input_pkt(f, &p);
	p.ttl = 1;
	unit_input_pkt(f, &p);
	assert_int_equal(show(f, true, &o), 0);
	js = unit_json_parse(o.buf, NULL);
	assert_non_null(js);
	assert_non_null(strstr(o.buf, "\"armed\": 2, \"claimed\": 2, "
				      "\"overflow\": 0, \"in_flight\": 0"));
	json_stages(js, st, sizeof(st));
	unit_json_free(js);
	assert_string_equal(st, "rx eth_input ip4_input ip4_route ip4_forward "
			    "tx rx eth_input ip4_input ip4_route ip4_forward "
			    "icmp drop");
	assert_non_null(strstr(o.buf, "{\"stage\": \"drop\", \"text\": "
				      "\"ip.InHdrErrors\"}]}]}"));
	lsk_out_free(&o);
	unit_tx_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_forwarded,
						unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_local_udp,
						unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_train,
						unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_drops,
						unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_icmp_rate_limited,
						unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_fragmented,
						unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_route_cache,
						unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_neigh_arp,
						unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_drops,
						unit_setup_single,
						unit_teardown),
		cmocka_unit_test_setup_teardown(test_drops_outside,
						unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_drops_outside,
						unit_setup_single,
						unit_teardown),
		cmocka_unit_test_setup_teardown(test_match,
						unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_budget,
						unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_flood,
						unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_clear,
						unit_setup_list, unit_teardown),
		cmocka_unit_test_setup_teardown(test_json,
						unit_setup_list, unit_teardown),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
