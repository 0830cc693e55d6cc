#!/bin/sh
# Run a command once both CPUs have been at least 95 % idle for 2 s (the
# machine is shared; see RESULTS.md). Gives up waiting after 120 s and
# runs anyway, saying so on stderr.
i=0
while [ $i -lt 60 ]; do
	set -- "$@"
	a=$(awk '/^cpu /{print $2+$3+$4+$7+$8, $5+$6}' /proc/stat)
	sleep 2
	b=$(awk '/^cpu /{print $2+$3+$4+$7+$8, $5+$6}' /proc/stat)
	idle=$(echo "$a $b" | awk '{busy=$3-$1; idle=$4-$2; print (busy+idle) ? int(100*idle/(busy+idle)) : 0}')
	[ "$idle" -ge 95 ] && exec "$@"
	i=$((i + 1))
done
echo "run-quiet: the machine never went quiet; running anyway" >&2
exec "$@"
