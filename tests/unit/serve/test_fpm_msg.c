/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FPM reader (serve/fpm_msg.c) on frames built as zebra's
 * dplane_fpm_nl writes them (fpm_build.h): add, replace, delete,
 * multipath with weights, nexthops and groups, a DEL and a NEW in one
 * frame, several messages a frame, a stream cut anywhere, truncated and
 * lying lengths at every level, what is passed over; and the nexthop
 * table and route resolution (serve/fpm_nh.c).
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


static void
route_via(uint16_t type, uint16_t flags, uint32_t prefix, uint8_t depth,
	  uint32_t gw, uint32_t oif, uint8_t proto)
{
	fb_route(&b, type, flags, prefix, depth, RTN_UNICAST, proto);
	fb_addr(&b, RTA_GATEWAY, gw);
	fb_u32(&b, RTA_OIF, oif);
	fb_msg_end(&b);
}

static void
test_add_replace_delete(void **state)
{
	struct lsk_fpm_stats cnt;
	const struct lsk_fpm_route *r;

	(void)state;
	fb_frame_begin(&b);
	route_via(RTM_NEWROUTE, NLM_F_CREATE, IP(10, 9, 0, 0), 16,
		  IP(10, 0, 1, 1), 7, RTPROT_BGP);
	fb_frame_end(&b);
	fb_frame_begin(&b);
	route_via(RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE, IP(10, 9, 0, 0),
		  16, IP(10, 0, 0, 1), 6, RTPROT_OSPF);
	fb_frame_end(&b);
	fb_frame_begin(&b);
	fb_route(&b, RTM_DELROUTE, 0, IP(10, 9, 0, 0), 16, RTN_UNICAST,
		 RTPROT_OSPF);
	fb_msg_end(&b);
	fb_frame_end(&b);
	fb_frame_begin(&b);	/* the default route: no RTA_DST */
	route_via(RTM_NEWROUTE, NLM_F_CREATE, 0, 0, IP(10, 0, 1, 254), 7,
		  RTPROT_BGP);
	fb_frame_end(&b);

	assert_int_equal(decode_all(&cnt), 4);
	assert_int_equal(cnt.Frames, 4);
	assert_int_equal(cnt.Messages, 4);
	r = &ops[0].route;
	assert_int_equal(ops[0].kind, LSK_FPM_OP_ROUTE);
	assert_int_equal(r->prefix, IP(10, 9, 0, 0));
	assert_int_equal(r->depth, 16);
	assert_int_equal(r->withdraw, 0);
	assert_int_equal(r->type, LSK_ROUTE_VIA);
	assert_int_equal(r->proto, RTPROT_BGP);
	assert_int_equal(r->nh_id, 0);
	assert_int_equal(r->n_paths, 1);
	assert_int_equal(r->paths[0].gateway, IP(10, 0, 1, 1));
	assert_int_equal(r->paths[0].ifindex, 7);
	assert_int_equal(r->paths[0].weight, 1);
	r = &ops[1].route;
	assert_int_equal(r->proto, RTPROT_OSPF);
	assert_int_equal(r->paths[0].gateway, IP(10, 0, 0, 1));
	assert_int_equal(r->paths[0].ifindex, 6);
	r = &ops[2].route;
	assert_int_equal(r->withdraw, 1);
	assert_int_equal(r->prefix, IP(10, 9, 0, 0));
	assert_int_equal(r->depth, 16);
	r = &ops[3].route;
	assert_int_equal(r->prefix, 0);
	assert_int_equal(r->depth, 0);
	assert_int_equal(r->paths[0].gateway, IP(10, 0, 1, 254));
}

static void
test_types(void **state)
{
	static const uint8_t rtn[] = { RTN_BLACKHOLE, RTN_UNREACHABLE,
				       RTN_PROHIBIT };
	static const uint8_t want[] = { LSK_ROUTE_BLACKHOLE,
					LSK_ROUTE_UNREACHABLE,
					LSK_ROUTE_PROHIBIT };
	struct lsk_fpm_stats cnt;
	unsigned int i;

	(void)state;
	fb_frame_begin(&b);
	for (i = 0; i < RTE_DIM(rtn); i++) {
		fb_route(&b, RTM_NEWROUTE, 0, IP(192, 0, 2, i * 4), 30, rtn[i],
			 ZEBRA_STATIC);
		fb_msg_end(&b);
	}
	fb_frame_end(&b);
	assert_int_equal(decode_all(&cnt), 3);
	for (i = 0; i < RTE_DIM(rtn); i++) {
		assert_int_equal(ops[i].route.type, want[i]);
		assert_int_equal(ops[i].route.n_paths, 0);
		assert_int_equal(ops[i].route.prefix, IP(192, 0, 2, i * 4));
		assert_int_equal(ops[i].route.proto, ZEBRA_STATIC);
	}
}

static void
build_multipath(void)
{
	unsigned int i;

	fb_frame_begin(&b);
	fb_route(&b, RTM_NEWROUTE, 0, IP(10, 8, 0, 0), 16, RTN_UNICAST,
		 RTPROT_BGP);
	fb_multipath_begin(&b);
	fb_rtnh(&b, IP(10, 0, 0, 1), 6, 0);
	fb_rtnh(&b, IP(10, 0, 1, 1), 7, 2);
	fb_rtnh(&b, IP(10, 0, 1, 2), 7, 255);
	fb_multipath_end(&b);
	fb_msg_end(&b);
	/* 20 paths: 16 kept, 4 cut */
	fb_route(&b, RTM_NEWROUTE, 0, IP(10, 7, 0, 0), 16, RTN_UNICAST,
		 RTPROT_BGP);
	fb_multipath_begin(&b);
	for (i = 0; i < 20; i++)
		fb_rtnh(&b, IP(10, 0, 1, 10 + i), 7, 0);
	fb_multipath_end(&b);
	fb_msg_end(&b);
	fb_frame_end(&b);
}

static void
test_multipath(void **state)
{
	struct lsk_fpm_stats cnt;
	const struct lsk_fpm_route *r;

	(void)state;
	build_multipath();
	assert_int_equal(decode_all(&cnt), 2);
	r = &ops[0].route;
	assert_int_equal(r->n_paths, 3);
	assert_int_equal(r->paths[0].gateway, IP(10, 0, 0, 1));
	assert_int_equal(r->paths[0].ifindex, 6);
	assert_int_equal(r->paths[0].weight, 1);
	assert_int_equal(r->paths[1].gateway, IP(10, 0, 1, 1));
	assert_int_equal(r->paths[1].weight, 3);
	assert_int_equal(r->paths[2].weight, 256);
	assert_int_equal(ops[1].route.n_paths, LSK_FPM_PATHS_MAX);
	assert_int_equal(ops[1].route.paths[15].gateway, IP(10, 0, 1, 25));
	assert_int_equal(cnt.PathsCut, 4);
}

/* Nexthops 1 and 2, group 10 of them (weights 1 and 3), route via 10. */
static void
build_group(void)
{
	struct nexthop_grp g[2] = {
		{ .id = 1, .weight = 0 }, { .id = 2, .weight = 2 },
	};

	fb_nh_frame(&b, 1, IP(10, 0, 0, 1), 6);
	fb_nh_frame(&b, 2, IP(10, 0, 1, 1), 7);
	fb_frame_begin(&b);
	fb_nh(&b, RTM_NEWNEXTHOP, AF_UNSPEC, 10);
	fb_attr(&b, NHA_GROUP, g, sizeof(g));
	fb_msg_end(&b);
	fb_frame_end(&b);
	fb_frame_begin(&b);
	fb_route(&b, RTM_NEWROUTE, 0, IP(10, 6, 0, 0), 16, RTN_UNICAST,
		 RTPROT_BGP);
	fb_u32(&b, RTA_NH_ID, 10);
	fb_msg_end(&b);
	fb_frame_end(&b);
}

static void
test_nexthops(void **state)
{
	struct lsk_fpm_stats cnt;

	(void)state;
	build_group();
	fb_frame_begin(&b);
	fb_nh(&b, RTM_NEWNEXTHOP, AF_INET, 3);
	fb_attr(&b, NHA_BLACKHOLE, NULL, 0);
	fb_msg_end(&b);
	fb_nh(&b, RTM_DELNEXTHOP, AF_UNSPEC, 10);
	fb_msg_end(&b);
	fb_frame_end(&b);

	assert_int_equal(decode_all(&cnt), 6);
	assert_int_equal(ops[0].kind, LSK_FPM_OP_NH_ADD);
	assert_int_equal(ops[0].nh.id, 1);
	assert_int_equal(ops[0].nh.n_group, 0);
	assert_int_equal(ops[0].nh.path.gateway, IP(10, 0, 0, 1));
	assert_int_equal(ops[0].nh.path.ifindex, 6);
	assert_int_equal(ops[2].nh.id, 10);
	assert_int_equal(ops[2].nh.n_group, 2);
	assert_int_equal(ops[2].nh.group[0].id, 1);
	assert_int_equal(ops[2].nh.group[0].weight, 1);
	assert_int_equal(ops[2].nh.group[1].id, 2);
	assert_int_equal(ops[2].nh.group[1].weight, 3);
	assert_int_equal(ops[3].kind, LSK_FPM_OP_ROUTE);
	assert_int_equal(ops[3].route.nh_id, 10);
	assert_int_equal(ops[3].route.n_paths, 0);
	assert_int_equal(ops[4].nh.blackhole, 1);
	assert_int_equal(ops[5].kind, LSK_FPM_OP_NH_DEL);
	assert_int_equal(ops[5].nh.id, 10);
}

/* The ifindex map of the tests: 6 is iface 0, 7 iface 1. */
static int
iface_of(void *arg, uint32_t ifindex)
{
	(void)arg;
	return ifindex == 6 ? 0 : ifindex == 7 ? 1 : -ENOENT;
}

static void
test_resolve(void **state)
{
	struct lsk_fpm_nh_table *t = lsk_fpm_nh_table_new(16);
	struct lsk_fpm_stats cnt;
	struct lsk_route_learned l;
	struct lsk_fpm_route r;
	struct lsk_fpm_nh nh;
	int i, n;

	(void)state;
	assert_non_null(t);
	build_group();
	n = decode_all(&cnt);
	assert_int_equal(n, 4);
	for (i = 0; i < 3; i++)
		assert_int_equal(lsk_fpm_nh_set(t, &ops[i].nh), 0);
	memset(&cnt, 0, sizeof(cnt));
	assert_int_equal(lsk_fpm_route_resolve(t, &ops[3].route, iface_of,
					       NULL, &l, &cnt), 0);
	assert_int_equal(l.prefix, IP(10, 6, 0, 0));
	assert_int_equal(l.type, LSK_ROUTE_VIA);
	assert_int_equal(l.proto, RTPROT_BGP);
	assert_int_equal(l.n_paths, 2);
	assert_int_equal(l.paths[0].gateway, IP(10, 0, 0, 1));
	assert_int_equal(l.paths[0].iface, 0);
	assert_int_equal(l.paths[0].weight, 1);
	assert_int_equal(l.paths[1].gateway, IP(10, 0, 1, 1));
	assert_int_equal(l.paths[1].iface, 1);
	assert_int_equal(l.paths[1].weight, 3);

	/* a group of groups: 20 = {10 w2, 1 w1}: 1 twice is one path */
	nh = (struct lsk_fpm_nh){ .id = 20, .n_group = 2,
		.group = { { 10, 2 }, { 1, 1 } } };
	assert_int_equal(lsk_fpm_nh_set(t, &nh), 0);
	r = ops[3].route;
	r.nh_id = 20;
	assert_int_equal(lsk_fpm_route_resolve(t, &r, iface_of, NULL, &l,
					       &cnt), 0);
	assert_int_equal(l.n_paths, 2);
	assert_int_equal(l.paths[0].weight, 3);
	assert_int_equal(l.paths[1].weight, 6);

	/* unknown group; a blackhole nexthop */
	r.nh_id = 99;
	assert_int_equal(lsk_fpm_route_resolve(t, &r, iface_of, NULL, &l,
					       &cnt), -ENOENT);
	assert_int_equal(cnt.SkipNoNexthop, 1);
	nh = (struct lsk_fpm_nh){ .id = 30, .blackhole = 1 };
	assert_int_equal(lsk_fpm_nh_set(t, &nh), 0);
	r.nh_id = 30;
	assert_int_equal(lsk_fpm_route_resolve(t, &r, iface_of, NULL, &l,
					       &cnt), 0);
	assert_int_equal(l.type, LSK_ROUTE_BLACKHOLE);
	assert_int_equal(l.n_paths, 0);

	/* an ifindex not ours: the gateway's subnet decides; without a
	 * gateway the path goes, and with it the route */
	r = (struct lsk_fpm_route){ .prefix = IP(10, 5, 0, 0), .depth = 16,
		.type = LSK_ROUTE_VIA, .proto = RTPROT_BGP, .n_paths = 2,
		.paths = { { IP(10, 0, 1, 9), 42, 1 }, { 0, 43, 1 } } };
	assert_int_equal(lsk_fpm_route_resolve(t, &r, iface_of, NULL, &l,
					       &cnt), 0);
	assert_int_equal(l.n_paths, 1);
	assert_int_equal(l.paths[0].iface, LSK_IFACE_ANY);
	assert_int_equal(l.paths[0].gateway, IP(10, 0, 1, 9));
	r.paths[0].gateway = 0;
	assert_int_equal(lsk_fpm_route_resolve(t, &r, iface_of, NULL, &l,
					       &cnt), -ENETUNREACH);
	assert_int_equal(cnt.SkipNoPath, 1);
	/* on-link on one of ours */
	r.paths[0].ifindex = 7;
	assert_int_equal(lsk_fpm_route_resolve(t, &r, iface_of, NULL, &l,
					       &cnt), 0);
	assert_int_equal(l.n_paths, 1);
	assert_int_equal(l.paths[0].gateway, 0);
	assert_int_equal(l.paths[0].iface, 1);
	/* a withdrawal needs no path */
	r.withdraw = 1;
	r.n_paths = 0;
	assert_int_equal(lsk_fpm_route_resolve(t, &r, iface_of, NULL, &l,
					       &cnt), 0);
	assert_int_equal(l.withdraw, 1);

	assert_int_equal(lsk_fpm_nh_del(t, 10), 0);
	assert_int_equal(lsk_fpm_nh_del(t, 10), -ENOENT);
	assert_null(lsk_fpm_nh_find(t, 10));
	lsk_fpm_nh_table_free(t);
}

/* Many ids, added and deleted in turns: the table finds what it holds
 * and only that, and keeps its bound. */
static void
test_nh_table(void **state)
{
	struct lsk_fpm_nh_table *t = lsk_fpm_nh_table_new(3000);
	struct lsk_fpm_nh nh = { 0 };
	uint32_t id;

	(void)state;
	assert_non_null(t);
	for (id = 1; id <= 3000; id++) {
		nh.id = id * 64;	/* ids alike in their low bits */
		nh.path.gateway = id;
		assert_int_equal(lsk_fpm_nh_set(t, &nh), 0);
	}
	nh.id = 1;
	assert_int_equal(lsk_fpm_nh_set(t, &nh), -ENOSPC);
	nh.id = 64;	/* a replacement is no new id */
	assert_int_equal(lsk_fpm_nh_set(t, &nh), 0);
	for (id = 1; id <= 3000; id += 2)
		assert_int_equal(lsk_fpm_nh_del(t, id * 64), 0);
	assert_int_equal(lsk_fpm_nh_count(t), 1500);
	for (id = 1; id <= 3000; id++) {
		const struct lsk_fpm_nh *f = lsk_fpm_nh_find(t, id * 64);

		if (id % 2)
			assert_null(f);
		else
			assert_true(f != NULL && f->path.gateway == id);
	}
	lsk_fpm_nh_table_free(t);
}

/* The routes by nexthop: set, replaced, removed, walked; grown past its
 * first size. */
static void
test_refs(void **state)
{
	struct lsk_fpm_refs *r = lsk_fpm_refs_new();
	struct lsk_fpm_ref ref;
	unsigned int i, n = 0, sum = 0;

	(void)state;
	assert_non_null(r);
	for (i = 0; i < 5000; i++)
		assert_int_equal(lsk_fpm_refs_set(r, IP(10, i >> 8, i & 255, 0),
						  24, i % 7 + 1, 186), 0);
	for (i = 0; i < 5000; i += 2)	/* the even ones go */
		assert_int_equal(lsk_fpm_refs_set(r, IP(10, i >> 8, i & 255, 0),
						  24, 0, 186), 0);
	/* replaced: the same route, another id */
	assert_int_equal(lsk_fpm_refs_set(r, IP(10, 0, 1, 0), 24, 99, 188), 0);
	assert_int_equal(lsk_fpm_refs_set(r, IP(10, 0, 2, 0), 24, 0, 0), 0);
	assert_int_equal(lsk_fpm_refs_count(r), 2500);
	for (i = 0; i < lsk_fpm_refs_slots(r); i++) {
		if (!lsk_fpm_refs_at(r, i, &ref))
			continue;
		n++;
		assert_int_equal(ref.depth, 24);
		assert_int_equal((ref.prefix >> 8) & 1, 1);	/* odd */
		if (ref.prefix == IP(10, 0, 1, 0)) {
			assert_int_equal(ref.nh_id, 99);
			assert_int_equal(ref.proto, 188);
		}
		sum += ref.nh_id;
	}
	assert_int_equal(n, 2500);
	assert_true(sum > 2500);
	lsk_fpm_refs_free(r);
}

/* A DEL then a NEW of one prefix in one frame (SONiC saw it), and
 * messages of several kinds in one frame: all, in order. */
static void
build_del_new(void)
{
	fb_frame_begin(&b);
	fb_route(&b, RTM_DELROUTE, 0, IP(10, 9, 0, 0), 16, RTN_UNICAST,
		 RTPROT_BGP);
	fb_msg_end(&b);
	route_via(RTM_NEWROUTE, NLM_F_CREATE, IP(10, 9, 0, 0), 16,
		  IP(10, 0, 1, 2), 7, RTPROT_BGP);
	fb_nh(&b, RTM_NEWNEXTHOP, AF_INET, 5);
	fb_u32(&b, NHA_OIF, 7);
	fb_msg_end(&b);
	route_via(RTM_NEWROUTE, NLM_F_CREATE, IP(10, 10, 0, 0), 16,
		  IP(10, 0, 1, 2), 7, RTPROT_BGP);
	fb_frame_end(&b);
}

static void
test_del_new_one_frame(void **state)
{
	struct lsk_fpm_stats cnt;

	(void)state;
	build_del_new();
	assert_int_equal(decode_all(&cnt), 4);
	assert_int_equal(cnt.Frames, 1);
	assert_int_equal(ops[0].route.withdraw, 1);
	assert_int_equal(ops[1].route.withdraw, 0);
	assert_int_equal(ops[1].route.prefix, IP(10, 9, 0, 0));
	assert_int_equal(ops[1].route.paths[0].gateway, IP(10, 0, 1, 2));
	assert_int_equal(ops[2].kind, LSK_FPM_OP_NH_ADD);
	assert_int_equal(ops[2].nh.path.gateway, 0);
	assert_int_equal(ops[2].nh.path.ifindex, 7);
	assert_int_equal(ops[3].route.prefix, IP(10, 10, 0, 0));
}

/* What is passed over: counted, not an error. */
static void
test_skipped(void **state)
{
	struct rtmsg rtm_mpls = { .rtm_family = AF_MPLS,
				  .rtm_table = RT_TABLE_MAIN,
				  .rtm_type = RTN_UNICAST };
	uint8_t a6[16] = { 0x20, 0x01, 0x0d, 0xb8 };
	struct lsk_fpm_nh_table *t = lsk_fpm_nh_table_new(4);
	struct lsk_route_learned l;
	struct lsk_fpm_stats cnt;
	struct rtmsg *rtm;

	(void)state;
	assert_non_null(t);
	fb_frame_begin(&b);
	fb_msg_begin(&b, RTM_NEWROUTE, 0);	/* MPLS (IPv6: test_fpm_msg6) */
	fb_put(&b, &rtm_mpls, sizeof(rtm_mpls));
	fb_msg_end(&b);
	fb_msg_begin(&b, RTM_NEWLINK, 0);	/* not a route */
	fb_put(&b, NULL, 16);
	fb_msg_end(&b);
	fb_msg_begin(&b, NLMSG_NOOP, 0);
	fb_msg_end(&b);
	route_via(RTM_NEWROUTE, 0, IP(10, 1, 0, 0), 16, IP(10, 0, 0, 1), 6,
		  RTPROT_BGP);
	rtm = (struct rtmsg *)(b.buf + b.msg + NLMSG_HDRLEN);
	rtm->rtm_table = 10;	/* another table */
	route_via(RTM_NEWROUTE, 0, IP(10, 2, 0, 0), 16, IP(10, 0, 0, 1), 6,
		  RTPROT_BGP);
	rtm = (struct rtmsg *)(b.buf + b.msg + NLMSG_HDRLEN);
	rtm->rtm_table = RT_TABLE_UNSPEC;
	fb_u32(&b, RTA_TABLE, 1000);	/* RTA_TABLE says which */
	fb_msg_end(&b);
	fb_route(&b, RTM_NEWROUTE, 0, IP(10, 0, 0, 0), 24, RTN_UNICAST,
		 RTPROT_KERNEL);	/* connected */
	fb_u32(&b, RTA_OIF, 6);
	fb_msg_end(&b);
	fb_route(&b, RTM_NEWROUTE, 0, IP(10, 0, 0, 255), 32, RTN_BROADCAST,
		 RTPROT_BGP);
	fb_msg_end(&b);
	fb_route(&b, RTM_NEWROUTE, 0, IP(10, 3, 0, 0), 16, RTN_UNICAST,
		 RTPROT_BGP);	/* no nexthop at all */
	fb_msg_end(&b);
	fb_route(&b, RTM_NEWROUTE, 0, IP(10, 4, 0, 0), 16, RTN_UNICAST,
		 RTPROT_BGP);	/* RTA_VIA: an IPv6 gateway */
	fb_attr(&b, RTA_VIA, a6, 16);
	fb_u32(&b, RTA_OIF, 6);
	fb_msg_end(&b);
	fb_frame_end(&b);

	/* the connected route, which only its resolution tells */
	assert_int_equal(decode_all(&cnt), 1);
	assert_int_equal(ops[0].route.proto, RTPROT_KERNEL);
	assert_int_equal(lsk_fpm_route_resolve(t, &ops[0].route, iface_of,
					       NULL, &l, &cnt), -EEXIST);
	lsk_fpm_nh_table_free(t);
	assert_int_equal(cnt.Messages, 9);
	assert_int_equal(cnt.SkipFamily, 1);
	assert_int_equal(cnt.SkipMsgType, 2);
	assert_int_equal(cnt.SkipTable, 2);
	assert_int_equal(cnt.SkipConnected, 1);
	assert_int_equal(cnt.SkipType, 1);
	assert_int_equal(cnt.SkipNoPath, 1);
	assert_int_equal(cnt.SkipEncap, 1);
}

static void
op_equal(const struct lsk_fpm_op *a, const struct lsk_fpm_op *b)
{
	unsigned int i;

	assert_int_equal(a->kind, b->kind);
	if (a->kind == LSK_FPM_OP_ROUTE) {
		assert_memory_equal(&a->route, &b->route,
				    offsetof(struct lsk_fpm_route, paths));
		for (i = 0; i < a->route.n_paths; i++) {
			assert_int_equal(a->route.paths[i].gateway,
					 b->route.paths[i].gateway);
			assert_int_equal(a->route.paths[i].ifindex,
					 b->route.paths[i].ifindex);
			assert_int_equal(a->route.paths[i].weight,
					 b->route.paths[i].weight);
		}
		return;
	}
	assert_memory_equal(&a->nh, &b->nh, offsetof(struct lsk_fpm_nh, group));
	for (i = 0; i < a->nh.n_group; i++) {
		assert_int_equal(a->nh.group[i].id, b->nh.group[i].id);
		assert_int_equal(a->nh.group[i].weight, b->nh.group[i].weight);
	}
}

/* A stream cut anywhere gives, read in two parts, what it gives whole. */
static void
test_split(void **state)
{
	static struct lsk_fpm_op whole[64];
	struct lsk_fpm_stats cnt;
	enum lsk_fpm_err err;
	size_t cut, used, used2;
	int i, n, n1, n2;

	(void)state;
	build_group();
	build_del_new();
	memset(&cnt, 0, sizeof(cnt));
	n = lsk_fpm_decode(b.buf, b.len, whole, RTE_DIM(whole), &cnt, &used,
			   &err);
	assert_int_equal(n, 8);
	for (cut = 0; cut <= b.len; cut++) {
		uint8_t *head = malloc(cut ? cut : 1);
		size_t rest = b.len - cut;

		assert_non_null(head);
		memcpy(head, b.buf, cut);
		n1 = lsk_fpm_decode(head, cut, ops, OPS_CAP, &cnt, &used, &err);
		free(head);
		assert_true(n1 >= 0 && used <= cut);
		/* the next read: what was left, then the rest */
		n2 = lsk_fpm_decode(b.buf + used, b.len - used, ops + n1,
				    OPS_CAP - (unsigned int)n1, &cnt, &used2,
				    &err);
		assert_int_equal(n1 + n2, n);
		assert_int_equal(used + used2, b.len);
		for (i = 0; i < n; i++)
			op_equal(&ops[i], &whole[i]);
		(void)rest;
	}
}

/* Room for fewer ops than a frame holds: the frame waits, whole. */
static void
test_ops_full(void **state)
{
	struct lsk_fpm_stats cnt = { 0 };
	enum lsk_fpm_err err;
	size_t used;
	int n;

	(void)state;
	build_del_new();	/* one frame of 4 */
	fb_nh_frame(&b, 1, IP(10, 0, 0, 1), 6);
	n = lsk_fpm_decode(b.buf, b.len, ops, 3, &cnt, &used, &err);
	assert_int_equal(n, 0);
	assert_int_equal(used, 0);
	n = lsk_fpm_decode(b.buf, b.len, ops, 4, &cnt, &used, &err);
	assert_int_equal(n, 4);
	assert_int_not_equal(used, b.len);
	n = lsk_fpm_decode(b.buf + used, b.len - used, ops, 4, &cnt, &used,
			   &err);
	assert_int_equal(n, 1);
	assert_true(lsk_fpm_ops_per_frame() > 2000);
}

/* One good route message; the offsets of its parts into *o. */
struct offs {
	size_t frame, msg, dst, gw, mp, rtnh;
};

static void
build_one(struct offs *o)
{
	memset(&b, 0, sizeof(b));
	o->frame = b.len;
	fb_frame_begin(&b);
	o->msg = b.len;
	fb_route(&b, RTM_NEWROUTE, 0, IP(10, 9, 0, 0), 16, RTN_UNICAST,
		 RTPROT_BGP);
	o->dst = o->msg + NLMSG_HDRLEN + sizeof(struct rtmsg);
	o->gw = b.len;
	fb_addr(&b, RTA_GATEWAY, IP(10, 0, 1, 1));
	o->mp = b.len;
	fb_multipath_begin(&b);
	o->rtnh = b.len;
	fb_rtnh(&b, IP(10, 0, 1, 1), 7, 0);
	fb_multipath_end(&b);
	fb_msg_end(&b);
	fb_frame_end(&b);
}

/* Lying and short lengths at every level, and values that cannot be. */
static void
test_malformed(void **state)
{
	const uint32_t one = 1;
	struct lsk_fpm_stats cnt;
	struct offs o;

	(void)state;
	build_one(&o);
	assert_int_equal(decode_all(&cnt), 1);

	b.buf[o.frame] = 2;		/* FPM version */
	assert_int_equal(decode_err(), LSK_FPM_ERR_FRAME);
	build_one(&o);
	b.buf[o.frame + 1] = 2;		/* protobuf */
	assert_int_equal(decode_err(), LSK_FPM_ERR_FRAME);
	build_one(&o);
	b.buf[o.frame + 2] = 0;
	b.buf[o.frame + 3] = 3;		/* shorter than its header */
	assert_int_equal(decode_err(), LSK_FPM_ERR_FRAME);
	build_one(&o);			/* longer than its message: */
	b.buf[o.frame + 3] += 8;	/* 8 bytes that are no message */
	b.len += 8;
	assert_int_equal(decode_err(), LSK_FPM_ERR_MESSAGE);

	build_one(&o);
	set32(o.msg, 15);		/* nlmsg_len below its header */
	assert_int_equal(decode_err(), LSK_FPM_ERR_MESSAGE);
	build_one(&o);
	set32(o.msg, (uint32_t)(b.len - o.msg + 4));	/* past its frame */
	assert_int_equal(decode_err(), LSK_FPM_ERR_MESSAGE);
	build_one(&o);			/* shorter than rtmsg */
	set32(o.msg, NLMSG_HDRLEN + 8);
	b.buf[o.frame + 2] = 0;
	b.buf[o.frame + 3] = 4 + NLMSG_HDRLEN + 8;
	b.len = o.msg + NLMSG_HDRLEN + 8;
	assert_int_equal(decode_err(), LSK_FPM_ERR_MESSAGE);

	build_one(&o);
	set16(o.dst, 3);		/* rta_len below its header */
	assert_int_equal(decode_err(), LSK_FPM_ERR_ATTR);
	build_one(&o);
	set16(o.dst, 1000);		/* past its message */
	assert_int_equal(decode_err(), LSK_FPM_ERR_ATTR);
	build_one(&o);
	set16(o.dst, 7);		/* RTA_DST of 3 bytes */
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);
	build_one(&o);
	set16(o.gw, 6);			/* RTA_GATEWAY of 2 bytes */
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);
	build_one(&o);
	set16(o.rtnh, 4);		/* rtnh_len below its header */
	assert_int_equal(decode_err(), LSK_FPM_ERR_ATTR);
	build_one(&o);
	set16(o.rtnh, 100);		/* past RTA_MULTIPATH */
	assert_int_equal(decode_err(), LSK_FPM_ERR_ATTR);
	build_one(&o);
	set16(o.rtnh + 8, 200);		/* the gateway's, past its rtnh */
	assert_int_equal(decode_err(), LSK_FPM_ERR_ATTR);
	build_one(&o);
	b.buf[o.msg + NLMSG_HDRLEN + 1] = 33;	/* rtm_dst_len */
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);
	build_one(&o);
	b.buf[o.msg + NLMSG_HDRLEN + 1] = 8;	/* 10.9/16 has host bits */
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);

	/* nexthops: no id, a group of 7 bytes, member 0, blackhole with
	 * a payload */
	memset(&b, 0, sizeof(b));
	fb_frame_begin(&b);
	fb_msg_begin(&b, RTM_NEWNEXTHOP, 0);
	fb_put(&b, NULL, sizeof(struct nhmsg));
	fb_u32(&b, NHA_OIF, 7);
	fb_msg_end(&b);
	fb_frame_end(&b);
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);
	nh_one_attr(AF_UNSPEC, 9, NHA_GROUP, "\x01\0\0\0\0\0\0", 7);
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);
	nh_one_attr(AF_UNSPEC, 9, NHA_GROUP, "\0\0\0\0\0\0\0\0", 8);
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);
	nh_one_attr(AF_INET, 9, NHA_BLACKHOLE, &one, 4);
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);
	nh_one_attr(AF_INET, 9, NHA_GATEWAY, "\1\2\3\4\5", 5);
	assert_int_equal(decode_err(), LSK_FPM_ERR_VALUE);

	/* a bad frame after good ones: the whole read is refused */
	build_one(&o);
	fb_frame_begin(&b);
	fb_put(&b, "\xff\xff\xff\xff", 4);
	fb_frame_end(&b);
	assert_int_equal(decode_err(), LSK_FPM_ERR_MESSAGE);
	/* a header's first byte is enough to refuse it */
	build_one(&o);
	b.buf[b.len++] = 9;
	assert_int_equal(decode_err(), LSK_FPM_ERR_FRAME);
}

/* Every truncation of every length field of a good stream: an error or
 * a wait, never a read past the buffer (ASan), never a crash. */
static void
test_every_byte(void **state)
{
	struct lsk_fpm_stats cnt;
	enum lsk_fpm_err err;
	size_t i, used;
	unsigned int v;

	(void)state;
	build_group();
	build_multipath();
	for (i = 0; i < b.len; i++) {
		uint8_t save = b.buf[i];

		for (v = 0; v < 256; v += 17) {
			int rc;

			b.buf[i] = (uint8_t)v;
			rc = decode(b.len, &used, &cnt, &err);
			assert_true(rc == -EBADMSG || (rc >= 0 &&
							used <= b.len));
		}
		b.buf[i] = save;
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_add_replace_delete, reset),
		cmocka_unit_test_setup(test_types, reset),
		cmocka_unit_test_setup(test_multipath, reset),
		cmocka_unit_test_setup(test_nexthops, reset),
		cmocka_unit_test_setup(test_resolve, reset),
		cmocka_unit_test_setup(test_nh_table, reset),
		cmocka_unit_test_setup(test_refs, reset),
		cmocka_unit_test_setup(test_del_new_one_frame, reset),
		cmocka_unit_test_setup(test_skipped, reset),
		cmocka_unit_test_setup(test_split, reset),
		cmocka_unit_test_setup(test_ops_full, reset),
		cmocka_unit_test_setup(test_malformed, reset),
		cmocka_unit_test_setup(test_every_byte, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
