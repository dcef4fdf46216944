#!/bin/bash
# The sim step on the 6.2-6.7 (prev_counter, 6.6 LTS) era.  No Debian
# release ships that era, so tests/sim/prev-counter-fixture makes a tree of
# its shape from Debian's 6.1 source at run time (6.1's code reshaped to
# v6.6's deferred reprogram with pmc->prev_counter; not a real 6.6).  On it:
# the pristine tree passes against itself; `kverify backport` writes the
# fixes only, series/'s 0001, 0002 and 0004 adapted under their names there
# (the knob needs 6.8's pmc->emulated_counter, docs/backports.md), which
# apply in turn with --fuzz=0, which make verify's cocci step finds to be
# what the semantic patch writes (n/a for the knob), and which pass
# `kverify sim --fixes-only` (seed 1; the pristine era's spurious signal
# after a write, which KVM raises folding the emulated events, is excused
# on the fixes and the pristine fixture alike there, a signal perf's
# overflow handler raises is not: the fixes without 0001 fail iv on a
# write below perf's count, and so do the fixes whose 0002 keeps the
# snapshot, mutants/prev_counter/fixes-stale-snapshot, on KVM's signal
# outside the fold); the same series without 0001, and
# the knob variant the semantic patch wrote for the era before
# (mutants/prev_counter/flagged-knob), fail iii against the fixes as the
# baseline: a write re-periods the event from the offset counter; the knob
# mutants under tests/sim/mutants/prev_counter/ are rejected for their
# invariant against the pristine fixture; the fixture script refuses bad
# input.
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

# mutant and the invariant it must fail (against the pristine fixture)
MUTANTS="v2-style=ii-a naive-port=iv"
plan $((14 + 2 * $(echo "$MUTANTS" | wc -w) + 1))

src=$(cached_source 6.1) || { echo "Bail out! no Debian 6.1 source"; exit 1; }
F=$TMP/linux-6.6
sum=$(md5sum < "$src/arch/x86/kvm/pmu.c")
tests/sim/prev-counter-fixture "$src" "$F" > "$TMP/fx" 2>&1
frc=$?
test_expect_success "the fixture is made from Debian's 6.1 source, which stays untouched (exit $frc)" - <<\EOT
	cat "$TMP/fx" &&
	[ $frc = 0 ] && grep -q 'u64 prev_counter;' "$F/arch/x86/include/asm/kvm_host.h" &&
	[ "$(md5sum < "$src/arch/x86/kvm/pmu.c")" = "$sum" ]
EOT

sim() {	# sim NAME PATCHED [ARGS...]: the sim, fixture against PATCHED
	local name=$1 patched=$2
	shift 2
	"$KVERIFY" sim --pristine "$F" --patched "$patched" \
		--work "$KVERIFY_CACHE/sim/t0201-$name" "$@" > "$TMP/$name.out" 2>&1
}
invariant() {	# the invariant a FAIL names
	sed -n 's/^RESULT FAIL invariant \([a-z-]*\):.*/\1/p' "$TMP/$1.out"
}
tree_with() {	# tree_with DIR PATCH...: the fixture with PATCHes, --fuzz=0
	local d=$1 p
	shift
	mkdir -p "$d/arch" && cp -al "$F/arch/x86" "$d/arch/x86" || return 1
	for p; do
		patch -p1 -d "$d" --fuzz=0 --no-backup-if-mismatch < "$p" || return 1
	done
}

sim self "$F"
frc=$?
test_expect_success "the fixture's era is prev_counter, and it passes against itself, 20000 traces (exit $frc, $(sed -n 's/^RESULT PASS .*, \([0-9.]* s\)$/\1/p' "$TMP/self.out"))" - <<\EOT
	sed -n '/^COUNTEREXAMPLE\|^kverify sim/,+30p' "$TMP/self.out" &&
	[ $frc = 0 ] && grep -q '^sim: prev_counter era, seed 1, 20000 traces' "$TMP/self.out" &&
	grep -q '^RESULT PASS 20000 traces' "$TMP/self.out"
EOT

# kverify backport, as make backport runs it, in a copy of the repository
copy=$TMP/repo
mkdir -p "$copy/build"
git ls-files -z | xargs -0 cp --parents -t "$copy"
cp "$KVERIFY" "$copy/build/"
test_identity
(cd "$copy" && KVERIFY_BACKPORT_TREE=$F KVERIFY_BACKPORT_NAME=6.6 ./build/kverify backport --env) \
	> "$TMP/bp" 2>&1
frc=$?
B=$copy/backports/6.6
test_expect_success "kverify backport on the fixture finds the prev_counter shape and writes the fixes only (exit $frc)" - <<\EOT
	cat "$TMP/bp" &&
	[ $frc = 0 ] && grep -q '^semantic patch: APPLIED prev_counter$' "$TMP/bp" &&
	grep -q '^wrote backports/6.6/series and 3 patches of fixes only' "$TMP/bp"
EOT
test_expect_success "they are series/'s 0001, 0002 and 0004 by name, each with series/'s Fixes:, none with the parameter" - <<\EOT
	grep '^000[124]-' series/series | cmp - "$B/series" &&
	for p in $(cat "$B/series"); do
		grep '^Fixes: ' "series/$p" | cmp -s - <(grep '^Fixes: ' "$B/$p") &&
		grep -q '^Fixes: ' "$B/$p" || exit 1
	done &&
	! grep -q '^+.*emulated_counter_reprogram_tolerance' "$B"/*.patch
EOT
G=$TMP/generated
test_expect_success 'they apply to the fixture in turn with --fuzz=0, at their line numbers' - <<\EOT
	tree_with "$G" $(sed "s|^|$B/|" "$B/series") > "$TMP/apply" 2>&1
	rc=$? && cat "$TMP/apply" && [ $rc = 0 ] && ! grep -q 'offset\|fuzz' "$TMP/apply" &&
	grep -q 'kvm_pmu_sync_to_userspace(vcpu);' "$G/arch/x86/kvm/x86.c"
EOT

# make verify on a kernels.list line for the fixture and the series: the
# cocci step compares what the semantic patch writes with the series and
# says n/a for the knob.
printf '6.6fx\tdir:%s\tbackports/6.6\n' "$F" > "$copy/k.list"
(cd "$copy" && ./build/kverify --list k.list verify --skip sim,checkpatch,config,build,kabi,selftests,boot 6.6fx) \
	> "$TMP/verify" 2>&1
vrc=$?
R=$copy/results/6.6fx/report.json
reason() { json "$R" "[s['reason'] for s in r['steps'] if s['name'] == '$1'][0]"; }
test_expect_success "verify: the 3 patches apply, and the cocci step finds the series' files, n/a for the knob (exit $vrc)" - <<\EOT
	tail -n 14 "$TMP/verify" && [ $vrc = 0 ] &&
	[ "$(step_status "$R" apply)" = PASS ] && reason apply | grep -q '^3 patches applied' &&
	[ "$(step_status "$R" cocci)" = PASS ] &&
	reason cocci | grep -q '^the knob: n/a, backports/6.6 carries fixes only (every patch has Fixes:), as the semantic patch writes for this shape: APPLIED prev_counter; 4 files identical to the series$'
EOT

# The series is its own baseline (--fixes-only): seed 1; what seeds 1-16
# say is in docs/backports.md (tests/sim/seeds/run does not run them: no
# kernels.list line has the fixture).
sim fixes "$G" --fixes-only --baseline "$G"
frc=$?
test_expect_success "kverify sim --fixes-only passes them, seed 1, 20000 traces (exit $frc)" - <<\EOT
	sed -n '/^COUNTEREXAMPLE\|^RESULT/,+30p' "$TMP/fixes.out" &&
	[ $frc = 0 ] && grep -q '^RESULT PASS 20000 traces' "$TMP/fixes.out"
EOT
# The pristine era's signal after a counter write, which KVM raises
# itself folding the emulated instruction at the next VM-entry
# (reprogram_counter()'s counter < prev_counter, prev_counter taken from
# the write-offset counter): excused as fixes only on the fixes and the
# pristine fixture alike, their calls differing only at the write (0001),
# and the signal there, at op 5's entry (status=0x4).  Against the fixes
# as Fixes: patches (no --fixes-only) nothing is excused: it fails iv.
tr=tests/sim/traces/prev-offset-snapshot.trace
sim snap-fixes "$G" --fixes-only --baseline "$G" --trace "$tr"
sfrc=$?
sim snap-pristine "$F" --fixes-only --trace "$tr"
sprc=$?
sim snap-abs "$G" --baseline "$G" --trace "$tr"
sarc=$?
calls() { sed -n '/the patched tree.s calls/,/^RESULT/p' "$TMP/$1.out" | grep '^    [0-9]'; }
test_expect_success "the offset snapshot's signal is KVM's fold: excused as fixes only, fixes and pristine fixture alike (exit $sfrc, $sprc)" - <<\EOT
	grep '^RESULT' "$TMP/snap-fixes.out" "$TMP/snap-pristine.out" &&
	[ $sfrc = 0 ] && [ $sprc = 0 ] &&
	grep -q '^RESULT PASS 1 traces' "$TMP/snap-fixes.out" &&
	grep -q '^    5 \[entry\] pause(#0)=3 req:PMI .* status=0x4$' "$TMP/snap-fixes.out" &&
	{ diff <(calls snap-fixes) <(calls snap-pristine) > "$TMP/snap-diff" || :; } &&
	cat "$TMP/snap-diff" &&
	[ "$(grep -c '^[<>]' "$TMP/snap-diff")" = 2 ] && grep -q '^<     3 period(#0,1023)' "$TMP/snap-diff"
EOT
test_expect_success "and without --fixes-only, the fixes as Fixes: patches, it fails iv (exit $sarc)" - <<\EOT
	grep '^RESULT' "$TMP/snap-abs.out" && [ $sarc = 1 ] &&
	grep -q "^RESULT FAIL invariant iv: .*GLOBAL_STATUS's bit is set for gp2 at op 5, .*none is excused against the Fixes: patches" "$TMP/snap-abs.out"
EOT

# Without 0001 the period bug stays, as in the knob variant of before: a
# write re-periods the event from pmc->counter, which the event's count
# offsets.  Against the fixes (iii, tolerance 0, every period accepted)
# the first write after counted events re-periods it differently.
N=$TMP/no-0001
tree_with "$N" $(sed -n "2,\$s|^|$B/|p" "$B/series") > "$TMP/no1-apply" 2>&1
sim no1 "$N" --baseline "$G" --min-period 0 --shrink-seconds 3
frc=$?
test_expect_success "without 0001 they fail iii against the fixes: a write re-periods the event from the offset counter (exit $frc)" - <<\EOT
	sed -n '/^  wrmsr-ctr\|^  baseline:\|^  patched:\|^RESULT/p' "$TMP/no1.out" &&
	[ $frc = 1 ] && [ "$(invariant no1)" = iii ] &&
	grep -q '^  baseline: period(' "$TMP/no1.out" &&
	grep -q '^  patched:  period(' "$TMP/no1.out"
EOT

# As fixes only, a signal perf's overflow handler raises is never excused:
# without 0001, a write below perf's count gets a period from the offset
# counter, and perf signals early (prev-write-below-count.trace), on the
# fixes without 0001 as on the pristine fixture; the fixes pass it.
tr=tests/sim/traces/prev-write-below-count.trace
sim wb-fixes "$G" --fixes-only --baseline "$G" --trace "$tr"
wfrc=$?
sim wb-no1 "$N" --fixes-only --baseline "$N" --trace "$tr"
wnrc=$?
sim wb-pristine "$F" --fixes-only --trace "$tr"
wprc=$?
test_expect_success "as fixes only, perf's early overflow after a write below its count fails iv without 0001 (exit $wfrc, $wnrc, $wprc)" - <<\EOT
	grep '^RESULT' "$TMP/wb-fixes.out" "$TMP/wb-no1.out" "$TMP/wb-pristine.out" &&
	[ $wfrc = 0 ] && [ $wnrc = 1 ] && [ $wprc = 1 ] &&
	for o in wb-no1 wb-pristine; do
		grep -q "^RESULT FAIL invariant iv: .*for gp2 at op 4, .*fixes only, raised by perf's overflow handler: perf's period is wrong" "$TMP/$o.out" || exit 1
	done
EOT

# A defect in a fix that KVM raises outside the fold: 0002 keeping the
# snapshot after a refused creation; as fixes only, seed 1, rejected.
S=$TMP/stale
tree_with "$S" $(sed "s|^|$B/|" "$B/series") tests/sim/mutants/prev_counter/fixes-stale-snapshot.patch > "$TMP/stale-apply" 2>&1
sim stale "$S" --fixes-only --baseline "$S" --shrink-seconds 3
frc=$?
test_expect_success "the fixes whose 0002 keeps the snapshot fail iv as fixes only: KVM's signal outside the fold (exit $frc)" - <<\EOT
	cat "$TMP/stale-apply" && grep '^RESULT' "$TMP/stale.out" &&
	[ $frc = 1 ] && [ "$(invariant stale)" = iv ] &&
	grep -q '^RESULT FAIL invariant iv: .*fixes only, raised by KVM outside the fold of emulated events' "$TMP/stale.out"
EOT

# The knob variant generated for the era before: rejected against the fixes.
K=$TMP/flagged-knob
tree_with "$K" tests/sim/mutants/prev_counter/flagged-knob.patch > "$TMP/knob-apply" 2>&1
sim knob "$K" --baseline "$G" --min-period 0 --shrink-seconds 3
frc=$?
test_expect_success "the flagged-prev_counter knob variant of before fails iii against the fixes, at a write's period too (exit $frc)" - <<\EOT
	cat "$TMP/knob-apply" && sed -n '/^  baseline:\|^  patched:\|^RESULT/p' "$TMP/knob.out" &&
	[ $frc = 1 ] && [ "$(invariant knob)" = iii ] &&
	grep -q '^  baseline: period(' "$TMP/knob.out"
EOT
"$KVERIFY" sim --fixes-only --pristine "$F" --patched "$K" \
	--work "$KVERIFY_CACHE/sim/t0201-knobfx" > "$TMP/knobfx.out" 2>&1
frc=$?
test_expect_success "and --fixes-only refuses it: it has the parameter (exit $frc)" - <<\EOT
	cat "$TMP/knobfx.out" && [ $frc = 2 ] &&
	grep -q 'fixes only, but .*has emulated_counter_reprogram_tolerance' "$TMP/knobfx.out"
EOT

for m in $MUTANTS; do
	name=${m%=*}
	want=${m#*=}
	M=$TMP/mutant-$name
	test_expect_success "mutant prev_counter/$name applies to the fixture" '
		tree_with "$M" "tests/sim/mutants/prev_counter/$name.patch"
	'
	sim "$name" "$M" --shrink-seconds 3
	frc=$?
	got=$(invariant "$name")
	test_expect_success "mutant prev_counter/$name is rejected for invariant $want (got '$got', exit $frc)" - <<-\EOT
		sed -n '/^RESULT/p' "$TMP/$name.out" &&
		[ $frc = 1 ] && [ "$got" = "$want" ]
	EOT
done

test_expect_success 'prev-counter-fixture on a directory that is no kernel tree exits 2' '
	test_expect_code 2 tests/sim/prev-counter-fixture "$TMP/repo/tests" "$TMP/nofixture" > "$TMP/out" 2>&1 ||
	{ tail -n 30 "$TMP/out"; false; }
'
done_testing
