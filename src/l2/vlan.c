/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * VLAN sub-interfaces: `address add A/L port N vlan V` makes interface
 * (N, V), with the port's MAC and MTU. eth_input maps a tagged frame to
 * its interface and strips the tag (lsk_vlan_lookup, here); what is sent
 * out of it is tagged as it is queued (lsk_vlan_tag, core/tx.c). The
 * control thread makes interfaces (lsk_vlan_iface, control/dataplane.c).
 */
#include "core/fwd.h"
#include "l2/l2.h"

int
lsk_vlan_lookup(const struct lsk_fwd_table *t, uint16_t port, uint16_t vlan)
{
	unsigned int i;

	for (i = t->n_ports; i < t->n_ifaces; i++)
		if (t->ifaces[i].parent == port && t->ifaces[i].vlan == vlan)
			return (int)i;
	return -1;
}
