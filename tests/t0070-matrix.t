#!/bin/bash
# kverify matrix: the GitHub and GitLab outputs parse and name every
# applicable target once; shards partition the targets.
. "$(dirname "$0")/lib.sh"

plan 5
want=$("$KVERIFY" list --names | while read -r t; do
	[ -n "$(grep -E "^$t[[:space:]]" kernels.list | grep -v 'n/a:')" ] && echo "$t"
done | sort | tr '\n' ' ')
got=$("$KVERIFY" matrix --format github | python3 -c 'import json,sys; m=json.load(sys.stdin); print(" ".join(sorted(i["kernel"] for i in m["include"])) + " ")')
[ "$got" = "$want" ]
ok $? "github: JSON for strategy.matrix, every applicable target once ($got)"
got=$("$KVERIFY" matrix --format gitlab | /usr/bin/python3 -c '
import sys, yaml
y = yaml.safe_load(sys.stdin)
jobs = [j for j in y if j != "stages"]
assert all(y[j]["artifacts"]["reports"]["junit"].endswith("/junit.xml") for j in jobs)
print(" ".join(sorted(y[j]["script"][0].split("=")[1] for j in jobs)) + " ")')
[ "$got" = "$want" ]
ok $? "gitlab: a child pipeline, one job per applicable target with its JUnit report ($got)"
for n in 2 3; do
	all=$(for i in $(seq 1 $n); do "$KVERIFY" matrix --shard $i/$n; done | sort | tr '\n' ' ')
	[ "$all" = "$want" ]
	ok $? "--shard I/$n: the shards partition the targets ($all)"
done
"$KVERIFY" matrix --shard 4/3 > /dev/null 2>&1
[ $? = 2 ]
ok $? "--shard 4/3 is refused with exit 2"
done_testing
