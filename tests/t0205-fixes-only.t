#!/bin/bash
# A series of fixes only (every patch has a Fixes: trailer, no parameter):
# backports/6.1, 0001 adapted to 6.1.  On Debian's 6.1 it applies, passes
# checkpatch, and the sim step runs it with the fixes-only rule (the
# patched tree is its own baseline, so invariant iv excuses no spurious
# overflow perf's overflow handler raises); the cocci step says n/a for the knob, with the
# semantic patch's reason.  The same series with the pristine bug put back
# (tests/sim/mutants/6.1/fixes-period-from-counter.patch) FAILs the sim
# step for iv; without the rule the correct series FAILs too (6.1's own
# spurious signal at an emulated instruction), which is why the rule is
# there; a series of fixes only where the semantic patch can add the knob
# FAILs the cocci step.
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 10
QUICK=config,build,kabi,selftests,boot
RES=$TMP/results

"$KVERIFY" --results "$RES" verify --skip $QUICK 6.1 > "$TMP/6.1.out" 2>&1
vrc=$?
R=$RES/6.1/report.json
reason() { json "$1" "[s['reason'] for s in r['steps'] if s['name'] == '$2'][0]"; }
test_expect_success "6.1: backports/6.1 applies and passes checkpatch (exit $vrc)" - <<\EOT
	tail -n 16 "$TMP/6.1.out" &&
	[ $vrc = 0 ] && [ "$(json $R 'r["series"]')" = backports/6.1 ] &&
	[ "$(step_status $R apply)" = PASS ] && [ "$(step_status $R checkpatch)" = PASS ] &&
	reason $R apply | grep -q '^1 patches applied'
EOT
sim=$(reason $R sim)
test_expect_success "6.1: the sim step passes with the fixes-only rule ($sim)" - <<\EOT
	[ "$(step_status $R sim)" = PASS ] &&
	echo "$sim" | grep -q '^sync era, [0-9]* traces (seed 1), every invariant holds; baseline: pristine + 0001 (the Fixes: patches), the whole series: fixes only, no parameter' &&
	grep -q '^RESULT PASS' $RES/6.1/logs/03-sim.log
EOT
cocci=$(reason $R cocci)
test_expect_success "6.1: the cocci step says n/a for the knob, with the semantic patch's reason ($cocci)" - <<\EOT
	[ "$(step_status $R cocci)" = N-A ] &&
	echo "$cocci" | grep -q '^the knob: n/a, backports/6.1 carries fixes only (every patch has Fixes:); semantic patch agrees: NOT-APPLICABLE sync shape (5.19-6.1): '
EOT

# The mutant as backports/6.1's only patch, in a copy of the repository.
copy=$TMP/repo
repo_copy "$copy"
rm -f "$copy"/backports/6.1/*.patch
cp tests/sim/mutants/6.1/fixes-period-from-counter.patch "$copy/backports/6.1/"
echo fixes-period-from-counter.patch > "$copy/backports/6.1/series"
(cd "$copy" && ./build/kverify verify --skip checkpatch,cocci,$QUICK 6.1) > "$TMP/mut.out" 2>&1
mrc=$?
M=$copy/results/6.1/report.json
msim=$(reason $M sim)
test_expect_success "the pristine bug put back FAILs the sim step for iv (exit $mrc: $msim)" - <<\EOT
	[ $mrc = 1 ] && [ "$(step_status $M sim)" = FAIL ] &&
	echo "$msim" | grep -q "^FAIL invariant iv: .*a spurious overflow; fixes only, raised by perf's overflow handler: perf's period is wrong"
EOT
test_expect_success 'its counterexample writes the counter below what perf counted, then counts natively' - <<\EOT
	json $M "[s['detail'] for s in r['steps'] if s['name'] == 'sim'][0]" > "$TMP/detail" &&
	sed -n '/^COUNTEREXAMPLE/,/^  at op/p' "$TMP/detail" &&
	grep -q '^  wrmsr-ctr ' "$TMP/detail" && grep -q '^  native ' "$TMP/detail"
EOT

# Without the rule (kverify sim with the series as its own baseline),
# iv excuses nothing against the Fixes: patches: the correct series then
# FAILs for the spurious signal 6.1's kvm_pmu_incr_counter() gives at an
# emulated instruction, which no patch claims to fix; with --fixes-only
# KVM's signal folding the emulated events is excused, nothing perf's
# overflow handler raises, and the mutant and the pristine tree FAIL there.
P=$(cached_source 6.1)
T=$TMP/mutant F=$TMP/fixed
mkdir -p "$T/arch" "$F/arch"
cp -al "$P/arch/x86" "$T/arch/x86"
cp -al "$P/arch/x86" "$F/arch/x86"
patch -s -p1 -d "$T" --no-backup-if-mismatch < tests/sim/mutants/6.1/fixes-period-from-counter.patch
for p in $(cat backports/6.1/series); do
	patch -s -p1 -d "$F" --no-backup-if-mismatch < "backports/6.1/$p"
done
W=$KVERIFY_CACHE/sim/t0205
nice "$KVERIFY" sim --pristine "$P" --baseline "$F" --patched "$F" --traces 20000 --work "$W" > "$TMP/norule" 2>&1
nrc=$?
test_expect_success "without the rule the correct series FAILs iv at an emulated instruction: why the rule is there (exit $nrc)" - <<\EOT
	grep '^RESULT' "$TMP/norule" && [ $nrc = 1 ] &&
	grep -q '^RESULT FAIL invariant iv: .*none is excused against the Fixes: patches' "$TMP/norule" &&
	n=$(sed -n "s/^  at op \([0-9]*\):.*/\1/p" "$TMP/norule") &&
	grep -q "^  emulate .*# op $n\$" "$TMP/norule"
EOT
nice "$KVERIFY" sim --fixes-only --pristine "$P" --baseline "$T" --patched "$T" --traces 20000 --work "$W" > "$TMP/rule" 2>&1
rrc=$?
test_expect_success "kverify sim --fixes-only rejects it (exit $rrc)" - <<\EOT
	grep '^RESULT' "$TMP/rule" && [ $rrc = 1 ] &&
	grep -q '^RESULT FAIL invariant iv: ' "$TMP/rule"
EOT
# The pristine tree itself is the bug: rejected the same way.
nice "$KVERIFY" sim --fixes-only --pristine "$P" --patched "$P" --traces 20000 --work "$W" > "$TMP/pristine" 2>&1
prc=$?
test_expect_success "so is the pristine 6.1 tree taken as a series of fixes (exit $prc)" - <<\EOT
	grep '^RESULT' "$TMP/pristine" && [ $prc = 1 ] &&
	grep -q '^RESULT FAIL invariant iv: ' "$TMP/pristine"
EOT

# --fixes-only on a tree with the parameter: refused before anything is
# compiled, exit 2.
K=$TMP/knob-tree
mkdir -p "$K/arch"
cp -al "$P/arch/x86" "$K/arch/x86"
rm "$K/arch/x86/kvm/pmu.c"
{ cat "$P/arch/x86/kvm/pmu.c"; echo 'static unsigned int emulated_counter_reprogram_tolerance;'; } > "$K/arch/x86/kvm/pmu.c"
W2=$TMP/knob-work
nice "$KVERIFY" sim --fixes-only --pristine "$P" --patched "$K" --work "$W2" > "$TMP/knob" 2>&1
krc=$?
test_expect_success "--fixes-only refuses a patched tree with the parameter, compiling nothing (exit $krc)" - <<\EOT
	cat "$TMP/knob" && [ $krc = 2 ] &&
	grep -q "fixes only, but $K/arch/x86/kvm/pmu.c has emulated_counter_reprogram_tolerance" "$TMP/knob" &&
	[ -z "$(ls "$W2" 2>/dev/null | grep '\.o$')" ]
EOT

# A series of fixes only where the knob applies (6.12 with its 0001 only):
# the cocci step FAILs, naming the missing knob.
copy2=$TMP/repo2
repo_copy "$copy2"
mkdir -p "$copy2/fx"
cp backports/6.12/0001-*.patch "$copy2/fx/"
(cd "$copy2/fx" && ls 0001-*.patch > series)
printf '6.12fx deb:linux-source-6.12@bookworm-security fx\n' > "$copy2/k.list"
(cd "$copy2" && ./build/kverify --list k.list verify --skip tree,apply,sim,checkpatch,$QUICK 6.12fx) > "$TMP/fx.out" 2>&1
frc=$?
F=$copy2/results/6.12fx/report.json
fcocci=$(reason $F cocci)
test_expect_success "fixes only where the semantic patch adds the knob: the cocci step FAILs (exit $frc: $fcocci)" - <<\EOT
	[ $frc = 1 ] && [ "$(step_status $F cocci)" = FAIL ] &&
	echo "$fcocci" | grep -q '^fx carries fixes only (every patch has Fixes:), but the semantic patch says APPLIED emulated_counter: the knob.s patch is missing'
EOT
done_testing
