/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Batches (lsk_config_begin ... lsk_config_commit | lsk_config_abort): all
 * or nothing. The configuration lists are copied at begin; the lines of
 * the batch change the lists only; commit builds every table (forwarding,
 * filter, UDP endpoints) before it publishes any, and puts the lists back
 * when one cannot be built. What would be seen at once outside a batch
 * (settings, neighbours forgotten, services' files) waits for the commit.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/fwd.h"
#include "l2/l2.h"
#include "ip6/nd6.h"
#include "udp/udp.h"
#include "control/control.h"
#include "control/udp_ctl.h"
#include "control/host_ctl.h"

/*
 * The configuration lists as a batch found them, so that a batch refused
 * (lsk_config_abort) or whose tables cannot be built puts them back. The
 * settings a batch makes (GRO, route cache, stats clear) and the
 * neighbours it forgets wait for its commit (s->batch_set); services it
 * opens are discarded, those it closes kept (control/services.c).
 */
struct lsk_rib_copy {
	unsigned int n_ifaces, n_addrs, n_routes, n_neighs, n_services;
	uint32_t n_filters;
	struct lsk_port_conf ports[LSK_MAX_IFACES];
	bool mac_given[LSK_MAX_PORTS];
	struct rte_ether_addr dev_mac[LSK_MAX_PORTS];
	char port_names[LSK_MAX_PORTS][LSK_PORT_NAME_MAX];
	char host_if[LSK_MAX_PORTS][16];
	uint32_t host_rate[LSK_MAX_PORTS];
	struct lsk_ifaddr addrs[LSK_MAX_ADDRS];
	struct lsk_neigh *neighs;
	/* IPv6's configuration (control/routes6.h) */
	unsigned int n_addrs6, n_routes6, n_neighs6;
	struct lsk_ifaddr6 addrs6[LSK_MAX_ADDRS6];
	struct lsk_route6 *routes6;
	struct lsk_neigh6 *neighs6;
	uint64_t ra6;
	struct lsk_filter_rule *filters;
	struct lsk_service **services;
	/* neighbours to forget at commit (static or learnt; forget_all:
	 * every one of both families) */
	unsigned int n_forget, forget_cap;
	uint32_t *forget;
	unsigned int n_forget6, forget6_cap;
	struct lsk_neigh6 *forget6;
	bool forget_all;
};

static void
rib_copy_free(struct lsk_rib_copy *c)
{
	if (c == NULL)
		return;
	free(c->neighs);
	free(c->routes6);
	free(c->neighs6);
	free(c->filters);
	free(c->services);
	free(c->forget);
	free(c->forget6);
	free(c);
}

static void *
dup_array(const void *a, size_t n, size_t elem)
{
	void *p = malloc(n ? n * elem : 1);

	if (p != NULL && n != 0)
		memcpy(p, a, n * elem);
	return p;
}

static struct lsk_rib_copy *
rib_copy(const struct lsk_stack *s)
{
	struct lsk_rib_copy *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->n_ifaces = s->n_ifaces;
	c->n_addrs = s->n_addrs;
	c->n_routes = s->n_routes;
	c->n_neighs = s->n_neighs;
	c->n_filters = s->n_filters;
	c->n_services = s->n_services;
	memcpy(c->ports, s->ports, sizeof(c->ports));
	memcpy(c->mac_given, s->mac_given, sizeof(c->mac_given));
	memcpy(c->dev_mac, s->dev_mac, sizeof(c->dev_mac));
	memcpy(c->port_names, s->port_names, sizeof(c->port_names));
	memcpy(c->host_if, s->host_if, sizeof(c->host_if));
	memcpy(c->host_rate, s->host_rate, sizeof(c->host_rate));
	memcpy(c->addrs, s->addrs, sizeof(c->addrs));
	c->neighs = dup_array(s->neighs, s->n_neighs, sizeof(*s->neighs));
	c->n_addrs6 = s->n_addrs6;
	c->n_routes6 = s->n_routes6;
	c->n_neighs6 = s->n_neighs6;
	c->ra6 = s->ra6;
	memcpy(c->addrs6, s->addrs6, sizeof(c->addrs6));
	c->routes6 = dup_array(s->routes6, s->n_routes6, sizeof(*s->routes6));
	c->neighs6 = dup_array(s->neighs6, s->n_neighs6, sizeof(*s->neighs6));
	c->filters = dup_array(s->filters, s->n_filters, sizeof(*s->filters));
	c->services = dup_array(s->services, s->n_services,
				sizeof(*s->services));
	if (c->neighs == NULL || c->filters == NULL ||
	    c->routes6 == NULL || c->neighs6 == NULL ||
	    c->services == NULL) {
		rib_copy_free(c);
		return NULL;
	}
	return c;
}

/* Put the lists back as c has them: the arrays only grew since (their
 * capacities never shrink), so the copies fit. */
static void
rib_restore(struct lsk_stack *s, const struct lsk_rib_copy *c)
{
	s->n_ifaces = c->n_ifaces;
	s->n_addrs = c->n_addrs;
	memcpy(s->ports, c->ports, sizeof(s->ports));
	memcpy(s->mac_given, c->mac_given, sizeof(s->mac_given));
	memcpy(s->dev_mac, c->dev_mac, sizeof(s->dev_mac));
	memcpy(s->port_names, c->port_names, sizeof(s->port_names));
	memcpy(s->host_if, c->host_if, sizeof(s->host_if));
	memcpy(s->host_rate, c->host_rate, sizeof(s->host_rate));
	memcpy(s->addrs, c->addrs, sizeof(s->addrs));
	s->n_neighs = c->n_neighs;
	if (c->n_neighs != 0)
		memcpy(s->neighs, c->neighs, c->n_neighs * sizeof(*s->neighs));
	s->n_addrs6 = c->n_addrs6;
	memcpy(s->addrs6, c->addrs6, sizeof(s->addrs6));
	s->n_routes6 = c->n_routes6;
	if (c->n_routes6 != 0)
		memcpy(s->routes6, c->routes6,
		       c->n_routes6 * sizeof(*s->routes6));
	s->n_neighs6 = c->n_neighs6;
	if (c->n_neighs6 != 0)
		memcpy(s->neighs6, c->neighs6,
		       c->n_neighs6 * sizeof(*s->neighs6));
	s->ra6 = c->ra6;
	s->n_filters = c->n_filters;
	if (c->n_filters != 0)
		memcpy(s->filters, c->filters,
		       c->n_filters * sizeof(*s->filters));
	s->n_services = c->n_services;
	if (c->n_services != 0)
		memcpy(s->services, c->services,
		       c->n_services * sizeof(*s->services));
	/* the routes by undoing the batch's changes: a batch of one route
	 * change costs no copy of a million routes (route_table.c) */
	lsk_route_batch_undo(s);
}

int
lsk_config_begin(struct lsk_stack *s)
{
	rib_copy_free(s->batch_rib);
	s->batch_rib = rib_copy(s);
	if (s->batch_rib == NULL)
		return -ENOMEM;	/* no batch: nothing could be put back */
	memset(&s->batch_set, 0, sizeof(s->batch_set));
	s->in_batch = true;
	lsk_route_batch_begin(s);
	lsk_route6_batch_begin(s);
	return 0;
}

/* Back to the lists at lsk_config_begin; nothing was published since. */
static void
batch_put_back(struct lsk_stack *s)
{
	lsk_services_batch_end(s, false);
	rib_restore(s, s->batch_rib);
	rib_copy_free(s->batch_rib);
	s->batch_rib = NULL;
	memset(&s->batch_set, 0, sizeof(s->batch_set));
	lsk_route_batch_begin(s);	/* its route logs go too */
	lsk_route6_batch_begin(s);
	s->in_batch = false;
}

void
lsk_config_abort(struct lsk_stack *s)
{
	if (s->in_batch)
		batch_put_back(s);
}

int
lsk_stack_forget_neigh(struct lsk_stack *s, uint32_t addr)
{
	struct lsk_rib_copy *c = s->batch_rib;
	int rc;

	if (!s->in_batch) {
		if (addr == 0)
			lsk_nd6_forget_all(s->sh.nd6, &s->ctl_stats);
		rc = lsk_neigh_forget(s->sh.neigh, addr, &s->ctl_stats);
		return rc == -ENOENT ? 0 : rc;
	}
	if (addr == 0) {
		c->forget_all = true;
		return 0;
	}
	rc = lsk_array_grow((void **)&c->forget, &c->forget_cap, c->n_forget,
			    sizeof(*c->forget), 16);
	if (rc == 0)
		c->forget[c->n_forget++] = addr;
	return rc;
}

int
lsk_stack_forget_neigh6(struct lsk_stack *s, const struct lsk_ip6_addr *addr,
			uint16_t iface)
{
	struct lsk_rib_copy *c = s->batch_rib;
	int rc;

	if (!s->in_batch) {
		rc = lsk_nd6_forget(s->sh.nd6, addr, iface, &s->ctl_stats);
		return rc == -ENOENT ? 0 : rc;
	}
	rc = lsk_array_grow((void **)&c->forget6, &c->forget6_cap,
			    c->n_forget6, sizeof(*c->forget6), 16);
	if (rc == 0)
		c->forget6[c->n_forget6++] = (struct lsk_neigh6){
			.addr = *addr, .iface = iface };
	return rc;
}

/* The static neighbours of the batch, now that their table is built. */
static int
stack_set_statics(struct lsk_stack *s)
{
	unsigned int i;
	int rc;

	for (i = 0; i < s->n_neighs; i++) {
		const struct lsk_ifaddr *a =
			lsk_connected_lookup(s, s->neighs[i].addr);

		if (a == NULL)
			continue;
		rc = lsk_neigh_set_static(s->sh.neigh, s->neighs[i].addr,
					  a->port, &s->neighs[i].mac,
					  &s->ctl_stats);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/*
 * What the batch set, once its tables are built and before they are
 * published: the route cache first, the one setting that may need memory
 * (a failure there refuses the batch with nothing published), then GRO
 * and the mode, which cannot fail on a value their line checked (GRO's
 * line registered the train's mbuf field).
 */
static int
batch_apply_settings(struct lsk_stack *s)
{
	const struct lsk_batch_settings *b = &s->batch_set;
	int rc;

	if (b->rcache) {
		rc = lsk_route_cache_set(s, b->rcache_entries);
		if (rc < 0)
			return rc;
	}
	if (b->gro) {
		lsk_gro_set(s, b->gro_flows, b->gro_segs);
		lsk_gro_set_merge(s, b->gro_merge);
	}
	if (b->mode)
		lsk_mode_set(s, (enum lsk_mode)b->mode_value);
	if (b->fpm)
		lsk_fpm_listen_set(s, b->fpm_addr, b->fpm_port);
	return 0;
}

/* The batch left IPv6's configuration as it found it (its routes too
 * when routes: else they are in its route log, control/routes6.c). */
static bool
batch_same6(const struct lsk_stack *s, const struct lsk_rib_copy *c,
	    bool routes)
{
	return c->n_addrs6 == s->n_addrs6 && c->n_neighs6 == s->n_neighs6 &&
	       c->ra6 == s->ra6 &&
	       memcmp(c->addrs6, s->addrs6, sizeof(c->addrs6)) == 0 &&
	       (!routes || (c->n_routes6 == s->n_routes6 &&
	       (s->n_routes6 == 0 || memcmp(c->routes6, s->routes6,
				s->n_routes6 * sizeof(*s->routes6)) == 0))) &&
	       (s->n_neighs6 == 0 || memcmp(c->neighs6, s->neighs6,
				s->n_neighs6 * sizeof(*s->neighs6)) == 0);
}

/* The batch changed nothing but the routes of one family (a false "no"
 * costs a build; a batch changing both builds both whole). */
static bool
batch_routes_only(const struct lsk_stack *s)
{
	static const struct lsk_batch_settings none;
	const struct lsk_rib_copy *c = s->batch_rib;
	struct lsk_batch_settings b = s->batch_set;
	bool v4 = s->n_route_log != 0 || s->route_log_full;
	bool v6 = s->n_route6_log != 0 || s->route6_log_full;

	/* `fpm listen` is no table's: it needs no build */
	b.fpm = false;
	b.fpm_addr = 0;
	b.fpm_port = 0;
	return c != NULL && c->n_ifaces == s->n_ifaces &&
	       batch_same6(s, c, !v6 || v4) &&
	       c->n_forget == 0 && c->n_forget6 == 0 && !c->forget_all &&
	       memcmp(&b, &none, sizeof(none)) == 0 &&
	       c->n_services == s->n_services && s->services_closed == NULL &&
	       (s->n_services == 0 || memcmp(c->services, s->services,
				s->n_services * sizeof(*s->services)) == 0) &&
	       c->n_addrs == s->n_addrs && c->n_neighs == s->n_neighs &&
	       c->n_filters == s->n_filters &&
	       memcmp(c->host_if, s->host_if, sizeof(c->host_if)) == 0 &&
	       memcmp(c->host_rate, s->host_rate, sizeof(c->host_rate)) == 0 &&
	       memcmp(c->ports, s->ports, sizeof(c->ports)) == 0 &&
	       memcmp(c->addrs, s->addrs, sizeof(c->addrs)) == 0 &&
	       (s->n_neighs == 0 || memcmp(c->neighs, s->neighs,
				s->n_neighs * sizeof(*s->neighs)) == 0) &&
	       (s->n_filters == 0 || memcmp(c->filters, s->filters,
				s->n_filters * sizeof(*s->filters)) == 0);
}

/*
 * Every table of the batch is built before any is published, so a build
 * that fails leaves the workers with the tables they had, and the lists
 * go back as lsk_config_begin found them. Then each table is published
 * once. A batch of a few route changes of one family only is made to
 * its forwarding table in place (control/fwd_update.c, fwd6_update.c).
 */
int
lsk_config_commit(struct lsk_stack *s)
{
	struct lsk_filter_table *ft = NULL;
	struct lsk_udp_table *ut = NULL;
	struct lsk_fwd_table *t = NULL;
	struct lsk_fwd6_table *t6 = NULL;
	struct lsk_rib_copy *c = s->batch_rib;
	unsigned int i;
	int rc;

	if (!s->in_batch)
		return lsk_stack_publish(s);
	if (batch_routes_only(s)) {
		s->in_batch = false;
		/* one family's changes: the other's log is empty */
		if (lsk_route6_batch_commit(s) == 0 &&
		    lsk_route_batch_commit(s) == 0) {
			rib_copy_free(s->batch_rib);
			s->batch_rib = NULL;
			if (s->batch_set.fpm)
				lsk_fpm_listen_set(s, s->batch_set.fpm_addr,
						   s->batch_set.fpm_port);
			return 0;
		}
		s->in_batch = true;
	}
	rc = lsk_fwd_table_build(s, &t);
	if (rc == 0)
		rc = lsk_fwd6_table_build(s, &t6);
	if (rc == 0)
		rc = lsk_filter_table_build(s, &ft);
	if (rc == 0)
		rc = lsk_udp_table_build(s, &ut);
	if (rc == 0)
		rc = lsk_port_mtus_follow(s, c->ports, s->ports);
	/* the kernel's TAPs (control/host_ctl.c): one that cannot be made
	 * refuses the batch, as a device's MTU does */
	if (rc == 0) {
		rc = lsk_host_sync(s);
		if (rc < 0)
			lsk_port_mtus_follow(s, s->ports, c->ports);
	}
	if (rc == 0) {
		rc = batch_apply_settings(s);
		if (rc < 0)
			lsk_port_mtus_follow(s, s->ports, c->ports);
	}
	if (rc < 0) {
		lsk_fwd_table_free(t);
		lsk_fwd6_table_free(t6);
		lsk_filter_table_free(ft);
		lsk_udp_table_free(ut);
		batch_put_back(s);
		lsk_host_sync(s);	/* the TAPs as they were */
		return rc;
	}
	s->in_batch = false;
	/* neighbours go before the table without them, and statics come
	 * with the table that names their MACs (both are looked up again
	 * by workers that miss) */
	if (c->forget_all) {
		lsk_neigh_forget_all(s->sh.neigh, &s->ctl_stats);
		lsk_nd6_forget_all(s->sh.nd6, &s->ctl_stats);
	}
	for (i = 0; !c->forget_all && i < c->n_forget; i++)
		lsk_neigh_forget(s->sh.neigh, c->forget[i], &s->ctl_stats);
	for (i = 0; !c->forget_all && i < c->n_forget6; i++)
		lsk_nd6_forget(s->sh.nd6, &c->forget6[i].addr,
			       c->forget6[i].iface, &s->ctl_stats);
	/* a table full of statics: the batch is in all the same, the
	 * surplus resolved by the forwarding table's MACs */
	stack_set_statics(s);
	lsk_neigh6_set_statics(s);
	lsk_fwd_publish(s, t);
	lsk_fwd6_publish(s, t6);
	lsk_stack_settings_publish(s);	/* the ports' MTUs */
	lsk_port_admin_follow(s, c->ports, s->ports);
	lsk_publish(s, s->sh.filter, ft, lsk_filter_table_free);
	lsk_udp_table_publish(s, ut);
	lsk_services_batch_end(s, true);
	if (s->batch_set.stats_clear)
		lsk_stats_clear(s);
	memset(&s->batch_set, 0, sizeof(s->batch_set));
	rib_copy_free(s->batch_rib);
	s->batch_rib = NULL;
	return 0;
}
