/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The UDP side of the control thread: the endpoint list and the table
 * workers read (control/udp_table.c), and the services the stack runs
 * itself on endpoints of its own (control/services.c).
 */
#ifndef LSK_CONTROL_UDP_CTL_H
#define LSK_CONTROL_UDP_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "listack/listack.h"

struct lsk_stack;
struct lsk_udp_ep;
struct lsk_udp_table;

/* UDP endpoints (control/udp_table.c): the table workers read, built
 * from the endpoint list, and the list's end with the stack. */
int lsk_udp_table_build(struct lsk_stack *s, struct lsk_udp_table **out);
void lsk_udp_table_free(struct lsk_udp_table *t);
void lsk_udp_close_all(struct lsk_stack *s);
/* UDP endpoints in a batch: publish a table built from
 * the endpoint list, then free what was closed before it. */
void lsk_udp_table_publish(struct lsk_stack *s, struct lsk_udp_table *t);
/* Take ep out of the endpoint list, or put it back, without publishing
 * (a batch publishes at its commit). */
void lsk_udp_unlist(struct lsk_udp_ep *ep);
void lsk_udp_relist(struct lsk_udp_ep *ep);
/* Free an endpoint no published table ever named (made in a batch that
 * is put back). */
void lsk_udp_ep_discard(struct lsk_udp_ep *ep);
/* Services (control/services.c): echo, discard and pcap endpoints that
 * lsk_services_poll runs. */
enum lsk_service_kind {
	LSK_SERVICE_ECHO,
	LSK_SERVICE_DISCARD,
	LSK_SERVICE_PCAP,
};
struct lsk_service;
struct lsk_udp_addr;
int lsk_service_add(struct lsk_stack *s, enum lsk_service_kind kind,
		    const struct lsk_udp_addr *addr, uint16_t port,
		    const char *path, uint32_t ring_size);
void lsk_services_free(struct lsk_stack *s);
/* Services in a batch. */
int lsk_service_close(struct lsk_stack *s, const struct lsk_udp_addr *addr,
		      uint16_t port);
void lsk_services_batch_end(struct lsk_stack *s, bool commit);
/* The service on addr:port (NULL: none), and what it is. */
const struct lsk_service *lsk_service_find(const struct lsk_stack *s,
					   const struct lsk_udp_addr *addr,
					   uint16_t port);
/* ep's address and port as the commands write them: A.B.C.D:PORT, or
 * [ADDR6]:PORT (DESIGN.md "IPv6"); buf of LSK_UDP_ADDR_TEXT bytes. */
#define LSK_UDP_ADDR_TEXT 56
void lsk_udp_ep_text(const struct lsk_udp_ep *ep, char *buf, size_t len);
struct lsk_service_info {
	uint32_t addr;		/* IPv4's; 0 for an IPv6 service */
	bool v6;
	struct lsk_ip6_addr addr6;	/* IPv6's */
	const struct lsk_udp_ep *ep;
	uint16_t port;
	const char *kind;	/* "echo", "discard", "pcap" */
	const char *path;	/* pcap only */
	uint32_t ring_size;
	uint64_t datagrams;
};
void lsk_service_info(const struct lsk_service *svc,
		      struct lsk_service_info *out);

#endif /* LSK_CONTROL_UDP_CTL_H */
