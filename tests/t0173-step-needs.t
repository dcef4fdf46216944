#!/bin/bash
# What a step that did not run says: a step the user skipped says
# "skipped with --skip" even after another step failed, and a step that
# does not read what failed says the run stopped there (and that
# --keep-going runs it), not that it needs the failed step; and the cold
# cost a warm run reports (what .ci/cold-seconds is measured from).  Steps
# run beside (cocci, selftests): a failure of one stops the steps below it
# in the table, as when they run one after another, not those above it;
# selftests, which reads the tree only, runs though config failed.  A tiny
# dir: tree whose checkpatch has a finding and whose make fails: seconds.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 6
copy=$TMP/repo
repo_copy "$copy"
mkdir -p "$TMP/tree/arch/x86/kvm" "$TMP/tree/scripts" "$copy/esc" "$TMP/bin"
touch "$TMP/tree/Makefile"
printf 'int a;\nint b;\nint c;\n' > "$TMP/tree/arch/x86/kvm/pmu.c"
printf '#!/bin/sh\nsleep 2\necho "ERROR: a finding"\nexit 1\n' > "$TMP/tree/scripts/checkpatch.pl"
chmod +x "$TMP/tree/scripts/checkpatch.pl"
printf '0001-good.patch\n' > "$copy/esc/series"
printf 'Subject: [PATCH] x\n\n---\n--- a/arch/x86/kvm/pmu.c\n+++ b/arch/x86/kvm/pmu.c\n@@ -1,3 +1,3 @@\n int a;\n-int b;\n+int d;\n int c;\n' \
	> "$copy/esc/0001-good.patch"
printf 'esc dir:%s esc\n' "$TMP/tree" > "$copy/k.list"
printf '#!/bin/sh\necho "make: no kernel here"\nexit 2\n' > "$TMP/bin/make"
chmod +x "$TMP/bin/make"
export KVERIFY_CACHE=$TMP/cache
R=$copy/results/esc/report.json
run() { (cd "$copy" && PATH=$TMP/bin:$PATH ./build/kverify --list k.list verify "$@" esc); }
reason() { json $R "[s['reason'] for s in r['steps'] if s['name'] == '$1'][0]"; }

test_expect_success 'after a checkpatch finding the steps --skip names say so, not that checkpatch failed' '
	run --skip sim,cocci,selftests,boot > "$TMP/out" 2>&1
	rc=$? && bad= &&
	for s in sim cocci selftests boot; do
		echo "$s: $(step_status $R $s): $(reason $s)" &&
		[ "$(step_status $R $s)" = SKIP ] &&
		[ "$(reason $s)" = "skipped with --skip" ] || bad="$bad $s"
	done &&
	[ $rc = 1 ] && [ "$(step_status $R checkpatch)" = FAIL ] && [ -z "$bad" ]
'
test_expect_success 'config and build, which do not read checkpatch, say the run stopped and --keep-going runs them' '
	bad= &&
	for s in config build kabi; do
		echo "$s: $(step_status $R $s): $(reason $s)" &&
		[ "$(step_status $R $s)" = SKIP ] &&
		[ "$(reason $s)" = "not run: the run stopped when checkpatch failed; $s does not need it: --keep-going runs it" ] ||
			bad="$bad $s"
	done &&
	[ -z "$bad" ]
'
test_expect_success '--keep-going: config runs; build and kabi, which need config, say so' '
	run -k --skip sim,cocci,selftests,boot > "$TMP/out" 2>&1
	[ $? = 1 ] && [ "$(step_status $R config)" = FAIL ] &&
	echo "build: $(reason build); kabi: $(reason kabi)" &&
	[ "$(reason build)" = "not run: needs config, which failed" ] &&
	[ "$(reason kabi)" = "not run: needs config, which failed" ] &&
	[ "$(reason boot)" = "skipped with --skip" ]
'
test_expect_success 'report.json: cold_seconds keeps the longest each step took here, when a run skips it' '
	cat "$KVERIFY_CACHE/costs/esc" &&
	grep -q "^checkpatch [2-9]" "$KVERIFY_CACHE/costs/esc" &&
	{ run --skip sim,checkpatch,cocci,selftests,boot,config,build,kabi > "$TMP/out" 2>&1; rc=$?; } &&
	echo "exit $rc, seconds $(json $R "r[\"seconds\"]"), cold_seconds $(json $R "r[\"cold_seconds\"]")" &&
	[ "$(json $R "r[\"cold_seconds\"] >= 2 and r[\"seconds\"] < r[\"cold_seconds\"]")" = True ]
'
test_expect_success 'cocci beside: its failure stops config below it, not checkpatch above it' '
	printf "#!/bin/sh\nexit 0\n" > "$TMP/tree/scripts/checkpatch.pl" &&
	run --skip sim,selftests,boot > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc: cocci $(step_status $R cocci): $(reason cocci | cut -c1-100)" &&
	echo "checkpatch $(step_status $R checkpatch); config: $(reason config)" &&
	[ $rc = 1 ] && [ "$(step_status $R cocci)" = FAIL ] &&
	[ "$(step_status $R checkpatch)" = PASS ] &&
	[ "$(reason config)" = "not run: the run stopped when cocci failed; config does not need it: --keep-going runs it" ]
'
test_expect_success 'selftests beside: it reads the tree, so it runs though config failed; boot does not' '
	run --skip sim,cocci > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc: selftests $(step_status $R selftests): $(reason selftests | cut -c1-100)" &&
	echo "boot: $(reason boot)" &&
	[ $rc = 1 ] && [ "$(step_status $R config)" = FAIL ] &&
	[ "$(step_status $R selftests)" = FAIL ] &&
	log=$copy/results/esc/logs/09-selftests.log &&
	grep -q " make -C $KVERIFY_CACHE/trees/esc O=$KVERIFY_CACHE/build/esc-kselftest/kernel .* headers$" "$log" &&
	grep -qx "make: no kernel here" "$log" &&
	[ "$(reason boot)" = "not run: needs config, which failed" ]
'
done_testing
