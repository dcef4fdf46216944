#!/bin/bash
# CONFIG=distro: arch/x86/kvm built with Debian's own configuration (its
# linux-config package, same version) for the build coverage distros need.
# tier: kernels
. "$(dirname "$0")/lib.sh"

T=${KVERIFY_DISTRO_TARGET:-6.12}
R=results/$T/report.json
B=$KVERIFY_CACHE/build/$T-distro
verify_distro() {
	make --no-print-directory verify KERNEL=$T CONFIG=distro \
		SKIP=sim,checkpatch,cocci
}
reason() {
	json $R "[s['reason'] for s in r['steps'] if s['name'] == '$1'][0]"
}
plan 5

test_expect_success "make verify KERNEL=$T CONFIG=distro passes" '
	verify_distro
'
test_expect_success "the config step used Debian's config, with KVM in it" '
	reason config | grep -E "Debian'"'"'s amd64 config: KVM=[ym] KVM_INTEL=[ym] KVM_AMD=[ym]"
'
# A cache that already holds this build (CI keeps its cache between runs)
# says "up to date"; either way the objects are there and no bzImage is.
test_expect_success "the build step built the arch/x86/kvm objects and no bzImage" '
	[ "$(step_status $R build)" = PASS ] &&
	reason build | grep -E "^(arch/x86/kvm/ objects built|up to date: )" &&
	[ -f "$B/arch/x86/kvm/pmu.o" ] && [ ! -e "$B/arch/x86/boot/bzImage" ]
'
test_expect_success "pmu.o exists in its own build directory; nothing boots" '
	[ -f "$B/arch/x86/kvm/pmu.o" ] && [ "$(step_status $R boot)" = SKIP ]
'
test_expect_success "a second run finds the objects up to date" '
	verify_distro &&
	reason build | grep "^up to date: "
'
done_testing
