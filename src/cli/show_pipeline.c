/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `show pipeline [dot]`: the stages and the stages each hands packets to,
 * with the packets on every edge; `dot`: the same as a graphviz digraph
 * (`show pipeline dot | dot -Tsvg > p.svg`), as grout's `graph brief`;
 * JSON: the nodes and the edges, either way.
 * The edges are those core/worker.c runs (and ip4/ip4_output.c's
 * loopback of local sends). fwd_fast's packets are those it forwarded;
 * the frames it hands on reach eth_input as if from rx, so rx ->
 * eth_input carries them.
 *
 * Where the counts come from: only the stages are counted (calls,
 * packets: core/stage.h), not the edges, and no number here is made up.
 * A node shows its stage's packets. An edge's count is known when
 *  - it is the only edge into its stage that can have carried packets:
 *    it carried all the stage's packets. An edge carried none when its
 *    source handled none, or by a rule of the loop (below);
 *  - or a counter says it: send -> ip4_output is udp OutDatagrams
 *    (ip4_output counts the ring's datagrams as it takes them), icmp ->
 *    ip4_output the rest of ip4_output's packets.
 * Any other edge reads "?" (JSON null): several sources fed its stage
 * and nothing says how many came from which.
 *
 * The rules of the loop: ip4_input runs once per IPv4 list, after
 * udp4_gro when GRO is on: when udp4_gro ran as often as ip4_input,
 * eth_input handed it nothing directly. ip4_output loops back only the
 * datagrams sent (not ICMP): with none sent, it handed ip4_local none.
 * The neighbour timer's ARP requests reach tx without a stage: with no
 * ARP request sent at all, it sent none.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "control/control.h"
#include "cli/cmd.h"

/* The nodes: the stages, then what feeds them without being one. */
enum {
	NODE_RX = LSK_STAGE_COUNT,	/* the ports' received frames */
	NODE_SEND,			/* datagrams the applications sent */
	NODE_ICMP,			/* ICMP messages the stages queued */
	NODE_NEIGH,			/* the neighbour timer's requests */
	NODE_COUNT,
};

#define S(id) LSK_STAGE_##id
static const struct {
	unsigned int from, to;
} edges[] = {
	{ NODE_RX, S(FWD_FAST) },
	{ NODE_RX, S(ETH_INPUT) },
	{ S(ETH_INPUT), S(ARP_INPUT) },
	{ S(ETH_INPUT), S(UDP4_GRO) },
	{ S(ETH_INPUT), S(IP4_INPUT) },
	{ S(UDP4_GRO), S(IP4_INPUT) },
	{ S(IP4_INPUT), S(IP4_FILTER) },
	{ S(IP4_INPUT), S(IP4_ROUTE) },
	{ S(IP4_FILTER), S(IP4_ROUTE) },
	{ S(IP4_ROUTE), S(IP4_LOCAL) },
	{ S(IP4_ROUTE), S(IP4_FORWARD) },
	{ S(IP4_LOCAL), S(UDP4_INPUT) },
	{ S(IP4_LOCAL), S(ICMP4_INPUT) },
	{ NODE_SEND, S(IP4_OUTPUT) },
	{ NODE_ICMP, S(IP4_OUTPUT) },
	{ S(IP4_OUTPUT), S(IP4_LOCAL) },
	{ S(IP4_INPUT), NODE_ICMP },
	{ S(IP4_ROUTE), NODE_ICMP },
	{ S(IP4_LOCAL), NODE_ICMP },
	{ S(IP4_FORWARD), NODE_ICMP },
	{ S(UDP4_INPUT), NODE_ICMP },
	{ S(ICMP4_INPUT), NODE_ICMP },
	{ S(FWD_FAST), S(TX) },
	{ S(IP4_FORWARD), S(TX) },
	{ S(IP4_OUTPUT), S(TX) },
	{ S(ARP_INPUT), S(TX) },
	{ NODE_NEIGH, S(TX) },
};

#define UNKNOWN UINT64_MAX

static const char *
node_name(unsigned int n)
{
	static const char *const names[] = { "rx", "send", "icmp", "neigh" };

	return n < LSK_STAGE_COUNT ? lsk_stage_name(n) : names[n - NODE_RX];
}

/* What went into node n (UNKNOWN: not counted). */
static uint64_t
node_in(const struct lsk_stats *st, unsigned int n_ports, unsigned int n)
{
	uint64_t sum = 0;
	unsigned int p;

	switch (n) {
	case NODE_RX:
		for (p = 0; p < n_ports && p < LSK_MAX_PORTS; p++)
			sum += st->ports[p].rx;
		return sum;
	case NODE_SEND:
		return st->udp.OutDatagrams;
	case NODE_ICMP: {
		uint64_t out = st->stages[S(IP4_OUTPUT)].packets;

		return out > st->udp.OutDatagrams ? out - st->udp.OutDatagrams
						  : 0;
	}
	case NODE_NEIGH:
		return st->arp.OutRequests ? UNKNOWN : 0;
	default:
		return st->stages[n].packets;
	}
}

/* Did edge e certainly carry nothing? */
static bool
edge_empty(const struct lsk_stats *st, unsigned int n_ports, unsigned int e)
{
	unsigned int from = edges[e].from, to = edges[e].to;

	if (from == S(ETH_INPUT) && to == S(IP4_INPUT) &&
	    st->stages[S(UDP4_GRO)].calls == st->stages[S(IP4_INPUT)].calls &&
	    st->stages[S(IP4_INPUT)].calls != 0)
		return true;
	if (from == S(IP4_OUTPUT) && to == S(IP4_LOCAL))
		return st->udp.OutDatagrams == 0;
	return node_in(st, n_ports, from) == 0;
}

/* The packets edge e carried, or UNKNOWN. */
static uint64_t
edge_count(const struct lsk_stats *st, unsigned int n_ports, unsigned int e)
{
	unsigned int k, to = edges[e].to;

	if (edges[e].from == NODE_SEND || edges[e].from == NODE_ICMP)
		return node_in(st, n_ports, edges[e].from);
	if (edge_empty(st, n_ports, e))
		return 0;
	for (k = 0; k < RTE_DIM(edges); k++)
		if (k != e && edges[k].to == to &&
		    !edge_empty(st, n_ports, k))
			return UNKNOWN;
	return node_in(st, n_ports, to);
}

static int
pipeline_dot(struct cmd_ctx *c, const struct lsk_stats *st)
{
	struct lsk_out *o = c->o;
	unsigned int n, e;
	int rc;

	rc = lsk_out_printf(o, "digraph listack {\n\trankdir=TB;\n"
			    "\tnode [shape=box, fontname=\"monospace\"];\n");
	for (n = 0; n < NODE_COUNT && rc == 0; n++) {
		uint64_t in = node_in(st, c->s->n_ports, n);

		if (n >= LSK_STAGE_COUNT && in == UNKNOWN)
			rc = lsk_out_printf(o, "\t\"%s\" [shape=ellipse];\n",
					    node_name(n));
		else
			rc = lsk_out_printf(o, "\t\"%s\" [label=\"%s\\n%" PRIu64
					    " packets\"%s];\n", node_name(n),
					    node_name(n), in,
					    n >= LSK_STAGE_COUNT ?
					    ", shape=ellipse" : "");
	}
	for (e = 0; e < RTE_DIM(edges) && rc == 0; e++) {
		uint64_t k = edge_count(st, c->s->n_ports, e);

		if (k == UNKNOWN)
			rc = lsk_out_printf(o, "\t\"%s\" -> \"%s\" "
					    "[label=\"?\", style=dashed];\n",
					    node_name(edges[e].from),
					    node_name(edges[e].to));
		else
			rc = lsk_out_printf(o, "\t\"%s\" -> \"%s\" [label=\"%"
					    PRIu64 "\"];\n",
					    node_name(edges[e].from),
					    node_name(edges[e].to), k);
	}
	return rc == 0 ? lsk_out_printf(o, "}\n") : rc;
}

/* JSON (also for `show pipeline dot`, dot being a text form):
 * {"nodes": [{"name", "packets"}], "edges": [{"from", "to", "packets"}]},
 * null where not counted. */
static int
pipeline_json(struct cmd_ctx *c, const struct lsk_stats *st)
{
	struct lsk_out *o = c->o;
	unsigned int n, e;
	int rc;

	rc = lsk_out_printf(o, "{\"nodes\": [");
	for (n = 0; n < NODE_COUNT && rc == 0; n++) {
		uint64_t in = node_in(st, c->s->n_ports, n);

		if (in == UNKNOWN)
			rc = lsk_out_printf(o, "%s{\"name\": \"%s\", "
					    "\"packets\": null}", n ? ", " : "",
					    node_name(n));
		else
			rc = lsk_out_printf(o, "%s{\"name\": \"%s\", "
					    "\"packets\": %" PRIu64 "}",
					    n ? ", " : "", node_name(n), in);
	}
	if (rc == 0)
		rc = lsk_out_printf(o, "], \"edges\": [");
	for (e = 0; e < RTE_DIM(edges) && rc == 0; e++) {
		uint64_t k = edge_count(st, c->s->n_ports, e);
		const char *from = node_name(edges[e].from);
		const char *to = node_name(edges[e].to);

		if (k == UNKNOWN)
			rc = lsk_out_printf(o, "%s{\"from\": \"%s\", \"to\": "
					    "\"%s\", \"packets\": null}",
					    e ? ", " : "", from, to);
		else
			rc = lsk_out_printf(o, "%s{\"from\": \"%s\", \"to\": "
					    "\"%s\", \"packets\": %" PRIu64 "}",
					    e ? ", " : "", from, to, k);
	}
	return rc == 0 ? lsk_out_printf(o, "]}\n") : rc;
}

int
cmd_show_pipeline(struct cmd_ctx *c)
{
	static const char *const head[] = { "FROM", "TO", "PACKETS" };
	struct lsk_stats st;
	struct cmd_table t;
	unsigned int e;

	lsk_stats_read(c->s, &st);
	if (c->o->json)
		return pipeline_json(c, &st);
	if (c->argc == 3)
		return pipeline_dot(c, &st);
	cmd_table_init(&t, head, RTE_DIM(head));
	for (e = 0; e < RTE_DIM(edges); e++) {
		uint64_t k = edge_count(&st, c->s->n_ports, e);

		if (cmd_table_add(&t) < 0)
			break;
		cmd_table_set(&t, 0, "%s", node_name(edges[e].from));
		cmd_table_set(&t, 1, "%s", node_name(edges[e].to));
		if (k == UNKNOWN)
			cmd_table_set(&t, 2, "?");
		else
			cmd_table_set(&t, 2, "%" PRIu64, k);
	}
	return cmd_table_print(&t, c->o);
}
