/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * VLAN sub-interfaces: `address add A/L port N vlan V` makes interface
 * (N, V), with the port's MAC and MTU. eth_input maps a tagged frame to
 * its interface and strips the tag; what is sent out of it is tagged here.
 */
#include <errno.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "core/fwd.h"
#include "core/worker.h"
#include "core/tx.h"
#include "l2/l2.h"
#include "control/control.h"

int
lsk_vlan_iface(struct lsk_stack *s, uint16_t port, uint16_t vlan)
{
	unsigned int i;

	if (port >= s->n_ports)
		return -ENODEV;
	if (vlan == 0 || vlan >= 4095)
		return -EINVAL;
	for (i = s->n_ports; i < s->n_ifaces; i++)
		if (s->ports[i].parent == port && s->ports[i].vlan == vlan)
			return (int)i;
	if (s->n_ifaces == LSK_MAX_IFACES)
		return -ENOSPC;
	i = s->n_ifaces++;
	s->ports[i] = s->ports[port];
	s->ports[i].parent = port;
	s->ports[i].vlan = vlan;
	return (int)i;
}

int
lsk_vlan_lookup(const struct lsk_fwd_table *t, uint16_t port, uint16_t vlan)
{
	unsigned int i;

	for (i = t->n_ports; i < t->n_ifaces; i++)
		if (t->ifaces[i].parent == port && t->ifaces[i].vlan == vlan)
			return (int)i;
	return -1;
}

uint16_t
lsk_vlan_tag(struct lsk_worker *w, uint16_t iface, struct rte_mbuf *m)
{
	const struct lsk_port_conf *pc = &w->fwd->ifaces[iface];
	struct rte_ether_hdr *eh;
	struct rte_vlan_hdr *vh;

	eh = (struct rte_ether_hdr *)rte_pktmbuf_prepend(m, RTE_VLAN_HLEN);
	if (unlikely(eh == NULL)) {
		w->stats.ports[pc->parent].tx_dropped++;
		rte_pktmbuf_free(m);
		return UINT16_MAX;
	}
	memmove(eh, (uint8_t *)eh + RTE_VLAN_HLEN, 2 * RTE_ETHER_ADDR_LEN);
	/* the old ethertype is already where the tag's protocol goes */
	vh = (struct rte_vlan_hdr *)(eh + 1);
	vh->vlan_tci = rte_cpu_to_be_16(pc->vlan);
	eh->ether_type = RTE_BE16(RTE_ETHER_TYPE_VLAN);
	return pc->parent;
}
