#!/bin/bash
# make verify on every kernel of kernels.list, on Debian's real trees: the
# steps' statuses, the guest's tests, and the reports parse.
# tier: kernels
. "$(dirname "$0")/lib.sh"

TARGETS=${KVERIFY_TARGETS_UNDER_TEST:-$("$KVERIFY" list --names)}
set -- $TARGETS
plan $(( $# * 7 + 2 ))

junit_ok() {
	python3 -c 'import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); print(len(d.getElementsByTagName("testcase")))' "$1"
}

# All targets side by side on make's jobserver (-j2), watching how many
# compilers run at once: never more than 2, however many targets run.
# Only the compilers of these builds: their command lines name the cache.
# Not counted: kbuild's compiler-option probes (cc-option and friends,
# "-c -x c /dev/null"), which make runs through $(shell) while it expands a
# recipe, before it takes a job slot: GNU make's design, not a compile job.
# Over 2, the compilers and their parents are kept for the diagnostics.
# Once a second: pgrep reads every process's command line; at 5 Hz its
# ~4,000 runs took ~130 CPU-s of a cold `make check-all`.  A jobserver that
# lets more through does so for minutes, not for a fraction of a second.
( while sleep 1; do
	n=$(pgrep -af "/cc1 .*$KVERIFY_CACHE/" | grep -vc ' /dev/null')
	echo "$n"
	[ "$n" -le 2 ] || ps -eo pid,ppid,etimes,args | grep -E '[c]c1 |[m]ake |[k]verify' | cut -c1-240 >> "$TMP/over"
done ) > "$TMP/jobs" 2>/dev/null &
sampler=$!
make --no-print-directory -j2 verify-all > "$TMP/all.out" 2>&1
all_rc=$?
kill $sampler 2>/dev/null
wait $sampler 2>/dev/null
peak=$(sort -n "$TMP/jobs" | tail -n 1)
samples=$(grep -c '^[1-9]' "$TMP/jobs")

for t in $TARGETS; do
	R=results/$t
	test_expect_success "make -j2 verify-all: $t passed" - <<\EOT
	passed=$(json $R/report.json 'r["passed"]') && [ "$passed" = True ] ||
	{ grep "^  [a-z]\+ .* FAIL\|^      " "$TMP/all.out" | head -n 60; false; }
EOT
	n=$(junit_ok $R/junit.xml 2> "$TMP/err")
	test_expect_success "$t: report.json and junit.xml parse ($n testcases)" - <<\EOT
	cat "$TMP/err" &&
	[ -n "$n" ] && [ "$n" -ge 9 ] && json $R/report.json 'r["target"]' > /dev/null
EOT
	statuses=$(json $R/report.json '" ".join(s["name"] + "=" + s["status"] for s in r["steps"])')
	if [ -z "$(json $R/report.json 'r["series"]')" ]; then
		want="fetch=PASS tree=N-A apply=N-A sim=N-A checkpatch=N-A cocci=N-A config=N-A build=N-A kabi=N-A selftests=N-A boot=N-A"
		test_expect_success "$t: n/a, confirmed by the semantic patch ($statuses)" '
			[ "$statuses" = "$want" ]
		'
		test_expect_success "$t: cocci says NOT-APPLICABLE" - <<\EOT
	json $R/report.json '[s["reason"] for s in r["steps"] if s["name"] == "cocci"][0]' | grep -q "semantic patch agrees: NOT-APPLICABLE"
EOT
		skip "$t: guest plumbing and control" "n/a target: nothing to boot"
		skip "$t: PMU tests skip with a reason" "n/a target: nothing to boot"
		skip "$t: the kernel BOOT=auto chose" "n/a target: nothing to boot"
		continue
	fi
	# BOOT=auto: Debian's own kernel, its modules built with Debian's
	# compiler, on this machine or in a chroot of the kernel's own Debian
	# release (kabi runs); else ours, only because neither can be had.
	boot=$(json $R/report.json 'r["boot"]')
	kabi=N-A
	if [ "$boot" = distro ]; then
		kabi=PASS
		config=$(json $R/report.json '[s["reason"] for s in r["steps"] if s["name"] == "config"][0]')
		cc=$(echo "$config" | sed -n 's/.* with \([^ ,]*gcc[^ ,]*\), srctree .*/\1/p')
		root=$(echo "$config" | sed -n 's/.* in a chroot of Debian [a-z]* (\([^)]*\)).*/\1/p')
		test_expect_success "$t: BOOT=auto booted Debian's $(json $R/report.json 'r["kernel"]') (its compiler ${cc:-?} ${root:+in $root, not }here)" - <<\EOT
	echo "$config" &&
	if [ -n "$root" ]; then
		[ -n "$cc" ] && [ -x "$root/usr/bin/$cc" ] && ! command -v "$cc" > /dev/null
	else
		[ -n "$cc" ] && command -v "$cc" > /dev/null
	fi &&
	[ "$(json $R/report.json 'r["kernel_release"]')" = "$(json $R/report.json 'r["kernel"]')" ]
EOT
	else
		cc=$(json $R/report.json 'r.get("boot_why") or ""' | sed -n 's/^Debian built .* with \(gcc-[0-9]*\)[-a-z]* .*not installed here.*/\1/p')
		test_expect_success "$t: BOOT=auto booted our own kernel, and only because ${cc:-its compiler} is not installed and no chroot can be made" - <<\EOT
	json $R/report.json 'r.get("boot_why") or ""' &&
	[ -n "$cc" ] && ! command -v "$cc" > /dev/null &&
	{ [ "$(id -u)" != 0 ] || ! command -v mmdebstrap > /dev/null; }
EOT
	fi
	# A series of fixes only (every patch has Fixes:, backports/6.1): no
	# knob, so the cocci step is n/a for it and the guest checks that the
	# parameter is absent (one plumbing check instead of nine).
	series=$(json $R/report.json 'r["series"]')
	fixes_only=1
	for p in $(cat "$series/series"); do
		sed '/^---$/q' "$series/$p" | grep -q '^Fixes:' || fixes_only=
	done
	cocci=PASS nplumb=9
	[ -z "$fixes_only" ] || cocci=N-A nplumb=1
	want="fetch=PASS tree=PASS apply=PASS sim=PASS checkpatch=PASS cocci=$cocci config=PASS build=PASS kabi=$kabi selftests=PASS boot=PASS"
	test_expect_success "$t: every step passes ($statuses)" '
		[ "$statuses" = "$want" ]
	'
	if [ -n "$fixes_only" ]; then
		test_expect_success "$t: fixes only: the cocci step says n/a for the knob, and why" - <<\EOT
	json $R/report.json '[s["reason"] for s in r["steps"] if s["name"] == "cocci"][0]' | grep -q "^the knob: n/a, $series carries fixes only (every patch has Fixes:); semantic patch agrees: NOT-APPLICABLE"
EOT
	else
		test_expect_success "$t: the semantic patch writes what the series writes" - <<\EOT
	json $R/report.json '[s["reason"] for s in r["steps"] if s["name"] == "cocci"][0]' | grep -Eq "^(up to date: inputs unchanged since the PASS of [^:]*:[^:]*:[^:]*: )?APPLIED .*identical to the series"
EOT
	fi
	bad=$(json $R/report.json '[t["name"] for t in r["tests"] if (t["name"].startswith("param:") or t["name"] == "cpuid_test") and t["status"] != "PASS"]')
	np=$(json $R/report.json 'len([t for t in r["tests"] if t["name"].startswith("param:")])')
	test_expect_success "$t: $nplumb plumbing check(s) and the control test pass in the guest (not passing: $bad)" '
		[ "$bad" = "[]" ] && [ "$np" = $nplumb ] &&
		{ [ -z "$fixes_only" ] || json $R/report.json "[t[\"name\"] for t in r[\"tests\"]]" | grep -q "param: absent, the series carries fixes only"; }
	'
	# No PMU under TCG: every PMU test must SKIP, with the reason.
	pmu=$(json $R/report.json '[(t["status"], t["reason"]) for t in r["tests"] if "pmu" in t["name"]]')
	npmu=$(json $R/report.json 'len([t for t in r["tests"] if "pmu" in t["name"] and t["status"] == "SKIP" and "enable_pmu=N" in t["reason"]])')
	nall=$(json $R/report.json 'len([t for t in r["tests"] if "pmu" in t["name"]])')
	# Fixes only: each PMU test runs once (no tolerance to sweep); 6.1 has
	# one, pmu_event_filter_test.
	minpmu=4
	[ -z "$fixes_only" ] || minpmu=1
	test_expect_success "$t: $npmu of $nall PMU test runs SKIP with 'no vPMU: enable_pmu=N'" '
		echo "$pmu" &&
		[ "$nall" -ge $minpmu ] && [ "$npmu" = "$nall" ] &&
		{ [ -z "$fixes_only" ] || ! json $R/report.json "[t[\"name\"] for t in r[\"tests\"]]" | grep -q "tolerance="; }
	'
done
test_expect_success 'make -j2 verify-all exits 0' '
	[ $all_rc = 0 ]
'
if [ "$samples" -gt 0 ]; then
	test_expect_success "at most 2 compilers at once: peak $peak over $samples busy samples, 1 s apart" '
		{ [ "$peak" -le 2 ] || head -n 40 "$TMP/over"; } &&
		[ "$peak" -le 2 ]
	'
else
	skip "at most 2 compilers at once" "warm cache: nothing was compiled (t0075 checks the jobserver hermetically)"
fi
done_testing
