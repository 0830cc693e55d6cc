#!/usr/bin/env python3
"""Print the FPM frames of a byte stream zebra sent (dplane_fpm_nl), one
line per netlink message: what the recordings in this directory hold (see
README.md). Usage: decode.py FILE.bin [FILE.bin...]

FPM framing (FRR's fpm/fpm.h): version 1 byte (1), message type 1 byte
(1 = netlink), length 2 bytes big-endian including this 4-byte header;
then rtnetlink messages (host byte order, x86: little-endian), several
per frame possibly.
"""
import ipaddress
import socket
import struct
import sys

NLMSG = {24: "NEWROUTE", 25: "DELROUTE", 104: "NEWNEXTHOP",
	 105: "DELNEXTHOP", 3: "DONE", 2: "ERROR"}
RTN = {1: "unicast", 2: "local", 3: "broadcast", 6: "blackhole",
       7: "unreachable", 8: "prohibit", 9: "throw"}
# linux/rtnetlink.h and FRR's zebra/rt_netlink.h (the RTPROT_ zebra uses)
PROTO = {2: "kernel", 3: "boot", 4: "static", 11: "zebra", 186: "bgp",
	 187: "isis", 188: "ospf", 189: "rip", 192: "eigrp", 194: "sharp",
	 195: "pbr", 196: "static(zebra)", 197: "openfabric", 198: "srte"}
RTA = {1: "DST", 2: "SRC", 3: "IIF", 4: "OIF", 5: "GATEWAY", 6: "PRIORITY",
       7: "PREFSRC", 8: "METRICS", 9: "MULTIPATH", 11: "FLOW", 15: "TABLE",
       21: "ENCAP_TYPE", 22: "ENCAP", 30: "NH_ID"}
NHA = {1: "ID", 2: "GROUP", 3: "GROUP_TYPE", 4: "BLACKHOLE", 5: "OIF",
       6: "GATEWAY", 7: "ENCAP_TYPE", 8: "ENCAP", 9: "GROUPS", 10: "MASTER",
       11: "FDB"}
FLAGS = [(0x1, "REQUEST"), (0x100, "REPLACE"), (0x200, "EXCL"),
	 (0x400, "CREATE"), (0x800, "APPEND")]


def attrs(buf):
	"""Yield (type, payload) of the rtattrs in buf (4-byte aligned)."""
	off = 0
	while off + 4 <= len(buf):
		alen, atype = struct.unpack_from("=HH", buf, off)
		if alen < 4 or off + alen > len(buf):
			raise ValueError("attribute length %d at %d" % (alen, off))
		yield atype & 0x3fff, buf[off + 4:off + alen]
		off += (alen + 3) & ~3


def addr(family, raw):
	if family == socket.AF_INET and len(raw) == 4:
		return str(ipaddress.IPv4Address(raw))
	if family == socket.AF_INET6 and len(raw) == 16:
		return str(ipaddress.IPv6Address(raw))
	return raw.hex()


def u32(raw):
	return struct.unpack("=I", raw)[0]


def route(body):
	(fam, dst_len, _src_len, _tos, table, proto, scope, rtype,
	 _flags) = struct.unpack_from("=BBBBBBBBI", body)
	dst = None
	rest = []
	for t, v in attrs(body[12:]):
		name = RTA.get(t, str(t))
		if t == 1:
			dst = addr(fam, v)
		elif t in (5, 7):
			rest.append("%s=%s" % (name, addr(fam, v)))
		elif t in (4, 6, 15, 30):
			rest.append("%s=%d" % (name, u32(v)))
		elif t == 9:
			rest.append("MULTIPATH[%s]" % multipath(v, fam))
		else:
			rest.append("%s(%d bytes)" % (name, len(v)))
	prefix = "%s/%d" % (dst if dst is not None else
			    ("0.0.0.0" if fam == 2 else "::"), dst_len)
	fams = {2: "inet", 10: "inet6"}.get(fam, str(fam))
	return "%s %s type=%s proto=%s table=%d scope=%d %s" % (
		fams, prefix, RTN.get(rtype, rtype), PROTO.get(proto, proto),
		table, scope, " ".join(rest))


def multipath(buf, fam):
	hops = []
	off = 0
	while off + 8 <= len(buf):
		rlen, flags, hop, ifindex = struct.unpack_from("=HBBi", buf, off)
		if rlen < 8 or off + rlen > len(buf):
			raise ValueError("rtnexthop length %d" % rlen)
		desc = "if=%d weight=%d" % (ifindex, hop + 1)
		if flags:
			desc += " flags=0x%x" % flags
		for t, v in attrs(buf[off + 8:off + rlen]):
			if t == 5:
				desc += " via=%s" % addr(fam, v)
			else:
				desc += " %s(%d)" % (RTA.get(t, t), len(v))
		hops.append(desc)
		off += (rlen + 3) & ~3
	return "; ".join(hops)


def nexthop(body):
	fam, scope, proto, _resvd, flags = struct.unpack_from("=BBBBI", body)
	rest = []
	for t, v in attrs(body[8:]):
		name = NHA.get(t, str(t))
		if t in (1, 5):
			rest.append("%s=%d" % (name, u32(v)))
		elif t == 6:
			rest.append("%s=%s" % (name, addr(fam, v)))
		elif t == 2:
			grp = []
			for i in range(0, len(v) - 7, 8):
				gid, w = struct.unpack_from("=IB", v, i)
				grp.append("%d/w%d" % (gid, w + 1))
			rest.append("GROUP[%s]" % ",".join(grp))
		elif t == 4:
			rest.append("BLACKHOLE")
		elif t == 3:
			rest.append("GROUP_TYPE=%d" % struct.unpack("=H", v[:2]))
		else:
			rest.append("%s(%d bytes)" % (name, len(v)))
	fams = {0: "unspec", 2: "inet", 10: "inet6"}.get(fam, str(fam))
	return "%s proto=%s scope=%d flags=0x%x %s" % (
		fams, PROTO.get(proto, proto), scope, flags, " ".join(rest))


def messages(frame):
	"""Yield (nlmsg type, flags, text) for each netlink message of one
	FPM frame's payload."""
	off = 0
	while off + 16 <= len(frame):
		nlen, ntype, nflags, _seq, _pid = struct.unpack_from(
			"=IHHII", frame, off)
		if nlen < 16 or off + nlen > len(frame):
			raise ValueError("netlink length %d at %d" % (nlen, off))
		body = frame[off + 16:off + nlen]
		if ntype in (24, 25):
			text = route(body)
		elif ntype in (104, 105):
			text = nexthop(body)
		else:
			text = "(%d bytes)" % len(body)
		flags = "|".join(n for b, n in FLAGS if nflags & b)
		yield ntype, flags, text
		off += (nlen + 3) & ~3
	if off != len(frame):
		raise ValueError("%d stray bytes after the messages"
				 % (len(frame) - off))


def frames(data):
	"""Yield each FPM frame's netlink payload; raise on a bad header."""
	off = 0
	while off < len(data):
		if off + 4 > len(data):
			raise ValueError("truncated FPM header at %d" % off)
		ver, mtype, flen = struct.unpack_from("!BBH", data, off)
		if ver != 1 or mtype != 1 or flen < 4 or off + flen > len(data):
			raise ValueError("bad FPM header at %d: v%d t%d len %d"
					 % (off, ver, mtype, flen))
		yield data[off + 4:off + flen]
		off += flen


def main(argv):
	for path in argv[1:]:
		data = open(path, "rb").read()
		print("== %s (%d bytes)" % (path, len(data)))
		for i, frame in enumerate(frames(data)):
			for ntype, flags, text in messages(frame):
				print("frame %d: %s %s %s" % (
					i, NLMSG.get(ntype, ntype),
					flags or "-", text))
	return 0


if __name__ == "__main__":
	sys.exit(main(sys.argv))
