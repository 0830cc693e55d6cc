/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The kernel TAP devices that mirror our interfaces: made, set (MAC, MTU,
 * up, carrier, addresses) and, by closing the descriptor, removed. Called
 * by the control thread only (control/host_ctl.c); the host thread reads
 * and writes the descriptors (host_thread.c).
 *
 * A TAP is IFF_NOARP: listack answers ARP on the wire (one reply per
 * request), and the kernel, which never sees an ARP frame (nothing
 * punts one), sends none either: its frames leave through listack's own
 * neighbour resolution. IPv6 is on, ND's part off (tap_ipv6_on says
 * how; docs/host-path.md, "IPv6").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if_arp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "host/host.h"

/* An ioctl on an AF_INET datagram socket, as ip(8) does. */
static int
tap_ifreq(unsigned long req, struct ifreq *ifr)
{
	int sk = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int rc = 0;

	if (sk < 0)
		return -errno;
	if (ioctl(sk, req, ifr) < 0)
		rc = -errno;
	close(sk);
	return rc;
}

static int
tap_name(struct ifreq *ifr, const char *name)
{
	memset(ifr, 0, sizeof(*ifr));
	if (name == NULL || name[0] == '\0' || strlen(name) >= IFNAMSIZ)
		return -EINVAL;
	snprintf(ifr->ifr_name, IFNAMSIZ, "%s", name);
	return 0;
}

/* Write val to the TAP's /proc/sys/net/ipv6/conf/NAME/KEY; false when it
 * could not (a kernel without IPv6, or without that knob). */
static bool
tap_sysctl6(const char *name, const char *key, const char *val)
{
	char path[128];
	bool ok;
	int fd;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/%s", name,
		 key);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok;
}

/*
 * IPv6 on the TAP as a host behind listack: its link-local address made
 * from the MAC as listack makes ours (EUI-64: the same address), the
 * global ones added by lsk_tap_addr6 (no DAD: listack probes on the
 * wire). It neither solicits nor takes routers nor autoconfigures
 * (listack is the router, and its RAs never reach the TAP), and, being
 * IFF_NOARP, resolves no neighbour and makes no DAD probe: the kernel's
 * unicast leaves through listack's ND with its own MAC as destination,
 * as its IPv4 does (host_inject.c drops what ND it still sends).
 * Before the first knob the device is made to take IPv6 at all.
 */
static void
tap_ipv6_on(const char *name)
{
	static const char *const knobs[][2] = {
		{ "addr_gen_mode", "0" },	/* EUI-64, as ours */
		{ "accept_dad", "0" },
		{ "dad_transmits", "0" },
		{ "accept_ra", "0" },
		{ "autoconf", "0" },
		{ "router_solicitations", "0" },
		{ "disable_ipv6", "0" },
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(knobs); i++)
		(void)tap_sysctl6(name, knobs[i][0], knobs[i][1]);
}

int
lsk_tap_open(const char *name, unsigned int *ifindex)
{
	struct ifreq ifr;
	int fd, rc;

	rc = tap_name(&ifr, name);
	if (rc < 0)
		return rc;
	fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	/* a device of that name that is no free TAP: EBUSY or EINVAL */
	if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	if (strcmp(ifr.ifr_name, name) != 0) {	/* a pattern: refused */
		close(fd);
		return -EINVAL;
	}
	tap_ipv6_on(name);
	rc = tap_name(&ifr, name);
	if (rc == 0)
		rc = tap_ifreq(SIOCGIFINDEX, &ifr);
	if (rc == 0) {
		*ifindex = (unsigned int)ifr.ifr_ifindex;
		rc = tap_ifreq(SIOCGIFFLAGS, &ifr);
	}
	if (rc == 0) {
		ifr.ifr_flags |= IFF_NOARP;
		rc = tap_ifreq(SIOCSIFFLAGS, &ifr);
	}
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

int
lsk_tap_set_mac(const char *name, const struct rte_ether_addr *mac)
{
	struct ifreq ifr;
	int rc = tap_name(&ifr, name);

	if (rc < 0)
		return rc;
	ifr.ifr_hwaddr.sa_family = ARPHRD_ETHER;
	memcpy(ifr.ifr_hwaddr.sa_data, mac->addr_bytes, RTE_ETHER_ADDR_LEN);
	return tap_ifreq(SIOCSIFHWADDR, &ifr);
}

int
lsk_tap_set_mtu(const char *name, uint16_t mtu)
{
	struct ifreq ifr;
	int rc = tap_name(&ifr, name);

	if (rc < 0)
		return rc;
	ifr.ifr_mtu = mtu;
	return tap_ifreq(SIOCSIFMTU, &ifr);
}

int
lsk_tap_set_up(const char *name, bool up)
{
	struct ifreq ifr;
	int rc = tap_name(&ifr, name);

	if (rc == 0)
		rc = tap_ifreq(SIOCGIFFLAGS, &ifr);
	if (rc < 0)
		return rc;
	ifr.ifr_flags |= IFF_NOARP;
	if (up)
		ifr.ifr_flags |= IFF_UP;
	else
		ifr.ifr_flags &= ~IFF_UP;
	return tap_ifreq(SIOCSIFFLAGS, &ifr);
}

int
lsk_tap_set_carrier(int fd, bool on)
{
	int v = on;

	return ioctl(fd, TUNSETCARRIER, &v) < 0 ? -errno : 0;
}

/* A netlink attribute of len bytes of data at the message's end. */
static void
nl_attr(struct nlmsghdr *nh, size_t cap, uint16_t type, const void *data,
	uint16_t len)
{
	struct rtattr *rta = (struct rtattr *)((char *)nh +
					       NLMSG_ALIGN(nh->nlmsg_len));

	if (NLMSG_ALIGN(nh->nlmsg_len) + RTA_SPACE(len) > cap)
		return;		/* never with the attributes below */
	rta->rta_type = type;
	rta->rta_len = (unsigned short)RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), data, len);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + RTA_SPACE(len);
}

/* Send nh and read the kernel's acknowledgement: 0 or its errno. */
static int
nl_request(struct nlmsghdr *nh)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char buf[1024];
	struct nlmsghdr *ack = (struct nlmsghdr *)buf;
	struct timeval tv = { .tv_sec = 2 };
	ssize_t n;
	int sk, rc;

	sk = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (sk < 0)
		return -errno;
	setsockopt(sk, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (sendto(sk, nh, nh->nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		rc = -errno;
		close(sk);
		return rc;
	}
	n = recv(sk, buf, sizeof(buf), 0);
	rc = n < 0 ? -errno : -EIO;
	if (n >= (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr)) &&
	    ack->nlmsg_type == NLMSG_ERROR)
		rc = ((struct nlmsgerr *)NLMSG_DATA(ack))->error;
	close(sk);
	return rc;
}

int
lsk_tap_addr(unsigned int ifindex, uint32_t addr, uint8_t depth, bool add)
{
	struct {
		struct nlmsghdr nh;
		struct ifaddrmsg ifa;
		char attrs[64];
	} req;
	uint32_t a = htonl(addr);
	uint32_t bcast = htonl(addr | (depth ? ~(UINT32_MAX << (32 - depth)) :
				       UINT32_MAX));
	int rc;

	if (depth == 0 || depth > 32)
		return -EINVAL;
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifa));
	req.nh.nlmsg_type = add ? RTM_NEWADDR : RTM_DELADDR;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK |
			     (add ? NLM_F_CREATE | NLM_F_REPLACE : 0);
	req.nh.nlmsg_seq = 1;
	req.ifa.ifa_family = AF_INET;
	req.ifa.ifa_prefixlen = depth;
	req.ifa.ifa_scope = RT_SCOPE_UNIVERSE;
	req.ifa.ifa_index = ifindex;
	nl_attr(&req.nh, sizeof(req), IFA_LOCAL, &a, 4);
	nl_attr(&req.nh, sizeof(req), IFA_ADDRESS, &a, 4);
	if (add && depth < 31)
		nl_attr(&req.nh, sizeof(req), IFA_BROADCAST, &bcast, 4);
	rc = nl_request(&req.nh);
	/* gone already (a TAP set down loses nothing, but be kind) */
	if (!add && rc == -EADDRNOTAVAIL)
		rc = 0;
	return rc;
}

int
lsk_tap_addr6(unsigned int ifindex, const uint8_t *addr, uint8_t depth,
	      bool add)
{
	struct {
		struct nlmsghdr nh;
		struct ifaddrmsg ifa;
		char attrs[64];
	} req;
	int rc;

	if (depth == 0 || depth > 128)
		return -EINVAL;
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifa));
	req.nh.nlmsg_type = add ? RTM_NEWADDR : RTM_DELADDR;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK |
			     (add ? NLM_F_CREATE | NLM_F_REPLACE : 0);
	req.nh.nlmsg_seq = 1;
	req.ifa.ifa_family = AF_INET6;
	req.ifa.ifa_prefixlen = depth;
	/* listack made sure it is unique on the link (nd6_dad.c) */
	req.ifa.ifa_flags = IFA_F_NODAD;
	req.ifa.ifa_scope = (addr[0] == 0xfe && (addr[1] & 0xc0) == 0x80) ?
			    RT_SCOPE_LINK : RT_SCOPE_UNIVERSE;
	req.ifa.ifa_index = ifindex;
	nl_attr(&req.nh, sizeof(req), IFA_LOCAL, addr, 16);
	nl_attr(&req.nh, sizeof(req), IFA_ADDRESS, addr, 16);
	rc = nl_request(&req.nh);
	if (!add && rc == -EADDRNOTAVAIL)
		rc = 0;
	return rc;
}
