#!/bin/bash
# A cached source that changed is noticed: the fetch step records a
# manifest of the pristine tree (size, mtime and content hash per file),
# and checks sizes and mtimes on every later run and every hash with
# VERIFY_CACHE=1 or when anything looks off; a change is an ERROR naming
# the files, and the source is fetched again (#16).  And a tar: source is
# known by its content, not by its path, size and mtime.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 23
copy=$TMP/repo
repo_copy "$copy"
export KVERIFY_CACHE=$TMP/cache KVERIFY_SOURCES=$TMP/cache
pmu_fixture_series "$copy/backports/fix" 0001-fix.patch
pmu_fixture_tree "$TMP/t/linux"
printf 'int x86;\n' > "$TMP/t/linux/arch/x86/x86.c"
tar -C "$TMP/t" -cf "$TMP/linux.tar" linux
printf 'x tar:%s backports/fix\n' "$TMP/linux.tar" > "$copy/kernels.list"
R=$copy/results/x/report.json
reason() { json "$R" "[s['reason'] for s in r['steps'] if s['name']=='$1'][0]"; }
verify() {
	(cd "$copy" && build/kverify verify --skip sim,checkpatch,cocci,config,build,selftests,boot x) \
		> "$TMP/out" 2>&1
}

verify
vrc=$?
src=$(echo "$KVERIFY_CACHE"/src/tar-*/)
src=${src%/}
test_expect_success "the fetch records a manifest of the pristine tree (exit $vrc)" '
	tail -n 20 "$TMP/out" &&
	[ $vrc = 0 ] && [ -f "$src.manifest" ] && grep -q " lib/data.c$" "$src.manifest"
'
verify
vrc=$?
test_expect_success "a warm run checks it and reuses the tree (exit $vrc)" '
	[ $vrc = 0 ] && reason tree | grep -q "^reused" && ! grep -q ERROR "$TMP/out"
'

# A truncated pristine file (through the hard link the tree shares).
truncate -s 100 "$src/lib/data.c"
verify
vrc=$?
test_expect_success "a truncated file is an ERROR naming it, and the source is fetched again (exit $vrc)" '
	tail -n 20 "$TMP/out" &&
	[ $vrc = 0 ] && grep -q "ERROR: the cached source .* changed since it was fetched: lib/data.c (changed size: 100 bytes, 8893 recorded)" "$TMP/out" &&
	reason fetch | grep -q "^ERROR: .*lib/data.c.*; fetched again: fetched and unpacked tar-" &&
	! reason tree | grep -q "^reused"
'
test_expect_success 'the pristine file and the tree'\''s are whole again' '
	cmp -s "$src/lib/data.c" "$TMP/t/linux/lib/data.c" &&
	cmp -s "$KVERIFY_CACHE/trees/x/lib/data.c" "$TMP/t/linux/lib/data.c"
'
test_expect_success 'the series is applied to the fresh tree' '
	[ "$(step_status "$R" apply)" = PASS ] && grep -qx "int tolerance;" "$KVERIFY_CACHE/trees/x/arch/x86/kvm/pmu.c"
'
verify
test_expect_success 'the next run finds the source as recorded' '
	! grep -q ERROR "$TMP/out" && reason tree | grep -q "^reused"
'

# Steps skipped by option: apply has no tree to work on and says so.
(cd "$copy" && build/kverify verify --skip fetch,tree,sim,checkpatch,cocci,config,build,selftests,boot x) > "$TMP/out" 2>&1
vrc=$?
test_expect_success "--skip fetch,tree: apply is a SKIP with its reason, not a crash (exit $vrc)" '
	[ $vrc = 0 ] && [ "$(step_status "$R" apply)" = SKIP ] &&
	reason apply | grep -q "^no tree to apply the series to"
'

# Same size, same mtime, other bytes: only the full check sees it.
f=$src/arch/x86/x86.c
cp -p "$f" "$TMP/stamp"
printf 'int x87;\n' > "$f"
touch -r "$TMP/stamp" "$f"
verify
test_expect_success 'a same-size, same-mtime change passes the cheap check' '
	! grep -q ERROR "$TMP/out"
'
(export KVERIFY_VERIFY_CACHE=1; verify)
vrc=$?
test_expect_success "VERIFY_CACHE=1 hashes every file: ERROR naming it, fetched again (exit $vrc)" '
	[ $vrc = 0 ] && grep -q "changed since it was fetched: arch/x86/x86.c (changed content)" "$TMP/out" &&
	grep -qx "int x86;" "$f"
'

# A new file: its directory's mtime moves, the full check names it.
echo junk > "$src/arch/new.c"
verify
test_expect_success 'a file added to the source is noticed and the source fetched again' '
	grep -q "changed since it was fetched: arch/new.c (new)" "$TMP/out" && [ ! -e "$src/arch/new.c" ]
'

# Touched, not changed: the full check decides, and the record follows.
touch "$src/Makefile"
verify
vrc=$?
test_expect_success "a touched file with the same content is no ERROR; the manifest follows (exit $vrc)" '
	! grep -q ERROR "$TMP/out" && [ $vrc = 0 ] &&
	[ "$(grep " Makefile$" "$src.manifest" | cut -d" " -f3)" = "$(stat -c %.9Y "$src/Makefile")" ]
'

(export KVERIFY_VERIFY_CACHE=yes; verify)
vrc=$?
test_expect_success "VERIFY_CACHE=yes is refused (exit $vrc)" '
	[ $vrc = 2 ] && grep -q "VERIFY_CACHE=yes: VERIFY_CACHE is 0 or 1" "$TMP/out"
'

# tar: another tarball at the same path, same size and mtime, is another tree.
printf 'int pmu;\n' > "$TMP/t/linux/arch/x86/kvm/pmu.c"
printf 'int x86;\n' > "$TMP/t/linux/arch/x86/x86.c"
touch -d @1700000000 "$TMP/t/linux/arch/x86/x86.c"
tar --mtime=@1700000000 -C "$TMP/t" -cf "$TMP/k.tar" linux
touch -d @1700000000 "$TMP/k.tar"
printf 'k tar:%s n/a: fixture\n' "$TMP/k.tar" > "$copy/kernels.list"
(cd "$copy" && build/kverify verify --skip cocci k) > "$TMP/out" 2>&1
key1=$(json "$copy/results/k/report.json" 'r["source_key"]')
size1=$(stat -c %s "$TMP/k.tar")
printf 'int x87;\n' > "$TMP/t/linux/arch/x86/x86.c"
tar --mtime=@1700000000 -C "$TMP/t" -cf "$TMP/k.tar" linux
touch -d @1700000000 "$TMP/k.tar"
(cd "$copy" && build/kverify verify --skip cocci k) > "$TMP/out" 2>&1
vrc=$?
key2=$(json "$copy/results/k/report.json" 'r["source_key"]')
test_expect_success "a different tarball with the same path, size and mtime gets another key ($key1, $key2)" '
	[ $vrc = 0 ] && [ "$size1" = "$(stat -c %s "$TMP/k.tar")" ] && [ "$key1" != "$key2" ]
'
test_expect_success 'and its own content in the cache' '
	grep -qx "int x87;" "$KVERIFY_CACHE/src/$key2/arch/x86/x86.c"
'
test_expect_success 'no temporary directory is left' '
	[ -z "$(ls -A "$KVERIFY_CACHE/src" | grep "^\.tmp-")" ]
'
# A dir: source is the owner's to edit: an edit anywhere below its top is
# noticed by its manifest, and one that keeps a touched file's size and
# mtime by the tree's stamp (the pristine contents of the files the series
# touches); neither reuses the tree made from the old contents.
mkdir -p "$TMP/d" && cp -a "$TMP/t/linux" "$TMP/d/linux"
printf 'x dir:%s backports/fix\n' "$TMP/d/linux" > "$copy/kernels.list"
test_expect_success 'dir: a second run reuses the tree' '
	verify && verify && reason tree | grep -q "^reused" &&
	reason fetch | grep -q "using .* in place"
'
test_expect_success 'dir: an edit below its top (lib/data.c) is named and the tree made again' '
	echo 2001 >> "$TMP/d/linux/lib/data.c" &&
	verify && reason fetch | grep "changed since its last run (lib/data.c" &&
	reason tree | grep -q "^fresh tree" &&
	grep -qx 2001 "$KVERIFY_CACHE/trees/x/lib/data.c" &&
	verify && reason tree | grep -q "^reused"
'
test_expect_success 'dir: a same-size, same-mtime edit of a file the series touches: no stale tree, the series no longer applies' '
	f=$TMP/d/linux/arch/x86/kvm/pmu.c && cp -p "$f" "$TMP/stamp" &&
	printf "int pmv;\n" > "$f" && touch -r "$TMP/stamp" "$f" &&
	{ verify; vrc=$?; } && reason fetch &&
	! reason fetch | grep -q "changed since" &&
	! reason tree | grep -q "^reused" && [ $vrc = 1 ] &&
	[ "$(step_status "$R" apply)" = FAIL ]
'
# Modes and owners from a tarball do not survive into the cache.
test_expect_success 'tar: setuid, world-writable and foreign-owned members are ours, 0755 at most, in the cache' '
	rm -rf "$TMP/m" && mkdir -p "$TMP/m/linux/arch/x86/kvm" "$TMP/m/linux/tmpdir" &&
	echo "# fixture" > "$TMP/m/linux/Makefile" && printf "int pmu;\n" > "$TMP/m/linux/arch/x86/kvm/pmu.c" &&
	echo tool > "$TMP/m/linux/suid" && chmod 4755 "$TMP/m/linux/suid" &&
	echo open > "$TMP/m/linux/open" && chmod 0666 "$TMP/m/linux/open" && chmod 1777 "$TMP/m/linux/tmpdir" &&
	tar -C "$TMP/m" --owner=1234 --group=1234 -cf "$TMP/modes.tar" linux &&
	tar -tvf "$TMP/modes.tar" | grep -q "rwsr-xr-x 1234/1234" &&
	printf "x tar:%s backports/fix\n" "$TMP/modes.tar" > "$copy/kernels.list" &&
	verify && m=$(echo "$KVERIFY_CACHE"/src/tar-*/open) && m=${m%/open} && echo "$m" &&
	[ -f "$m/suid" ] && [ -z "$(find "$m" -perm /7022)" ] &&
	[ -z "$(find "$m" ! -uid "$(id -u)")" ] && [ "$(stat -c %a "$m/suid")" = 755 ] &&
	[ "$(stat -c %a "$m/open")" = 644 ] && [ "$(stat -c %a "$m/tmpdir")" = 755 ]
'
# A series file replaced while quilt is applying it: the tree holds the old
# patch, the file the new one.  The run must not stamp that tree, and the
# next run must make it again.  A quilt that applies, says so in the step's
# log, then waits, lets the test replace the patch at that moment.
mkdir -p "$copy/fakebin"
printf '#!/bin/sh\n/usr/bin/quilt "$@"\nrc=$?\necho quilt-applied\nsleep 4\nexit $rc\n' > "$copy/fakebin/quilt"
chmod 755 "$copy/fakebin/quilt"
printf "x dir:%s backports/fix\n" "$TMP/d/linux" > "$copy/kernels.list"
printf "int pmu;\n" > "$TMP/d/linux/arch/x86/kvm/pmu.c"
verify
sed -i "s/^+int tolerance;$/+int tolerance1;/" "$copy/backports/fix/0001-fix.patch"
(cd "$copy" && PATH=$copy/fakebin:$PATH build/kverify verify \
	--skip sim,checkpatch,cocci,config,build,selftests,boot x) > "$TMP/out" 2>&1 &
pid=$!
for i in $(seq 100); do
	grep -qs quilt-applied "$copy"/results/x/logs/*-apply.log && break
	sleep 0.1
done
sed -i "s/^+int tolerance1;$/+int tolerance2;/" "$copy/backports/fix/0001-fix.patch"
wait $pid
mrc=$?
test_expect_success 'a series file replaced while it is applied: that run FAILs, saying so' '
	grep -q "+int tolerance2;" "$copy/backports/fix/0001-fix.patch" && [ $mrc = 1 ] &&
	reason apply | grep -q "the series changed while it was being applied"
'
test_expect_success 'and the next run makes the tree again, with the patch as it is now' '
	verify && ! reason tree | grep -q "^reused" &&
	grep -qx "int tolerance2;" "$KVERIFY_CACHE/trees/x/arch/x86/kvm/pmu.c"
'
# A reused tree is checked, not believed: the files the series touches must
# be regular files with the content the apply step recorded.  What the
# sandbox (which writes the tree) could leave there makes the tree anew.
pmu=$KVERIFY_CACHE/trees/x/arch/x86/kvm/pmu.c
printf 'root-only\n' > "$TMP/root-only"
chmod 600 "$TMP/root-only"
rm -f "$pmu" && ln -s "$TMP/root-only" "$pmu"
test_expect_success 'a patched file left a symlink to a root-only file: the tree is made anew, the link is gone' '
	verify && ! reason tree | grep -q "^reused" && [ ! -L "$pmu" ] &&
	grep -qx "int tolerance2;" "$pmu" && [ "$(cat "$TMP/root-only")" = root-only ]
'
verify
cp -p "$pmu" "$TMP/pmu.c.kept"
sed -i "s/^int tolerance2;$/int tolerance3;/" "$pmu"
touch -r "$TMP/pmu.c.kept" "$pmu"
test_expect_success 'a patched file edited in the tree, same size and mtime: the tree is made anew' '
	reason tree | grep -q "^reused" &&
	verify && ! reason tree | grep -q "^reused" && grep -qx "int tolerance2;" "$pmu"
'
done_testing
