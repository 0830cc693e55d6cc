/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The capture commands (control/capture.h does the work):
 *   capture start FILE [port P] [rx|tx|drop|all]... [count N] [snaplen B]
 *   capture stop
 *   capture show
 * Start and stop are actions, not configuration: they run alone or
 * beside views, never inside a batch of changes, which could otherwise
 * be refused after a capture had started.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "control/control.h"
#include "control/capture.h"
#include "cli/cmd.h"

static const struct {
	const char *word;
	uint32_t what;
} cap_words[] = {
	{ "rx", LSK_CAP_RX },
	{ "tx", LSK_CAP_TX },
	{ "drop", LSK_CAP_DROP },
	{ "all", LSK_CAP_ALL },
};

static int
cap_usage(struct cmd_ctx *c)
{
	return cmd_error(c, -EINVAL, "usage: %s", cmd_usage("capture"));
}

int
cmd_capture_parse(struct cmd_ctx *c, struct lsk_capture_conf *conf)
{
	unsigned long v;
	int i = 3;
	size_t k;

	memset(conf, 0, sizeof(*conf));
	if (c->argc < 3)
		return cap_usage(c);
	conf->path = c->argv[2];
	conf->port = LSK_CAP_ANY_PORT;
	if (strlen(conf->path) >= sizeof(((struct lsk_capture_info *)0)->path))
		return cmd_error(c, -EINVAL, "file name too long");
	while (i < c->argc) {
		const char *w = c->argv[i];

		for (k = 0; k < RTE_DIM(cap_words); k++)
			if (strcmp(w, cap_words[k].word) == 0)
				break;
		if (k < RTE_DIM(cap_words)) {
			conf->what |= cap_words[k].what;
			i++;
			continue;
		}
		if (i + 1 >= c->argc)
			return cap_usage(c);
		if (strcmp(w, "port") == 0) {
			int named = cmd_port_by_name(c, c->argv[i + 1]);

			if (named >= 0)
				v = (unsigned long)named;
			else if (cmd_parse_uint(c->argv[i + 1],
						c->s->n_ports - 1, &v) < 0)
				return cmd_error(c, -EINVAL, "no port '%s'",
						 c->argv[i + 1]);
			conf->port = (uint16_t)v;
		} else if (strcmp(w, "count") == 0) {
			if (cmd_parse_uint(c->argv[i + 1], UINT32_MAX, &v) < 0 ||
			    v == 0)
				return cmd_error(c, -EINVAL, "bad count '%s'",
						 c->argv[i + 1]);
			conf->count = v;
		} else if (strcmp(w, "snaplen") == 0) {
			if (cmd_parse_uint(c->argv[i + 1], LSK_CAP_SNAPLEN_MAX,
					   &v) < 0 || v < 14)
				return cmd_error(c, -EINVAL,
						 "snaplen: 14 to %u bytes",
						 LSK_CAP_SNAPLEN_MAX);
			conf->snaplen = (uint32_t)v;
		} else {
			return cap_usage(c);
		}
		i += 2;
	}
	return 0;
}

static void
cap_what_text(uint32_t what, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", what & LSK_CAP_RX ? "rx " : "",
		 what & LSK_CAP_TX ? "tx " : "",
		 what & LSK_CAP_DROP ? "drop " : "");
	if (buf[0] != '\0')
		buf[strlen(buf) - 1] = '\0';
}

static int
cap_show_json(struct lsk_out *o, const struct lsk_capture_info *in)
{
	int rc;

	rc = lsk_out_printf(o, "{\"running\": %s, \"file\": ",
			    in->running ? "true" : "false");
	if (rc == 0)
		rc = in->ever ? lsk_out_json_str(o, in->path) :
				lsk_out_printf(o, "null");
	if (rc == 0 && in->port == LSK_CAP_ANY_PORT)
		rc = lsk_out_printf(o, ", \"port\": null");
	else if (rc == 0)
		rc = lsk_out_printf(o, ", \"port\": %u", in->port);
	if (rc == 0)
		rc = lsk_out_printf(o, ", \"rx\": %s, \"tx\": %s, "
			"\"drop\": %s, \"count\": %" PRIu64 ", \"snaplen\": %u"
			", \"seen\": %" PRIu64 ", \"written\": %" PRIu64
			", \"lost\": %" PRIu64 ", \"bytes\": %" PRIu64
			", \"error\": %d}\n",
			in->what & LSK_CAP_RX ? "true" : "false",
			in->what & LSK_CAP_TX ? "true" : "false",
			in->what & LSK_CAP_DROP ? "true" : "false",
			in->count, in->snaplen, in->seen, in->written,
			in->lost, in->bytes, in->error);
	return rc;
}

static int
cap_show(struct cmd_ctx *c)
{
	struct lsk_capture_info in;
	char what[32], port[16];

	lsk_capture_info(c->s, &in);
	if (!in.ever)
		in.port = LSK_CAP_ANY_PORT;
	if (c->o->json)
		return cap_show_json(c->o, &in);
	if (!in.ever)
		return lsk_out_printf(c->o, "capture  none\n");
	cap_what_text(in.what, what, sizeof(what));
	if (in.port == LSK_CAP_ANY_PORT)
		snprintf(port, sizeof(port), "any");
	else
		snprintf(port, sizeof(port), "%u", in.port);
	return lsk_out_printf(c->o,
		"capture  %s\nfile     %s\nfilter   port %s, %s, count %" PRIu64
		", snaplen %u\nseen     %" PRIu64 "\nwritten  %" PRIu64
		"\nlost     %" PRIu64 "\nbytes    %" PRIu64 "\n%s%s%s",
		in.running ? "running" : "stopped", in.path, port, what,
		in.count, in.snaplen, in.seen, in.written, in.lost, in.bytes,
		in.error ? "error    " : "", in.error ? strerror(in.error) : "",
		in.error ? "\n" : "");
}

int
cmd_capture(struct cmd_ctx *c)
{
	struct lsk_capture_conf conf;
	int rc;

	if (c->argc < 2)
		return cap_usage(c);
	if (strcmp(c->argv[1], "show") == 0) {
		if (c->argc != 2)
			return cap_usage(c);
		if (c->check)
			return 0;
		rc = cap_show(c);
		return rc < 0 || c->o->oom ?
		       cmd_error(c, -ENOMEM, "no memory for the view") : 0;
	}
	if (strcmp(c->argv[1], "stop") == 0) {
		if (c->argc != 2)
			return cap_usage(c);
		rc = 0;
	} else if (strcmp(c->argv[1], "start") == 0) {
		rc = cmd_capture_parse(c, &conf);
	} else {
		return cap_usage(c);
	}
	if (rc < 0 || c->check)
		return rc;
	if (c->s->in_batch)
		return cmd_error(c, -EINVAL, "capture %s runs alone, not in a "
				 "batch of changes", c->argv[1]);
	if (strcmp(c->argv[1], "stop") == 0) {
		rc = lsk_capture_stop(c->s);
		return rc < 0 ? cmd_error(c, rc, "no capture runs") : 0;
	}
	rc = lsk_capture_start(c->s, &conf);
	if (rc == -EBUSY)
		return cmd_error(c, rc, "a capture runs already");
	return rc < 0 ? cmd_error(c, rc, "cannot capture into %s: %s",
				  conf.path, strerror(-rc)) : 0;
}
