#!/bin/bash
# Interruptions in the steps t0165 does not cover: mid-download (apt
# throttled by its own Acquire::http::Dl-Limit, so the download lasts),
# mid-apply (a long series) and mid-boot.  SIGINT exits 130 with the step
# "interrupted"; SIGKILL leaves the children to die with the driver; the
# next run recovers by itself and passes; nothing half-made is trusted.
# tier: kernels
# lane: 1
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_INTERRUPT_TARGET:-6.12}
plan 20
copy=$TMP/repo
repo_copy "$copy"

# start NAME ARGS...: the driver in the copy, in the background; the last
# run's results go first, so that what the waits read is this run's
start() {
	local name=$1
	shift
	rm -rf "$copy/results/$T"
	(cd "$copy" && exec ./build/kverify --boot own verify "$@") > "$TMP/$name.out" 2>&1 &
	pid=$!
}

reason() { json "$1" "[s['reason'] for s in r['steps'] if s['name'] == '$2'][0]"; }

# The boot runs QEMU.
test_lazy_prereq QEMU 'command -v qemu-system-x86_64'

# --- boot ---------------------------------------------------------------
R=$copy/results/$T/report.json
RI=$copy/results/$T/report.interrupted.json
qemu_runs() { pgrep -f "qemu-system-x86_64 .*$copy/results/$T" > /dev/null; }
# QEMU, with its guest's 2 GB, takes its time to go on a loaded machine:
# 1 s was not always enough in CI.
qemu_gone() { ! qemu_runs; }
test_expect_success QEMU 'a first run in the copy passes' '
	(cd "$copy" && ./build/kverify --boot own verify --skip sim,checkpatch,cocci $T) > "$TMP/warm.out" 2>&1
	rc=$? && tail -n 20 "$TMP/warm.out" &&
	[ $rc = 0 ]
'
# FORCE=1: the boot runs again though its inputs are unchanged (its PASS
# is kept otherwise, and there would be no QEMU to interrupt).
export KVERIFY_FORCE=1
test_expect_success QEMU "SIGINT mid-boot: exit 130, boot ERROR 'interrupted'" '
	start boot-int --skip sim,checkpatch,cocci $T &&
	{ wait_for 60 qemu_runs; kill -INT $pid; wait $pid; rc=$?; } &&
	echo "exit $rc" &&
	[ $rc = 130 ] && [ "$(step_status $RI boot)" = ERROR ] && reason $RI boot | grep -q interrupted
'
test_expect_success QEMU 'no QEMU is left' '
	sleep 1 &&
	! qemu_runs
'
test_expect_success QEMU 'SIGKILL mid-boot: QEMU dies with the driver' '
	start boot-kill --skip sim,checkpatch,cocci $T &&
	{ wait_for 60 qemu_runs; kill -KILL $pid; wait $pid 2> /dev/null; :; } &&
	wait_for 3 qemu_gone
'
test_expect_success QEMU 'the next run boots and passes' '
	(cd "$copy" && ./build/kverify --boot own verify --skip sim,checkpatch,cocci $T) > "$TMP/boot-again.out" 2>&1
	rc=$? && tail -n 20 "$TMP/boot-again.out" &&
	[ $rc = 0 ]
'
unset KVERIFY_FORCE

# --- apply --------------------------------------------------------------
# 100 patches: the interrupts come once 20 are applied, with 80 to go (400
# made this script the longest of its lane: 376 s warm, now ~95 s).
series=$copy/$(json $R 'r["series"]')
for i in $(seq -w 1 100); do
	f=9$i-kverify-interrupt-$i.patch
	printf -- '--- /dev/null\n+++ b/Documentation/kverify-interrupt/%s.txt\n@@ -0,0 +1 @@\n+%s\n' \
		"$i" "$i" > "$series/$f"
	echo "$f" >> "$series/series"
done
n=$(grep -c . "$series/series")
src=$(cached_source $T) || exit 1
before=$(pristine_sum "$src" before)
tree=$KVERIFY_CACHE/trees/$T
in_tree() { working_in "$tree" "$@"; }
applied() {
	local n
	n=$(grep -c '^Applying patch' "$copy/results/$T/logs/02-apply.log" 2> /dev/null)
	[ "${n:-0}" -ge "$1" ]
}
only="--skip sim,checkpatch,cocci,config,build,selftests,boot $T"
test_expect_success "SIGINT mid-apply: exit 130, apply ERROR 'interrupted'" - <<\EOT
	start apply-int $only &&
	{ wait_for 60 applied 20; kill -INT $pid; wait $pid; rc=$?; } &&
	echo "exit $rc, after $(grep -c '^Applying patch' "$copy/results/$T/logs/02-apply.log") of $n patches" &&
	[ $rc = 130 ] && [ "$(step_status $RI apply)" = ERROR ] && reason $RI apply | grep -q interrupted
EOT
test_expect_success 'no process is left working in the tree' '
	sleep 1 &&
	in_tree &&
	[ -z "$(in_tree)" ]
'
# quilt runs in the sandbox: bubblewrap dies with the driver
# (--die-with-parent), and quilt's push loop with bubblewrap's PID
# namespace, so nothing goes on patching the tree.
test_expect_success "SIGKILL mid-apply: nothing outlives the driver in the tree (the sandbox's PID namespace went with it)" '
	start apply-kill $only &&
	{ wait_for 60 applied 20; kill -KILL $pid; wait $pid 2> /dev/null; sleep 1; } &&
	in_tree &&
	[ -z "$(in_tree)" ]
'
test_expect_success "the next run makes the tree again and applies all $n patches" '
	(cd "$copy" && ./build/kverify --boot own verify $only) > "$TMP/apply-again.out" 2>&1
	rc=$? && tail -n 20 "$TMP/apply-again.out" &&
	[ $rc = 0 ]
'
test_expect_success 'it has nothing left of the killed run to wait for' '
	! grep "waiting for" "$TMP/apply-again.out"
'
test_expect_success 'tree: the half-applied tree is not reused' '
	grep -q -- "fresh tree linked to" "$TMP/apply-again.out"
'
test_expect_success "apply: all $n patches" '
	grep -q -- "$n patches applied" "$TMP/apply-again.out"
'
test_expect_success 'no process is left working in the tree' '
	in_tree &&
	[ -z "$(in_tree)" ]
'
test_expect_success 'the pristine source is untouched' '
	[ "$(pristine_sum "$src" after)" = "$before" ] ||
		{ diff "$TMP/pristine.before" "$TMP/pristine.after" | head; false; }
'
# Back to the real series for the tests after this one.
git -C "$REPO" show HEAD:$(json $R 'r["series"]')/series > "$series/series"
test_expect_success QEMU 'with the real series again, the run passes' '
	(cd "$copy" && ./build/kverify --boot own verify --skip sim,checkpatch,cocci $T) > "$TMP/restore.out" 2>&1
	rc=$? && tail -n 20 "$TMP/restore.out" &&
	[ $rc = 0 ]
'

# --- download -----------------------------------------------------------
cache=$TMP/cache
printf 'Acquire::http::Dl-Limit "2000";\nAcquire::https::Dl-Limit "2000";\n' > "$TMP/apt.conf"
downloading() {
	[ "$(find "$cache/src" -path '*/.tmp-*' -name '*.deb' -size +1M 2> /dev/null | wc -l)" -gt 0 ]
}
fetch() {	# fetch NAME: the n/a target 5.10 (a download, no build)
	(APT_CONFIG=$TMP/apt.conf KVERIFY_CACHE=$cache KVERIFY_SOURCES=$cache exec "$KVERIFY" verify --results "$TMP/r" 5.10) > "$TMP/$1.out" 2>&1 &
	pid=$!
}
test_expect_success "SIGINT mid-download: exit 130, fetch 'interrupted'" '
	fetch dl-int &&
	{ wait_for 60 downloading; kill -INT $pid; wait $pid; rc=$?; } &&
	echo "exit $rc" &&
	[ $rc = 130 ] && reason "$TMP/r/5.10/report.interrupted.json" fetch | grep -q interrupted
'
test_expect_success 'the partial download is removed' '
	echo "left: $(ls -A "$cache/src")" &&
	[ -z "$(ls -A "$cache/src")" ]
'
test_expect_success 'SIGKILL mid-download: apt-get and its http method die with the driver' '
	fetch dl-kill &&
	{ wait_for 60 downloading; kill -KILL $pid; wait $pid 2> /dev/null; sleep 1; } &&
	! pgrep -f "$cache" > /dev/null && ! pgrep -f /usr/lib/apt/methods/http > /dev/null
'
test_expect_success 'the next run downloads again and passes' '
	KVERIFY_CACHE=$cache KVERIFY_SOURCES=$cache "$KVERIFY" verify --results "$TMP/r" 5.10 > "$TMP/dl-again.out" 2>&1
	rc=$? && echo "exit $rc" && tail -n 20 "$TMP/dl-again.out" &&
	[ $rc = 0 ]
'
test_expect_success "the tree is in place, the killed run's partial download gone" - <<\EOT
	[ -z "$(ls -A "$cache/src" | grep '^\.tmp-')" ] && [ -n "$(ls "$cache/src")" ]
EOT
done_testing
