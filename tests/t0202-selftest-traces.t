#!/bin/bash
# pmu_emulated_batching_test's cases, replayed in the sim: no machine here
# has a PMU, so each case's exact guest sequence is a trace under
# tests/sim/selftest/ (kverify sim --trace).  On each target's v5 tree
# (pristine + its series, the selftest left out) every trace passes, and
# the batch cases' wrap really waits in a batch (the guest's RDMSR of
# GLOBAL_STATUS before the action reads 0); on a tree missing the fix a
# case guards, the trace fails for the invariant that fix keeps: the
# series without 0002 or 0003, or the v5 tree with one fix undone by a
# mutant of tests/sim/selftest/mutants/.  The at-once cases also get the
# selftest's own check, on the replay: RDPMC read the counter D below its
# wrap, and the PMI comes after NOP 1 to D - 1; it passes on the v5 tree
# and fails one instruction late on the not-at-once mutants, the
# selftest's (on the v5 tree) and the sim's (tests/sim/mutants/<target>/
# not-at-once.patch, on pristine, where it exists).
# lane: 2
. "$(dirname "$0")/lib.sh"

TARGETS="7.3 7.2 6.12"
D=tests/sim/selftest
TRACES=$(cd $D && ls *.trace | sed 's/\.trace$//')
# trace:tree-without-the-fix=invariant; a tree is no-NNNN (the series
# without patch NNNN) or mutants joined with + (the v5 tree, each undone)
FAILS="intel-eventsel:no-0002=ii-lost intel-global-ctrl:no-0002=ii-lost
intel-fixed:no-0002=ii-lost amd-v2-global-ctrl:no-0002=ii-lost
amd-v1-eventsel:no-0002=ii-lost intel-write:no-0003=ii-lost
amd-v1-write:no-0003=ii-lost intel-host-read:no-sync-fold=ii-save
amd-v2-host-read:no-sync-fold=ii-save
intel-filter:no-0002+no-sync-fold=ii-lost
intel-save-restore:no-sync-fold=ii-save
intel-save-restore:no-sync-pmi=ii-save
amd-v1-save-restore:no-sync-fold=ii-save
amd-v1-save-restore:no-sync-pmi=ii-save intel-at-once:no-at-once=ii-a
amd-v1-at-once:no-at-once=ii-a intel-at-once:not-at-once=ii-a
amd-v1-at-once:not-at-once=ii-a
intel-no-spurious-t0:no-0001-reperiod=iv
intel-no-spurious:no-0001-reperiod=iv
intel-exact:read-skips-batch=i amd-v1-exact:read-skips-batch=i"
# the batch cases whose guest reads GLOBAL_STATUS before the action
WAITS="intel-eventsel intel-global-ctrl intel-fixed intel-write
intel-host-read intel-filter intel-save-restore amd-v2-global-ctrl
amd-v2-host-read"
# the cases whose fix another one covers: the tree passes
PASSES="intel-filter:no-0002 intel-filter:no-sync-fold"
# the cases the selftest checks for "at once" from its RDPMC
ATONCE="intel-at-once amd-v1-at-once"

nt=$(echo $TRACES | wc -w)
nf=$(echo $FAILS | wc -w)
nw=$(echo $WAITS | wc -w)
np=$(echo $PASSES | wc -w)
na=$(echo $ATONCE | wc -w)
# at once: on v5, the selftest's mutant and the sim's (7.3, 6.12)
nsm=$(for T in $TARGETS; do [ -f tests/sim/mutants/$T/not-at-once.patch ] && echo $T; done | wc -l)
plan $(( $(echo $TARGETS | wc -w) * (nt + nf + nw + np + 1 + 2 * na) + nsm * na ))

# tree SRC DIR PATCH...: SRC's arch/x86 (hard links) and
# kernel-parameters.txt, patched
tree() {
	local src=$1 dir=$2 p
	shift 2
	rm -rf "$dir"
	mkdir -p "$dir/arch" "$dir/Documentation/admin-guide"
	cp -al "$src/arch/x86" "$dir/arch/x86"
	cp "$src/Documentation/admin-guide/kernel-parameters.txt" \
		"$dir/Documentation/admin-guide/"
	for p; do
		patch -s -p1 --fuzz=0 --no-backup-if-mismatch -d "$dir" \
			< "$p" > "$TMP/patch.out" 2>&1 || { echo "$p" >> "$TMP/patch.out"; return 1; }
	done
}

# build NAME: the harness for tree $TMP/$T-NAME against pristine and the
# baseline, in $TMP/w-$T-NAME (kverify sim --work keeps it)
build() {
	"$KVERIFY" sim --pristine "$P" --patched "$TMP/$T-$1" \
		--baseline "$TMP/$T-baseline" --trace $D/intel-eventsel.trace \
		--work "$TMP/w-$T-$1" > "$TMP/build.out" 2>&1
	[ $? -le 1 ] && [ -x "$TMP/w-$T-$1/sim" ]
}

# replay NAME TRACE: exit status of the harness, its output in $TMP/out
replay() {
	"$TMP/w-$T-$1/sim" --batching --trace "$D/$2.trace" > "$TMP/out" 2>&1
}

# at_once TRACE: the selftest's at-once check on the replay in $TMP/out.
# The RDPMC op's value is the counter D below its wrap; in the op of the
# 64 NOPs, the first runs in the exit of the VM-entry op before it and
# each other after its own [entry], so the entry that delivers the PMI
# (lapic-pmi) comes after as many NOPs as entries up to it.  Without a
# PMI (the sim stopped at a failed invariant, or the NOPs ended), none
# came after any NOP that ran.  Sets AO_D and AO_N (the NOPs before the
# PMI, or "none by NOP K"); succeeds when 1 <= AO_N <= AO_D - 1, as the
# selftest asserts.
at_once() {
	local w rd nops v d n
	w=$(sed -n 's/^gp [0-9]* \([0-9]*\)$/\1/p' "$D/$1.trace")
	rd=$(sed -n 's/^ *rdpmc gp0 *# op \([0-9]*\)$/\1/p' "$TMP/out")
	nops=$(sed -n 's/^ *emulate 64 instruction *# op \([0-9]*\)$/\1/p' "$TMP/out")
	v=$(sed -n "s/^ *$rd .* =\(0x[0-9a-f]*\) .*/\1/p" "$TMP/out")
	AO_D=none AO_N=none
	[ -n "$w" ] && [ -n "$v" ] && [ -n "$nops" ] || return 1
	d=$(( ((1 << w) - v) & ((1 << w) - 1) ))
	n=$(sed -n "s/^ *$nops //p" "$TMP/out" | awk '{
		n = 0
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^\[entry\]\(x[0-9]+\)$/) {
				s = $i; gsub(/[^0-9]/, "", s); n += s
			} else if ($i == "[entry]") {
				n++
			} else if ($i == "lapic-pmi") {
				print n; exit
			}
		}
		print "none by NOP " n + 1
	}')
	AO_D=$d AO_N=$n
	case $n in none*) return 1 ;; esac
	[ "$n" -ge 1 ] && [ "$n" -le $((d - 1)) ]
}

for T in $TARGETS; do
	P=$(cached_source $T)
	S=$(target_series $T)
	# the kernel patches of the series, in its order
	ALL=$(grep -v -e '^#' -e '^$' -e selftests "$S/series" | sed "s|^|$S/|")
	FIXES=$(for p in $ALL; do grep -q '^Fixes: ' "$p" && echo "$p"; done)
	# every case of the target's selftest has a trace ("# selftest case:")
	st=$(grep -l 'pmu_emulated_batching_test' $(sed "s|^|$S/|" "$S/series") | head -n 1)
	cases=$(sed -n 's/^+\t\[CASE_[A-Z_]*\][ \t]*= "\(.*\)",$/\1/p' "$st")
	missing=$(echo "$cases" | while read -r c; do
		grep -qxF "# selftest case: $c" $D/*.trace || echo "$c"
	done)
	test_expect_success "$T: each of the $(echo "$cases" | wc -l) cases of $(basename "$st") has a trace" '
		echo "$missing" &&
		[ -n "$cases" ] && [ -z "$missing" ]
	'
	good=1
	tree "$P" "$TMP/$T-baseline" $FIXES && tree "$P" "$TMP/$T-v5" $ALL ||
		{ good=0; diag < "$TMP/patch.out"; }
	[ $good = 1 ] && build v5 || { good=0; diag < "$TMP/build.out"; }
	for t in $TRACES; do
		replay v5 $t
		trc=$?
		test_expect_success "$T: $t passes on the v5 tree (exit $trc)" '
			sed -n "/^COUNTEREXAMPLE/,+40p" "$TMP/out" &&
			[ $good = 1 ] && [ $trc = 0 ] && grep -q "^RESULT PASS" "$TMP/out"
		'
	done
	for t in $WAITS; do
		replay v5 $t
		# the op of the first rdmsr-status after the 64 emulated NOPs
		op=$(sed -n '/emulate 64 instruction/,$s/^ *rdmsr-status *# op \([0-9]*\)$/\1/p' "$TMP/out" | head -n 1)
		test_expect_success "$T: $t: the wrap waits in a batch (op $op: the guest reads GLOBAL_STATUS=0)" '
			[ -n "$op" ] && grep -q "^ *$op =0 status=0$" "$TMP/out"
		'
	done
	for f in $FAILS $PASSES; do
		t=${f%%:*}
		m=${f#*:}
		want=${m#*=}
		m=${m%=*}
		[ "$want" = "$m" ] && want=PASS
		name=$(echo "$m" | tr + _)
		what=$(for x in $(echo "$m" | tr + ' '); do
			case $x in
			no-[0-9][0-9][0-9][0-9]) echo "without ${x#no-}" ;;
			*) echo "mutant $x" ;;
			esac
		done | paste -sd+ | sed 's/+/ and /g')
		if [ ! -d "$TMP/w-$T-$name" ]; then
			patches=$ALL
			muts=
			for x in $(echo "$m" | tr + ' '); do
				case $x in
				no-[0-9][0-9][0-9][0-9])
					patches=$(for p in $patches; do
						case $p in */${x#no-}-*) ;; *) echo "$p" ;; esac
					done) ;;
				*) muts="$muts $D/mutants/$x.patch" ;;
				esac
			done
			built=1
			tree "$P" "$TMP/$T-$name" $patches $muts && build $name || built=0
			if [ $built = 0 ]; then
				test_expect_success "$T: the v5 tree $what builds" '
					cat "$TMP/patch.out" "$TMP/build.out" &&
					[ $built = 1 ]
				'
				continue
			fi
		fi
		replay $name $t
		trc=$?
		if [ "$want" = PASS ]; then
			test_expect_success "$T: $t passes on v5 $what too: another fix covers it (exit $trc)" '
				sed -n "/^RESULT/p" "$TMP/out" &&
				[ $trc = 0 ] && grep -q "^RESULT PASS" "$TMP/out"
			'
		else
			got=$(sed -n 's/^RESULT FAIL invariant \([a-z-]*\):.*/\1/p' "$TMP/out")
			test_expect_success "$T: $t fails on v5 $what, invariant $want (got '$got', exit $trc)" '
				sed -n "/^RESULT/p" "$TMP/out" &&
				[ $trc = 1 ] && [ "$got" = "$want" ]
			'
		fi
	done
	# the selftest's at-once check: v5 passes; a PMI one instruction
	# late (after NOP D, or none through it) fails it
	sm=tests/sim/mutants/$T/not-at-once.patch
	ms=not-at-once
	if [ -f $sm ]; then
		ms="$ms sim-not-at-once"
		tree "$P" "$TMP/$T-sim-not-at-once" $sm && build sim-not-at-once ||
			diag < "$TMP/build.out"
	fi
	for t in $ATONCE; do
		replay v5 $t
		at_once $t
		aok=$?
		test_expect_success "$T: $t: the selftest's at-once check passes on the v5 tree (D=$AO_D, NOPs before the PMI: $AO_N)" '
			[ $good = 1 ] && [ $aok = 0 ]
		'
		for m in $ms; do
			if [ $m = not-at-once ]; then
				what="the v5 tree with mutant not-at-once"
			else
				what="pristine with $sm"
			fi
			replay $m $t
			at_once $t
			aok=$?
			test_expect_success "$T: $t: the selftest's at-once check fails on $what, one late (D=$AO_D, NOPs before the PMI: $AO_N)" '
				[ $aok = 1 ] && [ "$AO_D" != none ] &&
				{ [ "$AO_N" = "$AO_D" ] || [ "$AO_N" = "none by NOP $AO_D" ]; }
			'
		done
	done
done
done_testing
