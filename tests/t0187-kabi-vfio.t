#!/bin/bash
# The kabi step beyond arch/x86/kvm: the modules whose sources include
# <linux/kvm_host.h> are found from the tree (drivers/vfio on amd64; the
# s390 and arm sources that include it are not built; arch/x86/events is
# in vmlinux, named as not rebuilt), their CRCs computed against Debian's
# headers by genksyms as kbuild runs it, with no compile (no drivers/vfio
# object is made), and compared, every one of Debian's for drivers/vfio.  A header mutant adding a field to
# struct kvm_arch (inside struct kvm, which vfio_file_set_kvm() takes)
# FAILS naming vfio_file_set_kvm, the structure and what to do; the same
# field at the end of the structure inside #ifndef __GENKSYMS__ passes.
# The variant's kabi.ignore accepts changes by module, each with its reason
# (the rest still fail); a line without a reason is bad input (exit 2).
#
# Cost: in lane 2, after t0100 and t0185 built the series' 6.12 modules
# in the same cache, the series is up to date; the two header variants
# are a module build of arch/x86/kvm and a genksyms pass over
# drivers/vfio each.
# tier: kernels
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=6.12
QUICK=sim,checkpatch,cocci,selftests,boot
plan 8
reason() { json "$1" "[s['reason'] for s in r['steps'] if s['name'] == '$2'][0]" 2>/dev/null; }
R=results/$T/report.json

test_expect_success "the series: kabi compares kvm's and drivers/vfio's CRCs, found from the tree, and names what is in vmlinux" '
	"$KVERIFY" --boot distro verify --skip $QUICK $T > "$TMP/out" 2>&1 &&
	reason $R kabi &&
	reason $R kabi | grep "^[0-9][0-9]* exported symbols of arch/x86/kvm.s modules: CRCs equal Debian.s [^ ]* Module.symvers, and [1-9][0-9]* of drivers/vfio.s, which include linux/kvm_host.h; arch/x86/events/intel/core.c includes linux/kvm_host.h too, in vmlinux, which is not rebuilt; export types and namespaces compared too: [1-9][0-9]* of arch/x86/kvm.s$" &&
	! reason $R kabi | grep -e s390 -e arm_sdei -e vfio_pci_zdev &&
	n=$(reason $R kabi | sed -n "s/.*, and \([0-9]*\) of drivers\/vfio.s, .*/\1/p") &&
	[ "$(wc -l < "$KVERIFY_CACHE/trees/$T/drivers/vfio/.kverify-kabi.symvers")" = "$n" ]
'

src=$(cached_source $T) || exit 1
series=$(target_series $T)
hdr=$src/arch/x86/include/asm/kvm_host.h
start=$(grep -n '^struct kvm_arch {$' "$hdr" | cut -d: -f1)
end=$(awk -v s="$start" 'NR > s && /^};$/ { print NR; exit }' "$hdr")
copy=$KVERIFY_CACHE/tests/t0187-repo
rm -rf "$copy"
repo_copy "$copy"

# variant NAME LINE TEXT: the series and a patch adding TEXT (lines) before
# line LINE of kvm_host.h, as target $T-NAME.
variant() {
	mkdir -p "$copy/tests-kabi"
	rm -rf "$copy/tests-kabi/$1"
	cp -r "$series" "$copy/tests-kabi/$1"
	python3 - "$hdr" "$2" "$3" "$copy/tests-kabi/$1/9999-kabi-vfio.patch" <<-\EOF
	import sys
	hdr, at, add, patch = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
	lines = open(hdr).read().split("\n")
	before, after = lines[at - 4:at - 1], lines[at - 1:at + 2]
	new = add.split("\n")
	text = "Subject: [PATCH] test fixture: struct kvm_arch\n\n---\n"
	text += "--- a/arch/x86/include/asm/kvm_host.h\n+++ b/arch/x86/include/asm/kvm_host.h\n"
	text += "@@ -%d,6 +%d,%d @@\n" % (at - 3, at - 3, 6 + len(new))
	text += "".join(" " + l + "\n" for l in before)
	text += "".join("+" + l + "\n" for l in new)
	text += "".join(" " + l + "\n" for l in after)
	open(patch, "w").write(text)
	EOF
	echo 9999-kabi-vfio.patch >> "$copy/tests-kabi/$1/series"
	printf '%s-%s\t%s\ttests-kabi/%s\n' "$T" "$1" \
		"$(grep "^$T[[:space:]]" kernels.list | awk '{print $2}')" "$1" >> "$copy/kernels.list"
}
variant field $((start + 1)) "$(printf '\tu64 kverify_kabi_vfio;')"
variant guarded $end "$(printf '#ifndef __GENKSYMS__\n\tu64 kverify_kabi_vfio;\n#endif')"
F=$copy/results/$T-field/report.json
G=$copy/results/$T-guarded/report.json

# Without its stamp (a cache where this ran before keeps it), the build
# step computes drivers/vfio's CRCs again, whether or not it compiles kvm.
test_expect_success "a field in struct kvm_arch: kabi FAILS, the build passes (exit 1); drivers/vfio's CRCs computed, no object of it made" '
	rm -f "$KVERIFY_CACHE/build/$T-field-debian-kbuild/.kverify-kabi-dirs.stamp" &&
	touch "$TMP/mark" &&
	(cd "$copy" && ./build/kverify --boot distro verify --skip $QUICK $T-field) > "$TMP/field.out" 2>&1
	rc=$?
	tail -n 5 "$TMP/field.out" | cut -c1-400 &&
	[ $rc = 1 ] && [ "$(step_status $F build)" = PASS ] && [ "$(step_status $F kabi)" = FAIL ] &&
	vfio=$KVERIFY_CACHE/trees/$T-field/drivers/vfio &&
	[ "$vfio/.kverify-kabi.symvers" -nt "$TMP/mark" ] &&
	grep -q "CPP \[M\] .*/drivers/vfio/vfio_main\.i$" "$copy/results/$T-field/logs/"*-build.log &&
	[ -z "$(find "$vfio" -name "*.o" -newer "$TMP/mark")" ]
'

test_expect_success "the FAIL names vfio_file_set_kvm outside arch/x86/kvm, the structure, and the __GENKSYMS__ guard" '
	reason $F kabi | grep "; outside arch/x86/kvm: .*vfio_file_set_kvm (drivers/vfio/vfio)" &&
	reason $F kabi | grep "; the series changes struct kvm_arch (arch/x86/include/asm/kvm_host.h); what to do: keep new state out of structures that exported functions reach .* #ifndef __GENKSYMS__" &&
	json $F "[s[\"detail\"] for s in r[\"steps\"] if s[\"name\"] == \"kabi\"][0]" | grep "^changed vfio_file_set_kvm: Debian 0x[0-9a-f]*, ours 0x[0-9a-f]* (drivers/vfio/vfio)$"
'

test_expect_success "the same field at the end of struct kvm_arch inside #ifndef __GENKSYMS__: kabi PASSES, vfio included" '
	(cd "$copy" && ./build/kverify --boot distro verify --skip $QUICK $T-guarded) > "$TMP/guarded.out" 2>&1 &&
	reason $G kabi | grep "CRCs equal .*, and [1-9][0-9]* of drivers/vfio.s"
'

test_expect_success 'a header mutant is no bad input: the field variant exits 1, not 2' '
	(cd "$copy" && test_expect_code 1 ./build/kverify --boot distro verify --skip $QUICK $T-field)
'

# The series' kabi.ignore: changes Debian's kernel team would accept, each
# with its reason, as debian/config's ignore-changes lists them.
ign=$copy/tests-kabi/field/kabi.ignore
test_expect_success "kabi.ignore accepting drivers/vfio only: kabi still FAILS on kvm's CRCs, and names the vfio ones accepted and why" '
	printf "# what this variant may change\nmodule:drivers/vfio/*\tvfio is rebuilt with kvm in this test\n" > "$ign" &&
	{ (cd "$copy" && ./build/kverify --boot distro verify --skip $QUICK $T-field) > "$TMP/ign1.out" 2>&1; [ $? = 1 ]; } &&
	[ "$(step_status $F kabi)" = FAIL ] && reason $F kabi | cut -c1-300 &&
	reason $F kabi | grep "; [1-9][0-9]* change(s) accepted by tests-kabi/field/kabi.ignore: [a-z_]* (vfio is rebuilt with kvm in this test)" &&
	grep "^ignored changed vfio_file_set_kvm (drivers/vfio/vfio): vfio is rebuilt with kvm in this test$" "$copy/results/$T-field/logs/"*-kabi.log &&
	! reason $F kabi | grep "; outside arch/x86/kvm: " &&
	reason $F kabi | grep "^kABI broken against [^:]*: [1-9][0-9]* changed CRC(s): "
'
test_expect_success "kabi.ignore accepting the kvm modules too: kabi PASSES, saying what it accepted; the build is not redone" '
	printf "module:arch/x86/kvm/*\tthe field of this test, which no module outside kvm allocates\n" >> "$ign" &&
	(cd "$copy" && ./build/kverify --boot distro verify --skip $QUICK $T-field) > "$TMP/ign2.out" 2>&1 &&
	[ "$(step_status $F kabi)" = PASS ] &&
	reason $F build | grep "^up to date" &&
	reason $F kabi | grep "; [1-9][0-9]* change(s) accepted by tests-kabi/field/kabi.ignore: "
'
test_expect_success "a kabi.ignore line without its reason: exit 2, naming the file and line, before any step" '
	printf "vfio_file_set_kvm\n" >> "$ign" && rm -f "$F" &&
	{ (cd "$copy" && ./build/kverify --boot distro verify --skip $QUICK $T-field) > "$TMP/ign3.out" 2>&1; [ $? = 2 ]; } &&
	cat "$TMP/ign3.out" &&
	grep -q "tests-kabi/field/kabi.ignore:4: .vfio_file_set_kvm. has no reason: write the pattern" "$TMP/ign3.out" &&
	[ ! -e "$F" ]
'
rm -f "$ign"
done_testing
