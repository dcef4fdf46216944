#!/bin/bash
# Adding a step is a file and a line: a copy of this repository gets
# tests/steps/step_dummy.c as tools/steps/step_dummy.c and "STEP(dummy)"
# after apply in tools/steps/pipeline.h, is built, and its pipeline runs the
# step in its place, skips it with --skip, does not run it when apply
# failed, and stops after its failure unless --keep-going.  A step with an
# output is its file, its header and a line: step_count.c with
# step_count.h, read by step_echo.c through the header's count_of().  A
# tiny dir: tree whose make fails (config FAILs): seconds, after the
# copy's build.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 9
copy=$TMP/repo
repo_copy "$copy"
mkdir -p "$TMP/tree/arch/x86/kvm" "$TMP/tree/scripts" "$copy/good" "$copy/bad" "$TMP/bin"
touch "$TMP/tree/Makefile"
printf 'int a;\nint b;\nint c;\n' > "$TMP/tree/arch/x86/kvm/pmu.c"
printf '#!/bin/sh\nexit 0\n' > "$TMP/tree/scripts/checkpatch.pl"
chmod +x "$TMP/tree/scripts/checkpatch.pl"
patch_of() {	# patch_of FROM TO: a patch of pmu.c's second line
	printf 'Subject: [PATCH] x\n\n---\n--- a/arch/x86/kvm/pmu.c\n+++ b/arch/x86/kvm/pmu.c\n@@ -1,3 +1,3 @@\n int a;\n-int %s;\n+int %s;\n int c;\n' "$1" "$2"
}
printf '0001-x.patch\n' | tee "$copy/good/series" > "$copy/bad/series"
patch_of b d > "$copy/good/0001-x.patch"
patch_of z d > "$copy/bad/0001-x.patch"
printf 'good dir:%s good\nbad dir:%s bad\n' "$TMP/tree" "$TMP/tree" > "$copy/k.list"
printf '#!/bin/sh\necho "make: no kernel here"\nexit 2\n' > "$TMP/bin/make"
chmod +x "$TMP/bin/make"
export KVERIFY_CACHE=$TMP/cache
run() {	# run TARGET OPTIONS...: the copy's pipeline, no kernel make
	local t=$1
	shift
	(cd "$copy" && PATH=$TMP/bin:$PATH ./build/kverify --list k.list verify --skip sim,cocci,selftests,boot "$@" "$t")
}
build_copy() {	# the copy's kverify, made again with its new steps
	rm -f "$copy/build/kverify" &&
	make -C "$copy" -j2 KVERIFY_VERSION=t0176 > "$TMP/make.log" 2>&1 ||
	{ tail -20 "$TMP/make.log"; false; }
}
R=$copy/results/good/report.json
reason() { json "$1" "[s['reason'] for s in r['steps'] if s['name'] == '$2'][0]"; }

test_expect_success 'the copy with step_dummy.c and its line of pipeline.h builds' '
	cp tests/steps/step_dummy.c "$copy/tools/steps/" &&
	sed -i "s/^STEP(apply)\$/&\nSTEP(dummy)/" "$copy/tools/steps/pipeline.h" &&
	grep -A1 "^STEP(apply)" "$copy/tools/steps/pipeline.h" | grep -qx "STEP(dummy)" &&
	build_copy
'
test_expect_success 'it runs after apply, before sim, and PASSes' '
	{ run good > "$TMP/out" 2>&1; rc=$?; } &&
	json $R "\" \".join(s[\"name\"] for s in r[\"steps\"])" > "$TMP/order" &&
	cat "$TMP/order" &&
	[ "$(cat "$TMP/order")" = "fetch tree apply dummy sim checkpatch cocci config build kabi selftests boot" ] &&
	[ "$(step_status $R dummy)" = PASS ] && [ "$(step_status $R checkpatch)" = PASS ] &&
	[ "$(step_status $R config)" = FAIL ] && [ $rc = 1 ]
'
test_expect_success '--skip dummy skips it, and only it' '
	{ run good --skip dummy > "$TMP/out" 2>&1; rc=$?; } &&
	[ "$(step_status $R dummy)" = SKIP ] &&
	[ "$(reason $R dummy)" = "skipped with --skip" ] &&
	[ "$(step_status $R checkpatch)" = PASS ] && [ $rc = 1 ]
'
test_expect_success 'when apply failed it is not run, and says it needs apply' '
	{ run bad > "$TMP/out" 2>&1; rc=$?; } &&
	B=$copy/results/bad/report.json &&
	[ "$(step_status $B apply)" = FAIL ] &&
	[ "$(step_status $B dummy)" = SKIP ] &&
	[ "$(reason $B dummy)" = "not run: needs apply, which failed" ] && [ $rc = 1 ]
'
test_expect_success 'its FAIL stops the run: checkpatch says --keep-going runs it' '
	{ DUMMY_STEP_STATUS=fail run good > "$TMP/out" 2>&1; rc=$?; } &&
	[ "$(step_status $R dummy)" = FAIL ] &&
	[ "$(reason $R dummy)" = "good: told to fail" ] &&
	[ "$(step_status $R checkpatch)" = SKIP ] &&
	[ "$(reason $R checkpatch)" = "not run: the run stopped when dummy failed; checkpatch does not need it: --keep-going runs it" ] &&
	[ $rc = 1 ]
'
test_expect_success 'with --keep-going the steps after it run' '
	{ DUMMY_STEP_STATUS=fail run good -k > "$TMP/out" 2>&1; rc=$?; } &&
	[ "$(step_status $R dummy)" = FAIL ] &&
	[ "$(step_status $R checkpatch)" = PASS ] &&
	[ "$(step_status $R config)" = FAIL ] && [ $rc = 1 ]
'
test_expect_success 'a step with an output, its header, and a step that reads it build' '
	cp tests/steps/step_count.c tests/steps/step_count.h tests/steps/step_echo.c "$copy/tools/steps/" &&
	sed -i "s/^STEP(dummy)\$/&\nSTEP(count)\nSTEP(echo)/" "$copy/tools/steps/pipeline.h" &&
	build_copy
'
test_expect_success 'the step after it reads its output through its header' '
	{ run good > "$TMP/out" 2>&1; rc=$?; } &&
	json $R "\" \".join(s[\"name\"] for s in r[\"steps\"])" > "$TMP/order" &&
	[ "$(cat "$TMP/order")" = "fetch tree apply dummy count echo sim checkpatch cocci config build kabi selftests boot" ] &&
	[ "$(reason $R count)" = "1 patches" ] &&
	[ "$(reason $R echo)" = "count found 1 patches, the first 0001-x.patch" ] &&
	[ $rc = 1 ]
'
# What needs a step --skip names still runs (it may have what it needs
# from a run before): here it reads the output as the engine set it up,
# zeroed.
test_expect_success 'with the step skipped, the one that reads it sees its output zeroed' '
	{ run good --skip sim,cocci,selftests,boot,count > "$TMP/out" 2>&1; rc=$?; } &&
	[ "$(step_status $R count)" = SKIP ] &&
	[ "$(step_status $R echo)" = PASS ] &&
	[ "$(reason $R echo)" = "count found 0 patches, the first none" ] && [ $rc = 1 ]
'
done_testing
