#!/bin/bash
# The guest's verdicts are believed: a selftest whose assertion fails makes
# verify FAIL, and a kernel that panics at boot fails with the panic in the
# report, within the timeout.  What the guest prints does not excuse it: a
# kernel without PREEMPT_RT whose KVM refuses to start with the RT line
# FAILs.
# tier: kernels
# lane: 1
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_GUEST_TARGET:-6.12}
plan 7
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

# A patch that makes kvm_x86_vendor_init() refuse every CPU without a
# constant TSC, as it refuses them under PREEMPT_RT: the guest (TCG, no
# invtsc) prints "RT requires X86_FEATURE_CONSTANT_TSC" and has no
# /dev/kvm.  That line excuses nothing on a kernel without PREEMPT_RT
# (boot:rt-amd64's SKIP is decided from Debian's .config, t0186): FAIL.
src=$(cached_source $T) || exit 1
copy=$TMP/refuses
repo_copy "$copy"
python3 - "$src/arch/x86/kvm/x86.c" "$copy/$series/9999-refuse-without-constant-tsc.patch" <<-\EOF
	import sys
	lines = open(sys.argv[1]).read().split("\n")
	at = lines.index("\tif (IS_ENABLED(CONFIG_PREEMPT_RT) && !boot_cpu_has(X86_FEATURE_CONSTANT_TSC)) {")
	ctx = lambda a, b: "".join(" " + l + "\n" for l in lines[a:b])
	text = "Subject: [PATCH] test fixture: refuse without a constant TSC\n\n---\n"
	text += "--- a/arch/x86/kvm/x86.c\n+++ b/arch/x86/kvm/x86.c\n"
	text += "@@ -%d,7 +%d,7 @@\n" % (at - 2, at - 2)
	text += ctx(at - 3, at) + "-" + lines[at] + "\n"
	text += "+\tif (!boot_cpu_has(X86_FEATURE_CONSTANT_TSC)) {\n" + ctx(at + 1, at + 4)
	open(sys.argv[2], "w").write(text)
EOF
echo 9999-refuse-without-constant-tsc.patch >> "$copy/$series/series"
(cd "$copy" && ./build/kverify --boot own verify --skip sim,checkpatch,cocci $T) > "$TMP/out" 2>&1
rc=$?
R=$copy/results/$T/report.json
test_expect_success "a kernel without PREEMPT_RT that prints the RT refusal: boot FAILs, cpuid_test SKIP named (exit $rc)" - <<\EOT
	[ $rc = 1 ] && [ "$(step_status $R boot)" = FAIL ] &&
	grep -q "RT requires X86_FEATURE_CONSTANT_TSC" "$copy/results/$T/console.log" &&
	json $R '[s["detail"] for s in r["steps"] if s["name"] == "boot"][0]' | grep -q "^cpuid_test: SKIP" &&
	! json $R '[s["reason"] for s in r["steps"] if s["name"] == "boot"][0]' | grep "PREEMPT_RT"
EOT
tail -n 20 "$TMP/out" | diag
done_testing
