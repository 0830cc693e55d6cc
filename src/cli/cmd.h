/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the control grammar: what the command table (cli/config.c, cmd_*.c),
 * the batch runner (cli/command.c) and the views (cli/show*.c)
 * share. Control thread only.
 */
#ifndef LSK_CLI_CMD_H
#define LSK_CLI_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "listack/listack.h"
#include "cli/cli.h"

struct lsk_stack;

/* the longest line: route add P, then 16 x "via G weight W" */
#define CMD_MAX_WORDS 72
/* The words a prefix may stand for (cli/cmd_word.c): any keyword. */
#define CMD_FULL_WORDS CMD_MAX_WORDS

/* One command line being checked or run. */
struct cmd_ctx {
	struct lsk_stack *s;
	const char *source;	/* names the text in errors */
	unsigned int line;
	struct lsk_out *o;	/* the answer: views and the error */
	bool check;		/* parse only: change nothing */
	bool file;		/* a configuration file's line */
	/* the check pass's ports' names (cmd_port_names) */
	bool names_copied;
	char names[LSK_MAX_PORTS][LSK_PORT_NAME_MAX];
	int argc;
	char *argv[CMD_MAX_WORDS];
	/* the words prefixes were expanded to */
	char full[CMD_FULL_WORDS][24];
};

/* Write "SOURCE:LINE: what is wrong" into c->o->err; returns rc. */
int cmd_error(struct cmd_ctx *c, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Split line (modified in place: words are cut out of it, '#' ends it)
 * into c's words, the command word and the word after it expanded from
 * a unique prefix (cmd_words_resolve); the commands expand their own
 * keywords (cmd_kw). 0 (c->argc may be 0: nothing to do) or -EINVAL
 * with the error set.
 */
int cmd_split(struct cmd_ctx *c, char *line);

/* What a command does: a view (or help) changes nothing. */
bool cmd_changes(const struct cmd_ctx *c);

/* Check (c->check) or run the command in c's words. */
int cmd_dispatch(struct cmd_ctx *c);

/* `show ...` (cli/show.c) and `help ...` (cli/help.c). */
int cmd_show(struct cmd_ctx *c);
int cmd_help(struct cmd_ctx *c);
/* `capture start|stop|show` (cli/capture_cmd.c). */
int cmd_capture(struct cmd_ctx *c);
/* `trace add|show|clear` (cli/trace_cmd.c). */
int cmd_trace(struct cmd_ctx *c);
/* `ping ...` and `traceroute ...` (cli/ping_cmd.c). */
int cmd_ping(struct cmd_ctx *c);
/* Their arguments (`capture start ...`, `trace add ...`) into the
 * request: parsing only, nothing opened or armed (cli/obs_parse.h
 * drives them alone). 0 or -EINVAL with the error set. */
struct lsk_capture_conf;
struct lsk_trace_match;
int cmd_capture_parse(struct cmd_ctx *c, struct lsk_capture_conf *conf);
int cmd_trace_parse(struct cmd_ctx *c, unsigned long *n,
		    struct lsk_trace_match *m);
/* The usage line(s) of command name ("a | b" when several), or "". */
const char *cmd_usage(const char *name);
/* The words that may follow command name, space-separated, or "";
 * "help"'s are every command (cli/help.c). */
const char *cmd_words(const char *name);

/*
 * Words of the grammar (cli/cmd_word.c). cmd_word_find: the index in
 * list (space-separated) of word, exactly or as a unique prefix; -ENOENT
 * (none, or word is empty) or -EEXIST (a prefix of several).
 * cmd_word_near: the word of list at most two edits from word (and no
 * more than one in three of its letters) into buf. cmd_word: c->argv[i]
 * expanded to its word of list, or the error "[CMD: ]unknown KIND 'w';
 * did you mean 'x'? (a, b, ...)" or "'w' is ambiguous: a, b".
 * cmd_words_resolve: cmd_word on the command word and on the word after
 * it when the command has such words.
 */
int cmd_word_find(const char *list, const char *word);
bool cmd_word_near(const char *list, const char *word, char *buf,
		   size_t buf_len);
int cmd_word(struct cmd_ctx *c, int i, const char *list, const char *kind);
int cmd_words_resolve(struct cmd_ctx *c);
/* c->argv[i], where a keyword of list goes, expanded from a unique
 * prefix; left as it is otherwise (the command names it in its error). */
void cmd_kw(struct cmd_ctx *c, int i, const char *list);

/* The views, one per file part (cli/show*.c). */
int cmd_show_interfaces(struct cmd_ctx *c);
int cmd_show_routes(struct cmd_ctx *c);
int cmd_show_stats(struct cmd_ctx *c);
int cmd_show_runtime(struct cmd_ctx *c);
int cmd_show_errors(struct cmd_ctx *c);
int cmd_show_config(struct cmd_ctx *c);
int cmd_show_pipeline(struct cmd_ctx *c);

/* An aligned text table: a header row, then rows of cells. */
#define CMD_CELL 128
#define CMD_TABLE_COLS 8
struct cmd_table {
	const char *const *head;
	unsigned int ncols, nrows, cap;
	char (*cells)[CMD_CELL];
	bool oom;
};
void cmd_table_init(struct cmd_table *t, const char *const *head,
		    unsigned int ncols);
/* A new row, to be filled with cmd_table_set. */
int cmd_table_add(struct cmd_table *t);
void cmd_table_set(struct cmd_table *t, unsigned int col, const char *fmt,
		   ...) __attribute__((format(printf, 3, 4)));
/* Write the table into o, columns two spaces apart, and free it. */
int cmd_table_print(struct cmd_table *t, struct lsk_out *o);

/* Names as the views and `show config` write them. */
struct rte_ether_addr;
void cmd_iface_name(const struct lsk_stack *s, unsigned int iface, char *buf,
		    size_t len);
void cmd_mac_text(const struct rte_ether_addr *mac, char *buf, size_t len);
void cmd_prefix_text(uint32_t addr, uint8_t depth, char *buf, size_t len);
void cmd_proto_text(uint8_t proto, char *buf, size_t len);

/*
 * The grammar's word parsers (cli/cmd_parse.c). Those without a ctx
 * return -EINVAL and leave the error to the caller; those with one write
 * it (cmd_error) and return the negative errno.
 */
int cmd_parse_uint(const char *s, unsigned long max, unsigned long *out);
int cmd_parse_ip(const char *s, uint32_t *out);
/* "A.B.C.D/L", "A.B.C.D" (a /32) or "default" */
int cmd_parse_prefix(const char *s, uint32_t *addr, uint8_t *depth);
/* a prefix without host bits */
int cmd_parse_route_prefix(struct cmd_ctx *c, const char *s, uint32_t *prefix,
			   uint8_t *depth);
/* a port of the stack: its number or its name */
int cmd_parse_port(struct cmd_ctx *c, const char *s, uint16_t *port);
/* the port named s, or -ENODEV (no error written) */
int cmd_port_by_name(struct cmd_ctx *c, const char *s);
/* the ports' names as this line sees them: the stack's, or in the check
 * pass of a batch those its earlier lines gave */
char (*cmd_port_names(struct cmd_ctx *c))[LSK_PORT_NAME_MAX];
/* a unicast MAC, aa:bb:cc:dd:ee:ff */
int cmd_parse_mac(struct cmd_ctx *c, const char *s, struct rte_ether_addr *mac);
/* ADDR:PORT, ADDR may be 0.0.0.0 */
int cmd_parse_endpoint(struct cmd_ctx *c, const char *s, uint32_t *addr,
		       uint16_t *port);
/* A[-B] */
int cmd_parse_port_range(const char *s, uint16_t *lo, uint16_t *hi);
/* udp, tcp, icmp or 1-255 */
int cmd_parse_proto(const char *s, uint8_t *proto);
void cmd_ip_text(uint32_t a, char *buf, size_t len);
/* IPv6 (cli/cmd_ip6.c): a word with a ':' is an IPv6 address; the
 * words parsed (-EINVAL, no error written) and written back. */
struct lsk_ip6_addr;
struct lsk_route6;
bool cmd_is_ip6(const char *word);
int cmd_parse_ip6(const char *s, struct lsk_ip6_addr *out);
int cmd_parse_prefix6(const char *s, struct lsk_ip6_addr *addr,
		      uint8_t *depth);
void cmd_ip6_text(const struct lsk_ip6_addr *a, char *buf, size_t len);
void cmd_prefix6_text(const struct lsk_ip6_addr *a, uint8_t depth, char *buf,
		      size_t len);
/* "port N" or "port N vlan V" */
void cmd_iface_words(const struct lsk_stack *s, uint16_t iface, char *buf,
		     size_t len);
/* "port N [vlan V]" at argv[*i] (none: *port LSK_IFACE_ANY), *i past
 * it; the interface of port/vlan (LSK_IFACE_ANY stays): 0, or an
 * error written. */
int cmd_parse_port_vlan(struct cmd_ctx *c, int *i, uint16_t *port,
			uint16_t *vlan);
int cmd_iface_of(struct cmd_ctx *c, uint16_t port, uint16_t vlan,
		 uint16_t *iface);
/* IPv6's rows of `show addresses` and `show neigh` (cli/show6.c),
 * after IPv4's in t (first: none written yet); l2/l2.h's neighbour
 * states' names (cli/show.c). */
int cmd_show_addresses6(struct cmd_ctx *c, struct cmd_table *t, bool first);
int cmd_show_neigh6(struct cmd_ctx *c, struct cmd_table *t, bool first);
extern const char *const cmd_neigh_state_names[];
/* The IPv6 forms of address and neigh (cli/cmd_ip6.c), route and route
 * get ADDR6 (cli/cmd_route6.c). */
int cmd_address6(struct cmd_ctx *c);
int cmd_route6(struct cmd_ctx *c);
int cmd_route6_get(struct cmd_ctx *c);
int cmd_neigh6(struct cmd_ctx *c);

/* The commands, one file per group (cli/cmd_*.c). */
int cmd_port(struct cmd_ctx *c);
int cmd_config(struct cmd_ctx *c);	/* cli/config_file.c */
int cmd_address(struct cmd_ctx *c);
int cmd_route(struct cmd_ctx *c);
int cmd_neigh(struct cmd_ctx *c);
int cmd_route_cache(struct cmd_ctx *c);
int cmd_udp(struct cmd_ctx *c);
int cmd_gro(struct cmd_ctx *c);
int cmd_filter(struct cmd_ctx *c);
int cmd_host_if(struct cmd_ctx *c);	/* cli/cmd_host.c */
/* `fpm listen|off` and `show fpm` (cli/cmd_fpm.c). */
int cmd_fpm(struct cmd_ctx *c);
int cmd_show_fpm(struct cmd_ctx *c);

/* The route commands' shared words and rows (cli/cmd_route.h). */
#include "cli/cmd_route.h"

#endif /* LSK_CLI_CMD_H */
