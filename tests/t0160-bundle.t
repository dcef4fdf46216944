#!/bin/bash
# make bundle: the kernel, the initramfs with the runner and the tests, a
# README and LAVA job definitions that Debian's lava-common schema accepts.
# tier: kernels
# lane: 1
. "$(dirname "$0")/lib.sh"

T=${KVERIFY_BUNDLE_TARGET:-6.12}
plan 5

validate() {
	/usr/bin/python3 -c '
import sys, yaml
from lava_common.schemas import validate
validate(yaml.safe_load(open(sys.argv[1])), strict=True)' "$1"
}

for job in tools/lava/qemu.yaml tools/lava/x86.yaml; do
	validate $job > "$TMP/v" 2>&1
	ok $? "$job is a valid LAVA job (lava_common.schemas, strict)"
	[ $? = 0 ] || tail -n 3 "$TMP/v" | diag
done
sed '/pattern:/d' tools/lava/qemu.yaml > "$TMP/broken.yaml"
! validate "$TMP/broken.yaml" > /dev/null 2>&1
ok $? "a job whose monitor has no pattern is rejected"

make --no-print-directory bundle KERNEL=$T SKIP=sim > "$TMP/out" 2>&1
rc=$?
B=results/$T/bundle
[ $rc = 0 ] && [ -s $B/bzImage ] && [ -s $B/README ] && [ -s $B/lava-qemu.yaml ] && [ -s $B/lava-x86.yaml ]
ok $? "make bundle KERNEL=$T writes the bundle (exit $rc)"
[ $rc = 0 ] || tail -n 20 "$TMP/out" | diag
cpio -it < $B/initramfs.cpio > "$TMP/list" 2>/dev/null
grep -qx init "$TMP/list" && grep -qx bin/busybox "$TMP/list" &&
	grep -qx tests/cpuid_test "$TMP/list" && grep -qx tests/plan "$TMP/list" &&
	grep -q "^tests/pmu_" "$TMP/list"
ok $? "the initramfs holds /init, busybox, the control and PMU tests and the plan"
done_testing
