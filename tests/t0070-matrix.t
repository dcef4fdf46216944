#!/bin/bash
# kverify matrix: the GitHub and GitLab outputs parse and name every
# applicable target once; shards partition the targets, balanced by the
# cost with a cold cache from the committed table .ci/cold-seconds, which
# also sets each job's timeout (margin x cost); never empty; bad --shard
# values and bad table lines are refused; a local verify changes nothing
# in what matrix generates.
. "$(dirname "$0")/lib.sh"

plan 18
want=$("$KVERIFY" list --names | while read -r t; do
	[ -n "$(grep -E "^$t[[:space:]]" kernels.list | grep -v 'n/a:')" ] && echo "$t"
done | sort | tr '\n' ' ')
got=$("$KVERIFY" matrix --ci github | python3 -c 'import json,sys; m=json.load(sys.stdin); print(" ".join(sorted(i["kernel"] for i in m["include"])) + " ")')
test_expect_success "github: JSON for strategy.matrix, every applicable target once ($got)" '
	[ "$got" = "$want" ]
'
got=$("$KVERIFY" matrix --ci gitlab | /usr/bin/python3 -c '
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
# matrix --help says what the child caches: the path of its jobs' cache:
# and the variable that names it, read from the generated YAML.
cached=$("$KVERIFY" matrix --ci gitlab | /usr/bin/python3 -c '
import sys, yaml
y = yaml.safe_load(sys.stdin)
jobs = [y[j] for j in y if j != "stages"]
paths = {p for j in jobs for p in j["cache"]["paths"]}
assert len(paths) == 1, paths
p = paths.pop()
var = {k for j in jobs for k, v in j["variables"].items() if v == p.rstrip("/")}
assert len(var) == 1, var
print("$%s only (%s:" % (var.pop(), p))')
help=$("$KVERIFY" matrix --help 2>&1 | tr '\n' ' ')
test_expect_success "matrix --help names what the child caches: the store ${cached:-(none found)}" '
	[ -n "$cached" ] &&
	printf "%s\n" "$help" | grep -qF -- "a cache per target of the store $cached"
'
# --format is verify's alone (FORMAT=kcidb); matrix's output is --ci.
test_expect_success 'matrix --format gitlab is refused (exit 2): the CI is --ci' - <<\EOT
	"$KVERIFY" matrix --format gitlab > "$TMP/out" 2>&1
	rc=$? && head -n 3 "$TMP/out" &&
	[ $rc = 2 ] && grep -qx "kverify: matrix takes no --format" "$TMP/out" &&
	grep -q -- "--ci github|gitlab" "$TMP/out"
EOT
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

# With costs (the committed table's format, --costs): the longest alone,
# the short ones together.
set -- $want
{ echo "margin 3"; echo "$1 3000"; for t in $(echo $want | cut -d' ' -f2-); do echo "$t 100"; done; } > "$TMP/costs"
s1=$("$KVERIFY" matrix --costs "$TMP/costs" --shard 1/2 | tr '\n' ' ')
s2=$("$KVERIFY" matrix --costs "$TMP/costs" --shard 2/2 | tr '\n' ' ')
longest=$1
test_expect_success "--shard I/2 with a 3000 s target: it alone in shard 1 ($s1| $s2)" '
	[ "$s1" = "$longest " ] && [ "$(echo $s2 | wc -w)" = $((nr - 1)) ]
'
all=$(echo $s1 $s2 | tr ' ' '\n' | sort | tr '\n' ' ')
test_expect_success 'balanced shards still partition the targets' '
	[ "$all" = "$want" ]
'

# A job's timeout is the table's margin times the target's cold cost (at
# least 30 minutes); a target the table lacks gets 180.
warm=$3
# the others short; the last (not $warm) not in the table: the mean
lacking=$(echo $want | tr ' ' '\n' | grep -vx "$warm" | tail -n 1)
{ echo "margin 3"; echo "$warm 5000"; for t in $want; do
	[ $t = $warm ] || [ $t = $lacking ] || echo "$t 100"; done; } > "$TMP/costs"
test_expect_success "a target of 5000 s cold: alone in shard 1, timeout 3 x 5000 s = 251 min; one not in the table 180" '
	s1=$("$KVERIFY" matrix --costs "$TMP/costs" --shard 1/2 | tr "\n" " ") &&
	echo "shard 1: $s1" && [ "$s1" = "$warm " ] &&
	"$KVERIFY" matrix --costs "$TMP/costs" --ci github --shard 1/2 |
		python3 -c "import json,sys; m=json.load(sys.stdin)[\"include\"]; print(m); assert m[0][\"timeout_minutes\"] == 251" &&
	"$KVERIFY" matrix --costs "$TMP/costs" --ci github |
		python3 -c "import json,sys; m={j[\"kernel\"]: j[\"timeout_minutes\"] for j in json.load(sys.stdin)[\"include\"]}; print(m); assert m[sys.argv[1]] == 180 and set(m.values()) == {251, 30, 180}" $lacking
'
sed -i 's/^margin 3$/margin 2/' "$TMP/costs"
test_expect_success 'margin 2: timeout 2 x 5000 s = 167 min' '
	"$KVERIFY" matrix --costs "$TMP/costs" --ci gitlab | grep -A4 "^\"verify $warm\":" | grep -qx "  timeout: 167 minutes"
'
bad=
for l in "margin 0" "margin x" "$warm" "$warm -5" "$warm 5 6" "../x 5" "$warm 1e9"; do
	printf 'margin 3\n# a comment\n%s\n' "$l" > "$TMP/costs"
	"$KVERIFY" matrix --costs "$TMP/costs" --ci github > "$TMP/out" 2>&1
	mrc=$?
	{ [ $mrc = 2 ] && grep -q "$TMP/costs:3: " "$TMP/out"; } || bad="$bad [$l: exit $mrc]"
done
printf '%s 5\n' "$warm" > "$TMP/costs"
"$KVERIFY" matrix --costs "$TMP/costs" > "$TMP/out" 2>&1 && bad="$bad [no margin]"
"$KVERIFY" matrix --costs "$TMP/none.costs" > "$TMP/out" 2>&1 && bad="$bad [no table]"
test_expect_success "a bad table line exits 2 naming file:line; no margin, no table: refused${bad:+; taken:$bad}" '
	[ -z "$bad" ]
'

# The same commit gives the same CI: a verify that writes a report (its
# durations, its cold cost) changes nothing in what matrix generates.
# The committed table names every applicable target.
gen() { for f in github gitlab; do "$KVERIFY" --results "$TMP/res" matrix --ci $f; done; }
gen > "$TMP/ci.before" 2>&1
first=$1
"$KVERIFY" --results "$TMP/res" verify --skip tree,apply,sim,checkpatch,cocci,config,build,kabi,selftests,boot $first > "$TMP/verify.out" 2>&1
gen > "$TMP/ci.after" 2>&1
test_expect_success "generate, verify $first (a report.json), generate again: byte-identical" '
	test -s "$TMP/res/$first/report.json" && cat "$TMP/verify.out" &&
	cmp "$TMP/ci.before" "$TMP/ci.after" && grep -q "timeout_minutes" "$TMP/ci.before"
'
missing=
for t in $want; do
	awk -v t="$t" '$1 == t' .ci/cold-seconds | grep -q . || missing="$missing $t"
done
test_expect_success "the committed table .ci/cold-seconds has every applicable target${missing:+; missing:$missing}" '
	[ -z "$missing" ] && "$KVERIFY" matrix --ci github > /dev/null
'

# Never empty: fewer shards than asked, with a note; a shard beyond is refused.
n=$((nr + 2))
"$KVERIFY" --results "$TMP/none" matrix --ci github --shard 1/$n > "$TMP/out" 2> "$TMP/err"
mrc=$?
test_expect_success "--shard 1/$n over $nr targets: one target and a note (exit $mrc)" '
	[ $mrc = 0 ] && grep -q "note: $n shards asked for $nr targets: $nr shards" "$TMP/err" &&
	python3 -c "import json,sys; assert len(json.load(open(sys.argv[1]))[\"include\"]) == 1" "$TMP/out"
'
"$KVERIFY" --results "$TMP/none" matrix --ci github --shard $n/$n > "$TMP/out" 2> "$TMP/err"
mrc=$?
test_expect_success "--shard $n/$n: refused (exit $mrc), never an empty matrix" '
	[ $mrc = 2 ] && [ ! -s "$TMP/out" ] && grep -q "shard $n/$n would be empty; use --shard I/$nr" "$TMP/err"
'
# Every shard count up to the number of targets (more are refused above).
empty=
for n in $(seq 1 $nr); do
	for i in $(seq 1 $n); do
		"$KVERIFY" matrix --ci github --shard $i/$n | grep -q '"include": \[\]' && empty="$empty $i/$n"
		[ "$("$KVERIFY" matrix --ci gitlab --shard $i/$n | grep -c '^"verify ')" -gt 0 ] || empty="$empty gitlab:$i/$n"
	done
done
test_expect_success "no github or gitlab shard is empty${empty:+:$empty}" '
	[ -z "$empty" ]
'
done_testing
