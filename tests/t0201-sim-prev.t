#!/bin/bash
# The sim step on the 6.2-6.7 (prev_counter, 6.6 LTS) era.  No Debian
# release ships that era, so tests/sim/prev-counter-fixture makes a tree of
# its shape from Debian's 6.1 source at run time (6.1's code reshaped to
# v6.6's deferred reprogram with pmc->prev_counter; not a real 6.6).  On it:
# the pristine tree passes against itself; `kverify backport` generates the
# prev_counter variant, whose C files are byte for byte those of the variant
# written for the era (tests/sim/prev-counter-variant.patch), and the sim
# passes it: 20000 traces, also at tolerance 0 against the pristine fixture
# (iii, no baseline: nothing differs at 0) and with every folding op left
# out (ii-b: joint wraps that only perf's period or the batch's end can
# signal); the mutants under tests/sim/mutants/prev_counter/ are rejected
# for their invariant; the fixture script refuses bad input.
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

# mutant and the invariant it must fail
MUTANTS="v2-style=ii-a naive-port=iv"
# the ops that make KVM fold a counter (or save its status)
FOLDS='host-rdmsr-status,wrmsr-ctr,set-filter,wrmsr-global-ctrl,wrmsr-evtsel'
FOLDS=$FOLDS,wrmsr-fixed-ctrl,save-restore,host-wrmsr-ctr,host-wrmsr-evtsel
FOLDS=$FOLDS,host-wrmsr-status
plan $((10 + 2 * $(echo "$MUTANTS" | wc -w) + 1))

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
bp=$copy/backports/6.6/$(head -n 1 "$copy/backports/6.6/series" 2>/dev/null)
test_expect_success "kverify backport on the fixture finds the prev_counter shape and writes a variant (exit $frc)" - <<\EOT
	cat "$TMP/bp" &&
	[ $frc = 0 ] && grep -q '^semantic patch: APPLIED prev_counter$' "$TMP/bp" && [ -f "$bp" ]
EOT
G=$TMP/generated
test_expect_success 'the variant applies to the fixture with --fuzz=0, every hunk of the shape there' - <<\EOT
	mkdir -p "$G/arch" && cp -al "$F/arch/x86" "$G/arch/x86" &&
	patch -s -p1 -d "$G" --fuzz=0 --no-backup-if-mismatch < "$bp" &&
	grep -q 'kvm_pmu_write_pending_overflow(pmc);' "$G/arch/x86/kvm/pmu.h" &&
	grep -q 'kvm_pmu_handle_event(vcpu);' "$G/arch/x86/kvm/pmu.c"
EOT

# the variant written for the era, on the same tree: the generated one is it
V=$TMP/variant
test_expect_success "the generated variant's pmu.c, pmu.h, kvm_host.h and x86.c are byte for byte those of tests/sim/prev-counter-variant.patch, and it changes only pmu.c, pmu.h and x86.c" - <<\EOT
	mkdir -p "$V/arch" && cp -al "$F/arch/x86" "$V/arch/x86" &&
	patch -s -p1 -d "$V" --fuzz=0 --no-backup-if-mismatch \
		< tests/sim/prev-counter-variant.patch &&
	(for f in arch/x86/kvm/pmu.c arch/x86/kvm/pmu.h \
		  arch/x86/include/asm/kvm_host.h arch/x86/kvm/x86.c; do
		diff -u "$V/$f" "$G/$f" || exit 1
	done) &&
	[ "$(grep -c '^diff --git a/' "$bp")" = 3 ]
EOT

# With perf's limit_period (per-trace minimum periods) a creation perf
# refuses leaves the fixture's prev_counter snapshot for the retry, which
# then signals an overflow with no wrap; the variant drops the snapshot
# (its comment says why), so at tolerance 0 the two differ (iii) where a
# creation was refused, and nowhere else.  Its identity runs take every
# period (--min-period 0); with refused periods it passes every invariant
# at a non-zero tolerance, and at tolerance 0 fails iii alone.
sim gen "$G" --min-period 0
frc=$?
test_expect_success "the sim passes the generated variant, seed 1, 20000 traces, 1008 reprograms per million at tolerance 1000, bound 1199 (exit $frc)" - <<\EOT
	sed -n '/^COUNTEREXAMPLE\|^RESULT/,+30p' "$TMP/gen.out" &&
	[ $frc = 0 ] && grep -q '^RESULT PASS 20000 traces' "$TMP/gen.out" &&
	grep -q '^FIGURE tolerance=1000 reprograms_per_million=1008.0 .* bound=1199.0 read_bound=[0-9.]*$' "$TMP/gen.out"
EOT
sim gen0 "$G" --tolerance 0 --traces 5000 --min-period 0
frc=$?
test_expect_success "at tolerance 0 it does what the fixture does, event for event, 5000 traces, with no baseline (iii; exit $frc)" - <<\EOT
	sed -n '/^COUNTEREXAMPLE\|^RESULT/,+30p' "$TMP/gen0.out" &&
	[ $frc = 0 ] && grep -q '^RESULT PASS 5000 traces' "$TMP/gen0.out"
EOT
sim gen-limit "$G" --tolerance 17
frc=$?
test_expect_success "with perf refusing periods below 32 or 128, at tolerance 17 it passes, 20000 traces (exit $frc)" - <<\EOT
	sed -n '/^COUNTEREXAMPLE\|^RESULT/,+30p' "$TMP/gen-limit.out" &&
	[ $frc = 0 ] && grep -q '^RESULT PASS 20000 traces' "$TMP/gen-limit.out"
EOT
sim gen-limit0 "$G" --tolerance 0 --shrink-seconds 3
frc=$?
test_expect_success "and at tolerance 0 it differs from the fixture only where perf refused a period: iii, the fixture's stale snapshot signalling (exit $frc)" - <<\EOT
	sed -n '/^  pristine:\|^  patched:\|^RESULT/p' "$TMP/gen-limit0.out" &&
	[ $frc = 1 ] && [ "$(invariant gen-limit0)" = iii ] &&
	grep -q '^  min-period [1-9]' "$TMP/gen-limit0.out"
EOT
sim gen-nofold "$G" --without $FOLDS
frc=$?
test_expect_success "and with every folding op left out, joint wraps included (ii-b), 20000 traces (exit $frc)" - <<\EOT
	sed -n '/^COUNTEREXAMPLE\|^RESULT/,+30p' "$TMP/gen-nofold.out" &&
	[ $frc = 0 ] && grep -q '^RESULT PASS 20000 traces' "$TMP/gen-nofold.out"
EOT

for m in $MUTANTS; do
	name=${m%=*}
	want=${m#*=}
	M=$TMP/mutant-$name
	test_expect_success "mutant prev_counter/$name applies to the fixture" '
		mkdir -p "$M/arch" && cp -al "$F/arch/x86" "$M/arch/x86" &&
		patch -s -p1 -d "$M" --fuzz=0 --no-backup-if-mismatch \
			< "tests/sim/mutants/prev_counter/$name.patch"
	'
	sim "$name" "$M" --shrink-seconds 3
	frc=$?
	got=$(invariant "$name")
	test_expect_success "mutant prev_counter/$name is rejected for invariant $want (got '$got', exit $frc)" - <<-\EOT
		sed -n '/^RESULT/p' "$TMP/$name.out" &&
		[ $frc = 1 ] && [ "$got" = "$want" ]
	EOT
done

status_is "prev-counter-fixture on a directory that is no kernel tree exits 2" 2 \
	tests/sim/prev-counter-fixture "$TMP/repo/tests" "$TMP/nofixture"
done_testing
