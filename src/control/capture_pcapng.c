/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pcapng blocks a capture writes (section header, interface
 * descriptions, enhanced packets), in host byte order as pcapng allows.
 *
 * Not DPDK's rte_pcapng: in DPDK 22.11 rte_pcapng_copy takes a direction
 * but no comment, so a dropped packet could not carry the name of the
 * counter that dropped it, and rte_pcapng_fdopen describes every ethdev
 * port by itself, with no snaplen of ours and nothing for a stack whose
 * ports are not ethdev ports (the unit tests' tx function).
 */
#include <errno.h>
#include <string.h>

#include <rte_mbuf.h>

#include "control/capture.h"

#define PCAPNG_SHB 0x0a0d0d0au
#define PCAPNG_IDB 0x00000001u
#define PCAPNG_EPB 0x00000006u
#define PCAPNG_MAGIC 0x1a2b3c4du

#define OPT_END 0
#define OPT_COMMENT 1
#define OPT_SHB_USERAPPL 4
#define OPT_IF_NAME 2
#define OPT_IF_TSRESOL 9
#define OPT_EPB_FLAGS 2

#define LINKTYPE_ETHERNET 1

/* an option's value as this writer bounds it */
#define OPT_MAX 512

static inline uint32_t
pad4(uint32_t n)
{
	return (n + 3u) & ~3u;
}

static int
put(FILE *f, const void *p, size_t n)
{
	return n == 0 || fwrite(p, 1, n, f) == n ? 0 : -(errno ? errno : EIO);
}

static int
put32(FILE *f, uint32_t v)
{
	return put(f, &v, sizeof(v));
}

/* The bytes an option takes: its header and value, padded. */
static uint32_t
opt_size(size_t len)
{
	return 4 + pad4((uint32_t)len);
}

static int
put_opt(FILE *f, uint16_t code, const void *v, size_t len)
{
	static const uint8_t zero[4];
	uint16_t h[2] = { code, (uint16_t)len };
	int rc = put(f, h, sizeof(h));

	if (rc == 0)
		rc = put(f, v, len);
	if (rc == 0)
		rc = put(f, zero, pad4((uint32_t)len) - len);
	return rc;
}

static size_t
opt_len(const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0;

	return n > OPT_MAX ? OPT_MAX : n;
}

int
lsk_pcapng_section(FILE *f, const char *appl)
{
	size_t alen = opt_len(appl);
	uint32_t total = 28 + (alen ? opt_size(alen) : 0) + 4;
	uint16_t version[2] = { 1, 0 };
	int64_t section_len = -1;	/* not given */
	int rc;

	rc = put32(f, PCAPNG_SHB);
	if (rc == 0)
		rc = put32(f, total);
	if (rc == 0)
		rc = put32(f, PCAPNG_MAGIC);
	if (rc == 0)
		rc = put(f, version, sizeof(version));
	if (rc == 0)
		rc = put(f, &section_len, sizeof(section_len));
	if (rc == 0 && alen)
		rc = put_opt(f, OPT_SHB_USERAPPL, appl, alen);
	if (rc == 0)
		rc = put32(f, OPT_END);
	if (rc == 0)
		rc = put32(f, total);
	return rc;
}

int
lsk_pcapng_interface(FILE *f, const char *name, uint32_t snaplen)
{
	size_t nlen = opt_len(name);
	uint8_t tsresol = 9;	/* nanoseconds */
	uint16_t link[2] = { LINKTYPE_ETHERNET, 0 };
	uint32_t total = 16 + (nlen ? opt_size(nlen) : 0) + opt_size(1) + 4 +
			 4;
	int rc;

	rc = put32(f, PCAPNG_IDB);
	if (rc == 0)
		rc = put32(f, total);
	if (rc == 0)
		rc = put(f, link, sizeof(link));
	if (rc == 0)
		rc = put32(f, snaplen);
	if (rc == 0 && nlen)
		rc = put_opt(f, OPT_IF_NAME, name, nlen);
	if (rc == 0)
		rc = put_opt(f, OPT_IF_TSRESOL, &tsresol, 1);
	if (rc == 0)
		rc = put32(f, OPT_END);
	if (rc == 0)
		rc = put32(f, total);
	return rc;
}

/* Append n bytes of v at *at in buf (room checked by the caller). */
static inline void
emit(uint8_t *buf, size_t *at, const void *v, size_t n)
{
	memcpy(buf + *at, v, n);
	*at += n;
}

static void
emit_opt(uint8_t *buf, size_t *at, uint16_t code, const void *v, size_t len)
{
	uint16_t h[2] = { code, (uint16_t)len };

	emit(buf, at, h, sizeof(h));
	emit(buf, at, v, len);
	memset(buf + *at, 0, pad4((uint32_t)len) - len);
	*at += pad4((uint32_t)len) - len;
}

size_t
lsk_pcapng_packet_room(uint32_t snaplen)
{
	return 28 + pad4(snaplen) + opt_size(4) + opt_size(OPT_MAX) + 8;
}

int
lsk_pcapng_packet(FILE *f, uint8_t *buf, size_t room, uint32_t ifid,
		  uint64_t ts_ns, const struct rte_mbuf *m, uint32_t orig_len,
		  enum lsk_cap_dir dir, const char *comment, uint64_t *bytes)
{
	size_t clen = opt_len(comment);
	uint32_t caplen = m->pkt_len;
	uint32_t flags = dir == LSK_CAP_DIR_IN ? 1u : 2u;	/* bits 0-1 */
	uint32_t hdr[7], end = OPT_END;
	uint32_t total = 28 + pad4(caplen) + opt_size(4) +
			 (clen ? opt_size(clen) : 0) + 4 + 4;
	const struct rte_mbuf *seg;
	size_t at = 0;

	if (total > room)
		return -EMSGSIZE;
	hdr[0] = PCAPNG_EPB;
	hdr[1] = total;
	hdr[2] = ifid;
	hdr[3] = (uint32_t)(ts_ns >> 32);
	hdr[4] = (uint32_t)ts_ns;
	hdr[5] = caplen;
	hdr[6] = orig_len < caplen ? caplen : orig_len;
	emit(buf, &at, hdr, sizeof(hdr));
	for (seg = m; seg != NULL && at < 28 + caplen; seg = seg->next)
		emit(buf, &at, rte_pktmbuf_mtod(seg, const void *),
		     RTE_MIN((size_t)seg->data_len, 28 + caplen - at));
	if (at != 28 + caplen)
		return -EINVAL;		/* segments shorter than pkt_len */
	memset(buf + at, 0, pad4(caplen) - caplen);
	at += pad4(caplen) - caplen;
	emit_opt(buf, &at, OPT_EPB_FLAGS, &flags, sizeof(flags));
	if (clen)
		emit_opt(buf, &at, OPT_COMMENT, comment, clen);
	emit(buf, &at, &end, sizeof(end));
	emit(buf, &at, &total, sizeof(total));
	/* one write a block: the writer keeps up with more packets */
	if (put(f, buf, at) != 0)
		return -(errno ? errno : EIO);
	*bytes += total;
	return 0;
}
