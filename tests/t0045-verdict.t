#!/bin/bash
# What is verified does not write its own verdict: the checkpatch step
# runs the pristine source's scripts/checkpatch.pl, so a series that
# edits checkpatch.pl (to exit 0 at once, and run a command while at it)
# is still checked, and fails, and the command it planted never runs.  The
# sim compiles and runs the tree's pmu.c in the sandbox: a pmu.c that runs
# a command writes nothing outside the sim's work directory (not the
# objects the sim keeps for other runs either) and reads no
# file only root may read.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=6.12
plan 6
P=$(cached_source $T) || exit 1
copy=$TMP/repo
repo_copy "$copy"
series=$(target_series $T)
canary=$TMP/canary

# A third patch: checkpatch.pl that passes everything, planting a command.
mkdir -p "$TMP/a/scripts" "$TMP/b/scripts"
cp "$P/scripts/checkpatch.pl" "$TMP/a/scripts/"
{ sed -n 1p "$P/scripts/checkpatch.pl"
  echo "BEGIN { system('touch', '$canary'); exit 0; }"
  sed -n '2,$p' "$P/scripts/checkpatch.pl"; } > "$TMP/b/scripts/checkpatch.pl"
{ printf 'From: nobody\nSubject: [PATCH 3/3] scripts: quiet\n\n---\n'
  (cd "$TMP" && diff -u a/scripts/checkpatch.pl b/scripts/checkpatch.pl) ; } \
	> "$copy/$series/0003-quiet.patch"
echo 0003-quiet.patch >> "$copy/$series/series"

(cd "$copy" && ./build/kverify verify --skip sim,cocci,config,build,kabi,selftests,boot $T) \
	> "$TMP/out" 2>&1
vrc=$?
R=$copy/results/$T/report.json
test_expect_success 'the series applies, checkpatch.pl edit and all' '
	[ "$(step_status $R apply)" = PASS ]
'
test_expect_success 'checkpatch FAILs the patch that edits checkpatch.pl (the pristine script checked it)' '
	[ $vrc = 1 ] && [ "$(step_status $R checkpatch)" = FAIL ] &&
	json $R "[s[\"detail\"] for s in r[\"steps\"] if s[\"name\"] == \"checkpatch\"][0]" | grep -q "0003-quiet.patch"
'
test_expect_success 'and the command the patch planted in checkpatch.pl never ran' '
	[ ! -e "$canary" ]
'
# A pmu.c whose increment runs a command, once (the sim calls it on every
# emulated instruction).
mkdir -p "$TMP/evil/arch"
cp -al "$P/arch/x86" "$TMP/evil/arch/x86"
echo "only root reads this" > "$TMP/secret" && chmod 600 "$TMP/secret"
W=$KVERIFY_CACHE/sim/t0045
S=$KVERIFY_CACHE/sim-objects	# the sim's store of kept objects
rm -rf "$W"
sed -i "/^static void kvm_pmu_incr_counter(struct kvm_pmc \*pmc)$/,/^{$/ s|^{$|{ static int once; if (!once++ \&\& system(\"touch $TMP/planted; cat $TMP/secret > $W/leak; id -u > $W/uid; for f in $S/*.o; do echo x > \$f; done; touch $S/planted.o\")) {}|" \
	"$TMP/evil/arch/x86/kvm/pmu.c"
# The store holds the pristine tree's unit and our harness, kept by a run
# of the pristine tree against itself.
"$KVERIFY" sim --pristine "$P" --patched "$P" --traces 1 --work "$W" > /dev/null 2>&1
(cd "$S" 2> /dev/null && md5sum ./*) > "$TMP/store.sum"
test_expect_success 'the sim runs a pmu.c that runs a command (it did run, in the sandbox, as nobody)' '
	grep -q "planted" "$TMP/evil/arch/x86/kvm/pmu.c" && ! grep -q planted "$P/arch/x86/kvm/pmu.c" &&
	{ "$KVERIFY" sim --pristine "$P" --patched "$TMP/evil" --traces 20 --work "$W" > "$TMP/sim.out" 2>&1; rc=$?; } &&
	echo "sim exit $rc" && tail -n 3 "$TMP/sim.out" && [ -f "$W/uid" ] &&
	{ [ "$(id -u)" != 0 ] || [ "$(cat "$W/uid")" = 65534 ]; }
'
test_expect_success 'and it wrote nothing outside the work directory, read nothing only root may read' '
	[ ! -e "$TMP/planted" ] &&
	{ [ "$(id -u)" != 0 ] || ! grep -q "only root reads this" "$W/leak"; }
'
test_expect_success 'nor changed the objects the sim keeps for other runs, nor added one' '
	cat "$TMP/store.sum" && [ "$(grep -c "\.o$" "$TMP/store.sum")" -ge 2 ] &&
	(cd "$S" && md5sum -c --quiet "$TMP/store.sum") &&
	[ ! -e "$S/planted.o" ]
'
done_testing
