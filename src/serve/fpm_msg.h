/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FPM reader (serve/fpm_msg.c): zebra's dplane_fpm_nl stream (FPM
 * frames around rtnetlink messages) into the operations they ask for,
 * in order. Pure: no socket, no stack; the server (serve/fpm_server.c)
 * applies what it decoded, and nothing of a read with a bad frame.
 */
#ifndef LSK_SERVE_FPM_MSG_H
#define LSK_SERVE_FPM_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "listack/listack.h"

/* The FPM header: version 1, type 1 (netlink), a 16-bit big-endian
 * length that counts the header itself. */
#define LSK_FPM_HDR_LEN 4
#define LSK_FPM_VERSION 1
#define LSK_FPM_TYPE_NETLINK 1
#define LSK_FPM_FRAME_MAX 65535

/* A route's or a nexthop group's paths, at most this many (more are cut,
 * counted fpm.PathsCut). */
#define LSK_FPM_PATHS_MAX LSK_ROUTE_MAX_PATHS

/* One path as zebra gave it: the kernel's ifindex, not yet a port.
 * Its gateway is of family gw_family (0: none, on-link). */
struct lsk_fpm_path {
	uint32_t gateway;	/* AF_INET: host order */
	uint32_t ifindex;	/* 0: none given */
	uint16_t weight;	/* 1..256 */
	uint8_t gw_family;	/* AF_INET, AF_INET6, or 0: on-link */
	struct lsk_ip6_addr gateway6;	/* AF_INET6 */
};

/* RTM_NEWROUTE / RTM_DELROUTE of a route of the main table, IPv4
 * (prefix) or IPv6 (prefix6). */
struct lsk_fpm_route {
	uint32_t prefix;	/* AF_INET: host order, no host bits */
	struct lsk_ip6_addr prefix6;	/* AF_INET6: no host bits */
	uint8_t family;		/* AF_INET or AF_INET6 */
	uint8_t depth;
	uint8_t withdraw;	/* RTM_DELROUTE */
	uint8_t type;		/* enum lsk_route_type */
	uint8_t proto;		/* rtm_protocol */
	uint32_t nh_id;		/* RTA_NH_ID; 0: the paths below */
	uint8_t n_paths;
	struct lsk_fpm_path paths[LSK_FPM_PATHS_MAX];
};

/* RTM_NEWNEXTHOP: one nexthop, or a group of others (n_group > 0). */
struct lsk_fpm_member {
	uint32_t id;
	uint16_t weight;	/* 1..256 */
};

struct lsk_fpm_nh {
	uint32_t id;
	uint8_t blackhole;	/* NHA_BLACKHOLE */
	uint8_t unusable;	/* an encapsulation: a route naming it is
				 * skipped */
	uint8_t n_group;	/* NHA_GROUP's members (0: a single one) */
	struct lsk_fpm_path path;	/* a single nexthop */
	struct lsk_fpm_member group[LSK_FPM_PATHS_MAX];
};

enum lsk_fpm_op_kind {
	LSK_FPM_OP_ROUTE,
	LSK_FPM_OP_NH_ADD,	/* add or replace nexthop nh.id */
	LSK_FPM_OP_NH_DEL,	/* nh.id goes */
};

struct lsk_fpm_op {
	uint8_t kind;		/* enum lsk_fpm_op_kind */
	union {
		struct lsk_fpm_route route;
		struct lsk_fpm_nh nh;
	};
};

/* Why a stream is refused (the counter fpm.<name> it lands in). */
enum lsk_fpm_err {
	LSK_FPM_OK = 0,
	LSK_FPM_ERR_FRAME,	/* ErrFrames: version, type, length < 4 */
	LSK_FPM_ERR_MESSAGE,	/* ErrMessages: nlmsg_len, a short header */
	LSK_FPM_ERR_ATTR,	/* ErrAttributes: rta_len, rtnh_len */
	LSK_FPM_ERR_VALUE,	/* ErrValues: an attribute's size or value */
};

/*
 * Decode the whole frames at the head of buf[0..len) into ops[0..cap),
 * counting into *cnt (Frames, Messages and the Skip* reasons, never the
 * Err* ones: the caller counts *err). Stops before a frame whose
 * messages would not all fit in ops, and before a frame not whole yet.
 * Returns how many ops, with *used the bytes of the frames decoded (the
 * rest is the next read's head), or -EBADMSG with *err the reason, the
 * ops and *used then meaningless. cap must be at least
 * lsk_fpm_ops_per_frame(): a frame always fits in an empty ops.
 */
int lsk_fpm_decode(const uint8_t *buf, size_t len, struct lsk_fpm_op *ops,
		   unsigned int cap, struct lsk_fpm_stats *cnt, size_t *used,
		   enum lsk_fpm_err *err);

/* The most operations one frame can hold. */
unsigned int lsk_fpm_ops_per_frame(void);

/* The counter name of err ("ErrFrames", ...). */
const char *lsk_fpm_err_name(enum lsk_fpm_err err);

#endif /* LSK_SERVE_FPM_MSG_H */
