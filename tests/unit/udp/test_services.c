/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The services `udp listen ADDR:PORT echo | discard | pcap FILE [ring N]`
 * makes, run by lsk_services_poll: echo answers each datagram from where
 * it was sent (a broadcast from the egress port's address) to where it
 * came from, the same payload, one reply per datagram whatever arrived
 * as a train or in fragments; discard counts and frees; pcap writes a
 * classic pcap file, one record per datagram as the frame it arrived in
 * (SEMANTICS: pcap FILE). A full endpoint ring is RcvbufErrors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "unit_common.h"
#include "ip4/ip4.h"
#include "control/udp_ctl.h"

#define IP(b) ((b) + UNIT_ETH_LEN)

static uint8_t frame[UNIT_FRAME_MAX], piece[UNIT_FRAME_MAX];

static int
setup(void **state, enum lsk_mode mode)
{
	struct unit_fixture *f = unit_fixture_create(mode);

	*state = f;
	if (f == NULL)
		return -1;
	lsk_stack_set_send_pool(f->stack, unit_pool);
	return 0;
}

static int
setup_list(void **state)
{
	return setup(state, LSK_MODE_LIST);
}

static int
setup_single(void **state)
{
	return setup(state, LSK_MODE_SINGLE);
}

/* A datagram from A:sport on P0 to dst:dport with len payload bytes. */
static size_t
build(uint32_t dst, uint16_t dport, uint16_t sport, uint16_t len)
{
	struct unit_pkt p;

	unit_pkt_init(&p, dst);
	p.dport = dport;
	p.sport = sport;
	p.payload_len = len;
	return unit_pkt_build(&p, frame, sizeof(frame));
}

static struct rte_mbuf *
mbuf_of(size_t len)
{
	return unit_mbuf_exact(frame, len, len, UNIT_P0);
}

/* Run the services, then worker 0's flush (which sends their replies). */
static unsigned int
poll_and_flush(struct unit_fixture *f)
{
	unsigned int n = lsk_services_poll(f->stack);

	lsk_worker_flush(f->worker);
	return n;
}

/* The services JSON as a string (static). */
static const char *
services_json(struct unit_fixture *f)
{
	static char buf[1024];
	FILE *m = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(m);
	assert_int_equal(lsk_services_write_json(f->stack, m), 0);
	assert_int_equal(fclose(m), 0);
	return buf;
}

/*
 * r is the echo of a datagram from A:aport (on P0) to from:port with
 * len bytes of unit_pkt's payload pattern: from from:port to A:aport out
 * of P0, the same payload, TTL 64, DF, valid checksums.
 */
static void
assert_echo(struct rte_mbuf *r, uint32_t from, uint16_t port, uint16_t aport,
	    uint16_t len)
{
	const uint8_t *b = rte_pktmbuf_mtod(r, const uint8_t *);
	const uint8_t *ip = IP(b), *udp = ip + 20;
	uint16_t i;

	assert_int_equal(r->nb_segs, 1);
	assert_int_equal(rte_pktmbuf_pkt_len(r), UNIT_ETH_LEN + 28 + len);
	assert_memory_equal(b, &unit_a_mac, RTE_ETHER_ADDR_LEN);
	assert_memory_equal(b + 6, &unit_p0_mac, RTE_ETHER_ADDR_LEN);
	assert_int_equal(ip[0], 0x45);
	assert_int_equal(get16(ip + 2), 28 + len);
	assert_int_equal(ip[8], 64);
	assert_int_equal(ip[9], IPPROTO_UDP);
	assert_int_equal(unit_ip4_hdr_sum(ip), 0);
	assert_int_equal(get32(ip + 12), from);
	assert_int_equal(get32(ip + 16), UNIT_A_IP);
	assert_int_equal(get16(udp), port);
	assert_int_equal(get16(udp + 2), aport);
	assert_int_equal(get16(udp + 4), 8 + len);
	assert_true(unit_udp_csum_ok(r));
	for (i = 0; i < len; i++)
		if (udp[8 + i] != (uint8_t)(i * 7 + 3))
			fail_msg("payload byte %u is %u", i, udp[8 + i]);
}

/* ------------------------------------------------------------- echo */

static void
test_echo(void **state)
{
	struct unit_fixture *f = *state;
	struct lsk_stats st;

	unit_cmd(f, "udp listen 10.0.0.254:7 echo");
	unit_input_one(f, mbuf_of(build(UNIT_P0_IP, 7, 1000, 1000)));
	assert_int_equal(unit_tx_count(f), 0);
	assert_int_equal(poll_and_flush(f), 1);
	assert_int_equal(unit_tx_count(f), 1);
	assert_echo(f->tx.pkts[UNIT_P0][0], UNIT_P0_IP, 7, 1000, 1000);
	unit_tx_free(f);
	/* a datagram with no payload has an empty echo */
	unit_input_one(f, mbuf_of(build(UNIT_P0_IP, 7, 1001, 0)));
	assert_int_equal(poll_and_flush(f), 1);
	assert_int_equal(unit_tx_count(f), 1);
	assert_echo(f->tx.pkts[UNIT_P0][0], UNIT_P0_IP, 7, 1001, 0);
	unit_tx_free(f);
	assert_int_equal(poll_and_flush(f), 0);
	st = unit_stats(f);
	assert_int_equal(st.udp.InDatagrams, 2);
	assert_int_equal(st.udp.OutDatagrams, 2);
	assert_string_equal(services_json(f), "[{\"listen\": \"10.0.0.254:7\", "
			    "\"kind\": \"echo\", \"datagrams\": 2}]");
}

/*
 * A wildcard echo answers from the address each datagram was sent to
 * (P1's address, asked through P0, answered through P0), and a subnet
 * or limited broadcast from the egress port's address, never from the
 * broadcast address.
 */
static void
test_echo_wildcard_and_broadcast(void **state)
{
	struct unit_fixture *f = *state;

	unit_cmd(f, "udp listen 0.0.0.0:7 echo");
	unit_input_one(f, mbuf_of(build(UNIT_P1_IP, 7, 1000, 10)));
	unit_input_one(f, mbuf_of(build(UNIT_IPV4(10, 0, 0, 255), 7, 1001,
					20)));
	unit_input_one(f, mbuf_of(build(UINT32_MAX, 7, 1002, 30)));
	assert_int_equal(poll_and_flush(f), 3);
	assert_int_equal(f->tx.n[UNIT_P0], 3);
	assert_int_equal(unit_tx_count(f), 3);
	assert_echo(f->tx.pkts[UNIT_P0][0], UNIT_P1_IP, 7, 1000, 10);
	assert_echo(f->tx.pkts[UNIT_P0][1], UNIT_P0_IP, 7, 1001, 20);
	assert_echo(f->tx.pkts[UNIT_P0][2], UNIT_P0_IP, 7, 1002, 30);
	unit_tx_free(f);
}

/* A datagram from port 0 cannot be answered (there is no port 0 to send
 * to); the datagrams after it in the same poll are answered all the
 * same. */
static void
test_echo_unanswerable_does_not_stop_the_rest(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[3];

	unit_cmd(f, "udp listen 10.0.0.254:7 echo");
	pkts[0] = mbuf_of(build(UNIT_P0_IP, 7, 1000, 10));
	pkts[1] = mbuf_of(build(UNIT_P0_IP, 7, 0, 10));
	pkts[2] = mbuf_of(build(UNIT_P0_IP, 7, 1002, 10));
	unit_input(f, pkts, 3);
	assert_int_equal(poll_and_flush(f), 3);
	assert_int_equal(unit_tx_count(f), 2);
	assert_echo(f->tx.pkts[UNIT_P0][0], UNIT_P0_IP, 7, 1000, 10);
	assert_echo(f->tx.pkts[UNIT_P0][1], UNIT_P0_IP, 7, 1002, 10);
	unit_tx_free(f);
}

/* A train (fraglist GRO, or merged) reaches echo as its datagrams: one
 * reply each, in order, each its own length. */
static void
echo_train(void **state, const char *gro)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[8];
	unsigned int i;

	unit_cmd(f, "udp listen 10.0.0.254:7 echo");
	unit_cmd(f, gro);
	for (i = 0; i < 8; i++) {
		struct unit_pkt p;

		unit_pkt_init(&p, UNIT_P0_IP);
		p.dport = 7;
		p.id = (uint16_t)(100 + i);
		p.payload_len = i < 7 ? 500 : 300;
		pkts[i] = unit_pkt_mbuf(&p);
	}
	unit_input(f, pkts, 8);
	assert_int_equal(unit_stats(f).gro.Trains, 1);
	assert_int_equal(poll_and_flush(f), 8);
	assert_int_equal(f->tx.n[UNIT_P0], 8);
	for (i = 0; i < 8; i++)
		assert_echo(f->tx.pkts[UNIT_P0][i], UNIT_P0_IP, 7, 1000,
			    i < 7 ? 500 : 300);
	unit_tx_free(f);
	assert_int_equal(unit_stats(f).udp.OutDatagrams, 8);
	assert_int_equal(unit_stats(f).udp.InDatagrams, 8);
}

static void
test_echo_train(void **state)
{
	echo_train(state, "gro fraglist flows 4 segs 8");
}

static void
test_echo_merged_train(void **state)
{
	echo_train(state, "gro merge flows 4 segs 8");
}

/* A datagram reassembled from fragments (in segments) is answered as one
 * datagram, its payload read across the segments. */
static void
test_echo_reassembled(void **state)
{
	struct unit_fixture *f = *state;
	struct unit_pkt p;
	size_t n;

	unit_cmd(f, "udp listen 10.0.0.254:7 echo");
	unit_pkt_init(&p, UNIT_P0_IP);
	p.dport = 7;
	p.df = false;
	p.payload_len = 1200;
	unit_pkt_build(&p, frame, sizeof(frame));
	n = unit_frag_build(frame, 0, 600, true, piece, sizeof(piece));
	unit_input_one(f, unit_mbuf_exact(piece, n, n, UNIT_P0));
	n = unit_frag_build(frame, 600, 608, false, piece, sizeof(piece));
	unit_input_one(f, unit_mbuf_exact(piece, n, n, UNIT_P0));
	assert_int_equal(poll_and_flush(f), 1);
	assert_int_equal(unit_tx_count(f), 1);
	assert_echo(f->tx.pkts[UNIT_P0][0], UNIT_P0_IP, 7, 1000, 1200);
	unit_tx_free(f);
}

/* No mbuf for the reply: the datagram is taken and freed, no reply, no
 * leak; with mbufs again the next one is answered. */
static void
test_echo_no_mbufs(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mempool *sp = unit_small_pool("svc_small", 2048);
	struct rte_mbuf *held[64];
	unsigned int n = 0;

	unit_cmd(f, "udp listen 10.0.0.254:7 echo");
	lsk_stack_set_send_pool(f->stack, sp);
	while (n < RTE_DIM(held) && (held[n] = rte_pktmbuf_alloc(sp)) != NULL)
		n++;
	unit_input_one(f, mbuf_of(build(UNIT_P0_IP, 7, 1000, 10)));
	assert_int_equal(poll_and_flush(f), 1);
	assert_int_equal(unit_tx_count(f), 0);
	assert_int_equal(unit_stats(f).udp.OutDatagrams, 0);
	rte_pktmbuf_free_bulk(held, n);
	unit_input_one(f, mbuf_of(build(UNIT_P0_IP, 7, 1001, 10)));
	assert_int_equal(poll_and_flush(f), 1);
	assert_int_equal(unit_tx_count(f), 1);
	assert_echo(f->tx.pkts[UNIT_P0][0], UNIT_P0_IP, 7, 1001, 10);
	unit_tx_free(f);
	assert_int_equal(rte_mempool_in_use_count(sp), 0);
	lsk_stack_set_send_pool(f->stack, unit_pool);
	rte_mempool_free(sp);
}

/* `ring 4`: a burst of 10 fills the ring; 6 are RcvbufErrors (freed),
 * the 4 queued are answered. */
static void
test_echo_ring_full(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[10];
	struct lsk_stats st;
	unsigned int i;

	unit_cmd(f, "udp listen 10.0.0.254:7 echo ring 4");
	for (i = 0; i < 10; i++)
		pkts[i] = mbuf_of(build(UNIT_P0_IP, 7, (uint16_t)(1000 + i),
					10));
	unit_input(f, pkts, 10);
	st = unit_stats(f);
	assert_int_equal(st.udp.RcvbufErrors, 6);
	assert_int_equal(st.udp.InDatagrams, 4);
	assert_int_equal(poll_and_flush(f), 4);
	assert_int_equal(unit_tx_count(f), 4);
	for (i = 0; i < 4; i++)
		assert_echo(f->tx.pkts[UNIT_P0][i], UNIT_P0_IP, 7,
			    (uint16_t)(1000 + i), 10);
	unit_tx_free(f);
}

/* ---------------------------------------------------------- discard */

static void
test_discard(void **state)
{
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[5];
	unsigned int i;

	unit_cmd(f, "udp listen 0.0.0.0:9 discard");
	unit_cmd(f, "udp listen 10.0.0.254:7 echo");
	for (i = 0; i < 5; i++)
		pkts[i] = mbuf_of(build(i < 3 ? UNIT_P0_IP : UNIT_P1_IP, 9,
					1000, (uint16_t)(100 * i)));
	unit_input(f, pkts, 5);
	assert_int_equal(unit_pool_in_use(), f->in_use_start + 5);
	assert_int_equal(poll_and_flush(f), 5);
	assert_int_equal(unit_tx_count(f), 0);
	assert_int_equal(unit_pool_in_use(), f->in_use_start);
	assert_int_equal(unit_stats(f).udp.InDatagrams, 5);
	assert_int_equal(unit_stats(f).udp.OutDatagrams, 0);
	assert_string_equal(services_json(f),
		"[{\"listen\": \"0.0.0.0:9\", \"kind\": \"discard\", "
		"\"datagrams\": 5}, {\"listen\": \"10.0.0.254:7\", "
		"\"kind\": \"echo\", \"datagrams\": 0}]");
}

/* ------------------------------------------------------------- pcap */

static char pcap_path[64];

static const char *
pcap_file_path(void)
{
	snprintf(pcap_path, sizeof(pcap_path), "/tmp/tests-services-%d.pcap",
		 (int)getpid());
	return pcap_path;
}

static uint32_t
le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));	/* libpcap writes host order */
	return v;
}

/*
 * pcap: a classic pcap file (magic a1b2c3d4 in host order, version 2.4,
 * snaplen 14 + 65535, LINKTYPE_ETHERNET), one record per datagram,
 * captured whole (incl_len = orig_len), the frame as it arrived: padding
 * after the datagram left out, a UDP length shorter than the IP payload
 * made the datagram's length (total length and checksum to match), a
 * datagram reassembled from fragments as the frame of the whole.
 */
static void
test_pcap(void **state)
{
	static uint8_t want[4][UNIT_FRAME_MAX];
	struct unit_fixture *f = *state;
	size_t want_len[4], n;
	uint8_t *file, *r;
	struct unit_pkt p;
	char cmd[128];
	long size;
	FILE *in;
	int i;

	snprintf(cmd, sizeof(cmd), "udp listen 10.0.0.254:9 pcap %s",
		 pcap_file_path());
	unit_cmd(f, cmd);

	want_len[0] = build(UNIT_P0_IP, 9, 1000, 100);
	memcpy(want[0], frame, want_len[0]);
	unit_input_one(f, mbuf_of(want_len[0]));

	unit_pkt_init(&p, UNIT_P0_IP);
	p.dport = 9;
	p.payload_len = 2;
	p.trailer_len = 16;			/* padded to 60 bytes */
	n = unit_pkt_build(&p, frame, sizeof(frame));
	want_len[1] = n - 16;
	memcpy(want[1], frame, want_len[1]);
	unit_input_one(f, mbuf_of(n));

	/* UDP length 58 in 108 bytes of IP payload */
	n = build(UNIT_P0_IP, 9, 1002, 100);
	put16(IP(frame) + 24, 58);
	put16(IP(frame) + 26, 0);		/* no checksum */
	unit_input_one(f, mbuf_of(n));
	want_len[2] = UNIT_ETH_LEN + 20 + 58;
	memcpy(want[2], frame, want_len[2]);
	put16(IP(want[2]) + 2, 78);
	unit_ip4_fix_cksum(IP(want[2]));

	unit_pkt_init(&p, UNIT_P0_IP);
	p.dport = 9;
	p.df = false;
	p.payload_len = 1200;
	want_len[3] = unit_pkt_build(&p, want[3], sizeof(want[3]));
	n = unit_frag_build(want[3], 600, 608, false, piece, sizeof(piece));
	unit_input_one(f, unit_mbuf_exact(piece, n, n, UNIT_P0));
	n = unit_frag_build(want[3], 0, 600, true, piece, sizeof(piece));
	unit_input_one(f, unit_mbuf_exact(piece, n, n, UNIT_P0));

	assert_int_equal(poll_and_flush(f), 4);
	assert_int_equal(unit_tx_count(f), 0);
	/* closing the services closes the file */
	lsk_worker_offline(f->worker);
	lsk_services_free(f->stack);

	in = fopen(pcap_path, "rb");
	assert_non_null(in);
	assert_int_equal(fseek(in, 0, SEEK_END), 0);
	size = ftell(in);
	rewind(in);
	n = 24;
	for (i = 0; i < 4; i++)
		n += 16 + want_len[i];
	assert_int_equal(size, n);
	file = malloc((size_t)size);
	assert_non_null(file);
	assert_int_equal(fread(file, 1, (size_t)size, in), (size_t)size);
	fclose(in);
	unlink(pcap_path);

	assert_int_equal(le32(file), 0xa1b2c3d4);
	assert_int_equal(file[4] | file[5] << 8, 2);	/* host order */
	assert_int_equal(file[6] | file[7] << 8, 4);
	assert_int_equal(le32(file + 8), 0);
	assert_int_equal(le32(file + 16), UNIT_ETH_LEN + 65535);
	assert_int_equal(le32(file + 20), 1);
	r = file + 24;
	for (i = 0; i < 4; i++) {
		assert_true(le32(r) > 0);		/* a timestamp */
		assert_true(le32(r + 4) < 1000000);
		assert_int_equal(le32(r + 8), want_len[i]);
		assert_int_equal(le32(r + 12), want_len[i]);
		assert_memory_equal(r + 16, want[i], want_len[i]);
		r += 16 + want_len[i];
	}
	free(file);
}

/* A train's datagrams are recorded each as it arrived (its own IP ID
 * and checksums), chained (fraglist: any IDs) or merged (IDs one apart,
 * or it would not merge). */
static void
pcap_train(void **state, const char *gro, uint16_t id_step)
{
	static uint8_t want[4][UNIT_FRAME_MAX];
	struct unit_fixture *f = *state;
	struct rte_mbuf *pkts[4];
	size_t want_len[4];
	uint8_t *file, *r;
	char cmd[128];
	long size;
	FILE *in;
	int i;

	snprintf(cmd, sizeof(cmd), "udp listen 10.0.0.254:9 pcap %s",
		 pcap_file_path());
	unit_cmd(f, cmd);
	unit_cmd(f, gro);
	for (i = 0; i < 4; i++) {
		struct unit_pkt p;

		unit_pkt_init(&p, UNIT_P0_IP);
		p.dport = 9;
		p.id = (uint16_t)(0x3000 + id_step * i);
		p.payload_len = i < 3 ? 400 : 100;
		want_len[i] = unit_pkt_build(&p, want[i], sizeof(want[i]));
		pkts[i] = unit_mbuf_from_bytes(want[i], want_len[i], UNIT_P0);
	}
	unit_input(f, pkts, 4);
	assert_int_equal(unit_stats(f).gro.Trains, 1);
	assert_int_equal(poll_and_flush(f), 4);
	lsk_worker_offline(f->worker);
	lsk_services_free(f->stack);

	in = fopen(pcap_path, "rb");
	assert_non_null(in);
	assert_int_equal(fseek(in, 0, SEEK_END), 0);
	size = ftell(in);
	rewind(in);
	assert_int_equal(size, 24 + 4 * 16 + 3 * want_len[0] + want_len[3]);
	file = malloc((size_t)size);
	assert_non_null(file);
	assert_int_equal(fread(file, 1, (size_t)size, in), (size_t)size);
	fclose(in);
	unlink(pcap_path);
	r = file + 24;
	for (i = 0; i < 4; i++) {
		assert_int_equal(le32(r + 8), want_len[i]);
		assert_memory_equal(r + 16, want[i], want_len[i]);
		r += 16 + want_len[i];
	}
	free(file);
}

static void
test_pcap_train(void **state)
{
	pcap_train(state, "gro fraglist flows 4 segs 8", 7);
}

static void
test_pcap_merged_train(void **state)
{
	pcap_train(state, "gro merge flows 4 segs 8", 1);
}

/*
 * The largest datagram (65535 bytes of IP, reassembled from two pieces)
 * is recorded whole, and the file reads back with libpcap: no record
 * longer than the snapshot length its header gives.
 */
static void
test_pcap_largest(void **state)
{
	static uint8_t big[UNIT_ETH_LEN + 65535], pc[UNIT_ETH_LEN + 65535];
	struct unit_fixture *f = *state;
	char cmd[128], err[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	struct unit_pkt p;
	size_t len, n;
	pcap_t *rd;

	snprintf(cmd, sizeof(cmd), "udp listen 10.0.0.254:9 pcap %s",
		 pcap_file_path());
	unit_cmd(f, cmd);
	unit_pkt_init(&p, UNIT_P0_IP);
	p.dport = 9;
	p.df = false;
	p.payload_len = 65535 - 28;
	len = unit_pkt_build(&p, big, sizeof(big));
	n = unit_frag_build(big, 0, 32768, true, pc, sizeof(pc));
	unit_input_one(f, unit_mbuf_big(pc, n, UNIT_P0));
	n = unit_frag_build(big, 32768, 65535 - 20 - 32768, false, pc,
			    sizeof(pc));
	unit_input_one(f, unit_mbuf_big(pc, n, UNIT_P0));
	assert_int_equal(poll_and_flush(f), 1);
	lsk_worker_offline(f->worker);
	lsk_services_free(f->stack);

	rd = pcap_open_offline(pcap_path, err);
	if (rd == NULL)
		fail_msg("libpcap cannot read it: %s", err);
	assert_int_equal(pcap_datalink(rd), DLT_EN10MB);
	assert_true((size_t)pcap_snapshot(rd) >= len);
	assert_int_equal(pcap_next_ex(rd, &h, &data), 1);
	assert_int_equal(h->caplen, len);
	assert_int_equal(h->len, len);
	assert_memory_equal(data, big, len);
	assert_int_equal(pcap_next_ex(rd, &h, &data), PCAP_ERROR_BREAK);
	pcap_close(rd);
	unlink(pcap_path);
}

/* A file that cannot be written: the command fails, the port is left
 * unbound (a datagram to it is NoPorts) and free for the next service. */
static void
test_pcap_bad_path(void **state)
{
	struct unit_fixture *f = *state;

	assert_int_equal(unit_cmd_rc(f, "udp listen 10.0.0.254:9 pcap "
				     "/nonexistent-dir/x.pcap"), -EACCES);
	unit_input_one(f, mbuf_of(build(UNIT_P0_IP, 9, 1000, 10)));
	assert_int_equal(unit_stats(f).udp.NoPorts, 1);
	assert_int_equal(unit_tx_icmp(f, UNIT_P0, 3, 3), 1);
	unit_tx_free(f);
	assert_string_equal(services_json(f), "[]");
	unit_cmd(f, "udp listen 10.0.0.254:9 discard");
	assert_int_equal(unit_cmd_rc(f, "udp listen 10.0.0.254:9 echo"),
			 -EADDRINUSE);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup_list, unit_teardown)
/* the same test in single mode, under its own name */
#define TS(fn) { #fn "_single", fn, setup_single, unit_teardown, NULL }

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_echo),
		TS(test_echo),
		T(test_echo_wildcard_and_broadcast),
		T(test_echo_unanswerable_does_not_stop_the_rest),
		T(test_echo_train),
		T(test_echo_merged_train),
		T(test_echo_reassembled),
		TS(test_echo_reassembled),
		T(test_echo_no_mbufs),
		T(test_echo_ring_full),
		TS(test_echo_ring_full),
		T(test_discard),
		T(test_pcap),
		TS(test_pcap),
		T(test_pcap_train),
		T(test_pcap_largest),
		T(test_pcap_merged_train),
		T(test_pcap_bad_path),
	};

	return cmocka_run_group_tests_name("services", tests,
					   unit_group_setup,
					   unit_group_teardown);
}
