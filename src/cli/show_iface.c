/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `show interfaces`: one block per port and per VLAN sub-interface, laid
 * out as `ip -s link` lays out a link: index, name, flags, MTU and state;
 * the MAC, driver and link speed; then RX and TX counters under their
 * names. What the device says of itself (driver, link, its counters)
 * comes from the application's facts call (listack/iface.h); the dropped
 * columns are the stack's own (ports[].rx_dropped, tx_dropped). The stack
 * counts nothing per VLAN: a VLAN's block says whose counters it shares.
 * JSON: one object per interface, the same facts, null where unknown.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "control/control.h"
#include "control/host_ctl.h"
#include "cli/cmd.h"

struct iface_view {
	unsigned int id;
	const struct lsk_port_conf *p;
	char name[24], parent[24], mac[RTE_ETHER_ADDR_FMT_SIZE];
	const char *alias;	/* the port's name, "" none */
	bool admin_up;
	bool known;		/* the facts call answered */
	struct lsk_port_facts f;
	const struct lsk_port_stats *st;	/* NULL: a VLAN */
	const char *tap;	/* its host-if's TAP, NULL none */
	unsigned int tap_ifindex;
};

/* "10 Gbps", "2.5 Gbps", "100 Mbps" */
static void
speed_text(uint32_t mbps, char *buf, size_t len)
{
	if (mbps >= 1000 && mbps % 1000 == 0)
		snprintf(buf, len, "%u Gbps", mbps / 1000);
	else if (mbps >= 1000)
		snprintf(buf, len, "%u.%u Gbps", mbps / 1000,
			 mbps % 1000 / 100);
	else
		snprintf(buf, len, "%u Mbps", mbps);
}

/* "UP", "DOWN" or "UNKNOWN" (no facts: the stack cannot tell) */
static const char *
iface_state(const struct iface_view *v)
{
	if (!v->admin_up)
		return "DOWN";
	if (!v->known)
		return "UNKNOWN";
	return v->f.link_up ? "UP" : "DOWN";
}

/* The counters' two lines: names over values, each column as wide as
 * the wider of the two, right-aligned, as ip -s link writes them. */
static int
counters_rows(struct lsk_out *o, const char *what, const char *const *head,
	      char (*val)[24], unsigned int n)
{
	unsigned int k;
	int w[8];
	int rc;

	for (k = 0; k < n; k++)
		w[k] = (int)RTE_MAX(strlen(head[k]), strlen(val[k]));
	rc = lsk_out_printf(o, "    %s:", what);
	for (k = 0; k < n && rc == 0; k++)
		rc = lsk_out_printf(o, " %*s", w[k], head[k]);
	if (rc == 0)
		rc = lsk_out_printf(o, "\n    %*s", (int)strlen(what) + 1, "");
	for (k = 0; k < n && rc == 0; k++)
		rc = lsk_out_printf(o, " %*s", w[k], val[k]);
	return rc == 0 ? lsk_out_printf(o, "\n") : rc;
}

static void
dev_value(const struct iface_view *v, uint64_t x, char *buf)
{
	if (v->known && v->f.have_stats)
		snprintf(buf, 24, "%" PRIu64, x);
	else
		snprintf(buf, 24, "-");
}

static int
iface_text(struct lsk_out *o, const struct iface_view *v)
{
	static const char *const rx_head[] = { "bytes", "packets", "errors",
					       "missed", "dropped" };
	static const char *const tx_head[] = { "bytes", "packets", "errors",
					       "dropped" };
	const struct lsk_port_facts *f = &v->f;
	char val[5][24], speed[24];
	bool link = v->known && f->link_up;
	int rc;

	rc = lsk_out_printf(o, "%u: %s", v->id, v->name);
	if (rc == 0 && v->p->vlan != 0)
		rc = lsk_out_printf(o, "@%s", v->parent);
	if (rc == 0 && v->alias[0] != '\0')
		rc = lsk_out_printf(o, " (%s)", v->alias);
	if (rc == 0)
		rc = lsk_out_printf(o, ": <%s%s%s> mtu %u state %s\n",
				    v->admin_up && v->known && !link ?
				    "NO-CARRIER," : "",
				    v->admin_up ? "UP" : "DOWN",
				    link ? ",LOWER_UP" : "", v->p->mtu,
				    iface_state(v));
	if (rc == 0)
		rc = lsk_out_printf(o, "    link/ether %s", v->mac);
	if (rc == 0 && v->tap != NULL)
		rc = lsk_out_printf(o, " host-if %s ifindex %u", v->tap,
				    v->tap_ifindex);
	if (rc == 0 && v->p->vlan != 0)
		return lsk_out_printf(o, " vlan %u\n    counters: %s's (the "
				      "stack counts none per VLAN)\n",
				      v->p->vlan, v->parent);
	if (rc == 0 && v->known)
		rc = lsk_out_printf(o, " driver %s", f->driver);
	if (rc == 0 && link && f->speed_mbps != 0) {
		speed_text(f->speed_mbps, speed, sizeof(speed));
		rc = lsk_out_printf(o, " speed %s %s-duplex", speed,
				    f->full_duplex ? "full" : "half");
	}
	if (rc == 0)
		rc = lsk_out_printf(o, "\n");
	dev_value(v, f->ibytes, val[0]);
	dev_value(v, f->ipackets, val[1]);
	dev_value(v, f->ierrors, val[2]);
	dev_value(v, f->imissed, val[3]);
	snprintf(val[4], 24, "%" PRIu64, v->st->rx_dropped);
	if (rc == 0)
		rc = counters_rows(o, "RX", rx_head, val, RTE_DIM(rx_head));
	dev_value(v, f->obytes, val[0]);
	dev_value(v, f->opackets, val[1]);
	dev_value(v, f->oerrors, val[2]);
	snprintf(val[3], 24, "%" PRIu64, v->st->tx_dropped);
	if (rc == 0)
		rc = counters_rows(o, "TX", tx_head, val, RTE_DIM(tx_head));
	return rc;
}

static void
json_dev(struct lsk_out *o, const struct iface_view *v, const char *name,
	 uint64_t x)
{
	if (v->known && v->f.have_stats)
		lsk_out_printf(o, "\"%s\": %" PRIu64 ", ", name, x);
	else
		lsk_out_printf(o, "\"%s\": null, ", name);
}

static int
iface_json(struct lsk_out *o, const struct iface_view *v, bool first)
{
	const struct lsk_port_facts *f = &v->f;
	bool link = v->known && f->link_up;

	lsk_out_printf(o, "%s{\"name\": \"%s\", \"alias\": ", first ? "" : ", ",
		       v->name);
	if (v->alias[0] != '\0')
		lsk_out_printf(o, "\"%s\"", v->alias);
	else
		lsk_out_printf(o, "null");
	lsk_out_printf(o, ", \"id\": %u, \"port\": %u, \"vlan\": %u, "
		       "\"mtu\": %u, \"mac\": \"%s\", \"admin\": \"%s\", "
		       "\"state\": \"%s\", \"link\": ", v->id, v->p->parent,
		       v->p->vlan, v->p->mtu, v->mac,
		       v->admin_up ? "up" : "down", iface_state(v));
	if (v->known)
		lsk_out_printf(o, "\"%s\"", link ? "up" : "down");
	else
		lsk_out_printf(o, "null");
	if (link && f->speed_mbps != 0)
		lsk_out_printf(o, ", \"speed_mbps\": %u, \"duplex\": \"%s\"",
			       f->speed_mbps, f->full_duplex ? "full" : "half");
	else
		lsk_out_printf(o, ", \"speed_mbps\": null, \"duplex\": null");
	if (v->known && v->p->vlan == 0)
		lsk_out_printf(o, ", \"driver\": \"%s\"", f->driver);
	else
		lsk_out_printf(o, ", \"driver\": null");
	if (v->tap != NULL)
		lsk_out_printf(o, ", \"host_if\": \"%s\", \"host_ifindex\": %u",
			       v->tap, v->tap_ifindex);
	else
		lsk_out_printf(o, ", \"host_if\": null");
	if (v->st == NULL)	/* a VLAN: its port's counters */
		return lsk_out_printf(o, ", \"rx\": null, \"tx\": null}");
	lsk_out_printf(o, ", \"rx\": {");
	json_dev(o, v, "bytes", f->ibytes);
	json_dev(o, v, "packets", f->ipackets);
	json_dev(o, v, "errors", f->ierrors);
	json_dev(o, v, "missed", f->imissed);
	lsk_out_printf(o, "\"dropped\": %" PRIu64 "}, \"tx\": {",
		       v->st->rx_dropped);
	json_dev(o, v, "bytes", f->obytes);
	json_dev(o, v, "packets", f->opackets);
	json_dev(o, v, "errors", f->oerrors);
	return lsk_out_printf(o, "\"dropped\": %" PRIu64 "}}",
			      v->st->tx_dropped);
}

/* The facts of port (none when the application gave no call, or it
 * knows nothing of the port). */
static bool
port_facts(const struct lsk_stack *s, uint16_t port, struct lsk_port_facts *f)
{
	size_t k;

	memset(f, 0, sizeof(*f));
	if (s->port_ops.facts == NULL ||
	    s->port_ops.facts(s->port_ops_arg, port, f) < 0)
		return false;
	f->driver[sizeof(f->driver) - 1] = '\0';
	/* the driver's name goes into JSON as it is */
	for (k = 0; f->driver[k] != '\0'; k++)
		if (f->driver[k] == '"' || f->driver[k] == '\\' ||
		    (unsigned char)f->driver[k] < 0x20)
			f->driver[k] = '?';
	return true;
}

int
cmd_show_interfaces(struct cmd_ctx *c)
{
	const struct lsk_stack *s = c->s;
	struct lsk_out *o = c->o;
	struct lsk_stats st;
	unsigned int i;
	int rc = 0;

	lsk_stats_read(s, &st);
	if (o->json)
		lsk_out_printf(o, "[");
	for (i = 0; i < s->n_ifaces && rc == 0; i++) {
		struct iface_view v = { .id = i, .p = &s->ports[i] };
		uint16_t port = v.p->parent;

		cmd_iface_name(s, i, v.name, sizeof(v.name));
		cmd_iface_name(s, port, v.parent, sizeof(v.parent));
		cmd_mac_text(&v.p->mac, v.mac, sizeof(v.mac));
		v.alias = v.p->vlan == 0 ? s->port_names[port] : "";
		v.admin_up = !s->ports[port].down;
		v.known = port_facts(s, port, &v.f);
		v.st = v.p->vlan == 0 && port < LSK_MAX_PORTS ?
		       &st.ports[port] : NULL;
		if (!lsk_host_tap_of(s, i, &v.tap, &v.tap_ifindex))
			v.tap = NULL;
		rc = o->json ? iface_json(o, &v, i == 0) : iface_text(o, &v);
	}
	if (rc == 0 && o->json)
		rc = lsk_out_printf(o, "]\n");
	return rc;
}
