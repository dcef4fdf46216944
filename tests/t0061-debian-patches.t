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

plan 17
test_identity
copy=$TMP/repo
repo_copy "$copy"
repo_fromless "$copy"
dp() { (cd "$copy" && KVERIFY_CACHE=$TMP/cache ./build/kverify debian-patches "$@"); }
dest=$TMP/out
P=$dest/6.12/bugfix/x86
knob5=KVM-x86-pmu-Batch-counter-reprograms-for-emulated-in.patch
knob=kvm-x86-pmu-batch-counter-reprograms-for-emulated-instructions.patch
fix1=kvm-x86-pmu-re-period-a-running-counter-from-the-value-the-guest.patch
LORE=https://lore.kernel.org/r

test_expect_success 'make debian-patches passes DEST=, KERNEL= and BUG= on' '
	make -s -p -n list DEST=/d KERNEL=6.12 BUG=1234567 2> /dev/null > "$TMP/p" &&
	grep -qx "KVERIFY_DEST := /d" "$TMP/p" && grep -qx "KVERIFY_TARGETS := 6.12" "$TMP/p" &&
	grep -qx "KVERIFY_BUG_DEBIAN := 1234567" "$TMP/p" &&
	sed -n "/^debian-patches:/,/^\$/p" Makefile | grep -q "debian-patches --env"
'
test_expect_success 'not posted: bugfix/x86/ and series lines; From: first, plain Subject:, Forwarded: no, no Origin:' '
	(cd "$copy" && KVERIFY_DEST=$dest KVERIFY_TARGETS=6.12 KVERIFY_BUG_DEBIAN=1234567 \
		KVERIFY_CACHE=$TMP/cache ./build/kverify debian-patches --env) > "$TMP/dp.out" 2>&1
	rc=$? && cat "$TMP/dp.out" "$dest/6.12/series" && [ $rc = 0 ] &&
	[ "$(grep -c "^bugfix/x86/kvm-x86-.*\.patch\$" "$dest/6.12/series")" = 5 ] &&
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
test_expect_success 'posted: Origin: backport and Forwarded: the lore link; merged: Origin: the upstream commit, Applied-Upstream: commit:' '
	# Any upstream commit id serves the mechanics: 9cd803d496e7, the
	# commit the series builds on (docs/backports.md).
	echo "20261203080000.1234-1-absandze@amazon.de" > "$copy/series/message-id" &&
	echo "0005-$knob5 9cd803d496e7" > "$copy/series/merged" &&
	rm -rf "$dest" && dp --dest "$dest" 6.12 > "$TMP/dp.out" 2>&1 &&
	sed "/^\$/q" "$P/$fix1" > "$TMP/hdr1" && sed "/^\$/q" "$P/$knob" > "$TMP/hdr5" &&
	cat "$TMP/hdr1" "$TMP/hdr5" &&
	grep -qx "Origin: backport, https://lore.kernel.org/r/20261203080000.1234-1-absandze@amazon.de" "$TMP/hdr1" &&
	grep -qx "Forwarded: https://lore.kernel.org/r/20261203080000.1234-1-absandze@amazon.de" "$TMP/hdr1" &&
	grep -qx "Origin: backport, https://git.kernel.org/linus/9cd803d496e7" "$TMP/hdr5" &&
	grep -qx "Applied-Upstream: commit:9cd803d496e7" "$TMP/hdr5" && ! grep -q "^Applied-Upstream:" "$TMP/hdr1" &&
	grep -qx "Forwarded: https://lore.kernel.org/r/20261203080000.1234-1-absandze@amazon.de" "$TMP/hdr5" &&
	! grep -q "Not posted" "$dest/6.12/series"
'
test_expect_success 'names: lower case whole words of the subject, at most 64 characters, the same whatever the number or revision' '
	rm -f "$copy/series/message-id" "$copy/series/merged" &&
	grep -v "^#" "$dest/6.12/series" > "$TMP/names" && cat "$TMP/names" &&
	! grep -v "^bugfix/x86/[a-z0-9]\+\(-[a-z0-9]\+\)*\.patch\$" "$TMP/names" &&
	! awk -F/ "length(\$3) > 64 + 6" "$TMP/names" | grep . &&
	for f in $(cat "$TMP/names"); do
		s=$(sed -n "s/^Subject: //p" "$dest/6.12/$f" | tr A-Z a-z | tr -cs "a-z0-9\n" - | sed "s/-\$//") &&
		n=$(basename "$f" .patch) &&
		case $s in "$n" | "$n"-*) ;; *) echo "$f: not the words of $s"; return 1 ;; esac
	done &&
	grep -qx "bugfix/x86/$fix1" "$TMP/names" &&
	cp -r "$copy" "$TMP/renum" && (cd "$TMP/renum/series" && echo 4 > revision &&
		git mv -f 0005-$knob5 0009-$knob5 2>/dev/null || mv 0005-$knob5 0009-$knob5) &&
	sed -i "s/^0005-/0009-/" "$TMP/renum/series/series" "$TMP/renum/series/co-developed" &&
	(cd "$TMP/renum" && KVERIFY_CACHE=$TMP/cache ./build/kverify debian-patches --dest "$TMP/o-renum" 6.12 7.3) > "$TMP/renum.out" 2>&1 &&
	grep -v "^#" "$TMP/o-renum/6.12/series" | cmp - "$TMP/names" &&
	grep -q "^bugfix/x86/$knob\$" "$TMP/o-renum/7.3/series"
'
# The state after make reroll: v4 posted (series/old/v4/ with its
# message-id, the mails as sent in results/send/v4/sent/), series/ works on
# v5.  The message-ids are a fixture's; 0003 has no mail on record (its
# Origin falls back to the cover), and v4 had no 0004 (it gets Forwarded: no).
posted_v4() {
	mkdir -p "$copy/series/old/v4" "$copy/results/send/v4/sent" &&
	for f in $(cat "$copy/series/series"); do
		case $f in 0004-*) continue ;; esac
		cp "$copy/series/$f" "$copy/series/old/v4/" && echo "$f" >> "$copy/series/old/v4/series"
	done &&
	echo 4 > "$copy/series/old/v4/revision" && cp "$copy/series/change-id" "$copy/series/old/v4/" &&
	echo "20261203080000.1234-0-absandze@amazon.de" > "$copy/series/old/v4/message-id" &&
	n=0 && for f in cover $(cat "$copy/series/old/v4/series"); do
		if [ $f = cover ]; then subj="[PATCH v4 0/5] KVM: x86/pmu: the cover"; else
			subj="[PATCH v4 $n/5] $(sed -n "/^Subject: /{s/^Subject: //;N;s/\n / /;s/\n.*//;p}" "$copy/series/$f")"; fi
		case $f in 0003-*) ;; *)
		printf "From: %s\r\nSubject: %s\r\nMessage-Id: <20261203080000.1234-%d-absandze@amazon.de>\r\n\r\nbody\r\n" \
			"$sender" "$subj" $n > "$copy/results/send/v4/sent/000$n.eml" ;; esac
		n=$((n + 1))
	done
}
test_expect_success 'after make reroll (v4 posted, v5 worked on): each patch its own v4 message; the series target exports v4 itself' '
	rm -f "$copy/series/message-id" "$copy/series/merged" && posted_v4 &&
	rm -rf "$TMP/o-v4" && dp --dest "$TMP/o-v4" 6.12 7.3 > "$TMP/v4.out" 2>&1; rc=$?; cat "$TMP/v4.out" && [ $rc = 0 ] &&
	cat "$TMP/o-v4/6.12/series" "$TMP/o-v4/7.3/series" && Q=$TMP/o-v4/6.12/bugfix/x86 &&
	grep -q "^# Origin:/Forwarded: from v4 as posted, $LORE/20261203080000.1234-0-absandze@amazon.de; series/ works on an unposted revision" "$TMP/o-v4/6.12/series" &&
	grep -qx "Origin: backport, $LORE/20261203080000.1234-1-absandze@amazon.de" "$Q/$fix1" &&
	grep -qx "Forwarded: $LORE/20261203080000.1234-1-absandze@amazon.de" "$Q/$fix1" &&
	grep -qx "Forwarded: $LORE/20261203080000.1234-4-absandze@amazon.de" "$Q/$knob" &&
	grep -qx "Forwarded: $LORE/20261203080000.1234-0-absandze@amazon.de" "$Q/kvm-x86-pmu-signal-emulated-overflow-before-a-counter-write.patch" &&
	grep -qx "Forwarded: no" "$Q/kvm-x86-service-pending-pmu-requests-before-returning-to.patch" &&
	! grep -q "^Origin:" "$Q/kvm-x86-service-pending-pmu-requests-before-returning-to.patch" &&
	head -n 1 "$TMP/o-v4/7.3/series" | grep -q "^# 7.3: series/old/v4, v4 as posted, $LORE/20261203080000.1234-0-absandze@amazon.de " &&
	[ "$(grep -c "^bugfix/x86/" "$TMP/o-v4/7.3/series")" = 4 ] &&
	grep -qx "Origin: $LORE/20261203080000.1234-2-absandze@amazon.de" "$TMP/o-v4/7.3/bugfix/x86/kvm-x86-pmu-signal-emulated-overflow-before-bailing-from.patch"
'
# What make am records of a thread it imported (series/message-ids: each
# patch's own message, from the Message-Id b4 am keeps on each mail),
# with no record of a send: each patch its own message, not the cover.
test_expect_success 'make am record (series/message-ids): each patch its own message; a bad line exits 2 with file:line' '
	rm -rf "$copy/series/old" "$copy/results" "$copy/series/merged" &&
	echo "20261203080000.1234-0-absandze@amazon.de" > "$copy/series/message-id" &&
	n=0 && for f in $(cat "$copy/series/series"); do
		n=$((n + 1)) && echo "$f <20261203080000.1234-$n-absandze@amazon.de>" || return 1
	done > "$copy/series/message-ids" &&
	rm -rf "$TMP/o-am" && dp --dest "$TMP/o-am" 6.12 7.3 > "$TMP/am.out" 2>&1; rc=$?; cat "$TMP/am.out" && [ $rc = 0 ] &&
	Q=$TMP/o-am/6.12/bugfix/x86 &&
	grep -qx "Origin: backport, $LORE/20261203080000.1234-1-absandze@amazon.de" "$Q/$fix1" &&
	grep -qx "Forwarded: $LORE/20261203080000.1234-1-absandze@amazon.de" "$Q/$fix1" &&
	grep -qx "Origin: backport, $LORE/20261203080000.1234-5-absandze@amazon.de" "$Q/$knob" &&
	grep -qx "Origin: $LORE/20261203080000.1234-3-absandze@amazon.de" "$TMP/o-am/7.3/bugfix/x86/kvm-x86-pmu-signal-emulated-overflow-before-a-counter-write.patch" &&
	! grep -rqx "Origin: .*1234-0-absandze@amazon.de" "$TMP/o-am" &&
	cp "$copy/series/message-ids" "$TMP/ids" &&
	sed -i "2s/ .*/ not-a-message-id/" "$copy/series/message-ids" &&
	dp --dest "$TMP/o-am2" 7.3 > "$TMP/am2.out" 2>&1; rc=$?; cat "$TMP/am2.out" && [ $rc = 2 ] &&
	grep -q "series/message-ids:2: .* is not .<patch file> <message-id>." "$TMP/am2.out" &&
	{ cat "$TMP/ids"; echo "0009-gone.patch <20261203080000.1234-9-absandze@amazon.de>"; } > "$copy/series/message-ids" &&
	dp --dest "$TMP/o-am3" 7.3 > "$TMP/am3.out" 2>&1; rc=$?; cat "$TMP/am3.out" && [ $rc = 2 ] &&
	grep -q "series/message-ids:7: series/0009-gone.patch: no patch" "$TMP/am3.out" &&
	[ ! -e "$TMP/o-am2" ] && [ ! -e "$TMP/o-am3" ] &&
	rm -f "$copy/series/message-ids" "$copy/series/message-id"
'
test_expect_success 'trailers make trailers collected into series/ reach the backports: before the backport note, once' '
	rm -rf "$copy/series/old" "$copy/results" && cp -a "$copy/series" "$TMP/series.keep" &&
	f5=$(ls "$copy"/series/0001-*.patch) &&
	sed -i "s/^Cc: stable@vger.kernel.org\$/&\nReviewed-by: $reviewer\nTested-by: $tester/" "$f5" &&
	sed -i "s/^Signed-off-by: Luka Absandze <absandze@amazon.de>\$/Reviewed-by: $reviewer\n&/" "$copy/series/0005-$knob5" &&
	rm -rf "$TMP/o-tr" && dp --dest "$TMP/o-tr" 6.12 6.1 > "$TMP/tr.out" 2>&1; rc=$?; cat "$TMP/tr.out" && [ $rc = 0 ] &&
	for g in "$TMP/o-tr/6.12/bugfix/x86/$fix1" "$TMP/o-tr/6.1/bugfix/x86/$fix1"; do
		sed -n "/^Cc: stable/,/^\[ backport/p" "$g" > "$TMP/tb" && cat "$TMP/tb" &&
		grep -qxF "Reviewed-by: $reviewer" "$TMP/tb" && grep -qxF "Tested-by: $tester" "$TMP/tb" &&
		[ "$(grep -cxF "Reviewed-by: $reviewer" "$g")" = 1 ] || return 1
	done &&
	[ "$(grep -cxF "Reviewed-by: $reviewer" "$TMP/o-tr/6.12/bugfix/x86/$knob")" = 1 ] &&
	[ "$(grep -c "^Suggested-by: " "$TMP/o-tr/6.12/bugfix/x86/$knob")" = 1 ] &&
	grep -q "^# $fix1: 2 trailers collected into series/" "$TMP/o-tr/6.12/series" &&
	rm -rf "$copy/series" && mv "$TMP/series.keep" "$copy/series"
'
test_expect_success 'the debian/changelog entry: the very lines dch writes for it, (Closes:) from BUG=; where the series lines go' '
	(cd "$copy" && KVERIFY_DEST=$TMP/o-cl KVERIFY_TARGETS=6.12 KVERIFY_BUG_DEBIAN=1234567 \
		KVERIFY_CACHE=$TMP/cache ./build/kverify debian-patches --env) > "$TMP/cl.out" 2>&1 &&
	C=$TMP/o-cl/6.12/changelog && cat "$C" &&
	head -n 2 "$C" > "$TMP/cl2" &&
	printf "  * [x86] KVM: x86/pmu: Re-period a running counter from the value the\n    guest wrote (Closes: #1234567)\n" | cmp - "$TMP/cl2" &&
	[ "$(grep -c "^  \* \[x86\] KVM: " "$C")" = 5 ] &&
	printf "linux (6.12.57-1) UNRELEASED; urgency=medium\n\n  * New upstream stable update.\n\n -- %s  Sat, 05 Dec 2026 10:00:00 +0000\n" "$sender" > "$TMP/dch.cl" &&
	sed -e "s/^  \* //" -e "s/^    / /" "$C" | awk "/^ /{ l = l \$0; next } { if (l != \"\") print l; l = \$0 } END { print l }" > "$TMP/entries" &&
	while IFS= read -r e; do DEBFULLNAME=$sender_name DEBEMAIL=$sender_email dch --changelog "$TMP/dch.cl" --append --nomultimaint -- "$e" || return 1; done < "$TMP/entries" &&
	sed -n "/^  \* \[x86\]/,/^\$/p" "$TMP/dch.cl" | sed "/^\$/d" | cmp - "$C" &&
	grep -q "^# debian/patches/series: after its last bugfix/x86/ line (.# Arch bug fixes.)\$" "$TMP/o-cl/6.12/series"
'
test_expect_success 'a checkout of the linux package: the lines after its last bugfix/x86/ line, the entry by dch' '
	k=$TMP/pk/linux && mkdir -p "$k/debian/patches/bugfix/x86" &&
	printf "# Arch bug fixes\nbugfix/arm/arm-first.patch\nbugfix/x86/x86-existing.patch\n\n# Miscellaneous bug fixes\nbugfix/all/other.patch\n" > "$k/debian/patches/series" &&
	printf "linux (6.1.158-1) UNRELEASED; urgency=medium\n\n  * New upstream stable update.\n\n -- %s  Sat, 05 Dec 2026 10:00:00 +0000\n" "$sender" > "$k/debian/changelog" &&
	(cd "$copy" && KVERIFY_DEST=$k KVERIFY_TARGETS=6.1 KVERIFY_BUG_DEBIAN=1234567 \
		KVERIFY_CACHE=$TMP/cache ./build/kverify debian-patches --env) > "$TMP/pk.out" 2>&1; rc=$?
	cat "$TMP/pk.out" "$k/debian/patches/series" "$k/debian/changelog" && [ $rc = 0 ] &&
	sed -n 4p "$k/debian/patches/series" | grep -qx "bugfix/x86/$fix1" &&
	sed -n 3p "$k/debian/patches/series" | grep -qx "bugfix/x86/x86-existing.patch" &&
	tail -n 1 "$k/debian/patches/series" | grep -qx "bugfix/all/other.patch" &&
	[ -f "$k/debian/patches/bugfix/x86/$fix1" ] &&
	sed -n 4,5p "$k/debian/changelog" | grep -q "(Closes: #1234567)" &&
	dpkg-parsechangelog -l "$k/debian/changelog" -S Closes | grep -qx 1234567
'
test_expect_success 'two patches of one name, or a subject without a word, exit 2 naming the patch; nothing written' '
	cp -a "$copy/series" "$TMP/series.keep2" &&
	f2=$(ls "$copy"/series/0002-*.patch) && f3=$(ls "$copy"/series/0003-*.patch) &&
	s2=$(sed -n "/^Subject: /{N;s/\n / /;s/\n.*//;p;q}" "$f2") &&
	S2=$s2 perl -0pi -e "s/^Subject: .*?\n(?=\S)/\$ENV{S2}\n/ms" "$f3" && grep -qxF "$s2" "$f3" &&
	dp --dest "$TMP/o-dup" 7.3 > "$TMP/dup.out" 2>&1; rc=$?; cat "$TMP/dup.out" && [ $rc = 2 ] &&
	grep -q "0003-.*: its name kvm-x86-pmu-signal-emulated-overflow-before-bailing-from.patch is another patch.s too" "$TMP/dup.out" &&
	[ ! -e "$TMP/o-dup/7.3" ] &&
	perl -0pi -e "s/^Subject: .*?\n(?=\S)/Subject: [PATCH] ... --\n/ms" "$f3" &&
	dp --dest "$TMP/o-dup" 7.3 > "$TMP/dup2.out" 2>&1; rc=$?; cat "$TMP/dup2.out" && [ $rc = 2 ] &&
	grep -q "0003-.*: no Subject: with a word" "$TMP/dup2.out" && [ ! -e "$TMP/o-dup/7.3" ] &&
	rm -rf "$copy/series" && mv "$TMP/series.keep2" "$copy/series"
'
test_expect_success 'bad input exits 2 and says where: series/merged, BUG=, an existing or no DEST' '
	bad= &&
	echo "0005-$knob5 not-a-sha" > "$copy/series/merged" &&
	dp --dest "$TMP/o2" 6.12 > "$TMP/e1" 2>&1; [ $? = 2 ] && grep -q "series/merged:1: " "$TMP/e1" || bad="$bad merged" &&
	echo "0005-$knob5 9cd803d496e7" > "$copy/series/merged" &&
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
		grep -q "applying bugfix/x86/kvm-x86-pmu-batch-counter" "$TMP/dsc.out"
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
	sed -n "/^Subject: /{N;p}" "$TMP/hdr61" | tr "\n" "|" | grep -qx "Subject: KVM: x86/pmu: Re-period a running counter from the value the guest| wrote|" &&
	sed -n "/^\[ backport to 6.1.y: /,/^---\$/p" "$f" | grep -qxF "Signed-off-by: $sender" &&
	grep -q "^+static inline void pmc_update_sample_period(struct kvm_pmc \*pmc, u64 val)" "$f"
'
done_testing
