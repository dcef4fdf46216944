#!/bin/bash
# A guest that hangs is killed at the timeout: the boot step fails with the
# console excerpt, and no QEMU process is left behind.
# tier: kernels
# lane: 1
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_GUEST_TARGET:-6.12}
plan 3
series=$(target_series $T)
p1=$(sed -n 1p "$series/series")
copy=$TMP/hang
repo_copy "$copy"
sed -i 's/^+static uint __read_mostly emulated_counter_reprogram_tolerance;$/+static int __init kverify_hang(void) { pr_info("kverify: hanging on purpose\\n"); for (;;) cpu_relax(); return 0; } late_initcall(kverify_hang); static uint __read_mostly emulated_counter_reprogram_tolerance;/' "$copy/$series/$p1"
(cd "$copy" && KVERIFY_TEST_BOOT_TIMEOUT=30 ./build/kverify --boot own verify --skip sim,checkpatch,cocci $T) > "$TMP/out" 2>&1
rc=$?
R=$copy/results/$T/report.json
[ $rc = 1 ] && [ "$(step_status $R boot)" = FAIL ] &&
	json $R '[s["reason"] for s in r["steps"] if s["name"] == "boot"][0]' | grep -q "QEMU killed after 30s"
ok $? "a hanging guest fails the boot step, killed at the timeout (exit $rc)"
tail -n 12 "$TMP/out" | diag
json $R '[s["detail"] for s in r["steps"] if s["name"] == "boot"][0]' | grep -q -- "--- console" &&
	grep -q "kverify: hanging on purpose" "$copy/results/$T/console.log"
ok $? "the report holds a console excerpt; console.log holds the whole boot"
! pgrep -f "qemu-system-x86_64.*$KVERIFY_CACHE/build/$T/" > /dev/null
ok $? "no QEMU process is left"
done_testing
