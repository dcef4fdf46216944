#!/bin/bash
# A full disk: with the cache on a small tmpfs, the step that hits ENOSPC
# fails and says so, and nothing half-written is trusted by a later run.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 6
small=$TMP/small
mkdir -p "$small"
if ! mount -t tmpfs -o size=200m,mode=0755 tmpfs "$small" 2> "$TMP/mount"; then
	for i in 1 2 3 4 5 6; do skip "full disk" "cannot mount a tmpfs here: $(head -n 1 "$TMP/mount")"; done
	exit 0
fi
trap '_rc=$?; umount "$small" 2>/dev/null; _tmp_end $_rc' EXIT
KVERIFY_CACHE=$small KVERIFY_SOURCES=$small "$KVERIFY" verify --results "$TMP/r" 5.10 > "$TMP/out" 2>&1
frc=$?
R=$TMP/r/5.10/report.json
test_expect_success "the fetch step is an ERROR on a full disk (exit $frc)" '
	[ $frc = 3 ] && [ "$(step_status $R fetch)" = ERROR ]
'
test_expect_success 'its reason says no space left on device' - <<\EOT
	json $R '[s["reason"] for s in r["steps"] if s["name"] == "fetch"][0]' &&
	json $R '[s["reason"] for s in r["steps"] if s["name"] == "fetch"][0]' | grep -q "no space left on device"
EOT
test_expect_success 'no tree was installed in the cache' '
	[ -z "$(ls "$small/src" 2>/dev/null | grep -v "^\.tmp-")" ]
'
KVERIFY_CACHE=$small KVERIFY_SOURCES=$small "$KVERIFY" verify --results "$TMP/r" 5.10 > "$TMP/out2" 2>&1
frc=$?
test_expect_success "a second run does not trust what the first left: it fails the same way (exit $frc)" '
	[ $frc = 3 ] && [ "$(step_status $R fetch)" = ERROR ] && [ "$(step_status $R cocci)" = SKIP ]
'

# A series changed to one the disk cannot take: the disk, not the patch,
# is to blame.  A dir: fixture of three files, on a 2 MB tmpfs cache.
tiny=$TMP/tiny
mkdir -p "$tiny" && mount -t tmpfs -o size=2m,mode=0755 tmpfs "$tiny"
trap '_rc=$?; umount "$small" "$tiny" 2>/dev/null; _tmp_end $_rc' EXIT
copy=$TMP/repo
repo_copy "$copy"
mkdir -p "$copy/backports/fix" "$TMP/d/linux/arch/x86/kvm"
echo '# fixture' > "$TMP/d/linux/Makefile"
printf 'int pmu;\n' > "$TMP/d/linux/arch/x86/kvm/pmu.c"
printf -- '--- a/arch/x86/kvm/pmu.c\n+++ b/arch/x86/kvm/pmu.c\n@@ -1 +1,2 @@\n int pmu;\n+int tolerance;\n' \
	> "$copy/backports/fix/0001-fix.patch"
echo 0001-fix.patch > "$copy/backports/fix/series"
printf 'x dir:%s backports/fix\n' "$TMP/d/linux" > "$copy/kernels.list"
verify_x() {
	(cd "$copy" && KVERIFY_CACHE=$tiny KVERIFY_SOURCES=$tiny build/kverify verify --results "$TMP/rx" \
		--skip sim,checkpatch,cocci,config,build,selftests,boot x) > "$TMP/out" 2>&1
}
verify_x
xrc=$?
test_expect_success 'a small series on the small disk applies' '
	[ $xrc = 0 ] && [ "$(step_status "$TMP/rx/x/report.json" apply)" = PASS ]
'
{ printf -- '--- /dev/null\n+++ b/arch/x86/kvm/big.c\n@@ -0,0 +1,60000 @@\n'
  seq -f '+/* line %g of a file the disk cannot hold */' 1 60000; } \
	> "$copy/backports/fix/0002-big.patch"
echo 0002-big.patch >> "$copy/backports/fix/series"
verify_x
xrc=$?
test_expect_success 'the series changed to one the disk cannot take: apply is an ERROR (exit 3), not a FAIL of the patch' '
	cat "$TMP/out" && [ $xrc = 3 ] && [ "$(step_status "$TMP/rx/x/report.json" apply)" = ERROR ] &&
	json "$TMP/rx/x/report.json" "[s[\"reason\"] for s in r[\"steps\"] if s[\"name\"] == \"apply\"][0]" |
		grep -q "no space left on device"
'
done_testing
