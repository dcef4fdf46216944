#!/bin/bash
# make debian-patches into a checkout shaped as the linux package's debian/
# tree (debian/changelog, debian/control, debian/patches/series with the
# package's section comments), for 6.12, 6.1 (the fixes series) and 7.3:
# the patches land in debian/patches/bugfix/x86/ under their Debian names,
# their lines in the "# Arch bug fixes" section, the entry in
# debian/changelog through dch; `quilt push -a --fuzz=0` applies them to
# Debian's own files of that linux-source; a `gbp pq import` + `gbp pq
# export` round trip changes each patch by one line only, the blank line
# gbp writes after Subject: (below, why), and the series file by its
# comment lines only; lintian on the source package says nothing of the
# patches, and its DEP-3 check is shown live on a patch it must flag.
# Cost: 20 to 26 s wall, 10.5 to 12.7 CPU-s on 2 shared cores (sources cached).
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 8
for tool in quilt gbp dch dpkg-source lintian; do
	command -v $tool > /dev/null && continue
	for i in 1 2 3 4 5 6 7 8; do
		skip "the round trip" "$tool is not installed (make deps: quilt, git-buildpackage, devscripts, dpkg-dev, lintian)"
	done
	done_testing
done
test_identity
copy=$TMP/repo
repo_copy "$copy"
repo_fromless "$copy"

# pkgtree T DIR VERSION: DIR, a linux source tree of Debian's files that
# T's series touches (the orig tarball beside it) with a debian/ tree as
# the linux package has it: its changelog, control, source format, rules
# and a series file of sections and no patch yet.
pkgtree() {
	local t=$1 dir=$2 ver=$3 src rel f
	src=$(cached_source "$t") || return 1
	rel=$(cd "$copy" && ./build/kverify list | awk -v t="$t" '$1 == t { print $3 }')
	mkdir -p "$dir" || return 1
	for f in $(grep -h "^diff --git a/" "$copy/$rel"/*.patch | awk '{ print substr($3, 3) }' | sort -u); do
		[ -f "$src/$f" ] || continue	# the selftest's files: not carried
		mkdir -p "$dir/$(dirname "$f")" && cp "$src/$f" "$dir/$f" || return 1
	done
	(cd "$(dirname "$dir")" && tar -cJf "linux_$ver.orig.tar.xz" "$(basename "$dir")") || return 1
	mkdir -p "$dir/debian/source" "$dir/debian/patches" &&
	echo "3.0 (quilt)" > "$dir/debian/source/format" &&
	printf 'linux (%s-1) UNRELEASED; urgency=medium\n\n  * New upstream stable update.\n\n -- %s  %s\n' \
		"$ver" "$sender" "$(date -R)" > "$dir/debian/changelog" &&
	printf 'Source: linux\nSection: kernel\nPriority: optional\nMaintainer: %s\nStandards-Version: 4.6.2\nRules-Requires-Root: no\nBuild-Depends: debhelper-compat (= 13)\n\nPackage: linux-kverify-test\nArchitecture: all\nDescription: test package for the patches\n A minimal source package: the files the patches touch.\n' \
		"$sender" > "$dir/debian/control" &&
	printf '#!/usr/bin/make -f\n%%:\n\tdh $@\n' > "$dir/debian/rules" && chmod +x "$dir/debian/rules" &&
	printf '# Disable features broken by upstream\n\n# Arch bug fixes\n\n# Miscellaneous bug fixes\n' \
		> "$dir/debian/patches/series"
}

# export T DIR: make debian-patches DEST=DIR KERNEL=T BUG=1234567.
export_into() {
	(cd "$copy" && KVERIFY_DEST=$2 KVERIFY_TARGETS=$1 KVERIFY_BUG_DEBIAN=1234567 \
		KVERIFY_CACHE=$TMP/cache ./build/kverify debian-patches --env)
}

# roundtrip DIR: quilt, then gbp pq on a git copy; 0 when each step holds.
roundtrip() {
	local d=$1 g=$1.gbp f n
	(cd "$d" && QUILT_PATCHES=debian/patches QUILT_PC=.pc quilt push -a --fuzz=0 &&
	 QUILT_PATCHES=debian/patches QUILT_PC=.pc quilt pop -a -q) > "$d.quilt" 2>&1 ||
		{ cat "$d.quilt"; return 1; }
	cp -a "$d" "$g" &&
	(cd "$g" && git init -q -b master . && git add -A && git commit -qm import &&
	 gbp pq import && gbp pq export) > "$d.gbp.log" 2>&1 || { cat "$d.gbp.log"; return 1; }
	n=$(grep -vc "^#\|^\$" "$d/debian/patches/series")
	grep -q "$n patches listed in .debian/patches/series. imported" "$d.gbp.log" || { cat "$d.gbp.log"; return 1; }
	# gbp writes From:, Date: and Subject: as the mail header and the rest
	# of the message after a blank line (gbp 0.9.30, scripts/common/pq.py,
	# write_patch_file()): the DEP-3 fields, which the export keeps in the
	# first paragraph with Subject: (the fields of the mail header, as
	# DEP-3 has them), come back as the paragraph right after it: that
	# blank line is the one line gbp adds to a patch.  It also renders the
	# diffstat anew, at --stat=80 where git format-patch used 72 columns
	# (pq.py, write_patch_file(): repo.diff(..., stat=80)): the same
	# files and counts, drawn wider.  Nothing else may change.
	/usr/bin/python3 - "$d/debian/patches/bugfix/x86" "$g/debian/patches/bugfix/x86" <<-\PY || return 1
	import os, re, sys
	def parts(path):
	    text = open(path).read()
	    head, rest = text.split("\n---\n", 1)
	    stat, diff = rest.split("\ndiff --git ", 1)
	    total = [l for l in stat.split("\n") if " changed" in l]
	    files = sorted(re.sub(r"\s*\|\s*(\d+).*", r" \1", l).strip()
	                   for l in stat.split("\n") if "|" in l)
	    diff = [l for l in diff.split("\n") if not l.startswith("index ")]
	    return head, total, files, diff
	for name in sorted(os.listdir(sys.argv[1])):
	    a = parts(os.path.join(sys.argv[1], name))
	    b = parts(os.path.join(sys.argv[2], name))
	    want = re.sub(r"^(Subject: [^\n]*\n(?: [^\n]*\n)*)", r"\1\n", a[0], count=1, flags=re.M)
	    assert b[0] == want, (name, "header", a[0], b[0])
	    assert a[1] == b[1], (name, "diffstat total", a[1], b[1])
	    assert len(a[2]) == len(b[2]), (name, "diffstat files")
	    assert [f.split()[-1] for f in a[2]] == [f.split()[-1] for f in b[2]], (name, "counts")
	    assert a[3] == b[3], (name, "diff")
	    print(name, "gbp pq: + 1 blank line after Subject:, diffstat redrawn")
	PY
	# The series file: gbp writes the queue's patches and drops comments.
	diff <(grep -v "^#\|^\$" "$d/debian/patches/series") "$g/debian/patches/series" || return 1
	return 0
}

test_expect_success '6.12 into the linux package checkout: patches, series lines in "# Arch bug fixes", the changelog entry through dch' '
	d=$TMP/p612/linux-6.12.57 && pkgtree 6.12 "$d" 6.12.57 &&
	export_into 6.12 "$d" > "$TMP/e612.out" 2>&1; rc=$?; cat "$TMP/e612.out" && [ $rc = 0 ] &&
	cat "$d/debian/patches/series" "$d/debian/changelog" &&
	[ "$(ls "$d"/debian/patches/bugfix/x86/ | wc -l)" = 5 ] &&
	sed -n "/^# Arch bug fixes\$/,/^\$/p" "$d/debian/patches/series" | grep -c "^bugfix/x86/kvm-x86-" | grep -qx 5 &&
	grep -qx "bugfix/x86/kvm-x86-pmu-batch-counter-reprograms-for-emulated-instructions.patch" "$d/debian/patches/series" &&
	tail -n 1 "$d/debian/patches/series" | grep -qx "# Miscellaneous bug fixes" &&
	grep -qx "  \* \[x86\] KVM: x86/pmu: Re-period a running counter from the value the" "$d/debian/changelog" &&
	grep -qx "    guest wrote (Closes: #1234567)" "$d/debian/changelog" &&
	grep -qx "  \* \[x86\] KVM: x86/pmu: Batch counter reprograms for emulated" "$d/debian/changelog" &&
	grep -qx "  \* New upstream stable update." "$d/debian/changelog" &&
	[ "$(grep -c "^linux (" "$d/debian/changelog")" = 1 ] &&
	dpkg-parsechangelog -l "$d/debian/changelog" -S Closes | grep -qx 1234567
'
test_expect_success '6.12: quilt push -a --fuzz=0, then gbp pq import/export: one blank line after Subject: per patch, the series file less its comments' '
	roundtrip "$TMP/p612/linux-6.12.57"
'
test_expect_success '6.12: a second export into the same checkout is refused (exit 2), nothing changed' '
	d=$TMP/p612/linux-6.12.57 && cp "$d/debian/patches/series" "$TMP/series.before" &&
	export_into 6.12 "$d" > "$TMP/again.out" 2>&1; rc=$?; cat "$TMP/again.out" && [ $rc = 2 ] &&
	grep -q "exists: the package carries it already" "$TMP/again.out" &&
	cmp "$d/debian/patches/series" "$TMP/series.before"
'
test_expect_success 'lintian on the 6.12 source package: nothing of the patches' '
	(cd "$TMP/p612" && dpkg-source -b linux-6.12.57 && lintian --no-cfg -I --pedantic linux_6.12.57-1.dsc) > "$TMP/lintian.out" 2>&1; rc=$?
	echo "lintian exit $rc" && cat "$TMP/lintian.out" && ls "$TMP/p612/linux_6.12.57-1.dsc" &&
	grep -q "^[EWIPX]: linux source: " "$TMP/lintian.out" &&
	! grep "^[EWIPX]: .*patch" "$TMP/lintian.out"
'
# Lintian's DEP-3 check (Lintian/Check/Debian/Patches/Dep3.pm) reads the
# text before the first "---" as deb822 and leaves a patch alone when
# that fails: a free-text message, which every git format-patch patch has,
# stops it.  Shown live here on a patch it does read: a header of fields
# and "Forwarded: no" must give patch-not-forwarded-upstream; the same
# rule on our patches' own header paragraph is the posted/not-posted row
# of t0061.
test_expect_success 'lintian DEP-3 check is live: a header-only "Forwarded: no" patch is flagged' '
	m=$TMP/mut/linux-6.12.57 && mkdir -p "$TMP/mut" && cp -a "$TMP/p612/linux-6.12.57" "$m" &&
	cp "$TMP/p612/linux_6.12.57.orig.tar.xz" "$TMP/mut/" && rm -rf "$m/.pc" &&
	printf "Description: a fixture patch, not forwarded\nAuthor: %s\nForwarded: no\nLast-Update: 2026-12-06\n---\n--- /dev/null\n+++ b/fixture-note\n@@ -0,0 +1 @@\n+fixture\n" \
		"$sender" > "$m/debian/patches/fixture-note.patch" &&
	echo fixture-note.patch >> "$m/debian/patches/series" &&
	(cd "$TMP/mut" && dpkg-source -b linux-6.12.57 && lintian --no-cfg -I --pedantic linux_6.12.57-1.dsc) > "$TMP/mut.out" 2>&1; rc=$?
	echo "lintian exit $rc" && cat "$TMP/mut.out" && grep -q "patch-not-forwarded-upstream \[debian/patches/fixture-note.patch\]" "$TMP/mut.out" &&
	[ "$(grep -c "patch-not-forwarded-upstream" "$TMP/mut.out")" = 1 ]
'
test_expect_success '6.1, the fixes series: its one patch into the checkout, quilt --fuzz=0 and the gbp round trip' '
	d=$TMP/p61/linux-6.1.158 && pkgtree 6.1 "$d" 6.1.158 &&
	export_into 6.1 "$d" > "$TMP/e61.out" 2>&1; rc=$?; cat "$TMP/e61.out" && [ $rc = 0 ] &&
	[ "$(grep -c "^bugfix/x86/" "$d/debian/patches/series")" = 1 ] &&
	grep -qx "bugfix/x86/kvm-x86-pmu-re-period-a-running-counter-from-the-value-the-guest.patch" "$d/debian/patches/series" &&
	grep -q "(Closes: #1234567)" "$d/debian/changelog" &&
	roundtrip "$d"
'
test_expect_success '7.3, the series itself: into the checkout, quilt --fuzz=0 and the gbp round trip' '
	d=$TMP/p73/linux-7.3.4 && pkgtree 7.3 "$d" 7.3.4 &&
	export_into 7.3 "$d" > "$TMP/e73.out" 2>&1; rc=$?; cat "$TMP/e73.out" && [ $rc = 0 ] &&
	[ "$(grep -c "^bugfix/x86/" "$d/debian/patches/series")" = 5 ] &&
	roundtrip "$d"
'
test_expect_success 'a checkout takes one target: two are refused (exit 2) before anything is written' '
	d=$TMP/p2/linux && mkdir -p "$d/debian/patches" && : > "$d/debian/patches/series" &&
	printf "linux (1.0-1) UNRELEASED; urgency=medium\n\n  * x\n\n -- %s  %s\n" "$sender" "$(date -R)" > "$d/debian/changelog" &&
	(cd "$copy" && KVERIFY_CACHE=$TMP/cache ./build/kverify debian-patches --dest "$d" 6.12 6.1) > "$TMP/two.out" 2>&1; rc=$?
	cat "$TMP/two.out" && [ $rc = 2 ] && grep -q "takes one target" "$TMP/two.out"
'
done_testing
