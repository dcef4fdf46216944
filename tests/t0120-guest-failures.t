#!/bin/bash
# The guest's verdicts are believed: a selftest whose assertion fails makes
# verify FAIL, and a kernel that panics at boot fails with the panic in the
# report, within the timeout.
# tier: kernels
# lane: 1
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_GUEST_TARGET:-6.12}
plan 6
series=$(target_series $T)
# the patch that adds the parameter and the one that adds the selftest
pk=$(cd "$series" && grep -l '^+static \(uint\|unsigned int\) __read_mostly emulated_counter_reprogram_tolerance;$' $(cat series) | head -n 1)
ps=$(cd "$series" && grep -l '^+++ b/tools/testing/selftests/kvm/.*pmu_emulated_batching_test\.c$' $(cat series) | head -n 1)

copy=$TMP/broken-test
repo_copy "$copy"
sed -i 's/^+\tTEST_REQUIRE(kvm_is_pmu_enabled());$/+\tTEST_ASSERT(0, "deliberately broken assertion");/' "$copy/$series/$ps"
test_expect_success "broke an assertion of the new selftest ($ps)" '
	grep -q "deliberately broken" "$copy/$series/$ps"
'
(cd "$copy" && ./build/kverify --boot own verify --skip sim,checkpatch,cocci $T) > "$TMP/out" 2>&1
rc=$?
R=$copy/results/$T/report.json
test_expect_success "verify fails at the boot step (exit $rc)" '
	[ $rc = 1 ] && [ "$(step_status $R boot)" = FAIL ]
'
n=$(json $R 'len([t for t in r["tests"] if t["name"].startswith("pmu_emulated_batching_test") and t["status"] == "FAIL"])')
test_expect_success "each of the 4 runs of the broken test is a FAIL ($n)" '
	[ "$n" = 4 ]
'
tail -n 30 "$TMP/out" | diag

copy=$TMP/panic
repo_copy "$copy"
sed -i -E 's/^\+(static (uint|unsigned int) __read_mostly emulated_counter_reprogram_tolerance;)$/+static int __init kverify_panic(void) { panic("kverify: deliberate panic"); } late_initcall(kverify_panic); \1/' "$copy/$series/$pk"
test_expect_success "made the kernel panic at boot ($pk)" '
	grep -q "deliberate panic" "$copy/$series/$pk"
'
(cd "$copy" && ./build/kverify --boot own verify --skip sim,checkpatch,cocci $T) > "$TMP/out" 2>&1
rc=$?
R=$copy/results/$T/report.json
test_expect_success "the boot step fails and says the console shows a panic (exit $rc)" - <<\EOT
	[ $rc = 1 ] && [ "$(step_status $R boot)" = FAIL ] &&
	json $R '[s["reason"] for s in r["steps"] if s["name"] == "boot"][0]' | grep -q 'guest console shows "Kernel panic"'
EOT
test_expect_success 'the console excerpt in the report holds the panic message' - <<\EOT
	json $R '[s["detail"] for s in r["steps"] if s["name"] == "boot"][0]' | grep -q "kverify: deliberate panic"
EOT
tail -n 20 "$TMP/out" | diag
done_testing
