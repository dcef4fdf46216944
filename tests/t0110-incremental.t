#!/bin/bash
# A second run is incremental: no download, no extraction, nothing rebuilt;
# after another series was applied (and not built), make runs again; after
# editing one patch only what it changes is rebuilt.  KCIDB's build object
# has no duration for the warm build (up to date: misc.up_to_date and its
# reason) and its duration for a build that ran make.
# tier: kernels
# lane: 1
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_INCREMENTAL_TARGET:-6.12}
plan 16

logs=results/$T/logs
# Whatever an earlier test left in the cache (another series, another
# config), this run makes the tree and the build this repository's.
test_expect_success "first make verify KERNEL=$T passes" '
	make --no-print-directory verify KERNEL=$T BOOT=own SKIP=sim > "$TMP/first.out" 2>&1 ||
	{ tail -n 20 "$TMP/first.out"; false; }
'
test_expect_success "warm make verify KERNEL=$T passes" '
	make --no-print-directory verify KERNEL=$T BOOT=own SKIP=sim FORMAT=kcidb > "$TMP/warm.out" 2>&1 ||
	{ tail -n 20 "$TMP/warm.out"; false; }
'
# KCIDB's build object: the build that compiled has its duration; the one
# that found it up to date ran no compiler, so it has none, only "valid",
# its reason and misc.up_to_date (tests/kcidb/check.py: the schema).
kcidb_build() {	# kcidb_build FILE: "DURATION VALID UP_TO_DATE COMMENT"
	/usr/bin/python3 tests/kcidb/check.py "$1" &&
	/usr/bin/python3 -c 'import json, sys
b = json.load(open(sys.argv[1]))["builds"][0]
print(b.get("duration", "-"), b.get("valid"), b["misc"].get("up_to_date", "-"), b.get("comment", "-")[:40])' "$1"
}
test_expect_success "KCIDB: the warm build, up to date, has no duration, its reason and misc.up_to_date" '
	kcidb_build results/$T/kcidb.json > "$TMP/kb" && cat "$TMP/kb" &&
	read -r d v u c < "$TMP/kb" && [ "$d" = - ] && [ "$v" = True ] && [ "$u" = True ] &&
	[ "${c#up to date: tree, .config}" != "$c" ]
'
test_expect_success 'fetch: cached, nothing downloaded' '
	grep -q -- "cached deb-" "$TMP/warm.out"
'
test_expect_success 'fetch ran neither apt-get download nor dpkg-deb' '
	! grep "apt-get.* download\|dpkg-deb" $logs/00-fetch.log
'
test_expect_success 'tree: reused' '
	grep -q -- "reused: source and series unchanged" "$TMP/warm.out"
'
test_expect_success 'build: up to date, make not run' '
	grep -q -- "up to date: tree, .config" "$TMP/warm.out"
'
test_expect_success 'the build log has no make command' - <<\EOT
	! grep -s '^\$ .*make' $logs/07-build.log
EOT

# A series applied in between and never built gives the patched files new
# mtimes, so make would compile them again: the build is no longer up to
# date, and the next build step runs make (without this, the bzImage check
# below compiles pmu.o and fails).
series=$(target_series $T)
# the knob's patch, whose comment the checks below edit
p1=$(grep -m1 Batch-counter-reprograms "$series/series")
between=$TMP/between
repo_copy "$between"
sed -i 's/^\(+ \* How many emulated instructions\)/\1 (applied, never built)/' "$between/$series/$p1"
test_expect_success 'another series applied and not built' '
	grep -q "applied, never built" "$between/$series/$p1" &&
	(cd "$between" && ./build/kverify --boot own verify \
		--skip sim,checkpatch,cocci,config,build,kabi,selftests,boot $T) > "$TMP/between.out" 2>&1
'
test_expect_success 'then this series: the build step runs make, and it passes' '
	make --no-print-directory verify KERNEL=$T BOOT=own SKIP=sim,checkpatch,cocci,selftests,boot FORMAT=kcidb > "$TMP/back.out" 2>&1 &&
	grep -q "^\$ .*make" $logs/07-build.log
'
test_expect_success "KCIDB: that build, which ran make, has its duration and is no build up to date" '
	kcidb_build results/$T/kcidb.json > "$TMP/kb" && cat "$TMP/kb" &&
	read -r d v u c < "$TMP/kb" && [ "$d" != - ] && [ "$v" = True ] && [ "$u" = - ] && [ "$c" = - ]
'

# The stamp covers the output: without the bzImage, make runs and only links.
test_expect_success 'make verify passes with the bzImage deleted' '
	rm "$KVERIFY_CACHE/build/$T/arch/x86/boot/bzImage" &&
	make --no-print-directory verify KERNEL=$T BOOT=own SKIP=sim,checkpatch,cocci,selftests,boot > "$TMP/rm.out" 2>&1 ||
	{ tail -n 20 "$TMP/rm.out"; false; }
'
test_expect_success 'make ran again, made the bzImage and compiled nothing' - <<\EOT
	grep -E '^  (CC|LD)' $logs/07-build.log | head &&
	grep -q 'bzImage is ready' $logs/07-build.log && ! grep -qE '^  CC  ' $logs/07-build.log
EOT

# Edit one patch (a comment line of the knob's) in a copy of the repository.
copy=$TMP/repo
repo_copy "$copy"
sed -i 's/^\(+ \* How many emulated instructions\)/\1 (edited)/' "$copy/$series/$p1"
test_expect_success "edited a comment line of $p1" '
	grep -q "How many emulated instructions (edited)" "$copy/$series/$p1"
'
# The semantic patch would rightly flag the edit (the series no longer
# writes what it writes), so the cocci step is skipped for this run.
test_expect_success "make verify passes after editing $p1" '
	(cd "$copy" && make --no-print-directory verify KERNEL=$T BOOT=own SKIP=sim,cocci,selftests,boot) > "$TMP/edit.out" 2>&1 ||
	{ tail -n 20 "$TMP/edit.out"; false; }
'
clogs=$copy/results/$T/logs
test_expect_success 'only pmu.o of arch/x86/kvm was recompiled' '
	grep -q "CC      arch/x86/kvm/pmu.o" $clogs/07-build.log &&
	! grep -q "CC      arch/x86/kvm/x86.o" $clogs/07-build.log
'
grep -E '^  CC' $clogs/07-build.log | head -20 | diag
done_testing
