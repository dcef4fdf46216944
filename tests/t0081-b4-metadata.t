#!/bin/bash
# What the people who read the patches see is true (#14), through a round
# trip: make send -> make am of the result plus a reply thread with
# trailers on the cover and on one patch -> make range-diff -> make send
# of v4.  No placeholder identity and no local-only commit id in any mail;
# the sender's own identity and Signed-off-by; the Debian base said in
# words, not as a base-commit; recipients from the tree's
# get_maintainer.pl, shown first, TO=/CC= override them; every trailer of
# the thread accounted for; b4's own messages reach the user; range-diff
# finds the previous revision or says why it cannot.
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 22
test_identity
list=${sender_email%@*}+list@${sender_email#*@}
copy=$TMP/repo
repo_copy "$copy"
repo_fromless "$copy"
cd "$copy" || exit 1
p1=$(sed -n 1p series/series)
p2=$(sed -n 2p series/series)

# Identities: none, a placeholder, a placeholder left in a patch.
mkdir "$TMP/home"
env -u GIT_COMMITTER_NAME -u GIT_COMMITTER_EMAIL -u GIT_AUTHOR_NAME \
	-u GIT_AUTHOR_EMAIL -u EMAIL HOME="$TMP/home" \
	XDG_CONFIG_HOME="$TMP/home" GIT_CONFIG_NOSYSTEM=1 \
	make --no-print-directory send > "$TMP/out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q 'your git identity " <>" is no name' "$TMP/out" &&
	grep -q 'git config --global user.email' "$TMP/out" && [ ! -d results/send ]
ok $? "make send without a git identity exits 2, says how to set one, writes nothing (exit $rc)"
[ $rc = 2 ] || diag < "$TMP/out"
GIT_COMMITTER_NAME='Patch Author' GIT_COMMITTER_EMAIL=patch.author@example.invalid \
	make --no-print-directory send > "$TMP/out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q 'is a placeholder name' "$TMP/out"
ok $? "make send refuses the placeholder identity 'Patch Author' (exit $rc)"
GIT_COMMITTER_EMAIL=me@example.invalid make --no-print-directory send > "$TMP/out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q 'is an address in the reserved top-level domain .invalid' "$TMP/out"
ok $? "make send refuses an example.invalid address (exit $rc)"
cp "series/$p2" "$TMP/p2"
sed -i '1a From: Patch Author <patch.author@example.invalid>' "series/$p2"
make --no-print-directory send > "$TMP/out" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "^series/$p2:2: From: Patch Author <patch.author@example.invalid>: a placeholder name" "$TMP/out" &&
	[ ! -d results/send ]
ok $? "a placeholder left in a patch of series/ is refused with file:line (exit $rc)"
[ $rc = 2 ] || diag < "$TMP/out"
cp "$TMP/p2" "series/$p2"
b=$(ls backports/6.12/0002-*.patch)
cp "$b" "$TMP/b2"
sed -i '0,/^\[ backport/s/^\[ backport/Signed-off-by: Patch Author <patch.author@example.invalid>\n&/' "$b"
make --no-print-directory bundle KERNEL=6.12 > "$TMP/out" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "/$b:[0-9]*: Signed-off-by: Patch Author <patch.author@example.invalid>: a placeholder name" "$TMP/out" &&
	grep -q 'placeholder identities never leave this machine' "$TMP/out" && [ ! -e results/6.12 ]
ok $? "make bundle refuses a series with a placeholder before any step runs (exit $rc)"
[ $rc != 0 ] || tail -n 5 "$TMP/out" | diag
cp "$TMP/b2" "$b"
! grep -rEq 'example\.invalid|Patch Author|@[A-Za-z0-9.-]*\.(example|test|invalid|localhost)>' series backports &&
	[ ! -e series/IDENTITY ]
ok $? "no placeholder identity is left in series/ or backports/ of the copy"

# TO= and CC= override get_maintainer.pl.
make --no-print-directory send TO="$reviewer" CC="$list" > "$TMP/out" 2>&1
rc=$?
cover=$(ls results/send/v3/0000-*.eml 2>/dev/null)
[ $rc = 0 ] && grep -q "^To: $reviewer$" "$TMP/out" &&
	sed -n '/^To:/,/^[A-Z]/p' "$cover" | grep -qF "${reviewer#*<}" &&
	! sed -n '/^To:/,/^[A-Z]/p' "$cover" | grep -q 'pbonzini' &&
	grep -qF "$list" "$cover"
ok $? "TO=/CC= replace get_maintainer.pl's recipients (exit $rc)"
[ $rc = 0 ] || tail -n 20 "$TMP/out" | diag

# v3: recipients, base, identities.
make --no-print-directory send > "$TMP/send" 2>&1
rc=$?
ok $rc "make send of v3"
[ $rc = 0 ] || tail -n 20 "$TMP/send" | diag
cover=$(ls results/send/v3/0000-*.eml)
to=$(grep -n '^To: ' "$TMP/send" | head -n 1 | cut -d: -f1)
b4=$(grep -n '^Converted the branch' "$TMP/send" | cut -d: -f1)
[ -n "$to" ] && [ -n "$b4" ] && [ "$to" -lt "$b4" ] &&
	grep -q '^    Paolo Bonzini <pbonzini@redhat.com>$\|^To: Paolo Bonzini <pbonzini@redhat.com>$' "$TMP/send" &&
	grep -q '^    kvm@vger.kernel.org$' "$TMP/send" &&
	grep -q "from the tree's scripts/get_maintainer.pl" "$TMP/send" &&
	sed -n '/^To:/,/^[A-Z]/p' "$cover" | grep -q 'pbonzini@redhat.com' &&
	sed -n '/^Cc:/,/^[A-Z]/p' "$cover" | grep -q 'linux-kselftest@vger.kernel.org'
ok $? "get_maintainer.pl's maintainers To, its lists Cc, shown before b4 runs"
local_id=$(git -C "$KVERIFY_CACHE"/b4/deb-linux-source-7.3-* rev-parse kverify-base 2>/dev/null)
[ -n "$local_id" ] && ! grep -rq "${local_id:0:12}" results/send/v3 &&
	! grep -q '^base-commit:' results/send/v3/*.eml &&
	grep -q '^Made on Linux 7\.3\.4 as packaged by Debian (linux-source-7\.3 7\.3\.4-1~bpo13+1);$' "$cover"
ok $? "no base-commit and no local commit id: the cover names Linux 7.3.4 and Debian's 7.3.4-1~bpo13+1"
bad=0
for f in results/send/v3/000[12]-*.eml; do
	[ "$(grep -c "^Signed-off-by: $sender$" "$f")" = 1 ] || { bad=1; echo "# $f: not one sender sign-off"; }
done
! grep -q 'example\.invalid\|Patch Author' results/send/v3/*.eml || bad=1
grep -q '^From: Luka Absandze <absandze@amazon.de>$' results/send/v3/0001-*.eml || bad=1
grep -q "^From: $sender$" "$cover" || bad=1
ok $bad "the sender's From: and one Signed-off-by on each patch; the real author kept; no placeholder"

# The reply thread: a Reviewed-by on the cover, a Tested-by on patch 2.
cmid=$(grep -m1 -i '^Message-Id:' "$cover" | sed 's/^[^:]*: //')
mid2=$(grep -m1 -i '^Message-Id:' results/send/v3/0002-*.eml | sed 's/^[^:]*: //')
{
	for f in results/send/v3/*.eml; do echo "From x Mon Sep 17 00:00:00 2001"; cat "$f"; echo; done
	cat <<MAIL
From x Mon Sep 17 00:00:00 2001
From: $reviewer
Date: Mon, 30 Nov 2026 09:00:00 -0800
Subject: Re: [PATCH v3 0/2] KVM: x86/pmu: Batch counter reprograms for emulated instructions
Message-Id: <kverify-test-cover-reply@kverify.test>
In-Reply-To: $cmid
References: $cmid

For the series:

Reviewed-by: $reviewer

From x Mon Sep 17 00:00:00 2001
From: $tester
Date: Mon, 30 Nov 2026 10:00:00 -0800
Subject: Re: [PATCH v3 2/2] KVM: selftests: Add a test for emulated_counter_reprogram_tolerance
Message-Id: <kverify-test-patch-reply@kverify.test>
In-Reply-To: $mid2
References: $cmid $mid2

Tested-by: $tester

MAIL
} > "$TMP/thread.mbox"
make --no-print-directory am MBOX="$TMP/thread.mbox" > "$TMP/am" 2>&1
rc=$?
grep -q "^Reviewed-by: $reviewer$" "series/$p1" && grep -q "^Reviewed-by: $reviewer$" "series/$p2" &&
	grep -q "^Tested-by: $tester$" "series/$p2" && ! grep -q '^Tested-by:' "series/$p1"
ok $? "make am keeps the cover's Reviewed-by on every patch and the Tested-by on patch 2 (exit $rc)"
[ $rc = 0 ] || tail -n 20 "$TMP/am" | diag
grep -q "^  patch 1: + Reviewed-by: $reviewer$" "$TMP/am" &&
	grep -q "^  patch 2: + Reviewed-by: $reviewer$" "$TMP/am" &&
	grep -q "^  patch 2: + Tested-by: $tester$" "$TMP/am" &&
	grep -q '^Total patches: 2$' "$TMP/am"
ok $? "it prints each trailer it added, and b4's own report"
[ "<$(cat series/message-id 2>/dev/null)>" = "$cmid" ] && grep -q "posted as https://lore.kernel.org/r/${cmid:1:-1}" "$TMP/am"
ok $? "series/message-id records the posting (the cover's Message-Id)"

make --no-print-directory range-diff > "$TMP/rd" 2>&1
rc=$?
[ $rc = 0 ] && grep -q '^range-diff: series/old/v3/ (v3) against series/ (v3)$' "$TMP/rd" &&
	grep -q "^    +    Reviewed-by: $reviewer$" "$TMP/rd"
ok $? "make range-diff compares the revision kept with series/ and says which (exit $rc)"
[ $rc = 0 ] || diag < "$TMP/rd"

# v4 of the reviewed series.
echo 4 > series/revision
sed -i 's/^Changes since v2:$/Changes since v3:\n - Collect Reviewed-by and Tested-by.\n\nChanges since v2:/' series/cover-letter
make --no-print-directory send > "$TMP/send4" 2>&1
rc=$?
ok $rc "make send of v4"
[ $rc = 0 ] || tail -n 20 "$TMP/send4" | diag
bad=0
f1=$(ls results/send/v4/0001-*.eml 2>/dev/null)
f2=$(ls results/send/v4/0002-*.eml 2>/dev/null)
grep -q '^Subject: \[PATCH v4 0/2\]' results/send/v4/0000-*.eml || bad=1
for t in "Reviewed-by: $reviewer" "Signed-off-by: $sender"; do
	for f in "$f1" "$f2"; do
		[ "$(grep -c "^$t$" "$f")" = 1 ] || { bad=1; echo "# $f: not one '$t'"; }
	done
done
[ "$(grep -c "^Tested-by: $tester$" "$f2")" = 1 ] && ! grep -q '^Tested-by:' "$f1" || bad=1
local_id=$(git -C "$KVERIFY_CACHE"/b4/deb-linux-source-7.3-* rev-parse kverify-base)
! grep -rq "${local_id:0:12}\|^base-commit:\|example\.invalid\|Patch Author" results/send/v4 || bad=1
ok $bad "v4 carries every trailer of the thread once, one sender sign-off, no placeholder, no local commit id"

make --no-print-directory am MBOX=results/send/v4 > "$TMP/am4" 2>&1 &&
	make --no-print-directory range-diff > "$TMP/rd" 2>&1
rc=$?
[ $rc = 0 ] && grep -q '^range-diff: series/old/v3/ (v3) against series/ (v4)$' "$TMP/rd"
ok $? "after make am of v4, make range-diff compares v3 with v4 (exit $rc)"
[ $rc = 0 ] || diag < "$TMP/rd"
make --no-print-directory range-diff FROM=v9 > "$TMP/rd" 2>&1
rc=$?
[ $rc != 0 ] && grep -q 'series/old/v9 does not exist; series/old/ keeps v4 v3: give FROM=vN' "$TMP/rd"
ok $? "FROM= a revision not kept fails and says which are kept (exit $rc)"
rm -rf series/old
make --no-print-directory range-diff > "$TMP/rd" 2>&1
rc=$?
[ $rc != 0 ] && grep -q 'nothing to compare series/ (v4) with: series/old/ keeps no revision' "$TMP/rd"
ok $? "without series/old/, make range-diff says why it cannot (exit $rc)"

# Replies only: make trailers says what to give; b4's messages reach the user.
sed -n '/^From x/,$p' "$TMP/thread.mbox" | awk '/^From x/{n++} n>3' > "$TMP/replies.mbox"
make --no-print-directory trailers MBOX="$TMP/replies.mbox" > "$TMP/tr" 2>&1
rc=$?
[ $rc = 2 ] && grep -q 'holds no patch, only replies' "$TMP/tr" && ! grep -q 'Traceback' "$TMP/tr"
ok $? "make trailers with only the replies exits 2 and says to give the whole thread (exit $rc)"
make --no-print-directory am MBOX="$TMP/replies.mbox" > "$TMP/am" 2>&1
rc=$?
[ $rc != 0 ] && grep -q '^No patches found\.$' "$TMP/am" && grep -q 'b4 am wrote no series mbox' "$TMP/am"
ok $? "make am of replies only: b4's own message, then ours (exit $rc)"
done_testing
