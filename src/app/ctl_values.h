/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * listack-ctl's completion of values from the running stack
 * (src/app/ctl_values.c): which view holds the values that may follow
 * the words typed, and those values read out of its JSON answer. No
 * connection here: src/app/ctl_interactive.c asks the server.
 */
#ifndef LSK_APP_CTL_VALUES_H
#define LSK_APP_CTL_VALUES_H

#define CTL_VALUES_MAX 256

/* What comes next after the words of before (the line up to the word
 * being typed): a port, a route, a neighbour or a UDP service. */
enum ctl_value_kind {
	CTL_VALUE_NONE,
	CTL_VALUE_PORT,		/* after port, anywhere */
	CTL_VALUE_ROUTE,	/* route del */
	CTL_VALUE_NEIGH,	/* neigh del */
	CTL_VALUE_UDP,		/* udp close */
};

enum ctl_value_kind ctl_values_kind(const char *before);
/* The request that holds them ("show interfaces\n" ...), or NULL. */
const char *ctl_values_request(enum ctl_value_kind kind);
/*
 * The values of kind in json (the request's answer): ports' numbers and
 * names, the routes' prefixes (not local or connected ones), the
 * neighbours' addresses, the services' ADDR:PORT. Into out (malloc'd,
 * each once), at most max; returns how many.
 */
unsigned int ctl_values_parse(enum ctl_value_kind kind, const char *json,
			      char **out, unsigned int max);

#endif
