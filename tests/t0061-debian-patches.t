#!/bin/bash
# kverify debian-patches (make debian-patches DEST=): backports/6.12 as
# Debian's linux package carries patches: bugfix/x86/ and series lines, a
# header that starts at From:, a plain Subject: and the DEP-3 fields with
# it; Origin:/Forwarded: before posting, once posted and once merged;
# bad input exits 2.  Then a minimal linux source package (Debian's own
# 6.12 files the patches touch, from the cached tree, as its orig tarball)
# with those patches: dpkg-source -b builds it (the patches apply), and a
# gbp pq import/export round trip keeps every DEP-3 field and its value in
# the DEP-3 header, the message and the diff; lintian, when installed,
# says nothing of the patches.  Cost: about 10 s (the 6.12 tree fetched
# once into the test cache).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 10
test_identity
copy=$TMP/repo
repo_copy "$copy"
repo_fromless "$copy"
dp() { (cd "$copy" && KVERIFY_CACHE=$TMP/cache ./build/kverify debian-patches "$@"); }
dest=$TMP/out
P=$dest/6.12/bugfix/x86
knob=KVM-x86-pmu-Batch-counter-reprograms-for-emulated-in.patch
fix1=KVM-x86-pmu-Re-period-a-running-counter-from-the-val.patch

test_expect_success 'make debian-patches passes DEST=, KERNEL= and BUG= on' '
	grep -q "^export KVERIFY_DEST := \$(KV_DEST)" Makefile &&
	grep -q "^KV_DEST := \$(value DEST)" Makefile &&
	sed -n "/^debian-patches:/,/^\$/p" Makefile | grep -q "debian-patches --env"
'
test_expect_success 'not posted: bugfix/x86/ and series lines; From: first, plain Subject:, Forwarded: no, no Origin:' '
	(cd "$copy" && KVERIFY_DEST=$dest KVERIFY_TARGETS=6.12 KVERIFY_BUG_DEBIAN=1234567 \
		KVERIFY_CACHE=$TMP/cache ./build/kverify debian-patches --env) > "$TMP/dp.out" 2>&1
	rc=$? && cat "$TMP/dp.out" "$dest/6.12/series" && [ $rc = 0 ] &&
	[ "$(grep -c "^bugfix/x86/KVM-.*\.patch\$" "$dest/6.12/series")" = 5 ] &&
	grep -q "^# not carried: 0006-KVM-selftests-.*no selftests" "$dest/6.12/series" &&
	grep -q "^# Not posted upstream yet" "$dest/6.12/series" &&
	for f in $(grep -v "^#" "$dest/6.12/series"); do
		head -n 1 "$dest/6.12/$f" | grep -q "^From: " || return 1
		sed "/^\$/q" "$dest/6.12/$f" > "$TMP/hdr" &&
		! grep -q "^From [0-9a-f]\{40\} \|^Subject: \[\|^Origin:" "$TMP/hdr" &&
		grep -qx "Forwarded: no" "$TMP/hdr" &&
		grep -qx "Bug-Debian: https://bugs.debian.org/1234567" "$TMP/hdr" &&
		grep -q "^Last-Update: 20[0-9][0-9]-[01][0-9]-[0-3][0-9]\$" "$TMP/hdr" &&
		! tail -n 2 "$dest/6.12/$f" | grep -q "^-- \$" || return 1
	done &&
	grep -qx "Subject: KVM: x86/pmu: Batch counter reprograms for emulated instructions" "$P/$knob"
'
test_expect_success 'the operator is stamped as make send does: From: on the project own patches, Signed-off-by: on each' '
	head -n 1 "$P/$fix1" | grep -qxF "From: $sender" &&
	head -n 1 "$P/$knob" | grep -q "^From: Luka Absandze " &&
	for f in "$P"/*.patch; do grep -qxF "Signed-off-by: $sender" "$f" || return 1; done
'
test_expect_success 'posted: Origin: backport and Forwarded: the lore link; merged: Origin: the upstream commit, no Forwarded:' '
	# Any upstream commit id serves the mechanics: 9cd803d496e7, the
	# commit the series builds on (docs/backports.md).
	echo "20261203080000.1234-1-absandze@amazon.de" > "$copy/series/message-id" &&
	echo "0005-$knob 9cd803d496e7" > "$copy/series/merged" &&
	rm -rf "$dest" && dp --dest "$dest" 6.12 > "$TMP/dp.out" 2>&1 &&
	sed "/^\$/q" "$P/$fix1" > "$TMP/hdr1" && sed "/^\$/q" "$P/$knob" > "$TMP/hdr5" &&
	cat "$TMP/hdr1" "$TMP/hdr5" &&
	grep -qx "Origin: backport, https://lore.kernel.org/r/20261203080000.1234-1-absandze@amazon.de" "$TMP/hdr1" &&
	grep -qx "Forwarded: https://lore.kernel.org/r/20261203080000.1234-1-absandze@amazon.de" "$TMP/hdr1" &&
	grep -qx "Origin: backport, https://git.kernel.org/linus/9cd803d496e7" "$TMP/hdr5" &&
	! grep -q "^Forwarded:" "$TMP/hdr5" && ! grep -q "Not posted" "$dest/6.12/series"
'
test_expect_success 'bad input exits 2 and says where: series/merged, BUG=, an existing or no DEST' '
	bad= &&
	echo "0005-$knob not-a-sha" > "$copy/series/merged" &&
	dp --dest "$TMP/o2" 6.12 > "$TMP/e1" 2>&1; [ $? = 2 ] && grep -q "series/merged:1: " "$TMP/e1" || bad="$bad merged" &&
	echo "0005-$knob 9cd803d496e7" > "$copy/series/merged" &&
	(cd "$copy" && KVERIFY_DEST=$TMP/o3 KVERIFY_BUG_DEBIAN=bug12 KVERIFY_CACHE=$TMP/cache \
		./build/kverify debian-patches --env) > "$TMP/e2" 2>&1; [ $? = 2 ] && grep -q "BUG=.bug12. is not a Debian bug" "$TMP/e2" || bad="$bad bug" &&
	dp --dest "$dest" 6.12 > "$TMP/e3" 2>&1; [ $? = 2 ] && grep -q "6.12 exists" "$TMP/e3" || bad="$bad exists" &&
	dp 6.12 > "$TMP/e4" 2>&1; [ $? = 2 ] && grep -q "needs DEST=" "$TMP/e4" || bad="$bad nodest" &&
	cat "$TMP"/e[1-4] && echo "accepted:${bad:- none}" && [ -z "$bad" ] &&
	[ ! -e "$TMP/o2" ] && [ ! -e "$TMP/o3" ]
'

# A minimal linux source package: Debian's 6.12 files the patches touch.
src=$(cached_source 6.12)
pkg=$TMP/pkg/linux-6.12.118
mkdir -p "$pkg/debian/source" "$pkg/debian/patches"
files=$(grep -h "^diff --git a/" "$P"/*.patch | awk '{ print substr($3, 3) }' | sort -u)
for f in $files; do
	mkdir -p "$pkg/$(dirname "$f")" && cp "$src/$f" "$pkg/$f"
done
(cd "$TMP/pkg" && tar -cJf linux_6.12.118.orig.tar.xz linux-6.12.118)
echo "3.0 (quilt)" > "$pkg/debian/source/format"
printf 'linux (6.12.118-1~kverify1) UNRELEASED; urgency=medium\n\n  * The KVM PMU series (kverify debian-patches).\n\n -- %s  %s\n' \
	"$sender" "$(date -R)" > "$pkg/debian/changelog"
printf 'Source: linux\nSection: kernel\nPriority: optional\nMaintainer: %s\nStandards-Version: 4.6.2\nRules-Requires-Root: no\nBuild-Depends: debhelper-compat (= 13)\n\nPackage: linux-kverify-test\nArchitecture: all\nDescription: test package for the patches\n A minimal source package: the files the patches touch.\n' \
	"$sender" > "$pkg/debian/control"
printf '#!/usr/bin/make -f\n%%:\n\tdh $@\n' > "$pkg/debian/rules"
chmod +x "$pkg/debian/rules"
cp -r "$dest/6.12/bugfix" "$pkg/debian/patches/"
grep -v "^#" "$dest/6.12/series" > "$pkg/debian/patches/series"
cp -a "$TMP/pkg" "$TMP/gbp"	# gbp works on a copy: dpkg-source gets ours

if command -v gbp > /dev/null; then
	# gbp 0.9.30 writes From:, Date: and Subject: as the mail header and
	# the rest as the message (scripts/common/pq.py, write_patch_file());
	# its import reads the other fields into the message
	# (patch_series.py, _dep3_to_info()): they come back as the pseudo-
	# header paragraph right after, DEP-3's second header.
	test_expect_success 'gbp pq import/export: each DEP-3 field keeps its value in the DEP-3 header (2nd paragraph), message and diff the same; a 2nd round trip changes nothing' '
		g=$TMP/gbp/linux-6.12.118 &&
		(cd "$g" && git init -q -b master . && git add -A && git commit -qm "linux 6.12.118" &&
		 gbp pq import && gbp pq export) > "$TMP/gbp.out" 2>&1 &&
		cat "$TMP/gbp.out" && (cd "$g" && git status --short) &&
		grep -q "5 patches listed in .debian/patches/series. imported" "$TMP/gbp.out" &&
		/usr/bin/python3 - "$P" "$g/debian/patches/bugfix/x86" <<-\PY &&
		import os, sys
		def dep3(path):
		    """DEP-3: a first header, and a second one (pseudo-headers) in
		    the next paragraph; parsing stops at ---.  Returns the fields
		    and the rest of the message, and the diff."""
		    text = open(path).read()
		    head, diff = text.split("\n---\n", 1)
		    paras = head.split("\n\n")
		    fields, rest = {}, []
		    for i, p in enumerate(paras):
		        lines = p.split("\n")
		        if i < 2 and all(":" in l or l.startswith(" ") for l in lines):
		            for l in lines:
		                if l.startswith(" "):
		                    fields[k] += " " + l.strip()
		                else:
		                    k, v = l.split(":", 1)
		                    assert k not in fields, (path, "twice", k)
		                    fields[k] = v.strip()
		        else:
		            rest = paras[i:]
		            break
		    return fields, rest, diff
		for name in sorted(os.listdir(sys.argv[1])):
		    a = dep3(os.path.join(sys.argv[1], name))
		    b = dep3(os.path.join(sys.argv[2], name))
		    print(name, sorted(a[0]))
		    assert a[0] == b[0], (name, a[0], b[0])
		    assert a[1] == b[1], (name, "message")
		    strip = lambda d: [l for l in d.split("\n") if not l.startswith("index ")]
		    assert strip(a[2])[-40:] == strip(b[2])[-40:], (name, "diff")
		PY
		(cd "$g" && git add -A && git commit -qm export && gbp pq import --force && gbp pq export &&
		 git status --short debian/patches && git diff --quiet debian/patches) > "$TMP/gbp2.out" 2>&1
	'
else
	skip "gbp pq import/export keeps the DEP-3 header" "git-buildpackage is not installed (make deps installs it)"
fi
if command -v dpkg-source > /dev/null; then
	test_expect_success 'dpkg-source -b builds the source package: every patch applies to Debian own 6.12 files' '
		(cd "$TMP/pkg" && dpkg-source -b linux-6.12.118) > "$TMP/dsc.out" 2>&1
		rc=$? && cat "$TMP/dsc.out" && [ $rc = 0 ] &&
		ls "$TMP/pkg"/linux_6.12.118-1~kverify1.dsc "$TMP/pkg"/linux_6.12.118-1~kverify1.debian.tar.xz &&
		grep -q "applying bugfix/x86/KVM-x86-pmu-Batch-counter" "$TMP/dsc.out"
	'
else
	skip "dpkg-source -b" "dpkg-dev is not installed"
fi
if command -v lintian > /dev/null; then
	test_expect_success 'lintian, with -I --pedantic, says nothing of the patches' '
		(cd "$TMP/pkg" && lintian --no-cfg -I --pedantic linux_6.12.118-1~kverify1.dsc) > "$TMP/lintian.out" 2>&1
		rc=$? && echo "lintian exit $rc" &&
		cat "$TMP/lintian.out" && ! grep -i "patch" "$TMP/lintian.out"
	'
else
	skip "lintian, with -I --pedantic, says nothing of the patches" "lintian is not installed"
fi
test_expect_success 'a target that is n/a is named and left out' '
	dp --dest "$TMP/o5" 5.10 > "$TMP/na.out" 2>&1 &&
	cat "$TMP/na.out" && grep -q "debian-patches: 5.10: " "$TMP/na.out" && [ ! -e "$TMP/o5/5.10" ]
'
test_expect_success '6.1, fixes only: its one patch, with the DEP-3 header, the backport note and the operator'"'"'s Signed-off-by: after it' '
	rm -f "$copy/series/message-id" "$copy/series/merged" &&
	dp --dest "$TMP/o6" 6.1 > "$TMP/61.out" 2>&1 && cat "$TMP/61.out" "$TMP/o6/6.1/series" &&
	[ "$(grep -c "^bugfix/x86/" "$TMP/o6/6.1/series")" = 1 ] &&
	f=$TMP/o6/6.1/bugfix/x86/$fix1 && sed "/^\$/q" "$f" > "$TMP/hdr61" && cat "$TMP/hdr61" &&
	head -n 1 "$f" | grep -qxF "From: $sender" && grep -qx "Forwarded: no" "$TMP/hdr61" &&
	grep -qx "Subject: KVM: x86/pmu: Re-period a running counter from the value the guest wrote" "$TMP/hdr61" &&
	sed -n "/^\[ backport to 6.1.y: /,/^---\$/p" "$f" | grep -qxF "Signed-off-by: $sender" &&
	grep -q "^+static inline void pmc_update_sample_period(struct kvm_pmc \*pmc, u64 val)" "$f"
'
done_testing
