#!/bin/bash
# make verify on every kernel of kernels.list, on Debian's real trees: the
# steps' statuses, the guest's tests, and the reports parse.
. "$(dirname "$0")/lib.sh"

TARGETS=${KVERIFY_TARGETS_UNDER_TEST:-$("$KVERIFY" list --names)}
set -- $TARGETS
plan $(( $# * 6 ))

junit_ok() {
	python3 -c 'import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); print(len(d.getElementsByTagName("testcase")))' "$1"
}

for t in $TARGETS; do
	R=results/$t
	make --no-print-directory verify KERNEL=$t > "$TMP/$t.out" 2>&1
	rc=$?
	ok $rc "make verify KERNEL=$t exits 0"
	[ $rc = 0 ] || tail -n 60 "$TMP/$t.out" | diag
	n=$(junit_ok $R/junit.xml 2> "$TMP/err")
	[ -n "$n" ] && [ "$n" -ge 9 ] && json $R/report.json 'r["target"]' > /dev/null
	ok $? "$t: report.json and junit.xml parse ($n testcases)"
	statuses=$(json $R/report.json '" ".join(s["name"] + "=" + s["status"] for s in r["steps"])')
	if [ -z "$(json $R/report.json 'r["series"]')" ]; then
		want="fetch=PASS tree=N-A apply=N-A checkpatch=N-A cocci=N-A config=N-A build=N-A selftests=N-A boot=N-A"
		[ "$statuses" = "$want" ]
		ok $? "$t: n/a, confirmed by the semantic patch ($statuses)"
		json $R/report.json '[s["reason"] for s in r["steps"] if s["name"] == "cocci"][0]' | grep -q "semantic patch agrees: NOT-APPLICABLE"
		ok $? "$t: cocci says NOT-APPLICABLE"
		skip "$t: guest plumbing and control" "n/a target: nothing to boot"
		skip "$t: PMU tests skip with a reason" "n/a target: nothing to boot"
		continue
	fi
	want="fetch=PASS tree=PASS apply=PASS checkpatch=PASS cocci=PASS config=PASS build=PASS selftests=PASS boot=PASS"
	[ "$statuses" = "$want" ]
	ok $? "$t: every step passes ($statuses)"
	json $R/report.json '[s["reason"] for s in r["steps"] if s["name"] == "cocci"][0]' | grep -q "^APPLIED .*identical to the series"
	ok $? "$t: the semantic patch writes what the series writes"
	bad=$(json $R/report.json '[t["name"] for t in r["tests"] if (t["name"].startswith("param:") or t["name"] == "cpuid_test") and t["status"] != "PASS"]')
	np=$(json $R/report.json 'len([t for t in r["tests"] if t["name"].startswith("param:")])')
	[ "$bad" = "[]" ] && [ "$np" = 9 ]
	ok $? "$t: 9 plumbing checks and the control test pass in the guest (not passing: $bad)"
	# No PMU under TCG: every PMU test must SKIP, with the reason.
	pmu=$(json $R/report.json '[(t["status"], t["reason"]) for t in r["tests"] if "pmu" in t["name"]]')
	npmu=$(json $R/report.json 'len([t for t in r["tests"] if "pmu" in t["name"] and t["status"] == "SKIP" and "enable_pmu=N" in t["reason"]])')
	nall=$(json $R/report.json 'len([t for t in r["tests"] if "pmu" in t["name"]])')
	[ "$nall" -ge 4 ] && [ "$npmu" = "$nall" ]
	ok $? "$t: $npmu of $nall PMU test runs SKIP with 'no vPMU: enable_pmu=N'"
	[ "$npmu" = "$nall" ] || echo "$pmu" | diag
done
done_testing
