/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `show pipeline [dot]`: the stages and the stages each hands packets to,
 * with the packets on every edge; `dot`: the same as a graphviz digraph
 * (`show pipeline dot | dot -Tsvg > p.svg`), as grout's `graph brief`;
 * JSON: the nodes and the edges, either way.
 * The edges are those the stages declare (worker/pipeline.h lists the
 * declarations; ip4/ip4_output.c's loopback of local sends too).
 * fwd_fast's packets are those it forwarded; the frames it hands on
 * reach eth_input as if from rx, so rx -> eth_input carries them.
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
#include "worker/pipeline.h"

/*
 * The graph, from the stages' declarations (worker/pipeline.h): the
 * nodes are the timed stages in their id's order, then every other
 * declared node that has an edge (rx, the hold queue, what feeds
 * ip4_output); the edges are the declarations' next stages, ordered by
 * where they lead in the pipeline (then by where they come from), the
 * loops back (ip4_output -> ip4_local) last.
 */
#define NODES_MAX 32
#define EDGES_MAX 64

struct graph {
	const struct lsk_stage_desc *node[NODES_MAX];
	unsigned int n_nodes;
	struct {
		const struct lsk_stage_desc *from, *to;
	} edge[EDGES_MAX];
	unsigned int n_edges;
};

static unsigned int
edge_key(const struct lsk_stage_desc *from, const struct lsk_stage_desc *to)
{
	unsigned int f = lsk_pipeline_index(from), t = lsk_pipeline_index(to);

	return (f > t ? 1u << 16 : 0) | t << 8 | f;
}

static void
graph_build(struct graph *g)
{
	unsigned int i, k, j;

	g->n_nodes = 0;
	g->n_edges = 0;
	for (i = 0; i < LSK_STAGE_COUNT; i++)
		if (lsk_stage_desc(i) != NULL)
			g->node[g->n_nodes++] = lsk_stage_desc(i);
	for (i = 0; i < lsk_pipeline_n; i++) {
		const struct lsk_stage_desc *s = lsk_pipeline[i];

		for (k = 0; s->next != NULL && s->next[k] != NULL; k++) {
			const struct lsk_stage_desc *to =
				lsk_pipeline_find(s->next[k]);
			unsigned int key;

			if (to == NULL || g->n_edges == EDGES_MAX)
				continue;
			/* insertion, stable: few edges */
			key = edge_key(s, to);
			for (j = g->n_edges; j > 0 &&
			     edge_key(g->edge[j - 1].from, g->edge[j - 1].to) >
			     key; j--)
				g->edge[j] = g->edge[j - 1];
			g->edge[j].from = s;
			g->edge[j].to = to;
			g->n_edges++;
		}
	}
	for (i = 0; i < lsk_pipeline_n && g->n_nodes < NODES_MAX; i++) {
		const struct lsk_stage_desc *s = lsk_pipeline[i];
		bool linked = false;

		if (s->id != LSK_STAGE_NONE)
			continue;
		for (k = 0; k < g->n_edges; k++)
			linked |= g->edge[k].from == s || g->edge[k].to == s;
		if (linked)
			g->node[g->n_nodes++] = s;
	}
}

#define S(id) LSK_STAGE_##id
#define UNKNOWN UINT64_MAX

static bool
is_node(const struct lsk_stage_desc *s, const char *name)
{
	return s->id == LSK_STAGE_NONE && strcmp(s->name, name) == 0;
}

static bool
is_stage(const struct lsk_stage_desc *s, int id)
{
	return s->id == id;
}

/* What went into node n (UNKNOWN: not counted). */
static uint64_t
node_in(const struct lsk_stats *st, unsigned int n_ports,
	const struct lsk_stage_desc *n)
{
	uint64_t sum = 0;
	unsigned int p;

	if (n->id != LSK_STAGE_NONE)
		return st->stages[n->id].packets;
	if (is_node(n, "rx")) {
		for (p = 0; p < n_ports && p < LSK_MAX_PORTS; p++)
			sum += st->ports[p].rx;
		return sum;
	}
	if (is_node(n, "send"))
		return st->udp.OutDatagrams;
	if (is_node(n, "icmp")) {
		uint64_t out = st->stages[S(IP4_OUTPUT)].packets;

		return out > st->udp.OutDatagrams ? out - st->udp.OutDatagrams
						  : 0;
	}
	if (is_node(n, "neigh"))
		return st->arp.OutRequests ? UNKNOWN : 0;
	return UNKNOWN;
}

/* Did edge e certainly carry nothing? */
static bool
edge_empty(const struct graph *g, const struct lsk_stats *st,
	   unsigned int n_ports, unsigned int e)
{
	const struct lsk_stage_desc *from = g->edge[e].from, *to = g->edge[e].to;

	if (is_stage(from, S(ETH_INPUT)) && is_stage(to, S(IP4_INPUT)) &&
	    st->stages[S(UDP4_GRO)].calls == st->stages[S(IP4_INPUT)].calls &&
	    st->stages[S(IP4_INPUT)].calls != 0)
		return true;
	if (is_stage(from, S(IP4_OUTPUT)) && is_stage(to, S(IP4_LOCAL)))
		return st->udp.OutDatagrams == 0;
	return node_in(st, n_ports, from) == 0;
}

/* The packets edge e carried, or UNKNOWN. */
static uint64_t
edge_count(const struct graph *g, const struct lsk_stats *st,
	   unsigned int n_ports, unsigned int e)
{
	const struct lsk_stage_desc *from = g->edge[e].from, *to = g->edge[e].to;
	unsigned int k;

	if (is_node(from, "send") || is_node(from, "icmp"))
		return node_in(st, n_ports, from);
	if (edge_empty(g, st, n_ports, e))
		return 0;
	for (k = 0; k < g->n_edges; k++)
		if (k != e && g->edge[k].to == to &&
		    !edge_empty(g, st, n_ports, k))
			return UNKNOWN;
	return node_in(st, n_ports, to);
}

static int
pipeline_dot(struct cmd_ctx *c, const struct graph *g,
	     const struct lsk_stats *st)
{
	struct lsk_out *o = c->o;
	unsigned int n, e;
	int rc;

	rc = lsk_out_printf(o, "digraph listack {\n\trankdir=TB;\n"
			    "\tnode [shape=box, fontname=\"monospace\"];\n");
	for (n = 0; n < g->n_nodes && rc == 0; n++) {
		uint64_t in = node_in(st, c->s->n_ports, g->node[n]);

		const char *name = g->node[n]->name;
		const bool stage = g->node[n]->id != LSK_STAGE_NONE;

		if (!stage && in == UNKNOWN)
			rc = lsk_out_printf(o, "\t\"%s\" [shape=ellipse];\n",
					    name);
		else
			rc = lsk_out_printf(o, "\t\"%s\" [label=\"%s\\n%" PRIu64
					    " packets\"%s];\n", name, name, in,
					    stage ? "" : ", shape=ellipse");
	}
	for (e = 0; e < g->n_edges && rc == 0; e++) {
		uint64_t k = edge_count(g, st, c->s->n_ports, e);

		if (k == UNKNOWN)
			rc = lsk_out_printf(o, "\t\"%s\" -> \"%s\" "
					    "[label=\"?\", style=dashed];\n",
					    g->edge[e].from->name,
					    g->edge[e].to->name);
		else
			rc = lsk_out_printf(o, "\t\"%s\" -> \"%s\" [label=\"%"
					    PRIu64 "\"];\n",
					    g->edge[e].from->name,
					    g->edge[e].to->name, k);
	}
	return rc == 0 ? lsk_out_printf(o, "}\n") : rc;
}

/* JSON (also for `show pipeline dot`, dot being a text form):
 * {"nodes": [{"name", "packets"}], "edges": [{"from", "to", "packets"}]},
 * null where not counted. */
static int
pipeline_json(struct cmd_ctx *c, const struct graph *g,
	      const struct lsk_stats *st)
{
	struct lsk_out *o = c->o;
	unsigned int n, e;
	int rc;

	rc = lsk_out_printf(o, "{\"nodes\": [");
	for (n = 0; n < g->n_nodes && rc == 0; n++) {
		uint64_t in = node_in(st, c->s->n_ports, g->node[n]);

		if (in == UNKNOWN)
			rc = lsk_out_printf(o, "%s{\"name\": \"%s\", "
					    "\"packets\": null}", n ? ", " : "",
					    g->node[n]->name);
		else
			rc = lsk_out_printf(o, "%s{\"name\": \"%s\", "
					    "\"packets\": %" PRIu64 "}",
					    n ? ", " : "", g->node[n]->name,
					    in);
	}
	if (rc == 0)
		rc = lsk_out_printf(o, "], \"edges\": [");
	for (e = 0; e < g->n_edges && rc == 0; e++) {
		uint64_t k = edge_count(g, st, c->s->n_ports, e);
		const char *from = g->edge[e].from->name;
		const char *to = g->edge[e].to->name;

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
	struct graph g;
	unsigned int e;

	lsk_stats_read(c->s, &st);
	graph_build(&g);
	if (c->o->json)
		return pipeline_json(c, &g, &st);
	if (c->argc == 3)
		return pipeline_dot(c, &g, &st);
	cmd_table_init(&t, head, RTE_DIM(head));
	for (e = 0; e < g.n_edges; e++) {
		uint64_t k = edge_count(&g, &st, c->s->n_ports, e);

		if (cmd_table_add(&t) < 0)
			break;
		cmd_table_set(&t, 0, "%s", g.edge[e].from->name);
		cmd_table_set(&t, 1, "%s", g.edge[e].to->name);
		if (k == UNKNOWN)
			cmd_table_set(&t, 2, "?");
		else
			cmd_table_set(&t, 2, "%" PRIu64, k);
	}
	return cmd_table_print(&t, c->o);
}
