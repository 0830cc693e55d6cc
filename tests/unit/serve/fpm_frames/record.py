#!/usr/bin/env python3
"""Record what FRR's zebra (dplane_fpm_nl) sends over FPM, one file per
step, into this directory (README.md lists the steps and what each holds).

Run as root with FRR installed (`apt-get install frr`): record.py [OUTDIR]
It makes network namespaces fpmrec (zebra, staticd, bgpd: the recorded
router), fpmrec-a and fpmrec-b (two neighbours, each with zebra and bgpd),
runs the daemons without systemd (tests/netns/run_netns_frr.py does the
same), listens for zebra's FPM connection on 127.0.0.1:2620 inside fpmrec,
and removes everything it made when done.
"""
import os
import shutil
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import decode  # noqa: E402

NS = "fpmrec"
PEERS = {"a": ("rv0", "10.0.1.1", "10.0.1.2", 65001),
	 "b": ("rv1", "10.0.2.1", "10.0.2.2", 65002)}
ASN = 65000
PORT = 2620
FRR = "/usr/lib/frr"
WORK = "/tmp/fpmrec"


def sh(cmd, check=True):
	r = subprocess.run(cmd, shell=True, capture_output=True, text=True,
			   timeout=60)
	if check and r.returncode != 0:
		raise RuntimeError("%s: %s" % (cmd, r.stderr.strip()))
	return r.stdout


def daemon_dir(name):
	d = os.path.join(WORK, name)
	os.makedirs(d, exist_ok=True)
	shutil.chown(d, "frr", "frr")
	return d


def start(ns, d, daemon, conf, extra=""):
	path = os.path.join(d, daemon + ".conf")
	with open(path, "w") as f:
		f.write(conf)
	shutil.chown(path, "frr", "frr")
	sh("ip netns exec %s %s/%s -d -u frr -g frr -P 0 %s -f %s -i %s/%s.pid "
	   "-z %s/zserv.api --vty_socket %s" % (ns, FRR, daemon, extra, path,
						d, daemon, d, d))


def stop(d, daemon):
	pidfile = os.path.join(d, daemon + ".pid")
	try:
		pid = int(open(pidfile).read().strip())
	except (OSError, ValueError):
		return
	try:
		os.kill(pid, 15)
	except ProcessLookupError:
		return
	for _ in range(100):
		try:
			os.kill(pid, 0)
		except ProcessLookupError:
			return
		time.sleep(0.05)
	os.kill(pid, 9)


def vtysh(d, *cmds, conf=True):
	args = ["vtysh", "--vty_socket", d]
	if conf:
		args += ["-c", "configure terminal"]
	for c in cmds:
		args += ["-c", c]
	r = subprocess.run(args, capture_output=True, text=True, timeout=30)
	if r.returncode != 0 or "% " in r.stdout:
		raise RuntimeError("vtysh %s: %s%s" % (cmds, r.stdout, r.stderr))
	return r.stdout


class Listener:
	"""Accept zebra's FPM connections and keep every byte, with how many
	connections were seen; take() returns what came since the last
	take()."""

	def __init__(self):
		self.lock = threading.Lock()
		self.buf = bytearray()
		self.taken = 0
		self.last = 0.0
		self.conns = 0
		self.srv = socket.socket()
		self.srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
		self.srv.bind(("127.0.0.1", PORT))
		self.srv.listen(4)
		threading.Thread(target=self.run, daemon=True).start()

	def run(self):
		while True:
			c, _ = self.srv.accept()
			with self.lock:
				self.conns += 1
			threading.Thread(target=self.read, args=(c,),
					 daemon=True).start()

	def read(self, c):
		while True:
			b = c.recv(65536)
			if not b:
				return
			with self.lock:
				self.buf += b
				self.last = time.monotonic()

	def settle(self, quiet=2.0, limit=20.0):
		"""Wait until something came and then nothing for quiet s."""
		end = time.monotonic() + limit
		while time.monotonic() < end:
			with self.lock:
				got = len(self.buf) > self.taken
				idle = time.monotonic() - self.last
			if got and idle >= quiet:
				return True
			time.sleep(0.1)
		return False

	def take(self):
		with self.lock:
			data = bytes(self.buf[self.taken:])
			self.taken = len(self.buf)
		return data


def zebra_conf(nhg=True):
	return ("hostname fpmrec\nfpm address 127.0.0.1 port %d\n%s"
		"interface rv0\n ip address 10.0.1.1/24\nexit\n"
		"interface rv1\n ip address 10.0.2.1/24\nexit\n"
		% (PORT, "" if nhg else "no fpm use-next-hop-groups\n"))


def bgp_conf(asn, router_id, neighbors, networks=(), out_map=None):
	c = "hostname bgp%d\n" % asn
	if out_map:
		c += ("route-map %s permit 10\n set extcommunity bandwidth %d\n"
		      "exit\n" % out_map)
	c += ("router bgp %d\n bgp router-id %s\n no bgp ebgp-requires-policy\n"
	      " no bgp network import-check\n"
	      " bgp bestpath as-path multipath-relax\n timers bgp 3 9\n"
	      % (asn, router_id))
	for addr, ras in neighbors:
		c += (" neighbor %s remote-as %d\n neighbor %s timers connect 1\n"
		      " neighbor %s advertisement-interval 0\n"
		      % (addr, ras, addr, addr))
	c += " address-family ipv4 unicast\n  maximum-paths 4\n"
	for n in networks:
		c += "  network %s\n" % n
	if out_map:
		for addr, _ in neighbors:
			c += "  neighbor %s route-map %s out\n" % (addr, out_map[0])
	c += " exit-address-family\nexit\n"
	return c


class Recorder:
	def __init__(self, outdir):
		self.outdir = outdir
		self.lis = Listener()
		self.d = daemon_dir("r")

	def save(self, name, quiet=2.0, limit=20.0, expect=True):
		ok = self.lis.settle(quiet, limit)
		data = self.lis.take()
		if expect and not ok:
			raise RuntimeError("%s: nothing from zebra" % name)
		n = 0
		for frame in decode.frames(data):
			n += sum(1 for _ in decode.messages(frame))
		path = os.path.join(self.outdir, name + ".bin")
		with open(path, "wb") as f:
			f.write(data)
		print("%s: %d bytes, %d netlink messages, connection %d"
		      % (name, len(data), n, self.lis.conns))
		decode.main(["", path])
		return data

	def drain(self, quiet=2.0, limit=10.0):
		self.lis.settle(quiet, limit)
		return self.lis.take()

	def wait_conns(self, n, limit=30.0):
		end = time.monotonic() + limit
		while time.monotonic() < end:
			if self.lis.conns >= n:
				return
			time.sleep(0.1)
		raise RuntimeError("zebra did not connect")

	def start_router(self, nhg=True):
		start(NS, self.d, "zebra", zebra_conf(nhg), "-M dplane_fpm_nl")
		start(NS, self.d, "staticd", "hostname fpmrec\n")

	def stop_router(self):
		for daemon in ("bgpd", "staticd", "zebra"):
			stop(self.d, daemon)

	def run(self):
		# The connection's first dump: the connected routes.
		self.start_router()
		self.wait_conns(1)
		self.save("connect")

		# Static routes with nexthop groups (zebra's default).
		s = lambda *c: vtysh(self.d, *c)  # noqa: E731
		s("ip route 192.0.2.0/24 10.0.1.2 10")
		self.save("nhg_add")
		s("ip route 192.0.2.0/24 10.0.2.2 5")
		self.save("nhg_replace")
		s("no ip route 192.0.2.0/24 10.0.1.2 10")
		self.drain()
		s("no ip route 192.0.2.0/24 10.0.2.2 5")
		self.save("nhg_delete")
		s("ip route 198.51.100.0/24 10.0.1.2",
		  "ip route 198.51.100.0/24 10.0.2.2")
		self.save("nhg_ecmp")
		s("ip route 203.0.113.0/26 blackhole",
		  "ip route 203.0.113.64/26 reject",
		  "ip route 203.0.113.128/26 Null0")
		self.save("nhg_blackhole")
		# A kernel route of type prohibit: does zebra pass it on?
		sh("ip route add prohibit 203.0.113.192/26")
		self.save("kernel_prohibit", limit=6.0, expect=False)
		sh("ip route del prohibit 203.0.113.192/26")
		self.drain()
		s("no ip route 198.51.100.0/24 10.0.1.2")
		self.save("nhg_ecmp_to_one")

		# The same with RTA_MULTIPATH (no nexthop groups).
		s("no fpm use-next-hop-groups")
		self.save("mp_switch", expect=False)
		s("ip route 198.51.100.0/24 10.0.1.2")
		self.save("mp_ecmp")
		s("ip route 192.0.2.0/24 10.0.1.2")
		self.save("mp_add")
		s("ip route 192.0.2.0/24 10.0.2.2 1", "no ip route 192.0.2.0/24 "
		  "10.0.1.2")
		self.save("mp_replace")
		s("no ip route 192.0.2.0/24 10.0.2.2")
		self.save("mp_delete")
		s("ip route 203.0.113.0/25 blackhole")
		self.save("mp_blackhole")
		s("no ip route 203.0.113.0/25 blackhole")
		self.drain()
		s("fpm use-next-hop-groups")
		self.save("nhg_switch", expect=False)

		# BGP: two neighbours announce one prefix with link bandwidths
		# 100 and 300 Mbit/s; zebra gets a weighted ECMP route.
		for name, (_, local, remote, ras) in sorted(PEERS.items()):
			pd = daemon_dir(name)
			start(NS + "-" + name, pd, "zebra", "hostname %s\n" % name)
			start(NS + "-" + name, pd, "bgpd",
			      bgp_conf(ras, remote, [(local, ASN)],
				       ["100.64.0.0/24", "100.65.%d.0/24"
					% (ras % 256)],
				       ("BW", 100 if name == "a" else 300)))
		start(NS, self.d, "bgpd", bgp_conf(
			ASN, "10.0.1.1", [(p[2], p[3]) for p in PEERS.values()]))
		self.wait_bgp(2)
		self.save("bgp_weighted", quiet=3.0, limit=40.0)

		# The same without nexthop groups: zebra sends its table again,
		# the weights in rtnh_hops.
		s("no fpm use-next-hop-groups")
		self.save("mp_bgp_resend", quiet=3.0, limit=30.0)
		self.bgp_peer("a", "no network 100.64.0.0/24")
		self.save("mp_bgp_withdraw_one")
		self.bgp_peer("a", "network 100.64.0.0/24")
		self.save("mp_bgp_readvertise")
		s("fpm use-next-hop-groups")
		self.drain(quiet=3.0, limit=30.0)

		# With nexthop groups: a withdrawal by one neighbour, then by
		# both.
		self.bgp_peer("a", "no network 100.64.0.0/24")
		self.save("bgp_withdraw_one")
		self.bgp_peer("b", "no network 100.64.0.0/24")
		self.save("bgp_withdraw_all")
		self.bgp_peer("a", "network 100.64.0.0/24")
		self.bgp_peer("b", "network 100.64.0.0/24")
		self.drain(quiet=3.0, limit=20.0)

		# zebra (and bgpd, FRRouting/frr#22362) restarted: the new
		# connection's full dump, BGP routes included.
		conns = self.lis.conns
		self.stop_router()
		self.drain(quiet=1.0, limit=3.0)
		self.start_router()
		s("ip route 192.0.2.0/24 10.0.1.2",
		  "ip route 198.51.100.0/24 10.0.1.2",
		  "ip route 198.51.100.0/24 10.0.2.2",
		  "ip route 203.0.113.0/26 blackhole")
		start(NS, self.d, "bgpd", bgp_conf(
			ASN, "10.0.1.1", [(p[2], p[3]) for p in PEERS.values()]))
		self.wait_conns(conns + 1)
		self.wait_bgp(2)
		self.save("restart_dump", quiet=4.0, limit=40.0)

	def bgp_peer(self, name, cmd):
		vtysh(os.path.join(WORK, name), "router bgp %d" % PEERS[name][3],
		      "address-family ipv4 unicast", cmd)

	def wait_bgp(self, n, limit=60.0):
		import json
		end = time.monotonic() + limit
		while time.monotonic() < end:
			out = vtysh(self.d, "show bgp ipv4 unicast summary json",
				    conf=False)
			try:
				peers = json.loads(out).get("peers", {})
			except ValueError:
				peers = {}
			up = [p for p in peers.values()
			      if p.get("state") == "Established"]
			if len(up) >= n:
				return
			time.sleep(0.5)
		raise RuntimeError("BGP sessions not Established")


def setup():
	cleanup()
	sh("ip netns add %s" % NS)
	sh("ip -n %s link set lo up" % NS)
	for name, (dev, local, remote, _) in sorted(PEERS.items()):
		pns = NS + "-" + name
		sh("ip netns add %s" % pns)
		sh("ip -n %s link set lo up" % pns)
		sh("ip link add %s netns %s type veth peer name pv netns %s"
		   % (dev, NS, pns))
		sh("ip -n %s link set %s up" % (NS, dev))
		sh("ip -n %s addr add %s/24 dev pv" % (pns, remote))
		sh("ip -n %s link set pv up" % pns)


def cleanup():
	for name in ["r"] + sorted(PEERS):
		d = os.path.join(WORK, name)
		for daemon in ("bgpd", "staticd", "zebra"):
			stop(d, daemon)
	for ns in [NS] + [NS + "-" + n for n in sorted(PEERS)]:
		sh("ip netns del %s" % ns, check=False)
	shutil.rmtree(WORK, ignore_errors=True)
	for f in set(var_tmp_frr()) - BEFORE:
		shutil.rmtree(os.path.join("/var/tmp/frr", f), ignore_errors=True)


def var_tmp_frr():
	"""FRR's daemons leave a directory each in /var/tmp/frr."""
	try:
		return os.listdir("/var/tmp/frr")
	except OSError:
		return []


BEFORE = set(var_tmp_frr())


def main(argv):
	outdir = os.path.abspath(argv[1]) if len(argv) > 1 else HERE
	os.makedirs(outdir, exist_ok=True)
	if not os.path.exists(FRR + "/zebra"):
		print("FRR is not installed")
		return 77
	if len(argv) > 2 and argv[2] == "--inside":
		Recorder(outdir).run()
		return 0
	try:
		setup()
		# The listener must be in the router's namespace (zebra
		# connects to its own 127.0.0.1): run the rest there.
		return subprocess.run(["ip", "netns", "exec", NS, sys.executable,
				       os.path.abspath(__file__), outdir,
				       "--inside"]).returncode
	finally:
		cleanup()


if __name__ == "__main__":
	sys.exit(main(sys.argv))
