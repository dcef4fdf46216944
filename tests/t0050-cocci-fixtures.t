#!/bin/bash
# The semantic patch on fixtures of every shape: the expected files, the
# outcome line, idempotency (ALREADY, nothing changed), and UNKNOWN failing
# without writing anything, for an unknown shape or for a known one whose
# surroundings a required hunk does not find (partial, prev_partial).
# spatch's exit code does not say whether a rule matched, so the outputs and
# the outcome line are compared here.
. "$(dirname "$0")/lib.sh"

SMPL=$REPO/cocci/emulated_counter_reprogram_tolerance.cocci
SHAPES="mediated emulated_counter prev_counter sync absent unknown partial prev_partial"
plan 19

# spatch_on DIR: the semantic patch in place on DIR's copies; prints stdout
spatch_on() {
	(cd "$1" && spatch --temp-files "$TMP" --sp-file "$SMPL" --no-includes --include-headers \
		--in-place --very-quiet $(ls pmu.c pmu.h kvm_host.h x86.c 2>/dev/null))
}

outcome_of() { grep -E '^(APPLIED|ALREADY|NOT-APPLICABLE|UNKNOWN)' "$1"; }

for s in $SHAPES; do
	d=$TMP/$s
	fixture_files $s input "$d"
	fixture_files $s input "$TMP/$s.in"
	spatch_on "$d" > "$TMP/$s.out" 2> "$TMP/$s.err"
	sprc=$?
	want=$(cat tests/cocci/$s/outcome)
	got=$(outcome_of "$TMP/$s.out")
	if [ "${want%% *}" = UNKNOWN ]; then
		test_expect_success "$s: '$want' and a non-zero exit (got '$got', exit $sprc)" '
			[ "$got" = "$want" ] && [ $sprc != 0 ]
		'
		test_expect_success "$s: nothing changed" '
			diff -r "$TMP/$s.in" "$d" > "$TMP/diff" 2>&1
		'
		continue
	fi
	test_expect_success "$s: outcome '$want' (got '$got', exit $sprc)" '
		[ "$got" = "$want" ] && [ $sprc = 0 ]
	'
	fixture_files $s expected "$TMP/$s.want"
	test_expect_success "$s: output is the expected files" '
		diff -ru "$TMP/$s.want" "$d"
	'
done

# Idempotency: a second run on the results reports ALREADY, changes nothing.
# (sync is NOT-APPLICABLE: its expected files are its input.)
for s in mediated emulated_counter prev_counter; do
	d=$TMP/$s
	cp -r "$d" "$TMP/$s.again"
	spatch_on "$TMP/$s.again" > "$TMP/$s.again.out" 2>&1
	got=$(outcome_of "$TMP/$s.again.out")
	test_expect_success "$s: second run says ALREADY and changes nothing (got '$got')" '
		[ "$got" = ALREADY ] && diff -r "$d" "$TMP/$s.again" > /dev/null
	'
done
done_testing
