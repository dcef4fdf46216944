#!/bin/bash
# The semantic patch on Debian's real trees of kernels.list (fetched first
# if the cache does not hold them yet): the shape each version must be, and
# a second run on the result says ALREADY and changes nothing.
. "$(dirname "$0")/lib.sh"

SMPL=$REPO/cocci/emulated_counter_reprogram_tolerance.cocci
want_for() {
	case $1 in
	5.10) echo "NOT-APPLICABLE" ;;
	6.1) echo "NOT-APPLICABLE sync shape" ;;
	6.12) echo "APPLIED emulated_counter" ;;
	7.*) echo "APPLIED mediated" ;;
	*) echo "no expectation for $1: add it to want_for" ;;
	esac
}
spatch_on() {
	(cd "$1" && spatch --temp-files "$TMP" --sp-file "$SMPL" --no-includes --include-headers \
		--in-place --very-quiet $(ls pmu.c pmu.h kvm_host.h x86.c 2>/dev/null)) |
		grep -E '^(APPLIED|ALREADY|NOT-APPLICABLE|UNKNOWN)'
}

targets="5.10 6.1 6.12 7.2 7.3"
plan 10
for v in $targets; do
	want=$(want_for $v)
	if ! src=$(cached_source $v); then
		test_expect_success "$v: Debian's tree is in the cache" '
			[ -n "$src" ]
		'
		test_expect_success "$v: the second run (no tree to run on)" '
			[ -n "$src" ]
		'
		continue
	fi
	d=$TMP/$v
	mkdir -p "$d"
	cp "$src"/arch/x86/kvm/pmu.c "$src"/arch/x86/kvm/pmu.h "$src"/arch/x86/include/asm/kvm_host.h \
	   "$src"/arch/x86/kvm/x86.c "$d/"
	got=$(spatch_on "$d")
	test_expect_success "$v (Debian's tree): '$want' (got '$got')" '
		case "$got" in "$want"*) ;; *) false ;; esac
	'
	if [ "${want%% *}" = NOT-APPLICABLE ]; then
		test_expect_success "$v: nothing changed" '
			cmp -s "$d/pmu.c" "$src/arch/x86/kvm/pmu.c" && cmp -s "$d/pmu.h" "$src/arch/x86/kvm/pmu.h" &&
			cmp -s "$d/kvm_host.h" "$src/arch/x86/include/asm/kvm_host.h" &&
			cmp -s "$d/x86.c" "$src/arch/x86/kvm/x86.c"
		'
		continue
	fi
	cp -r "$d" "$d.again"
	got=$(spatch_on "$d.again")
	test_expect_success "$v: a second run says ALREADY and changes nothing (got '$got')" '
		[ "$got" = ALREADY ] && diff -r "$d" "$d.again" > /dev/null
	'
done
done_testing
