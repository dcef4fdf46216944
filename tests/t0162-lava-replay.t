#!/bin/bash
# The bundle's LAVA jobs record what the KTAP says: console logs (a pass, a
# fail, a skip, a panic, a hang) replayed through lava-dispatcher's own boot
# prompt wait and test monitor code (tests/lava/replay.py) must give one
# LAVA result per KTAP result, ok/not ok/# SKIP as pass/fail/skip, with the
# tolerance in the test case id.  The same check catches the job definitions
# before #15 and a pattern that reads "# SKIP" as a pass.  boot.log and
# skip.ktap are the console of a real boot of tools/guest/init (6.12, TCG:
# the PMU tests skip); the other cases are that runner's output edited.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
plan 21

if ! $PY -c 'import lava_dispatcher.actions.test.monitor' 2> /dev/null; then
	for i in $(seq 21); do skip "LAVA replay" "lava-dispatcher is not installed (apt-get install lava-dispatcher)"; done
	exit 0
fi

for job in tools/lava/qemu.yaml tools/lava/x86.yaml tools/lava/qemu-tcg.yaml; do
	for c in pass fail skip panic hang; do
		$PY tests/lava/check.py $job $c > "$TMP/out" 2>&1
		lrc=$?
		test_expect_success "$job, $c: LAVA records every KTAP result right ($(tail -n 1 "$TMP/out"))" '
			cat "$TMP/out" && [ $lrc = 0 ]
		'
	done
done

cat tests/lava/boot.log tests/lava/skip.ktap > "$TMP/skip.log"
$PY tests/lava/replay.py tools/lava/qemu.yaml "$TMP/skip.log" > "$TMP/r.json" 2>&1
test_expect_success 'the tolerance is part of the test case id (pmu_counters_test_tolerance_1000)' - <<\EOT
	$PY -c 'import json, sys
r = json.load(open(sys.argv[1]))["results"]
ids = [k for k in r if k.startswith("pmu_")]
want = ["%s_tolerance_%d" % (n, t) for n in ("pmu_counters_test", "pmu_emulated_batching_test", "pmu_event_filter_test") for t in (0, 1000, 100000, 10000000)]
assert sorted(ids) == sorted(want), ids' "$TMP/r.json"
EOT

# The runner prints the jobs' boot prompt, then the monitor's start string.
b=$(grep -n '^	echo "kverify-guest: booted ' tools/guest/init | cut -d: -f1)
k=$(grep -n '^	echo "KTAP version 1"' tools/guest/init | cut -d: -f1)
test_expect_success "the runner prints the jobs' boot prompt (line $b) before the KTAP header (line $k)" - <<\EOT
	[ -n "$b" ] && [ -n "$k" ] && [ "$b" -lt "$k" ] &&
	grep -q "^    - 'kverify-guest: booted'$" tools/lava/qemu.yaml &&
	grep -q "^    - 'kverify-guest: booted'$" tools/lava/x86.yaml
EOT

test_expect_success 'qemu jobs: -no-reboot, so a panic ends the job instead of booting twice' - <<\EOT
	grep -q -- '- -no-reboot' tools/lava/qemu.yaml && grep -q -- '- -no-reboot' tools/lava/qemu-tcg.yaml
EOT

# The check can fail: the old job and a naive pattern lose results.
test_expect_success 'the job before #15 (boot prompt = monitor start) is caught losing a fail' '
	! $PY tests/lava/check.py tests/lava/old-qemu.yaml fail > "$TMP/out" 2>&1 &&
	grep -q "pmu_counters_test_tolerance_1000: KTAP says fail, LAVA recorded nothing" "$TMP/out"
'
$PY - tools/lava/qemu.yaml "$TMP/naive.yaml" <<'PY'
import sys, yaml
j = yaml.safe_load(open(sys.argv[1]))
m = [a for a in j["actions"] if "test" in a][0]["test"]["monitors"][0]
m["pattern"] = r"(?m)^(?P<result>not ok|ok) \d+ (?P<test_case_id>[^#\r\n]*[^#\s])[^\r\n]*\r*\n"
m["fixupdict"] = {"ok": "pass", "not ok": "fail"}
yaml.safe_dump(j, open(sys.argv[2], "w"))
PY
test_expect_success "a pattern that reads '# SKIP' as a pass is caught" '
	! $PY tests/lava/check.py "$TMP/naive.yaml" skip > "$TMP/out" 2>&1 &&
	grep -q "pmu_counters_test_tolerance_0: KTAP says skip, LAVA recorded pass" "$TMP/out" ||
	{ cat "$TMP/out"; false; }
'
$PY - tools/lava/qemu.yaml "$TMP/same.yaml" <<'PY'
import sys, yaml
j = yaml.safe_load(open(sys.argv[1]))
[a for a in j["actions"] if "boot" in a][0]["boot"]["prompts"] = ["KTAP version 1"]
yaml.safe_dump(j, open(sys.argv[2], "w"))
PY
test_expect_success "a boot prompt equal to the monitor's start string is caught" '
	! $PY tests/lava/check.py "$TMP/same.yaml" fail > /dev/null 2>&1
'
done_testing
