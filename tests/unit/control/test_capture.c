/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * capture: what the worker received (rx), handed to the tx function (tx)
 * and dropped (drop, each with its counter's name as the packet's
 * comment) is in the pcapng file, byte for byte, read back by a small
 * reader of its blocks; snaplen and count are honoured; under a flood
 * into a tiny ring or pool every packet taken is written or counted
 * lost; a stop writes what was in flight and closes the file; the
 * commands refuse what they must and change nothing then.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit_common.h"
#include "cli/cli.h"
#include "control/control.h"
#include "control/capture.h"
#include "l2/l2.h"

/* --- a pcapng reader: SHB, IDBs, EPBs and their options ------------- */

#define MAX_RECS 2048

struct rec {
	uint32_t ifid, caplen, origlen, flags;
	uint64_t ts;
	char comment[128];
	uint8_t data[UNIT_FRAME_MAX];
};

struct pcapng {
	unsigned int n_if;
	uint16_t linktype[8];
	uint32_t snaplen[8];
	char ifname[8][64];
	uint8_t tsresol[8];
	unsigned int n;
	struct rec *recs;
};

static uint32_t
rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint16_t
rd16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Walk the options at p..end; code/len/value to fn's caller. */
typedef void (*opt_fn)(void *arg, uint16_t code, const uint8_t *v,
		       uint16_t len);

static void
read_opts(const uint8_t *p, const uint8_t *end, opt_fn fn, void *arg)
{
	while (p + 4 <= end) {
		uint16_t code = rd16(p), len = rd16(p + 2);

		if (code == 0)
			return;
		assert_true(p + 4 + len <= end);
		fn(arg, code, p + 4, len);
		p += 4 + ((len + 3u) & ~3u);
	}
	fail_msg("options without opt_endofopt");
}

struct idb_ctx {
	struct pcapng *pc;
	unsigned int i;
};

static void
idb_opt(void *arg, uint16_t code, const uint8_t *v, uint16_t len)
{
	struct idb_ctx *c = arg;

	if (code == 2)
		snprintf(c->pc->ifname[c->i], 64, "%.*s", len, (const char *)v);
	if (code == 9 && len == 1)
		c->pc->tsresol[c->i] = v[0];
}

static void
epb_opt(void *arg, uint16_t code, const uint8_t *v, uint16_t len)
{
	struct rec *r = arg;

	if (code == 2 && len == 4)
		r->flags = rd32(v);
	if (code == 1)
		snprintf(r->comment, sizeof(r->comment), "%.*s", len,
			 (const char *)v);
}

static void
pcapng_read(const char *path, struct pcapng *pc)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf, *p, *end;
	long size;

	memset(pc, 0, sizeof(*pc));
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	rewind(f);
	assert_true(size >= 28);
	buf = malloc((size_t)size);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	pc->recs = calloc(MAX_RECS, sizeof(*pc->recs));
	assert_non_null(pc->recs);

	/* the section header first, in our byte order */
	assert_int_equal(rd32(buf), 0x0a0d0d0a);
	assert_int_equal(rd32(buf + 8), 0x1a2b3c4d);
	for (p = buf, end = buf + size; p < end;) {
		uint32_t type, len;

		assert_true(p + 12 <= end);
		type = rd32(p);
		len = rd32(p + 4);
		assert_true(len >= 12 && len % 4 == 0 && p + len <= end);
		assert_int_equal(rd32(p + len - 4), len);
		if (type == 1) {
			struct idb_ctx c = { pc, pc->n_if };

			assert_true(pc->n_if < 8);
			pc->linktype[pc->n_if] = rd16(p + 8);
			pc->snaplen[pc->n_if] = rd32(p + 12);
			read_opts(p + 16, p + len - 4, idb_opt, &c);
			pc->n_if++;
		} else if (type == 6) {
			struct rec *r = &pc->recs[pc->n];

			assert_true(pc->n < MAX_RECS);
			r->ifid = rd32(p + 8);
			r->ts = (uint64_t)rd32(p + 12) << 32 | rd32(p + 16);
			r->caplen = rd32(p + 20);
			r->origlen = rd32(p + 24);
			assert_true(r->caplen <= UNIT_FRAME_MAX);
			assert_true(28 + r->caplen <= len - 4);
			assert_true(r->ifid < pc->n_if);
			memcpy(r->data, p + 28, r->caplen);
			read_opts(p + 28 + ((r->caplen + 3u) & ~3u),
				  p + len - 4, epb_opt, r);
			pc->n++;
		}
		p += len;
	}
	free(buf);
}

static void
pcapng_free(struct pcapng *pc)
{
	free(pc->recs);
	pc->recs = NULL;
}

/* --- the fixture's side ------------------------------------------------ */

static char path[128];

static void
cap_path(void)
{
	snprintf(path, sizeof(path), "/tmp/lsk-test-capture-%d.pcapng",
		 (int)getpid());
	unlink(path);
}

static void
cap_cmd(struct unit_fixture *f, const char *fmt, const char *arg)
{
	char line[512];

	snprintf(line, sizeof(line), fmt, arg);
	unit_cmd(f, line);
}

static struct lsk_capture_info
cap_info(struct unit_fixture *f)
{
	struct lsk_capture_info in;

	lsk_capture_info(f->stack, &in);
	return in;
}

/* A frame from A to a far address (forwarded to B on P1), byte i
 * of the payload marking it. */
static size_t
frame(uint8_t *buf, unsigned int i, uint16_t payload)
{
	struct unit_pkt p;
	size_t len;

	unit_pkt_init(&p, UNIT_FAR_IP);
	p.payload_len = payload;
	p.id = (uint16_t)(100 + i);
	p.sport = (uint16_t)(1000 + i);
	len = unit_pkt_build(&p, buf, UNIT_FRAME_MAX);
	assert_true(len > 0);
	return len;
}

static void
check_file_header(const struct pcapng *pc, uint32_t snaplen)
{
	unsigned int i;

	assert_int_equal(pc->n_if, 2);	/* one per port */
	for (i = 0; i < pc->n_if; i++) {
		char want[16];

		snprintf(want, sizeof(want), "port%u", i);
		assert_int_equal(pc->linktype[i], 1);
		assert_int_equal(pc->snaplen[i], snaplen);
		assert_int_equal(pc->tsresol[i], 9);
		assert_string_equal(pc->ifname[i], want);
	}
}

/* rx: the frames fed, in order, byte for byte, inbound on port 0 */
static void
test_rx(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t fed[8][UNIT_FRAME_MAX];
	struct rte_mbuf *m[8];
	size_t len[8];
	struct lsk_capture_info in;
	struct pcapng pc;
	struct stat st;
	unsigned int i;

	cap_path();
	cap_cmd(f, "capture start %s rx", path);
	for (i = 0; i < 8; i++) {
		len[i] = frame(fed[i], i, (uint16_t)(100 + 50 * i));
		m[i] = unit_mbuf_from_bytes(fed[i], len[i], UNIT_P0);
	}
	unit_input(f, m, 8);
	assert_int_equal(unit_tx_udp_to(f, UNIT_P1, UNIT_FAR_IP), 8);
	unit_cmd(f, "capture stop");

	in = cap_info(f);
	assert_false(in.running);
	assert_int_equal(in.seen, 8);
	assert_int_equal(in.written, 8);
	assert_int_equal(in.lost, 0);
	assert_int_equal(in.error, 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal((uint64_t)st.st_size, in.bytes);	/* closed whole */
	pcapng_read(path, &pc);
	check_file_header(&pc, LSK_CAP_SNAPLEN_MAX);
	assert_int_equal(pc.n, 8);
	for (i = 0; i < 8; i++) {
		assert_int_equal(pc.recs[i].ifid, UNIT_P0);
		assert_int_equal(pc.recs[i].flags, 1);	/* inbound */
		assert_int_equal(pc.recs[i].caplen, len[i]);
		assert_int_equal(pc.recs[i].origlen, len[i]);
		assert_memory_equal(pc.recs[i].data, fed[i], len[i]);
		assert_string_equal(pc.recs[i].comment, "");
		if (i > 0)
			assert_true(pc.recs[i].ts >= pc.recs[i - 1].ts);
	}
	pcapng_free(&pc);
	unit_tx_free(f);
	unlink(path);
}

/* tx: what the tx function got, outbound on port 1 */
static void
test_tx(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t buf[UNIT_FRAME_MAX];
	struct pcapng pc;
	unsigned int i;

	cap_path();
	cap_cmd(f, "capture start %s tx", path);
	for (i = 0; i < 5; i++) {
		size_t len = frame(buf, i, 200);

		unit_input_one(f, unit_mbuf_from_bytes(buf, len, UNIT_P0));
	}
	unit_cmd(f, "capture stop");
	assert_int_equal(f->tx.n[UNIT_P1], 5);
	pcapng_read(path, &pc);
	assert_int_equal(pc.n, 5);
	for (i = 0; i < 5; i++) {
		struct rte_mbuf *m = f->tx.pkts[UNIT_P1][i];

		assert_int_equal(pc.recs[i].ifid, UNIT_P1);
		assert_int_equal(pc.recs[i].flags, 2);	/* outbound */
		assert_int_equal(pc.recs[i].caplen, rte_pktmbuf_pkt_len(m));
		assert_memory_equal(pc.recs[i].data,
				    rte_pktmbuf_mtod(m, void *),
				    rte_pktmbuf_pkt_len(m));
	}
	pcapng_free(&pc);
	unit_tx_free(f);
	unlink(path);
}

/* drop: each dropped frame once, its counter's name as the comment;
 * nothing that passed */
static void
test_drop(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t good[UNIT_FRAME_MAX], csum[UNIT_FRAME_MAX], ttl[UNIT_FRAME_MAX];
	uint8_t runt[10];
	size_t glen, clen, tlen;
	struct rte_mbuf *m[4];
	struct pcapng pc;

	cap_path();
	cap_cmd(f, "capture start %s drop", path);
	glen = frame(good, 0, 100);
	clen = frame(csum, 1, 100);
	csum[UNIT_ETH_LEN + 10] ^= 0x55;	/* the header checksum */
	tlen = frame(ttl, 2, 100);
	ttl[UNIT_ETH_LEN + 8] = 1;		/* TTL 1: not forwarded */
	unit_ip4_fix_cksum(ttl + UNIT_ETH_LEN);
	memcpy(runt, good, sizeof(runt));
	m[0] = unit_mbuf_from_bytes(good, glen, UNIT_P0);
	m[1] = unit_mbuf_from_bytes(csum, clen, UNIT_P0);
	m[2] = unit_mbuf_from_bytes(ttl, tlen, UNIT_P0);
	m[3] = unit_mbuf_from_bytes(runt, sizeof(runt), UNIT_P0);
	unit_input(f, m, 4);
	unit_cmd(f, "capture stop");

	pcapng_read(path, &pc);
	assert_int_equal(pc.n, 3);
	/* eth_input drops the runt first, ip4_input the checksum, then
	 * forwarding the TTL: the order they are dropped in */
	assert_string_equal(pc.recs[0].comment, "eth.Runts");
	assert_int_equal(pc.recs[0].caplen, sizeof(runt));
	assert_memory_equal(pc.recs[0].data, runt, sizeof(runt));
	assert_string_equal(pc.recs[1].comment, "ip.InCsumErrors");
	assert_int_equal(pc.recs[1].caplen, clen);
	assert_memory_equal(pc.recs[1].data, csum, clen);
	assert_string_equal(pc.recs[2].comment, "ip.InHdrErrors");
	assert_int_equal(pc.recs[2].caplen, tlen);
	assert_memory_equal(pc.recs[2].data, ttl, tlen);
	assert_int_equal(pc.recs[1].flags, 1);
	assert_int_equal(pc.recs[1].ifid, UNIT_P0);
	assert_int_equal(cap_info(f).seen, 3);
	pcapng_free(&pc);
	unit_tx_free(f);
	unlink(path);
}

/* The drops that are not the stages' tables: no route, a blackhole, the
 * filter, an unknown protocol to us; each named as it is counted. */
static void
test_drop_other(void **state)
{
	struct unit_fixture *f = *state;
	static const char *const want[] = {
		"filter.Dropped", "ip.InNoRoutes", "ip.InDiscards",
		"ip.InUnknownProtos",
	};
	uint8_t buf[4][UNIT_FRAME_MAX];
	struct rte_mbuf *m[4];
	size_t len[4];
	struct unit_pkt p;
	struct pcapng pc;
	unsigned int i, k;

	unit_cmd(f, "route add 10.60.0.0/16 blackhole");
	unit_cmd(f, "filter add drop proto udp dport 9999");
	cap_path();
	cap_cmd(f, "capture start %s drop", path);
	for (i = 0; i < 4; i++) {
		unit_pkt_init(&p, UNIT_FAR_IP);
		if (i == 0)
			p.dport = 9999;
		else if (i == 1)
			p.dst = UNIT_IPV4(192, 168, 77, 1);
		else if (i == 2)
			p.dst = UNIT_IPV4(10, 60, 0, 1);
		else {
			p.dst = UNIT_P0_IP;
			p.proto = 99;
		}
		len[i] = unit_pkt_build(&p, buf[i], UNIT_FRAME_MAX);
		m[i] = unit_mbuf_from_bytes(buf[i], len[i], UNIT_P0);
	}
	unit_input(f, m, 4);
	unit_cmd(f, "capture stop");
	pcapng_read(path, &pc);
	assert_int_equal(pc.n, 4);
	/* each once, whatever the order of the stages that dropped them */
	for (i = 0; i < 4; i++) {
		unsigned int seen = 0;

		for (k = 0; k < pc.n; k++) {
			if (strcmp(pc.recs[k].comment, want[i]) != 0)
				continue;
			seen++;
			assert_int_equal(pc.recs[k].caplen, len[i]);
			assert_memory_equal(pc.recs[k].data, buf[i], len[i]);
		}
		if (seen != 1)
			fail_msg("%s: %u packets", want[i], seen);
	}
	pcapng_free(&pc);
	unit_tx_free(f);
	unlink(path);
}

/* The drops outside the stages' tables, each named as it is counted:
 * TX refused by the port (on its way out), a malformed ARP packet, a
 * full UDP receive ring, what waits for a neighbour (the oldest past the
 * hold queue, the rest when the neighbour never answers). */
static void
test_drop_outside(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_udp_bind_opts opts = { .ring_size = 2,
					  .socket_id = SOCKET_ID_ANY };
	static const char *const names[] = {
		"port1.tx_dropped", "arp.InErrors", "udp.RcvbufErrors",
		"arp.UnresolvedDiscards",
	};
	unsigned int seen[4] = { 0 }, i, k, probe;
	struct lsk_neigh_table *nt = f->stack->sh.neigh;
	struct lsk_udp_ep *ep;
	struct rte_mbuf *m[8];
	struct lsk_stats st;
	struct unit_pkt p;
	struct pcapng pc;

	ep = unit_bind(f, UNIT_P0_IP, 2100, &opts);
	cap_path();
	cap_cmd(f, "capture start %s drop", path);
	f->tx.accept = 0;
	unit_pkt_init(&p, UNIT_FAR_IP);
	unit_input_pkt(f, &p);
	f->tx.accept = -1;
	m[0] = unit_arp_mbuf(UNIT_P1, 1, &unit_p1_mac, &unit_p1_mac,
			     UNIT_IPV4(10, 0, 1, 9), NULL, UNIT_P1_IP);
	rte_pktmbuf_mtod(m[0], uint8_t *)[UNIT_ETH_LEN + 4] = 5;
	unit_input_one(f, m[0]);
	for (i = 0; i < 8; i++) {
		unit_pkt_init(&p, UNIT_P0_IP);
		p.dport = 2100;
		p.sport = (uint16_t)(4000 + i);
		m[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, m, 8);
	for (i = 0; i <= LSK_NEIGH_HOLD; i++) {
		unit_pkt_init(&p, UNIT_IPV4(10, 0, 1, 77));
		p.id = (uint16_t)(1 + i);
		unit_input_pkt(f, &p);
	}
	for (probe = 0; probe < 4; probe++) {
		for (k = 0; k < nt->n; k++)
			nt->e[k].next_probe = 0;
		nt->next_timer = 0;
		lsk_worker_flush(f->worker);
	}
	unit_cmd(f, "capture stop");
	st = unit_stats(f);

	pcapng_read(path, &pc);
	for (k = 0; k < pc.n; k++) {
		for (i = 0; i < 4; i++)
			if (strcmp(pc.recs[k].comment, names[i]) == 0)
				break;
		if (i == 4) {
			fail_msg("a drop named '%s'", pc.recs[k].comment);
			break;
		}
		seen[i]++;
		/* the refused one on its way out, of port 1 */
		assert_int_equal(pc.recs[k].flags, i == 0 ? 2 : 1);
		if (i == 0)
			assert_int_equal(pc.recs[k].ifid, UNIT_P1);
	}
	assert_int_equal(seen[0], st.ports[UNIT_P1].tx_dropped);
	assert_int_equal(seen[0], 1);
	assert_int_equal(seen[1], st.arp.InErrors);
	assert_int_equal(seen[1], 1);
	assert_int_equal(seen[2], st.udp.RcvbufErrors);
	assert_true(seen[2] > 0);
	assert_int_equal(seen[3], st.arp.UnresolvedDiscards);
	assert_int_equal(seen[3], 1 + LSK_NEIGH_HOLD);
	pcapng_free(&pc);
	unit_recv_free(ep, 8);
	unit_close(f, ep);
	unit_tx_free(f);
	unlink(path);
}

/* What the control thread drops from a hold queue (neigh flush, neigh
 * del, a static entry over an unresolved one, the teardown's
 * lsk_neigh_drop_held) is a drop in the capture, named as it is
 * counted, as a worker's drop of what it held is. */
static void
test_drop_control(void **state)
{
	static const char *const how[] = {
		"neigh flush", "neigh del 10.0.1.77",
		"neigh add 10.0.1.77 lladdr 02:00:00:00:01:77", NULL,
	};
	struct unit_fixture *f = *state;
	struct lsk_capture_info in;
	struct unit_pkt p;
	struct pcapng pc;
	unsigned int i, k;

	cap_path();
	cap_cmd(f, "capture start %s drop", path);
	for (i = 0; i < RTE_DIM(how); i++) {
		unit_pkt_init(&p, UNIT_IPV4(10, 0, 1, 77));
		p.id = (uint16_t)(1 + i);
		unit_input_pkt(f, &p);
		if (how[i] != NULL)
			unit_cmd(f, how[i]);
		else
			assert_int_equal(lsk_neigh_drop_held(f->stack), 1);
		if (i == 2)
			unit_cmd(f, "neigh del 10.0.1.77");	/* static */
	}
	unit_cmd(f, "capture stop");
	assert_int_equal(unit_stats(f).arp.UnresolvedDiscards, RTE_DIM(how));
	in = cap_info(f);
	assert_int_equal(in.seen, RTE_DIM(how));
	assert_int_equal(in.written, RTE_DIM(how));
	assert_int_equal(in.lost, 0);
	pcapng_read(path, &pc);
	assert_int_equal(pc.n, RTE_DIM(how));
	for (k = 0; k < pc.n; k++) {
		const uint8_t *ip = pc.recs[k].data + UNIT_ETH_LEN;

		assert_string_equal(pc.recs[k].comment,
				    "arp.UnresolvedDiscards");
		assert_int_equal(pc.recs[k].flags, 1);
		assert_int_equal(pc.recs[k].ifid, UNIT_P0);
		assert_int_equal(ip[4] << 8 | ip[5], 1 + k);	/* IP ID */
	}
	pcapng_free(&pc);
	unit_tx_free(f);
	unlink(path);
}

/* What the port refuses is one record, outbound on its port and named
 * portN.tx_dropped, never also a tx record as if it had left: of a burst
 * of four the port takes two. `all` holds the four received, the two
 * sent and the two refused; `tx` only the two sent (what ports[].tx
 * counts); `drop` only the two refused (what ports[].tx_dropped counts). */
static void
test_tx_refused(void **state)
{
	static const char *const what[] = { "all", "tx", "drop" };
	static const unsigned int want_rx[] = { 4, 0, 0 };
	static const unsigned int want_tx[] = { 2, 2, 0 };
	static const unsigned int want_drop[] = { 2, 0, 2 };
	struct unit_fixture *f = *state;
	unsigned int w, i, k;

	for (w = 0; w < RTE_DIM(what); w++) {
		uint8_t fed[4][UNIT_FRAME_MAX];
		unsigned int rx = 0, tx = 0, drop = 0;
		struct lsk_stats st0 = unit_stats(f), st;
		struct rte_mbuf *m[4];
		struct pcapng pc;
		char line[256];

		cap_path();
		snprintf(line, sizeof(line), "capture start %s %s", path,
			 what[w]);
		unit_cmd(f, line);
		for (i = 0; i < 4; i++)
			m[i] = unit_mbuf_from_bytes(fed[i], frame(fed[i], i, 100),
						    UNIT_P0);
		f->tx.accept = 2;
		unit_input(f, m, 4);
		f->tx.accept = -1;
		unit_cmd(f, "capture stop");
		st = unit_stats(f);
		assert_int_equal(st.ports[UNIT_P1].tx - st0.ports[UNIT_P1].tx,
				 2);
		assert_int_equal(st.ports[UNIT_P1].tx_dropped -
				 st0.ports[UNIT_P1].tx_dropped, 2);
		assert_int_equal(f->tx.n[UNIT_P1], 2);

		pcapng_read(path, &pc);
		for (k = 0; k < pc.n; k++) {
			const struct rec *r = &pc.recs[k];
			/* the frames' UDP source ports tell them apart */
			uint16_t sport = (uint16_t)(r->data[34] << 8 |
						    r->data[35]);

			if (r->flags == 1) {
				assert_string_equal(r->comment, "");
				assert_int_equal(r->ifid, UNIT_P0);
				assert_int_equal(sport, 1000 + rx);
				rx++;
				continue;
			}
			assert_int_equal(r->flags, 2);
			assert_int_equal(r->ifid, UNIT_P1);
			if (r->comment[0] == '\0') {
				struct rte_mbuf *s = f->tx.pkts[UNIT_P1][tx];

				assert_true(tx < 2);
				assert_int_equal(r->caplen,
						 rte_pktmbuf_pkt_len(s));
				assert_memory_equal(r->data,
						    rte_pktmbuf_mtod(s, void *),
						    r->caplen);
				tx++;
			} else {
				assert_string_equal(r->comment,
						    "port1.tx_dropped");
				assert_int_equal(sport, 1002 + drop);
				drop++;
			}
		}
		if (rx != want_rx[w] || tx != want_tx[w] ||
		    drop != want_drop[w])
			fail_msg("capture %s: %u rx, %u tx, %u drop records "
				 "(want %u, %u, %u)", what[w], rx, tx, drop,
				 want_rx[w], want_tx[w], want_drop[w]);
		assert_int_equal(cap_info(f).written, rx + tx + drop);
		assert_int_equal(cap_info(f).seen, rx + tx + drop);
		pcapng_free(&pc);
		unit_tx_free(f);
		unlink(path);
	}
}

/* snaplen cuts, count stops: the rest is not taken (nor lost) */
static void
test_snaplen_count(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t buf[10][UNIT_FRAME_MAX];
	struct rte_mbuf *m[10];
	struct lsk_capture_info in;
	size_t len = 0;
	struct pcapng pc;
	unsigned int i;

	cap_path();
	cap_cmd(f, "capture start %s port 0 rx count 3 snaplen 60", path);
	for (i = 0; i < 10; i++) {
		len = frame(buf[i], i, 1000);
		m[i] = unit_mbuf_from_bytes(buf[i], len, UNIT_P0);
	}
	unit_input(f, m, 10);
	in = cap_info(f);
	assert_true(in.running);
	assert_int_equal(in.seen, 3);
	assert_int_equal(in.count, 3);
	unit_cmd(f, "capture stop");
	in = cap_info(f);
	assert_int_equal(in.written, 3);
	assert_int_equal(in.lost, 0);
	pcapng_read(path, &pc);
	check_file_header(&pc, 60);
	assert_int_equal(pc.n, 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(pc.recs[i].caplen, 60);
		assert_int_equal(pc.recs[i].origlen, len);
		assert_memory_equal(pc.recs[i].data, buf[i], 60);
	}
	pcapng_free(&pc);
	unit_tx_free(f);
	unlink(path);
}

/* port 1 only: the frames received on port 0 are not taken */
static void
test_port_filter(void **state)
{
	struct unit_fixture *f = *state;
	uint8_t buf[UNIT_FRAME_MAX];
	size_t len = frame(buf, 0, 100);

	cap_path();
	cap_cmd(f, "capture start %s port 1 rx", path);
	unit_input_one(f, unit_mbuf_from_bytes(buf, len, UNIT_P0));
	unit_cmd(f, "capture stop");
	assert_int_equal(cap_info(f).seen, 0);
	assert_int_equal(cap_info(f).written, 0);
	unit_tx_free(f);
	unlink(path);
}

/* A flood into a ring of 3 or a pool of 8: written + lost == seen, the
 * file holds what was written, every copy back in its pool */
static void
flood(struct unit_fixture *f, uint32_t ring_size, uint32_t pool_size)
{
	struct lsk_capture_conf conf = {
		.path = path, .what = LSK_CAP_RX, .port = LSK_CAP_ANY_PORT,
		.ring_size = ring_size, .pool_size = pool_size,
	};
	const unsigned int bursts = 20, per = 32;
	uint8_t buf[UNIT_FRAME_MAX];
	struct lsk_capture_info in;
	struct pcapng pc;
	unsigned int b, i;
	size_t len;

	cap_path();
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_capture_start(f->stack, &conf), 0);
	len = frame(buf, 0, 64);
	for (b = 0; b < bursts; b++) {
		struct rte_mbuf *m[32];

		for (i = 0; i < per; i++)
			m[i] = unit_mbuf_from_bytes(buf, len, UNIT_P0);
		unit_input(f, m, (uint16_t)per);
		unit_tx_free(f);
	}
	lsk_worker_offline(f->worker);
	assert_int_equal(lsk_capture_stop(f->stack), 0);
	in = cap_info(f);
	print_message("flood ring %u pool %u: seen %lu written %lu lost %lu\n",
		      ring_size, pool_size, (unsigned long)in.seen,
		      (unsigned long)in.written, (unsigned long)in.lost);
	assert_int_equal(in.seen, bursts * per);
	assert_int_equal(in.written + in.lost, in.seen);
	assert_int_equal(in.error, 0);	/* the pool whole at the stop */
	/* a burst rings at most what the smaller of the two holds */
	assert_true(in.written <= bursts * RTE_MIN(ring_size - 1, pool_size));
	assert_true(in.lost > 0);
	pcapng_read(path, &pc);
	assert_int_equal(pc.n, in.written);
	pcapng_free(&pc);
	unlink(path);
}

static void
test_flood_ring(void **state)
{
	flood(*state, 4, 255);
}

static void
test_flood_pool(void **state)
{
	flood(*state, 256, 8);
}

/* What the commands refuse changes nothing. */
static void
test_refusals(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_out o;
	char line[512];

	cap_path();
	assert_int_not_equal(unit_cmd_rc(f, "capture stop"), 0);
	assert_int_not_equal(unit_cmd_rc(f, "capture"), 0);
	assert_int_not_equal(unit_cmd_rc(f, "capture start"), 0);
	snprintf(line, sizeof(line), "capture start %s port 2", path);
	assert_int_not_equal(unit_cmd_rc(f, line), 0);
	snprintf(line, sizeof(line), "capture start %s snaplen 0", path);
	assert_int_not_equal(unit_cmd_rc(f, line), 0);
	snprintf(line, sizeof(line), "capture start %s count", path);
	assert_int_not_equal(unit_cmd_rc(f, line), 0);
	snprintf(line, sizeof(line), "capture start %s sideways", path);
	assert_int_not_equal(unit_cmd_rc(f, line), 0);
	assert_int_not_equal(unit_cmd_rc(f,
		"capture start /nonexistent-dir/x.pcapng"), 0);
	assert_int_not_equal(unit_cmd_rc(f, "capture start /tmp"), 0);
	assert_false(cap_info(f).ever);
	assert_int_not_equal(access(path, F_OK), 0);

	/* not through a symbolic link: its target stays as it was */
	{
		char target[160];
		FILE *t;
		struct stat st;

		snprintf(target, sizeof(target), "%s.target", path);
		t = fopen(target, "w");
		assert_non_null(t);
		fputs("keep", t);
		fclose(t);
		assert_int_equal(symlink(target, path), 0);
		snprintf(line, sizeof(line), "capture start %s", path);
		assert_int_equal(unit_cmd_rc(f, line), -ELOOP);
		assert_int_equal(stat(target, &st), 0);
		assert_int_equal(st.st_size, 4);
		unlink(path);
		unlink(target);
		assert_false(cap_info(f).ever);
	}

	/* not inside a batch of changes: the batch is refused whole */
	lsk_worker_offline(f->worker);
	lsk_out_init(&o, false);
	snprintf(line, sizeof(line), "route add 10.50.0.0/16 via 10.0.1.1\n"
		 "capture start %s\n", path);
	assert_int_not_equal(lsk_command_run(f->stack, line, strlen(line),
					     "-", &o), 0);
	assert_non_null(strstr(o.err, "batch"));
	lsk_out_free(&o);
	assert_false(cap_info(f).running);
	assert_null(lsk_route_find(f->stack, UNIT_IPV4(10, 50, 0, 0), 16));

	/* beside a view it runs; a second start is refused */
	lsk_out_init(&o, true);
	snprintf(line, sizeof(line), "capture start %s\ncapture show\n", path);
	assert_int_equal(lsk_command_run(f->stack, line, strlen(line), "-",
					 &o), 0);
	assert_non_null(o.buf);
	assert_non_null(strstr(o.buf, "\"running\": true"));
	assert_non_null(strstr(o.buf, "\"written\": 0"));
	lsk_out_free(&o);
	snprintf(line, sizeof(line), "capture start %s", path);
	assert_int_equal(unit_cmd_rc(f, line), -EBUSY);
	unit_cmd(f, "capture stop");

	lsk_out_init(&o, false);
	assert_int_equal(lsk_command_run(f->stack, "capture show", 12, "-",
					 &o), 0);
	assert_non_null(strstr(o.buf, "capture  stopped"));
	assert_non_null(strstr(o.buf, path));
	lsk_out_free(&o);
	unlink(path);
}

/* A stack destroyed with a capture running writes it whole. */
static void
test_destroy_running(void **state)
{
	struct unit_fixture *f = unit_fixture_create(LSK_MODE_LIST);
	uint8_t buf[UNIT_FRAME_MAX];
	struct pcapng pc;
	size_t len;

	(void)state;
	assert_non_null(f);
	cap_path();
	cap_cmd(f, "capture start %s all", path);
	len = frame(buf, 0, 100);
	unit_input_one(f, unit_mbuf_from_bytes(buf, len, UNIT_P0));
	unit_fixture_destroy(f);
	pcapng_read(path, &pc);
	assert_int_equal(pc.n, 2);	/* in, then out */
	assert_int_equal(pc.recs[0].flags, 1);
	assert_int_equal(pc.recs[1].flags, 2);
	pcapng_free(&pc);
	unlink(path);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, unit_setup_list, \
					      unit_teardown)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_rx),
		T(test_tx),
		T(test_drop),
		T(test_drop_other),
		T(test_drop_outside),
		T(test_tx_refused),
		T(test_drop_control),
		T(test_snaplen_count),
		T(test_port_filter),
		T(test_flood_ring),
		T(test_flood_pool),
		T(test_refusals),
		cmocka_unit_test(test_destroy_running),
	};

	return cmocka_run_group_tests(tests, unit_group_setup,
				      unit_group_teardown);
}
