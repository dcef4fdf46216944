#!/bin/bash
# The driver under valgrind for one verify (an n/a target: fetch and the
# semantic patch), and our own C passing checkpatch --no-tree -f.
. "$(dirname "$0")/lib.sh"

T=${KVERIFY_VALGRIND_TARGET:-5.10}
plan 2
valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	--trace-children=no "$KVERIFY" verify --results "$TMP/r" $T > "$TMP/out" 2>&1
rc=$?
ok $rc "kverify verify $T is valgrind-clean (exit $rc)"
[ $rc = 0 ] || grep -A12 '==[0-9]*==' "$TMP/out" | head -60 | diag

cp=$(ls "$KVERIFY_CACHE"/src/*/scripts/checkpatch.pl 2>/dev/null | tail -n 1)
if [ -z "$cp" ]; then
	skip "checkpatch --no-tree -f on tools/ and tests/" "no kernel tree in the cache yet"
else
	: > "$TMP/cp"
	for f in tools/*.c tools/*.h tools/sim/*.c tools/sim/*.h tests/unit/*.c tests/fuzz/*.c; do
		perl "$cp" --no-tree --terse --show-types -f "$f" >> "$TMP/cp" 2>&1
	done
	! grep -E 'ERROR|WARNING|CHECK' "$TMP/cp" > "$TMP/bad"
	ok $? "our C passes checkpatch --no-tree -f ($(basename "$(dirname "$(dirname "$cp")")"))"
	diag < "$TMP/bad"
fi
done_testing
