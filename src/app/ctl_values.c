/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Values listack-ctl completes from the running stack
 * (src/app/ctl_values.h): the views' JSON (cli/show.c, show_iface.c,
 * route_show.c) read object by object, each a flat list of members
 * whose names the views keep.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_values.h"

enum ctl_value_kind
ctl_values_kind(const char *before)
{
	char line[1024], *w[2], *save = NULL, *p, *last = NULL;
	unsigned int n = 0;
	size_t len;

	snprintf(line, sizeof(line), "%s", before);
	for (p = strtok_r(line, " \t", &save); p != NULL;
	     p = strtok_r(NULL, " \t", &save)) {
		if (n < 2)
			w[n] = p;
		last = p;
		n++;
	}
	if (n == 0)
		return CTL_VALUE_NONE;
	/* `port N`, `address add A port N`, `capture ... port P` */
	if (strcmp(last, "port") == 0 && strcmp(w[0], "help") != 0)
		return CTL_VALUE_PORT;
	if (n != 2)
		return CTL_VALUE_NONE;
	len = strlen(w[1]);
	if (strcmp(w[0], "route") == 0 && strncmp(w[1], "del", len) == 0)
		return CTL_VALUE_ROUTE;
	if (strcmp(w[0], "neigh") == 0 && strncmp(w[1], "del", len) == 0)
		return CTL_VALUE_NEIGH;
	if (strcmp(w[0], "udp") == 0 && strncmp(w[1], "close", len) == 0)
		return CTL_VALUE_UDP;
	return CTL_VALUE_NONE;
}

const char *
ctl_values_request(enum ctl_value_kind kind)
{
	switch (kind) {
	case CTL_VALUE_PORT:
		return "show interfaces\n";
	case CTL_VALUE_ROUTE:
		return "show routes\n";
	case CTL_VALUE_NEIGH:
		return "show neigh\n";
	case CTL_VALUE_UDP:
		return "show udp\n";
	default:
		return NULL;
	}
}

/* The value of member key in [obj, end): a string's text or a number's
 * digits, into buf; false when absent or null. */
static bool
member(const char *obj, const char *end, const char *key, char *buf,
       size_t len)
{
	char name[32];
	const char *p = obj, *v;
	size_t n;

	snprintf(name, sizeof(name), "\"%s\"", key);
	while ((p = strstr(p, name)) != NULL && p < end) {
		v = p + strlen(name);
		v += strspn(v, " ");
		p = v;
		if (*v != ':')
			continue;	/* a string that is the key's text */
		v++;
		v += strspn(v, " ");
		if (*v == '"') {
			n = strcspn(v + 1, "\"");
			v++;
		} else {
			n = strspn(v, "0123456789");
		}
		if (n == 0 || n >= len || v + n > end)
			return false;
		memcpy(buf, v, n);
		buf[n] = '\0';
		return true;
	}
	return false;
}

static unsigned int
add(char **out, unsigned int n, unsigned int max, const char *v)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (strcmp(out[i], v) == 0)
			return n;
	if (n < max && (out[n] = strdup(v)) != NULL)
		n++;
	return n;
}

unsigned int
ctl_values_parse(enum ctl_value_kind kind, const char *json, char **out,
		 unsigned int max)
{
	const char *obj = json, *end;
	char v[128], type[32];
	unsigned int n = 0;

	while (json != NULL && (obj = strchr(obj, '{')) != NULL) {
		end = strchr(obj + 1, '{');
		if (end == NULL)
			end = obj + strlen(obj);
		switch (kind) {
		case CTL_VALUE_PORT:
			/* a VLAN sub-interface is no port of its own */
			if (member(obj, end, "vlan", v, sizeof(v)) &&
			    strcmp(v, "0") != 0)
				break;
			if (member(obj, end, "port", v, sizeof(v)))
				n = add(out, n, max, v);
			if (member(obj, end, "alias", v, sizeof(v)))
				n = add(out, n, max, v);
			break;
		case CTL_VALUE_ROUTE:
			if (member(obj, end, "type", type, sizeof(type)) &&
			    (strcmp(type, "via") == 0 ||
			     strcmp(type, "blackhole") == 0) &&
			    member(obj, end, "dst", v, sizeof(v)))
				n = add(out, n, max, v);
			break;
		case CTL_VALUE_NEIGH:
			if (member(obj, end, "address", v, sizeof(v)))
				n = add(out, n, max, v);
			break;
		case CTL_VALUE_UDP:
			if (member(obj, end, "listen", v, sizeof(v)))
				n = add(out, n, max, v);
			break;
		default:
			return 0;
		}
		obj = end;
	}
	return n;
}
