#!/bin/bash
# The sim step: each tree's own vPMU code against the simulated perf PMU.
# The curated series passes on every variant, and so does each pristine tree
# against itself; the series as it was before the fix (v2's logic, kept as
# the v2-as-posted mutants) fails in the pipeline with a counterexample;
# every mutant under tests/sim/mutants/ is rejected for its own invariant;
# SKIP=sim skips it; bad input exits 2.
# lane: 2
. "$(dirname "$0")/lib.sh"

TARGETS="6.1 6.12 7.2 7.3"
QUICK=checkpatch,cocci,config,build,selftests,boot
# mutant (target/name) and the invariant it must fail
MUTANTS="6.12/request-dropped=ii-late 6.12/count-reset=i
6.12/batch-plus-two=ii-late 6.12/v2-as-posted=ii-lost
7.3/request-dropped=ii-late 7.3/count-reset=i 7.3/batch-plus-two=ii-late
7.3/v2-as-posted=ii-lost 6.1/request-dropped=iii 6.1/v2-as-posted=ii-lost"
nm=$(echo $MUTANTS | wc -w)
plan $((5 * 4 + 4 + nm + 1 + 3))

RES=$TMP/results	# this script's own, not the repository's

src_of() {	# the pristine tree of a verified target
	echo "$KVERIFY_CACHE/src/$(json $RES/$1/report.json 'r["source_key"]')"
}

for T in $TARGETS; do
	"$KVERIFY" --results "$RES" verify --skip $QUICK $T > "$TMP/$T.out" 2>&1
	rc=$?
	R=$RES/$T/report.json
	reason=$(json $R '[s["reason"] for s in r["steps"] if s["name"] == "sim"][0]')
	[ $rc = 0 ] && [ "$(step_status $R sim)" = PASS ] &&
		echo "$reason" | grep -q ' [0-9]* traces (seed [0-9]*), every invariant holds; '
	ok $? "$T: the series passes the sim step (exit $rc: $reason)"
	[ $rc = 0 ] || { tail -n 20 "$TMP/$T.out"; json $R '[s["detail"] for s in r["steps"] if s["name"] == "sim"][0]'; } | diag
	grep -q '^RESULT PASS' $RES/$T/logs/03-sim.log
	ok $? "$T: the step's log says so"
	fig=$(json $R 'len(r["sim"]["reprograms_per_million_emulated"])')
	[ "$fig" = 6 ] && grep -q 'sim.reprograms_per_million_emulated.tolerance_1000' $RES/$T/junit.xml
	ok $? "$T: report.json and junit.xml carry the figure for 6 tolerances"
	secs=$(json $R '[s["seconds"] for s in r["steps"] if s["name"] == "sim"][0]')
	python3 -c "import sys; sys.exit(not float('$secs') < 30)"
	ok $? "$T: the sim step took $secs s (< 30 s)"
	P=$(src_of $T)
	"$KVERIFY" sim --pristine "$P" --patched "$P" --work "$KVERIFY_CACHE/sim/t0200-self" > "$TMP/self" 2>&1
	rc=$?
	[ $rc = 0 ] && grep -q '^RESULT PASS 20000 traces' "$TMP/self"
	ok $? "$T: the pristine tree passes against itself, 20000 traces (exit $rc, $(sed -n 's/^RESULT PASS .*, \([0-9.]* s\)$/\1/p' "$TMP/self"))"
	[ $rc = 0 ] || grep -A 30 '^COUNTEREXAMPLE' "$TMP/self" | diag
done

# The series as it was before the fix, in the pipeline: 6.12's variant
# replaced by v2's logic (the v2-as-posted mutant) in a copy of the
# repository.  It must fail with a readable counterexample.
. "$(dirname "$0")/lib-repo.sh"
copy=$TMP/repo
repo_copy "$copy"
series=$(json $RES/6.12/report.json 'r["series"]')
rm -f "$copy/$series"/*.patch
cp tests/sim/mutants/6.12/v2-as-posted.patch "$copy/$series/"
echo v2-as-posted.patch > "$copy/$series/series"
(cd "$copy" && ./build/kverify verify --skip $QUICK 6.12) > "$TMP/v2.out" 2>&1
rc=$?
R=$copy/results/6.12/report.json
[ $rc = 1 ] && [ "$(step_status $R sim)" = FAIL ]
ok $? "v2's logic FAILs the sim step (exit $rc)"
[ $rc = 1 ] || tail -n 20 "$TMP/v2.out" | diag
reason=$(json $R '[s["reason"] for s in r["steps"] if s["name"] == "sim"][0]')
echo "$reason" | grep -q '^FAIL invariant ii-[a-z]*: seed [0-9]* trace [0-9]*, [0-9]* ops: .*expected'
ok $? "the reason is one line naming the invariant, seed, trace and expected value"
echo "$reason" | diag
json $R '[s["detail"] for s in r["steps"] if s["name"] == "sim"][0]' > "$TMP/detail"
grep -q '^COUNTEREXAMPLE seed=' "$TMP/detail" && grep -q '^  at op [0-9]*: ' "$TMP/detail"
ok $? "the detail holds the shrunk counterexample"
grep -q '^COUNTEREXAMPLE' "$copy/results/6.12/logs/03-sim.log"
ok $? "and so does the step's log"

# A tree with the pristine arch/x86 hard-linked, then patched (patch writes
# a new file, so the cached source is never touched).
patched_copy() {	# patched_copy PRISTINE DIR PATCH
	mkdir -p "$2/arch"
	cp -al "$1/arch/x86" "$2/arch/x86"
	patch -s -p1 -d "$2" --no-backup-if-mismatch < "$3" > "$TMP/patch" 2>&1
}

# Mutants on the same kind of copy.
for m in $MUTANTS; do
	name=${m%=*}
	want=${m#*=}
	T=${name%/*}
	P=$(src_of $T)
	M=$TMP/mutant-${name/\//-}
	sum=$(md5sum < "$P/arch/x86/kvm/pmu.c")
	if ! patched_copy "$P" "$M" tests/sim/mutants/$name.patch; then
		ok 1 "mutant $name applies"
		diag < "$TMP/patch"
		continue
	fi
	"$KVERIFY" sim --pristine "$P" --patched "$M" --work "$KVERIFY_CACHE/sim/t0200-mutant" > "$TMP/out" 2>&1
	rc=$?
	got=$(sed -n 's/^RESULT FAIL invariant \([a-z-]*\):.*/\1/p' "$TMP/out")
	[ $rc = 1 ] && [ "$got" = "$want" ] && [ "$(md5sum < "$P/arch/x86/kvm/pmu.c")" = "$sum" ]
	ok $? "mutant $name is rejected for invariant $want (got '$got', exit $rc)"
	grep '^RESULT' "$TMP/out" | diag
done
skip "mutant: the naive prev_counter port that overwrites the snapshot" \
	"no 6.2-6.7 (prev_counter era) tree in kernels.list to apply it to"

"$KVERIFY" --results "$RES" verify --skip sim,$QUICK 6.12 > "$TMP/out" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(step_status $RES/6.12/report.json sim)" = SKIP ] &&
	json $RES/6.12/report.json '[s["reason"] for s in r["steps"] if s["name"] == "sim"][0]' | grep -q 'skipped with --skip'
ok $? "--skip sim skips it like any step (exit $rc)"
status_is "kverify sim without --patched exits 2" 2 "$KVERIFY" sim --pristine /nonexistent
status_is "kverify sim on a directory that is no kernel tree exits 2" 2 \
	"$KVERIFY" sim --pristine "$TMP" --patched "$TMP" --work "$TMP/w"
done_testing
