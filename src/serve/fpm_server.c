/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FPM server (listack/fpm.h): the listeners' poll loop
 * (serve/serve.h) on a thread of its own, a listening TCP socket where
 * `fpm listen` says, and one zebra. Each read is decoded whole first
 * (serve/fpm_msg.c): a malformed message closes the connection and
 * nothing of that read is applied; otherwise its nexthops go to the
 * table (serve/fpm_nh.c) and its routes, resolved, to one
 * lsk_route_learn call for IPv4's and one lsk_route6_learn call for
 * IPv6's (the families' routes are independent: each keeps its order),
 * under the stack's lock.
 *
 * A nexthop zebra replaces under its id changes the routes that name it
 * (alone or in a group), as the kernel's nexthop objects do: they are
 * resolved again and learned in the same step (serve/fpm_refs.h).
 *
 * A new connection starts a dump (lsk_route_learn_begin_dump, both
 * families): zebra
 * sends its whole table but never says when it is done, so the dump is
 * taken as over, and what it did not repeat swept, once the connection
 * has been quiet for FPM_QUIET_MS. A connection that goes leaves the
 * routes: zebra reconnects and its dump refreshes them. `fpm off`
 * withdraws them. A second connection while one is served is closed at
 * once (fpm.Refused).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "listack/ctl.h"
#include "listack/fpm.h"
#include "control/control.h"
#include "control/host_ctl.h"
#include "serve/fpm_msg.h"
#include "serve/fpm_nh.h"
#include "serve/fpm_refs.h"
#include "serve/serve.h"

#define FPM_RX_BUF (256 * 1024)	/* the most one read decodes */
#define FPM_QUIET_MS 2000	/* a dump is over after this much silence */
#define FPM_RETRY_MS 1000	/* a listen that failed is tried again */
#define FPM_TICK_MS 100		/* a setting changed is followed this soon */
#define FPM_NH_MAX 65536	/* zebra's nexthops kept */
/* every message that yields an operation is at least a netlink header
 * and a nhmsg, each frame adds its header */
#define FPM_OPS_CAP (FPM_RX_BUF / 24 + 1)
#define FPM_CHANGED_MAX 64	/* nexthops replaced in one read, followed */

struct lsk_fpm {
	struct lsk_stack *stack;
	struct lsk_serve loop;
	uint32_t gen;		/* of the setting followed */
	uint32_t addr;		/* where we listen (listening: fd >= 0) */
	uint16_t port;
	int64_t tried_ms;	/* the last listen that failed */
	int fd;			/* zebra's connection; -1: none */
	bool dumping;
	int64_t last_ms;	/* the last message from zebra */
	size_t rx_len;
	uint8_t *rx;
	struct lsk_fpm_op *ops;
	struct lsk_route_learned *learned;
	struct lsk_route6_learned *learned6;
	struct lsk_fpm_nh_table *nhs;
	struct lsk_fpm_refs *refs;	/* the routes learned by nexthop id */
};

static struct lsk_fpm_stats *
fpm_counters(struct lsk_fpm *f)
{
	return &f->stack->ctl_stats.fpm;
}

static void
counters_add(struct lsk_fpm_stats *to, const struct lsk_fpm_stats *add)
{
	uint64_t *t = (uint64_t *)to;
	const uint64_t *a = (const uint64_t *)add;
	size_t i;

	for (i = 0; i < sizeof(*to) / sizeof(uint64_t); i++)
		t[i] += a[i];
}

/* ------------------------------------------------------ zebra */

/* Close zebra's connection (the routes stay). Under the stack's lock. */
static void
zebra_close(struct lsk_fpm *f)
{
	if (f->fd < 0)
		return;
	close(f->fd);
	f->fd = -1;
	f->rx_len = 0;
	f->dumping = false;
	fpm_counters(f)->Disconnects++;
	f->stack->fpm.connected = false;
	f->stack->fpm.dumping = false;
	f->stack->fpm.peer[0] = '\0';
}

static int
iface_of(void *arg, uint32_t ifindex)
{
	return lsk_host_iface_of_ifindex(arg, ifindex);
}

static bool
nh_same(const struct lsk_fpm_nh *a, const struct lsk_fpm_nh *b)
{
	unsigned int i;

	if (a->blackhole != b->blackhole || a->unusable != b->unusable ||
	    a->n_group != b->n_group || a->path.gateway != b->path.gateway ||
	    a->path.gw_family != b->path.gw_family ||
	    memcmp(&a->path.gateway6, &b->path.gateway6,
		   sizeof(a->path.gateway6)) != 0 ||
	    a->path.ifindex != b->path.ifindex)
		return false;
	for (i = 0; i < a->n_group; i++)
		if (a->group[i].id != b->group[i].id ||
		    a->group[i].weight != b->group[i].weight)
			return false;
	return true;
}

/* The routes resolved of one read, each family's in its array. */
struct pending {
	unsigned int k;		/* learned[0..k) */
	unsigned int k6;	/* learned6[0..k6) */
};

/* Learn what is pending now (an array is full, or the read is done):
 * 0 or -ENOMEM. */
static int
learn_flush(struct lsk_fpm *f, struct pending *pd, struct lsk_fpm_stats *cnt)
{
	int rc = pd->k ? lsk_route_learn(f->stack, f->learned, pd->k) : 0;
	int rc6 = pd->k6 && rc >= 0 ?
		  lsk_route6_learn(f->stack, f->learned6, pd->k6) : 0;

	if (rc > 0)
		cnt->RoutesRejected += (uint64_t)rc;
	if (rc6 > 0)
		cnt->RoutesRejected += (uint64_t)rc6;
	pd->k = pd->k6 = 0;
	return rc < 0 ? rc : rc6 < 0 ? rc6 : 0;
}

/* Resolve r into the next pending entry of its family: 0 (taken), or
 * the resolution's refusal (counted). */
static int
route_take(struct lsk_fpm *f, const struct lsk_fpm_route *r,
	   struct pending *pd, struct lsk_fpm_stats *cnt)
{
	int rc;

	if (r->family == AF_INET6) {
		rc = lsk_fpm_route6_resolve(f->nhs, r, iface_of, f->stack,
					    &f->learned6[pd->k6], cnt);
		pd->k6 += rc == 0;
	} else {
		rc = lsk_fpm_route_resolve(f->nhs, r, iface_of, f->stack,
					   &f->learned[pd->k], cnt);
		pd->k += rc == 0;
	}
	return rc;
}

static bool
id_in(uint32_t id, const uint32_t *ids, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* Does nexthop id use one of changed (itself, or a member of its
 * group, or of a group in it)? all: every id is taken as changed. */
static bool
nh_uses(const struct lsk_fpm_nh_table *t, uint32_t id, const uint32_t *changed,
	unsigned int n, bool all, int depth)
{
	const struct lsk_fpm_nh *nh;
	unsigned int i;

	if (all || id_in(id, changed, n))
		return true;
	nh = lsk_fpm_nh_find(t, id);
	if (nh == NULL || depth == 2)
		return false;
	for (i = 0; i < nh->n_group; i++)
		if (nh_uses(t, nh->group[i].id, changed, n, false, depth + 1))
			return true;
	return false;
}

/* The routes that name a replaced nexthop, resolved again into the
 * pending arrays, flushed as they fill. 0 or -ENOMEM. */
static int
refs_follow(struct lsk_fpm *f, struct pending *pd, const uint32_t *changed,
	    unsigned int n, bool all, struct lsk_fpm_stats *cnt)
{
	unsigned int i, slots = lsk_fpm_refs_slots(f->refs);
	struct lsk_fpm_ref ref;
	int rc;

	for (i = 0; i < slots; i++) {
		struct lsk_fpm_route r;

		if (!lsk_fpm_refs_at(f->refs, i, &ref) ||
		    !nh_uses(f->nhs, ref.nh_id, changed, n, all, 0))
			continue;
		r = (struct lsk_fpm_route){ .family = ref.family,
			.prefix = ref.prefix, .prefix6 = ref.prefix6,
			.depth = ref.depth, .type = LSK_ROUTE_VIA,
			.proto = ref.proto, .nh_id = ref.nh_id };
		if (pd->k == FPM_OPS_CAP || pd->k6 == FPM_OPS_CAP) {
			rc = learn_flush(f, pd, cnt);
			if (rc < 0)
				return rc;
		}
		if (route_take(f, &r, pd, cnt) == 0)
			cnt->RoutesAdded++;
	}
	return 0;
}

/* What one read decoded, applied. Under the stack's lock. */
static void
zebra_apply(struct lsk_fpm *f, const struct lsk_fpm_op *ops, unsigned int n,
	    struct lsk_fpm_stats *cnt)
{
	uint32_t changed[FPM_CHANGED_MAX];
	struct pending pd = { 0, 0 };
	unsigned int i, n_changed = 0;
	bool all = false;
	int rc;

	for (i = 0; i < n; i++) {
		const struct lsk_fpm_op *op = &ops[i];
		const struct lsk_fpm_route *r = &op->route;

		if (op->kind == LSK_FPM_OP_NH_ADD) {
			const struct lsk_fpm_nh *old =
				lsk_fpm_nh_find(f->nhs, op->nh.id);

			if (old != NULL && !nh_same(old, &op->nh)) {
				if (n_changed == FPM_CHANGED_MAX)
					all = true;
				else
					changed[n_changed++] = op->nh.id;
			}
			rc = lsk_fpm_nh_set(f->nhs, &op->nh);
			if (rc == 0)
				cnt->NexthopsAdded++;
			else
				cnt->NexthopsFull++;
		} else if (op->kind == LSK_FPM_OP_NH_DEL) {
			if (lsk_fpm_nh_del(f->nhs, op->nh.id) == 0)
				cnt->NexthopsDeleted++;
		} else if (route_take(f, r, &pd, cnt) == 0) {
			uint32_t nh_id = r->withdraw ? 0 : r->nh_id;

			if (r->withdraw)
				cnt->RoutesDeleted++;
			else
				cnt->RoutesAdded++;
			if (r->family == AF_INET6)
				lsk_fpm_refs_set6(f->refs, &r->prefix6,
						  r->depth, nh_id, r->proto);
			else
				lsk_fpm_refs_set(f->refs, r->prefix, r->depth,
						 nh_id, r->proto);
		}
	}
	rc = n_changed || all ? refs_follow(f, &pd, changed, n_changed, all,
					    cnt) : 0;
	if (rc == 0)
		rc = learn_flush(f, &pd, cnt);
	counters_add(fpm_counters(f), cnt);
	f->stack->fpm.nexthops = lsk_fpm_nh_count(f->nhs);
	/* no memory for the change: nothing changed, and zebra's next
	 * dump is the way to catch up */
	if (rc < 0)
		zebra_close(f);
}

/* Decode what was read whole, then apply it; keep a frame's head. */
static void
zebra_process(struct lsk_fpm *f, int64_t now)
{
	struct lsk_fpm_stats cnt = { 0 };
	enum lsk_fpm_err err;
	size_t used;
	int n;

	n = lsk_fpm_decode(f->rx, f->rx_len, f->ops, FPM_OPS_CAP, &cnt, &used,
			   &err);
	lsk_stack_lock(f->stack);
	if (n < 0) {
		struct lsk_fpm_stats *c = fpm_counters(f);

		c->ErrFrames += err == LSK_FPM_ERR_FRAME;
		c->ErrMessages += err == LSK_FPM_ERR_MESSAGE;
		c->ErrAttributes += err == LSK_FPM_ERR_ATTR;
		c->ErrValues += err == LSK_FPM_ERR_VALUE;
		zebra_close(f);
	} else {
		zebra_apply(f, f->ops, (unsigned int)n, &cnt);
	}
	lsk_stack_unlock(f->stack);
	if (n < 0 || f->fd < 0)
		return;
	if (used > 0)
		f->last_ms = now;
	memmove(f->rx, f->rx + used, f->rx_len - used);
	f->rx_len -= used;
}

static void
zebra_read(struct lsk_fpm *f, int64_t now)
{
	bool gone = false;
	ssize_t r;

	while (f->rx_len < FPM_RX_BUF) {
		r = recv(f->fd, f->rx + f->rx_len, FPM_RX_BUF - f->rx_len,
			 MSG_DONTWAIT);
		if (r > 0) {
			f->rx_len += (size_t)r;
			continue;
		}
		gone = r == 0 || (errno != EAGAIN && errno != EINTR);
		break;
	}
	if (f->rx_len > 0)
		zebra_process(f, now);
	if (gone && f->fd >= 0) {
		lsk_stack_lock(f->stack);
		zebra_close(f);
		lsk_stack_unlock(f->stack);
	}
}

static void
fpm_accept(void *arg, int64_t now)
{
	struct lsk_fpm *f = arg;
	struct sockaddr_in sa;
	socklen_t sl = sizeof(sa);
	struct lsk_fpm_nh_table *nhs = NULL;
	struct lsk_fpm_refs *refs = NULL;
	char ip[INET_ADDRSTRLEN] = "?";
	int fd;

	fd = accept4(f->loop.listen_fd, (struct sockaddr *)&sa, &sl,
		     SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	/* a new zebra's nexthops are its own: begin with none (its dump
	 * names again every route it keeps) */
	if (f->fd < 0) {
		nhs = lsk_fpm_nh_table_new(FPM_NH_MAX);
		refs = lsk_fpm_refs_new();
	}
	lsk_stack_lock(f->stack);
	if (nhs == NULL || refs == NULL) {
		fpm_counters(f)->Refused++;
		lsk_stack_unlock(f->stack);
		lsk_fpm_nh_table_free(nhs);
		lsk_fpm_refs_free(refs);
		close(fd);
		return;
	}
	lsk_fpm_nh_table_free(f->nhs);
	lsk_fpm_refs_free(f->refs);
	f->nhs = nhs;
	f->refs = refs;
	f->fd = fd;
	f->rx_len = 0;
	f->dumping = true;
	f->last_ms = now;
	fpm_counters(f)->Connections++;
	lsk_route_learn_begin_dump(f->stack);
	inet_ntop(AF_INET, &sa.sin_addr, ip, sizeof(ip));
	snprintf(f->stack->fpm.peer, sizeof(f->stack->fpm.peer), "%s:%u", ip,
		 ntohs(sa.sin_port));
	f->stack->fpm.connected = true;
	f->stack->fpm.dumping = true;
	f->stack->fpm.nexthops = 0;
	lsk_stack_unlock(f->stack);
}

/* ------------------------------------------------------ the setting */

static int
fpm_listen(struct lsk_fpm *f)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET, .sin_port = htons(f->port),
		.sin_addr.s_addr = htonl(f->addr),
	};
	int one = 1, fd, rc;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 4) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	f->loop.listen_fd = fd;
	return 0;
}

/* Follow `fpm listen`: a new address closes what was served (the routes
 * stay), off withdraws them too; a listen that failed is tried again. */
static void
fpm_follow(struct lsk_fpm *f, int64_t now)
{
	uint32_t gen = __atomic_load_n(&f->stack->fpm.generation,
				       __ATOMIC_ACQUIRE);
	bool retry = f->loop.listen_fd < 0 && f->port != 0 &&
		     now - f->tried_ms >= FPM_RETRY_MS;
	int rc = 0;

	if (gen == f->gen && !retry)
		return;
	lsk_stack_lock(f->stack);
	if (gen != f->gen) {
		f->gen = gen;
		if (f->loop.listen_fd >= 0)
			close(f->loop.listen_fd);
		f->loop.listen_fd = -1;
		zebra_close(f);
		f->addr = f->stack->fpm.addr;
		f->port = f->stack->fpm.port;
		if (f->port == 0)
			lsk_route_learn_flush(f->stack);
	}
	if (f->port != 0) {
		rc = fpm_listen(f);
		if (rc < 0)
			f->tried_ms = now;
	}
	f->stack->fpm.listening = f->loop.listen_fd >= 0;
	f->stack->fpm.listen_error = rc;
	lsk_stack_unlock(f->stack);
}

static void
fpm_expire(void *arg, int64_t now)
{
	struct lsk_fpm *f = arg;

	fpm_follow(f, now);
	if (f->fd < 0 || !f->dumping || now - f->last_ms < FPM_QUIET_MS)
		return;
	lsk_stack_lock(f->stack);
	fpm_counters(f)->RoutesSwept +=
		(uint64_t)lsk_route_learn_sweep(f->stack);
	f->dumping = false;
	f->stack->fpm.dumping = false;
	lsk_stack_unlock(f->stack);
}

static int
fpm_client_fd(void *arg, unsigned int slot, short *events)
{
	(void)slot;
	*events = POLLIN;
	return ((struct lsk_fpm *)arg)->fd;
}

static void
fpm_client_ready(void *arg, unsigned int slot, int64_t now)
{
	(void)slot;
	zebra_read(arg, now);
}

static const struct lsk_serve_ops fpm_ops = {
	.client_fd = fpm_client_fd,
	.client_ready = fpm_client_ready,
	.accept = fpm_accept,
	.expire = fpm_expire,
};

/* ------------------------------------------------------ start, stop */

static void
fpm_free(struct lsk_fpm *f)
{
	if (f->fd >= 0)
		close(f->fd);
	lsk_serve_close(&f->loop);
	lsk_fpm_nh_table_free(f->nhs);
	lsk_fpm_refs_free(f->refs);
	free(f->rx);
	free(f->ops);
	free(f->learned);
	free(f->learned6);
	free(f);
}

int
lsk_fpm_start(struct lsk_stack *stack, struct lsk_fpm **out)
{
	struct lsk_fpm *f;
	int rc;

	if (stack == NULL || out == NULL)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return -ENOMEM;
	f->stack = stack;
	f->fd = -1;
	f->rx = malloc(FPM_RX_BUF);
	f->ops = malloc(sizeof(*f->ops) * FPM_OPS_CAP);
	f->learned = malloc(sizeof(*f->learned) * FPM_OPS_CAP);
	f->learned6 = malloc(sizeof(*f->learned6) * FPM_OPS_CAP);
	f->nhs = lsk_fpm_nh_table_new(FPM_NH_MAX);
	f->refs = lsk_fpm_refs_new();
	rc = lsk_serve_init(&f->loop, &fpm_ops, f, 1, FPM_TICK_MS);
	if (rc == 0 && (f->rx == NULL || f->ops == NULL ||
			f->learned == NULL || f->learned6 == NULL ||
			f->nhs == NULL ||
			f->refs == NULL))
		rc = -ENOMEM;
	if (rc < 0) {
		fpm_free(f);
		return rc;
	}
	/* the setting as it is now, whatever its generation */
	f->gen = __atomic_load_n(&stack->fpm.generation, __ATOMIC_ACQUIRE) - 1;
	lsk_stack_lock(stack);
	stack->fpm.served = true;
	lsk_stack_unlock(stack);
	fpm_follow(f, lsk_serve_now_ms());
	rc = lsk_serve_start(&f->loop, "lsk-fpm");
	if (rc < 0) {
		lsk_stack_lock(stack);
		stack->fpm.served = stack->fpm.listening = false;
		lsk_stack_unlock(stack);
		fpm_free(f);
		return rc;
	}
	*out = f;
	return 0;
}

void
lsk_fpm_stop(struct lsk_fpm *f)
{
	if (f == NULL)
		return;
	lsk_serve_stop(&f->loop);
	lsk_stack_lock(f->stack);
	zebra_close(f);
	f->stack->fpm.served = f->stack->fpm.listening = false;
	lsk_stack_unlock(f->stack);
	fpm_free(f);
}
