#!/bin/bash
# The semantic patch on fixtures of every shape: the expected files, the
# outcome line, idempotency (ALREADY, nothing changed), and UNKNOWN failing
# without writing anything, for an unknown shape or for a known one whose
# surroundings a required hunk does not find (partial).
# spatch's exit code does not say whether a rule matched, so the outputs and
# the outcome line are compared here.
. "$(dirname "$0")/lib.sh"

SMPL=$REPO/cocci/emulated_counter_reprogram_tolerance.cocci
SHAPES="mediated emulated_counter prev_counter sync absent unknown partial"
plan 17

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
	rc=$?
	want=$(cat tests/cocci/$s/outcome)
	got=$(outcome_of "$TMP/$s.out")
	if [ "${want%% *}" = UNKNOWN ]; then
		[ "$got" = "$want" ] && [ $rc != 0 ]
		ok $? "$s: '$want' and a non-zero exit (got '$got', exit $rc)"
		diff -r "$TMP/$s.in" "$d" > "$TMP/diff" 2>&1
		ok $? "$s: nothing changed"
		continue
	fi
	[ "$got" = "$want" ] && [ $rc = 0 ]
	ok $? "$s: outcome '$want' (got '$got', exit $rc)"
	fixture_files $s expected "$TMP/$s.want"
	diff -ru "$TMP/$s.want" "$d" > "$TMP/diff" 2>&1
	rc=$?
	ok $rc "$s: output is the expected files"
	[ $rc = 0 ] || diag < "$TMP/diff"
done

# Idempotency: a second run on the results reports ALREADY, changes nothing.
# (sync is NOT-APPLICABLE: its expected files are its input.)
for s in mediated emulated_counter prev_counter; do
	d=$TMP/$s
	cp -r "$d" "$TMP/$s.again"
	spatch_on "$TMP/$s.again" > "$TMP/$s.again.out" 2>&1
	got=$(outcome_of "$TMP/$s.again.out")
	[ "$got" = ALREADY ] && diff -r "$d" "$TMP/$s.again" > /dev/null
	ok $? "$s: second run says ALREADY and changes nothing (got '$got')"
done
done_testing
