/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for the command parser (config.c): the input is a
 * configuration text. It is applied twice, to two fresh stacks:
 *
 *   A: line by line through lsk_config_exec, as a control client would
 *      (published line by line when the text is short, else as a batch).
 *      A refused line must say FILE:LINE and must change nothing (the
 *      stack's canonical dump is the same before and after it).
 *   B: as one file through lsk_config_load, one batch checked whole
 *      before any of it is applied: loaded iff A refused no line, and
 *      then B's dump equals A's; refused naming a line A refused too,
 *      and then B is as it was made (nothing of the file applied).
 *
 * Then both stacks are destroyed and DPDK's heap, memzones and mempools
 * must be as before (LeakSanitizer checks malloc'd memory).
 *
 * A line with a NUL byte cannot be a command (lsk_config_exec sees it cut
 * short), so A counts it as refused: the loader must refuse it too.
 * `pcap FILE` services write files: they run in a private directory and
 * lose any '/' of their line, so that no input writes outside it.
 * `capture` and `trace` lines become unknown commands (refused by both):
 * a capture writes files too, and both are actions run alone, which a
 * batch of changes refuses though the line alone is valid (test_capture
 * and test_trace have it). Before that, their arguments are parsed alone
 * (cli/obs_parse.h) on A as it was made: the request accepted must
 * be within its bounds, a refusal must say why, the same line must parse
 * the same twice, and nothing may change: the stack, the trace, the
 * capture, the files.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <rte_malloc.h>
#include <rte_memzone.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "listack/listack.h"
#include "listack/udp.h"
#include "core/list.h"
#include "l2/l2.h"
#include "udp/udp.h"
#include "control/control.h"
#include "cli/cli.h"
#include "cli/cmd.h"
#include "cli/obs_parse.h"

#include "fuzz_common.h"

#define N_PORTS 4
#define INPUT_MAX 16384		/* longer inputs teach nothing more */
#define LINES_MAX 256
#define IMMEDIATE_LINES 4	/* longer texts are applied in a batch */
#define FILE_NAME "fuzz.conf"

static char work_dir[64];	/* pcap files are written here */
static char conf_path[96];	/* the text as a file, outside work_dir */
static unsigned int stack_seq;
static int home_fd;		/* the directory libFuzzer runs in */

/* ------------------------------------------------------------ dump */

struct dump {
	char *buf;
	size_t len;
	FILE *f;
};

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
put_mac(FILE *f, const struct rte_ether_addr *m)
{
	char s[RTE_ETHER_ADDR_FMT_SIZE];

	rte_ether_format_addr(s, sizeof(s), m);
	fputs(s, f);
}

/* Lines of what order does not matter for, sorted. */
static void
put_sorted(FILE *f, char **lines, unsigned int n)
{
	unsigned int i;

	qsort(lines, n, sizeof(*lines), cmp_str);
	for (i = 0; i < n; i++) {
		fputs(lines[i], f);
		free(lines[i]);
	}
	free(lines);
}

static char *
line_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *
line_printf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		fuzz_fail("out of memory");
	va_end(ap);
	return s;
}

/*
 * The stack's `show config` (cli/show_config.c), its lines sorted: what
 * the views below do not spell out (IPv6's addresses, routes, neighbours
 * and router advertisements, path sets, mode, fpm, host-if). Without it
 * a stack left with only IPv6 state looked as made and was handed to the
 * next input (tests/fuzz/regress/command-seq/ipv6-state-kept).
 */
static void
put_config(const struct lsk_stack *s, FILE *f)
{
	/* cmd_show_config only reads the stack */
	struct cmd_ctx c = { .s = (struct lsk_stack *)(uintptr_t)s,
			     .source = "-" };
	struct lsk_out o;
	char **lines = NULL, *p, *nl;
	unsigned int n = 0, cap = 0;

	lsk_out_init(&o, false);
	c.o = &o;
	if (cmd_show_config(&c) < 0 || o.oom)
		fuzz_fail("show config failed");
	for (p = o.buf; p != NULL && *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			fuzz_fail("show config line without a newline");
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			lines = realloc(lines, cap * sizeof(*lines));
			if (lines == NULL)
				fuzz_fail("out of memory");
		}
		lines[n++] = line_printf("config %.*s\n", (int)(nl - p), p);
	}
	lsk_out_free(&o);
	if (lines == NULL)
		lines = calloc(1, sizeof(*lines));
	put_sorted(f, lines, n);
}

/*
 * The stack's configuration in one canonical text: interfaces (admin
 * state and names too), addresses,
 * routes, neighbours (given and in the table), endpoints and services,
 * filter rules (in order: first match wins), GRO and route cache, then
 * its `show config` (put_config).
 */
static void
dump_stack(const struct lsk_stack *s, struct dump *d)
{
	const struct lsk_neigh_table *nt = s->sh.neigh;
	char **lines;
	unsigned int i, n;
	uint64_t *keys;
	FILE *f;

	d->buf = NULL;
	d->len = 0;
	f = open_memstream(&d->buf, &d->len);
	if (f == NULL)
		fuzz_fail("open_memstream failed");
	for (i = 0; i < s->n_ifaces; i++) {
		const struct lsk_port_conf *p = &s->ports[i];

		fprintf(f, "iface %u parent %u vlan %u mtu %u down %u mac ",
			i, p->parent, p->vlan, p->mtu, p->down);
		put_mac(f, &p->mac);
		fprintf(f, " name %s\n",
			i < s->n_ports ? s->port_names[i] : "");
	}
	keys = calloc(RTE_MAX(s->n_addrs, 1u), sizeof(*keys));
	for (i = 0; i < s->n_addrs; i++)
		keys[i] = (uint64_t)s->addrs[i].addr << 32 |
			  (uint64_t)s->addrs[i].depth << 16 | s->addrs[i].port;
	qsort(keys, s->n_addrs, sizeof(*keys), cmp_u64);
	for (i = 0; i < s->n_addrs; i++)
		fprintf(f, "address %08x/%u port %u\n",
			(uint32_t)(keys[i] >> 32), (unsigned)(keys[i] >> 16) & 0xff,
			(unsigned)keys[i] & 0xffff);
	free(keys);

	lines = calloc(RTE_MAX(s->n_routes, 1u), sizeof(*lines));
	for (i = 0; i < s->n_routes; i++)
		lines[i] = line_printf("route %08x/%u type %u gw %08x\n",
				       s->routes[i].prefix, s->routes[i].depth,
				       s->routes[i].type, s->routes[i].gateway);
	put_sorted(f, lines, s->n_routes);

	lines = calloc(RTE_MAX(s->n_neighs, 1u), sizeof(*lines));
	for (i = 0; i < s->n_neighs; i++) {
		char m[RTE_ETHER_ADDR_FMT_SIZE];

		rte_ether_format_addr(m, sizeof(m), &s->neighs[i].mac);
		lines[i] = line_printf("neigh %08x lladdr %s\n",
				       s->neighs[i].addr, m);
	}
	put_sorted(f, lines, s->n_neighs);

	/* the table the workers resolve with: its static entries */
	n = nt->n;
	lines = calloc(RTE_MAX(n, 1u), sizeof(*lines));
	for (i = 0; i < n; i++)
		lines[i] = line_printf("neigh-entry %08x port %u word %016llx\n",
				       nt->e[i].addr, nt->e[i].port,
				       (unsigned long long)nt->e[i].word);
	put_sorted(f, lines, n);

	lines = calloc(RTE_MAX(s->n_eps, 1u), sizeof(*lines));
	for (i = 0; i < s->n_eps; i++)
		lines[i] = line_printf("endpoint %08x:%u flags %u ring %u\n",
				       s->eps[i]->addr, s->eps[i]->port,
				       s->eps[i]->flags,
				       rte_ring_get_capacity(s->eps[i]->ring));
	put_sorted(f, lines, s->n_eps);
	fputs("services ", f);
	lsk_services_write_json(s, f);
	fputc('\n', f);

	for (i = 0; i < s->n_filters; i++) {
		const struct lsk_filter_rule *r = &s->filters[i];

		fprintf(f, "filter %s proto %u src %08x/%u dst %08x/%u "
			"sport %u-%u dport %u-%u\n", r->drop ? "drop" : "accept",
			r->proto, r->src, r->src_depth, r->dst, r->dst_depth,
			r->sport_lo, r->sport_hi, r->dport_lo, r->dport_hi);
	}
	fprintf(f, "gro flows %u segs %u merge %d\nroute-cache %u\n",
		s->gro_flows, s->gro_segs, s->gro_merge, s->rcache_entries);
	put_config(s, f);
	if (fclose(f) != 0)
		fuzz_fail("dump failed");
}

static void
dump_free(struct dump *d)
{
	free(d->buf);
	d->buf = NULL;
}

/* Name the first line where two dumps part, then fail. */
static void
dump_expect_equal(const struct dump *want, const struct dump *got,
		  const char *what)
{
	const char *a = want->buf, *b = got->buf;
	size_t i = 0, line = 0;

	if (strcmp(a, b) == 0)
		return;
	while (a[i] == b[i]) {
		if (a[i] == '\n')
			line = i + 1;
		i++;
	}
	fuzz_fail("%s\n--- expected from:\n%.300s\n--- got from:\n%.300s",
		  what, a + line, b + line);
}

/* ------------------------------------------------------------ stack */

struct heap_state {
	size_t alloc_bytes;
	unsigned int zones, pools;
};

static void
count_zone(const struct rte_memzone *mz, void *arg)
{
	(void)mz;
	(*(unsigned int *)arg)++;
}

static void
count_pool(struct rte_mempool *mp, void *arg)
{
	(void)mp;
	(*(unsigned int *)arg)++;
}

static struct heap_state
heap_state(void)
{
	struct rte_malloc_socket_stats st;
	struct heap_state h = { 0 };
	unsigned int sock;

	for (sock = 0; sock < RTE_MAX_NUMA_NODES; sock++)
		if (rte_malloc_get_socket_stats((int)sock, &st) == 0)
			h.alloc_bytes += st.heap_allocsz_bytes;
	rte_memzone_walk(count_zone, &h.zones);
	rte_mempool_walk(count_pool, &h.pools);
	return h;
}

static struct lsk_stack *
stack_new(void)
{
	struct lsk_stack_params params = {
		.n_ports = N_PORTS,
		.socket_id = SOCKET_ID_ANY,
		.mode = LSK_MODE_LIST,
		.max_routes = 1024,
	};
	struct lsk_stack *s;
	char name[32];

	snprintf(name, sizeof(name), "fc%u", stack_seq++ % 1000);
	params.name = name;
	if (lsk_stack_create(&params, &s) < 0)
		fuzz_fail("lsk_stack_create failed");
	return s;
}

/* The tables the workers read must exist after every command (a failed
 * change leaves the old ones). */
static void
check_tables(const struct lsk_stack *s, const char *after)
{
	if (s->sh.fwd == NULL || s->sh.udp == NULL)
		fuzz_fail("no %s table after %s",
			  s->sh.fwd == NULL ? "forwarding" : "UDP", after);
}

/* An error must name the file and the line: "FILE:LINE: what". */
static void
check_err(const char *err, const char *file, unsigned int lineno,
	  const char *line)
{
	char want[128];

	snprintf(want, sizeof(want), "%s:%u: ", file, lineno);
	if (strncmp(err, want, strlen(want)) != 0 || err[strlen(want)] == 0)
		fuzz_fail("refused line %u '%.80s' says '%s', not '%s...'",
			  lineno, line, err, want);
}

/* Remove what pcap services wrote. */
static void
clean_work_dir(void)
{
	struct dirent *e;
	DIR *d = opendir(".");

	if (d == NULL)
		fuzz_fail("cannot read %s", work_dir);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlink(e->d_name);
	closedir(d);
}

/* ---------------------------------------------------- capture, trace */

static unsigned int
work_dir_entries(void)
{
	struct dirent *e;
	unsigned int n = 0;
	DIR *d = opendir(".");

	if (d == NULL)
		fuzz_fail("cannot read %s", work_dir);
	while ((e = readdir(d)) != NULL)
		n++;
	closedir(d);
	return n;
}

static bool
is_prefix_mask(uint32_t mask)
{
	uint32_t host = ~mask;

	return (host & (host + 1)) == 0;
}

/* An accepted request, within the bounds its command promises. */
static void
check_obs_req(const struct lsk_obs_req *r, const char *line)
{
	const struct lsk_capture_conf *c = &r->cap;
	const struct lsk_trace_match *m = &r->match;

	if (r->kind == LSK_OBS_CAPTURE_START) {
		if (c->path != r->path || r->path[0] == '\0' ||
		    memchr(r->path, '\0', sizeof(r->path)) == NULL)
			fuzz_fail("'%.80s': no file name", line);
		if ((c->what & ~LSK_CAP_ALL) != 0 ||
		    (c->port != LSK_CAP_ANY_PORT && c->port >= N_PORTS) ||
		    (c->snaplen != 0 && (c->snaplen < 14 ||
					 c->snaplen > LSK_CAP_SNAPLEN_MAX)) ||
		    c->ring_size != 0 || c->pool_size != 0)
			fuzz_fail("'%.80s': capture what %#x port %u snaplen %u "
				  "ring %u pool %u out of bounds", line, c->what,
				  c->port, c->snaplen, c->ring_size,
				  c->pool_size);
	} else if (r->kind == LSK_OBS_TRACE_ADD) {
		if (r->trace_n == 0 || r->trace_n > UINT32_MAX ||
		    (m->fields & ~UINT32_C(0x7f)) != 0 ||
		    !is_prefix_mask(m->src_mask) ||
		    !is_prefix_mask(m->dst_mask) ||
		    (m->src & ~m->src_mask) != 0 ||
		    (m->dst & ~m->dst_mask) != 0 ||
		    (!(m->fields & LSK_TM_SRC) && (m->src | m->src_mask)) ||
		    (!(m->fields & LSK_TM_DST) && (m->dst | m->dst_mask)) ||
		    ((m->fields & LSK_TM_PORT) && m->port >= N_PORTS) ||
		    m->vlan > 4094)
			fuzz_fail("'%.80s': trace %llu fields %#x src %08x/%08x "
				  "dst %08x/%08x port %u vlan %u out of bounds",
				  line, (unsigned long long)r->trace_n,
				  m->fields, m->src, m->src_mask, m->dst,
				  m->dst_mask, m->port, m->vlan);
	} else if (r->kind != LSK_OBS_OTHER) {
		fuzz_fail("'%.80s': kind %d", line, (int)r->kind);
	}
}

static bool
obs_req_equal(const struct lsk_obs_req *a, const struct lsk_obs_req *b)
{
	const struct lsk_capture_conf *x = &a->cap, *y = &b->cap;
	const struct lsk_trace_match *m = &a->match, *n = &b->match;

	return a->kind == b->kind && strcmp(a->path, b->path) == 0 &&
	       x->what == y->what && x->port == y->port &&
	       x->count == y->count && x->snaplen == y->snaplen &&
	       a->trace_n == b->trace_n && m->fields == n->fields &&
	       m->src == n->src && m->src_mask == n->src_mask &&
	       m->dst == n->dst && m->dst_mask == n->dst_mask &&
	       m->sport == n->sport && m->dport == n->dport &&
	       m->port == n->port && m->vlan == n->vlan &&
	       m->proto == n->proto;
}

/* A capture or trace line parsed alone: nothing may change. */
static void
check_obs(struct lsk_stack *s, const char *line)
{
	const struct lsk_trace *trace = s->sh.trace;
	struct lsk_obs_req r, again;
	struct lsk_capture_info ci;
	struct dump before, after;
	unsigned int files = work_dir_entries();
	char err[512], err2[512];
	int rc, rc2;

	dump_stack(s, &before);
	rc = lsk_obs_parse(s, line, &r, err, sizeof(err));
	rc2 = lsk_obs_parse(s, line, &again, err2, sizeof(err2));
	if (rc > 0 || (rc < 0 && rc != -EINVAL))
		fuzz_fail("lsk_obs_parse('%.80s') returned %d", line, rc);
	if (rc < 0 && err[0] == '\0')
		fuzz_fail("'%.80s' refused without a reason", line);
	if (rc != rc2 || (rc == 0 && !obs_req_equal(&r, &again)) ||
	    (rc < 0 && strcmp(err, err2) != 0))
		fuzz_fail("'%.80s' parsed twice differs", line);
	if (rc == 0)
		check_obs_req(&r, line);
	dump_stack(s, &after);
	dump_expect_equal(&before, &after, "parsing a capture or trace line "
			  "changed the stack");
	dump_free(&before);
	dump_free(&after);
	lsk_capture_info(s, &ci);
	if (s->sh.trace != trace || ci.running || ci.ever)
		fuzz_fail("parsing '%.80s' armed a trace or a capture", line);
	if (work_dir_entries() != files)
		fuzz_fail("parsing '%.80s' made a file", line);
}

/* ------------------------------------------------------------ input */

/*
 * Two new stacks per input cost more than the input (every forwarding
 * table is a 16 MiB DIR-24-8): an input that leaves both as they were
 * made (every line refused, comments) hands them to the next input,
 * which therefore starts from the same state as when run alone.
 */
static struct lsk_stack *pair[2];
static struct dump pristine;		/* the dump of a new stack */
static struct heap_state before_pair;	/* DPDK memory before they were made */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char dir[] = "/tmp/lsk-fuzz-command-XXXXXX";

	(void)argc;
	fuzz_eal_init((*argv)[0], "512");
	if (mkdtemp(dir) == NULL)
		fuzz_fail("mkdtemp: %s", strerror(errno));
	snprintf(conf_path, sizeof(conf_path), "%s/%s", dir, FILE_NAME);
	snprintf(work_dir, sizeof(work_dir), "%s/pcap", dir);
	if (mkdir(work_dir, 0700) != 0)
		fuzz_fail("cannot make %s: %s", work_dir, strerror(errno));
	fuzz_lsan_scan_dpdk_memory();
	/* made once per process by the first `gro`: not a stack's memory */
	if (lsk_train_register() < 0)
		fuzz_fail("lsk_train_register failed");
	/* libFuzzer's paths are relative to where it started */
	home_fd = open(".", O_RDONLY | O_DIRECTORY);
	if (home_fd < 0)
		fuzz_fail("cannot open the current directory");
	return 0;
}

/* The length of the word at w (len bytes at most). */
static size_t
word_len(const char *w, size_t len)
{
	size_t n = 0;

	while (n < len && w[n] != ' ' && w[n] != '\t' && w[n] != '\n' &&
	       w[n] != '\r' && w[n] != '#')
		n++;
	return n;
}

/* Is the first word of w a prefix of capture or trace, but not all of
 * it (those lines are parsed alone first)? */
static bool
short_obs(const char *w, size_t len)
{
	size_t n = word_len(w, len);

	return n > 0 && ((n < 7 && memcmp(w, "capture", n) == 0) ||
			 (n < 5 && memcmp(w, "trace", n) == 0));
}

/* Is the line's first word cmd, or a prefix of it (cli/cmd_word.c)? */
static bool
first_word_of(const char *line, size_t len, const char *cmd)
{
	size_t i = 0, n;

	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	n = word_len(line + i, len - i);
	return n > 0 && n <= strlen(cmd) && memcmp(line + i, cmd, n) == 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *lines[LINES_MAX];
	size_t line_len[LINES_MAX];
	bool obs[LINES_MAX] = { false };
	struct dump before, after, at_b = { 0 };
	bool refused[LINES_MAX] = { false };
	struct heap_state h0, h1;
	struct lsk_stack *a, *b;
	unsigned int n = 0, i, first_err = 0;
	bool batch;
	char err[512];
	size_t pos = 0;
	FILE *f;
	int rc;

	if (size > INPUT_MAX)
		return -1;
	text = malloc(size + 1);
	if (text == NULL)
		fuzz_fail("out of memory");
	memcpy(text, data, size);
	text[size] = '\0';
	/* lines, each with its newline as the loader reads it */
	while (pos < size && n < LINES_MAX) {
		char *nl = memchr(text + pos, '\n', size - pos);
		size_t end = nl ? (size_t)(nl - text) + 1 : size;
		bool pcap;

		lines[n] = text + pos;
		line_len[n] = end - pos;
		/* "udp listen A:P p FILE": a prefix is pcap too */
		pcap = memmem(lines[n], line_len[n], "pcap", 4) != NULL ||
		       first_word_of(lines[n], line_len[n], "udp");
		for (i = 0; pcap && i < line_len[n]; i++)
			if (lines[n][i] == '/')
				lines[n][i] = '_';
		obs[n] = memmem(lines[n], line_len[n], "capture", 7) != NULL ||
			 memmem(lines[n], line_len[n], "trace", 5) != NULL;
		/* config save|reload write and read files, and are actions
		 * a batch refuses (tests/unit/cli/test_config_file.c has
		 * them): a first word from "co" on becomes unknown */
		for (i = 0; i < line_len[n] && lines[n][i] == ' '; i++)
			;
		if (i + 1 < line_len[n] && lines[n][i] == 'c' &&
		    lines[n][i + 1] == 'o')
			lines[n][i] = 'k';
		/* a prefix stands for its command (cli/cmd_word.c): a short
		 * `capture` or `trace` becomes unknown too */
		if (short_obs(lines[n] + i, line_len[n] - i))
			lines[n][i] = 'k';
		n++;
		pos = end;
	}
	size = pos;

	/* pcap files land in work_dir, and only there */
	if (chdir(work_dir) != 0)
		fuzz_fail("cannot enter %s", work_dir);
	if (pair[0] == NULL) {
		before_pair = heap_state();
		pair[0] = stack_new();
		pair[1] = stack_new();
		dump_free(&pristine);
		dump_stack(pair[0], &pristine);
	}
	a = pair[0];
	b = pair[1];
	/* capture and trace lines parsed alone, then made unknown */
	for (i = 0; i < n; i++) {
		char line[2048];
		size_t len = RTE_MIN(line_len[i], sizeof(line) - 1);
		unsigned int k;

		if (!obs[i])
			continue;
		if (memchr(lines[i], '\0', line_len[i]) == NULL) {
			memcpy(line, lines[i], len);
			line[len] = '\0';
			check_obs(a, line);
		}
		for (k = 0; k + 7 <= line_len[i]; k++)
			if (memcmp(lines[i] + k, "capture", 7) == 0)
				lines[i][k] = 'k';
		for (k = 0; k + 5 <= line_len[i]; k++)
			if (memcmp(lines[i] + k, "trace", 5) == 0)
				lines[i][k] = 'k';
	}
	/*
	 * Each command outside a batch publishes a new forwarding table: a
	 * few lines are applied so, longer texts in one batch (as the file
	 * is), or every input would cost a table per line.
	 */
	batch = n > IMMEDIATE_LINES;
	if (batch)
		lsk_config_begin(a);
	for (i = 0; i < n; i++) {
		char line[2048];
		size_t len = RTE_MIN(line_len[i], sizeof(line) - 1);

		if (memchr(lines[i], '\0', line_len[i]) != NULL) {
			/* not a command: the loader must refuse it too */
			refused[i] = true;
			if (first_err == 0)
				first_err = i + 1;
			continue;
		}
		memcpy(line, lines[i], len);
		line[len] = '\0';
		dump_stack(a, &before);
		rc = lsk_config_exec(a, line, FILE_NAME, i + 1, err,
				     sizeof(err));
		check_tables(a, line);
		if (rc > 0)
			fuzz_fail("lsk_config_exec returned %d", rc);
		if (rc < 0) {
			/* to check a seed: FUZZ_COMMAND_SHOW=1 prints why */
			if (getenv("FUZZ_COMMAND_SHOW") != NULL)
				fprintf(stderr, "refused: %s\n", err);
			check_err(err, FILE_NAME, i + 1, line);
			dump_stack(a, &after);
			dump_expect_equal(&before, &after,
					  "a refused line changed the stack");
			dump_free(&after);
			refused[i] = true;
			if (first_err == 0)
				first_err = i + 1;
		}
		dump_free(&before);
	}
	if (batch && lsk_config_commit(a) < 0)
		fuzz_fail("lsk_config_commit failed");
	check_tables(a, "lsk_config_commit");
	/* what B must be: A when every line is accepted, else as made */
	if (first_err == 0)
		dump_stack(a, &at_b);
	else
		dump_stack(b, &at_b);

	/* the same text as one file */
	f = fopen(conf_path, "w");
	if (f == NULL || fwrite(text, 1, size, f) != size || fclose(f) != 0)
		fuzz_fail("cannot write %s", conf_path);
	rc = lsk_config_load(b, conf_path, err, sizeof(err));
	check_tables(b, "lsk_config_load");
	if (rc == 0 && first_err != 0)
		fuzz_fail("the file was loaded whole, but its line %u is "
			  "refused alone", first_err);
	if (rc < 0) {
		unsigned long l;
		char *end;

		if (first_err == 0)
			fuzz_fail("the file was refused (%s), but each of its "
				  "lines is accepted alone", err);
		if (strncmp(err, conf_path, strlen(conf_path)) != 0 ||
		    err[strlen(conf_path)] != ':')
			fuzz_fail("the file's error '%s' does not name it", err);
		l = strtoul(err + strlen(conf_path) + 1, &end, 10);
		if (l == 0 || l > n || !refused[l - 1])
			fuzz_fail("the file's error '%s' names a line accepted "
				  "alone", err);
		check_err(err, conf_path, (unsigned int)l, lines[l - 1]);
	}
	dump_stack(b, &after);
	dump_expect_equal(&at_b, &after, rc < 0 ?
			  "a refused file changed the stack" :
			  "the file made what its lines one by one do not");
	dump_free(&after);
	dump_free(&at_b);

	dump_stack(a, &after);
	/* without an error B equals A: A unchanged means both are */
	if (strcmp(after.buf, pristine.buf) != 0 || first_err != 0) {
		struct dump bd;

		dump_stack(b, &bd);
		if (strcmp(after.buf, pristine.buf) != 0 ||
		    strcmp(bd.buf, pristine.buf) != 0) {
			lsk_stack_destroy(a);
			lsk_stack_destroy(b);
			pair[0] = pair[1] = NULL;
			h1 = heap_state();
			h0 = before_pair;
			if (h1.alloc_bytes != h0.alloc_bytes ||
			    h1.zones != h0.zones || h1.pools != h0.pools)
				fuzz_fail("two stacks destroyed left DPDK "
					  "memory behind: heap %zu -> %zu "
					  "bytes, memzones %u -> %u, mempools "
					  "%u -> %u", h0.alloc_bytes,
					  h1.alloc_bytes, h0.zones, h1.zones,
					  h0.pools, h1.pools);
		}
		dump_free(&bd);
	}
	dump_free(&after);
	clean_work_dir();
	if (fchdir(home_fd) != 0)
		fuzz_fail("cannot go back to the start directory");
	free(text);
	return 0;
}
