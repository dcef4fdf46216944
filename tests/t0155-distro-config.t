#!/bin/bash
# CONFIG=distro: arch/x86/kvm built with Debian's own configuration (its
# linux-config package, same version) for the build coverage distros need.
. "$(dirname "$0")/lib.sh"

T=${KVERIFY_DISTRO_TARGET:-6.12}
plan 5
make --no-print-directory verify KERNEL=$T CONFIG=distro SKIP=sim,checkpatch,cocci > "$TMP/out" 2>&1
rc=$?
R=results/$T/report.json
ok $rc "make verify KERNEL=$T CONFIG=distro passes (exit $rc)"
[ $rc = 0 ] || tail -n 30 "$TMP/out" | diag
json $R '[s["reason"] for s in r["steps"] if s["name"] == "config"][0]' | grep -Eq "Debian's amd64 config: KVM=[ym] KVM_INTEL=[ym] KVM_AMD=[ym]"
ok $? "the config step used Debian's config, with KVM in it"
# A cache that already holds this build (CI keeps its cache between runs)
# says "up to date"; either way the objects are there and no bzImage is.
B=$KVERIFY_CACHE/build/$T-distro
build_reason() {
	json $R '[s["reason"] for s in r["steps"] if s["name"] == "build"][0]'
}
[ "$(step_status $R build)" = PASS ] &&
	build_reason | grep -Eq "^(arch/x86/kvm/ objects built|up to date: )" &&
	[ -f "$B/arch/x86/kvm/pmu.o" ] && [ ! -e "$B/arch/x86/boot/bzImage" ]
ok $? "the build step built the arch/x86/kvm objects and no bzImage ($(build_reason))"
[ -f "$B/arch/x86/kvm/pmu.o" ] && [ "$(step_status $R boot)" = SKIP ]
ok $? "pmu.o exists in its own build directory; nothing boots"
make --no-print-directory verify KERNEL=$T CONFIG=distro SKIP=sim,checkpatch,cocci > "$TMP/out2" 2>&1
rc=$?
[ $rc = 0 ] && build_reason | grep -q "^up to date: "
ok $? "a second run finds the objects up to date (exit $rc, $(build_reason))"
done_testing
