/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control commands as the control socket, listack-ctl and configuration
 * files run them: one grammar (cli/config.c), answers written into a
 * growable buffer as aligned text or JSON (cli/show.c), batches
 * applied all or nothing.
 */
#ifndef LSK_CLI_H
#define LSK_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lsk_stack;

/* Longest command line, in bytes (without its newline). */
#define LSK_COMMAND_LINE_MAX 1024

/*
 * An answer: the body (a view, or nothing for a change) and, when the
 * command was refused, the reason as "SOURCE:LINE: what is wrong": one
 * such line for each bad line of a batch, newlines between them, at most
 * LSK_BATCH_ERRORS, then "... and N more". With json, the body is one
 * JSON value.
 */
#define LSK_BATCH_ERRORS 20

struct lsk_out {
	bool json;
	char *buf;		/* NUL-terminated body; NULL when empty */
	size_t len, cap;
	bool oom;		/* a write did not fit in memory */
	char err[4096];		/* empty unless refused */
};

void lsk_out_init(struct lsk_out *o, bool json);
void lsk_out_free(struct lsk_out *o);
/* Append to the body; on no memory sets o->oom and returns -ENOMEM. */
int lsk_out_printf(struct lsk_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append s as a JSON string (quoted, escaped). */
int lsk_out_json_str(struct lsk_out *o, const char *s);

/*
 * Run text (commands one a line, '#' comments, at most
 * LSK_COMMAND_LINE_MAX bytes a line) as one batch: every line is checked
 * first and the batch is applied only if all are valid and its tables
 * build; otherwise nothing changes. `show ...` lines write their view
 * into o. source names the text in errors ("FILE:LINE: ..."; "-" for a
 * client's command). Returns 0 or a negative errno, with o->err set.
 * Control thread only (or under lsk_stack_lock).
 */
int lsk_command_run(struct lsk_stack *s, const char *text, size_t len,
		    const char *source, struct lsk_out *o);

/*
 * `show routes [PREFIX]`: our addresses (local), connected subnets and
 * routes, by prefix, as an aligned table or a JSON array; with PREFIX
 * ("A.B.C.D/N" or "A.B.C.D"), the route that covers it with the longest
 * prefix (none: the text says so, the array is empty). -EINVAL for a bad
 * PREFIX,
 * -ENOMEM. `route get ADDR`: what lsk_route_get answers, as a line or a
 * JSON object (cli/route_show.c).
 */
int lsk_route_show(struct lsk_stack *s, struct lsk_out *o,
		   const char *prefix_or_null);
int lsk_route_get_show(struct lsk_stack *s, struct lsk_out *o, uint32_t addr,
		       const struct lsk_route_flow *flow);
/* rtm_protocol's name ("bgp", "ospf", ...) or its number in buf. */
const char *lsk_route_proto_name(uint8_t proto, char *buf, size_t len);

#endif /* LSK_CLI_H */
