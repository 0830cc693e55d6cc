/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FPM reader and resolution (serve/fpm_msg.c, serve/fpm_nh.c) on what
 * FRR 8.4.4's zebra really sent (tests/unit/serve/fpm_frames/, README.md
 * there says each step): the files are replayed in their order into a
 * model of the learned routes, as the server applies them (a reconnect's
 * dump marks every route stale and sweeps what it did not repeat), and
 * the routes after each step are what zebra's commands asked for.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "unit_common.h"
#include "serve/fpm_msg.h"
#include "serve/fpm_nh.h"

#include <linux/rtnetlink.h>

#define IP UNIT_IPV4
#define ZEBRA_STATIC 196	/* FRR's RTPROT_ZSTATIC */
#define RIB_MAX 64
#define OPS_CAP 1024

/* The model: what lsk_route_learn would hold. */
struct rib_route {
	struct lsk_route_learned r;
	bool stale;
};

static struct rib_route rib[RIB_MAX];
static unsigned int n_rib;
static struct lsk_fpm_nh_table *nhs;
static struct lsk_fpm_stats cnt;
static struct lsk_fpm_op ops[OPS_CAP];

/* rv0 (ifindex 2) is our iface 0, rv1 (3) iface 1 */
static int
iface_of(void *arg, uint32_t ifindex)
{
	(void)arg;
	return ifindex == 2 ? 0 : ifindex == 3 ? 1 : -ENOENT;
}

static struct rib_route *
rib_find(uint32_t prefix, uint8_t depth)
{
	unsigned int i;

	for (i = 0; i < n_rib; i++)
		if (rib[i].r.prefix == prefix && rib[i].r.depth == depth)
			return &rib[i];
	return NULL;
}

static void
rib_learn(const struct lsk_route_learned *l)
{
	struct rib_route *e = rib_find(l->prefix, l->depth);

	if (l->withdraw) {
		if (e != NULL)
			*e = rib[--n_rib];
		return;
	}
	if (e == NULL) {
		assert_true(n_rib < RIB_MAX);
		e = &rib[n_rib++];
	}
	e->r = *l;
	e->stale = false;
}

static uint8_t *
read_frames(const char *name, size_t *len)
{
	const char *root = getenv("LSK_SOURCE_ROOT");
	char path[512];
	uint8_t *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/tests/unit/serve/fpm_frames/%s",
		 root ? root : "..", name);
	f = fopen(path, "rb");
	if (f == NULL)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* One recorded step, as the server applies a read (reconnect: a new
 * connection's dump, the nexthops forgotten first). */
static void
step(const char *name, bool reconnect)
{
	struct lsk_route_learned l;
	struct lsk_route6_learned l6;
	enum lsk_fpm_err err;
	unsigned int i;
	size_t len, used;
	uint8_t *buf = read_frames(name, &len);
	int n;

	if (reconnect) {
		lsk_fpm_nh_table_free(nhs);
		nhs = lsk_fpm_nh_table_new(1024);
		assert_non_null(nhs);
		for (i = 0; i < n_rib; i++)
			rib[i].stale = true;
	}
	n = lsk_fpm_decode(buf, len, ops, OPS_CAP, &cnt, &used, &err);
	free(buf);
	if (n < 0)
		fail_msg("%s: %s", name, lsk_fpm_err_name(err));
	assert_int_equal(used, len);
	for (i = 0; i < (unsigned int)n; i++) {
		if (ops[i].kind == LSK_FPM_OP_NH_ADD)
			assert_int_equal(lsk_fpm_nh_set(nhs, &ops[i].nh), 0);
		else if (ops[i].kind == LSK_FPM_OP_NH_DEL)
			assert_int_equal(lsk_fpm_nh_del(nhs, ops[i].nh.id), 0);
		else if (ops[i].route.family == AF_INET6)
			/* fe80::/64 only here, connected: never learned */
			assert_int_not_equal(lsk_fpm_route6_resolve(nhs,
				&ops[i].route, iface_of, NULL, &l6, &cnt), 0);
		else if (lsk_fpm_route_resolve(nhs, &ops[i].route, iface_of,
					       NULL, &l, &cnt) == 0)
			rib_learn(&l);
	}
	for (i = 0; reconnect && i < n_rib; i++)
		if (rib[i].stale)
			rib[i--] = rib[--n_rib];
}

/* The route of prefix/depth: its type, protocol and paths as "gw/iface
 * wW" words ("" when none); NULL when there is no such route. */
static const char *
route_text(uint32_t prefix, uint8_t depth, char *buf, size_t len)
{
	const struct rib_route *e = rib_find(prefix, depth);
	size_t off;
	unsigned int i;

	if (e == NULL)
		return NULL;
	off = (size_t)snprintf(buf, len, "type %u proto %u", e->r.type,
			       e->r.proto);
	for (i = 0; i < e->r.n_paths && off < len; i++) {
		const struct lsk_route_path *p = &e->r.paths[i];

		off += (size_t)snprintf(buf + off, len - off,
					" %u.%u.%u.%u/%d w%u", p->gateway >> 24,
					(p->gateway >> 16) & 255,
					(p->gateway >> 8) & 255,
					p->gateway & 255,
					p->iface == LSK_IFACE_ANY ? -1 :
					(int)p->iface, p->weight);
	}
	return buf;
}

static void
route_is(int line, uint32_t prefix, uint8_t depth, const char *want)
{
	char buf[256];
	const char *t = route_text(prefix, depth, buf, sizeof(buf));

	if (want == NULL && t != NULL)
		fail_msg("line %d: unexpected route: %s", line, t);
	if (want != NULL && (t == NULL || strcmp(t, want) != 0))
		fail_msg("line %d: want '%s', got '%s'", line, want,
			 t ? t : "(none)");
}

#define ROUTE_IS(prefix, depth, want) route_is(__LINE__, prefix, depth, want)

#define NONE ((const char *)NULL)
#define S196 "type 0 proto 196"
#define BGP "type 0 proto 186"

static void
test_replay(void **state)
{
	(void)state;
	step("connect.bin", true);
	/* connected subnets and fe80::/64: nothing learned */
	assert_int_equal(n_rib, 0);
	/* 10.0.1.0/24, 10.0.2.0/24 and fe80::/64 */
	assert_int_equal(cnt.SkipConnected, 3);
	assert_int_equal(cnt.SkipInet6, 0);

	step("nhg_add.bin", false);
	ROUTE_IS(IP(192, 0, 2, 0), 24, S196 " 10.0.1.2/0 w1");
	step("nhg_replace.bin", false);
	ROUTE_IS(IP(192, 0, 2, 0), 24, S196 " 10.0.2.2/1 w1");
	step("nhg_delete.bin", false);
	ROUTE_IS(IP(192, 0, 2, 0), 24, NONE);
	step("nhg_ecmp.bin", false);
	ROUTE_IS(IP(198, 51, 100, 0), 24, S196 " 10.0.1.2/0 w1 10.0.2.2/1 w1");
	step("nhg_blackhole.bin", false);
	ROUTE_IS(IP(203, 0, 113, 0), 26, "type 1 proto 196");
	ROUTE_IS(IP(203, 0, 113, 64), 26, "type 2 proto 196");
	ROUTE_IS(IP(203, 0, 113, 128), 26, "type 1 proto 196");
	step("kernel_prohibit.bin", false);
	ROUTE_IS(IP(203, 0, 113, 192), 26, "type 3 proto 2");
	step("nhg_ecmp_to_one.bin", false);
	ROUTE_IS(IP(198, 51, 100, 0), 24, S196 " 10.0.2.2/1 w1");

	/* zebra reconnects without nexthop groups: its dump has no
	 * prohibit route any more (deleted meanwhile), which is swept */
	step("mp_switch.bin", true);
	ROUTE_IS(IP(203, 0, 113, 192), 26, NONE);
	ROUTE_IS(IP(198, 51, 100, 0), 24, S196 " 10.0.2.2/1 w1");
	ROUTE_IS(IP(203, 0, 113, 64), 26, "type 2 proto 196");
	assert_int_equal(n_rib, 4);
	step("mp_ecmp.bin", false);
	ROUTE_IS(IP(198, 51, 100, 0), 24, S196 " 10.0.1.2/0 w1 10.0.2.2/1 w1");
	step("mp_add.bin", false);
	ROUTE_IS(IP(192, 0, 2, 0), 24, S196 " 10.0.1.2/0 w1");
	step("mp_replace.bin", false);
	ROUTE_IS(IP(192, 0, 2, 0), 24, S196 " 10.0.2.2/1 w1");
	step("mp_delete.bin", false);
	ROUTE_IS(IP(192, 0, 2, 0), 24, NONE);
	step("mp_blackhole.bin", false);
	ROUTE_IS(IP(203, 0, 113, 0), 25, "type 1 proto 196");

	step("nhg_switch.bin", true);
	ROUTE_IS(IP(203, 0, 113, 0), 25, NONE);
	ROUTE_IS(IP(198, 51, 100, 0), 24, S196 " 10.0.1.2/0 w1 10.0.2.2/1 w1");
	step("bgp_weighted.bin", false);
	ROUTE_IS(IP(100, 64, 0, 0), 24, BGP " 10.0.1.2/0 w25 10.0.2.2/1 w75");
	ROUTE_IS(IP(100, 65, 233, 0), 24, BGP " 10.0.1.2/0 w1");
	ROUTE_IS(IP(100, 65, 234, 0), 24, BGP " 10.0.2.2/1 w1");
	step("mp_bgp_resend.bin", true);
	ROUTE_IS(IP(100, 64, 0, 0), 24, BGP " 10.0.1.2/0 w25 10.0.2.2/1 w75");
	step("mp_bgp_withdraw_one.bin", false);
	ROUTE_IS(IP(100, 64, 0, 0), 24, BGP " 10.0.2.2/1 w1");
	step("mp_bgp_readvertise.bin", false);
	ROUTE_IS(IP(100, 64, 0, 0), 24, BGP " 10.0.1.2/0 w25 10.0.2.2/1 w75");
	/* its reconnect was not recorded: two of its dump's nexthops */
	assert_int_equal(lsk_fpm_nh_set(nhs, &(struct lsk_fpm_nh){ .id = 12,
			.path = { IP(10, 0, 2, 2), 3, 1 } }), 0);
	assert_int_equal(lsk_fpm_nh_set(nhs, &(struct lsk_fpm_nh){ .id = 43,
			.n_group = 1, .group = { { 12, 1 } } }), 0);
	step("bgp_withdraw_one.bin", false);
	ROUTE_IS(IP(100, 64, 0, 0), 24, BGP " 10.0.2.2/1 w1");
	assert_null(lsk_fpm_nh_find(nhs, 43));
	step("bgp_withdraw_all.bin", false);
	ROUTE_IS(IP(100, 64, 0, 0), 24, NONE);

	/* zebra restarted: a group before its members, every route again,
	 * the blackholes not configured again swept */
	step("restart_dump.bin", true);
	ROUTE_IS(IP(100, 64, 0, 0), 24, BGP " 10.0.1.2/0 w25 10.0.2.2/1 w75");
	ROUTE_IS(IP(198, 51, 100, 0), 24, S196 " 10.0.1.2/0 w1 10.0.2.2/1 w1");
	ROUTE_IS(IP(192, 0, 2, 0), 24, S196 " 10.0.1.2/0 w1");
	ROUTE_IS(IP(100, 65, 233, 0), 24, BGP " 10.0.1.2/0 w1");
	ROUTE_IS(IP(100, 65, 234, 0), 24, BGP " 10.0.2.2/1 w1");
	ROUTE_IS(IP(203, 0, 113, 0), 26, "type 1 proto 196");
	ROUTE_IS(IP(203, 0, 113, 64), 26, NONE);
	ROUTE_IS(IP(203, 0, 113, 128), 26, NONE);
	assert_int_equal(n_rib, 6);
	assert_int_equal(cnt.SkipNoNexthop, 0);
	assert_int_equal(cnt.SkipNoPath, 0);
	lsk_fpm_nh_table_free(nhs);
}

/* IPv6 statics as zebra sent them (README.md: ip6_static.bin with the
 * interfaces' IPv6 addresses, ip6_onlink.bin with IPv6 off on them), its
 * ifindexes 3 and 5 our ifaces 0 and 1: each route's paths as words. */
static int
iface_of6(void *arg, uint32_t ifindex)
{
	(void)arg;
	return ifindex == 3 ? 0 : ifindex == 5 ? 1 : -ENOENT;
}

static const char *
route6_text(const struct lsk_route6_learned *l, char *buf, size_t len)
{
	size_t off;
	unsigned int i;
	char a[INET6_ADDRSTRLEN];

	inet_ntop(AF_INET6, l->prefix.a, a, sizeof(a));
	off = (size_t)snprintf(buf, len, "%s/%u type %u proto %u", a,
			       l->depth, l->type, l->proto);
	for (i = 0; i < l->n_paths && off < len; i++) {
		inet_ntop(AF_INET6, l->paths[i].gateway.a, a, sizeof(a));
		off += (size_t)snprintf(buf + off, len - off, " %s/%d w%u", a,
					l->paths[i].iface == LSK_IFACE_ANY ?
					-1 : (int)l->paths[i].iface,
					l->paths[i].weight);
	}
	return buf;
}

static void
replay6(const char *name, const char *const *want, unsigned int n_want,
	unsigned int connected)
{
	struct lsk_fpm_nh_table *t = lsk_fpm_nh_table_new(64);
	struct lsk_fpm_stats c = { 0 };
	struct lsk_route6_learned l;
	enum lsk_fpm_err err;
	unsigned int i, k = 0;
	size_t len, used;
	uint8_t *buf = read_frames(name, &len);
	char text[256];
	int n;

	assert_non_null(t);
	n = lsk_fpm_decode(buf, len, ops, OPS_CAP, &c, &used, &err);
	free(buf);
	if (n < 0)
		fail_msg("%s: %s", name, lsk_fpm_err_name(err));
	assert_int_equal(used, len);
	for (i = 0; i < (unsigned int)n; i++) {
		if (ops[i].kind == LSK_FPM_OP_NH_ADD) {
			assert_int_equal(lsk_fpm_nh_set(t, &ops[i].nh), 0);
			continue;
		}
		if (ops[i].route.family != AF_INET6 ||
		    lsk_fpm_route6_resolve(t, &ops[i].route, iface_of6, NULL,
					   &l, &c) != 0)
			continue;
		if (k == n_want || strcmp(route6_text(&l, text, sizeof(text)),
					  want[k]) != 0)
			fail_msg("%s: route %u: got '%s', want '%s'", name, k,
				 text, k < n_want ? want[k] : "(none)");
		k++;
	}
	assert_int_equal(k, n_want);
	assert_int_equal(c.SkipConnected, connected);
	assert_int_equal(c.SkipNoNexthop + c.SkipNoPath + c.SkipInet6, 0);
	lsk_fpm_nh_table_free(t);
}

static void
test_replay6(void **state)
{
	static const char *const with_addrs[] = {
		"2001:db8:64::/48 type 0 proto 196 2001:db8:1::2/0 w1 "
		"2001:db8:2::2/1 w1",
		"2001:db8:65::/48 type 0 proto 196 2001:db8:1::2/0 w1",
		"2001:db8:67::/48 type 0 proto 196 fe80::2/1 w1",
		"2001:db8:dead::/48 type 1 proto 196",
	};
	/* the unresolved gateways' routes not sent; the onlink ones' (an
	 * AF_UNSPEC nexthop with a 16-byte gateway for 68) are */
	static const char *const onlink[] = {
		"2001:db8:65::/48 type 0 proto 196 2001:db8:1::2/0 w1",
		"2001:db8:67::/48 type 0 proto 196 fe80::2/1 w1",
		"2001:db8:68::/48 type 0 proto 196 2001:db8:1::2/0 w1",
		"2001:db8:dead::/48 type 1 proto 196",
	};

	(void)state;
	/* 2001:db8:1::/64, 2001:db8:2::/64, fe80::/64 (IPv6 off: none) */
	replay6("ip6_static.bin", with_addrs, RTE_DIM(with_addrs), 3);
	replay6("ip6_onlink.bin", onlink, RTE_DIM(onlink), 0);
}

/* Every recorded file, read a byte at a time: the same operations. */
static void
test_byte_by_byte(void **state)
{
	static const char *const files[] = {
		"connect.bin", "nhg_switch.bin", "bgp_weighted.bin",
		"mp_bgp_resend.bin", "restart_dump.bin", "ip6_static.bin",
		"ip6_onlink.bin",
	};
	static struct lsk_fpm_op whole[OPS_CAP];
	struct lsk_fpm_stats c = { 0 };
	enum lsk_fpm_err err;
	unsigned int f;

	(void)state;
	for (f = 0; f < RTE_DIM(files); f++) {
		size_t len, used, have = 0, off = 0;
		uint8_t *buf = read_frames(files[f], &len);
		int n, k = 0, m;

		n = lsk_fpm_decode(buf, len, whole, OPS_CAP, &c, &used, &err);
		assert_true(n > 0);
		while (have < len) {
			have++;	/* one more byte came */
			m = lsk_fpm_decode(buf + off, have - off, ops + k,
					   OPS_CAP - (unsigned int)k, &c, &used,
					   &err);
			assert_true(m >= 0);
			k += m;
			off += used;
		}
		assert_int_equal(k, n);
		assert_int_equal(off, len);
		assert_int_equal(ops[n - 1].kind, whole[n - 1].kind);
		free(buf);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_replay6),
		cmocka_unit_test(test_byte_by_byte),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
