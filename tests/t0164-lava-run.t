#!/bin/bash
# The bundle's TCG job run by LAVA's own dispatcher: lava-run (Debian's
# lava-dispatcher) runs results/6.12/bundle/lava-qemu-tcg.yaml as make
# bundle wrote it, on a local qemu device whose dictionary is rendered
# from the job's context as lava-server's qemu device type would
# (tests/lava/qemu-device.py).  LAVA downloads the artifacts from their
# file:// URLs, checks their sha256sum, boots them under TCG and records a
# result per KTAP test case; those must equal what kverify's own boot of
# the same kernel and initramfs reported (report.json), and LAVA's job
# result must be pass.  A wrong sha256sum must make LAVA refuse the job.
# Prerequisite LAVA_RUN: lava-run, root (lava-run refuses anyone else),
# a writable /var/lib/lava/dispatcher and qemu-system-x86_64; where one is
# missing every check SKIPs, saying which.  Cost: make bundle on the cached
# 6.12 build (its boot memoized, ~30 s), one TCG boot under lava-run
# (~10 s here: the PMU tests skip at once), one refused download (~2 s).
# tier: kernels
# lane: 1
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-lava.sh"

T=${KVERIFY_BUNDLE_TARGET:-6.12}
B=results/$T/bundle
N=6
plan $N

why=$(lava_run_missing)
if [ -n "$why" ]; then
	for i in $(seq $N); do skip "lava-run (prerequisite LAVA_RUN)" "$why"; done
	exit 0
fi

test_expect_success "make bundle KERNEL=$T: a TCG job fetching from file://" '
	make --no-print-directory bundle KERNEL=$T BOOT=own SKIP=sim > "$TMP/bundle.out" 2>&1 &&
	grep -q "url: '"'"'file://$PWD/$B/bzImage'"'"'" $B/lava-qemu-tcg.yaml
'
test_expect_success 'lava-run runs the bundle'"'"'s TCG job unchanged: job result pass' '
	run_lava $B/lava-qemu-tcg.yaml "$TMP/lava"; rc=$?
	grep -o "\"msg\": \"[^\"]*\"" "$TMP/lava.log" | grep -v "progress\|Listened" | tail -n 15 &&
	[ $rc = 0 ] && grep -q "^result: pass" "$TMP/lava/result.yaml"
'
test_expect_success 'LAVA booted what the job says: its file:// artifacts, TCG, the tolerance on the command line' '
	grep -q "downloading file://$PWD/$B/bzImage" "$TMP/lava.log" &&
	grep -q "Boot command: [^\"]*qemu-system-x86_64 .*-accel tcg -cpu max" "$TMP/lava.log" &&
	! grep -q "Boot command: [^\"]*-enable-kvm" "$TMP/lava.log" &&
	grep -q "Kernel command line: [^\"]*kvm.emulated_counter_reprogram_tolerance=1000" "$TMP/lava.log" &&
	grep -q "\"msg\": \"ok 3 param: boot value, the kernel command line'"'"'s or 0\"" "$TMP/lava.log"
'
test_expect_success "LAVA's results equal kverify's report of the same kernel and initramfs" '
	/usr/bin/python3 tests/lava/compare.py "$TMP/lava.log" results/$T/report.json
'
test_expect_success 'the comparison catches a result that differs and one that is missing' '
	/usr/bin/python3 - results/$T/report.json "$TMP/flip.json" <<-PY &&
	import json, sys
	r = json.load(open(sys.argv[1]))
	t = [t for t in r["tests"] if t["status"] == "SKIP"][0]
	t["status"] = "PASS"
	json.dump(r, open(sys.argv[2], "w"))
	PY
	! /usr/bin/python3 tests/lava/compare.py "$TMP/lava.log" "$TMP/flip.json" > "$TMP/flip.out" &&
	cat "$TMP/flip.out" && grep -q ": kverify pass, LAVA skip$" "$TMP/flip.out" &&
	grep -v "\"case\": \"cpuid_test\"" "$TMP/lava.log" > "$TMP/drop.log" &&
	! /usr/bin/python3 tests/lava/compare.py "$TMP/drop.log" results/$T/report.json > "$TMP/drop.out" &&
	grep -qx "cpuid_test: kverify pass, LAVA nothing" "$TMP/drop.out"
'
test_expect_success 'LAVA refuses the job when an artifact'"'"'s sha256sum is not the file'"'"'s' '
	sed "0,/sha256sum: '"'"'[0-9a-f]*'"'"'/s//sha256sum: '"'"'$(printf %064d 0)'"'"'/" \
		$B/lava-qemu-tcg.yaml > "$TMP/badsum.yaml" &&
	! run_lava "$TMP/badsum.yaml" "$TMP/badsum" &&
	grep -q "^result: fail" "$TMP/badsum/result.yaml" && grep -i "sha256" "$TMP/badsum.log" | tail -n 3
'
done_testing
