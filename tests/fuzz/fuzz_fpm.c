/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the FPM reader (serve/fpm_msg.c) and what the
 * server does with its operations (serve/fpm_nh.c): the input is a
 * stream from zebra. The reader may refuse it (with a reason) or take
 * whole frames, never read past it (ASan) nor loop; what it takes holds
 * its promises (prefix without host bits, depth <= 32 or 128 for IPv6,
 * an IPv4 or IPv6 route, 1..16 paths of
 * weights 1..256, nexthop ids not 0); read in two parts cut where the
 * input's first byte says, it gives what it gives whole. The operations
 * then go through a small nexthop table and route resolution, whose
 * routes hold lsk_route_learn's terms (no path twice, weights in range).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "serve/fpm_msg.h"
#include "serve/fpm_nh.h"

#include "fuzz_common.h"

#define OPS_CAP 8192

static struct lsk_fpm_op ops[OPS_CAP], ops2[OPS_CAP];

static int
iface_of(void *arg, uint32_t ifindex)
{
	(void)arg;
	return ifindex < 4 ? (int)ifindex : -ENOENT;
}

static void
check_path(const struct lsk_fpm_path *p)
{
	if (p->weight < 1 || p->weight > 256)
		fuzz_fail("path weight %u", p->weight);
}

static void
check_op(const struct lsk_fpm_op *op)
{
	unsigned int i;

	if (op->kind == LSK_FPM_OP_ROUTE) {
		const struct lsk_fpm_route *r = &op->route;

		if (r->family == AF_INET6) {
			if (r->depth > 128 || r->prefix != 0)
				fuzz_fail("IPv6 prefix /%u", r->depth);
			for (i = r->depth; i < 128; i++)
				if (r->prefix6.a[i / 8] & (0x80 >> (i % 8)))
					fuzz_fail("IPv6 host bit %u", i);
		} else if (r->family != AF_INET || r->depth > 32 ||
			   (r->depth < 32 &&
			    (r->prefix & (UINT32_MAX >> r->depth)))) {
			fuzz_fail("prefix %08x/%u family %u", r->prefix,
				  r->depth, r->family);
		}
		if (r->type > LSK_ROUTE_PROHIBIT || r->n_paths > 16)
			fuzz_fail("route type %u, %u paths", r->type,
				  r->n_paths);
		for (i = 0; i < r->n_paths; i++)
			check_path(&r->paths[i]);
		return;
	}
	if (op->kind != LSK_FPM_OP_NH_ADD && op->kind != LSK_FPM_OP_NH_DEL)
		fuzz_fail("op kind %u", op->kind);
	if (op->nh.id == 0 || op->nh.n_group > 16)
		fuzz_fail("nexthop id %u, %u members", op->nh.id,
			  op->nh.n_group);
	if (op->kind == LSK_FPM_OP_NH_ADD && op->nh.n_group == 0 &&
	    !op->nh.blackhole)
		check_path(&op->nh.path);
	for (i = 0; i < op->nh.n_group; i++)
		if (op->nh.group[i].id == 0 || op->nh.group[i].weight < 1 ||
		    op->nh.group[i].weight > 256)
			fuzz_fail("member %u weight %u", op->nh.group[i].id,
				  op->nh.group[i].weight);
}

static void
check_learned(const struct lsk_route_learned *l)
{
	unsigned int i, j;

	if (l->withdraw || l->type != LSK_ROUTE_VIA)
		return;
	if (l->n_paths < 1 || l->n_paths > LSK_ROUTE_MAX_PATHS)
		fuzz_fail("%u paths learned", l->n_paths);
	for (i = 0; i < l->n_paths; i++) {
		const struct lsk_route_path *p = &l->paths[i];

		if (p->weight < 1 || p->weight > 256 ||
		    (p->gateway == 0 && p->iface == LSK_IFACE_ANY))
			fuzz_fail("learned path %08x/%u w%u", p->gateway,
				  p->iface, p->weight);
		for (j = 0; j < i; j++)
			if (l->paths[j].gateway == p->gateway &&
			    l->paths[j].iface == p->iface)
				fuzz_fail("path %08x/%u twice", p->gateway,
					  p->iface);
	}
}

static void
check_learned6(const struct lsk_route6_learned *l)
{
	static const struct lsk_ip6_addr zero;
	unsigned int i, j;

	if (l->withdraw || l->type != LSK_ROUTE_VIA)
		return;
	if (l->n_paths < 1 || l->n_paths > LSK_ROUTE_MAX_PATHS)
		fuzz_fail("%u IPv6 paths learned", l->n_paths);
	for (i = 0; i < l->n_paths; i++) {
		const struct lsk_route6_path *p = &l->paths[i];
		bool none = memcmp(&p->gateway, &zero, sizeof(zero)) == 0;
		bool ll = p->gateway.a[0] == 0xfe &&
			  (p->gateway.a[1] & 0xc0) == 0x80;

		if (p->weight < 1 || p->weight > 256 ||
		    ((none || ll) && p->iface == LSK_IFACE_ANY))
			fuzz_fail("learned IPv6 path %u: iface %u w%u", i,
				  p->iface, p->weight);
		for (j = 0; j < i; j++)
			if (memcmp(&l->paths[j].gateway, &p->gateway,
				   sizeof(zero)) == 0 &&
			    l->paths[j].iface == p->iface)
				fuzz_fail("IPv6 path %u twice", i);
	}
}

/* The operations through a nexthop table, as the server applies them. */
static void
apply(const struct lsk_fpm_op *o, int n)
{
	struct lsk_fpm_nh_table *t = lsk_fpm_nh_table_new(64);
	struct lsk_fpm_stats cnt = { 0 };
	struct lsk_route_learned l;
	struct lsk_route6_learned l6;
	int i;

	if (t == NULL)
		return;
	for (i = 0; i < n; i++) {
		if (o[i].kind == LSK_FPM_OP_NH_ADD)
			lsk_fpm_nh_set(t, &o[i].nh);
		else if (o[i].kind == LSK_FPM_OP_NH_DEL)
			lsk_fpm_nh_del(t, o[i].nh.id);
		else if (o[i].route.family == AF_INET6) {
			if (lsk_fpm_route6_resolve(t, &o[i].route, iface_of,
						   NULL, &l6, &cnt) == 0)
				check_learned6(&l6);
		} else if (lsk_fpm_route_resolve(t, &o[i].route, iface_of,
						 NULL, &l, &cnt) == 0) {
			check_learned(&l);
		}
	}
	lsk_fpm_nh_table_free(t);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lsk_fpm_stats cnt = { 0 };
	enum lsk_fpm_err err;
	size_t used, used2, cut;
	int n, n1, n2, i;

	n = lsk_fpm_decode(data, size, ops, OPS_CAP, &cnt, &used, &err);
	if (n < 0) {
		if (n != -EBADMSG || err == LSK_FPM_OK)
			fuzz_fail("refused with %d, reason %d", n, err);
		return 0;
	}
	if (used > size || n > OPS_CAP)
		fuzz_fail("took %zu of %zu bytes, %d ops", used, size, n);
	for (i = 0; i < n; i++)
		check_op(&ops[i]);
	apply(ops, n);

	/* the same in two reads */
	cut = size ? (size_t)data[0] * size / 256 : 0;
	n1 = lsk_fpm_decode(data, cut, ops2, OPS_CAP, &cnt, &used, &err);
	if (n1 < 0)
		fuzz_fail("the first %zu bytes refused, the whole taken", cut);
	n2 = lsk_fpm_decode(data + used, size - used, ops2 + n1,
			    OPS_CAP - (unsigned int)n1, &cnt, &used2, &err);
	if (n2 < 0 || n1 + n2 != n)
		fuzz_fail("in two reads (cut %zu): %d + %d ops, whole %d",
			  cut, n1, n2, n);
	for (i = 0; i < n; i++)
		if (ops2[i].kind != ops[i].kind)
			fuzz_fail("op %d differs in two reads", i);
	return 0;
}
