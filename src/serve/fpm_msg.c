/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The FPM reader (serve/fpm_msg.h): FPM frames -> rtnetlink messages,
 * several a frame -> operations. Every length is checked against what
 * holds it (the frame, the message, the attribute, the RTA_MULTIPATH
 * entry); a length that lies is an error, never a read past the buffer.
 *
 * Taken: RTM_NEWROUTE / RTM_DELROUTE of IPv4 and IPv6 routes of the
 * main table (unicast, blackhole, unreachable, prohibit; RTA_GATEWAY +
 * RTA_OIF, RTA_MULTIPATH with rtnh_hops as weight - 1, RTA_NH_ID),
 * RTM_NEWNEXTHOP / RTM_DELNEXTHOP (NHA_ID, NHA_GATEWAY of 4 or 16
 * bytes, NHA_OIF, NHA_BLACKHOLE, NHA_GROUP with weights). An address
 * attribute has its family's size exactly, else the message is refused.
 * Passed over and counted: other message types, families, tables, route
 * types, and routes with an encapsulation or RTA_VIA. zebra's connected
 * routes (proto kernel, no gateway) are decoded: resolving their
 * nexthops tells them (serve/fpm_nh.c). RTA_PRIORITY is checked and
 * ignored: zebra sends only its best route of a prefix.
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>

#include "serve/fpm_msg.h"

#define ATTR_MAX 64		/* above RTA_MAX and NHA_MAX: the rest ignored */
/* the smallest message that yields an operation: a header and nhmsg */
#define OP_MIN_BYTES (NLMSG_HDRLEN + sizeof(struct nhmsg))

/* The attributes of one message by type (NULL: absent); the last of a
 * type given twice counts, as the kernel's nla_parse does. */
struct attrs {
	const uint8_t *p[ATTR_MAX];
	uint16_t len[ATTR_MAX];
};

static uint32_t
get_u32(const uint8_t *p)	/* netlink's own numbers: host order */
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t
get_addr(const uint8_t *p)	/* addresses: network order */
{
	return ntohl(get_u32(p));
}

static int
attrs_parse(const uint8_t *p, size_t len, struct attrs *a)
{
	memset(a, 0, sizeof(*a));
	while (len > 0) {
		struct rtattr rta;
		size_t step;
		unsigned int type;

		if (len < sizeof(rta))
			return -LSK_FPM_ERR_ATTR;
		memcpy(&rta, p, sizeof(rta));
		if (rta.rta_len < sizeof(rta) || rta.rta_len > len)
			return -LSK_FPM_ERR_ATTR;
		type = rta.rta_type & NLA_TYPE_MASK;
		if (type < ATTR_MAX) {
			a->p[type] = p + sizeof(rta);
			a->len[type] = (uint16_t)(rta.rta_len - sizeof(rta));
		}
		/* the last attribute may go unpadded */
		step = RTA_ALIGN(rta.rta_len);
		if (step > len)
			step = len;
		p += step;
		len -= step;
	}
	return 0;
}

/* A gateway of family (4 or 16 bytes) into p: absent (0), 1, or the
 * wrong size. */
static int
attr_gw(const struct attrs *a, unsigned int type, uint8_t family,
	struct lsk_fpm_path *p)
{
	size_t size = family == AF_INET6 ? 16 : 4;

	if (a->p[type] == NULL)
		return 0;
	if (a->len[type] != size)
		return -LSK_FPM_ERR_VALUE;
	p->gw_family = family;
	if (family == AF_INET6)
		memcpy(p->gateway6.a, a->p[type], 16);
	else
		p->gateway = get_addr(a->p[type]);
	return 1;
}

/* A 4-byte attribute: absent (0), its value, or the wrong size. */
static int
attr_u32(const struct attrs *a, unsigned int type, uint32_t *v, bool addr)
{
	if (a->p[type] == NULL)
		return 0;
	if (a->len[type] != 4)
		return -LSK_FPM_ERR_VALUE;
	*v = addr ? get_addr(a->p[type]) : get_u32(a->p[type]);
	return 1;
}

static int
path_add(struct lsk_fpm_route *r, const struct lsk_fpm_path *gw,
	 uint32_t ifindex, uint16_t weight, struct lsk_fpm_stats *cnt)
{
	struct lsk_fpm_path *p;

	if (r->n_paths == LSK_FPM_PATHS_MAX) {
		cnt->PathsCut++;
		return 0;
	}
	p = &r->paths[r->n_paths++];
	*p = *gw;
	p->ifindex = ifindex;
	p->weight = weight;
	return 0;
}

/* RTA_MULTIPATH: rtnexthop entries, each with its own attributes.
 * 1 (taken), 0 (an entry needs what we do not do: skip the route), or
 * -err. */
static int
multipath_parse(const uint8_t *p, size_t len, struct lsk_fpm_route *r,
		struct lsk_fpm_stats *cnt)
{
	while (len > 0) {
		struct rtnexthop nh;
		struct attrs a;
		struct lsk_fpm_path gw = { 0 };
		size_t step;
		int rc;

		if (len < sizeof(nh))
			return -LSK_FPM_ERR_ATTR;
		memcpy(&nh, p, sizeof(nh));
		if (nh.rtnh_len < sizeof(nh) || nh.rtnh_len > len)
			return -LSK_FPM_ERR_ATTR;
		rc = attrs_parse(p + sizeof(nh), nh.rtnh_len - sizeof(nh), &a);
		if (rc == 0)
			rc = attr_gw(&a, RTA_GATEWAY, r->family, &gw);
		if (rc < 0)
			return rc;
		if (a.p[RTA_VIA] != NULL || a.p[RTA_ENCAP] != NULL)
			return 0;
		path_add(r, &gw, (uint32_t)nh.rtnh_ifindex,
			 (uint16_t)(nh.rtnh_hops + 1), cnt);
		step = RTNH_ALIGN(nh.rtnh_len);
		if (step > len)
			step = len;
		p += step;
		len -= step;
	}
	return 1;
}

static uint8_t
route_type(uint8_t rtn)
{
	switch (rtn) {
	case RTN_UNICAST:
		return LSK_ROUTE_VIA;
	case RTN_BLACKHOLE:
		return LSK_ROUTE_BLACKHOLE;
	case RTN_UNREACHABLE:
		return LSK_ROUTE_UNREACHABLE;
	case RTN_PROHIBIT:
		return LSK_ROUTE_PROHIBIT;
	}
	return UINT8_MAX;
}

/* The paths of a unicast route: 1, 0 (skipped, counted) or -err. */
static int
route_paths(const struct attrs *a, struct lsk_fpm_route *r,
	    struct lsk_fpm_stats *cnt)
{
	struct lsk_fpm_path gw = { 0 };
	uint32_t oif = 0;
	int rc, has_gw, has_oif;

	rc = attr_u32(a, RTA_NH_ID, &r->nh_id, false);
	if (rc < 0 || (rc > 0 && r->nh_id == 0))
		return -LSK_FPM_ERR_VALUE;
	if (rc > 0)
		return 1;
	if (a->p[RTA_MULTIPATH] != NULL) {
		rc = multipath_parse(a->p[RTA_MULTIPATH], a->len[RTA_MULTIPATH],
				     r, cnt);
		if (rc == 0)
			cnt->SkipEncap++;
		else if (rc > 0 && r->n_paths == 0) {
			cnt->SkipNoPath++;
			rc = 0;
		}
		return rc;
	}
	has_gw = attr_gw(a, RTA_GATEWAY, r->family, &gw);
	has_oif = attr_u32(a, RTA_OIF, &oif, false);
	if (has_gw < 0 || has_oif < 0)
		return -LSK_FPM_ERR_VALUE;
	if (has_gw == 0 && has_oif == 0) {
		cnt->SkipNoPath++;
		return 0;
	}
	path_add(r, &gw, oif, 1, cnt);
	return 1;
}

/* A destination of depth bits with no host bits (RTA_DST read as a
 * gateway would be: all zeroes when absent). */
static bool
prefix_ok(const struct lsk_fpm_path *dst, uint8_t family, uint8_t depth)
{
	unsigned int i;

	if (family == AF_INET)
		return depth <= 32 && (depth == 32 ||
			(dst->gateway & (UINT32_MAX >> depth)) == 0);
	if (depth > 128)
		return false;
	for (i = depth / 8; i < 16; i++) {
		uint8_t host = i == depth / 8 ? (uint8_t)(0xff >> (depth % 8)) :
						0xff;

		if (dst->gateway6.a[i] & host)
			return false;
	}
	return true;
}

/* RTM_NEWROUTE / RTM_DELROUTE: 1 (an op in *r), 0 (skipped), -err. */
static int
route_decode(const uint8_t *m, size_t len, bool del, struct lsk_fpm_route *r,
	     struct lsk_fpm_stats *cnt)
{
	struct rtmsg rtm;
	struct attrs a;
	struct lsk_fpm_path dst = { 0 }, any;
	uint32_t table, v;
	int rc;

	if (len < NLMSG_HDRLEN + sizeof(rtm))
		return -LSK_FPM_ERR_MESSAGE;
	memcpy(&rtm, m + NLMSG_HDRLEN, sizeof(rtm));
	rc = attrs_parse(m + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(rtm)),
			 len - NLMSG_HDRLEN - NLMSG_ALIGN(sizeof(rtm)), &a);
	if (rc < 0)
		return rc;
	if (rtm.rtm_family != AF_INET && rtm.rtm_family != AF_INET6) {
		cnt->SkipFamily++;
		return 0;
	}
	table = rtm.rtm_table;
	if (attr_u32(&a, RTA_TABLE, &table, false) < 0 ||
	    attr_gw(&a, RTA_DST, rtm.rtm_family, &dst) < 0 ||
	    attr_u32(&a, RTA_PRIORITY, &v, false) < 0 ||
	    attr_gw(&a, RTA_PREFSRC, rtm.rtm_family, &any) < 0 ||
	    attr_gw(&a, RTA_GATEWAY, rtm.rtm_family, &any) < 0 ||
	    attr_u32(&a, RTA_OIF, &v, false) < 0 ||
	    attr_u32(&a, RTA_NH_ID, &v, false) < 0 ||
	    (a.p[RTA_DST] == NULL && rtm.rtm_dst_len != 0) ||
	    !prefix_ok(&dst, rtm.rtm_family, rtm.rtm_dst_len))
		return -LSK_FPM_ERR_VALUE;
	if (table != RT_TABLE_MAIN) {
		cnt->SkipTable++;
		return 0;
	}
	memset(r, 0, offsetof(struct lsk_fpm_route, paths));
	r->family = rtm.rtm_family;
	r->prefix = dst.gateway;
	r->prefix6 = dst.gateway6;
	r->depth = rtm.rtm_dst_len;
	r->proto = rtm.rtm_protocol;
	r->withdraw = del;
	if (del)
		return 1;
	r->type = route_type(rtm.rtm_type);
	if (r->type == UINT8_MAX) {
		cnt->SkipType++;
		return 0;
	}
	if (a.p[RTA_VIA] != NULL || a.p[RTA_ENCAP] != NULL) {
		cnt->SkipEncap++;
		return 0;
	}
	if (r->type != LSK_ROUTE_VIA)
		return 1;
	return route_paths(&a, r, cnt);
}

/* NHA_GROUP: struct nexthop_grp entries, weight - 1 in each. */
static int
group_parse(const uint8_t *p, size_t len, struct lsk_fpm_nh *nh,
	    struct lsk_fpm_stats *cnt)
{
	struct nexthop_grp g;
	size_t i;

	if (len == 0 || len % sizeof(g) != 0)
		return -LSK_FPM_ERR_VALUE;
	for (i = 0; i < len / sizeof(g); i++) {
		memcpy(&g, p + i * sizeof(g), sizeof(g));
		if (g.id == 0)
			return -LSK_FPM_ERR_VALUE;
		if (nh->n_group == LSK_FPM_PATHS_MAX) {
			cnt->PathsCut++;
			continue;
		}
		nh->group[nh->n_group++] = (struct lsk_fpm_member){
			.id = g.id, .weight = (uint16_t)(g.weight + 1),
		};
	}
	return 0;
}

/* RTM_NEWNEXTHOP / RTM_DELNEXTHOP: 1 (an op in *nh), 0, -err. */
static int
nh_decode(const uint8_t *m, size_t len, bool del, struct lsk_fpm_nh *nh,
	  struct lsk_fpm_stats *cnt)
{
	struct nhmsg nhm;
	struct attrs a;
	uint8_t gw_family;
	int rc;

	if (len < NLMSG_HDRLEN + sizeof(nhm))
		return -LSK_FPM_ERR_MESSAGE;
	memcpy(&nhm, m + NLMSG_HDRLEN, sizeof(nhm));
	rc = attrs_parse(m + NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(nhm)),
			 len - NLMSG_HDRLEN - NLMSG_ALIGN(sizeof(nhm)), &a);
	if (rc < 0)
		return rc;
	memset(nh, 0, offsetof(struct lsk_fpm_nh, group));
	rc = attr_u32(&a, NHA_ID, &nh->id, false);
	if (rc <= 0 || nh->id == 0)
		return -LSK_FPM_ERR_VALUE;
	if (del)
		return 1;
	if (nhm.nh_family != AF_INET && nhm.nh_family != AF_INET6 &&
	    nhm.nh_family != AF_UNSPEC) {
		cnt->SkipFamily++;
		return 0;
	}
	if (a.p[NHA_GROUP] != NULL)
		return group_parse(a.p[NHA_GROUP], a.len[NHA_GROUP], nh, cnt)
			< 0 ? -LSK_FPM_ERR_VALUE : 1;
	if (a.p[NHA_BLACKHOLE] != NULL) {
		if (a.len[NHA_BLACKHOLE] != 0)
			return -LSK_FPM_ERR_VALUE;
		nh->blackhole = 1;
		return 1;
	}
	if (attr_u32(&a, NHA_OIF, &nh->path.ifindex, false) < 0)
		return -LSK_FPM_ERR_VALUE;
	nh->path.weight = 1;
	/* An IPv6 nexthop's gateway has 16 bytes; zebra's AF_UNSPEC ones
	 * (a static's nexthop not resolved yet, an onlink one) and IPv4's
	 * (RFC 5549) may have 4 or 16: the size tells the family. */
	gw_family = nhm.nh_family == AF_INET6 ||
		    (a.p[NHA_GATEWAY] != NULL && a.len[NHA_GATEWAY] == 16) ?
		    AF_INET6 : AF_INET;
	if (attr_gw(&a, NHA_GATEWAY, gw_family, &nh->path) < 0)
		return -LSK_FPM_ERR_VALUE;
	/* kept, so that a route naming it is skipped, not refused */
	if (a.p[NHA_ENCAP] != NULL)
		nh->unusable = 1;
	return 1;
}

/* One message into op: 1, 0 (skipped) or -err. */
static int
msg_decode(const uint8_t *m, size_t len, struct lsk_fpm_op *op,
	   struct lsk_fpm_stats *cnt)
{
	uint16_t type;

	memcpy(&type, m + offsetof(struct nlmsghdr, nlmsg_type), sizeof(type));
	cnt->Messages++;
	switch (type) {
	case RTM_NEWROUTE:
	case RTM_DELROUTE:
		op->kind = LSK_FPM_OP_ROUTE;
		return route_decode(m, len, type == RTM_DELROUTE, &op->route,
				    cnt);
	case RTM_NEWNEXTHOP:
	case RTM_DELNEXTHOP:
		op->kind = type == RTM_NEWNEXTHOP ? LSK_FPM_OP_NH_ADD :
						    LSK_FPM_OP_NH_DEL;
		return nh_decode(m, len, type == RTM_DELNEXTHOP, &op->nh, cnt);
	}
	cnt->SkipMsgType++;
	return 0;
}

/* A frame's messages into ops[*n..cap): 0, -ENOSPC (they did not all
 * fit: *n as it was), or -err. */
static int
frame_decode(const uint8_t *p, size_t len, struct lsk_fpm_op *ops,
	     unsigned int cap, unsigned int *n, struct lsk_fpm_stats *cnt)
{
	unsigned int k = *n;

	while (len > 0) {
		struct nlmsghdr h;
		size_t step;
		int rc;

		if (len < NLMSG_HDRLEN)
			return -LSK_FPM_ERR_MESSAGE;
		memcpy(&h, p, sizeof(h));
		if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > len)
			return -LSK_FPM_ERR_MESSAGE;
		if (k == cap)
			return -ENOSPC;
		rc = msg_decode(p, h.nlmsg_len, &ops[k], cnt);
		if (rc < 0)
			return rc;
		k += (unsigned int)rc;
		step = NLMSG_ALIGN(h.nlmsg_len);
		if (step > len)
			step = len;
		p += step;
		len -= step;
	}
	*n = k;
	return 0;
}

int
lsk_fpm_decode(const uint8_t *buf, size_t len, struct lsk_fpm_op *ops,
	       unsigned int cap, struct lsk_fpm_stats *cnt, size_t *used,
	       enum lsk_fpm_err *err)
{
	unsigned int n = 0;
	size_t off = 0;
	int rc;

	*err = LSK_FPM_OK;
	while (len - off >= LSK_FPM_HDR_LEN) {
		const uint8_t *f = buf + off;
		size_t flen = (size_t)f[2] << 8 | f[3];
		struct lsk_fpm_stats scratch = *cnt;

		if (f[0] != LSK_FPM_VERSION || f[1] != LSK_FPM_TYPE_NETLINK ||
		    flen < LSK_FPM_HDR_LEN) {
			*err = LSK_FPM_ERR_FRAME;
			return -EBADMSG;
		}
		if (flen > len - off)
			break;
		rc = frame_decode(f + LSK_FPM_HDR_LEN, flen - LSK_FPM_HDR_LEN,
				  ops, cap, &n, &scratch);
		if (rc == -ENOSPC)
			break;	/* the frame waits for the next call */
		if (rc < 0) {
			*err = (enum lsk_fpm_err)-rc;
			return -EBADMSG;
		}
		*cnt = scratch;
		cnt->Frames++;
		off += flen;
	}
	/* a header's first bytes can be refused before the rest comes */
	if (len - off > 0 && buf[off] != LSK_FPM_VERSION) {
		*err = LSK_FPM_ERR_FRAME;
		return -EBADMSG;
	}
	*used = off;
	return (int)n;
}

unsigned int
lsk_fpm_ops_per_frame(void)
{
	return (LSK_FPM_FRAME_MAX - LSK_FPM_HDR_LEN) / OP_MIN_BYTES;
}

const char *
lsk_fpm_err_name(enum lsk_fpm_err err)
{
	switch (err) {
	case LSK_FPM_OK:
		return "none";
	case LSK_FPM_ERR_FRAME:
		return "ErrFrames";
	case LSK_FPM_ERR_MESSAGE:
		return "ErrMessages";
	case LSK_FPM_ERR_ATTR:
		return "ErrAttributes";
	case LSK_FPM_ERR_VALUE:
		return "ErrValues";
	}
	return "?";
}
