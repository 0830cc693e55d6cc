/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FPM reader and resolution (serve/fpm_msg.c, serve/fpm_nh.c) on IPv6
 * as zebra's dplane_fpm_nl writes it (fpm_build.h): routes with a
 * gateway, the default route, blackhole / unreachable / prohibit,
 * RTA_MULTIPATH with weights, nexthop objects with 16-byte gateways and
 * groups of them, link-local gateways and their interfaces, the families
 * kept apart (an IPv4 route naming an IPv6 nexthop, and the reverse),
 * IPv6 keys in the nexthop references; and what must be refused:
 * addresses of the wrong size, depths past 128, host bits, truncated and
 * lying lengths, every byte changed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "unit_common.h"
#include "serve/fpm_msg.h"
#include "serve/fpm_nh.h"
#include "serve/fpm_refs.h"

#include "fpm_decode.h"

#define IP UNIT_IPV4
#define ZEBRA_STATIC 196	/* FRR's RTPROT_ZSTATIC */


static const uint8_t NET1[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1 };
static const uint8_t GW_A[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x0a };
static const uint8_t GW_B[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1,
				  [15] = 0x0b };
static const uint8_t LL_C[16] = { 0xfe, 0x80, [15] = 0x0c };
static const uint8_t LL_NET[16] = { 0xfe, 0x80 };
static const uint8_t ZERO[16];

/* ifindex 6 is our iface 0, 7 iface 1 */
static int
iface_of(void *arg, uint32_t ifindex)
{
	(void)arg;
	return ifindex == 6 ? 0 : ifindex == 7 ? 1 : -ENOENT;
}

static void
gw_is(const struct lsk_ip6_addr *a, const uint8_t *want)
{
	assert_memory_equal(a->a, want, 16);
}

static void
route6_via(uint16_t type, const uint8_t *prefix, uint8_t depth,
	   const uint8_t *gw, uint32_t oif)
{
	fb_route6(&b, type, NLM_F_CREATE, prefix, depth, RTN_UNICAST,
		  ZEBRA_STATIC);
	fb_attr(&b, RTA_GATEWAY, gw, 16);
	fb_u32(&b, RTA_OIF, oif);
	fb_msg_end(&b);
}

static void
test_route6(void **state)
{
	struct lsk_fpm_nh_table *t = lsk_fpm_nh_table_new(4);
	struct lsk_route6_learned l;
	struct lsk_route_learned l4;
	struct lsk_fpm_stats cnt;
	const struct lsk_fpm_route *r;

	(void)state;
	assert_non_null(t);
	fb_frame_begin(&b);
	route6_via(RTM_NEWROUTE, NET1, 48, GW_A, 6);
	fb_frame_end(&b);
	fb_frame_begin(&b);	/* the default route: no RTA_DST */
	route6_via(RTM_NEWROUTE, NULL, 0, GW_B, 99);
	fb_frame_end(&b);
	fb_frame_begin(&b);
	fb_route6(&b, RTM_DELROUTE, 0, NET1, 48, RTN_UNICAST, ZEBRA_STATIC);
	fb_msg_end(&b);
	fb_frame_end(&b);

	assert_int_equal(decode_all(&cnt), 3);
	assert_int_equal(cnt.Frames, 3);
	r = &ops[0].route;
	assert_int_equal(ops[0].kind, LSK_FPM_OP_ROUTE);
	assert_int_equal(r->family, AF_INET6);
	gw_is(&r->prefix6, NET1);
	assert_int_equal(r->depth, 48);
	assert_int_equal(r->n_paths, 1);
	assert_int_equal(r->paths[0].gw_family, AF_INET6);
	gw_is(&r->paths[0].gateway6, GW_A);

	assert_int_equal(lsk_fpm_route6_resolve(t, r, iface_of, NULL, &l,
						&cnt), 0);
	gw_is(&l.prefix, NET1);
	assert_int_equal(l.depth, 48);
	assert_int_equal(l.type, LSK_ROUTE_VIA);
	assert_int_equal(l.proto, ZEBRA_STATIC);
	assert_int_equal(l.withdraw, 0);
	assert_int_equal(l.n_paths, 1);
	gw_is(&l.paths[0].gateway, GW_A);
	assert_int_equal(l.paths[0].iface, 0);
	assert_int_equal(l.paths[0].weight, 1);
	/* not an IPv4 route, whatever the IPv4 call is asked */
	assert_int_equal(lsk_fpm_route_resolve(t, r, iface_of, NULL, &l4,
					       &cnt), -EAFNOSUPPORT);

	/* ifindex not ours, a global gateway: its prefix decides */
	r = &ops[1].route;
	assert_int_equal(r->depth, 0);
	gw_is(&r->prefix6, ZERO);
	assert_int_equal(lsk_fpm_route6_resolve(t, r, iface_of, NULL, &l,
						&cnt), 0);
	assert_int_equal(l.n_paths, 1);
	assert_int_equal(l.paths[0].iface, LSK_IFACE_ANY);
	gw_is(&l.paths[0].gateway, GW_B);

	r = &ops[2].route;
	assert_int_equal(r->withdraw, 1);
	assert_int_equal(lsk_fpm_route6_resolve(t, r, iface_of, NULL, &l,
						&cnt), 0);
	assert_int_equal(l.withdraw, 1);
	gw_is(&l.prefix, NET1);
	lsk_fpm_nh_table_free(t);
}

static void
test_types6(void **state)
{
	static const uint8_t rtn[] = { RTN_BLACKHOLE, RTN_UNREACHABLE,
				       RTN_PROHIBIT };
	static const uint8_t want[] = { LSK_ROUTE_BLACKHOLE,
		LSK_ROUTE_UNREACHABLE, LSK_ROUTE_PROHIBIT };
	struct lsk_fpm_nh_table *t = lsk_fpm_nh_table_new(4);
	struct lsk_route6_learned l;
	struct lsk_fpm_stats cnt;
	unsigned int i;

	(void)state;
	assert_non_null(t);
	fb_frame_begin(&b);
	for (i = 0; i < 3; i++) {
		uint8_t p[16] = { 0x20, 0x01, 0x0d, 0xb8, 0xff, (uint8_t)i };

		fb_route6(&b, RTM_NEWROUTE, NLM_F_CREATE, p, 64, rtn[i],
			  ZEBRA_STATIC);
		fb_msg_end(&b);
	}
	fb_route6(&b, RTM_NEWROUTE, 0, NET1, 64, RTN_MULTICAST, ZEBRA_STATIC);
	fb_msg_end(&b);
	fb_frame_end(&b);
	assert_int_equal(decode_all(&cnt), 3);
	assert_int_equal(cnt.SkipType, 1);
	for (i = 0; i < 3; i++) {
		assert_int_equal(lsk_fpm_route6_resolve(t, &ops[i].route,
					iface_of, NULL, &l, &cnt), 0);
		assert_int_equal(l.type, want[i]);
		assert_int_equal(l.n_paths, 0);
		assert_int_equal(l.prefix.a[5], i);
	}
	lsk_fpm_nh_table_free(t);
}

/* RTA_MULTIPATH: weights, a link-local gateway on our interface and one
 * on an interface not ours (left out), a path given twice (one). */
static void
test_multipath6(void **state)
{
	struct lsk_fpm_nh_table *t = lsk_fpm_nh_table_new(4);
	struct lsk_route6_learned l;
	struct lsk_fpm_stats cnt;

	(void)state;
	assert_non_null(t);
	fb_frame_begin(&b);
	fb_route6(&b, RTM_NEWROUTE, NLM_F_CREATE, NET1, 48, RTN_UNICAST,
		  RTPROT_BGP);
	fb_multipath_begin(&b);
	fb_rtnh6(&b, GW_A, 6, 0);
	fb_rtnh6(&b, LL_C, 7, 2);
	fb_rtnh6(&b, LL_C, 42, 0);	/* not ours: nowhere */
	fb_rtnh6(&b, GW_A, 6, 4);	/* the first again */
	fb_multipath_end(&b);
	fb_msg_end(&b);
	fb_frame_end(&b);

	assert_int_equal(decode_all(&cnt), 1);
	assert_int_equal(ops[0].route.n_paths, 4);
	assert_int_equal(ops[0].route.paths[1].weight, 3);
	gw_is(&ops[0].route.paths[1].gateway6, LL_C);
	assert_int_equal(lsk_fpm_route6_resolve(t, &ops[0].route, iface_of,
						NULL, &l, &cnt), 0);
	assert_int_equal(l.n_paths, 2);
	gw_is(&l.paths[0].gateway, GW_A);
	assert_int_equal(l.paths[0].iface, 0);
	assert_int_equal(l.paths[0].weight, 6);
	gw_is(&l.paths[1].gateway, LL_C);
	assert_int_equal(l.paths[1].iface, 1);
	assert_int_equal(l.paths[1].weight, 3);

	/* only the link-local gateway on no interface of ours: no path */
	memset(&b, 0, sizeof(b));
	fb_frame_begin(&b);
	route6_via(RTM_NEWROUTE, NET1, 48, LL_C, 42);
	fb_frame_end(&b);
	assert_int_equal(decode_all(&cnt), 1);
	assert_int_equal(lsk_fpm_route6_resolve(t, &ops[0].route, iface_of,
						NULL, &l, &cnt),
			 -ENETUNREACH);
	assert_int_equal(cnt.SkipNoPath, 1);
	lsk_fpm_nh_table_free(t);
}

/* Nexthop objects with IPv6 gateways, a weighted group of them; the
 * families kept apart; zebra's connected route (fe80::/64 on its own
 * interface nexthop). */
static void
test_nexthops6(void **state)
{
	struct lsk_fpm_nh_table *t = lsk_fpm_nh_table_new(16);
	struct nexthop_grp g[2] = { { .id = 1, .weight = 0 },
				    { .id = 2, .weight = 2 } };
	struct lsk_route6_learned l;
	struct lsk_route_learned l4;
	struct lsk_fpm_stats cnt;
	int i, n;

	(void)state;
	assert_non_null(t);
	fb_nh6_frame(&b, 1, GW_A, 6);
	fb_nh6_frame(&b, 2, LL_C, 7);
	fb_nh6_frame(&b, 3, NULL, 6);	/* the interface's own */
	fb_nh_frame(&b, 4, IP(10, 0, 0, 1), 6);	/* IPv4 */
	fb_frame_begin(&b);
	fb_nh(&b, RTM_NEWNEXTHOP, AF_UNSPEC, 10);
	fb_attr(&b, NHA_GROUP, g, sizeof(g));
	fb_msg_end(&b);
	fb_route6(&b, RTM_NEWROUTE, NLM_F_CREATE, NET1, 48, RTN_UNICAST,
		  ZEBRA_STATIC);
	fb_u32(&b, RTA_NH_ID, 10);
	fb_msg_end(&b);
	fb_route6(&b, RTM_NEWROUTE, NLM_F_CREATE, LL_NET, 64, RTN_UNICAST,
		  RTPROT_KERNEL);
	fb_u32(&b, RTA_NH_ID, 3);
	fb_msg_end(&b);
	fb_frame_end(&b);

	n = decode_all(&cnt);
	assert_int_equal(n, 7);
	for (i = 0; i < 5; i++) {
		assert_int_equal(ops[i].kind, LSK_FPM_OP_NH_ADD);
		assert_int_equal(lsk_fpm_nh_set(t, &ops[i].nh), 0);
	}
	assert_int_equal(ops[0].nh.unusable, 0);
	assert_int_equal(ops[0].nh.path.gw_family, AF_INET6);
	gw_is(&ops[0].nh.path.gateway6, GW_A);
	assert_int_equal(ops[5].route.nh_id, 10);

	memset(&cnt, 0, sizeof(cnt));
	assert_int_equal(lsk_fpm_route6_resolve(t, &ops[5].route, iface_of,
						NULL, &l, &cnt), 0);
	assert_int_equal(l.n_paths, 2);
	gw_is(&l.paths[0].gateway, GW_A);
	assert_int_equal(l.paths[0].iface, 0);
	assert_int_equal(l.paths[0].weight, 1);
	gw_is(&l.paths[1].gateway, LL_C);
	assert_int_equal(l.paths[1].iface, 1);
	assert_int_equal(l.paths[1].weight, 3);

	assert_int_equal(ops[6].route.depth, 64);
	assert_int_equal(lsk_fpm_route6_resolve(t, &ops[6].route, iface_of,
						NULL, &l, &cnt), -EEXIST);
	assert_int_equal(cnt.SkipConnected, 1);

	/* an IPv6 route naming an IPv4 nexthop, and the reverse */
	ops[5].route.nh_id = 4;
	assert_int_equal(lsk_fpm_route6_resolve(t, &ops[5].route, iface_of,
						NULL, &l, &cnt), -ENETUNREACH);
	assert_int_equal(cnt.SkipInet6, 1);
	ops[5].route = (struct lsk_fpm_route){ .family = AF_INET,
		.prefix = IP(10, 9, 0, 0), .depth = 16, .type = LSK_ROUTE_VIA,
		.proto = RTPROT_BGP, .nh_id = 1 };
	assert_int_equal(lsk_fpm_route_resolve(t, &ops[5].route, iface_of,
					       NULL, &l4, &cnt), -ENETUNREACH);
	assert_int_equal(cnt.SkipInet6, 2);
	assert_int_equal(cnt.SkipNoPath, 2);
	/* the group of both families: the IPv4 route gets its own one */
	ops[5].route.nh_id = 4;
	assert_int_equal(lsk_fpm_route_resolve(t, &ops[5].route, iface_of,
					       NULL, &l4, &cnt), 0);
	assert_int_equal(l4.n_paths, 1);
	assert_int_equal(l4.paths[0].gateway, IP(10, 0, 0, 1));
	lsk_fpm_nh_table_free(t);
}

/* The routes by nexthop id: IPv6 keys beside IPv4's, never mixed. */
static void
test_refs6(void **state)
{
	struct lsk_fpm_refs *r = lsk_fpm_refs_new();
	struct lsk_ip6_addr p = { .a = { 0x0a, 0x09 } };
	struct lsk_fpm_ref ref;
	unsigned int i, n6 = 0, n4 = 0;

	(void)state;
	assert_non_null(r);
	/* 10.9.0.0/16 and 0a09::/16: the same first bytes */
	assert_int_equal(lsk_fpm_refs_set(r, IP(10, 9, 0, 0), 16, 5, 1), 0);
	assert_int_equal(lsk_fpm_refs_set6(r, &p, 16, 6, 2), 0);
	for (i = 0; i < 3000; i++) {
		struct lsk_ip6_addr q = { .a = { 0x20, 0x01, 0x0d, 0xb8,
			(uint8_t)(i >> 8), (uint8_t)i } };

		assert_int_equal(lsk_fpm_refs_set6(r, &q, 48, 100 + i, 3), 0);
	}
	assert_int_equal(lsk_fpm_refs_count(r), 3002);
	for (i = 0; i < 3000; i += 2) {
		struct lsk_ip6_addr q = { .a = { 0x20, 0x01, 0x0d, 0xb8,
			(uint8_t)(i >> 8), (uint8_t)i } };

		assert_int_equal(lsk_fpm_refs_set6(r, &q, 48, 0, 0), 0);
	}
	assert_int_equal(lsk_fpm_refs_count(r), 1502);
	for (i = 0; i < lsk_fpm_refs_slots(r); i++) {
		if (!lsk_fpm_refs_at(r, i, &ref))
			continue;
		if (ref.family == AF_INET) {
			n4++;
			assert_int_equal(ref.prefix, IP(10, 9, 0, 0));
			assert_int_equal(ref.nh_id, 5);
		} else if (ref.depth == 16) {
			n6++;
			gw_is(&ref.prefix6, p.a);
			assert_int_equal(ref.nh_id, 6);
			assert_int_equal(ref.proto, 2);
		} else {
			n6++;
			assert_int_equal(ref.family, AF_INET6);
			assert_int_equal((ref.prefix6.a[4] << 8 |
					  ref.prefix6.a[5]) % 2, 1);
			assert_int_equal(ref.nh_id, 100 +
				(ref.prefix6.a[4] << 8 | ref.prefix6.a[5]));
		}
	}
	assert_int_equal(n4, 1);
	assert_int_equal(n6, 1501);
	lsk_fpm_refs_free(r);
}

/* One good IPv6 route with a multipath; offsets of its parts. */
struct offs {
	size_t frame, msg, dst, gw, rtnh;
};

static void
build_one(struct offs *o)
{
	memset(&b, 0, sizeof(b));
	o->frame = b.len;
	fb_frame_begin(&b);
	o->msg = b.len;
	fb_route6(&b, RTM_NEWROUTE, 0, NET1, 48, RTN_UNICAST, RTPROT_BGP);
	o->dst = o->msg + NLMSG_HDRLEN + sizeof(struct rtmsg);
	o->gw = b.len;
	fb_attr(&b, RTA_GATEWAY, GW_A, 16);
	fb_multipath_begin(&b);
	o->rtnh = b.len;
	fb_rtnh6(&b, GW_B, 7, 0);
	fb_multipath_end(&b);
	fb_msg_end(&b);
	fb_frame_end(&b);
}

/* An attribute of 4 bytes where 16 belong: it and what follows shift. */
static void
shrink_attr(size_t at)
{
	uint16_t len;
	size_t msg_len, frame_len;

	memcpy(&len, b.buf + at, 2);
	memmove(b.buf + at + 8, b.buf + at + 20, b.len - at - 20);
	b.len -= 12;
	set16(at, 8);
	memcpy(&msg_len, b.buf + 4, 4);
	msg_len = (uint32_t)msg_len - 12;
	memcpy(b.buf + 4, &msg_len, 4);
	frame_len = b.len;
	b.buf[2] = (uint8_t)(frame_len >> 8);
	b.buf[3] = (uint8_t)frame_len;
	(void)len;
}

static void
test_malformed6(void **state)
{
	struct lsk_fpm_stats cnt;
	struct rtmsg *rtm;
	struct offs o;
	size_t cut;

	(void)state;
	build_one(&o);
	assert_int_equal(decode_all(&cnt), 1);
	assert_int_equal(ops[0].route.n_paths, 1);	/* RTA_MULTIPATH's */

	build_one(&o);
	shrink_attr(o.dst);		/* RTA_DST of 4 bytes */
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);
	build_one(&o);
	shrink_attr(o.gw);		/* RTA_GATEWAY of 4 bytes */
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);
	build_one(&o);
	shrink_attr(o.rtnh + sizeof(struct rtnexthop));	/* in the rtnh */
	assert_int_equal(decode_err(), LSK_FPM_ERR_ATTR);
	build_one(&o);
	rtm = (struct rtmsg *)(b.buf + o.msg + NLMSG_HDRLEN);
	rtm->rtm_dst_len = 129;
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);
	build_one(&o);
	rtm = (struct rtmsg *)(b.buf + o.msg + NLMSG_HDRLEN);
	rtm->rtm_dst_len = 47;		/* 2001:db8:1::/47: a host bit */
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);
	build_one(&o);
	b.buf[o.dst + 4 + 15] = 1;	/* a host bit at the very end */
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);
	build_one(&o);
	set16(o.dst, 1000);		/* past its message */
	assert_int_equal(decode_err(), LSK_FPM_ERR_ATTR);
	build_one(&o);
	set16(o.rtnh, 200);		/* rtnh_len past its attribute */
	assert_int_equal(decode_err(), LSK_FPM_ERR_ATTR);
	build_one(&o);
	set16(o.rtnh + sizeof(struct rtnexthop), 100);
	assert_int_equal(decode_err(), LSK_FPM_ERR_ATTR);

	/* an IPv6 nexthop with a 4-byte gateway, one with 15 */
	nh_one_attr(AF_INET6, 1, NHA_GATEWAY, "\x0a\0\0\x01", 4);
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);
	nh_one_attr(AF_INET6, 1, NHA_GATEWAY, GW_A, 15);
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);
	/* zebra's AF_UNSPEC nexthop (an onlink static's) and an IPv4 one
	 * (RFC 5549) with a 16-byte gateway: an IPv6 gateway; with 8
	 * bytes, neither */
	memset(&b, 0, sizeof(b));
	fb_frame_begin(&b);
	fb_nh(&b, RTM_NEWNEXTHOP, AF_UNSPEC, 1);
	fb_attr(&b, NHA_GATEWAY, GW_A, 16);
	fb_u32(&b, NHA_OIF, 6);
	fb_msg_end(&b);
	fb_nh(&b, RTM_NEWNEXTHOP, AF_INET, 2);
	fb_attr(&b, NHA_GATEWAY, GW_B, 16);
	fb_msg_end(&b);
	fb_frame_end(&b);
	assert_int_equal(decode_all(&cnt), 2);
	assert_int_equal(ops[0].nh.path.gw_family, AF_INET6);
	gw_is(&ops[0].nh.path.gateway6, GW_A);
	assert_int_equal(ops[1].nh.path.gw_family, AF_INET6);
	gw_is(&ops[1].nh.path.gateway6, GW_B);
	memset(&b, 0, sizeof(b));
	fb_frame_begin(&b);
	fb_nh(&b, RTM_NEWNEXTHOP, AF_UNSPEC, 1);
	fb_attr(&b, NHA_GATEWAY, GW_A, 8);
	fb_msg_end(&b);
	fb_frame_end(&b);
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);

	/* cut anywhere: the frame waits, whole (ASan: no read past) */
	build_one(&o);
	for (cut = 0; cut < b.len; cut++) {
		enum lsk_fpm_err err;
		size_t used;

		assert_int_equal(decode(cut, &used, &cnt, &err), 0);
		assert_int_equal(used, 0);
	}
}

/* Unknown attributes, some past our table of them: passed over. */
static void
test_unknown_attrs6(void **state)
{
	struct lsk_fpm_stats cnt;
	uint8_t junk[5] = { 1, 2, 3, 4, 5 };

	(void)state;
	fb_frame_begin(&b);
	fb_route6(&b, RTM_NEWROUTE, 0, NET1, 48, RTN_UNICAST, ZEBRA_STATIC);
	fb_attr(&b, RTA_PREF, junk, 1);
	fb_attr(&b, 200, junk, 5);
	fb_attr(&b, RTA_GATEWAY, GW_A, 16);
	fb_attr(&b, RTA_PREFSRC, GW_B, 16);
	fb_u32(&b, RTA_OIF, 6);
	fb_msg_end(&b);
	fb_frame_end(&b);
	assert_int_equal(decode_all(&cnt), 1);
	gw_is(&ops[0].route.paths[0].gateway6, GW_A);
}

/* Every byte changed: refused with a reason, or taken, never more. */
static void
test_every_byte6(void **state)
{
	struct lsk_fpm_nh_table *t = lsk_fpm_nh_table_new(8);
	struct lsk_route6_learned l;
	struct lsk_fpm_stats cnt;
	enum lsk_fpm_err err;
	struct offs o;
	size_t i, used;
	unsigned int v;

	(void)state;
	assert_non_null(t);
	build_one(&o);
	fb_nh6_frame(&b, 1, LL_C, 6);
	for (i = 0; i < b.len; i++) {
		uint8_t save = b.buf[i];

		for (v = 0; v < 256; v += 17) {
			int rc, k;

			b.buf[i] = (uint8_t)v;
			rc = decode(b.len, &used, &cnt, &err);
			assert_true(rc == -EBADMSG || (rc >= 0 &&
							used <= b.len));
			for (k = 0; k < rc; k++)
				if (ops[k].kind == LSK_FPM_OP_ROUTE &&
				    ops[k].route.family == AF_INET6 &&
				    lsk_fpm_route6_resolve(t, &ops[k].route,
					iface_of, NULL, &l, &cnt) == 0)
					assert_true(l.n_paths <=
						    LSK_ROUTE_MAX_PATHS);
		}
		b.buf[i] = save;
	}
	lsk_fpm_nh_table_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_route6, reset),
		cmocka_unit_test_setup(test_types6, reset),
		cmocka_unit_test_setup(test_multipath6, reset),
		cmocka_unit_test_setup(test_nexthops6, reset),
		cmocka_unit_test_setup(test_refs6, reset),
		cmocka_unit_test_setup(test_malformed6, reset),
		cmocka_unit_test_setup(test_unknown_attrs6, reset),
		cmocka_unit_test_setup(test_every_byte6, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
