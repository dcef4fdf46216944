#!/bin/bash
# FLAVOURS=amd64,rt-amd64: the patched KVM modules are built against each
# flavour's own headers (rt-amd64's .config has PREEMPT_RT), kABI-checked
# against that flavour's own Module.symvers and booted on that flavour's
# image, each flavour with its rows in report.json and junit.xml.  A
# fixture variant adding a field to struct kvm_pmc, an exported structure,
# must fail the kabi row of both.  FLAVOURS= that names no flavour Debian
# builds, or does not start with amd64, is bad input.
#
# Cost: the amd64 rows as t0185 (shared cache: warm after it, the fixture
# is t0185's own); rt-amd64 cold: its image and headers (about 110 MB)
# downloaded and unpacked once, the modules built and drivers/vfio's CRCs
# computed twice (the series, the fixture), one TCG boot.  Measured on 2 loaded cores:
# 355 s with rt-amd64 cold and amd64 warm, 37 s warm.
# tier: kernels
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=6.12
QUICK=sim,checkpatch,cocci
plan 10
reason() { json "$1" "[s['reason'] for s in r['steps'] if s['name'] == '$2'][0]" 2>/dev/null; }
R=results/$T/report.json

test_expect_success "make verify KERNEL=$T BOOT=distro FLAVOURS=amd64,rt-amd64 passes, with a config, build, kabi and boot row per flavour" '
	make --no-print-directory verify KERNEL=$T BOOT=distro SKIP=$QUICK \
		FLAVOURS=amd64,rt-amd64 > "$TMP/out" 2>&1 &&
	statuses=$(json $R "\" \".join(s[\"name\"] + \"=\" + s[\"status\"] for s in r[\"steps\"])") &&
	echo "$statuses" &&
	want="fetch=PASS tree=PASS apply=PASS sim=SKIP checkpatch=SKIP cocci=SKIP config=PASS build=PASS kabi=PASS selftests=PASS boot=PASS config:rt-amd64=PASS build:rt-amd64=PASS kabi:rt-amd64=PASS" &&
	{ [ "$statuses" = "$want boot:rt-amd64=PASS" ] ||
	  [ "$statuses" = "$want boot:rt-amd64=SKIP" ]; }
'

abi=$(json $R 'r["kernel"]' 2>/dev/null)
abi=${abi%-amd64}
test_expect_success "each kabi row compares with its own flavour's Module.symvers ($abi)" '
	reason $R kabi | grep "^[0-9][0-9]* exported symbols of arch/x86/kvm.s modules: CRCs equal Debian.s $abi-amd64 Module.symvers, and [1-9][0-9]* of drivers/vfio.s" &&
	reason $R kabi:rt-amd64 | grep "^[0-9][0-9]* exported symbols of arch/x86/kvm.s modules: CRCs equal Debian.s $abi-rt-amd64 Module.symvers, and [1-9][0-9]* of drivers/vfio.s"
'

test_expect_success "rt-amd64 builds against the rt headers: PREEMPT_RT in its objtree, the vermagic of Debian's own rt kvm.ko" '
	kbuild=$KVERIFY_CACHE/build/$T-debian@rt-amd64-kbuild &&
	grep -x "CONFIG_PREEMPT_RT=y" "$kbuild/.config" &&
	! grep -x "CONFIG_PREEMPT_RT=y" "$KVERIFY_CACHE/build/$T-debian-kbuild/.config" &&
	ours=$(modinfo -F vermagic "$KVERIFY_CACHE/trees/$T@rt-amd64/arch/x86/kvm/kvm.ko") &&
	theirs=$(modinfo -F vermagic "$(find "$SOURCES/debian/$abi-rt-amd64_"*/lib/modules -name kvm.ko.xz)") &&
	echo "ours: $ours; Debian rt: $theirs" &&
	[ "$ours" = "$theirs" ] && case $ours in "$abi-rt-amd64 "*) ;; *) false ;; esac &&
	reason $R config:rt-amd64 | grep "^Debian.s $abi-rt-amd64: linux-image-$abi-rt-amd64"
'

# The two flavours' Module.symvers differ (PREEMPT_RT changes structures
# the prototypes reach): a kabi row compared with the other flavour's would
# fail, so each PASS says its own build matched its own flavour.
test_expect_success "Debian's amd64 and rt-amd64 CRCs of arch/x86/kvm differ, so each kabi PASS is its own flavour's" '
	for f in amd64 rt-amd64; do
		awk "\$3 ~ /arch\/x86\/kvm/ { print \$2, \$1 }" \
			"$SOURCES"/debian/*_*/usr/src/linux-headers-$abi-$f/Module.symvers |
			sort > "$TMP/$f.crc" || return 1
	done &&
	n=$(comm -3 "$TMP/amd64.crc" "$TMP/rt-amd64.crc" | wc -l) &&
	echo "$n lines differ" && [ "$n" -gt 0 ]
'

# Under TCG no guest has a constant TSC, and 6.12's KVM refuses PREEMPT_RT
# without one: the boot SKIPs, saying so; with KVM it runs the tests.
test_expect_success "boot:rt-amd64 booted the rt image and loaded the patched kvm.ko (its tests: PASS with KVM, SKIP with the reason under TCG)" '
	reason $R boot:rt-amd64 | grep "booted Debian.s $abi-rt-amd64 (linux-image-$abi-rt-amd64" &&
	grep "Linux version $abi-rt-amd64 .*PREEMPT_RT" results/$T/rt-amd64/console.log &&
	grep "^# insmod kvm " results/$T/rt-amd64/console.log &&
	case $(step_status $R boot:rt-amd64) in
	PASS) ;;
	SKIP) reason $R boot:rt-amd64 | grep "^KVM does not start under PREEMPT_RT without a constant TSC, which TCG cannot give the guest .*: the image booted and loaded the patched kvm.ko (9 parameter checks passed), no test could open /dev/kvm; .*; tcg" ;;
	*) false ;;
	esac
'

test_expect_success "junit.xml has a testcase per flavour row" '
	python3 - results/$T/junit.xml <<-\EOF
	import sys, xml.etree.ElementTree as ET
	names = [c.get("name") for c in ET.parse(sys.argv[1]).iter("testcase")]
	for n in ("kabi", "kabi:rt-amd64", "build:rt-amd64", "boot:rt-amd64"):
	    assert n in names, (n, names)
	EOF
'

# A field added to struct kvm_pmc, which the exported functions' prototypes
# reach through struct kvm_vcpu: both flavours' CRCs move.
copy=$KVERIFY_CACHE/tests/t0186-repo
rm -rf "$copy"
repo_copy "$copy"
series=$(json $R 'r["series"]')
# The very fixture of t0185 (the same bytes, so the same tree: its amd64
# module build is reused when t0185 ran first in this cache).
kabi_pmc_variant "$copy" "$series" "$T"
K=$copy/results/$T-kabi/report.json

test_expect_success "one more field in struct kvm_pmc: kabi and kabi:rt-amd64 both FAIL, the builds pass (exit 1)" '
	(cd "$copy" && ./build/kverify --boot distro --flavours amd64,rt-amd64 \
		verify --skip $QUICK,selftests,boot $T-kabi) > "$TMP/kabi.out" 2>&1
	rc=$?
	tail -n 12 "$TMP/kabi.out" &&
	[ $rc = 1 ] &&
	[ "$(step_status $K build)" = PASS ] && [ "$(step_status $K build:rt-amd64)" = PASS ] &&
	[ "$(step_status $K kabi)" = FAIL ] && [ "$(step_status $K kabi:rt-amd64)" = FAIL ]
'

test_expect_success "each FAIL names its flavour's Module.symvers and the changed symbols" '
	reason $K kabi | grep "^kABI broken against Debian.s $abi-amd64 Module.symvers: [0-9][0-9]* changed CRC(s): _*kvm_" &&
	reason $K kabi:rt-amd64 | grep "^kABI broken against Debian.s $abi-rt-amd64 Module.symvers: [0-9][0-9]* changed CRC(s): _*kvm_" &&
	json $K "[s[\"detail\"] for s in r[\"steps\"] if s[\"name\"] == \"kabi:rt-amd64\"][0]" | grep "^changed _*kvm_"
'

test_expect_success 'FLAVOURS=amd64,foo-amd64: not a flavour Debian builds, exit 2' '
	test_expect_code 2 make --no-print-directory verify KERNEL=$T FLAVOURS=amd64,foo-amd64
'
test_expect_success '--flavours rt-amd64 (amd64 not first): exit 2' '
	test_expect_code 2 "$KVERIFY" --flavours rt-amd64 verify $T
'
done_testing
