#!/bin/bash
# A missing tool is named with the Debian package that provides it: quilt,
# spatch, gcc (the sim's), qemu-system-x86_64, b4 and busybox (which must
# also be static); the step that lacks it is an ERROR (exit 3), not a FAIL
# of the patch.
# tier: kernels
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_APPLY_TARGET:-6.12}
plan 12
copy=$TMP/repo
repo_copy "$copy"

# path_without TOOL...: a directory of links to everything on $PATH but
# TOOL, the first of each name as $PATH finds it.  One ln for all: an ln
# a program took ~20 CPU-s a call (~2,400 programs).
path_without() {
	local bin=$TMP/bin-$1 d f
	local -A seen=()
	local targets=()
	for f in "$@"; do seen[$f]=1; done
	rm -rf "$bin" && mkdir -p "$bin"
	for d in ${PATH//:/ }; do
		for f in "$d"/*; do
			[ -x "$f" ] && [ -z "${seen[${f##*/}]-}" ] || continue
			seen[${f##*/}]=1
			targets+=("$f")
		done
	done
	ln -s -t "$bin" -- "${targets[@]}" && echo "$bin"
}

bin=$(path_without quilt spatch)
# $T under a name of this script's, whose tree is made anew, so that apply
# runs quilt (a tree an earlier run left is reused without it).
grep -E "^$T[[:space:]]" "$copy/kernels.list" | sed "s/^$T/t0150-apply/" > "$copy/apply.list"
rm -rf "$KVERIFY_CACHE/trees/t0150-apply" "$KVERIFY_CACHE/trees/t0150-apply".*
(cd "$copy" && PATH=$bin ./build/kverify --list apply.list verify --skip sim,checkpatch,config,build,selftests,boot t0150-apply) > "$TMP/out" 2>&1
test_expect_success 'apply: quilt is named with its package' - <<\EOT
	grep -q "quilt not found: install it with 'apt-get install quilt'" "$TMP/out" ||
	{ tail -n 20 "$TMP/out"; false; }
EOT
(cd "$copy" && PATH=$bin ./build/kverify verify --skip tree,apply,sim,checkpatch,config,build,selftests,boot $T) > "$TMP/out" 2>&1
test_expect_success 'cocci: spatch is named with its package' - <<\EOT
	grep -q "spatch not found: install it with 'apt-get install coccinelle'" "$TMP/out" ||
	{ tail -n 20 "$TMP/out"; false; }
EOT

# The boot step, with the kernel and the selftests built by an earlier run.
bin=$(path_without qemu-system-x86_64)
(cd "$copy" && PATH=$bin ./build/kverify verify --skip sim,checkpatch,cocci $T) > "$TMP/out" 2>&1
rc=$?
test_expect_success 'boot: qemu-system-x86_64 is named with its package' - <<\EOT
	grep -q "qemu-system-x86_64 not found: install it with 'apt-get install qemu-system-x86'" "$TMP/out" ||
	{ tail -n 20 "$TMP/out"; false; }
EOT
test_expect_success "and the run exits 3 (exit $rc), the boot step ERROR (a missing tool is not the patch's fault)" '
	[ $rc = 3 ] && [ "$(step_status "$copy/results/$T/report.json" boot)" = ERROR ]
'

(cd "$copy" && KVERIFY_BUSYBOX=$TMP/no-busybox ./build/kverify verify --skip sim,checkpatch,cocci $T) > "$TMP/out" 2>&1
test_expect_success 'boot: a missing busybox is named with busybox-static' - <<\EOT
	grep -q "$TMP/no-busybox not found: install it with 'apt-get install busybox-static'" "$TMP/out" ||
	{ tail -n 20 "$TMP/out"; false; }
EOT
# Debian's busybox package is dynamic; the initramfs has no libraries.
(cd "$copy" && KVERIFY_BUSYBOX=/bin/ls ./build/kverify verify --skip sim,checkpatch,cocci $T) > "$TMP/out" 2>&1
bbrc=$?
test_expect_success 'boot: a dynamic busybox is refused, busybox-static named' '
	grep -q "/bin/ls is not a static x86_64 executable.*apt-get install busybox-static" "$TMP/out" ||
	{ tail -n 20 "$TMP/out"; false; }
'
test_expect_success 'and neither gen_init_cpio nor QEMU ran' '
	! grep -s "gen_init_cpio\|qemu-system" "$copy/results/$T/logs/10-boot.log"
'
test_expect_success "and the boot step is an ERROR, the run exits 3 (the machine's busybox, not the patch: exit $bbrc)" '
	[ $bbrc = 3 ] && [ "$(step_status "$copy/results/$T/report.json" boot)" = ERROR ]
'

# The sim compiles the tree's vPMU code with the host's gcc.
bin=$(path_without gcc)
(cd "$copy" && PATH=$bin ./build/kverify verify --skip checkpatch,cocci,config,build,kabi,selftests,boot $T) > "$TMP/out" 2>&1
simrc=$?
test_expect_success "sim: gcc missing is named with its package, an ERROR, exit 3 (exit $simrc)" '
	grep -q "gcc not found: install it with .apt-get install gcc." "$TMP/out" &&
	[ $simrc = 3 ] && [ "$(step_status "$copy/results/$T/report.json" sim)" = ERROR ]
'

bin=$(path_without b4)
(cd "$copy" && PATH=$bin ./build/kverify send --env) > "$TMP/out" 2>&1
test_expect_success 'send: b4 is named with its package' - <<\EOT
	grep -q "b4 not found: install it with 'apt-get install b4'" "$TMP/out" ||
	{ tail -n 20 "$TMP/out"; false; }
EOT

# Debian built 7.3 with trixie's gcc-14, which bookworm lacks: without
# mmdebstrap no chroot of trixie can be made.  The config step alone.
bin=$(path_without mmdebstrap)
NOBUILD=sim,checkpatch,cocci,build,kabi,selftests,boot
R73=$copy/results/7.3/report.json
if command -v x86_64-linux-gnu-gcc-14 > /dev/null; then
	skip "BOOT=auto without mmdebstrap" "gcc-14 is installed here"
	skip "BOOT=distro without mmdebstrap" "gcc-14 is installed here"
else
	test_expect_success "BOOT=auto, 7.3, no mmdebstrap: our own kernel, and boot_why names mmdebstrap" '
		(cd "$copy" && PATH=$bin ./build/kverify verify --skip $NOBUILD 7.3) &&
		[ "$(json $R73 "r[\"boot\"]")" = own ] &&
		json $R73 "r[\"boot_why\"]" | grep "gcc-14-for-host .*not installed here, and mmdebstrap not found: install it with .apt-get install mmdebstrap."
	'
	test_expect_success "BOOT=distro, 7.3, no mmdebstrap: config ERROR naming it, exit 3" '
		(cd "$copy" && PATH=$bin ./build/kverify verify --boot distro --skip $NOBUILD 7.3)
		[ $? = 3 ] && [ "$(step_status $R73 config)" = ERROR ] &&
		json $R73 "[s[\"reason\"] for s in r[\"steps\"] if s[\"name\"] == \"config\"][0]" | grep "mmdebstrap not found"
	'
fi
done_testing
