/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Building FPM frames as zebra's dplane_fpm_nl writes them, for the FPM
 * reader's tests (test_fpm_msg.c) and the fuzz target's seeds: a frame
 * header, then rtnetlink messages built with the kernel's own structs.
 */
#ifndef FPM_BUILD_H
#define FPM_BUILD_H

#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>

struct fb {
	uint8_t buf[1 << 17];
	size_t len;
	size_t frame;		/* where the open frame starts */
	size_t msg;		/* where the open message starts */
	size_t nest;		/* where the open RTA_MULTIPATH starts */
	size_t rtnh;		/* where the open rtnexthop starts */
};

static inline void *
fb_put(struct fb *b, const void *p, size_t len)
{
	void *at = b->buf + b->len;

	if (p != NULL)
		memcpy(at, p, len);
	else
		memset(at, 0, len);
	b->len += len;
	return at;
}

static inline void
fb_pad(struct fb *b)
{
	while (b->len % 4)
		b->buf[b->len++] = 0;
}

static inline void
fb_frame_begin(struct fb *b)
{
	b->frame = b->len;
	fb_put(b, NULL, 4);
}

static inline void
fb_frame_end(struct fb *b)
{
	size_t n = b->len - b->frame;

	b->buf[b->frame] = 1;
	b->buf[b->frame + 1] = 1;
	b->buf[b->frame + 2] = (uint8_t)(n >> 8);
	b->buf[b->frame + 3] = (uint8_t)n;
}

static inline void
fb_msg_begin(struct fb *b, uint16_t type, uint16_t flags)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_flags = flags };

	b->msg = b->len;
	fb_put(b, &h, sizeof(h));
}

static inline void
fb_msg_end(struct fb *b)
{
	uint32_t n = (uint32_t)(b->len - b->msg);

	memcpy(b->buf + b->msg, &n, sizeof(n));
	fb_pad(b);
}

static inline void
fb_attr(struct fb *b, uint16_t type, const void *p, size_t len)
{
	struct rtattr a = { .rta_len = (unsigned short)(4 + len),
			    .rta_type = type };

	fb_put(b, &a, sizeof(a));
	fb_put(b, p, len);
	fb_pad(b);
}

static inline void
fb_u32(struct fb *b, uint16_t type, uint32_t v)
{
	fb_attr(b, type, &v, 4);
}

static inline void
fb_addr(struct fb *b, uint16_t type, uint32_t host_order)
{
	uint32_t v = htonl(host_order);

	fb_attr(b, type, &v, 4);
}

/* An IPv4 route message's head (RTA_DST given when depth > 0). */
static inline void
fb_route(struct fb *b, uint16_t type, uint16_t flags, uint32_t prefix,
	 uint8_t depth, uint8_t rtn, uint8_t proto)
{
	struct rtmsg rtm = {
		.rtm_family = AF_INET, .rtm_dst_len = depth,
		.rtm_table = RT_TABLE_MAIN, .rtm_protocol = proto,
		.rtm_scope = RT_SCOPE_UNIVERSE, .rtm_type = rtn,
	};

	fb_msg_begin(b, type, flags);
	fb_put(b, &rtm, sizeof(rtm));
	if (depth > 0)
		fb_addr(b, RTA_DST, prefix);
	fb_u32(b, RTA_PRIORITY, 20);
}

static inline void
fb_multipath_begin(struct fb *b)
{
	b->nest = b->len;
	fb_put(b, NULL, 4);
}

static inline void
fb_rtnh(struct fb *b, uint32_t gw, int ifindex, uint8_t hops)
{
	struct rtnexthop nh = { .rtnh_hops = hops, .rtnh_ifindex = ifindex };
	struct rtnexthop *at;

	at = fb_put(b, &nh, sizeof(nh));
	if (gw != 0)
		fb_addr(b, RTA_GATEWAY, gw);
	at->rtnh_len = (unsigned short)((uint8_t *)b->buf + b->len -
					(uint8_t *)at);
}

static inline void
fb_multipath_end(struct fb *b)
{
	struct rtattr a = { .rta_len = (unsigned short)(b->len - b->nest),
			    .rta_type = RTA_MULTIPATH };

	memcpy(b->buf + b->nest, &a, sizeof(a));
}

/* RTM_NEWNEXTHOP / RTM_DELNEXTHOP's head with its NHA_ID. */
static inline void
fb_nh(struct fb *b, uint16_t type, uint8_t family, uint32_t id)
{
	struct nhmsg nhm = { .nh_family = family, .nh_protocol = 11 };

	fb_msg_begin(b, type, NLM_F_CREATE | NLM_F_REPLACE);
	fb_put(b, &nhm, sizeof(nhm));
	fb_u32(b, NHA_ID, id);
}

/* A whole frame of one nexthop: gw (0: none) on ifindex. */
static inline void
fb_nh_frame(struct fb *b, uint32_t id, uint32_t gw, uint32_t ifindex)
{
	fb_frame_begin(b);
	fb_nh(b, RTM_NEWNEXTHOP, AF_INET, id);
	if (gw != 0)
		fb_addr(b, NHA_GATEWAY, gw);
	fb_u32(b, NHA_OIF, ifindex);
	fb_msg_end(b);
	fb_frame_end(b);
}

/* An IPv6 route message's head (RTA_DST given when depth > 0), as
 * zebra writes it: 16-byte addresses, the rest as IPv4's. */
static inline void
fb_route6(struct fb *b, uint16_t type, uint16_t flags, const uint8_t *prefix,
	  uint8_t depth, uint8_t rtn, uint8_t proto)
{
	struct rtmsg rtm = {
		.rtm_family = AF_INET6, .rtm_dst_len = depth,
		.rtm_table = RT_TABLE_MAIN, .rtm_protocol = proto,
		.rtm_scope = RT_SCOPE_UNIVERSE, .rtm_type = rtn,
	};

	fb_msg_begin(b, type, flags);
	fb_put(b, &rtm, sizeof(rtm));
	if (depth > 0)
		fb_attr(b, RTA_DST, prefix, 16);
	fb_u32(b, RTA_PRIORITY, 1024);
}

/* An rtnexthop with a 16-byte gateway (NULL: none). */
static inline void
fb_rtnh6(struct fb *b, const uint8_t *gw, int ifindex, uint8_t hops)
{
	struct rtnexthop nh = { .rtnh_hops = hops, .rtnh_ifindex = ifindex };
	struct rtnexthop *at;

	at = fb_put(b, &nh, sizeof(nh));
	if (gw != NULL)
		fb_attr(b, RTA_GATEWAY, gw, 16);
	at->rtnh_len = (unsigned short)((uint8_t *)b->buf + b->len -
					(uint8_t *)at);
}

/* A whole frame of one IPv6 nexthop: gw (NULL: none) on ifindex. */
static inline void
fb_nh6_frame(struct fb *b, uint32_t id, const uint8_t *gw, uint32_t ifindex)
{
	fb_frame_begin(b);
	fb_nh(b, RTM_NEWNEXTHOP, AF_INET6, id);
	if (gw != NULL)
		fb_attr(b, NHA_GATEWAY, gw, 16);
	fb_u32(b, NHA_OIF, ifindex);
	fb_msg_end(b);
	fb_frame_end(b);
}

#endif /* FPM_BUILD_H */
