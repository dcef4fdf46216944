#!/bin/bash
# The guest's KTAP runner (tools/guest/init), its functions run here with
# tests of our own: a test's exit status becomes its KTAP line; with
# kverify.require=pmu on the kernel command line (what the bundle's
# bare-metal LAVA job sets), a PMU test that skips is "not ok", another
# test's skip stays a skip.
. "$(dirname "$0")/lib.sh"

plan 12
mkdir -p "$TMP/tests"
printf '#!/bin/sh\necho "SKIP no vPMU here"\nexit 4\n' > "$TMP/tests/pmu_fake_test"
printf '#!/bin/sh\necho "SKIP not this CPU"\nexit 4\n' > "$TMP/tests/cpuid_test"
printf '#!/bin/sh\nexit 0\n' > "$TMP/tests/pmu_ok_test"
printf '#!/bin/sh\nexit 1\n' > "$TMP/tests/pmu_broken_test"
chmod +x "$TMP/tests"/*
echo Y > "$TMP/enable_pmu"	# a vPMU: the skips give their own reasons

runner() {	# runner KERNEL-ARGS...: each test once, the KTAP lines
	KVERIFY_GUEST_FUNCTIONS_ONLY=1 sh -c '
		. tools/guest/init
		TESTS=$1 OUT=$2/out ENABLE_PMU=$2/enable_pmu; shift 2
		parse_args "$@"
		for t in pmu_fake_test cpuid_test pmu_ok_test pmu_broken_test; do
			run_test $t "$t tolerance=1000"
		done' runner "$TMP/tests" "$TMP" "$@" | grep -v '^#'
}

test_expect_success 'each exit status becomes its KTAP line' '
	runner console=ttyS0 > "$TMP/plain" && cat "$TMP/plain" &&
	grep -qx "ok 1 pmu_fake_test tolerance=1000 # SKIP no vPMU here" "$TMP/plain" &&
	grep -qx "ok 2 cpuid_test tolerance=1000 # SKIP not this CPU" "$TMP/plain" &&
	grep -qx "ok 3 pmu_ok_test tolerance=1000" "$TMP/plain" &&
	grep -qx "not ok 4 pmu_broken_test tolerance=1000 # exit status 1" "$TMP/plain"
'
test_expect_success 'kverify.require=pmu: a PMU test that skips is not ok, with its reason' '
	runner console=ttyS0 kverify.require=pmu > "$TMP/req" && cat "$TMP/req" &&
	grep -qx "not ok 1 pmu_fake_test tolerance=1000 # kverify.require=pmu, but it skipped: no vPMU here" "$TMP/req"
'
test_expect_success 'kverify.require=pmu: a skip of a test that is no PMU test stays a skip, the rest as before' '
	grep -qx "ok 2 cpuid_test tolerance=1000 # SKIP not this CPU" "$TMP/req" &&
	grep -qx "ok 3 pmu_ok_test tolerance=1000" "$TMP/req" &&
	grep -qx "not ok 4 pmu_broken_test tolerance=1000 # exit status 1" "$TMP/req"
'
test_expect_success 'without a vPMU (enable_pmu=N) the reason says so' '
	echo N > "$TMP/enable_pmu" && runner kverify.require=pmu > "$TMP/nopmu" && cat "$TMP/nopmu" &&
	grep -qx "not ok 1 pmu_fake_test tolerance=1000 # kverify.require=pmu, but it skipped: no vPMU: enable_pmu=N (no vPMU here)" "$TMP/nopmu"
'
test_expect_success 'the bundle'"'"'s bare-metal LAVA job passes the arguments the tests need' '
	grep -q "^  extra_kernel_args: .*kvm.force_emulation_prefix=1" tools/lava/x86.yaml &&
	grep -q "^  extra_kernel_args: .*kverify.require=pmu" tools/lava/x86.yaml
'

plumb() {	# plumb PARAM-VALUE KERNEL-ARGS...: the plumbing checks, then "ran"
	echo "$1" > "$TMP/param"; shift
	KVERIFY_GUEST_FUNCTIONS_ONLY=1 sh -c '
		. tools/guest/init
		PARAM=$1; shift
		parse_args "$@"
		plumbing && echo ran' plumb "$TMP/param" "$@"
}
test_expect_success 'the command line'"'"'s tolerance took effect: checked, then the run goes on' '
	plumb 1000 console=ttyS0 kvm.emulated_counter_reprogram_tolerance=1000 > "$TMP/took" ; cat "$TMP/took" &&
	grep -qx "ok 3 param: boot value, the kernel command line'"'"'s or 0" "$TMP/took" &&
	tail -n 1 "$TMP/took" | grep -qx ran
'
test_expect_success 'the command line'"'"'s tolerance did not take effect: not ok, Bail out!, nothing runs' '
	plumb 0 kvm.emulated_counter_reprogram_tolerance=1000 > "$TMP/nottook" ; cat "$TMP/nottook" &&
	grep -qx "not ok 3 param: boot value, the kernel command line'"'"'s or 0" "$TMP/nottook" &&
	grep -qx "Bail out! kvm.emulated_counter_reprogram_tolerance=1000 of the kernel command line did not take effect" "$TMP/nottook" &&
	grep -q "^# .*is '"'"'0'"'"': the module did not take it" "$TMP/nottook" &&
	! grep -q "^ran" "$TMP/nottook" && ! grep -q "round-trips" "$TMP/nottook"
'
test_expect_success 'no tolerance on the command line: the boot value must be the default 0' '
	plumb 0 console=ttyS0 > "$TMP/dflt" && grep -qx "ok 3 param: boot value, the kernel command line'"'"'s or 0" "$TMP/dflt" &&
	plumb 5 console=ttyS0 > "$TMP/five"; grep -qx "not ok 3 param: boot value, the kernel command line'"'"'s or 0" "$TMP/five" &&
	tail -n 1 "$TMP/five" | grep -qx ran
'
# /tests/knob "absent" (a series of fixes only): the one plumbing check
# is that the parameter is not there; each PMU test then runs once.
absent() {	# absent PARAM-PATH: the plumbing of a series of fixes only, then "ran"
	KVERIFY_GUEST_FUNCTIONS_ONLY=1 sh -c '
		. tools/guest/init
		PARAM=$1 KNOB=absent
		plumbing && echo ran && echo "tolerances: $(tolerances)"' absent "$1"
}
test_expect_success 'fixes only: the parameter absent is the one plumbing check, and it passes' '
	absent "$TMP/no-such-param" > "$TMP/absent" && cat "$TMP/absent" &&
	grep -qx "ok 1 param: absent, the series carries fixes only" "$TMP/absent" &&
	! grep -q "round-trips" "$TMP/absent" &&
	grep -qx ran "$TMP/absent" && grep -qx "tolerances: -" "$TMP/absent"
'
test_expect_success 'fixes only, but the kernel has the parameter: not ok' '
	echo 0 > "$TMP/param" && absent "$TMP/param" > "$TMP/present" ; cat "$TMP/present" &&
	grep -qx "not ok 1 param: absent, the series carries fixes only" "$TMP/present"
'
# The console carries KTAP for LAVA: the kernel's infos must not cut its
# lines, its warnings and worse (KERN_WARNING is 4) must still show.
# Without /proc/sys (our own kernel has no CONFIG_PROC_SYSCTL) busybox's
# dmesg -n sets the level: here a function that writes down its arguments.
guest_main() {	# guest_main PRINTK: main() with no modules and failed plumbing
	KVERIFY_GUEST_FUNCTIONS_ONLY=1 sh -c '
		. tools/guest/init
		PRINTK=$1 TESTS=$2 DMESG_ARGS=$3
		dmesg() { echo "$*" > "$DMESG_ARGS"; }
		load_modules() { :; }
		plumbing() { return 1; }
		main' main "$1" "$TMP/tests" "$TMP/dmesg"
}
test_expect_success 'main: the console keeps warnings and worse, no infos' '
	echo 7 > "$TMP/printk" && guest_main "$TMP/printk" > "$TMP/main" && cat "$TMP/main" &&
	grep -qx "KTAP version 1" "$TMP/main" && grep -qx KVERIFY-DONE "$TMP/main" &&
	level=$(cat "$TMP/printk") && [ "$level" -gt 4 ] && [ "$level" -le 5 ]
'
test_expect_success 'main without /proc/sys: dmesg -n 5, and no error on the console' '
	rm -f "$TMP/dmesg" && guest_main "$TMP/no/such/printk" > "$TMP/main" 2>&1 && cat "$TMP/main" &&
	grep -qx "KTAP version 1" "$TMP/main" && ! grep -q "printk" "$TMP/main" &&
	[ "$(cat "$TMP/dmesg")" = "-n 5" ]
'
done_testing
