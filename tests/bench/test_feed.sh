#!/bin/sh
# bench/feed.sh with listack-fwd alone (list, single and list with the
# route cache; l3fwd and testpmd are not asked for, so neither is
# needed): one short run of each on a tiny table, --build given relative
# to the working directory (the devices run in --out). Each device must
# have its row in feed.md with a rate, the cache run its hits in
# stats-cache-1.txt and fwd_fast's row in runtime-cache-1.txt, and the
# last listack-fwd must end with mbufs_in_use 0. Figures are not judged
# (bench/RESULTS.md has them).
#   tests/bench/test_feed.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
out=$(mktemp -d /tmp/lsk-test-feed.XXXXXX)
trap 'rm -rf "$out"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }

(cd "$(dirname "$build")" && "$src/bench/feed.sh" --runs 1 --seconds 1 \
	--flows 4 --routes 16 --cache 64 --runtime \
	--only list,single,cache --build "$(basename "$build")" \
	--out "$out") > "$out/feed.txt" 2>&1
rc=$?
[ $rc = 0 ] || { cat "$out/feed.txt"; fail "feed.sh exit $rc"; }
for d in listack-list listack-single listack-cache; do
	# its row in the medians' table: a rate above 0
	awk -F' *[|] *' -v d="$d" '$2 == d && NF == 7 && $3 + 0 > 0 { ok = 1 }
		END { exit !ok }' "$out/feed.md" 2>/dev/null ||
		fail "feed.md has no rate for $d"
done
grep -Eq "^route_cache +Hits +[1-9]" "$out/stats-cache-1.txt" 2>/dev/null ||
	fail "the cache run shows no route cache hits"
grep -Eq "^fwd_fast +[1-9]" "$out/runtime-cache-1.txt" 2>/dev/null ||
	fail "the cache run did not take the fast path"
grep -q "^mbufs_in_use 0$" "$out/lsk-feed-f.log" ||
	fail "listack-fwd did not end with mbufs_in_use 0"
[ $failed = 0 ] && echo "PASS feed.sh: list, single and cache rows, the cache on the fast path"
[ $failed = 0 ] || { cat "$out/feed.md" 2>/dev/null; tail -20 "$out/feed.txt"; }
exit $failed
