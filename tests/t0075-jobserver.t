#!/bin/bash
# make -jN verify-all shares make's jobserver with the kernel builds inside
# the targets: never more than N compile jobs at once, however many targets
# run.  Checked on fixture "kernel trees" whose build runs 8 recorded jobs,
# so the answer does not depend on what the cache already holds.  Each job
# writes its start and end into its build directory (the only place the
# sandboxed build may write); the peak is computed from all of them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 4
copy=$TMP/repo
repo_copy "$copy"
fake=$TMP/fake-linux
export KVERIFY_CACHE=$TMP/cache

fake_kernel_targets "$fake" "$copy"
cat > "$fake/job.sh" <<'SH'
# One "compile": its start and end, in its build directory.
t0=$(date +%s.%N)
sleep 0.5
echo "$t0 $(date +%s.%N)" >> "$1/jobs.log"
SH

test_expect_success 'make -j2 verify-all on three fixture targets passes' '
	(cd "$copy" && make --no-print-directory -j2 verify-all SKIP=sim,checkpatch,cocci,selftests,boot)
'
# The most jobs at once: +1 at each start, -1 at each end, in time order.
peak_of() {
	cat "$KVERIFY_CACHE"/build/*/jobs.log |
		awk '{ print $1, 1; print $2, -1 }' | sort -k1,1n -k2,2n |
		awk '{ n += $2; if (n > max) max = n } END { print max + 0 }'
}
runs=$(cat "$KVERIFY_CACHE"/build/*/jobs.log | wc -l)
peak=$(peak_of)
test_expect_success "all 24 jobs of the three builds ran ($runs)" '
	[ "$runs" = 24 ]
'
test_expect_success "at most 2 jobs at once under -j2 (peak $peak)" '
	[ "$peak" -le 2 ]
'
rm -rf "$KVERIFY_CACHE/build"
(cd "$copy" && make --no-print-directory -j3 verify-all SKIP=sim,checkpatch,cocci,selftests,boot) > "$TMP/out" 2>&1
peak=$(peak_of)
test_expect_success "-j3 lets up to 3 run and does use more than one (peak $peak)" '
	[ "$peak" -le 3 ] && [ "$peak" -ge 2 ]
'
done_testing
