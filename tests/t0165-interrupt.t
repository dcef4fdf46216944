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
R=$copy/results/$T/report.json
[ $rc = 130 ] && [ "$(json $R 'r["interrupted"]')" = True ] &&
	[ "$(step_status $R build)" = ERROR ] && [ "$(step_status $R boot)" = SKIP ]
ok $? "SIGINT mid-build: exit 130, the report says interrupted (exit $rc)"
json $R '[s["reason"] for s in r["steps"] if s["name"] == "build"][0]' | grep -q interrupted
ok $? "the build step's reason is 'interrupted'"
sleep 2
! pgrep -f "$KVERIFY_CACHE/trees/$T/" > /dev/null && ! pgrep -f "O=$KVERIFY_CACHE/build/$T" > /dev/null
ok $? "no make or compiler of the run is left"
(cd "$copy" && ./build/kverify --boot own verify --skip sim,checkpatch,cocci $T) > "$TMP/again.out" 2>&1
rc=$?
ok $rc "the next run recovers by itself and passes (exit $rc)"
[ $rc = 0 ] || tail -n 20 "$TMP/again.out" | diag

# SIGKILL mid-build, after another edit of the same comment line.
sed -i 's/^+ \* perf-based vPMU before KVM reprograms it, 0 reprograms on every one\.$/+ * perf-based vPMU before KVM reprograms it - 0 reprograms on every one./' "$copy/$series/$p1"
interrupt_build KILL kill-build
sleep 1
! pgrep -f "^make .*O=$KVERIFY_CACHE/build/$T" > /dev/null
ok $? "SIGKILL mid-build: the top-level make dies with the driver"
(cd "$copy" && ./build/kverify --boot own verify --skip sim,checkpatch,cocci $T) > "$TMP/kill-build-again.out" 2>&1
rc=$?
ok $rc "the next run rebuilds what is missing and passes (exit $rc)"
[ $rc = 0 ] || tail -n 20 "$TMP/kill-build-again.out" | diag
grep -q '^\$ .*make .*bzImage' "$log" && grep -q 'bzImage is ready' "$log"
ok $? "it ran make again (no stamp of the killed build was trusted)"

# SIGINT, then SIGKILL, during the extraction of a fresh download.
cache=$TMP/cache
extracting() {
	ls -d "$cache"/src/.tmp-* > /dev/null 2>&1 &&
		[ -n "$(find "$cache"/src/.tmp-* -mindepth 1 -type d 2> /dev/null | head -n 1)" ]
}
(KVERIFY_CACHE=$cache exec "$KVERIFY" verify --results "$TMP/r" 5.10) > "$TMP/int-x.out" 2>&1 &
pid=$!
wait_for 120 extracting
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] && json "$TMP/r/5.10/report.json" '[s["reason"] for s in r["steps"] if s["name"] == "fetch"][0]' | grep -q interrupted
ok $? "SIGINT mid-extraction: exit 130, fetch 'interrupted' (exit $rc)"
[ -z "$(ls -A "$cache/src")" ] && ! pgrep -f "$cache" > /dev/null
ok $? "nothing is left in the cache's src/, and no tar or xz runs"
ls -A "$cache/src" | diag

# SIGKILL during the extraction of a fresh download.
cache=$TMP/cache
(KVERIFY_CACHE=$cache exec "$KVERIFY" verify --results "$TMP/r" 5.10) > "$TMP/kill.out" 2>&1 &
pid=$!
for i in $(seq 600); do
	ls -d "$cache"/src/.tmp-* > /dev/null 2>&1 && [ -n "$(ls -A "$cache"/src/.tmp-* 2> /dev/null)" ] && break
	sleep 0.2
done
sleep 2
kill -KILL $pid
wait $pid 2> /dev/null
sleep 1
ok $([ -z "$(ls "$cache"/src 2>/dev/null | grep -v '^\.tmp-')" ] && echo 0 || echo 1) "SIGKILL mid-extraction leaves no tree in the cache, only a .tmp- directory"
! pgrep -f "$cache" > /dev/null
ok $? "no child of the killed run is left (they die with the driver)"
KVERIFY_CACHE=$cache "$KVERIFY" verify --results "$TMP/r" 5.10 > "$TMP/kill2.out" 2>&1
rc=$?
ok $rc "the next run fetches again and passes (exit $rc)"
[ -z "$(ls -A "$cache/src" | grep '^\.tmp-')" ]
ok $? "the half-made .tmp- directory is gone"
done_testing
