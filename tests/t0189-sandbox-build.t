#!/bin/bash
# The tree's own Makefiles run in the sandbox: a series whose patches make
# arch/x86/kvm/Makefile (kbuild's M= build of Debian's flavour) and the
# KVM selftests' Makefile run commands still builds, but those commands run
# as nobody, write only the directories their step names (the module
# directories of the tree, the build directory), and read no file only root
# may read.  The 6.12 tree of the test cache, its modules built again
# against Debian's headers, the selftests' headers and binaries: 35 CPU-s
# where the cache has 6.12's modules built (lane 2 of make check-all runs
# it after t0100, t0185 and t0187), 187 from an empty one.
# tier: kernels
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=6.12
plan 6
P=$(cached_source $T) || exit 1
copy=$TMP/repo
repo_copy "$copy"
series=$(target_series $T)
tree=$KVERIFY_CACHE/trees/$T

# One command line for both Makefiles: who it ran as, what it could read,
# and whether it could write outside its step's directories.
# The marks' names are this run's own (a run without the sandbox leaves
# them behind where it could write).
tag=${TMP##*.}
plant() {	# plant FILE WHERE: append the command to Makefile FILE
	local id=${1//\//_}-$tag
	printf '\n$(shell id -u > %s/uid-%s; cat /etc/shadow > %s/leak-%s 2>/dev/null; touch %s/planted-%s %s/planted-%s 2>/dev/null)\n' \
		"$2" "$id" "$2" "$id" "$copy" "$id" "$KVERIFY_CACHE" "$id" >> "$TMP/b/$1"
}
kvm_mk=arch/x86/kvm/Makefile
st_mk=tools/testing/selftests/kvm/Makefile
for f in $kvm_mk $st_mk; do
	mkdir -p "$TMP/a/${f%/*}" "$TMP/b/${f%/*}"
	cp "$P/$f" "$TMP/a/$f"
	cp "$P/$f" "$TMP/b/$f"
done
plant $kvm_mk "$tree/arch/x86/kvm"
plant $st_mk /tmp
{ printf 'From: nobody\nSubject: [PATCH 7/7] make: plant\n\n---\n'
  (cd "$TMP" && diff -u a/$kvm_mk b/$kvm_mk; diff -u a/$st_mk b/$st_mk) ; } \
	> "$copy/$series/0007-plant.patch"
echo 0007-plant.patch >> "$copy/$series/series"

(cd "$copy" && ./build/kverify verify --skip sim,checkpatch,cocci,kabi,boot $T) \
	> "$TMP/out" 2>&1
vrc=$?
R=$copy/results/$T/report.json
test_expect_success 'the series with the planted Makefiles builds the modules and the selftests' '
	[ "$(step_status $R apply)" = PASS ] && [ "$(step_status $R build)" = PASS ] &&
	[ "$(step_status $R selftests)" = PASS ] && [ $vrc = 0 ]
'
test_expect_success 'the kvm Makefile ran, in the sandbox, as nobody when kverify is root' '
	u=$(cat "$tree/arch/x86/kvm/uid-arch_x86_kvm_Makefile-$tag") &&
	{ [ "$(id -u)" != 0 ] || [ "$u" = 65534 ]; }
'
test_expect_success 'and it read nothing only root may read (/etc/shadow)' '
	[ -e "$tree/arch/x86/kvm/leak-arch_x86_kvm_Makefile-$tag" ] &&
	! grep -q "^root:" "$tree/arch/x86/kvm/leak-arch_x86_kvm_Makefile-$tag"
'
test_expect_success 'and wrote nothing outside its module directories (repository, cache)' '
	[ ! -e "$copy/planted-arch_x86_kvm_Makefile-$tag" ] &&
	[ ! -e "$KVERIFY_CACHE/planted-arch_x86_kvm_Makefile-$tag" ]
'
test_expect_success 'the selftests Makefile wrote neither the repository nor the cache' '
	[ ! -e "$copy/planted-tools_testing_selftests_kvm_Makefile-$tag" ] &&
	[ ! -e "$KVERIFY_CACHE/planted-tools_testing_selftests_kvm_Makefile-$tag" ] &&
	[ ! -e /tmp/uid-tools_testing_selftests_kvm_Makefile-$tag ]
'
test_expect_success 'the pristine source stays root'"'"'s, its KVM files unchanged' '
	[ -z "$(find "$P/arch/x86/kvm" "$P/virt/kvm" ! -user "$(id -u)" -print -quit)" ] &&
	[ ! -e "$P/arch/x86/kvm/uid-arch_x86_kvm_Makefile-$tag" ]
'
rm -f "$tree"/arch/x86/kvm/uid-*-"$tag" "$tree"/arch/x86/kvm/leak-*-"$tag"
done_testing
