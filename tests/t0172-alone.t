#!/bin/bash
# tests/alone runs each script in a clone of its own with an empty cache:
# a script that passes only after another one filled the cache passes in
# one shared cache, as in a lane, and fails alone; a script that passes
# alone leaves only its output behind, one that fails keeps its clone and
# cache; a name that is no script exits 2; a shared test cache in the
# environment is not used; a --list of scripts is checked before anything runs;
# tests/lanes refuses to run over lane caches another run is using, and
# names a lane's failed checks again at the very end; the
# copies of the checkout (tests/copy-checkout) take its edits and
# deletions, and leave out a repository nested in it and a cache inside.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 9
# tests/alone builds kverify in each clone it makes (three below); the
# scripts it runs here (t0001, t0002) never run kverify, so it is built
# without optimisation: ~5 CPU-s a clone instead of ~15 at -O2 -g.  The
# warnings (-Wall -Wextra -Werror) are the Makefile's, whatever CFLAGS.
export CFLAGS=-O0
copy=$TMP/repo
repo_copy "$copy"
(cd "$copy" && git init -q && git add -A &&
	git -c user.name=kverify -c user.email=kverify@kverify.test commit -qm copy) ||
	echo "Bail out! cannot make a git repository of the copy"
# Two scripts: the first leaves a file in its test cache (tests/lib.sh's
# KVERIFY_CACHE), the second needs it.  One at a time, in this order, as
# in the shared run below: alone is then the only way the second can fail.
cat > "$copy/tests/t0001-leaves.t" <<'T'
#!/bin/bash
. "$(dirname "$0")/lib.sh"
plan 1
test_expect_success "left a file in the test cache" '
	mkdir -p "$KVERIFY_CACHE" && touch "$KVERIFY_CACHE/left-by-t0001"
'
T
cat > "$copy/tests/t0002-needs.t" <<'T'
#!/bin/bash
. "$(dirname "$0")/lib.sh"
plan 1
test_expect_success "found what t0001 left" '
	[ -e "$KVERIFY_CACHE/left-by-t0001" ]
'
T
chmod +x "$copy/tests/t0001-leaves.t" "$copy/tests/t0002-needs.t"

# Not the lane's cache this script itself was given (KVERIFY_TESTS_CACHE,
# which tests/lib.sh prefers): the shared cache is $TMP/shared.
test_expect_success 'in one shared cache, in order, both pass' '
	(cd "$copy" && unset KVERIFY_TESTS_CACHE && KVERIFY_CACHE=$TMP/shared \
		KVERIFY_TESTS="tests/t0001-leaves.t tests/t0002-needs.t" tests/run) > "$TMP/shared.out" 2>&1 &&
	grep -q "^Result: PASS$" "$TMP/shared.out"
'

test_expect_success 'alone, the one that needs the other fails and the run exits 1' '
	(cd "$copy" && KVERIFY_ALONE_JOBS=1 KVERIFY_CACHE=$TMP/alone tests/alone \
		tests/t0001-leaves.t tests/t0002-needs.t) > "$TMP/alone.out" 2>&1
	rc=$? && cat "$TMP/alone.out" &&
	[ $rc = 1 ] &&
	grep -q "^t0001-leaves PASS [0-9]* s, [0-9]* CPU-s$" "$TMP/alone.out" &&
	grep -q "^t0002-needs FAIL .*t0002-needs.out (clone and cache kept)$" "$TMP/alone.out" &&
	grep -q "^not ok 1 - found what t0001 left" "$TMP/alone/tests/alone/t0002-needs.out"
'

test_expect_success 'the one that passed leaves its output only; the failed one its clone and cache' '
	d=$TMP/alone/tests/alone &&
	[ -s "$d/t0001-leaves.out" ] && [ ! -e "$d/t0001-leaves.repo" ] &&
	[ ! -e "$d/t0001-leaves.cache" ] &&
	[ -x "$d/t0002-needs.repo/build/kverify" ] && [ -d "$d/t0002-needs.cache" ]
'

test_expect_success 'a name that is no test script, or a bad KVERIFY_ALONE_JOBS, exits 2 and says so' '
	(cd "$copy" && KVERIFY_CACHE=$TMP/alone tests/alone tests/t9999-none.t) > "$TMP/none.out" 2>&1
	rc=$? && cat "$TMP/none.out" &&
	[ $rc = 2 ] && grep -q "^tests/alone: no test script .tests/t9999-none.t.: name one as tests/tNNNN-name.t$" "$TMP/none.out" &&
	(cd "$copy" && KVERIFY_ALONE_JOBS=0 KVERIFY_CACHE=$TMP/alone tests/alone tests/t0001-leaves.t) > "$TMP/jobs.out" 2>&1
	rc=$? && cat "$TMP/jobs.out" &&
	[ $rc = 2 ] && grep -q "^tests/alone: KVERIFY_ALONE_JOBS=.0.: give a number" "$TMP/jobs.out"
'

test_expect_success 'a shared test cache in KVERIFY_TESTS_CACHE does not reach the scripts; a relative cache works' '
	mkdir -p "$TMP/tests-cache" && touch "$TMP/tests-cache/left-by-t0001" &&
	(cd "$copy" && KVERIFY_TESTS_CACHE=$TMP/tests-cache KVERIFY_TESTS=tests/t0002-needs.t tests/run) > "$TMP/tc.out" 2>&1 &&
	(cd "$copy" && KVERIFY_TESTS_CACHE=$TMP/tests-cache KVERIFY_CACHE=rel-cache \
		tests/alone "$copy/tests/t0002-needs.t") > "$TMP/rel.out" 2>&1
	rc=$? && cat "$TMP/rel.out" &&
	[ $rc = 1 ] && grep -q "^t0002-needs FAIL .*$copy/rel-cache/tests/alone/t0002-needs.out" "$TMP/rel.out" &&
	grep -q "^not ok 1 - found what t0001 left" "$copy/rel-cache/tests/alone/t0002-needs.out"
'

# `tests/alone --list FILE` (a nightly job's own share of the scripts)
# checks the names first: one that is no script (renamed, say), or one
# named twice, exits 2 before anything runs.
test_expect_success 'a --list of scripts is read, each once; a list with a bad name or a name twice exits 2' '
	printf "%s\n" tests/t0070-matrix.t tests/t0168-reports.t > "$TMP/ok.list" &&
	tests/alone -n --list "$TMP/ok.list" > "$TMP/ci-alone" &&
	cat "$TMP/ci-alone" && [ $(wc -l < "$TMP/ci-alone") = 2 ] &&
	{ cat "$TMP/ok.list" && echo tests/t9999-gone.t; } > "$TMP/gone.list" &&
	{ tests/alone -n --list "$TMP/gone.list"; [ $? = 2 ]; } &&
	{ cat "$TMP/ok.list" && head -n 1 "$TMP/ok.list"; } > "$TMP/twice.list" &&
	{ tests/alone -n --list "$TMP/twice.list"; [ $? = 2 ]; }
'

lock_held() { ! flock -n "$1" true; }
# Two runs of tests/lanes over one cache would share lane caches and the
# copy of the repository; the second waits for nothing and changes nothing.
# (the relative cache above, a clone inside, is no file of the repository)
rm -rf "$copy/rel-cache"
mkdir -p "$TMP/lanes/tests/lane-2.repo" && touch "$TMP/lanes/tests/lane-2.repo/in-use"
test_expect_success 'tests/lanes while another run holds the lanes: exit 2, naming the lock; lane 2 untouched' '
	(exec 8> "$TMP/lanes/tests/lanes.lock" && flock 8 && exec sleep 60) & holder=$!
	wait_for 10 lock_held "$TMP/lanes/tests/lanes.lock" &&
	(cd "$copy" && KVERIFY_CACHE=$TMP/lanes KVERIFY_TESTS=tests/t0001-leaves.t tests/lanes) > "$TMP/lanes.out" 2>&1
	rc=$? && kill $holder && { wait $holder; :; } && cat "$TMP/lanes.out" &&
	[ $rc = 2 ] && grep -q "^tests/lanes: another make check-all uses $TMP/lanes/tests (it holds $TMP/lanes/tests/lanes.lock)" "$TMP/lanes.out" &&
	[ -e "$TMP/lanes/tests/lane-2.repo/in-use" ] &&
	(cd "$copy" && KVERIFY_CACHE=$TMP/lanes KVERIFY_TESTS=tests/t0001-leaves.t tests/lanes) > "$TMP/lanes2.out" 2>&1
	rc=$? && tail -n 3 "$TMP/lanes2.out" &&
	[ $rc = 0 ] && grep -q "^lane 1: exit 0" "$TMP/lanes2.out"
'

# A checkout with an edit, a deleted file, a file moved by git mv, a new
# file, a repository nested in it and the cache inside: lane 2's copy as
# tests/lanes makes it.
test_expect_success 'the copy of the checkout: its edits, deletions, moves and new files; a nested repository named and left out, and the cache inside' '
	echo "an edit" >> "$copy/tests/README" && rm "$copy/docs/benchmarks.md" &&
	git -C "$copy" mv docs/report.md docs/moved.md &&
	echo new > "$copy/new-file" && git init -q "$copy/nested" && touch "$copy/nested/f" &&
	(cd "$copy" && KVERIFY_CACHE=in-cache KVERIFY_TESTS=tests/t0001-leaves.t tests/lanes) > "$TMP/copy.out" 2>&1
	rc=$? && cat "$TMP/copy.out" && l2=$copy/in-cache/tests/lane-2.repo &&
	[ $rc = 0 ] && tail -n 1 "$l2/tests/README" | grep -qx "an edit" &&
	[ ! -e "$l2/docs/benchmarks.md" ] && [ -e "$l2/docs/sim.md" ] && grep -qx new "$l2/new-file" &&
	[ ! -e "$l2/docs/report.md" ] && cmp -s "$copy/docs/moved.md" "$l2/docs/moved.md" &&
	[ ! -e "$l2/nested" ] && [ ! -e "$l2/in-cache" ] &&
	grep -q "^tests/copy-checkout: $copy/nested/: a repository nested in the checkout, not copied$" "$TMP/copy.out"
'
# A lane that fails and ends first: its report is far up by the time the
# other lane ends, and a CI log is read from its tail.
cat > "$copy/tests/t9001-fails-first.t" <<'T'
#!/bin/bash
# lane: 2
. "$(dirname "$0")/lib.sh"
plan 2
test_expect_success "passes" true
test_expect_success "the check that fails" 'echo "what the failing check printed"; false'
T
cat > "$copy/tests/t9002-ends-last.t" <<'T'
#!/bin/bash
# lane: 1
. "$(dirname "$0")/lib.sh"
plan 1
sleep 3
test_expect_success "passes, late" true
T
chmod +x "$copy/tests/t9001-fails-first.t" "$copy/tests/t9002-ends-last.t"
test_expect_success 'a lane that failed first: its failed check, script and output named again after the last lane ends; exit 1' '
	(cd "$copy" && KVERIFY_CACHE=$TMP/lanes-fail KVERIFY_TESTS="tests/t9001-fails-first.t tests/t9002-ends-last.t" tests/lanes) > "$TMP/fail.out" 2>&1
	rc=$? && cat "$TMP/fail.out" && [ $rc = 1 ] &&
	sed -n "/^lane 1: exit 0/,\$p" "$TMP/fail.out" > "$TMP/tail.out" &&
	grep -q "^lane 2 failed; its failed checks ($TMP/lanes-fail/tests/lane-2.log has it all):$" "$TMP/tail.out" &&
	grep -q "^\[2\] not ok 2 - the check that fails   (tests/t9001-fails-first.t)$" "$TMP/tail.out" &&
	grep -q "^\[2\] # what the failing check printed$" "$TMP/tail.out" &&
	grep -q "^\[2\] tests/t9001-fails-first.t (Wstat: 0 Tests: 2 Failed: 1)$" "$TMP/tail.out" &&
	! grep -q "passes" "$TMP/tail.out" && ! grep -q "^lane 1 failed" "$TMP/tail.out"
'
rm -f "$copy/tests/t9001-fails-first.t" "$copy/tests/t9002-ends-last.t"
done_testing
