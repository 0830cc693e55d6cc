/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-fwd's ports as the stack asks of them: the device's MTU
 * (lsk_port_mtu_hook), its facts for `show interfaces` and its link set
 * down and up with `port N down|up` (lsk_port_ops, listack/iface.h); and
 * link changes logged ("listack-fwd: port0 (wan) link down"): told by the
 * PMD's link-state interrupt where it has one, else seen by the main
 * lcore's poll of every port about once a second (fwd_loop.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "listack/listack.h"
#include "listack/port.h"
#include "fwd.h"

extern struct fwd_app fwd_app;

/* Each port's link as last logged (link_status, speed, duplex), and
 * whether the PMD's interrupt said it changed since. */
static struct rte_eth_link last_link[LSK_MAX_PORTS];
static bool link_changed[LSK_MAX_PORTS];

/*
 * A PMD may restart the port to change it (sfc does for its MTU): no
 * worker may be inside its rx or tx calls meanwhile. Once each worker has
 * finished the pass it was in, none is, nor comes back until the port is
 * resumed; what is sent to it meanwhile is refused. false: stopping
 * (workers leave their loops whatever pass they are in).
 */
bool
fwd_port_pause(struct fwd_app *app, uint16_t port)
{
	uint64_t seen[LSK_MAX_WORKERS];
	unsigned int i;

	app->port_paused[port] = true;
	rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
	for (i = 0; i < app->n_workers; i++)
		seen[i] = app->workers[i].polls;
	for (i = 0; i < app->n_workers && !app->stop; i++)
		while (app->workers[i].polls == seen[i] && !app->stop)
			rte_delay_us_sleep(100);
	rte_atomic_thread_fence(__ATOMIC_ACQUIRE);
	return !app->stop;
}

void
fwd_port_resume(struct fwd_app *app, uint16_t port)
{
	app->port_paused[port] = false;
}

/*
 * The port's link. DPDK 22.11's af_packet PMD says "up" from its start
 * on, whatever the interface it opened does (its link_update does
 * nothing): for it the kernel interface's carrier (IFF_RUNNING) is asked
 * instead, so that a veth whose peer went down is seen down.
 */
static int
port_link_get(uint16_t port, struct rte_eth_link *link)
{
	struct rte_eth_dev_info di;
	struct ifreq ifr;
	int rc, fd;

	rc = rte_eth_link_get_nowait(port, link);
	if (rc < 0 || rte_eth_dev_info_get(port, &di) < 0 ||
	    di.driver_name == NULL ||
	    strcmp(di.driver_name, "net_af_packet") != 0 || di.if_index == 0)
		return rc;
	memset(&ifr, 0, sizeof(ifr));
	if (if_indextoname(di.if_index, ifr.ifr_name) == NULL)
		return rc;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return rc;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 &&
	    !(ifr.ifr_flags & IFF_RUNNING))
		link->link_status = RTE_ETH_LINK_DOWN;
	close(fd);
	return rc;
}

static int
port_facts(void *arg, uint16_t port, struct lsk_port_facts *f)
{
	struct rte_eth_dev_info di;
	struct rte_eth_link link;
	struct rte_eth_stats es;
	int rc;

	(void)arg;
	rc = rte_eth_dev_info_get(port, &di);
	if (rc < 0)
		return rc;
	snprintf(f->driver, sizeof(f->driver), "%s",
		 di.driver_name ? di.driver_name : "?");
	if (port_link_get(port, &link) == 0) {
		f->link_up = link.link_status == RTE_ETH_LINK_UP;
		f->full_duplex = link.link_duplex == RTE_ETH_LINK_FULL_DUPLEX;
		if (link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
			f->speed_mbps = link.link_speed;
	}
	if (rte_eth_stats_get(port, &es) == 0) {
		f->have_stats = true;
		f->ipackets = es.ipackets;
		f->opackets = es.opackets;
		f->ibytes = es.ibytes;
		f->obytes = es.obytes;
		f->ierrors = es.ierrors;
		f->oerrors = es.oerrors;
		f->imissed = es.imissed;
	}
	return 0;
}

/* "port0" or "port0 (wan)" */
static void
port_label(struct fwd_app *app, uint16_t port, char *buf, size_t len)
{
	const char *name = lsk_port_name(app->stack, port);

	if (name[0] != '\0')
		snprintf(buf, len, "port%u (%s)", port, name);
	else
		snprintf(buf, len, "port%u", port);
}

/* The device's link set as the admin state says, where the PMD can, and
 * logged either way. pause: workers poll (at start they do not yet). */
static void
admin_apply(struct fwd_app *app, uint16_t port, bool up, bool pause)
{
	char label[48];
	int rc = -ECANCELED;

	if (!pause || fwd_port_pause(app, port))
		rc = up ? rte_eth_dev_set_link_up(port) :
		     rte_eth_dev_set_link_down(port);
	if (pause)
		fwd_port_resume(app, port);
	port_label(app, port, label, sizeof(label));
	if (rc == 0)
		printf("listack-fwd: %s admin %s\n", label, up ? "up" : "down");
	else
		printf("listack-fwd: %s admin %s (the device's link stays as "
		       "it is: %s)\n", label, up ? "up" : "down",
		       rc == -ENOTSUP ? "the driver cannot set it" :
		       strerror(-rc));
	fflush(stdout);
}

/* The stack has published the port's admin state: the device's link
 * follows where the PMD can set it (else the stack alone drops what the
 * port would send and receive). */
static void
port_admin(void *arg, uint16_t port, bool up)
{
	admin_apply(arg, port, up, true);
}

static int
port_lsc_event(uint16_t port, enum rte_eth_event_type type, void *arg,
	       void *ret)
{
	(void)type;
	(void)arg;
	(void)ret;
	if (port < LSK_MAX_PORTS)
		__atomic_store_n(&link_changed[port], true, __ATOMIC_RELEASE);
	return 0;
}

void
fwd_ports_ops_set(struct fwd_app *app, const struct lsk_port_info *info)
{
	static const struct lsk_port_ops ops = {
		.facts = port_facts,
		.admin = port_admin,
	};
	uint16_t p;

	lsk_port_ops_set(app->stack, &ops, app);
	for (p = 0; p < app->n_ports; p++) {
		/* the config's `port N down`; no worker runs yet */
		if (!lsk_port_admin_up(app->stack, p))
			admin_apply(app, p, false, false);
		if (info[p].lsc)
			rte_eth_dev_callback_register(p, RTE_ETH_EVENT_INTR_LSC,
						      port_lsc_event, NULL);
		port_link_get(p, &last_link[p]);
	}
}

/* Log each port whose link changed since the last look. all: every
 * port (the once-a-second poll), else those the interrupt named. */
void
fwd_ports_link_check(struct fwd_app *app, bool all)
{
	struct rte_eth_link link;
	char label[48], text[RTE_ETH_LINK_MAX_STR_LEN];
	uint16_t p;

	for (p = 0; p < app->n_ports; p++) {
		if (!all && !__atomic_exchange_n(&link_changed[p], false,
						 __ATOMIC_ACQ_REL))
			continue;
		if (port_link_get(p, &link) != 0 ||
		    (link.link_status == last_link[p].link_status &&
		     link.link_speed == last_link[p].link_speed &&
		     link.link_duplex == last_link[p].link_duplex))
			continue;
		last_link[p] = link;
		port_label(app, p, label, sizeof(label));
		if (link.link_status != RTE_ETH_LINK_UP)
			snprintf(text, sizeof(text), "link down");
		else if (link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN ||
			 link.link_speed == RTE_ETH_SPEED_NUM_NONE)
			snprintf(text, sizeof(text), "link up");
		else if (link.link_speed % 1000 == 0)
			snprintf(text, sizeof(text),
				 "link up %u Gbps %s-duplex",
				 link.link_speed / 1000,
				 link.link_duplex ? "full" : "half");
		else if (link.link_speed > 1000)	/* as show interfaces */
			snprintf(text, sizeof(text),
				 "link up %u.%u Gbps %s-duplex",
				 link.link_speed / 1000,
				 link.link_speed % 1000 / 100,
				 link.link_duplex ? "full" : "half");
		else
			snprintf(text, sizeof(text),
				 "link up %u Mbps %s-duplex", link.link_speed,
				 link.link_duplex ? "full" : "half");
		printf("listack-fwd: %s %s\n", label, text);
		fflush(stdout);
	}
}
