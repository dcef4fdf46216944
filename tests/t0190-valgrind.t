#!/bin/bash
# The driver under valgrind for one verify (an n/a target: fetch and the
# semantic patch), and our own C passing 6.12's checkpatch --no-tree -f.
# lane: 2
. "$(dirname "$0")/lib.sh"

T=${KVERIFY_VALGRIND_TARGET:-5.10}
plan 2
test_lazy_prereq VALGRIND 'command -v valgrind'
test_expect_success VALGRIND "kverify verify $T is valgrind-clean" - <<\EOT
	valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--trace-children=no "$KVERIFY" verify --results "$TMP/r" $T > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" &&
	grep -A12 '==[0-9]*==' "$TMP/out" | head -n 28 &&
	[ $rc = 0 ]
EOT

# One checkpatch.pl, 6.12's, fetched if need be: whichever tree another
# script left in the cache would be a different checkpatch (5.10's warns
# of what 6.12's does not), and alone there is only 5.10.
src=$(cached_source 6.12)
cp=$src/scripts/checkpatch.pl
# The source is fetched from Debian's archive: it may not be had here.
test_lazy_prereq CHECKPATCH_6_12 'test -f "$cp"'
test_expect_success CHECKPATCH_6_12 "our C passes checkpatch --no-tree -f ($(basename "$(dirname "$(dirname "$cp")")"))" - <<\EOT
	{ perl "$cp" --no-tree --terse --show-types -f tools/*.[ch] tools/lib/*.[ch] tools/sources/*.[ch] \
		tools/debian/*.[ch] tools/steps/*.[ch] tools/b4/*.[ch] \
		tools/sim/*.c tools/sim/*.h tests/unit/*.c tests/fuzz/*.c > "$TMP/cp" 2>&1 || :; } &&
	! grep -E 'ERROR|WARNING|CHECK' "$TMP/cp"
EOT
done_testing
