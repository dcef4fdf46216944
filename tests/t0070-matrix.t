#!/bin/bash
# kverify matrix: the GitHub and GitLab outputs parse and name every
# applicable target once; shards partition the targets, balanced by the
# cost with a cold cache (else the last run's time), never empty; bad --shard values are refused.
. "$(dirname "$0")/lib.sh"

plan 12
want=$("$KVERIFY" list --names | while read -r t; do
	[ -n "$(grep -E "^$t[[:space:]]" kernels.list | grep -v 'n/a:')" ] && echo "$t"
done | sort | tr '\n' ' ')
got=$("$KVERIFY" matrix --format github | python3 -c 'import json,sys; m=json.load(sys.stdin); print(" ".join(sorted(i["kernel"] for i in m["include"])) + " ")')
test_expect_success "github: JSON for strategy.matrix, every applicable target once ($got)" '
	[ "$got" = "$want" ]
'
got=$("$KVERIFY" matrix --format gitlab | /usr/bin/python3 -c '
import sys, yaml
y = yaml.safe_load(sys.stdin)
jobs = [j for j in y if j != "stages"]
assert all(y[j]["artifacts"]["reports"]["junit"].endswith("/junit.xml") for j in jobs)
assert all(y[j]["script"][-1] == "build/kverify --list kernels.list verify --env" for j in jobs)
assert all(y[j]["retry"]["exit_codes"] == [3] for j in jobs)
print(" ".join(sorted(y[j]["variables"]["KVERIFY_TARGETS"] for j in jobs)) + " ")')
test_expect_success "gitlab: a child pipeline, one job per applicable target calling build/kverify, retried on exit 3, with its JUnit report ($got)" '
	[ "$got" = "$want" ]
'
for n in 2 3; do
	all=$(for i in $(seq 1 $n); do "$KVERIFY" matrix --shard $i/$n; done | sort | tr '\n' ' ')
	test_expect_success "--shard I/$n: the shards partition the targets ($all)" '
		[ "$all" = "$want" ]
	'
done
bad=
for s in 4/3 1/2x 0/2 x/2 1/0 1/ /2 1/99999999999 1/-2 ''; do
	"$KVERIFY" matrix --shard "$s" > /dev/null 2>&1
	mrc=$?
	[ $mrc = 2 ] || bad="$bad '$s' (exit $mrc)"
done
test_expect_success "--shard 4/3, 1/2x, 0/2, x/2, 1/0, 1/99999999999 ... are refused with exit 2${bad:+; taken:$bad}" '
	[ -z "$bad" ]
'

# Balance: without durations (an empty results directory) by name.
nr=$(echo $want | wc -w)
counts=$(for i in $(seq 1 $nr); do "$KVERIFY" --results "$TMP/none" matrix --shard $i/$nr | wc -l; done | sort -u | tr '\n' ' ')
test_expect_success "--shard I/$nr over $nr targets: one target each ($counts)" '
	[ "$counts" = "1 " ]
'

# With durations: the longest alone, the short ones together.
set -- $want
mkdir -p "$TMP/r/$1" "$TMP/r/$2" "$TMP/r/$3"
printf '{\n  "schema": 2,\n  "seconds": 3000,\n  "steps": [\n    {"name": "build", "status": "PASS", "seconds": 2900.000}]}\n' > "$TMP/r/$1/report.json"
printf '{\n  "schema": 2,\n  "seconds": 100,\n  "steps": []}\n' > "$TMP/r/$2/report.json"
printf '{\n  "steps": [\n    {"name": "fetch", "status": "PASS", "seconds": 60.0}, {"name": "build", "status": "PASS", "seconds": 40.5}]}\n' > "$TMP/r/$3/report.json"
# any further target (kernels.list has 4 applicable since 6.1 carries its
# fixes): as short as the second
for t in $(echo $want | cut -d' ' -f4-); do
	mkdir -p "$TMP/r/$t"
	cp "$TMP/r/$2/report.json" "$TMP/r/$t/report.json"
done
s1=$("$KVERIFY" --results "$TMP/r" matrix --shard 1/2 | tr '\n' ' ')
s2=$("$KVERIFY" --results "$TMP/r" matrix --shard 2/2 | tr '\n' ' ')
longest=$1
test_expect_success "--shard I/2 with a 3000 s target: it alone in shard 1 ($s1| $s2)" '
	[ "$s1" = "$longest " ] && [ "$(echo $s2 | wc -w)" = $((nr - 1)) ]
'
all=$(echo $s1 $s2 | tr ' ' '\n' | sort | tr '\n' ' ')
test_expect_success 'balanced shards still partition the targets' '
	[ "$all" = "$want" ]
'

# Cold cost: after a warm run (3 s) the cold cost (cold_seconds) counts,
# not the run's seconds; and a job's timeout is 3x it.
printf '{\n  "schema": 2,\n  "seconds": 3,\n  "cold_seconds": 5000,\n  "steps": []}\n' > "$TMP/r/$3/report.json"
warm=$3
test_expect_success "a target warm in 3 s but 5000 s cold is balanced on 5000 s: alone in shard 1" '
	s1=$("$KVERIFY" --results "$TMP/r" matrix --shard 1/2 | tr "\n" " ") &&
	echo "shard 1: $s1" && [ "$s1" = "$warm " ] &&
	"$KVERIFY" --results "$TMP/r" matrix --format github --shard 1/2 |
		python3 -c "import json,sys; m=json.load(sys.stdin)[\"include\"]; print(m); assert m[0][\"timeout_minutes\"] == 251"
'

# Never empty: fewer shards than asked, with a note; a shard beyond is refused.
n=$((nr + 2))
"$KVERIFY" --results "$TMP/none" matrix --format github --shard 1/$n > "$TMP/out" 2> "$TMP/err"
mrc=$?
test_expect_success "--shard 1/$n over $nr targets: one target and a note (exit $mrc)" '
	[ $mrc = 0 ] && grep -q "note: $n shards asked for $nr targets: $nr shards" "$TMP/err" &&
	python3 -c "import json,sys; assert len(json.load(open(sys.argv[1]))[\"include\"]) == 1" "$TMP/out"
'
"$KVERIFY" --results "$TMP/none" matrix --format github --shard $n/$n > "$TMP/out" 2> "$TMP/err"
mrc=$?
test_expect_success "--shard $n/$n: refused (exit $mrc), never an empty matrix" '
	[ $mrc = 2 ] && [ ! -s "$TMP/out" ] && grep -q "shard $n/$n would be empty; use --shard I/$nr" "$TMP/err"
'
# Every shard count up to the number of targets (more are refused above).
empty=
for n in $(seq 1 $nr); do
	for i in $(seq 1 $n); do
		"$KVERIFY" matrix --format github --shard $i/$n | grep -q '"include": \[\]' && empty="$empty $i/$n"
		[ "$("$KVERIFY" matrix --format gitlab --shard $i/$n | grep -c '^"verify ')" -gt 0 ] || empty="$empty gitlab:$i/$n"
	done
done
test_expect_success "no github or gitlab shard is empty${empty:+:$empty}" '
	[ -z "$empty" ]
'
done_testing
