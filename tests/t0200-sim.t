#!/bin/bash
# The sim step: each tree's own vPMU code against the simulated perf PMU.
# The curated series passes on every target whose series is not n/a, and
# each pristine tree passes against itself; the series as it was before the
# fix (v2's logic, kept as the v2-as-posted mutants) fails in the pipeline
# with a counterexample; every mutant under tests/sim/mutants/ is rejected
# for its own invariant and every null variant under tests/sim/null/
# passes; what does not change between runs is compiled once; a
# counterexample replays from its printout (--trace); SKIP=sim skips it;
# bad input exits 2.
. "$(dirname "$0")/lib.sh"

TARGETS="6.1 6.12 7.2 7.3"
QUICK=checkpatch,cocci,config,build,selftests,boot
# One mutant a line: target/name, the invariant it must fail, and the sim
# options of its run, if any.  The 7.3 and 6.12 mutants are v4 with one
# defect each, run against v4's baseline (tests/sim/baseline/).  The 6.1
# mutants are the v3 6.1 backport (v3-backport: iv, its
# B1; without counter writes ii-save, its M1c; without those and saves and
# runtime changes, v: its powers of two batch at half the tolerance) with
# one defect each, or the pristine 6.1 tree with one; where the backport's
# own defects (B1 needs a write below perf's count, which 48-bit AMD counters
# make rare; M1c needs a save; a runtime change of the tolerance lets its
# batch outgrow the new one; the period bug after a write) would be found
# first, the run leaves those ops out: --vendor amd and --without.
# Since the simulated perf refuses periods below a host minimum
# (limit_period), the 7.3 and 6.12 mutants, null variants and baseline are
# v4 + the review's N1 fix; refused-period-trusted is v4 as it is, against
# v4's own Fixes: patches (baseline=<target>-v4, tests/sim/baseline/); the
# v2-as-posted mutants predate that fix, and --min-period 0 keeps their run
# on v2's own defect (against the N1-fixed baseline their first failure at
# tolerance 0 is the baseline's reprogram after a refused period, iii); so
# does the v3 backport's run for B1 (with refused periods its first
# failure is that same stale period, a joint wrap late: ii-b).
# no-half-cap: with widths 8 to 31 bits, a batch past a 10-bit counter's
# range passes the wrap twice and the fold loses it (ii-lost) before a
# trace shows it late (ii-b).  legacy-no-sign-extend: its defect is in
# vmx/pmu_intel.c, which the series leaves alone, so the baseline has the
# sign extension and tolerance 0 shows it (iii); at a tolerance of 17
# only the model does (i).  0001-defect puts the period bug back into 0001,
# a Fixes: patch, and into its baseline (baseline=<target>-0001-defect):
# no differential check sees it, and tolerance 0 alone rejects it, for
# ii-native (a write above perf's count: the native wrap after it comes
# late) in the traces and for iv (a write below it: a spurious overflow,
# absolute against Fixes: patches) on m2-write-below-count.trace below.
# native-wrap-lost-after-write has a defect in 0001 (and its baseline)
# that drops perf's next overflow after a write: only ii-native, an
# absolute check of the model, sees it at tolerance 0 (the sim before it
# passed it there).
# sync-before-out is the series (v5) with 0004's x86.c hunk moved before
# out: (the sync after vcpu_run() only), against the Fixes: patches with
# the same move (baseline=7.3-sync-before-out): the sim runs the tree's own
# kvm_arch_vcpu_ioctl_run(), whose early returns after a completion then
# leave the completed instruction's wrap unsignalled at a read (ii-save).
# 6.12's function has the same early returns to out: (6.12.118
# x86.c:11180-11198), and its sync-before-out fails the same way.
MUTANTS="
7.3/sync-before-out=ii-save baseline=7.3-sync-before-out
6.12/sync-before-out=ii-save baseline=6.12-sync-before-out
7.3/refused-period-trusted=ii-a baseline=7.3-v4
6.12/refused-period-trusted=ii-a baseline=6.12-v4
7.3/0001-defect=ii-native baseline=7.3-0001-defect --tolerance 0
6.12/0001-defect=ii-native baseline=6.12-0001-defect --tolerance 0
7.3/native-wrap-lost-after-write=ii-native baseline=7.3-native-wrap-lost-after-write --tolerance 0
6.12/native-wrap-lost-after-write=ii-native baseline=6.12-native-wrap-lost-after-write --tolerance 0
7.3/rdpmc-skips-batch=i
7.3/not-at-once=ii-a
7.3/batch-doubled=ii-b
7.3/disable-drops=ii-lost
7.3/no-half-cap=ii-lost
7.3/legacy-no-sign-extend=iii
7.3/legacy-no-sign-extend=i --tolerance 17
7.3/save-unfolded=ii-save
7.3/save-pmi-requested=ii-save
7.3/write-fold-at-t0=iii
7.3/spurious-le=iv
7.3/batching-stops=v
7.3/runtime-lower-ignored=ii-b
7.3/reads-every-emulated=vi
7.3/v2-as-posted=ii-a --min-period 0
6.12/rdpmc-skips-batch=i
6.12/not-at-once=ii-a
6.12/batch-doubled=ii-b
6.12/disable-drops=ii-lost
6.12/no-half-cap=ii-lost
6.12/legacy-no-sign-extend=iii
6.12/legacy-no-sign-extend=i --tolerance 17
6.12/save-unfolded=ii-save
6.12/save-pmi-requested=ii-save
6.12/write-fold-at-t0=iii
6.12/spurious-le=iv
6.12/batching-stops=v
6.12/runtime-lower-ignored=ii-b
6.12/reads-every-emulated=vi
6.12/v2-as-posted=ii-a --min-period 0
6.1/v3-backport=iv --min-period 0
6.1/v3-backport=ii-save --without wrmsr-ctr,host-wrmsr-ctr
6.1/v3-backport=v --vendor amd --without save-restore,host-rdmsr-status,set-param,wrmsr-ctr,host-wrmsr-ctr
6.1/amd-rdmsr-stale=i
6.1/not-at-once=ii-a --vendor amd --without save-restore,host-rdmsr-status,set-param
6.1/batch-pow2-up=ii-b --vendor amd --tolerance 17 --without save-restore,host-rdmsr-status,set-param,wrmsr-ctr,host-wrmsr-ctr
6.1/write-path=ii-lost --vendor amd --without save-restore,host-rdmsr-status,set-param
6.1/double-reprogram=iii
6.1/v2-as-posted=ii-a
"
# Null variants: v4 written differently, the same logic.  read-per-fold
# reads perf once per fold, what invariant vi allows (reads-every-emulated
# is the mutant beyond it).
NULLS="
7.3/to-wrap-plus-one
7.3/half-range-div
7.3/limit-ge-plus-one
7.3/read-per-fold
6.12/to-wrap-plus-one
6.12/half-range-div
6.12/limit-ge-plus-one
6.12/read-per-fold
"
nm=$(echo "$MUTANTS" | grep -c .)
nn=$(echo "$NULLS" | grep -c .)
plan $((6 * 4 + 4 + nm + nn + 2 + 4 + 3 + 3 + 4 + 1 + 2 + 3 + 3 + 6 + 2 + 2 + 1 + 3 + 5 + 2 + 1 + 1))

RES=$TMP/results	# this script's own, not the repository's
# What kverify sim keeps (the store's objects, the program linked in
# WORK/sim-<hash>) is named by the units' text and the flags: the text
# names each tree's path, the flags the sim sources' (-I, the directory
# beside kverify's).  Here those paths are the same from run to run, not
# under $TMP: kverify and tools/sim are copied (the same bytes) to the
# cache, the mutant, null variant and baseline trees are made anew at the
# same paths, and the runs on them share one work directory.  A run on
# trees an earlier run (or check) had then compiles and links nothing:
# under $TMP each mutant was compiled and linked again, 1.8 of its 2.2
# CPU-s, and each replay, in a work directory of its own, too.
SIMDIR=$KVERIFY_CACHE/sim/t0200-kverify
TREES=$KVERIFY_CACHE/sim/t0200-trees
WORK=$KVERIFY_CACHE/sim/t0200
SIM=$SIMDIR/build/kverify
rm -rf "$TREES" "$SIMDIR"
mkdir -p "$SIMDIR/build" "$SIMDIR/tools" && cp -p "$KVERIFY" "$SIM" &&
cp -Rp "$REPO/tools/sim" "$SIMDIR/tools/sim" ||
	{ echo "Bail out! cannot copy kverify and tools/sim to $SIMDIR"; exit 1; }

src_of() {	# the pristine tree of a verified target
	echo "$SOURCES/src/$(json $RES/$1/report.json 'r["source_key"]')"
}

for T in $TARGETS; do
	"$KVERIFY" --results "$RES" verify --skip $QUICK $T > "$TMP/$T.out" 2>&1
	vrc=$?
	R=$RES/$T/report.json
	na=$(awk -v t="$T" '$1 == t && $3 ~ /^n\/a:/ { $1 = $2 = ""; sub(/^ */, ""); print }' kernels.list)
	if [ -n "$na" ]; then
		for c in "the series passes the sim step" "the step's log says so" \
			"report.json and junit.xml carry the figures" \
			"the step's baseline" "the sim step's time"; do
			skip "$T: $c" "kernels.list: the series is ${na}"
		done
	else
		reason=$(json $R '[s["reason"] for s in r["steps"] if s["name"] == "sim"][0]')
		test_expect_success "$T: the series passes the sim step (exit $vrc: $reason)" - <<-\EOT
			[ $vrc = 0 ] && [ "$(step_status $R sim)" = PASS ] &&
			echo "$reason" | grep -q ' [0-9]* traces (seed [0-9]*), every invariant holds; ' ||
			{ tail -n 20 "$TMP/$T.out"; json $R '[s["detail"] for s in r["steps"] if s["name"] == "sim"][0]'; false; }
		EOT
		test_expect_success "$T: the step's log says so" - <<-\EOT
			grep -q '^RESULT PASS' $RES/$T/logs/03-sim.log
		EOT
		fig=$(json $R 'str(len(r["sim"]["reprograms_per_million_emulated"])) + " " + str(len(r["sim"]["reads_per_million_emulated"]))')
		test_expect_success "$T: report.json and junit.xml carry the figures (reprograms, perf reads) for 6 tolerances ($fig)" - <<-\EOT
			[ "$fig" = "6 6" ] && grep -q 'sim.reprograms_per_million_emulated.tolerance_1000' $RES/$T/junit.xml &&
			grep -q 'sim.reads_per_million_emulated.tolerance_1000' $RES/$T/junit.xml
		EOT
		# the baseline: pristine + the series' Fixes: patches, or pristine
		series=$(json $R 'r["series"] or ""')
		fixes=$(for p in $(cat "$series/series" 2>/dev/null); do
			sed '/^---$/q' "$series/$p" | grep -q '^Fixes:' && echo "${p:0:4}"; done | paste -sd, | sed 's/,/, /g')
		test_expect_success "$T: the step's baseline is pristine${fixes:+ + $fixes}" - <<-\EOT
			if [ -n "$fixes" ]; then
				echo "$reason" | grep -qF "baseline: pristine + $fixes (the Fixes: patches)"
			else
				echo "$reason" | grep -qF "baseline: the pristine tree (no Fixes: patch)"
			fi
		EOT
		secs=$(json $R '[s["seconds"] for s in r["steps"] if s["name"] == "sim"][0]')
		test_expect_success "$T: the sim step took $secs s (< 30 s)" - <<-\EOT
			python3 -c "import sys; sys.exit(not float('$secs') < 30)"
		EOT
	fi
	P=$(src_of $T)
	nice "$SIM" sim --pristine "$P" --patched "$P" --work "$WORK" > "$TMP/self" 2>&1
	krc=$?
	test_expect_success "$T: the pristine tree passes against itself, 20000 traces (exit $krc, $(sed -n 's/^RESULT PASS .*, \([0-9.]* s\)$/\1/p' "$TMP/self"))" - <<-\EOT
		sed -n '/^COUNTEREXAMPLE/,+30p' "$TMP/self" &&
		[ $krc = 0 ] && grep -q '^RESULT PASS 20000 traces' "$TMP/self"
	EOT
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
vrc=$?
R=$copy/results/6.12/report.json
test_expect_success "v2's logic FAILs the sim step (exit $vrc)" '
	tail -n 20 "$TMP/v2.out" &&
	[ $vrc = 1 ] && [ "$(step_status $R sim)" = FAIL ]
'
reason=$(json $R '[s["reason"] for s in r["steps"] if s["name"] == "sim"][0]')
test_expect_success 'the reason is one line naming the invariant, seed, trace and expected value' - <<\EOT
	echo "$reason" &&
	echo "$reason" | grep -q '^FAIL invariant ii-[a-z]*: seed [0-9]* trace [0-9]*, [0-9]* ops: .*expected'
EOT
json $R '[s["detail"] for s in r["steps"] if s["name"] == "sim"][0]' > "$TMP/detail"
test_expect_success 'the detail holds the shrunk counterexample' - <<\EOT
	grep -q '^COUNTEREXAMPLE seed=' "$TMP/detail" && grep -q '^  at op [0-9]*: ' "$TMP/detail"
EOT
test_expect_success "and so does the step's log" - <<\EOT
	grep -q '^COUNTEREXAMPLE' "$copy/results/6.12/logs/03-sim.log"
EOT

# A tree with the pristine arch/x86 hard-linked, then patched (patch writes
# a new file, so the cached source is never touched).
patched_copy() {	# patched_copy PRISTINE DIR PATCH
	mkdir -p "$2/arch"
	cp -al "$1/arch/x86" "$2/arch/x86"
	patch -s -p1 -d "$2" --no-backup-if-mismatch < "$3" > "$TMP/patch" 2>&1
}

# The baseline of a target's mutants and null variants, when they are
# made from a series with Fixes: patches: tests/sim/baseline/<target>.patch.
baseline_of() {	# baseline_of NAME PRISTINE: the --baseline option, or nothing
	[ -f "tests/sim/baseline/$1.patch" ] || return 0
	if [ ! -d "$TREES/baseline-$1" ]; then
		patched_copy "$2" "$TREES/baseline-$1" "tests/sim/baseline/$1.patch" ||
			{ diag < "$TMP/patch"; return 0; }
	fi
	echo "--baseline $TREES/baseline-$1"
}

# Mutants on the same kind of copy: each fails its own invariant.
while read -r spec opts; do
	[ -n "$spec" ] || continue
	name=${spec%=*}
	want=${spec#*=}
	T=${name%/*}
	bname=$T
	case $opts in baseline=*)
		bname=${opts%% *}
		bname=${bname#baseline=}
		opts=${opts#baseline=$bname}
		opts=${opts# }
	esac
	P=$(src_of $T)
	M=$TREES/mutant-${name/\//-}
	sum=$(md5sum < "$P/arch/x86/kvm/pmu.c")
	rm -rf "$M"
	applied=1
	patched_copy "$P" "$M" tests/sim/mutants/$name.patch || applied=0
	if [ $applied = 0 ]; then
		test_expect_success "mutant $name applies" '
			cat "$TMP/patch" && [ $applied = 1 ]
		'
		continue
	fi
	base=$(baseline_of $bname "$P")
	# shellcheck disable=SC2086
	nice "$SIM" sim --pristine "$P" $base --patched "$M" --shrink-seconds 3 $opts --work "$WORK" > "$TMP/out" 2>&1
	krc=$?
	got=$(sed -n 's/^RESULT FAIL invariant \([a-z-]*\):.*/\1/p' "$TMP/out")
	test_expect_success "mutant $name${opts:+ ($opts)} is rejected for invariant $want (got '$got', exit $krc)" - <<-\EOT
		sed -n '/^RESULT/p' "$TMP/out" &&
		[ $krc = 1 ] && [ "$got" = "$want" ] && [ "$(md5sum < "$P/arch/x86/kvm/pmu.c")" = "$sum" ]
	EOT
done <<< "$MUTANTS"

# Null variants pass, with every trace run.
while read -r name opts; do
	[ -n "$name" ] || continue
	T=${name%/*}
	P=$(src_of $T)
	M=$TREES/null-${name/\//-}
	rm -rf "$M"
	applied=1
	patched_copy "$P" "$M" tests/sim/null/$name.patch || applied=0
	if [ $applied = 0 ]; then
		test_expect_success "null variant $name applies" '
			cat "$TMP/patch" && [ $applied = 1 ]
		'
		continue
	fi
	base=$(baseline_of $T "$P")
	# shellcheck disable=SC2086
	nice "$SIM" sim --pristine "$P" $base --patched "$M" $opts --work "$WORK" > "$TMP/out" 2>&1
	krc=$?
	test_expect_success "null variant $name${opts:+ ($opts)} passes 20000 traces (exit $krc)" - <<-\EOT
		sed -n '/^RESULT/p' "$TMP/out" &&
		[ $krc = 0 ] && grep -q '^RESULT PASS 20000 traces' "$TMP/out"
	EOT
done <<< "$NULLS"
# The naive prev_counter port runs in t0201, on a fixture of that era.

# What does not change from run to run (our harness, the pristine and the
# baseline units) was compiled once, kept in the cache's store, and is
# linked by every later run: in a new work directory only the patched
# unit is compiled, and the store gains nothing.
P=$(src_of 7.3)
W=$KVERIFY_CACHE/sim/t0200-store
rm -rf "$W"
ls "$KVERIFY_CACHE/sim-objects" > "$TMP/store.before"
nice "$SIM" sim --pristine "$P" $(baseline_of 7.3 "$P") --patched "$TREES/null-7.3-half-range-div" --traces 100 --work "$W" > "$TMP/out" 2>&1
krc=$?
test_expect_success "a run on trees sims ran before compiles only the patched unit (exit $krc)" - <<\EOT
	ls "$W" && sed -n '/^RESULT/p' "$TMP/out" &&
	[ $krc = 0 ] && grep -q '^RESULT PASS 100 traces' "$TMP/out" &&
	[ -f "$W/sim_tree_patched.o" ] && [ ! -e "$W/sim_tree_pristine.o" ] &&
	[ ! -e "$W/sim_tree_baseline.o" ] && [ ! -e "$W/harness.o" ] &&
	[ ! -e "$W/world.o" ] && [ ! -e "$W/perf.o" ] && ls "$KVERIFY_CACHE/sim-objects" | cmp - "$TMP/store.before"
EOT
# The same trees again in that work directory: the program linked then
# was kept there (WORK/sim-<hash of the units' text, the flags, the
# compiler and our sources>; its sha256 recorded in the store, which the
# trees' code cannot write) and runs as it is: nothing is compiled or
# linked.
touch "$TMP/relinked"
nice "$SIM" sim --pristine "$P" $(baseline_of 7.3 "$P") --patched "$TREES/null-7.3-half-range-div" --traces 100 --work "$W" > "$TMP/out" 2>&1
krc=$?
test_expect_success "a run on the same trees in the same work directory compiles and links nothing (exit $krc)" - <<\EOT
	sed -n '/^RESULT/p' "$TMP/out" &&
	[ $krc = 0 ] && grep -q '^RESULT PASS 100 traces' "$TMP/out" &&
	[ -z "$(find "$W" -newer "$TMP/relinked" \( -name '*.o' -o -name 'sim*' ! -name '*.c' \))" ] &&
	[ "$(stat -c %i "$W/sim")" = "$(stat -c %i "$W"/sim-*)" ]
EOT
# A kept object that is no object (cut short, overwritten) fails the link:
# the run compiles them all again, keeps the eleven new ones (pristine,
# baseline, and our nine: harness, model, ops, points, trace, tracefile,
# check, world, perf), and passes.
for f in "$KVERIFY_CACHE"/sim-objects/*.o; do echo x > "$f"; done
rm -f "$W"/sim-*	# or the kept program would run, no object read
touch "$TMP/corrupted"
nice "$SIM" sim --pristine "$P" $(baseline_of 7.3 "$P") --patched "$TREES/null-7.3-half-range-div" --traces 100 --work "$W" > "$TMP/out" 2>&1
krc=$?
test_expect_success "kept objects that are not objects are compiled again (exit $krc)" - <<\EOT
	sed -n '/^RESULT/p' "$TMP/out" &&
	[ $krc = 0 ] && grep -q '^RESULT PASS 100 traces' "$TMP/out" &&
	[ -f "$W/sim_tree_pristine.o" ] && [ -f "$W/harness.o" ] &&
	find "$KVERIFY_CACHE/sim-objects" -name "*.o" -newer "$TMP/corrupted" > "$TMP/kept" &&
	cat "$TMP/kept" && [ "$(wc -l < "$TMP/kept")" = 11 ] &&
	while read -r f; do
		[ "$(head -c 4 "$f" | od -An -c | tr -d " ")" = 177ELF ] || return 1
	done < "$TMP/kept"
EOT

# A counterexample's printout replays with --trace, to the same verdict.
P=$(src_of 7.3)
M=$TREES/mutant-7.3-not-at-once
nice "$SIM" sim --pristine "$P" $(baseline_of 7.3 "$P") --patched "$M" --shrink-seconds 2 --without set-param --work "$WORK" > "$TMP/ce" 2>&1
sed -n '/^COUNTEREXAMPLE/,$p' "$TMP/ce" > "$TMP/ce.trace"
nice "$SIM" sim --pristine "$P" $(baseline_of 7.3 "$P") --patched "$M" --trace "$TMP/ce.trace" --work "$WORK" > "$TMP/replay" 2>&1
krc=$?
test_expect_success "a counterexample replays from its printout with --trace: the same invariant and failure (exit $krc)" - <<\EOT
	sed -n '/^RESULT/p' "$TMP/ce" "$TMP/replay" &&
	[ $krc = 1 ] && [ "$(sed -n 's/^RESULT FAIL invariant \([a-z-]*\):.*ops: /\1 /p' "$TMP/ce")" = "$(sed -n 's/^RESULT FAIL invariant \([a-z-]*\):.*ops: /\1 /p' "$TMP/replay")" ] &&
	grep -q '^RESULT FAIL invariant ii-a' "$TMP/replay"
EOT
nice "$SIM" sim --pristine "$P" --patched "$P" --trace "$TMP/ce.trace" --work "$WORK" > "$TMP/replay" 2>&1
krc=$?
test_expect_success "the same trace passes on the pristine tree, with its calls op by op (exit $krc)" - <<\EOT
	[ $krc = 0 ] && grep -q '^RESULT PASS 1 traces' "$TMP/replay" && grep -q "the patched tree's calls, op by op" "$TMP/replay"
EOT
# replay TRACE TREE TITLE [ARG...]: TRACE replayed on TREE against $P
# (ARG: a baseline), one check: the invariant it fails is $want ("-":
# none), and, where set, the exit status is $want_exit and the output
# holds $want_grep.
replay() {
	local trace=$1 tree=$2 title=$3
	shift 3
	nice "$SIM" sim --pristine "$P" "$@" --patched "$tree" --trace "$trace" \
		--work "$WORK" > "$TMP/out" 2>&1
	krc=$?
	got=$(sed -n 's/^RESULT FAIL invariant \([a-z-]*\):.*/\1/p' "$TMP/out")
	test_expect_success "$title: exit $krc, invariant ${got:-none} (want ${want_exit:+exit $want_exit, }$want)" - <<-\EOT
		sed -n '/^RESULT/p' "$TMP/out" &&
		[ "${got:--}" = "$want" ] &&
		{ [ -z "$want_exit" ] || [ $krc = "$want_exit" ]; } &&
		{ [ -z "$want_grep" ] || grep -q "$want_grep" "$TMP/out"; }
	EOT
}
# Review M3 as a trace: the v3 6.1 backport loses a pending joint wrap when
# the tolerance is set to 0 at runtime; not without the change; pristine
# never.
P=$(src_of 6.1)
M=$TREES/mutant-6.1-v3-backport
grep -v '^set-param' tests/sim/traces/m3-6.1.trace > "$TMP/m3-no-param"
want_grep=
for t in "$M tests/sim/traces/m3-6.1.trace 1 ii-lost" "$M $TMP/m3-no-param 0 -" \
	"$P tests/sim/traces/m3-6.1.trace 0 -"; do
	set -- $t
	want_exit=$3 want=$4
	replay "$2" "$1" "M3: ${2##*/} on the ${1##*/} tree"
done
# Review M1a and M2 as traces, on 7.3: a mutant fails them for the
# invariant the finding breaks (M1a: v4 whose kvm_pmu_sync_to_userspace()
# does not fold; M2: v2's batch, with the pristine period after a write),
# v4 written differently passes.
P=$(src_of 7.3)
want_exit=
for t in "m1a-v1-save save-unfolded ii-save" "m2-write-below-count v2-as-posted iv"; do
	set -- $t
	for tree in "$TREES/mutant-7.3-$2" "$TREES/null-7.3-to-wrap-plus-one"; do
		want=$3
		case $tree in *null-*) want=- ;; esac
		replay tests/sim/traces/$1.trace "$tree" "$1.trace on the ${tree##*/} tree" $(baseline_of 7.3 "$P")
	done
done
# perf's limit_period has teeth: v4 as it is passes the sim whose perf takes
# every period (--min-period 0, the sim before it) and fails it where perf
# refuses periods below a host minimum (the mutant list above).
for T in 7.3 6.12; do
	P=$(src_of $T)
	nice "$SIM" sim --pristine "$P" $(baseline_of $T-v4 "$P") --patched "$TREES/mutant-$T-refused-period-trusted" --min-period 0 --work "$WORK" > "$TMP/out" 2>&1
	krc=$?
	test_expect_success "$T: v4 as it is passes with --min-period 0, every period taken (exit $krc)" - <<-\EOT
		sed -n '/^RESULT/p' "$TMP/out" &&
		[ $krc = 0 ] && grep -q '^RESULT PASS 20000 traces' "$TMP/out"
	EOT
done
# Review N1 as a trace (min-period 32): v4 as it is fails it at once (ii-a),
# v4 + the N1 fix and the pristine tree pass it.
P=$(src_of 7.3)
want_grep='period(#[0-9]*,[0-9]*)=-EINVAL'
for t in "mutant-7.3-refused-period-trusted 7.3-v4 ii-a" "null-7.3-to-wrap-plus-one 7.3 -" "pristine - -"; do
	set -- $t
	tree=$TREES/$1 want=$3
	[ "$1" = pristine ] && tree=$P
	replay tests/sim/traces/n1-rejected-period.trace "$tree" "n1-rejected-period.trace on the $1 tree" $(baseline_of $2 "$P")
done
# Review M2 as a trace on a Fixes: patch: 0001 with the period bug back,
# against a baseline with the same defect, is rejected for iv; v4 + the N1
# fix against its baseline passes.
want_grep=
for t in "mutant-7.3-0001-defect 7.3-0001-defect iv" "null-7.3-to-wrap-plus-one 7.3 -"; do
	set -- $t
	want=$3
	replay tests/sim/traces/m2-write-below-count.trace "$TREES/$1" "m2-write-below-count.trace on the $1 tree, baseline $2" $(baseline_of $2 "$P")
done
# A wrap by native events alone after a counter write is owed at once
# where 0001 is among the Fixes: patches (ii-native): the mutant that
# drops perf's next overflow after a write fails the trace, the series'
# own 7.3 tree passes it, and the pristine tree, whose period after a
# write leaves out perf's count (M2), is not held to it.
for t in "mutant-7.3-native-wrap-lost-after-write ii-native 1" "series - 0" "pristine - 0"; do
	set -- $t
	want=$2 want_exit=$3
	case $1 in
	series) replay tests/sim/traces/native-wrap-after-write.trace "$KVERIFY_CACHE/trees/7.3" \
		"native-wrap-after-write.trace on the series' own 7.3 tree" --baseline "$KVERIFY_CACHE/sim/7.3/baseline" ;;
	pristine) replay tests/sim/traces/native-wrap-after-write.trace "$P" "native-wrap-after-write.trace on the pristine tree" ;;
	*) replay tests/sim/traces/native-wrap-after-write.trace "$TREES/$1" "native-wrap-after-write.trace on the $1 tree" \
		$(baseline_of 7.3-native-wrap-lost-after-write "$P") ;;
	esac
done
want_exit=
# A guest's write through the legacy counter MSR is 32 bits, sign-extended
# (legacy-sign-extend.trace): the mutant without the extension fails i,
# v4 + the N1 fix and the pristine tree pass.  Review N6 as a trace
# (n6-loop-8bit.trace): on an 8-bit counter a batch at the half-range cap
# and the emulation loop's 130 instructions in one exit lose the wrap in
# v4 + the N1 fix (ii-a; v5 caps the batch, below); pristine passes.
for t in "legacy-sign-extend mutant-7.3-legacy-no-sign-extend i" "legacy-sign-extend null-7.3-to-wrap-plus-one -" "legacy-sign-extend pristine -" \
	"n6-loop-8bit null-7.3-to-wrap-plus-one ii-a" "n6-loop-8bit null-7.3-half-range-div ii-a" "n6-loop-8bit pristine -"; do
	set -- $t
	tree=$TREES/$2 want=$3
	[ "$2" = pristine ] && tree=$P
	replay tests/sim/traces/$1.trace "$tree" "$1.trace on the $2 tree" $(baseline_of 7.3 "$P")
done
# The series as it is (v5) on 7.3, the tree and baseline its sim step ran
# above: the review's N1 and N6 traces both pass (its 0001 reprograms on a
# refused period; its 0005 caps the batch at half the range less 130).
want=- want_exit=0 want_grep='^RESULT PASS 1 traces'
for t in n1-rejected-period n6-loop-8bit; do
	replay tests/sim/traces/$t.trace "$KVERIFY_CACHE/trees/7.3" "$t.trace on the series' own 7.3 tree" \
		--baseline "$KVERIFY_CACHE/sim/7.3/baseline"
done
# KVM_RUN is the tree's own kvm_arch_vcpu_ioctl_run() (x86.c): 0004's
# sync runs only where the tree calls it.  sync-before-out.trace: after a
# completion retires a branch that wraps gp0 and KVM_RUN returns at once,
# the mutant whose sync comes after vcpu_run() only fails ii-save; the
# series' own 7.3 tree passes, and so does the pristine tree, which has no
# sync (its request waits for the next VM-entry, as before 0004).
for t in "mutant-7.3-sync-before-out ii-save 1" "series - 0" "pristine - 0"; do
	set -- $t
	want=$2 want_exit=$3 want_grep=
	case $1 in
	series) replay tests/sim/traces/sync-before-out.trace "$KVERIFY_CACHE/trees/7.3" \
		"sync-before-out.trace on the series' own 7.3 tree" --baseline "$KVERIFY_CACHE/sim/7.3/baseline" ;;
	pristine) replay tests/sim/traces/sync-before-out.trace "$P" "sync-before-out.trace on the pristine tree" ;;
	*) replay tests/sim/traces/sync-before-out.trace "$TREES/$1" "sync-before-out.trace on the $1 tree" \
		$(baseline_of 7.3-sync-before-out "$P") ;;
	esac
done
# Every path of KVM_RUN (kvm-run-paths.trace: run=signal, immediate-exit,
# pre-run-fails and the completions) reaches each tree's function, 6.1's
# (no sync) and the series' too: the glue warns where the function does
# not take the path its stubs set up.
want=- want_exit=0 want_grep='cui-immediate-exit:branch'
for T in $TARGETS series; do
	if [ $T = series ]; then
		P=$(src_of 7.3)
		replay tests/sim/traces/kvm-run-paths.trace "$KVERIFY_CACHE/trees/7.3" \
			"kvm-run-paths.trace on the series' own 7.3 tree" --baseline "$KVERIFY_CACHE/sim/7.3/baseline"
	else
		P=$(src_of $T)
		replay tests/sim/traces/kvm-run-paths.trace "$P" "kvm-run-paths.trace on the pristine $T tree"
	fi
done
# A KVM_RUN whose failing pre_run does not jump to out: is not the shape
# x86_run.h stubs: the trace fails, naming the path; a tree without the
# function is an error naming it.
P=$(src_of 7.3)
x86_copy() {	# x86_copy DIR SED: the pristine 7.3 arch/x86, x86.c through SED
	mkdir -p "$1/arch" && cp -al "$P/arch/x86" "$1/arch/x86" &&
	rm "$1/arch/x86/kvm/x86.c" && sed "$2" "$P/arch/x86/kvm/x86.c" > "$1/arch/x86/kvm/x86.c"
}
x86_copy "$TREES/no-goto-out" '/r = kvm_x86_vcpu_pre_run(vcpu);/{n;N;d}'
printf 'vendor intel\nhost-rdmsr-status run=pre-run-fails\n' > "$TMP/pre-run.trace"
want=warn want_exit=1 want_grep='did not take the path x86_run.h set up: a failing pre_run'
replay "$TMP/pre-run.trace" "$TREES/no-goto-out" "a KVM_RUN that runs on after a failing pre_run"
x86_copy "$TMP/no-run" 's/^int kvm_arch_vcpu_ioctl_run(/int kvm_arch_vcpu_ioctl_renamed(/'
"$SIM" sim --pristine "$P" --patched "$TMP/no-run" --traces 10 --work "$WORK" > "$TMP/out" 2>&1
krc=$?
test_expect_success "a tree without kvm_arch_vcpu_ioctl_run() in x86.c is bad input: exit 2, the tree, file and function named, what to do (exit $krc)" - <<\EOT
	cat "$TMP/out" && [ $krc = 2 ] &&
	grep -q 'no-run (mediated era) lacks a definition the sim runs: no kvm_arch_vcpu_ioctl_run() in arch/x86/kvm/x86.c\. .*give it a kernel tree' "$TMP/out"
EOT
# The same for a vPMU function the pristine tree lacks: the files looked
# in are listed.
mkdir -p "$TMP/no-pmi/arch" && cp -al "$P/arch/x86" "$TMP/no-pmi/arch/x86" &&
rm "$TMP/no-pmi/arch/x86/kvm/pmu.c" &&
sed 's/^void kvm_pmu_deliver_pmi(/void kvm_pmu_deliver_pmi_renamed(/' "$P/arch/x86/kvm/pmu.c" > "$TMP/no-pmi/arch/x86/kvm/pmu.c"
"$SIM" sim --pristine "$TMP/no-pmi" --patched "$P" --traces 10 --work "$WORK" > "$TMP/out" 2>&1
krc=$?
test_expect_success "a pristine tree without kvm_pmu_deliver_pmi() is bad input: exit 2, the files looked in listed (exit $krc)" - <<\EOT
	cat "$TMP/out" && [ $krc = 2 ] &&
	grep -q 'no-pmi (mediated era) lacks a definition the sim runs: no kvm_pmu_deliver_pmi in the vPMU files (those files: arch/x86/kvm/pmu.c .*)\. ' "$TMP/out"
EOT
printf 'vendor intel\nemulate 3 instruction sideways\n' > "$TMP/bad.trace"
"$SIM" sim --pristine "$P" --patched "$P" --trace "$TMP/bad.trace" --work "$WORK" > "$TMP/out" 2>&1
krc=$?
test_expect_success "a bad trace file exits 2 naming file:line and what (exit $krc)" - <<\EOT
	cat "$TMP/out" &&
	[ $krc = 2 ] && grep -q "bad.trace:2: 'sideways'" "$TMP/out"
EOT
test_expect_success 'without gcc the sim cannot run: exit 3, the tool named, not the patch blamed' - <<\EOT
	{ env PATH=/nonexistent "$SIM" sim --pristine "$P" --patched "$P" --traces 5 \
		--work "$WORK" > "$TMP/out" 2>&1; krc=$?; } &&
	cat "$TMP/out" && [ $krc = 3 ] && grep -q "gcc not found" "$TMP/out"
EOT
nice "$SIM" sim --pristine "$P" --patched "$P" --traces 300 --coverage --work "$KVERIFY_CACHE/sim/t0200-cov" > "$TMP/out" 2>&1
krc=$?
test_expect_success "--coverage lists the tree's vPMU functions reached, kvm_pmu_cleanup() among them, pristine and patched (exit $krc)" - <<\EOT
	sed -n '/kvm_pmu_cleanup\|^kverify\|^RESULT/p' "$TMP/out" &&
	grep -q '^COVERAGE kvm_pmu_cleanup: [1-9][0-9]*% of [0-9]*, .* | [1-9]' "$TMP/out" &&
	grep -q '^COVERAGE reprogram_counter: ' "$KVERIFY_CACHE/sim/t0200-cov/coverage.txt"
EOT
test_expect_success 'kverify sim --trace with no such file exits 2' '
	test_expect_code 2 "$SIM" sim --pristine "$P" --patched "$P" --trace "$TMP/nonexistent" > "$TMP/out" 2>&1 ||
	{ tail -n 30 "$TMP/out"; false; }
'

"$KVERIFY" --results "$RES" verify --skip sim,$QUICK 6.12 > "$TMP/out" 2>&1
krc=$?
test_expect_success "--skip sim skips it like any step (exit $krc)" - <<\EOT
	[ $krc = 0 ] && [ "$(step_status $RES/6.12/report.json sim)" = SKIP ] &&
	json $RES/6.12/report.json '[s["reason"] for s in r["steps"] if s["name"] == "sim"][0]' | grep -q 'skipped with --skip'
EOT
test_expect_success 'kverify sim without --patched exits 2' '
	test_expect_code 2 "$SIM" sim --pristine /nonexistent > "$TMP/out" 2>&1 ||
	{ tail -n 30 "$TMP/out"; false; }
'
test_expect_success 'kverify sim on a directory that is no kernel tree exits 2' '
	test_expect_code 2 "$SIM" sim --pristine "$TMP" --patched "$TMP" --work "$TMP/w" > "$TMP/out" 2>&1 ||
	{ tail -n 30 "$TMP/out"; false; }
'
done_testing
