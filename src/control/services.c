/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Services behind `udp listen ADDR:PORT echo | discard | pcap FILE`: small
 * applications of the bulk API, run by whoever calls lsk_services_poll
 * (listack-fwd's main lcore). They use only the public calls.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/time.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include <pcap/pcap.h>

#include <rte_ip.h>

#include "listack/ctl.h"
#include "core/fwd6.h"
#include "udp/udp.h"
#include "control/control.h"
#include "control/udp_ctl.h"

#define SERVICE_BURST 64

struct lsk_service {
	enum lsk_service_kind kind;
	struct lsk_udp_ep *ep;
	uint64_t datagrams;
	pcap_t *pcap;
	pcap_dumper_t *dumper;
	char *path;		/* pcap: the file, as given */
	uint32_t ring_size;	/* as given; 0: the default */
	bool fresh;		/* opened by the batch in progress */
	bool made_file;		/* the batch created the pcap file */
	struct lsk_service *next_closed;
};

static const char *const kind_names[] = {
	[LSK_SERVICE_ECHO] = "echo",
	[LSK_SERVICE_DISCARD] = "discard",
	[LSK_SERVICE_PCAP] = "pcap",
};

/*
 * Open (truncate) the service's pcap file. The snapshot length holds the
 * largest frame recorded: an Ethernet header and 65535 bytes of IP.
 */
static int
service_pcap_open(struct lsk_service *svc)
{
	svc->pcap = pcap_open_dead(DLT_EN10MB, RTE_ETHER_HDR_LEN + UINT16_MAX);
	svc->dumper = svc->pcap ? pcap_dump_open(svc->pcap, svc->path) : NULL;
	if (svc->dumper == NULL && svc->pcap != NULL) {
		pcap_close(svc->pcap);
		svc->pcap = NULL;
	}
	return svc->dumper != NULL ? 0 : -EACCES;
}

int
lsk_service_add(struct lsk_stack *s, enum lsk_service_kind kind,
		const struct lsk_udp_addr *addr, uint16_t port,
		const char *path, uint32_t ring_size)
{
	/* a scratch stack's (cli/config_file.c) rings never fill */
	struct lsk_udp_bind_opts opts = {
		.ring_size = s->scratch ? 0 : ring_size,
		.socket_id = SOCKET_ID_ANY };
	struct lsk_service *svc;
	int rc;

	if (lsk_array_grow((void **)&s->services, &s->services_cap,
			   s->n_services, sizeof(*s->services), 8) < 0)
		return -ENOMEM;
	svc = calloc(1, sizeof(*svc));
	if (svc == NULL)
		return -ENOMEM;
	svc->kind = kind;
	svc->ring_size = ring_size;
	svc->fresh = s->in_batch;
	if (path != NULL && (svc->path = strdup(path)) == NULL) {
		free(svc);
		return -ENOMEM;
	}
	/* in a batch the endpoint is published with the batch */
	s->udp_defer = s->in_batch;
	rc = lsk_udp_bind_addr(s, addr, port, &opts, &svc->ep);
	s->udp_defer = false;
	if (rc < 0) {
		free(svc->path);
		free(svc);
		return rc;
	}
	/* the file is opened (truncated) only once the endpoint is ours; in
	 * a batch only once the batch is applied (lsk_services_batch_end):
	 * until then it is only made if missing, to know it can be */
	if (kind == LSK_SERVICE_PCAP && s->scratch) {
		/* checked only: the running stack's file stays as it is */
	} else if (kind == LSK_SERVICE_PCAP && svc->fresh) {
		const int flags = O_WRONLY | O_NONBLOCK | O_CLOEXEC;
		int fd = open(path, flags | O_CREAT | O_EXCL, 0644);

		svc->made_file = fd >= 0;
		if (fd < 0 && errno == EEXIST)
			fd = open(path, flags);
		if (fd < 0) {
			lsk_udp_ep_discard(svc->ep);
			free(svc->path);
			free(svc);
			return -EACCES;
		}
		close(fd);
	} else if (kind == LSK_SERVICE_PCAP) {
		if (service_pcap_open(svc) < 0) {
			if (svc->fresh)
				lsk_udp_ep_discard(svc->ep);
			else
				lsk_udp_close(svc->ep);
			free(svc->path);
			free(svc);
			return -EACCES;
		}
	}
	s->services[s->n_services++] = svc;
	return 0;
}

/* Datagrams in segments (reassembled) are echoed from this copy, and
 * recorded frames written from it: an Ethernet header and up to 65535
 * bytes of IP datagram. */
static uint8_t service_buf[RTE_ETHER_HDR_LEN + UINT16_MAX];

/* Send each datagram back where it came from, from where it was sent. */
static void
service_echo(struct lsk_service *svc, struct lsk_udp_msg *msgs, int n)
{
	unsigned int k;
	int i;

	for (i = 0; i < n; i++) {
		struct lsk_udp_msg *m = &msgs[i];
		uint32_t to = m->src_addr;
		uint16_t to_port = m->src_port;
		struct lsk_ip6_addr to6 = m->src_addr6;

		if (m->mbuf->nb_segs > 1) {
			uint32_t off = (uint32_t)((uint8_t *)m->payload -
				rte_pktmbuf_mtod(m->mbuf, uint8_t *));

			m->payload = (void *)(uintptr_t)rte_pktmbuf_read(
				m->mbuf, off, m->len, service_buf);
			/* one such datagram per burst: send it now */
		}

		/* a broadcast is answered from the egress port's address:
		 * worker 0 replaces a broadcast source (ip4_output.c) */
		m->src_addr = lsk_udp_ep_addr(svc->ep) ? lsk_udp_ep_addr(svc->ep)
						       : m->dst_addr;
		/* IPv6: from where it was sent (an endpoint on [::] answers
		 * a multicast from the egress's address, worker 0's) */
		if (svc->ep->family == AF_INET6) {
			m->src_addr6 = lsk_ip6_is_multicast(&m->dst_addr6) ?
				(struct lsk_ip6_addr){ { 0 } } : m->dst_addr6;
			m->dst_addr6 = to6;
		}
		m->src_port = m->dst_port;
		m->dst_addr = to;
		m->dst_port = to_port;
		m->gso_size = 0;
		if (m->mbuf->nb_segs > 1) {
			lsk_udp_send_burst(svc->ep, m, 1);
			m->len = UINT32_MAX;	/* sent */
		}
	}
	/* the rest leave with one call; one that cannot be sent (to port
	 * 0, say) stops the call, and is skipped, not the ones after it */
	for (i = 0, k = 0; i < n; i++)
		if (msgs[i].len != UINT32_MAX)
			msgs[k++] = msgs[i];
	for (i = 0; i < (int)k; i++) {
		int sent = lsk_udp_send_burst(svc->ep, &msgs[i], k - i);

		if (sent > 0)
			i += sent;
	}
}

/*
 * The frame of a delivered datagram, copied into service_buf, with an IP
 * header that agrees with it: udp4_input cut a datagram whose UDP length
 * is shorter than its IP payload to the UDP length, so its total length
 * (and checksum) are made to say so. Returns the frame's length.
 */
static uint32_t
service_frame(const struct rte_mbuf *m)
{
	uint32_t len = rte_pktmbuf_pkt_len(m);
	struct rte_ipv4_hdr *ip;
	uint16_t tot_len;

	/* ip4_input cut the frame to its total length, so it fits; the
	 * copy is bounded by the buffer all the same */
	len = RTE_MIN(len, (uint32_t)sizeof(service_buf));
	if (rte_pktmbuf_read(m, 0, len, service_buf) != service_buf)
		memcpy(service_buf, rte_pktmbuf_mtod(m, void *), len);
	ip = (struct rte_ipv4_hdr *)(service_buf + RTE_ETHER_HDR_LEN);
	tot_len = (uint16_t)(len - RTE_ETHER_HDR_LEN);
	if (ip->total_length != rte_cpu_to_be_16(tot_len)) {
		ip->total_length = rte_cpu_to_be_16(tot_len);
		ip->hdr_checksum = 0;
		ip->hdr_checksum = rte_ipv4_cksum(ip);
	}
	return len;
}

static void
service_pcap(struct lsk_service *svc, const struct lsk_udp_msg *msgs, int n)
{
	struct pcap_pkthdr h;
	int i;

	if (svc->dumper == NULL)
		return;		/* its file could not be opened at commit */
	gettimeofday(&h.ts, NULL);
	for (i = 0; i < n; i++) {
		h.caplen = h.len = service_frame(msgs[i].mbuf);
		pcap_dump((u_char *)svc->dumper, &h, service_buf);
	}
}

unsigned int
lsk_services_poll(struct lsk_stack *s)
{
	struct lsk_udp_msg msgs[SERVICE_BURST];
	unsigned int i, total = 0;

	/*
	 * A control batch changes the services list under the stack's lock
	 * and may wait for a grace period that this thread's worker (the
	 * main lcore of listack-fwd polls worker 0) must pass: never wait
	 * for it here, skip this round instead.
	 */
	if (lsk_stack_trylock(s) < 0)
		return 0;
	for (i = 0; i < s->n_services; i++) {
		struct lsk_service *svc = s->services[i];
		struct rte_mbuf *mbufs[SERVICE_BURST];
		int n, k;

		n = lsk_udp_recv_burst(svc->ep, msgs, SERVICE_BURST);
		if (n <= 0)
			continue;
		for (k = 0; k < n; k++)
			mbufs[k] = msgs[k].mbuf;
		if (svc->kind == LSK_SERVICE_ECHO)
			service_echo(svc, msgs, n);
		else if (svc->kind == LSK_SERVICE_PCAP)
			service_pcap(svc, msgs, n);
		rte_pktmbuf_free_bulk(mbufs, (unsigned int)n);
		svc->datagrams += (unsigned int)n;
		total += (unsigned int)n;
	}
	lsk_stack_unlock(s);
	return total;
}

void
lsk_udp_ep_text(const struct lsk_udp_ep *ep, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];
	uint32_t v4 = rte_cpu_to_be_32(ep->addr);

	if (ep->family == AF_INET6) {
		inet_ntop(AF_INET6, &ep->addr6, a, sizeof(a));
		snprintf(buf, len, "[%s]:%u", a, ep->port);
	} else {
		inet_ntop(AF_INET, &v4, a, sizeof(a));
		snprintf(buf, len, "%s:%u", a, ep->port);
	}
}

/* What a service holds besides its endpoint. */
static void
service_free(struct lsk_service *svc)
{
	if (svc->dumper) {
		pcap_dump_close(svc->dumper);
		pcap_close(svc->pcap);
	}
	free(svc->path);
	free(svc);
}

/* ep is addr:port. */
static bool
service_is(const struct lsk_udp_ep *ep, const struct lsk_udp_addr *addr,
	   uint16_t port)
{
	if (ep->port != port || ep->family != addr->family)
		return false;
	return addr->family == AF_INET6 ?
	       lsk_ip6_equal(&ep->addr6, &addr->v6) : ep->addr == addr->v4;
}

static int
service_index(const struct lsk_stack *s, const struct lsk_udp_addr *addr,
	      uint16_t port)
{
	unsigned int i;

	for (i = 0; i < s->n_services; i++)
		if (service_is(s->services[i]->ep, addr, port))
			return (int)i;
	return -1;
}

const struct lsk_service *
lsk_service_find(const struct lsk_stack *s, const struct lsk_udp_addr *addr,
		 uint16_t port)
{
	int i = service_index(s, addr, port);

	return i < 0 ? NULL : s->services[i];
}

void
lsk_service_info(const struct lsk_service *svc, struct lsk_service_info *out)
{
	out->addr = lsk_udp_ep_addr(svc->ep);
	out->v6 = svc->ep->family == AF_INET6;
	out->addr6 = svc->ep->addr6;
	out->ep = svc->ep;
	out->port = lsk_udp_ep_port(svc->ep);
	out->kind = kind_names[svc->kind];
	out->path = svc->path;
	out->ring_size = svc->ring_size;
	out->datagrams = svc->datagrams;
}

/*
 * In a batch a service closes at the commit: until then its endpoint
 * only leaves the list (the table in force still delivers to it, and
 * lsk_services_batch_end puts it back if the batch is not applied). One
 * the batch opened goes at once: no table ever named it.
 */
int
lsk_service_close(struct lsk_stack *s, const struct lsk_udp_addr *addr,
		  uint16_t port)
{
	int i = service_index(s, addr, port);
	struct lsk_service *svc;

	if (i < 0)
		return -ENOENT;
	svc = s->services[i];
	memmove(&s->services[i], &s->services[i + 1],
		(s->n_services - (unsigned int)i - 1) * sizeof(*s->services));
	s->n_services--;
	if (svc->fresh) {
		if (svc->made_file)
			unlink(svc->path);
		lsk_udp_ep_discard(svc->ep);
		service_free(svc);
	} else if (s->in_batch) {
		lsk_udp_unlist(svc->ep);
		svc->next_closed = s->services_closed;
		s->services_closed = svc;
	} else {
		lsk_udp_close(svc->ep);
		service_free(svc);
	}
	return 0;
}

/*
 * The end of a batch. Applied (after the table without the closed
 * endpoints is published): they are freed. Not applied (before the
 * service list goes back as it was): what the batch opened goes, what it
 * closed is listed again.
 */
void
lsk_services_batch_end(struct lsk_stack *s, bool commit)
{
	unsigned int i;

	for (i = 0; i < s->n_services; i++) {
		struct lsk_service *svc = s->services[i];

		if (svc->fresh && !commit) {
			if (svc->made_file)
				unlink(svc->path);
			lsk_udp_ep_discard(svc->ep);
			service_free(svc);
			continue;
		}
		if (svc->fresh && svc->kind == LSK_SERVICE_PCAP &&
		    !s->scratch) {
			service_pcap_open(svc);
		}
		svc->fresh = false;
	}
	while (s->services_closed != NULL) {
		struct lsk_service *svc = s->services_closed;

		s->services_closed = svc->next_closed;
		if (commit) {
			lsk_udp_ep_discard(svc->ep);	/* unpublished */
			service_free(svc);
		} else {
			lsk_udp_relist(svc->ep);
		}
	}
}

void
lsk_services_free(struct lsk_stack *s)
{
	unsigned int i;

	for (i = 0; i < s->n_services; i++) {
		struct lsk_service *svc = s->services[i];

		lsk_udp_close(svc->ep);
		service_free(svc);
	}
	free(s->services);
	s->services = NULL;
	s->n_services = s->services_cap = 0;
}

int
lsk_services_write_json(const struct lsk_stack *s, FILE *f)
{
	unsigned int i;

	fprintf(f, "[");
	for (i = 0; i < s->n_services; i++) {
		const struct lsk_service *svc = s->services[i];
		char ep[LSK_UDP_ADDR_TEXT];

		lsk_udp_ep_text(svc->ep, ep, sizeof(ep));
		fprintf(f, "%s{\"listen\": \"%s\", \"kind\": \"%s\", "
			"\"datagrams\": %" PRIu64 "}", i ? ", " : "", ep,
			kind_names[svc->kind], svc->datagrams);
	}
	fprintf(f, "]");
	return 0;
}
