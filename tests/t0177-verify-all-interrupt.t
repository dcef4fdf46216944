#!/bin/bash
# Ctrl-C in make -j2 verify-all while two targets build: SIGINT to the
# whole process group, as a terminal sends it; the same to a make that
# ignores SIGINT (started in the background by a script); SIGTERM to the
# group.  Each time both targets stop, make stops, no third target
# starts, and each interrupted target's report goes beside its last
# complete one (report.interrupted.json), never over it.  On fixture
# "kernel trees" (t0075's): each build runs 8 recorded jobs of 0.5 s, so
# it is cheap (about 20 s) and does not depend on what the cache holds.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 5
copy=$TMP/repo
repo_copy "$copy"
fake=$TMP/fake-linux
export KVERIFY_CACHE=$TMP/cache

fake_kernel_targets "$fake" "$copy"
cat > "$fake/job.sh" <<'SH'
# One "compile": its start, in its build directory.
date +%s.%N >> "$1/jobs.started"
sleep 0.5
SH
skip=sim,checkpatch,cocci,selftests,boot

test_expect_success 'make -j2 verify-all on three fixture targets passes' '
	(cd "$copy" && make --no-print-directory -j2 verify-all SKIP=$skip) > "$TMP/first" 2>&1 ||
	{ tail -n 20 "$TMP/first"; false; }
'
for i in 1 2 3; do
	cp "$copy/results/fake$i/report.json" "$TMP/report.fake$i"
done

# interrupt NAME SIGNAL [ignored]: make -j2 verify-all again, from build
# directories made anew, in a process group of its own, which gets SIGNAL
# once both running targets compile.  SIGINT to a job of a terminal
# (set -m), or with "ignored" to a make that ignores SIGINT, as one a
# script started in the background does (its targets do not).
interrupt() {
	rm -rf "$KVERIFY_CACHE/build" "$copy"/results/fake*/report.interrupted.json
	touch "$TMP/before"
	if [ "${3:-}" = ignored ]; then
		(cd "$copy" && trap "" INT && exec setsid make --no-print-directory -j2 verify-all SKIP=$skip) > "$TMP/$1" 2>&1 &
	else
		set -m
		(cd "$copy" && exec make --no-print-directory -j2 verify-all SKIP=$skip) > "$TMP/$1" 2>&1 &
		set +m
	fi
	pid=$!
	wait_for 60 compiling
	kill -$2 -$pid
	wait $pid
	rc=$?
	wait_for 10 nothing_left
}
compiling() {
	[ -s "$KVERIFY_CACHE/build/fake1/jobs.started" ] && [ -s "$KVERIFY_CACHE/build/fake2/jobs.started" ]
}
nothing_left() { [ -z "$(working_in "$copy")" ]; }
# stopped: make and both targets stopped, no third target started, each
# interrupted report beside the last complete one, which is as it was.
stopped() {
	[ $rc != 0 ] && nothing_left &&
	[ ! -e "$KVERIFY_CACHE/build/fake3/jobs.started" ] &&
	[ -z "$(find "$copy/results/fake3" -newer "$TMP/before")" ] || return 1
	for i in 1 2; do
		[ "$(json "$copy/results/fake$i/report.interrupted.json" "r[\"interrupted\"]")" = True ] &&
		[ "$(step_status "$copy/results/fake$i/report.interrupted.json" build)" = ERROR ] || return 1
	done
	for i in 1 2 3; do
		cmp "$TMP/report.fake$i" "$copy/results/fake$i/report.json" || return 1
	done
}

# The top make gets the SIGINT and, as the interrupted target's recipe
# stops the make of verify-each (kill -TERM, Makefile), its sub-make's
# error: whichever it takes first decides between 130 and make's 2.
interrupt tty INT
test_expect_success "Ctrl-C (SIGINT to the group): make stops (exit $rc: 130 or 2), no third target starts, report.json stays" '
	tail -n 20 "$TMP/tty" && { [ $rc = 130 ] || [ $rc = 2 ]; } && stopped
'
interrupt ignored INT ignored
test_expect_success "SIGINT to a make that ignores it: make stops too (exit $rc), no third target starts" '
	tail -n 20 "$TMP/ignored" && stopped
'
interrupt term TERM
test_expect_success "SIGTERM to the group: make stops (exit $rc), no third target starts, report.json stays" '
	tail -n 20 "$TMP/term" && stopped
'
test_expect_success 'a run that completes removes report.interrupted.json and writes report.json' '
	(cd "$copy" && ./build/kverify verify --skip $skip fake1) > "$TMP/again" 2>&1 &&
	[ ! -e "$copy/results/fake1/report.interrupted.json" ] &&
	[ "$(json "$copy/results/fake1/report.json" "r[\"interrupted\"]")" = False ] &&
	! cmp -s "$TMP/report.fake1" "$copy/results/fake1/report.json"
'
done_testing
