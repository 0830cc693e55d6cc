/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * udp4_gro: the merge and flush rules of docs/configuration.md "Trains", one by
 * one, run on the stage alone (what trains a burst becomes) and through
 * the worker (what endpoints and the wire see): each join condition, the
 * segs and 64 KiB limits (Linux cases D5, D6), many flows in one burst
 * and the flows limit, what breaks a train in the middle (bad checksums, a
 * fragment, options, a zero checksum, a length change, padding), TTL 1
 * inside a train, the gro counters, and LSK_UDP_GRO endpoints getting one
 * datagram in segments with its gso_size (D1-D35, E9-E11, F14).
 */
#include <stdio.h>
#include <string.h>

#include "unit_common.h"
#include "udp/gro.h"

#define IP(b) ((b) + UNIT_ETH_LEN)
#define UDP(b) ((b) + UNIT_ETH_LEN + 20)

static int
gro_setup(void **state)
{
	struct unit_fixture *f;

	if (unit_setup_list(state) < 0)
		return -1;
	f = *state;
	unit_cmd(f, "gro fraglist flows 64 segs 64");
	return 0;
}

/* ---------------------------------------------- the stage on its own */

/*
 * Run udp4_gro on pkts and describe what it made: each list entry is a
 * train of the IP IDs of its members in chain order, joined by '-';
 * entries are separated by spaces ("1-2-3 4"). Checks each train's chain
 * holds as many members as its meta says, then frees everything.
 */
static const char *
gro_run(struct unit_fixture *f, struct rte_mbuf **pkts, unsigned int n)
{
	static char desc[8192];
	struct lsk_list l = { .n = 0 };
	size_t at = 0;
	unsigned int i, k;

	desc[0] = '\0';
	for (i = 0; i < n; i++)
		lsk_list_push(&l, pkts[i], 0);
	lsk_udp4_gro(f->worker, &l);
	for (i = 0; i < l.n; i++) {
		uint32_t count = lsk_meta_count(l.meta[i]);
		struct rte_mbuf *m = l.pkts[i];

		for (k = 0; k < count; k++) {
			assert_non_null(m);
			at += (size_t)snprintf(desc + at, sizeof(desc) - at,
				"%s%u", k ? "-" : i ? " " : "",
				rte_be_to_cpu_16(unit_ip4(m)->packet_id));
			if (k + 1 < count)
				m = *lsk_train_next(m);
		}
		if (count > 1)
			assert_null(*lsk_train_next(m));
		assert_true(at < sizeof(desc));
		lsk_entry_free(l.pkts[i], l.meta[i]);
	}
	return desc;
}

/* Only the member counts: "3,1". */
static const char *
gro_counts(struct unit_fixture *f, struct rte_mbuf **pkts, unsigned int n)
{
	static char desc[2048];
	struct lsk_list l = { .n = 0 };
	size_t at = 0;
	unsigned int i;

	desc[0] = '\0';
	for (i = 0; i < n; i++)
		lsk_list_push(&l, pkts[i], 0);
	lsk_udp4_gro(f->worker, &l);
	for (i = 0; i < l.n; i++) {
		at += (size_t)snprintf(desc + at, sizeof(desc) - at, "%s%u",
				       i ? "," : "", lsk_meta_count(l.meta[i]));
		assert_true(at < sizeof(desc));
		lsk_entry_free(l.pkts[i], l.meta[i]);
	}
	return desc;
}

/* Flow F's default datagram with payload bytes and IP ID id. */
static void
flow_pkt(struct unit_pkt *p, uint16_t payload, uint16_t id)
{
	unit_pkt_init(p, UNIT_P0_IP);
	p->payload_len = payload;
	p->id = id;
}

/* n datagrams of flow F, IDs 1..n, with these payload lengths. */
static void
flow_burst(struct rte_mbuf **pkts, const uint16_t *payload, unsigned int n)
{
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < n; i++) {
		flow_pkt(&p, payload[i], (uint16_t)(i + 1));
		pkts[i] = unit_pkt_mbuf(&p);
	}
}

/* D1, D29: one flow makes one train; a lone datagram stays plain. */
static void
test_basic_train(void **state)
{
	static const uint16_t len3[] = { 1000, 1000, 1000 };
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[3];
	struct lsk_stats st;

	flow_burst(pkts, len3, 3);
	assert_string_equal(gro_run(f, pkts, 3), "1-2-3");
	flow_burst(pkts, len3, 1);
	assert_string_equal(gro_run(f, pkts, 1), "1");
	st = unit_stats(f);
	assert_int_equal(st.gro.Trains, 1);
	assert_int_equal(st.gro.Merged, 2);
}

/* A mutation of the second datagram of two that must keep it out. */
struct mutation {
	const char *what;
	void (*apply)(struct unit_pkt *p, uint8_t *b, uint16_t *in_port);
};

static void mut_port(struct unit_pkt *p, uint8_t *b, uint16_t *port)
{ (void)p; (void)b; *port = UNIT_P1; }
static void mut_src_mac(struct unit_pkt *p, uint8_t *b, uint16_t *port)
{ (void)p; (void)port; b[11] ^= 1; }
static void mut_dst_mac(struct unit_pkt *p, uint8_t *b, uint16_t *port)
{ (void)p; (void)port; memset(b, 0xff, 6); }
static void mut_src_ip(struct unit_pkt *p, uint8_t *b, uint16_t *port)
{ (void)b; (void)port; p->src = UNIT_IPV4(10, 0, 0, 2); }
static void mut_dst_ip(struct unit_pkt *p, uint8_t *b, uint16_t *port)
{ (void)b; (void)port; p->dst = UNIT_P1_IP; }
static void mut_sport(struct unit_pkt *p, uint8_t *b, uint16_t *port)
{ (void)b; (void)port; p->sport++; }
static void mut_dport(struct unit_pkt *p, uint8_t *b, uint16_t *port)
{ (void)b; (void)port; p->dport++; }
static void mut_tos(struct unit_pkt *p, uint8_t *b, uint16_t *port)
{ (void)b; (void)port; p->tos = 0x10; }
static void mut_ecn(struct unit_pkt *p, uint8_t *b, uint16_t *port)
{ (void)b; (void)port; p->tos = 0x02; }
static void mut_ttl(struct unit_pkt *p, uint8_t *b, uint16_t *port)
{ (void)b; (void)port; p->ttl = 63; }
static void mut_df(struct unit_pkt *p, uint8_t *b, uint16_t *port)
{ (void)b; (void)port; p->df = false; }
static void mut_longer(struct unit_pkt *p, uint8_t *b, uint16_t *port)
{ (void)b; (void)port; p->payload_len++; }

static const struct mutation join_muts[] = {
	{ "ingress port", mut_port }, { "source MAC", mut_src_mac },
	{ "destination MAC", mut_dst_mac },
	{ "source address", mut_src_ip },
	{ "destination address", mut_dst_ip },
	{ "source port", mut_sport }, { "destination port", mut_dport },
	{ "TOS", mut_tos }, { "ECN", mut_ecn }, { "TTL", mut_ttl },
	{ "DF", mut_df }, { "longer UDP length", mut_longer },
};

/*
 * `before` datagrams of flow F (IDs 1..before, a train when two), then
 * one with a mutation: each mutation alone keeps it out of the train;
 * with none it joins.
 */
static void
join_conditions(struct unit_fixture *f, unsigned int before)
{
	struct rte_mbuf *pkts[3];
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	char out[16], joined[16];
	unsigned int i, k;
	uint16_t port;
	size_t len;

	snprintf(out, sizeof(out), before == 1 ? "1 2" : "1-2 3");
	snprintf(joined, sizeof(joined), before == 1 ? "1-2" : "1-2-3");
	for (i = 0; i <= RTE_DIM(join_muts); i++) {
		for (k = 0; k < before; k++) {
			flow_pkt(&p, 600, (uint16_t)(k + 1));
			pkts[k] = unit_pkt_mbuf(&p);
		}
		flow_pkt(&p, 600, (uint16_t)(before + 1));
		port = UNIT_P0;
		if (i < RTE_DIM(join_muts))
			join_muts[i].apply(&p, b, &port);
		len = unit_pkt_build(&p, b, sizeof(b));
		if (i < RTE_DIM(join_muts))	/* the byte-level ones */
			join_muts[i].apply(&p, b, &port);
		pkts[before] = unit_mbuf_from_bytes(b, len, port);
		if (i == RTE_DIM(join_muts))
			assert_string_equal(gro_run(f, pkts, before + 1),
					    joined);
		else if (strcmp(gro_run(f, pkts, before + 1), out) != 0)
			fail_msg("%s: joined", join_muts[i].what);
	}
}

/*
 * Joining needs the same ingress port and L2 header, IPv4 src/dst, UDP
 * ports, TOS (ECN bits too), TTL and DF (D10-D12, D25, D26); a longer
 * datagram starts its own train (D4). Each alone keeps the second out.
 */
static void
test_each_join_condition(void **state)
{
	join_conditions(*state, 1);
}

/*
 * The same conditions for the third datagram, once a train has formed
 * (the path that compares a datagram with the head it would join).
 */
static void
test_each_join_condition_third(void **state)
{
	join_conditions(*state, 2);
}

/* D25: flows interleaved in a burst each make their train, the heads
 * where the flows first came. */
static void
test_interleaved_flows(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[6];
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < 6; i++) {
		flow_pkt(&p, 500, (uint16_t)(i + 1));
		p.sport = (uint16_t)(1000 + i % 3);
		pkts[i] = unit_pkt_mbuf(&p);
	}
	assert_string_equal(gro_run(f, pkts, 6), "1-4 2-5 3-6");
}

/*
 * D2-D4: the UDP length must equal the train's; a shorter one joins and
 * ends it, a longer one starts a new one. D31: a length that lies (8, or
 * more than is there) never joins and ends its flow's train.
 */
static void
test_length_rules(void **state)
{
	static const uint16_t d2[] = { 1000, 1000, 600, 1000 };
	static const uint16_t d3[] = { 1000, 600, 1000 };
	static const uint16_t d4[] = { 600, 1000 };
	static const uint16_t same[] = { 1000, 1000, 1000 };
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[4];
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	flow_burst(pkts, d2, 4);
	assert_string_equal(gro_run(f, pkts, 4), "1-2-3 4");
	flow_burst(pkts, d3, 3);
	assert_string_equal(gro_run(f, pkts, 3), "1-2 3");
	flow_burst(pkts, d4, 2);
	assert_string_equal(gro_run(f, pkts, 2), "1 2");

	flow_burst(pkts, same, 3);
	flow_pkt(&p, 1000, 2);
	len = unit_pkt_build(&p, b, sizeof(b));
	put16(UDP(b) + 4, 8);				/* no payload */
	rte_pktmbuf_free(pkts[1]);
	pkts[1] = unit_mbuf_from_bytes(b, len, UNIT_P0);
	assert_string_equal(gro_run(f, pkts, 3), "1 2 3");

	flow_burst(pkts, same, 3);
	put16(UDP(b) + 4, 1108);			/* 100 too many */
	rte_pktmbuf_free(pkts[1]);
	pkts[1] = unit_mbuf_from_bytes(b, len, UNIT_P0);
	assert_string_equal(gro_run(f, pkts, 3), "1 2 3");
}

/* D23, D24: padding (a frame longer than its datagram) never joins. */
static void
test_padding(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[5];
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < 5; i++) {
		flow_pkt(&p, 10, (uint16_t)(i + 1));	/* 52, padded to 60 */
		p.trailer_len = 8;
		pkts[i] = unit_pkt_mbuf(&p);
	}
	assert_string_equal(gro_run(f, pkts, 5), "1 2 3 4 5");
	for (i = 0; i < 5; i++) {
		flow_pkt(&p, 18, (uint16_t)(i + 1));	/* exactly 60 */
		pkts[i] = unit_pkt_mbuf(&p);
	}
	assert_string_equal(gro_run(f, pkts, 5), "1-2-3-4-5");
	for (i = 0; i < 3; i++) {
		flow_pkt(&p, 1000, (uint16_t)(i + 1));
		p.trailer_len = i == 1 ? 4 : 0;
		pkts[i] = unit_pkt_mbuf(&p);
	}
	assert_string_equal(gro_run(f, pkts, 3), "1 2 3");
}

/* D5: at most `segs` members: 130 make 64, 64 and 2; with segs 8, 20
 * make 8, 8 and 4. */
static void
test_segs_limit(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[130];
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < 130; i++) {
		flow_pkt(&p, 1000, (uint16_t)(i + 1));
		pkts[i] = unit_pkt_mbuf(&p);
	}
	assert_string_equal(gro_counts(f, pkts, 130), "64,64,2");
	unit_cmd(f, "gro fraglist flows 64 segs 8");
	for (i = 0; i < 20; i++) {
		flow_pkt(&p, 1000, (uint16_t)(i + 1));
		pkts[i] = unit_pkt_mbuf(&p);
	}
	assert_string_equal(gro_counts(f, pkts, 20), "8,8,4");
}

/* D6: 64 KiB of IP payload: 100 x 1472 make 44, 44, 12 (28 + 44 x 1472
 * + 1500 >= 65536); 128 x 1024 make 63, 63, 2 before the count limit. */
static void
test_64k_limit(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[128];
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < 100; i++) {
		flow_pkt(&p, 1472, (uint16_t)(i + 1));
		pkts[i] = unit_pkt_mbuf(&p);
	}
	assert_string_equal(gro_counts(f, pkts, 100), "44,44,12");
	for (i = 0; i < 128; i++) {
		flow_pkt(&p, 1024, (uint16_t)(i + 1));
		pkts[i] = unit_pkt_mbuf(&p);
	}
	assert_string_equal(gro_counts(f, pkts, 128), "63,63,2");
}

/* Three datagrams of flow F whose middle one is made from bytes b. */
static const char *
with_middle(struct unit_fixture *f, const uint8_t *b, size_t len,
	    uint64_t flags)
{
	struct rte_mbuf *pkts[3];
	struct unit_pkt p;

	flow_pkt(&p, 1000, 1);
	pkts[0] = unit_pkt_mbuf(&p);
	pkts[1] = unit_mbuf_from_bytes(b, len, UNIT_P0);
	/* flags replace what the NIC said of that checksum */
	if (flags & RTE_MBUF_F_RX_L4_CKSUM_MASK)
		pkts[1]->ol_flags &= ~RTE_MBUF_F_RX_L4_CKSUM_MASK;
	if (flags & RTE_MBUF_F_RX_IP_CKSUM_MASK)
		pkts[1]->ol_flags &= ~RTE_MBUF_F_RX_IP_CKSUM_MASK;
	pkts[1]->ol_flags |= flags;
	flow_pkt(&p, 1000, 3);
	pkts[2] = unit_pkt_mbuf(&p);
	return gro_run(f, pkts, 3);
}

/*
 * What cannot join ends its flow's train before it (per-flow order), and
 * the next datagram starts a new one: a bad UDP checksum (computed, or
 * the PMD's BAD), a bad IP checksum, a zero UDP checksum (D7-D9), a
 * first fragment even when its UDP length fits (D22), IP options (D21).
 */
static void
test_breakers_in_the_middle(void **state)
{
	static const uint8_t nops[4] = { 1, 1, 1, 1 };
	struct unit_fixture *f = *state;
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	size_t len;

	flow_pkt(&p, 1000, 2);
	len = unit_pkt_build(&p, b, sizeof(b));
	assert_string_equal(with_middle(f, b, len, 0), "1-2-3");
	assert_string_equal(with_middle(f, b, len,
					RTE_MBUF_F_RX_L4_CKSUM_BAD), "1 2 3");
	assert_string_equal(with_middle(f, b, len,
					RTE_MBUF_F_RX_IP_CKSUM_BAD), "1 2 3");
	UDP(b)[100] ^= 1;				/* UDP sum wrong */
	assert_string_equal(with_middle(f, b, len, 0), "1 2 3");
	UDP(b)[100] ^= 1;
	IP(b)[11] ^= 1;					/* IP sum wrong */
	assert_string_equal(with_middle(f, b, len, 0), "1 2 3");
	IP(b)[11] ^= 1;
	put16(UDP(b) + 6, 0);				/* no UDP sum */
	assert_string_equal(with_middle(f, b, len, 0), "1 2 3");

	/* a first fragment (MF) whose UDP length is what it carries */
	flow_pkt(&p, 1000, 2);
	p.df = false;
	len = unit_pkt_build(&p, b, sizeof(b));
	IP(b)[6] |= 0x20;
	unit_ip4_fix_cksum(IP(b));
	assert_string_equal(with_middle(f, b, len, 0), "1 2 3");
	/* the reserved flag */
	flow_pkt(&p, 1000, 2);
	len = unit_pkt_build(&p, b, sizeof(b));
	IP(b)[6] |= 0x80;
	unit_ip4_fix_cksum(IP(b));
	assert_string_equal(with_middle(f, b, len, 0), "1 2 3");

	/* options: IHL 6 */
	flow_pkt(&p, 1000, 2);
	p.opt_len = 4;
	memcpy(p.opts, nops, 4);
	len = unit_pkt_build(&p, b, sizeof(b));
	assert_string_equal(with_middle(f, b, len, 0), "1 2 3");
}

/* A bad or zero checksum first: never a head; the next ones train. */
static void
test_breakers_first(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[3];
	uint8_t b[UNIT_FRAME_MAX];
	struct unit_pkt p;
	unsigned int i;
	size_t len;

	for (i = 0; i < 2; i++) {
		flow_pkt(&p, 1000, 1);
		len = unit_pkt_build(&p, b, sizeof(b));
		if (i == 0)
			UDP(b)[50] ^= 1;
		else
			put16(UDP(b) + 6, 0);
		pkts[0] = unit_mbuf_from_bytes(b, len, UNIT_P0);
		flow_pkt(&p, 1000, 2);
		pkts[1] = unit_pkt_mbuf(&p);
		flow_pkt(&p, 1000, 3);
		pkts[2] = unit_pkt_mbuf(&p);
		assert_string_equal(gro_run(f, pkts, 3), "1 2-3");
	}
}

/* D14, D16, D19, D20 settled so: IP IDs may be anything, and
 * each member keeps its own. */
static void
test_ip_ids_anything(void **state)
{
	static const uint16_t ids[][3] = {
		{ 7, 7, 7 }, { 3, 2, 1 }, { 1, 5, 9 }, { 0xffff, 0, 1 },
	};
	static const char *const want[] = {
		"7-7-7", "3-2-1", "1-5-9", "65535-0-1",
	};
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[3];
	struct unit_pkt p;
	unsigned int i, k;

	for (i = 0; i < RTE_DIM(ids); i++) {
		for (k = 0; k < 3; k++) {
			flow_pkt(&p, 700, ids[i][k]);
			p.df = i % 2;		/* with DF and without */
			pkts[k] = unit_pkt_mbuf(&p);
		}
		assert_string_equal(gro_run(f, pkts, 3), want[i]);
	}
}

/* At most `flows` trains open at once: the oldest closes for a new flow,
 * nothing is dropped (D28, with listack's geometry). */
static void
test_flows_limit(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[6];
	struct unit_pkt p;
	unsigned int i, round;

	for (round = 0; round < 2; round++) {
		unit_cmd(f, round ? "gro fraglist flows 3 segs 64" :
				    "gro fraglist flows 2 segs 64");
		for (i = 0; i < 6; i++) {
			flow_pkt(&p, 500, (uint16_t)(i + 1));
			p.sport = (uint16_t)(1000 + i % 3);
			pkts[i] = unit_pkt_mbuf(&p);
		}
		assert_string_equal(gro_run(f, pkts, 6),
				    round ? "1-4 2-5 3-6" : "1 2 3 4 5 6");
	}
}

/*
 * 200 flows in one burst, then a second datagram of the first 56: with
 * room for 256 trains 56 of them form, the heads in first-arrival order;
 * with the default 64 the early trains were closed long before (zero
 * merges). Nothing is lost either way.
 */
static void
test_200_flows(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[256];
	struct lsk_list l = { .n = 0 };
	struct unit_pkt p;
	unsigned int i, round;

	for (round = 0; round < 2; round++) {
		unit_cmd(f, round ? "gro fraglist flows 256 segs 64" :
				    "gro fraglist flows 64 segs 64");
		l.n = 0;
		for (i = 0; i < 256; i++) {
			flow_pkt(&p, 100, (uint16_t)i);
			p.sport = (uint16_t)(20000 + i % 200);
			p.src = UNIT_IPV4(10, 0, 0, 1 + (i % 200) % 7);
			lsk_list_push(&l, unit_pkt_mbuf(&p), 0);
			pkts[i] = l.pkts[i];
		}
		lsk_udp4_gro(f->worker, &l);
		assert_int_equal(l.n, round ? 200 : 256);
		for (i = 0; i < l.n; i++) {
			assert_ptr_equal(l.pkts[i], pkts[i]);
			if (round && i < 56) {
				assert_int_equal(lsk_meta_count(l.meta[i]), 2);
				assert_ptr_equal(*lsk_train_next(l.pkts[i]),
						 pkts[200 + i]);
			} else {
				assert_int_equal(lsk_meta_count(l.meta[i]), 1);
			}
			lsk_entry_free(l.pkts[i], l.meta[i]);
		}
	}
	assert_int_equal(unit_stats(f).gro.Merged, 56);
	assert_int_equal(unit_stats(f).gro.Trains, 56);
}

/*
 * A burst where every flow but one comes once goes through the cheap
 * repeat check; the one flow that comes twice, first and last, still
 * makes a train, whether the flows are told apart by the stage's own hash
 * or by a NIC's RSS hash (rss), and also when that hash is the same for
 * every flow (a NIC hashing addresses only, all from one host).
 */
static void
repeat_burst(struct unit_fixture *f, int rss, const char *want)
{
	struct rte_mbuf *pkts[64];
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < 64; i++) {
		flow_pkt(&p, 100, (uint16_t)(i + 1));
		p.sport = (uint16_t)(3000 + (i == 63 ? 0 : i));
		pkts[i] = unit_pkt_mbuf(&p);
		if (rss >= 0) {
			pkts[i]->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
			pkts[i]->hash.rss = rss ? (uint32_t)rss :
					    0x9e3779b9u * p.sport;
		}
	}
	assert_string_equal(gro_counts(f, pkts, 64), want);
}

static void
test_one_repeat_in_many_flows(void **state)
{
	struct unit_fixture *f = *state;
	char want[256];
	size_t at;
	unsigned int i;

	at = (size_t)snprintf(want, sizeof(want), "2");
	for (i = 1; i < 63; i++)
		at += (size_t)snprintf(want + at, sizeof(want) - at, ",1");
	repeat_burst(f, -1, want);		/* no RSS hash */
	repeat_burst(f, 0, want);		/* a hash per flow */
	repeat_burst(f, 0x5a5a5a5a, want);	/* one hash for all */
	assert_int_equal(unit_stats(f).gro.Trains, 3);
	assert_int_equal(unit_stats(f).gro.Merged, 3);
}

/* 256 flows once each: no train, the list as it came, nothing counted. */
static void
test_no_repeat(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[256];
	struct lsk_list l = { .n = 0 };
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < 256; i++) {
		flow_pkt(&p, 100, (uint16_t)i);
		p.sport = (uint16_t)(20000 + i);
		lsk_list_push(&l, unit_pkt_mbuf(&p), 0);
		pkts[i] = l.pkts[i];
	}
	lsk_udp4_gro(f->worker, &l);
	assert_int_equal(l.n, 256);
	for (i = 0; i < l.n; i++) {
		assert_ptr_equal(l.pkts[i], pkts[i]);
		assert_int_equal(lsk_meta_count(l.meta[i]), 1);
		lsk_entry_free(l.pkts[i], l.meta[i]);
	}
	assert_int_equal(unit_stats(f).gro.Trains, 0);
}

/* ------------------------------------------------- through the worker */

/*
 * Runs of one flow, other flows between them, forwarded through the
 * worker: with NIC-vouched checksums the runs become trains before
 * eth_input and udp4_gro must still make what it makes of single
 * datagrams: the same trains (counters), the same wire order. pattern:
 * one letter a datagram, a flow each ("AAABBAACA").
 */
static void
runs_through_worker(struct unit_fixture *f, const char *pattern,
		    uint64_t trains, uint64_t merged, const char *wire)
{
	struct rte_mbuf *pkts[64];
	struct lsk_stats before = unit_stats(f), after;
	char got[256];
	unsigned int i, n = (unsigned int)strlen(pattern);
	size_t at = 0;

	for (i = 0; i < n; i++) {
		struct unit_pkt p;

		flow_pkt(&p, 200, (uint16_t)(i + 1));
		p.dst = UNIT_FAR_IP;
		p.sport = (uint16_t)(1000 + pattern[i]);
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, (uint16_t)n);
	after = unit_stats(f);
	assert_int_equal(after.gro.Trains - before.gro.Trains, trains);
	assert_int_equal(after.gro.Merged - before.gro.Merged, merged);
	assert_int_equal(after.ip.ForwDatagrams - before.ip.ForwDatagrams, n);
	got[0] = '\0';
	for (i = 0; i < f->tx.n[UNIT_P1]; i++)
		at += (size_t)snprintf(got + at, sizeof(got) - at, "%s%u",
			i ? " " : "", rte_be_to_cpu_16(
				unit_ip4(f->tx.pkts[UNIT_P1][i])->packet_id));
	assert_string_equal(got, wire);
	unit_tx_free(f);
}

static void
test_runs_through_worker(void **state)
{
	struct unit_fixture *f = *state;

	runs_through_worker(f, "AAABBAACA", 2, 6, "1 2 3 6 7 9 4 5 8");
	runs_through_worker(f, "AABBAABB", 2, 6, "1 2 5 6 3 4 7 8");
	/* segs 4: the second run tops up the first train, then starts one */
	unit_cmd(f, "gro fraglist flows 64 segs 4");
	runs_through_worker(f, "AAABAAA", 2, 4, "1 2 3 5 4 6 7");
	/* flows 1: B closes A's train, A's second run makes its own */
	unit_cmd(f, "gro fraglist flows 1 segs 64");
	runs_through_worker(f, "AABAA", 2, 2, "1 2 3 4 5");
}


/* n datagrams of one flow with size-byte payloads through the worker:
 * the gro counters it added, and every datagram out in order. */
static void
limits_through_worker(struct unit_fixture *f, unsigned int n, uint16_t size,
		      uint64_t trains, uint64_t merged)
{
	struct rte_mbuf *pkts[130];
	struct lsk_stats before = unit_stats(f), after;
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct unit_pkt p;

		flow_pkt(&p, size, (uint16_t)(i + 1));
		p.dst = UNIT_FAR_IP;
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, (uint16_t)n);
	after = unit_stats(f);
	assert_int_equal(after.gro.Trains - before.gro.Trains, trains);
	assert_int_equal(after.gro.Merged - before.gro.Merged, merged);
	assert_int_equal(f->tx.n[UNIT_P1], n);
	for (i = 0; i < n; i++)
		assert_int_equal(rte_be_to_cpu_16(unit_ip4(
			f->tx.pkts[UNIT_P1][i])->packet_id), i + 1);
	unit_tx_free(f);
}

/* D5 and D6 when the runs form before eth_input (NIC checksums) or in
 * udp4_gro: the same trains as test_segs_limit and test_64k_limit. */
static void
test_limits_through_worker(void **state)
{
	struct unit_fixture *f = *state;

	limits_through_worker(f, 130, 1000, 3, 127);	/* 64, 64, 2 */
	limits_through_worker(f, 100, 1472, 3, 97);	/* 44, 44, 12 */
	limits_through_worker(f, 128, 1024, 3, 125);	/* 63, 63, 2 */
	unit_cmd(f, "gro fraglist flows 64 segs 8");
	limits_through_worker(f, 20, 1000, 3, 17);	/* 8, 8, 4 */
}

/* Feed the same bytes to a GRO-off and a GRO-on fixture. */
static void
feed_both(struct unit_fixture *off, struct unit_fixture *on,
	  uint8_t (*b)[UNIT_FRAME_MAX], const size_t *len, unsigned int n)
{
	struct rte_mbuf *x[LSK_BURST_MAX], *y[LSK_BURST_MAX];
	unsigned int i;

	for (i = 0; i < n; i++) {
		x[i] = unit_mbuf_from_bytes(b[i], len[i], UNIT_P0);
		y[i] = unit_mbuf_from_bytes(b[i], len[i], UNIT_P0);
	}
	unit_input(off, x, (uint16_t)n);
	unit_input(on, y, (uint16_t)n);
}

/* The datagrams on port are the same, in order, byte for byte (in
 * whatever segments), as are the ICMP messages (one flow: the same order
 * too). */
static void
assert_same_tx(const struct unit_fixture *a, const struct unit_fixture *b)
{
	unsigned int port, i;

	for (port = 0; port < 2; port++) {
		assert_int_equal(a->tx.n[port], b->tx.n[port]);
		for (i = 0; i < a->tx.n[port]; i++) {
			struct rte_mbuf *x = a->tx.pkts[port][i];
			struct rte_mbuf *y = b->tx.pkts[port][i];

			static uint8_t bx[UNIT_FRAME_MAX], by[UNIT_FRAME_MAX];
			uint32_t len = rte_pktmbuf_pkt_len(x);

			assert_int_equal(len, rte_pktmbuf_pkt_len(y));
			assert_true(len <= UNIT_FRAME_MAX);
			assert_memory_equal(rte_pktmbuf_read(x, 0, len, bx),
					    rte_pktmbuf_read(y, 0, len, by),
					    len);
		}
	}
}

/*
 * E9 with docs/configuration.md's counting: a TTL-1 datagram in the middle of a flow
 * ends the train and is answered alone; a train made of TTL-1 datagrams
 * is dropped whole with one time exceeded per datagram. Wire and counters
 * equal GRO off.
 */
static void
test_ttl1_in_and_as_train(void **state)
{
	static uint8_t b[9][UNIT_FRAME_MAX];
	static const uint8_t ttl[9] = { 64, 64, 1, 64, 64, 1, 1, 1, 1 };
	struct unit_fixture *on = *state, *off;
	size_t len[9];
	struct unit_pkt p;
	struct lsk_stats st;
	unsigned int i;

	off = unit_fixture_create(LSK_MODE_LIST);
	assert_non_null(off);
	for (i = 0; i < 9; i++) {
		unit_pkt_init(&p, UNIT_FAR_IP);
		p.id = (uint16_t)(i + 1);
		p.ttl = ttl[i];
		if (i >= 5)
			p.sport = 1001;			/* the TTL-1 flow */
		len[i] = unit_pkt_build(&p, b[i], sizeof(b[i]));
	}
	feed_both(off, on, b, len, 9);
	assert_same_tx(off, on);
	unit_assert_same_counters(off, on, false);

	st = unit_stats(on);
	assert_int_equal(unit_tx_udp_to(on, UNIT_P1, UNIT_FAR_IP), 4);
	assert_int_equal(unit_tx_icmp(on, UNIT_P0, 11, 0), 5);
	assert_int_equal(st.ip.InHdrErrors, 5);
	assert_int_equal(st.ip.ForwDatagrams, 4);
	assert_int_equal(st.ip.InReceives, 9);
	assert_int_equal(st.icmp.OutTimeExcds, 5);
	/* [1,2] [3] [4,5] and [6..9] */
	assert_int_equal(st.gro.Trains, 3);
	assert_int_equal(st.gro.Merged, 1 + 1 + 3);
	assert_int_equal(st.gso.Segments, 4);
	unit_tx_free(off);
	unit_tx_free(on);		/* the pool is shared: both clean */
	unit_fixture_destroy(off);
}

/*
 * F14: counters count datagrams, never trains; trains only move the gro
 * (and gso) counters. A train to a plain endpoint arrives as the
 * datagrams it was made of (E10, D35).
 */
static void
test_counters_and_plain_endpoint(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *e0 = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	static const uint16_t len[] = { 1000, 1000, 600 };
	struct rte_mbuf *pkts[3];
	struct lsk_udp_msg msgs[4];
	struct lsk_stats st;
	int i, k;

	flow_burst(pkts, len, 3);
	unit_input(f, pkts, 3);
	st = unit_stats(f);
	assert_int_equal(st.ip.InReceives, 3);
	assert_int_equal(st.ip.InDelivers, 3);
	assert_int_equal(st.udp.InDatagrams, 3);
	assert_int_equal(st.gro.Trains, 1);
	assert_int_equal(st.gro.Merged, 2);
	/* list entries: with checksums the NIC vouched for, the first two
	 * reach eth_input and GRO already as one train (lsk_gro_rx_runs) */
	assert_int_equal(st.stages[LSK_STAGE_ETH_INPUT].packets,
			 unit_nic_csum ? 2 : 3);
	assert_int_equal(st.stages[LSK_STAGE_UDP4_GRO].packets,
			 unit_nic_csum ? 2 : 3);
	assert_int_equal(st.stages[LSK_STAGE_IP4_INPUT].packets, 1);

	k = lsk_udp_recv_burst(e0, msgs, 4);
	assert_int_equal(k, 3);
	for (i = 0; i < k; i++) {
		const uint8_t *pl = msgs[i].payload;
		unsigned int j;

		assert_int_equal(msgs[i].len, len[i]);
		assert_int_equal(msgs[i].gso_size, 0);
		assert_int_equal(msgs[i].src_addr, UNIT_A_IP);
		assert_int_equal(msgs[i].src_port, 1000);
		assert_int_equal(msgs[i].mbuf->nb_segs, 1);
		assert_int_equal(rte_be_to_cpu_16(
			unit_ip4(msgs[i].mbuf)->packet_id), i + 1);
		for (j = 0; j < len[i]; j++)
			assert_int_equal(pl[j], (uint8_t)(j * 7 + 3));
		rte_pktmbuf_free(msgs[i].mbuf);
	}
	unit_close(f, e0);
}

/* The payload of a message, segments and all, is n datagrams' payloads
 * of the default pattern, seg bytes each (the last may be shorter). */
static void
assert_gro_payload(const struct lsk_udp_msg *msg, uint32_t seg)
{
	static uint8_t buf[65536];
	const uint8_t *all;
	uint32_t off = (uint32_t)((const uint8_t *)msg->payload -
				  rte_pktmbuf_mtod(msg->mbuf, uint8_t *));
	uint32_t i;

	assert_int_equal(rte_pktmbuf_pkt_len(msg->mbuf), off + msg->len);
	all = rte_pktmbuf_read(msg->mbuf, off, msg->len, buf);
	assert_non_null(all);
	for (i = 0; i < msg->len; i++)
		if (all[i] != (uint8_t)((i % seg) * 7 + 3))
			fail_msg("payload byte %u: %#x", i, all[i]);
}

/*
 * E11: an LSK_UDP_GRO endpoint gets a train as one datagram whose payload
 * spans the members' segments, with gso_size the size of each (the last
 * may be shorter); a lone datagram comes plain (gso_size 0, D29).
 * InDatagrams still counts each datagram.
 */
static void
test_gro_endpoint(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_udp_bind_opts opts = { .socket_id = SOCKET_ID_ANY,
						.flags = LSK_UDP_GRO };
	struct lsk_udp_ep *e1 = unit_bind(f, UNIT_P0_IP, 2001, &opts);
	struct rte_mbuf *pkts[10];
	struct lsk_udp_msg msg[2];
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < 10; i++) {
		flow_pkt(&p, 1472, (uint16_t)(i + 1));
		p.dport = 2001;
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, 10);
	assert_int_equal(lsk_udp_recv_burst(e1, msg, 2), 1);
	assert_int_equal(msg[0].len, 14720);
	assert_int_equal(msg[0].gso_size, 1472);
	assert_int_equal(msg[0].mbuf->nb_segs, 10);
	assert_int_equal(msg[0].src_addr, UNIT_A_IP);
	assert_int_equal(msg[0].dst_port, 2001);
	assert_gro_payload(&msg[0], 1472);
	rte_pktmbuf_free(msg[0].mbuf);
	assert_int_equal(unit_stats(f).udp.InDatagrams, 10);

	/* 1000, 1000, 600 */
	for (i = 0; i < 3; i++) {
		flow_pkt(&p, i < 2 ? 1000 : 600, (uint16_t)(i + 1));
		p.dport = 2001;
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, 3);
	assert_int_equal(lsk_udp_recv_burst(e1, msg, 2), 1);
	assert_int_equal(msg[0].len, 2600);
	assert_int_equal(msg[0].gso_size, 1000);
	assert_gro_payload(&msg[0], 1000);
	rte_pktmbuf_free(msg[0].mbuf);

	/* alone */
	flow_pkt(&p, 300, 1);
	p.dport = 2001;
	unit_input_pkt(f, &p);
	assert_int_equal(lsk_udp_recv_burst(e1, msg, 2), 1);
	assert_int_equal(msg[0].len, 300);
	assert_int_equal(msg[0].gso_size, 0);
	assert_int_equal(msg[0].mbuf->nb_segs, 1);
	rte_pktmbuf_free(msg[0].mbuf);
	assert_int_equal(unit_stats(f).udp.InDatagrams, 14);
	unit_close(f, e1);
}

/* A full LSK_UDP_GRO endpoint: a train that does not fit counts each of
 * its datagrams RcvbufErrors and InErrors. */
static void
test_gro_endpoint_full(void **state)
{
	struct unit_fixture *f = *state;
	const struct lsk_udp_bind_opts opts = { .socket_id = SOCKET_ID_ANY,
		.flags = LSK_UDP_GRO, .ring_size = 1 };
	struct lsk_udp_ep *e1 = unit_bind(f, UNIT_P0_IP, 2001, &opts);
	struct rte_mbuf *pkts[8];
	struct lsk_stats st;
	struct unit_pkt p;
	unsigned int i;

	for (i = 0; i < 8; i++) {
		flow_pkt(&p, 500, (uint16_t)(i + 1));
		p.dport = 2001;
		p.sport = (uint16_t)(1000 + i / 4);	/* two trains of 4 */
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, 8);
	st = unit_stats(f);
	assert_int_equal(st.udp.InDatagrams, 4);
	assert_int_equal(st.udp.RcvbufErrors, 4);
	assert_int_equal(st.udp.InErrors, 4);
	assert_int_equal(unit_recv_free(e1, 4), 1);
	unit_close(f, e1);
}

/* ------------------------------------ frames in exactly sized buffers */

/*
 * GRO with and without: two fixtures in one mode, fed the same bytes, each
 * frame in an exact buffer (unit_mbuf_exact), so ASan sees any read past
 * a frame or of a datagram after it was freed.
 */
struct pair {
	struct unit_fixture *off, *on;
};

#define EXACT_MAX 8

struct exact_burst {
	unsigned int n;
	size_t len[EXACT_MAX], first[EXACT_MAX];	/* first: split at */
	uint8_t b[EXACT_MAX][UNIT_FRAME_MAX];
};

static void
pair_create(struct pair *pr, enum lsk_mode mode, const char *gro)
{
	pr->off = unit_fixture_create(mode);
	pr->on = unit_fixture_create(mode);
	assert_non_null(pr->off);
	assert_non_null(pr->on);
	unit_cmd(pr->on, gro);
}

static void
pair_destroy(struct pair *pr)
{
	unit_fixture_destroy(pr->off);
	unit_fixture_destroy(pr->on);
}

/* Fed the same frames (x to off, y to on), both fixtures send the same
 * frames and count alike outside gro/gso. */
static void
pair_input(struct pair *pr, struct rte_mbuf **x, struct rte_mbuf **y,
	   unsigned int n)
{
	struct lsk_stats a, b;

	unit_input(pr->off, x, (uint16_t)n);
	unit_input(pr->on, y, (uint16_t)n);
	assert_same_tx(pr->off, pr->on);
	unit_assert_same_counters(pr->off, pr->on, false);
	a = unit_stats(pr->off);
	b = unit_stats(pr->on);
	assert_memory_equal(&a.eth, &b.eth, sizeof(a.eth));
	assert_memory_equal(a.ports, b.ports, sizeof(a.ports));
	unit_tx_free(pr->off);
	unit_tx_free(pr->on);
}

static void
pair_feed(struct pair *pr, const struct exact_burst *eb)
{
	struct rte_mbuf *x[EXACT_MAX], *y[EXACT_MAX];
	unsigned int i;

	for (i = 0; i < eb->n; i++) {
		x[i] = unit_mbuf_exact(eb->b[i], eb->len[i], eb->first[i],
				       UNIT_P0);
		y[i] = unit_mbuf_exact(eb->b[i], eb->len[i], eb->first[i],
				       UNIT_P0);
	}
	pair_input(pr, x, y, eb->n);
}

/* n datagrams of flow F to the far network (forwarded), IDs 1..n. */
static void
exact_flow(struct exact_burst *eb, unsigned int n, uint16_t payload)
{
	struct unit_pkt p;
	unsigned int i;

	assert_true(n <= EXACT_MAX);
	eb->n = n;
	for (i = 0; i < n; i++) {
		flow_pkt(&p, payload, (uint16_t)(i + 1));
		p.dst = UNIT_FAR_IP;
		eb->len[i] = unit_pkt_build(&p, eb->b[i], sizeof(eb->b[i]));
		eb->first[i] = eb->len[i];
	}
}

/* How far into a frame GRO's checks reach: its headers and some. */
#define EXACT_CUT_MAX (UNIT_ETH_LEN + 20 + 8 + 16)

/*
 * Issue 10, finding 3: datagrams of one flow with one frame among them
 * cut short (a runt, half an IP header, a UDP header without its ports),
 * or whole but with its first segment ending anywhere in its headers,
 * first, second and third; and trains of tiny datagrams (frames shorter
 * than the 48 bytes the run compare takes). No frame is read past its
 * end: one that cannot be read is not joined and goes its way as
 * without GRO (eth.Runts, ip.InHdrErrors, ...).
 */
static void
exact_cuts(enum lsk_mode mode, const char *gro)
{
	static struct exact_burst eb;
	struct pair pr;
	unsigned int pos, cut;
	uint16_t payload;

	pair_create(&pr, mode, gro);
	for (pos = 0; pos < 3; pos++) {
		for (cut = 1; cut <= EXACT_CUT_MAX; cut++) {
			exact_flow(&eb, 3, 100);
			eb.len[pos] = eb.first[pos] = cut;
			pair_feed(&pr, &eb);
			exact_flow(&eb, 3, 100);
			eb.first[pos] = cut;
			pair_feed(&pr, &eb);
		}
	}
	for (payload = 1; payload <= 8; payload++) {
		exact_flow(&eb, 4, payload);
		pair_feed(&pr, &eb);
	}
	pair_destroy(&pr);
}

static void
test_exact_cuts_list(void **state)
{
	(void)state;
	exact_cuts(LSK_MODE_LIST, "gro fraglist flows 64 segs 64");
}

static void
test_exact_cuts_list_merge(void **state)
{
	(void)state;
	exact_cuts(LSK_MODE_LIST, "gro merge flows 64 segs 64");
}

static void
test_exact_cuts_single(void **state)
{
	(void)state;
	exact_cuts(LSK_MODE_SINGLE, "gro fraglist flows 64 segs 64");
}

static void
test_exact_cuts_single_merge(void **state)
{
	(void)state;
	exact_cuts(LSK_MODE_SINGLE, "gro merge flows 64 segs 64");
}

/*
 * Issue 10, finding 4: `gro merge` copies a member's payload behind the
 * head's and frees the member; nothing reads the member after that. In
 * exact buffers (freed with their mbufs): three datagrams make one
 * train, and leave as they would without GRO.
 */
static void
test_exact_merge(void **state)
{
	static struct exact_burst eb;
	struct lsk_stats st;
	struct pair pr;

	(void)state;
	pair_create(&pr, LSK_MODE_LIST, "gro merge flows 64 segs 64");
	exact_flow(&eb, 3, 1000);
	pair_feed(&pr, &eb);
	st = unit_stats(pr.on);
	assert_int_equal(st.gro.Trains, 1);
	assert_int_equal(st.gro.Merged, 2);
	assert_int_equal(st.gso.Segments, 3);
	assert_int_equal(st.ip.ForwDatagrams, 3);
	pair_destroy(&pr);
}

/* A merged train that is answered: with ICMP about each datagram. */
static void
merged_errors(struct pair *pr, uint32_t dst, uint16_t dport, uint8_t ttl,
	      uint16_t payload)
{
	static struct exact_burst eb;
	unsigned int i;

	exact_flow(&eb, 3, payload);
	for (i = 0; i < 3; i++) {
		uint8_t *ip = eb.b[i] + UNIT_ETH_LEN;

		put32(ip + 16, dst);
		ip[8] = ttl;
		unit_ip4_fix_cksum(ip);
		put16(ip + 22, dport);
		put16(ip + 26, 0);
		put16(ip + 26, (uint16_t)~fold(sum16(ip + 20, 8 + payload,
			sum16(ip + 12, 8, 0) + IPPROTO_UDP + 8u + payload)));
	}
	eb.len[2] -= 100;	/* a shorter last one */
	eb.first[2] = eb.len[2];
	put16(eb.b[2] + UNIT_ETH_LEN + 2, (uint16_t)(28 + payload - 100));
	unit_ip4_fix_cksum(eb.b[2] + UNIT_ETH_LEN);
	put16(eb.b[2] + UNIT_ETH_LEN + 24, (uint16_t)(8 + payload - 100));
	put16(eb.b[2] + UNIT_ETH_LEN + 26, 0);
	put16(eb.b[2] + UNIT_ETH_LEN + 26, (uint16_t)~fold(sum16(
		eb.b[2] + UNIT_ETH_LEN + 20, 8 + payload - 100,
		sum16(eb.b[2] + UNIT_ETH_LEN + 12, 8, 0) + IPPROTO_UDP +
		8u + payload - 100)));
	pair_feed(pr, &eb);
}

/*
 * A merged train dropped with an ICMP error (TTL 1, no route, DF and
 * over the MTU, no listener) is answered as its datagrams would be
 * without GRO: one error each, quoting that datagram as it arrived
 * (its ID, lengths and checksums), the shorter last one too.
 */
static void
test_merged_train_errors(void **state)
{
	struct lsk_stats st;
	struct pair pr;

	(void)state;
	pair_create(&pr, LSK_MODE_LIST, "gro merge flows 64 segs 64");
	unit_cmd(pr.off, "port 1 mtu 1000");
	unit_cmd(pr.on, "port 1 mtu 1000");
	merged_errors(&pr, UNIT_FAR_IP, 2000, 1, 300);
	merged_errors(&pr, UNIT_IPV4(192, 168, 77, 1), 2000, 64, 300);
	merged_errors(&pr, UNIT_FAR_IP, 2000, 64, 1200);
	merged_errors(&pr, UNIT_P0_IP, 3999, 64, 300);
	st = unit_stats(pr.on);
	assert_int_equal(st.gro.Trains, 4);
	assert_int_equal(st.icmp.OutMsgs, 12);
	pair_destroy(&pr);
}

/*
 * A train over the egress MTU whose shorter last datagram fits: that one
 * is forwarded whole, as without GRO, and the others dropped with
 * fragmentation needed each (DF set: ip.FragFails) or fragmented (DF
 * clear: ip.FragOKs). Both GRO modes.
 */
static void
train_over_mtu(const char *gro, bool df)
{
	static struct exact_burst eb;
	struct lsk_stats st;
	struct unit_pkt p;
	struct pair pr;
	unsigned int i;

	pair_create(&pr, LSK_MODE_LIST, gro);
	unit_cmd(pr.off, "port 1 mtu 1000");
	unit_cmd(pr.on, "port 1 mtu 1000");
	eb.n = 3;
	for (i = 0; i < 3; i++) {
		flow_pkt(&p, i < 2 ? 1021 : 511, (uint16_t)(i + 1));
		p.dst = UNIT_FAR_IP;
		p.df = df;
		eb.len[i] = unit_pkt_build(&p, eb.b[i], sizeof(eb.b[i]));
		eb.first[i] = eb.len[i];
	}
	pair_feed(&pr, &eb);
	st = unit_stats(pr.on);
	assert_int_equal(st.gro.Trains, 1);
	assert_int_equal(st.ip.FragFails, df ? 2 : 0);
	assert_int_equal(st.ip.FragOKs, df ? 0 : 2);
	assert_int_equal(st.ip.ForwDatagrams, df ? 1 : 3);
	pair_destroy(&pr);
}

static void
test_train_over_mtu_short_last(void **state)
{
	(void)state;
	train_over_mtu("gro fraglist flows 64 segs 64", true);
	train_over_mtu("gro fraglist flows 64 segs 64", false);
	train_over_mtu("gro merge flows 64 segs 64", true);
	train_over_mtu("gro merge flows 64 segs 64", false);
}

/* The frame in an mbuf of mp from the start of its buffer: no headroom,
 * as a PMD may place it. */
static struct rte_mbuf *
mbuf_no_headroom(struct rte_mempool *mp, const uint8_t *b, size_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	char *d;

	assert_non_null(m);
	m->data_off = 0;
	d = rte_pktmbuf_append(m, (uint16_t)len);
	assert_non_null(d);
	memcpy(d, b, len);
	m->port = UNIT_P0;
	return m;
}

/*
 * Issue 10, finding 8: `gro merge` copies each member's payload into a
 * fresh mbuf of the head's pool when the head has no room left, and GSO
 * rebuilds each datagram in one. A pool whose fresh mbufs cannot hold a
 * head's frame (here 972 bytes after the headroom, frames placed without
 * headroom) gets no merged train: its datagrams go on one by one, as
 * without GRO, and nothing is written past a buffer. Frames that fit
 * still merge.
 */
static void
test_merge_small_pool(void **state)
{
	static const uint16_t payload[] = { 1000, 950, 900 };
	static struct exact_burst eb;
	struct rte_mbuf *x[3], *y[3];
	struct rte_mempool *mp;
	struct pair pr;
	unsigned int i, k;

	(void)state;
	mp = rte_pktmbuf_pool_create("gro_small", 63, 0, 0,
				     RTE_PKTMBUF_HEADROOM + 972, SOCKET_ID_ANY);
	assert_non_null(mp);
	pair_create(&pr, LSK_MODE_LIST, "gro merge flows 64 segs 64");
	for (k = 0; k < RTE_DIM(payload); k++) {
		exact_flow(&eb, 3, payload[k]);
		for (i = 0; i < 3; i++) {
			x[i] = mbuf_no_headroom(mp, eb.b[i], eb.len[i]);
			y[i] = mbuf_no_headroom(mp, eb.b[i], eb.len[i]);
		}
		pair_input(&pr, x, y, 3);
		/* 1042 and 992-byte frames do not fit, 942 do */
		assert_int_equal(unit_stats(pr.on).gro.Trains, k < 2 ? 0 : 1);
	}
	pair_destroy(&pr);
	assert_int_equal(rte_mempool_in_use_count(mp), 0);
	rte_mempool_free(mp);
}

/*
 * A merged train is its head alone: dropped whole (here a unicast
 * datagram in an L2 broadcast that would be forwarded, counted
 * ip.InAddrErrors), nothing but the head is freed, whatever train link
 * its mbuf kept from an earlier trip (members of a fraglist train keep
 * theirs to the application). Every mbuf comes back exactly once.
 */
static void
test_merged_head_has_no_members(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_ep *ep = unit_bind(f, UNIT_P0_IP, 2000, NULL);
	struct lsk_udp_msg msgs[3];
	struct rte_mbuf *pkts[3], *held;
	unsigned int i, in_use;
	struct unit_pkt p;

	/* one held, so a double free shows (the pool's free count is
	 * capped at its size) */
	held = rte_pktmbuf_alloc(unit_pool);
	assert_non_null(held);
	for (i = 0; i < 3; i++) {
		flow_pkt(&p, 300, (uint16_t)(i + 1));
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, 3);			/* one train, to ep */
	assert_int_equal(unit_stats(f).gro.Trains, 1);
	assert_int_equal(lsk_udp_recv_burst(ep, msgs, 3), 3);
	/* the second is freed last, so it is the next mbuf taken */
	rte_pktmbuf_free(msgs[2].mbuf);
	rte_pktmbuf_free(msgs[0].mbuf);
	rte_pktmbuf_free(msgs[1].mbuf);
	unit_close(f, ep);

	unit_cmd(f, "gro merge flows 64 segs 64");
	in_use = unit_pool_in_use();
	for (i = 0; i < 3; i++) {
		flow_pkt(&p, 300, (uint16_t)(i + 1));
		p.dst = UNIT_FAR_IP;
		p.dst_mac = unit_bcast_mac;
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, 3);
	assert_int_equal(unit_stats(f).gro.Trains, 2);
	assert_int_equal(unit_stats(f).ip.InAddrErrors, 3);
	assert_int_equal(unit_tx_count(f), 0);
	assert_int_equal(unit_pool_in_use(), in_use);
	rte_pktmbuf_free(held);
}

/* The same rules when a NIC vouches for the checksums (GRO's fast path
 * for the third datagram of a train on). */
static int
nic_setup(void **state)
{
	*state = NULL;
	unit_nic_csum = true;
	return 0;
}

static int
gro_setup_nic(void **state)
{
	unit_nic_csum = true;
	return gro_setup(state);
}

/* ------------------------------ long trains, forwarded as a NIC gives them */

#define LONG_BURST 32
#define LONG_BURSTS 16

/* The one header field a datagram of a long burst may differ in. */
enum long_field {
	LONG_NONE, LONG_DST_MAC, LONG_SRC_MAC, LONG_TOS, LONG_TTL, LONG_DF,
	LONG_SRC, LONG_DST, LONG_SPORT, LONG_DPORT, LONG_SHORTER, LONG_FIELDS
};

/*
 * A burst of flow F to the far network, 1460-byte payloads, IP IDs from
 * id on, into both fixtures' mbufs; the datagram at pos differs in field
 * (its checksums valid for what it holds).
 */
static void
long_burst(struct rte_mbuf **x, struct rte_mbuf **y, uint16_t id,
	   enum long_field field, unsigned int pos)
{
	static uint8_t b[UNIT_FRAME_MAX];
	unsigned int i;

	for (i = 0; i < LONG_BURST; i++) {
		struct unit_pkt p;
		size_t len;

		flow_pkt(&p, 1460, (uint16_t)(id + i));
		p.dst = UNIT_FAR_IP;
		if (i == pos) {
			switch (field) {
			case LONG_DST_MAC: p.dst_mac.addr_bytes[5] ^= 1; break;
			case LONG_SRC_MAC: p.src_mac.addr_bytes[0] ^= 2; break;
			case LONG_TOS: p.tos = 4; break;
			case LONG_TTL: p.ttl--; break;
			case LONG_DF: p.df = false; break;
			case LONG_SRC: p.src++; break;
			case LONG_DST: p.dst++; break;
			case LONG_SPORT: p.sport++; break;
			case LONG_DPORT: p.dport++; break;
			case LONG_SHORTER: p.payload_len--; break;
			default: break;
			}
		}
		len = unit_pkt_build(&p, b, sizeof(b));
		x[i] = unit_mbuf_from_bytes(b, len, UNIT_P0);
		y[i] = unit_mbuf_from_bytes(b, len, UNIT_P0);
	}
}

/* The bursts through one fixture: not inlined, so that callgrind's
 * --toggle-collect=long_feed counts the stack's work on them
 * (bench/RESULTS.md, "gro fraglist train path"). */
static __rte_noinline void
long_feed(struct unit_fixture *f, struct rte_mbuf *(*pkts)[LONG_BURST])
{
	unsigned int k;

	for (k = 0; k < LONG_BURSTS; k++)
		unit_input(f, pkts[k], LONG_BURST);
}

/*
 * Bursts of one flow at 1460 bytes, the NIC's checksum flags set: the run
 * pass chains each into one train, and the train leaves as GRO off sends
 * the datagrams, byte for byte (TTL, IP checksum, Ethernet header), in
 * order, with the same counters; every burst a train of 32.
 */
static void
test_long_trains_forwarded(void **state)
{
	static struct rte_mbuf *x[LONG_BURSTS][LONG_BURST];
	static struct rte_mbuf *y[LONG_BURSTS][LONG_BURST];
	struct lsk_stats before, after;
	struct pair pr;
	unsigned int k;

	(void)state;
	pair_create(&pr, LSK_MODE_LIST, "gro fraglist flows 64 segs 64");
	for (k = 0; k < LONG_BURSTS; k++)
		long_burst(x[k], y[k], (uint16_t)(1 + k * LONG_BURST),
			   LONG_NONE, 0);
	before = unit_stats(pr.on);
	long_feed(pr.off, x);
	long_feed(pr.on, y);
	after = unit_stats(pr.on);
	assert_int_equal(after.gro.Trains - before.gro.Trains, LONG_BURSTS);
	assert_int_equal(after.gro.Merged - before.gro.Merged,
			 LONG_BURSTS * (LONG_BURST - 1));
	assert_int_equal(pr.on->tx.n[UNIT_P1], LONG_BURSTS * LONG_BURST);
	assert_same_tx(pr.off, pr.on);
	unit_assert_same_counters(pr.off, pr.on, false);
	for (k = 0; k < LONG_BURSTS * LONG_BURST; k++) {
		struct rte_mbuf *m = pr.on->tx.pkts[UNIT_P1][k];
		const uint8_t *ip = (const uint8_t *)unit_ip4(m);

		assert_int_equal(get16(ip + 4), k + 1);	/* in order */
		assert_int_equal(ip[8], 63);
		assert_int_equal(unit_ip4_hdr_sum(ip), 0);	/* valid */
	}
	unit_tx_free(pr.off);
	unit_tx_free(pr.on);
	pair_destroy(&pr);
}

/* As assert_same_tx, for frames that may leave in another order: each
 * of b's datagrams on port 1 is the one of a's with its IP ID. */
static void
assert_same_tx_by_id(const struct unit_fixture *a,
		     const struct unit_fixture *b)
{
	unsigned int i, j;

	assert_int_equal(a->tx.n[UNIT_P0], b->tx.n[UNIT_P0]);
	assert_int_equal(a->tx.n[UNIT_P1], b->tx.n[UNIT_P1]);
	for (i = 0; i < b->tx.n[UNIT_P1]; i++) {
		struct rte_mbuf *y = b->tx.pkts[UNIT_P1][i];
		uint16_t id = get16((const uint8_t *)unit_ip4(y) + 4);

		for (j = 0; j < a->tx.n[UNIT_P1]; j++) {
			struct rte_mbuf *x = a->tx.pkts[UNIT_P1][j];

			if (get16((const uint8_t *)unit_ip4(x) + 4) == id)
				break;
		}
		assert_true(j < a->tx.n[UNIT_P1]);
		assert_int_equal(rte_pktmbuf_pkt_len(a->tx.pkts[UNIT_P1][j]),
				 rte_pktmbuf_pkt_len(y));
		assert_int_equal(rte_pktmbuf_data_len(y), rte_pktmbuf_pkt_len(y));
		assert_memory_equal(rte_pktmbuf_mtod(a->tx.pkts[UNIT_P1][j],
						     void *),
				    rte_pktmbuf_mtod(y, void *),
				    rte_pktmbuf_pkt_len(y));
	}
}

/*
 * A datagram that differs from the rest of its burst in one header field
 * (first, in the middle, last) is not chained into the train: the wire
 * and the counters are GRO off's, and the train counts only datagrams
 * that share every field.
 */
static void
test_long_trains_one_field(void **state)
{
	static const unsigned int pos[] = { 0, 1, 15, 31 };
	struct rte_mbuf *x[LONG_BURST], *y[LONG_BURST];
	struct pair pr;
	unsigned int f, i;
	uint16_t id = 1;

	(void)state;
	pair_create(&pr, LSK_MODE_LIST, "gro fraglist flows 64 segs 64");
	for (f = LONG_DST_MAC; f < LONG_FIELDS; f++) {
		for (i = 0; i < RTE_DIM(pos); i++) {
			struct lsk_stats before = unit_stats(pr.on), after;
			uint64_t merged;

			long_burst(x, y, id, (enum long_field)f, pos[i]);
			id = (uint16_t)(id + LONG_BURST);
			if (f < LONG_SRC) {
				pair_input(&pr, x, y, LONG_BURST);
			} else {	/* another flow: per-flow order only */
				unit_input(pr.off, x, LONG_BURST);
				unit_input(pr.on, y, LONG_BURST);
				assert_same_tx_by_id(pr.off, pr.on);
				unit_assert_same_counters(pr.off, pr.on, false);
				unit_tx_free(pr.off);
				unit_tx_free(pr.on);
			}
			after = unit_stats(pr.on);
			merged = after.gro.Merged - before.gro.Merged;
			/* the odd one out and, unless it ends the burst,
			 * the one after it start trains of their own */
			if (f == LONG_SHORTER)	/* a shorter one joins, last */
				assert_true(merged <= LONG_BURST - 1);
			else
				assert_true(merged <= LONG_BURST - 2);
		}
	}
	pair_destroy(&pr);
}

#define GRO_TESTS(T) \
	T(test_basic_train), \
	T(test_each_join_condition), \
	T(test_each_join_condition_third), \
	T(test_interleaved_flows), \
	T(test_length_rules), \
	T(test_padding), \
	T(test_segs_limit), \
	T(test_64k_limit), \
	T(test_breakers_in_the_middle), \
	T(test_breakers_first), \
	T(test_ip_ids_anything), \
	T(test_flows_limit), \
	T(test_200_flows), \
	T(test_one_repeat_in_many_flows), \
	T(test_no_repeat), \
	T(test_ttl1_in_and_as_train), \
	T(test_runs_through_worker), \
	T(test_limits_through_worker), \
	T(test_counters_and_plain_endpoint), \
	T(test_gro_endpoint), \
	T(test_gro_endpoint_full), \
	T(test_merged_head_has_no_members)
/* these make their own fixtures, in either mode */
#define EXACT_TESTS(T) \
	T(test_exact_cuts_list), \
	T(test_exact_cuts_list_merge), \
	T(test_exact_cuts_single), \
	T(test_exact_cuts_single_merge), \
	T(test_exact_merge), \
	T(test_merge_small_pool), \
	T(test_merged_train_errors), \
	T(test_train_over_mtu_short_last), \
	T(test_long_trains_forwarded), \
	T(test_long_trains_one_field)
#define SW(fn) cmocka_unit_test_setup_teardown(fn, gro_setup, unit_teardown)
#define NIC(fn) { "NIC checksums: " #fn, fn, gro_setup_nic, unit_teardown, \
		  NULL }
#define EXACT_SW(fn) cmocka_unit_test_teardown(fn, unit_teardown)
#define EXACT_NIC(fn) { "NIC checksums: " #fn, fn, nic_setup, unit_teardown, \
			NULL }

int
main(void)
{
	const struct CMUnitTest tests[] = {
		GRO_TESTS(SW), GRO_TESTS(NIC),
		EXACT_TESTS(EXACT_SW), EXACT_TESTS(EXACT_NIC),
	};

	return cmocka_run_group_tests_name("udp4_gro", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
