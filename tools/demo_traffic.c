/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * demo-traffic: writes the pcaps of the bundled demo (config/demo.conf):
 * a client network on port 0 and a server network on port 1 talking
 * through listack, mixed with the kinds of traffic a router must refuse.
 *
 *   demo-traffic DIR [PACKETS]   writes DIR/in0.pcap and DIR/in1.pcap
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#define FRAME_MAX 1600

struct frame {
	uint8_t b[FRAME_MAX];
	unsigned int len;
};

static const uint8_t mac_p0[6] = { 2, 0, 0, 0, 0, 0xfe };
static const uint8_t mac_p1[6] = { 2, 0, 0, 0, 1, 0xfe };
static const uint8_t mac_client[6] = { 2, 0, 0, 0, 0, 1 };
static const uint8_t mac_server[6] = { 2, 0, 0, 0, 1, 1 };

static uint16_t
csum(const uint8_t *p, unsigned int len, uint32_t sum)
{
	unsigned int i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static uint32_t
ip(const char *s)
{
	struct in_addr a;

	inet_pton(AF_INET, s, &a);
	return ntohl(a.s_addr);
}

/* Ethernet + IPv4 + UDP with valid checksums and `payload` bytes. */
static void
udp_frame(struct frame *f, const uint8_t *dst_mac, const uint8_t *src_mac,
	  uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
	  uint8_t ttl, uint16_t id, unsigned int payload)
{
	uint8_t *e = f->b, *iph = e + 14, *u = iph + 20;
	uint8_t pseudo[12];
	uint32_t sum = 0;
	unsigned int i;

	memcpy(e, dst_mac, 6);
	memcpy(e + 6, src_mac, 6);
	put16(e + 12, 0x0800);
	iph[0] = 0x45;
	iph[1] = 0;
	put16(iph + 2, (uint16_t)(28 + payload));
	put16(iph + 4, id);
	put16(iph + 6, 0x4000);
	iph[8] = ttl;
	iph[9] = 17;
	put16(iph + 10, 0);
	put32(iph + 12, src);
	put32(iph + 16, dst);
	put16(iph + 10, csum(iph, 20, 0));
	put16(u, sport);
	put16(u + 2, dport);
	put16(u + 4, (uint16_t)(8 + payload));
	put16(u + 6, 0);
	for (i = 0; i < payload; i++)
		u[8 + i] = (uint8_t)('a' + (id + i) % 26);
	memcpy(pseudo, iph + 12, 8);
	pseudo[8] = 0;
	pseudo[9] = 17;
	put16(pseudo + 10, (uint16_t)(8 + payload));
	for (i = 0; i < 12; i += 2)
		sum += (uint32_t)(pseudo[i] << 8 | pseudo[i + 1]);
	put16(u + 6, csum(u, 8 + payload, sum));
	if (u[6] == 0 && u[7] == 0)
		put16(u + 6, 0xffff);
	f->len = 14 + 28 + payload;
}

static void
write_frame(pcap_dumper_t *d, const struct frame *f, unsigned int n)
{
	struct pcap_pkthdr h = { .caplen = f->len, .len = f->len };

	h.ts.tv_usec = n;
	pcap_dump((u_char *)d, &h, f->b);
}

static pcap_dumper_t *
open_out(pcap_t *p, const char *dir, const char *name)
{
	char path[4096];
	pcap_dumper_t *d;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	d = pcap_dump_open(p, path);
	if (d == NULL) {
		fprintf(stderr, "demo-traffic: %s: %s\n", path, pcap_geterr(p));
		exit(1);
	}
	return d;
}

/* One of the refused kinds, chosen by k; see the comments for the counter. */
static void
bad_frame(struct frame *f, unsigned int k, uint16_t id)
{
	switch (k % 7) {
	case 0: /* eth.NotForUs */
		udp_frame(f, (const uint8_t[6]){ 2, 0, 0, 0, 0x99, 0x99 },
			  mac_client, ip("10.0.0.1"), ip("10.0.1.1"), 5000,
			  7, 64, id, 18);
		break;
	case 1: /* ip.InCsumErrors + ip.InHdrErrors */
		udp_frame(f, mac_p0, mac_client, ip("10.0.0.1"),
			  ip("10.0.1.1"), 5001, 7, 64, id, 18);
		f->b[14 + 10] ^= 0x5a;
		break;
	case 2: /* ip.InHdrErrors: TTL runs out here */
		udp_frame(f, mac_p0, mac_client, ip("10.0.0.1"),
			  ip("10.9.1.1"), 5002, 7, 1, id, 18);
		break;
	case 3: /* ip.InNoRoutes */
		udp_frame(f, mac_p0, mac_client, ip("10.0.0.1"),
			  ip("198.51.100.7"), 5003, 7, 64, id, 18);
		break;
	case 4: /* ip.InDiscards: blackhole route */
		udp_frame(f, mac_p0, mac_client, ip("10.0.0.1"),
			  ip("192.0.2.9"), 5004, 7, 64, id, 18);
		break;
	case 5: /* ip.InAddrErrors: loopback source */
		udp_frame(f, mac_p0, mac_client, ip("127.0.0.1"),
			  ip("10.0.1.1"), 5005, 7, 64, id, 18);
		break;
	default: /* ip.InTruncatedPkts: frame cut short */
		udp_frame(f, mac_p0, mac_client, ip("10.0.0.1"),
			  ip("10.0.1.1"), 5006, 7, 64, id, 200);
		f->len -= 100;
		break;
	}
}

int
main(int argc, char **argv)
{
	unsigned int n_packets = argc > 2 ? (unsigned int)atoi(argv[2]) : 2000;
	pcap_dumper_t *d0, *d1;
	struct frame f;
	unsigned int i;
	pcap_t *p;

	if (argc < 2) {
		fprintf(stderr, "usage: demo-traffic DIR [PACKETS]\n");
		return 2;
	}
	p = pcap_open_dead(DLT_EN10MB, 65535);
	d0 = open_out(p, argv[1], "in0.pcap");
	d1 = open_out(p, argv[1], "in1.pcap");
	for (i = 0; i < n_packets; i++) {
		uint16_t id = (uint16_t)i;

		if (i % 20 == 19) {
			bad_frame(&f, i / 20, id);
		} else if (i % 10 == 3) {
			/* a client talks to the router itself */
			udp_frame(&f, mac_p0, mac_client, ip("10.0.0.1"),
				  ip("10.0.0.254"), 4000, 9, 64, id, 32);
		} else {
			/* 8 client flows to a host beyond the server net */
			uint32_t dst = ip("10.9.0.10") + (i % 8);

			udp_frame(&f, mac_p0, mac_client, ip("10.0.0.1"), dst,
				  (uint16_t)(1024 + i % 8), 7, 64, id, 64);
		}
		write_frame(d0, &f, i);
		if (i % 4 == 0) {
			/* replies from the server net to the client */
			udp_frame(&f, mac_p1, mac_server, ip("10.0.1.1"),
				  ip("10.0.0.1"), 7, (uint16_t)(1024 + i % 8),
				  64, id, 64);
			write_frame(d1, &f, i);
		}
	}
	pcap_dump_close(d0);
	pcap_dump_close(d1);
	pcap_close(p);
	return 0;
}
