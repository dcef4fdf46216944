#!/bin/bash
# The sim step keeps its PASS under a hash of what it reads (memo.h): the
# vPMU files it cuts out of the pristine and the patched tree, the Fixes:
# patches of its baseline, its sources, kverify, gcc, the seed and the trace
# count.  The same inputs again: "up to date", no compiler run; a code
# change of the series' pmu.c, another seed, FORCE=1 or VERIFY_CACHE=1: the
# sim runs again (a byte added to the tree's pmu.c by hand: the tree is
# made anew, and the sim up to date); an edit of a patch that touches no file the sim reads
# does not, nor a comment edited in the series' pmu.c hunk, nor another
# checkout of the same code; a kept file whose verdict
# was edited is not believed.  The sim runs in a process of its own,
# beside the steps after it: a SIGINT while it runs stops it and the run.
# Cost: about 10 sim runs of 2000 traces (~1.5 s each here) on the test
# cache's 6.12 tree; no kernel build, no boot.
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_MEMO_TARGET:-6.12}
plan 14
copy=$TMP/repo
repo_copy "$copy"
cached_source $T > /dev/null || exit 1
series=$(target_series $T)
# the selftest's patch: it touches no file the sim reads
pt=$(grep -m1 -i selftest "$series/series")
R=$copy/results/$T/report.json
logs=$copy/results/$T/logs
memo=$KVERIFY_CACHE/memo/$T.sim
pmu=$KVERIFY_CACHE/trees/$T/arch/x86/kvm/pmu.c
rm -f "$memo"
export KVERIFY_SIM_TRACES=2000

verify() {
	(cd "$copy" && ./build/kverify verify \
		--skip checkpatch,cocci,config,build,kabi,selftests,boot $T) \
		> "$TMP/out" 2>&1
}
reason() { json $R "[s['reason'] for s in r['steps'] if s['name'] == '${1:-sim}'][0]"; }
ran() {	# the sim compiled and ran the tree's code
	[ "$(step_status $R sim)" = PASS ] && ! reason | grep -q "^up to date" &&
		grep -q "gcc" $logs/*-sim.log
}
reused() {	# the kept PASS, no compiler run, the report's sim figures kept
	[ "$(step_status $R sim)" = PASS ] &&
		reason | grep "^up to date: inputs unchanged since the PASS of .*every invariant holds" &&
		! grep -q "gcc" $logs/*-sim.log && grep -q "nothing run" $logs/*-sim.log &&
		[ "$(json $R "r['sim']['traces']")" = 2000 ] &&
		[ "$(json $R "r['sim']['traces_asked']")" = 2000 ]
}
# one byte more in the file, as a new file (the tree's files are links)
touch_byte() { cp "$1" "$TMP/f" && printf '\n' >> "$TMP/f" && mv "$TMP/f" "$1"; }

test_expect_success "the first run runs the sim" '
	verify && ran && [ -s "$memo" ]
'
test_expect_success "the same inputs again: up to date, nothing compiled" '
	verify && reused
'
test_expect_success "another checkout of the same code and series: up to date" '
	copy2=$TMP/repo2 && repo_copy "$copy2" && (cd "$copy2" && ./build/kverify verify \
		--skip checkpatch,cocci,config,build,kabi,selftests,boot $T) > "$TMP/out" 2>&1 &&
	R2=$copy2/results/$T/report.json &&
	json $R2 "[s[\"reason\"] for s in r[\"steps\"] if s[\"name\"] == \"sim\"][0]" |
		grep "^up to date: "
'
test_expect_success "a patch that touches no file the sim reads: still up to date" '
	[ -n "$pt" ] && printf "\n" >> "$copy/$series/$pt" &&
	verify && reason tree | grep "^fresh tree" && reused
'
# edit_hunk WHAT: in the last patch with a pmu.c hunk, one word added to
# its first added comment line (comment), or a blank to its first added
# line of code (code); no line count changes.
edit_hunk() {
	python3 - "$1" "$(grep -l "^+++ b/arch/x86/kvm/pmu.c" "$copy/$series"/*.patch | tail -n 1)" <<-\EOF
	import re, sys
	what, path = sys.argv[1], sys.argv[2]
	lines = open(path).read().split("\n")
	inside = False
	for i, l in enumerate(lines):
	    if l.startswith("+++ "):
	        inside = l == "+++ b/arch/x86/kvm/pmu.c"
	    elif inside and what == "comment" and re.match(r"^\+\s*\* [a-z]", l):
	        lines[i] = l.replace("* ", "* kverify ", 1)
	        break
	    elif inside and what == "code" and re.match(r"^\+\s+[a-z].*;$", l):
	        lines[i] = l + " "
	        break
	else:
	    sys.exit("no %s line in a pmu.c hunk of %s" % (what, path))
	open(path, "w").write("\n".join(lines))
	EOF
}
test_expect_success "a word added to a comment of the series' pmu.c hunk: a fresh tree, the sim up to date" '
	edit_hunk comment && verify && reason tree | grep "^fresh tree" && reused
'
test_expect_success "a blank added to a line of code of that hunk: the sim runs" '
	edit_hunk code && verify && reason tree | grep "^fresh tree" && ran
'
# A hand edit in the tree is not believed (step.c, patched_files_intact()):
# the tree is made anew from the series, whose code the PASS was kept for.
test_expect_success "one byte more in the tree's patched pmu.c: the tree is made anew, the sim up to date" '
	[ -f "$pmu" ] && touch_byte "$pmu" &&
	verify && reason tree | grep "^fresh tree" && reused
'
test_expect_success "and the run after it is up to date" '
	verify && reused
'
test_expect_success "another seed: the sim runs" '
	KVERIFY_SIM_SEED=2 verify && ran && reason | grep -q "(seed 2)"
'
test_expect_success "FORCE=1: the sim runs though nothing changed" '
	verify && ran && verify && reused &&
	KVERIFY_FORCE=1 verify && ran
'
test_expect_success "VERIFY_CACHE=1: the sim runs" '
	KVERIFY_VERIFY_CACHE=1 verify && ran
'
test_expect_success "a kept file whose verdict was edited is not believed" '
	sed -i "s/every invariant holds/FORGED/" "$memo" && grep -q FORGED "$memo" &&
	verify && ran && ! reason | grep -q FORGED && ! grep -q FORGED "$memo"
'
test_expect_success "nor one that names another hash" '
	sed -i "1s/^kverify memo2 [0-9a-f]* /kverify memo2 0123456789abcdef /" "$memo" &&
	verify && ran
'
# A sim of many traces (a seed of its own: not up to date), interrupted
# once its program runs: the engine, which has nothing else left to run,
# passes the interrupt on.
sim_runs() { pgrep -f "^$KVERIFY_CACHE/sim/$T/sim " > /dev/null; }
ended() { ! [ -e /proc/$1 ] || grep -q "^State:.*Z" /proc/$1/status; }
test_expect_success "SIGINT while the sim runs in its own process: exit 130, sim ERROR interrupted, no sim left" '
	rm -rf "$copy/results/$T" &&
	{ (cd "$copy" && KVERIFY_SIM_SEED=3 KVERIFY_SIM_TRACES=5000000 exec ./build/kverify verify \
		--skip checkpatch,cocci,config,build,kabi,selftests,boot $T) > "$TMP/int.out" 2>&1 &
	  kpid=$!; } &&
	wait_for 120 sim_runs && kill -INT $kpid &&
	{ wait_for 30 ended $kpid || { kill -KILL $kpid; false; }; } &&
	{ wait $kpid; krc=$?; } ; [ $krc = 130 ] &&
	RI=$copy/results/$T/report.interrupted.json &&
	[ "$(step_status $RI sim)" = ERROR ] &&
	[ "$(json $RI "[s[\"reason\"] for s in r[\"steps\"] if s[\"name\"] == \"sim\"][0]")" = interrupted ] &&
	sleep 1 && ! sim_runs
'
done_testing
