#!/bin/sh
# bench/compare.sh --quick against listack-fwd (list mode) and testpmd io,
# one flow: it must finish, write each device's search (JSON), one
# markdown table with a row for each and an SVG plot that parses, and
# listack-fwd must end with no mbufs in use (it stops while the
# generator lingers, before the wire goes). Figures are not judged
# (bench/RESULTS.md has them). Skipped (77) without dpdk-testpmd.
#   tests/bench/test_compare.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
command -v dpdk-testpmd >/dev/null || { echo "no dpdk-testpmd: skipped"; exit 77; }
out=$(mktemp -d /tmp/lsk-test-compare.XXXXXX)
trap 'rm -rf "$out"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }

"$src/bench/compare.sh" --quick --devices listack-list,testpmd-io --cases 1f \
	--build "$build" --out "$out" > "$out/compare.txt" 2>&1
rc=$?
[ $rc = 0 ] || { cat "$out/compare.txt"; fail "compare.sh exit $rc"; }
for d in listack-list testpmd-io; do
	[ -s "$out/json/$d.1f.json" ] || fail "no $d.1f.json"
	grep -q "^| $d/1f | 64 | [0-9.]* |" "$out/table.md" 2>/dev/null ||
		fail "table.md has no 64-byte row for $d/1f"
done
/usr/bin/python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); sys.exit(0 if r.tag.endswith("svg") else 1)' \
	"$out/compare.svg" || fail "compare.svg is not SVG"
grep -q "^mbufs_in_use 0$" "$out/log/listack-list.1f.dut.log" ||
	fail "listack-fwd did not end with mbufs_in_use 0"
grep -q "listack-bench --from" "$out/commands.sh" || fail "commands.sh lacks the merge"
[ $failed = 0 ] && echo "PASS compare.sh --quick: listack-list and testpmd-io in table.md and compare.svg"
[ $failed = 0 ] || { cat "$out/table.md" 2>/dev/null; tail -20 "$out/compare.txt"; }
exit $failed
