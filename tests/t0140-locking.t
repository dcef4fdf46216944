#!/bin/bash
# Two runs of one target never interleave: the second waits and says so, or
# with --no-wait exits clearly; another target proceeds meanwhile.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_LOCK_TARGET:-6.12}
OTHER=${KVERIFY_LOCK_OTHER:-5.10}
QUICK=sim,checkpatch,cocci,config,build,selftests,boot
plan 8
lock=$KVERIFY_CACHE/locks/$T.lock
mkdir -p "$KVERIFY_CACHE/locks"

mkdir -p "results/$T"
echo "the first run's report" > "results/$T/marker"
# The holder keeps the lock until told (at most 10 minutes): $OTHER may have
# to be downloaded first, which takes what it takes.
release=$TMP/release
flock "$lock" sh -c 'i=0; while [ ! -e "$1" ] && [ $i -lt 3000 ]; do sleep 0.2; i=$((i + 1)); done' sh "$release" &
holder=$!
sleep 1
"$KVERIFY" verify --no-wait --skip $QUICK $T > "$TMP/nowait" 2>&1
nowait_rc=$?
test_expect_success "--no-wait exits 3 and says another run holds the lock (exit $nowait_rc)" '
	tail -n 5 "$TMP/nowait" &&
	[ $nowait_rc = 3 ] && grep -q "another run holds .*$T.lock; not waiting (--no-wait)" "$TMP/nowait"
'

"$KVERIFY" verify --skip $QUICK $T > "$TMP/wait" 2>&1 &
waiter=$!
"$KVERIFY" verify --results "$TMP/other" $OTHER > "$TMP/other.out" 2>&1
other_rc=$?
kill -0 $holder 2> /dev/null && kill -0 $waiter 2> /dev/null
still=$?
test_expect_success "$OTHER runs to the end while $T is locked and its second run waits (exit $other_rc)" '
	tail -n 20 "$TMP/other.out" &&
	[ $other_rc = 0 ] && [ $still = 0 ]
'
test_expect_success 'the second run says it is waiting, for whom: the pid and command of flock(1), which holds the lock' '
	grep -q "waiting for pid $holder (flock $lock sh -c .*), which holds .*$T.lock" "$TMP/wait" ||
	{ tail -n 20 "$TMP/wait"; false; }
'
test_expect_success 'while it waits, the results of the run holding the lock are untouched' '
	[ -f "results/$T/marker" ]
'
touch "$release"
test_expect_success 'the waiting run completes once the lock is free' '
	wait $waiter
'
test_expect_success 'then it writes its own results in place of the old ones' '
	[ ! -f "results/$T/marker" ] && [ -f "results/$T/report.json" ]
'
wait $holder
test_expect_success 'it started no step before it had the lock' '
	! grep -q "fetch \.\.\." "$TMP/wait" || [ "$(grep -n -m1 "waiting for" "$TMP/wait" | cut -d: -f1)" -lt "$(grep -n -m1 "fetch \.\.\." "$TMP/wait" | cut -d: -f1)" ]
'
# A waiting run names who holds the lock: a kverify of a fixture target
# whose build waits for a file, and a second run of it.
copy=$TMP/repo
fake=$TMP/fake-linux
repo_copy "$copy"
fake_kernel_targets "$fake" "$copy"
# (in its build directory, which the sandbox's make writes and sees)
build=$KVERIFY_CACHE/build/fake1
# (names of this run's own: the cache may keep the last run's build directory)
tok=$$-$RANDOM
printf 'touch "$1/started-%s"; while [ ! -e "$1/go-%s" ]; do sleep 0.1; done\n' $tok $tok > "$fake/job.sh"
(cd "$copy" && exec build/kverify verify --skip sim,checkpatch,cocci,selftests,boot fake1) > "$TMP/holder" 2>&1 &
holder=$!
for i in $(seq 600); do [ -e "$build/started-$tok" ] && break; sleep 0.1; done
(cd "$copy" && build/kverify verify --skip sim,checkpatch,cocci,selftests,boot fake1) > "$TMP/waiter" 2>&1 &
waiter=$!
for i in $(seq 100); do grep -qs "waiting for" "$TMP/waiter" && break; sleep 0.1; done
touch "$build/go-$tok"
wait $holder $waiter
test_expect_success "the second run names the holder: its pid ($holder), its command and since when" '
	cat "$TMP/waiter" | head -n 3 &&
	grep -q "waiting for pid $holder (build/kverify verify --skip sim,checkpatch,cocci,selftests,boot fake1, since [0-9][0-9]:[0-9][0-9]:[0-9][0-9]), which holds .*/locks/fake1.lock" "$TMP/waiter"
'
done_testing
