#!/bin/bash
# Interruptions: SIGINT mid-build stops the whole process group, the report
# says interrupted, the next run recovers; SIGKILL mid-build leaves make's
# compilers to finish under the run's lock, and the next run waits and
# passes; SIGINT and SIGKILL mid-extraction leave no tree a later run
# trusts, and no child behind.  (t0166: download, apply, boot.)
# tier: kernels
# lane: 1
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_INTERRUPT_TARGET:-6.12}
plan 13
copy=$TMP/repo
repo_copy "$copy"
series=$(target_series $T)
# the knob's patch, whose lines the checks below edit
p1=$(grep -m1 Batch-counter-reprograms "$series/series")
# A comment edit in the pmu.c hunk: pmu.o and the link must be redone.
sed -i 's/^+ \* perf-based vPMU before KVM reprograms it; 0 reprograms on every one\.$/+ * perf-based vPMU before KVM reprograms it, 0 reprograms on every one./' "$copy/$series/$p1"

log=$copy/results/$T/logs/07-build.log
compiling_kvm() { grep -q "CC      arch/x86/kvm" "$log" 2> /dev/null; }
# interrupt_build SIGNAL NAME: a run in the copy, hit once it compiles KVM
interrupt_build() {
	rm -f "$log"
	(cd "$copy" && exec ./build/kverify --boot own verify --skip sim,checkpatch,cocci $T) > "$TMP/$2.out" 2>&1 &
	pid=$!
	wait_for 600 compiling_kvm
	kill -$1 $pid
	wait $pid 2> /dev/null
	rc=$?
}

interrupt_build INT int
R=$copy/results/$T/report.interrupted.json
test_expect_success "SIGINT mid-build: exit 130, the report says interrupted (exit $rc)" - <<\EOT
	tail -n 10 "$TMP/int.out" &&
	grep -q "report: .*/report.interrupted.json" "$TMP/int.out" &&
	[ $rc = 130 ] && [ "$(json $R 'r["interrupted"]')" = True ] &&
	[ "$(step_status $R build)" = ERROR ] && [ "$(step_status $R boot)" = SKIP ]
EOT
test_expect_success "the build step's reason is 'interrupted'" - <<\EOT
	json $R '[s["reason"] for s in r["steps"] if s["name"] == "build"][0]' | grep -q interrupted
EOT
sleep 2
test_expect_success 'no make or compiler of the run is left' '
	! pgrep -af "$KVERIFY_CACHE/trees/$T/" && ! pgrep -af "O=$KVERIFY_CACHE/build/$T"
'
(cd "$copy" && ./build/kverify --boot own verify --skip sim,checkpatch,cocci $T) > "$TMP/again.out" 2>&1
rc=$?
test_expect_success "the next run recovers by itself and passes (exit $rc)" '
	[ $rc = 0 ] || { tail -n 20 "$TMP/again.out"; false; }
'

# SIGKILL mid-build, after another edit of the same comment line.
sed -i 's/^+ \* perf-based vPMU before KVM reprograms it, 0 reprograms on every one\.$/+ * perf-based vPMU before KVM reprograms it - 0 reprograms on every one./' "$copy/$series/$p1"
interrupt_build KILL kill-build
sleep 1
test_expect_success 'SIGKILL mid-build: the top-level make dies with the driver' '
	! pgrep -af "^make .*O=$KVERIFY_CACHE/build/$T"
'
(cd "$copy" && ./build/kverify --boot own verify --skip sim,checkpatch,cocci $T) > "$TMP/kill-build-again.out" 2>&1
rc=$?
test_expect_success "the next run rebuilds what is missing and passes (exit $rc)" '
	[ $rc = 0 ] || { tail -n 20 "$TMP/kill-build-again.out"; false; }
'
test_expect_success 'it ran make again (no stamp of the killed build was trusted)' - <<\EOT
	grep -q '^\$ .*make .*bzImage' "$log" && grep -q 'bzImage is ready' "$log"
EOT

# SIGINT, then SIGKILL, during the extraction of a fresh download.
cache=$TMP/cache
extracting() {
	ls -d "$cache"/src/.tmp-* > /dev/null 2>&1 &&
		[ -n "$(find "$cache"/src/.tmp-* -mindepth 1 -type d 2> /dev/null | head -n 1)" ]
}
(KVERIFY_CACHE=$cache KVERIFY_SOURCES=$cache exec "$KVERIFY" verify --results "$TMP/r" 5.10) > "$TMP/int-x.out" 2>&1 &
pid=$!
wait_for 120 extracting
sleep 1
kill -INT $pid
wait $pid
rc=$?
test_expect_success "SIGINT mid-extraction: exit 130, fetch 'interrupted' (exit $rc)" - <<\EOT
	tail -n 10 "$TMP/int-x.out" &&
	[ $rc = 130 ] && json "$TMP/r/5.10/report.interrupted.json" '[s["reason"] for s in r["steps"] if s["name"] == "fetch"][0]' | grep -q interrupted
EOT
test_expect_success "nothing is left in the cache's src/, and no tar or xz runs" '
	[ -z "$(ls -A "$cache/src")" ] && ! pgrep -af "$cache"
'
ls -A "$cache/src" | diag

# SIGKILL during the extraction of a fresh download.
cache=$TMP/cache
(KVERIFY_CACHE=$cache KVERIFY_SOURCES=$cache exec "$KVERIFY" verify --results "$TMP/r" 5.10) > "$TMP/kill.out" 2>&1 &
pid=$!
for i in $(seq 600); do
	ls -d "$cache"/src/.tmp-* > /dev/null 2>&1 && [ -n "$(ls -A "$cache"/src/.tmp-* 2> /dev/null)" ] && break
	sleep 0.2
done
sleep 2
kill -KILL $pid
wait $pid 2> /dev/null
sleep 1
test_expect_success 'SIGKILL mid-extraction leaves no tree in the cache, only a .tmp- directory' - <<\EOT
	{ ls -A "$cache"/src || :; } &&
	[ -z "$(ls "$cache"/src 2>/dev/null | grep -v '^\.tmp-')" ]
EOT
test_expect_success 'no child of the killed run is left (they die with the driver)' '
	! pgrep -af "$cache"
'
KVERIFY_CACHE=$cache KVERIFY_SOURCES=$cache "$KVERIFY" verify --results "$TMP/r" 5.10 > "$TMP/kill2.out" 2>&1
rc=$?
test_expect_success "the next run fetches again and passes (exit $rc)" '
	[ $rc = 0 ] || { tail -n 20 "$TMP/kill2.out"; false; }
'
test_expect_success 'the half-made .tmp- directory is gone' - <<\EOT
	[ -z "$(ls -A "$cache/src" | grep '^\.tmp-')" ]
EOT
done_testing
