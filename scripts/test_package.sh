#!/bin/sh
# The Debian packages, tried as an operator would (README.md, "Packages";
# debian/): build listack and liblistack-dev with dpkg-buildpackage from a
# copy of the tree's files (its artefacts stay out of the tree), install
# them with apt, look at what they hold, run the installed listack-fwd on
# the demo (as scripts/demo.sh does, --no-huge) as the service would (its
# group listack) and the installed listack-ctl against it, as root and as
# an unprivileged member of that group; the service's start script on a
# machine without hugepages; then purge them and check nothing is left.
#
# As root (apt). Prints "PASS package-NAME" or "FAIL package-NAME: reason"
# for each check, then "N passed, N failed"; exit status 0 or 1. Not root:
# "SKIP package: ...", exit status 0.
set -u
cd "$(dirname "$0")/.."
SRC=$(pwd)
PKGS="listack liblistack-dev"
WAIT=60			# seconds: a start, a stop, the demo's traffic
passed=0
failed=0
installed=0

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP package: installs packages, run as root"
	echo "0 passed, 0 failed"
	exit 0
fi
for p in $PKGS; do
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	    grep -q "installed"; then
		echo "FAIL package: $p is installed already; not touching it"
		echo "0 passed, 1 failed"
		exit 1
	fi
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/listack-package.XXXXXX") || exit 1
fwd_pid=""
cleanup() {
	[ -n "$fwd_pid" ] && kill -KILL "$fwd_pid" 2>/dev/null
	[ $installed -eq 1 ] &&
		DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $PKGS \
		>/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

pass() {
	echo "PASS package-$1"
	passed=$((passed + 1))
}

# fail NAME REASON [LOG]: the end of LOG on stderr
fail() {
	[ $# -gt 2 ] && tail -n 30 "$3" >&2
	echo "FAIL package-$1: $2${3:+ (see the log above)}"
	failed=$((failed + 1))
}

finish() {
	echo "$passed passed, $failed failed"
	[ $failed -eq 0 ]
	exit $?
}

# -- build, from the files git knows (as a clean clone has them)
scripts/install-deps.sh >"$TMP/deps.log" 2>&1 ||
	{ fail build "cannot install the build dependencies" "$TMP/deps.log";
	  finish; }
mkdir "$TMP/listack"
git ls-files -co --exclude-standard -z |
	tar --null -T - --ignore-failed-read -cf - 2>/dev/null |
	tar -C "$TMP/listack" -xf -
start=$(date +%s)
(cd "$TMP/listack" && DEB_BUILD_OPTIONS="nocheck parallel=2" \
	dpkg-buildpackage -b -us -uc) >"$TMP/build.log" 2>&1 ||
	{ fail build "dpkg-buildpackage failed" "$TMP/build.log"; finish; }
debs=$(ls "$TMP"/listack_*.deb "$TMP"/liblistack-dev_*.deb 2>/dev/null)
if [ "$(echo "$debs" | wc -w)" -ne 2 ]; then
	fail build "dpkg-buildpackage made '$debs', not the two packages"
	finish
fi
pass "build ($(($(date +%s) - start)) s)"

# -- install
installed=1
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	--no-install-recommends $debs >"$TMP/install.log" 2>&1 ||
	{ fail install "apt-get install failed" "$TMP/install.log"; finish; }
pass install
dpkg -L $PKGS >"$TMP/files" 2>&1

missing=""
for f in /usr/bin/listack-fwd /usr/bin/listack-ctl \
	/usr/share/man/man8/listack-fwd.8.gz \
	/usr/share/man/man8/listack-ctl.8.gz \
	/lib/systemd/system/listack.service \
	/usr/libexec/listack/listack-start \
	/etc/listack/listack.conf /etc/listack/listack.env \
	/usr/share/bash-completion/completions/listack-ctl \
	/usr/share/bash-completion/completions/listack-fwd \
	/usr/include/listack/listack.h; do
	grep -qx "$f" "$TMP/files" && [ -e "$f" ] || missing="$missing $f"
done
for f in liblistack.a liblistack.so pkgconfig/listack.pc; do
	grep -q "^/usr/lib/.*/$f\$" "$TMP/files" || missing="$missing $f"
done
[ -z "$missing" ] && pass files || fail files "not installed:$missing"

for f in /etc/listack/listack.conf /etc/listack/listack.env; do
	grep -qx "$f" /var/lib/dpkg/info/listack.conffiles ||
		missing="$missing $f"
done
[ -z "$missing" ] && pass conffiles || fail conffiles "not conffiles:$missing"

getent group listack >/dev/null && pass group ||
	fail group "postinst made no group listack"

unit=/lib/systemd/system/listack.service
bad=""
for want in "Type=notify" "ExecReload=/bin/kill -HUP \$MAINPID" \
	"ExecStartPre=-/usr/bin/dpdk-hugepages.py" "RuntimeDirectory=listack" \
	"Group=listack" "ExecStart=/usr/libexec/listack/listack-start"; do
	grep -qF -- "$want" "$unit" || bad="$bad '$want'"
done
[ -x /usr/bin/dpdk-hugepages.py ] || bad="$bad (no dpdk-hugepages.py)"
[ -z "$bad" ] && pass unit || fail unit "listack.service lacks$bad"
if command -v systemd-analyze >/dev/null; then
	systemd-analyze verify --man=no "$unit" >"$TMP/verify.log" 2>&1 &&
		pass unit-verify ||
		fail unit-verify "systemd-analyze verify" "$TMP/verify.log"
fi

# the library from its pkg-config file
if pkg-config --cflags --libs listack libdpdk >"$TMP/pc.log" 2>&1 &&
    echo '#include <listack/listack.h>
int main(void) { return 0; }' | cc -x c - -o "$TMP/pc-test" \
	$(pkg-config --cflags --libs listack libdpdk) >>"$TMP/pc.log" 2>&1; then
	pass pkg-config
else
	fail pkg-config "a program including listack.h does not build" \
		"$TMP/pc.log"
fi

# -- the installed listack-fwd on the demo, with the service's group:
# its socket directory as the RuntimeDirectory (0750 root:listack)
cc -O2 -o "$TMP/demo-traffic" tools/demo_traffic.c \
	$(pkg-config --cflags --libs libpcap) 2>"$TMP/cc.log" ||
	{ fail demo "cannot build tools/demo_traffic.c" "$TMP/cc.log"; finish; }
mkdir "$TMP/demo" "$TMP/run"
"$TMP/demo-traffic" "$TMP/demo" 2000 >/dev/null
chmod 0711 "$TMP"
chgrp listack "$TMP/run"
chmod 0750 "$TMP/run"
sock="$TMP/run/listack.sock"
setpriv --regid listack --clear-groups /usr/bin/listack-fwd \
	--no-huge --no-pci -m 512 --no-shconf --no-telemetry \
	--log-level='*:warning' -l 0 \
	--vdev "net_pcap0,rx_pcap=$TMP/demo/in0.pcap,tx_pcap=$TMP/demo/out0.pcap" \
	--vdev "net_pcap1,rx_pcap=$TMP/demo/in1.pcap,tx_pcap=$TMP/demo/out1.pcap" \
	-- --config /usr/share/listack/examples/demo.conf \
	--stats-json "$TMP/stats.json" --ctl-socket "$sock" \
	>"$TMP/fwd.log" 2>&1 &
fwd_pid=$!
i=0
until grep -q "^listack-fwd: 2 ports" "$TMP/fwd.log" || [ $i -ge $WAIT ]; do
	kill -0 "$fwd_pid" 2>/dev/null || break
	sleep 1
	i=$((i + 1))
done
if ! grep -q "^listack-fwd: 2 ports" "$TMP/fwd.log"; then
	fail run "the installed listack-fwd did not start" "$TMP/fwd.log"
	finish
fi
pass run

# the demo's frames forwarded (each pcap is read once, then nothing)
fwd=0
i=0
while [ $i -lt $WAIT ]; do
	/usr/bin/listack-ctl -s "$sock" -j show stats >"$TMP/ctl.log" 2>&1 ||
		break
	fwd=$(sed -n 's/.*"ForwDatagrams": *\([0-9]*\).*/\1/p' "$TMP/ctl.log")
	[ "${fwd:-0}" -gt 0 ] && break
	sleep 1
	i=$((i + 1))
done
[ "${fwd:-0}" -gt 0 ] && pass "ctl-show-stats (ForwDatagrams $fwd)" ||
	fail ctl-show-stats "listack-ctl show stats: no ForwDatagrams" \
		"$TMP/ctl.log"

group=$(stat -c '%G %a' "$sock" 2>/dev/null)
[ "$group" = "listack 660" ] && pass socket-group ||
	fail socket-group "the socket is '$group', not 'listack 660'"
setpriv --reuid nobody --regid listack --clear-groups \
	/usr/bin/listack-ctl -s "$sock" show routes >"$TMP/member.log" 2>&1 &&
	pass ctl-as-group-member ||
	fail ctl-as-group-member "nobody in group listack was refused" \
		"$TMP/member.log"
setpriv --reuid nobody --regid nogroup --clear-groups \
	/usr/bin/listack-ctl -s "$sock" show routes >"$TMP/other.log" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "Permission denied" "$TMP/other.log"; then
	pass ctl-as-other-refused
else
	fail ctl-as-other-refused "nobody outside group listack: exit $rc" \
		"$TMP/other.log"
fi

kill -TERM "$fwd_pid"
i=0
while kill -0 "$fwd_pid" 2>/dev/null && [ $i -lt $WAIT ]; do
	sleep 1
	i=$((i + 1))
done
wait "$fwd_pid"
rc=$?
fwd_pid=""
in_use=$(sed -n 's/.*"mbufs_in_use": *\([0-9-]*\).*/\1/p' \
	"$TMP/stats.json" 2>/dev/null)
if [ $rc -eq 0 ] && [ "$in_use" = 0 ]; then
	pass stop
else
	fail stop "exit $rc, mbufs_in_use '$in_use'" "$TMP/fwd.log"
fi

# -- the service's start script on a machine without hugepages, with
# the installed example configuration (all comments: listack-fwd starts
# on it only when told it may start with none)
mkdir "$TMP/nohuge"
LISTACK_HUGEPAGES_SYS="$TMP/nohuge" LISTACK_NO_HUGE="--no-huge -m 256" \
	LISTACK_EAL="--no-pci --no-shconf --no-telemetry -l 0 \
--vdev net_null0,no-rx=1" timeout $WAIT \
	/usr/libexec/listack/listack-start \
	--config /etc/listack/listack.conf --allow-empty-config \
	--ctl-socket none --idle-exit 200 >"$TMP/start.log" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "no free hugepages" "$TMP/start.log"; then
	pass start-without-hugepages
else
	fail start-without-hugepages "exit $rc" "$TMP/start.log"
fi

# -- purge: nothing of the packages is left
DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq $PKGS \
	>"$TMP/purge.log" 2>&1 ||
	fail purge "apt-get purge failed" "$TMP/purge.log"
installed=0
left=""
for p in $PKGS; do
	[ -n "$(dpkg -L "$p" 2>/dev/null)" ] && left="$left $p"
done
while read -r f; do
	[ -e "$f" ] && [ ! -d "$f" ] && left="$left $f"
done <"$TMP/files"
[ -e /etc/listack ] && left="$left /etc/listack"
[ -z "$left" ] && pass purge || fail purge "left behind:$left"

finish
