#!/bin/bash
# checkpatch and cocci keep their last PASS under a hash of their inputs: a
# run with the same inputs reports it as up to date and runs neither perl
# nor spatch; a change to any input (checkpatch.allow, the semantic patch,
# a patch) runs the step again; a FAIL is never kept; a kept file whose
# hash is not the inputs' is not trusted.  checkpatch.pl's output on each
# patch is kept too, under that patch's bytes as checked: a run checks
# again only the patches that changed, and FORCE=1 all.
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_MEMO_TARGET:-6.12}
ONLY=sim,config,build,kabi,selftests,boot
plan 10
copy=$TMP/repo
repo_copy "$copy"
cached_source $T > /dev/null || exit 1
series=$(target_series $T)
# the knob's patch, whose comment the checks below edit
p1=$(grep -m1 Batch-counter-reprograms "$series/series")
R=$copy/results/$T/report.json
logs=$copy/results/$T/logs
rm -f "$KVERIFY_CACHE/memo/$T.checkpatch" "$KVERIFY_CACHE/memo/$T.cocci"

verify() { (cd "$copy" && ./build/kverify verify --skip $ONLY $T) > "$TMP/out" 2>&1; }
reason() { json $R "[s['reason'] for s in r['steps'] if s['name'] == '$1'][0]"; }
ran() {	# ran STEP: the step ran its tool (and did not reuse a PASS)
	[ "$(step_status $R $1)" = PASS ] && ! reason $1 | grep -q "^up to date" &&
		grep -q '^\$ ' $logs/*-$1.log
}
perl_runs() {	# perl_runs N: checkpatch.pl ran on N patches
	n=$(grep -c "^\$ .*checkpatch\.pl" $logs/*-checkpatch.log)
	echo "checkpatch.pl ran $n times" && [ "$n" = "$1" ]
}
recounted() {	# recounted: the step ran, on checkpatch.pl's kept outputs
	[ "$(step_status $R checkpatch)" = PASS ] &&
		! reason checkpatch | grep -q "^up to date" && perl_runs 0 &&
		[ "$(grep -c "^up to date: .*/memo/$T\.checkpatch\.0.*; nothing run" $logs/*-checkpatch.log)" = "$NR" ]
}
reused() {	# reused STEP: the kept PASS, and no tool ran
	[ "$(step_status $R $1)" = PASS ] &&
		reason $1 | grep "^up to date: inputs unchanged since the PASS of " &&
		! grep -q '^\$ ' $logs/*-$1.log && grep -q "nothing run" $logs/*-$1.log
}

NR=$(grep -c '^[^#]' "$copy/$series/series")
rm -f "$KVERIFY_CACHE/memo/$T.checkpatch."*
test_expect_success "the first run runs checkpatch on every patch, and spatch" '
	verify && ran checkpatch && ran cocci && perl_runs $NR
'
test_expect_success "the same inputs again: both up to date, perl and spatch not run" '
	verify && reused checkpatch && reused cocci
'
test_expect_success "checkpatch.allow changed: checkpatch counts again, on the kept outputs; cocci does not run" '
	echo "# a comment" >> "$copy/checkpatch.allow" &&
	verify && recounted && reused cocci
'
test_expect_success "the semantic patch changed: cocci runs, checkpatch does not" '
	echo "// a comment" >> "$copy/cocci/emulated_counter_reprogram_tolerance.cocci" &&
	verify && reused checkpatch && ran cocci
'
test_expect_success "a kept file whose hash is not the inputs' is not trusted" '
	sed -i "1s/^kverify memo2 [0-9a-f]* /kverify memo2 0123456789abcdef /" "$KVERIFY_CACHE/memo/$T.checkpatch" &&
	verify && recounted
'
test_expect_success "a patch's kept output edited (its seal): checkpatch.pl runs on that patch again" '
	sed -i "\$a WARNING:LONG_LINE: a line nobody wrote" "$KVERIFY_CACHE/memo/$T.checkpatch.$p1" &&
	rm -f "$KVERIFY_CACHE/memo/$T.checkpatch" &&
	verify && perl_runs 1 && grep -q "^\$ .*checkpatch\.pl.*$p1" $logs/*-checkpatch.log
'
# A trailing blank on an added comment line: checkpatch's error.
test_expect_success "a patch checkpatch rejects: FAIL, and nothing kept" '
	cp "$copy/$series/$p1" "$TMP/p1" &&
	sed -i "s/^\(+ \* How many emulated instructions.*\)$/\1 /" "$copy/$series/$p1" &&
	! cmp -s "$TMP/p1" "$copy/$series/$p1" &&
	{ verify; [ $? = 1 ]; } && [ "$(step_status $R checkpatch)" = FAIL ] &&
	[ ! -e "$KVERIFY_CACHE/memo/$T.checkpatch" ] && perl_runs 1
'
# One output is kept per patch: the rejected bytes' replaced the fixed ones'.
test_expect_success "the patch fixed: checkpatch runs again (the earlier PASS was forgotten), on that patch alone" '
	cp "$TMP/p1" "$copy/$series/$p1" &&
	verify && [ "$(step_status $R checkpatch)" = PASS ] &&
	! reason checkpatch | grep -q "^up to date" && perl_runs 1
'
test_expect_success "and the run after it reuses that PASS" '
	verify && reused checkpatch && reused cocci
'
test_expect_success "FORCE=1: checkpatch.pl runs on every patch again" '
	(cd "$copy" && KVERIFY_FORCE=1 ./build/kverify verify --skip $ONLY $T) > "$TMP/out" 2>&1 &&
	ran checkpatch && perl_runs $NR
'
done_testing
