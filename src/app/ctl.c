/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-ctl: the control client (docs/listack-ctl.8). It only joins
 * words, sends them over the control socket and prints the answer; the
 * stack parses and runs them (cli/cli.h).
 *
 *   listack-ctl [-s PATH] [-j] COMMAND WORDS... [-j]   one command
 *   listack-ctl [-s PATH] [-j] [WORDS...] ?       what may follow
 *   listack-ctl [-s PATH] [-j] -f FILE|-          a batch
 *   listack-ctl [-s PATH] [-j]                    interactive on a terminal
 *
 * Exit status: 0 done, 1 refused, 2 usage error or no connection.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "listack/ctl.h"
#include "lsk_version.h"
#include "ctl.h"

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: listack-ctl [-s PATH] [-j] COMMAND WORDS...\n"
		"       listack-ctl [-s PATH] [-j] -f FILE|-\n"
		"       listack-ctl [-s PATH] [-j]          (interactive)\n"
		"       listack-ctl --version | --help\n"
		"  -s PATH  the control socket (default $LISTACK_CTL_SOCKET, "
		"else %s)\n"
		"  -j       answers, errors included, as JSON (also last: "
		"COMMAND WORDS... -j)\n"
		"  COMMAND WORDS... ?   what may follow the words\n"
		"  -f FILE  run FILE (- for stdin) as one batch: all or "
		"nothing\n"
		"  listack-ctl help   lists every command\n"
		"protocol version %d; see listack-ctl(8)\n",
		LSK_CTL_DEFAULT_PATH, LSK_CTL_VERSION);
}

/* Print a JSON string (for the error objects listack-ctl makes itself). */
static void
json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

void
ctl_print_error(bool json, const char *msg, int err)
{
	if (json) {
		printf("{\"error\": ");
		json_str(stdout, msg);
		printf(", \"errno\": %d}\n", err);
		fflush(stdout);
	} else {
		fprintf(stderr, "listack-ctl: %s\n", msg);
	}
}

int
ctl_print_answer(const struct ctl_answer *a, bool json)
{
	if (a->hdr.status != LSK_CTL_OK) {
		ctl_print_error(json, a->err ? a->err : strerror(a->hdr.err),
				a->hdr.err);
		return a->hdr.status == LSK_CTL_FATAL ? CTL_EXIT_NOCONN :
		       CTL_EXIT_REFUSED;
	}
	if (a->body != NULL) {
		fputs(a->body, stdout);
		if (a->hdr.body_len && a->body[a->hdr.body_len - 1] != '\n')
			fputc('\n', stdout);
	} else if (json) {
		printf("{}\n");
	}
	fflush(stdout);
	return 0;
}

/*
 * A command typed (one line, source "-") is not a file: its error needs
 * no "-:1: " before it. Batches keep their FILE:LINE.
 */
static void
strip_source(struct ctl_answer *a, const char *text, size_t len,
	     const char *source)
{
	const char *nl = memchr(text, '\n', len);

	if (a->err == NULL || strcmp(source, "-") != 0 ||
	    (nl != NULL && nl != text + len - 1) ||
	    strncmp(a->err, "-:1: ", 5) != 0)
		return;
	memmove(a->err, a->err + 5, strlen(a->err + 5) + 1);
}

/* Send one batch, print its answer; the exit status it deserves. */
int
ctl_run(struct ctl_conn *c, const char *text, size_t len, const char *source,
	bool json)
{
	struct ctl_answer a;
	char why[512];
	int rc;

	if (ctl_request(c, text, len, source, &a, why, sizeof(why)) < 0) {
		ctl_print_error(json, why, ECONNRESET);
		return CTL_EXIT_NOCONN;
	}
	strip_source(&a, text, len, source);
	rc = ctl_print_answer(&a, json);
	ctl_answer_free(&a);
	return rc;
}

/* The file's name as a batch's SOURCE word (serve/ctl_proto.h). */
static void
source_name(const char *path, char *out)
{
	const char *base = strrchr(path, '/');
	size_t i;

	base = base ? base + 1 : path;
	if (strcmp(path, "-") == 0 || *base == '\0')
		base = "-";
	for (i = 0; base[i] && i < LSK_CTL_SOURCE_MAX; i++)
		out[i] = lsk_ctl_source_ok(base + i, 1) ? base[i] : '_';
	out[i] = '\0';
}

static char *
read_file(const char *path, size_t *len, char *why, size_t why_len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	size_t cap = 0, n = 0;
	char *buf = NULL;

	if (f == NULL) {
		snprintf(why, why_len, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t got;

		if (n == cap) {
			char *b;

			cap = cap ? cap * 2 : 65536;
			if (cap > (size_t)LSK_CTL_REQUEST_MAX + 1)
				cap = (size_t)LSK_CTL_REQUEST_MAX + 1;
			b = n == cap ? NULL : realloc(buf, cap);
			if (b == NULL) {
				snprintf(why, why_len, "%s: larger than a "
					 "batch may be (%u bytes)", path,
					 LSK_CTL_REQUEST_MAX);
				goto fail;
			}
			buf = b;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(why, why_len, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf ? buf : strdup("");
fail:
	if (f != stdin)
		fclose(f);
	free(buf);
	return NULL;
}

/* The command words as one line; NULL if a word holds a newline. */
static char *
join_words(int argc, char **argv, size_t *len)
{
	size_t n = 0;
	char *line, *p;
	int i;

	for (i = 0; i < argc; i++) {
		if (strchr(argv[i], '\n') != NULL)
			return NULL;
		n += strlen(argv[i]) + 1;
	}
	line = malloc(n + 1);
	if (line == NULL)
		return NULL;
	p = line;
	for (i = 0; i < argc; i++)
		p += sprintf(p, "%s%s", argv[i], i + 1 < argc ? " " : "\n");
	*len = n;
	return line;
}

/*
 * `config save|reload FILE`: listack-fwd reads and writes FILE, in its
 * own directory; a relative FILE is meant as from here.
 */
static char *
absolute_file(int argc, char **argv)
{
	char cwd[4096], *abs;

	if (argc != 3 || strcmp(argv[0], "config") != 0 ||
	    argv[2][0] == '/' || getcwd(cwd, sizeof(cwd)) == NULL ||
	    asprintf(&abs, "%s/%s", cwd, argv[2]) < 0)
		return NULL;
	argv[2] = abs;
	return abs;
}

/*
 * `WORDS... ?`: what may follow the words, as `help` says it: every
 * command, or the forms of the command the first word is (a prefix
 * will do, as anywhere).
 */
int
ctl_what_next(struct ctl_conn *c, const char *first, bool json)
{
	char line[300];
	size_t n = first ? strcspn(first, " \t\n") : 0;

	if (n == 0)
		snprintf(line, sizeof(line), "help\n");
	else
		snprintf(line, sizeof(line), "help %.*s\n",
			 (int)(n > 256 ? 256 : n), first);
	return ctl_run(c, line, strlen(line), "-", json);
}

static int
what_next(const char *path, int n, char **words, bool json)
{
	struct ctl_conn conn;
	char why[512];
	int rc;

	rc = ctl_connect(&conn, path, json, why, sizeof(why));
	if (rc < 0) {
		ctl_print_error(json, why, -rc);
		return CTL_EXIT_NOCONN;
	}
	rc = ctl_what_next(&conn, n ? words[0] : NULL, json);
	ctl_close(&conn);
	return rc;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = getenv("LISTACK_CTL_SOCKET"), *file = NULL;
	struct ctl_conn conn;
	char why[512], source[LSK_CTL_SOURCE_MAX + 1];
	bool json = false;
	size_t len = 0;
	char *text;
	int c, rc;

	/* '+': the command's own words are not options */
	while ((c = getopt_long(argc, argv, "+s:jf:h", longopts,
				NULL)) != -1) {
		switch (c) {
		case 's':
			path = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'f':
			file = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("listack-ctl %s (protocol version %d)\n",
			       LSK_VERSION, LSK_CTL_VERSION);
			return 0;
		default:
			usage(stderr);
			return CTL_EXIT_USAGE;
		}
	}
	if (path == NULL || path[0] == '\0')
		path = LSK_CTL_DEFAULT_PATH;
	/* -j after the words, as last: no command's word is "-j" there */
	if (optind < argc - 1 && (strcmp(argv[argc - 1], "-j") == 0 ||
				  strcmp(argv[argc - 1], "--json") == 0)) {
		json = true;
		argc--;
	}
	if (optind < argc && strcmp(argv[argc - 1], "?") == 0)
		return what_next(path, argc - 1 - optind, argv + optind, json);
	if (file != NULL && optind < argc) {
		fprintf(stderr, "listack-ctl: -f runs a file; give no command "
			"words with it\n");
		usage(stderr);
		return CTL_EXIT_USAGE;
	}
	if (file == NULL && optind == argc && !isatty(STDIN_FILENO))
		file = "-";
	if (file != NULL) {
		text = read_file(file, &len, why, sizeof(why));
		if (text == NULL) {
			ctl_print_error(json, why, errno);
			return CTL_EXIT_USAGE;
		}
		source_name(file, source);
	} else if (optind < argc) {
		char *abs = absolute_file(argc - optind, argv + optind);

		text = join_words(argc - optind, argv + optind, &len);
		free(abs);
		if (text == NULL) {
			fprintf(stderr, "listack-ctl: a command is one line\n");
			return CTL_EXIT_USAGE;
		}
		strcpy(source, "-");
	} else {
		return ctl_interactive(path, json);
	}
	rc = ctl_connect(&conn, path, json, why, sizeof(why));
	if (rc < 0) {
		ctl_print_error(json, why, -rc);
		free(text);
		return CTL_EXIT_NOCONN;
	}
	rc = ctl_run(&conn, text, len, source, json);
	ctl_close(&conn);
	free(text);
	return rc;
}
