#!/bin/bash
# The upstream series through b4 0.12, offline: make send writes and checks
# the .eml set; make am of it reproduces series/ (apart from what b4
# changes by design: each patch's first line, the commit id, and its Date:,
# the time it was sent; the sender's From: and Signed-off-by:, which make
# send adds, are taken off again); make trailers puts a Reviewed-by on the
# right patch; a folded
# Subject imports; a cover saying EDITME is refused; --results moves what
# send writes; no git works on in the cache's repository after a command
# (no "git gc --auto" daemon).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 12
test_identity
copy=$TMP/repo
repo_copy "$copy"
repo_fromless "$copy"
cd "$copy" || exit 1

# The first b4 command imports the kernel tree into a git repository in the
# cache (~80,000 loose objects); gone, so that this one does.
rm -rf "$KVERIFY_CACHE/b4"
make --no-print-directory send > "$TMP/send" 2>&1
rc=$?
ok $rc "make send writes the v3 set and passes its own checks"
[ $rc = 0 ] || tail -n 20 "$TMP/send" | diag
# git commit and git am start "git gc --auto" as a daemon past such a
# number of objects, which would pack the cache's repository for minutes
# after the command, outside its process group, timeout and lock.
test_expect_success 'after make send, nothing works on in the repository it imported (no git gc --auto)' '
	left=$(working_in "$KVERIFY_CACHE/b4") &&
	echo "$left" && [ -z "$left" ] && [ ! -e "$(echo "$KVERIFY_CACHE"/b4/*/.git/gc.pid)" ]
'
n=$(ls results/send/v3/*.eml 2>/dev/null | wc -l)
[ "$n" = 3 ] && grep -q '^Subject: \[PATCH v3 0/2\]' results/send/v3/0000-*.eml &&
	grep -q '^Subject: \[PATCH v3 2/2\]' results/send/v3/0002-*.eml &&
	grep -q '^change-id: ' results/send/v3/0000-*.eml &&
	grep -q '^Made on Linux 7\.3\.4 as packaged by Debian (linux-source-7\.3 7\.3\.4-1~bpo13+1);$' results/send/v3/0000-*.eml &&
	! grep -q '^base-commit: ' results/send/v3/*.eml
ok $? "3 messages: [PATCH v3 0/2] to 2/2, change-id: and the Debian base (no base-commit) in the cover"
grep -A1 '^Subject: ' results/send/v3/0001-*.eml | grep -q '^ '
ok $? "b4 folded a long Subject: header (the next import must cope)"

touch "$TMP/before-elsewhere"
test_expect_success 'with --results DIR, send writes DIR/send/v3 and DIR/b4, nothing in results/' '
	./build/kverify --results "$TMP/elsewhere" send --env > "$TMP/send-elsewhere" 2>&1 &&
	[ "$(ls "$TMP/elsewhere/send/v3/"*.eml | wc -l)" = 3 ] &&
	[ -s "$TMP/elsewhere/b4/b4.log" ] &&
	[ -z "$(find results -newer "$TMP/before-elsewhere")" ]
'

cp -r results/send/v3 "$TMP/v3"
cp -r series "$TMP/series.before"
make --no-print-directory am MBOX="$TMP/v3" > "$TMP/am" 2>&1
ok $? "make am MBOX=<the sent set> imports it"
same=0
for p in $(cat "$TMP/series.before/series"); do
	diff <(sed '1d;/^Date: /d' "$TMP/series.before/$p") <(sed '1d;/^Date: /d' "series/$p") > "$TMP/d" 2>&1
	# Nothing of the sender's stays: make am takes it off again.
	[ "$(grep -c '^[<>]' "$TMP/d")" = 0 ] || { same=1; diag < "$TMP/d"; }
done
cmp -s "$TMP/series.before/series" series/series || same=1
ok $same "the round trip reproduces every patch but its first line and Date:"
cmp -s "$TMP/series.before/cover-letter" series/cover-letter &&
	cmp -s "$TMP/series.before/change-id" series/change-id &&
	cmp -s "$TMP/series.before/revision" series/revision
ok $? "the cover letter, change-id and revision come back unchanged"
[ -f series/old/v3/series ] &&
	grep -q '^range-diff: series/old/v3/ (v3) against series/ (v3)$' "$TMP/am" &&
	grep -Eq '^2: +[0-9a-f]+ [=!] 2: +[0-9a-f]+ KVM: selftests' "$TMP/am"
ok $? "the previous revision is kept in series/old/v3/ and the range-diff printed"

mid=$(grep -m1 -i '^Message-Id:' "$TMP/v3"/0001-*.eml | sed 's/^[^:]*: //')
{
	for f in "$TMP"/v3/*.eml; do echo "From x Mon Sep 17 00:00:00 2001"; cat "$f"; echo; done
	cat <<MAIL
From x Mon Sep 17 00:00:00 2001
From: $reviewer
Date: Mon, 30 Nov 2026 09:00:00 -0800
Subject: Re: [PATCH v3 1/2] KVM: x86/pmu: Batch counter reprograms for emulated instructions
Message-Id: <kverify-test-reply@kverify.test>
In-Reply-To: $mid
References: $mid

Reviewed-by: $reviewer

MAIL
} > "$TMP/replies.mbox"
make --no-print-directory trailers MBOX="$TMP/replies.mbox" > "$TMP/tr" 2>&1
rc=$?
p1=$(sed -n 1p series/series)
p2=$(sed -n 2p series/series)
[ $rc = 0 ] && grep -q "^Reviewed-by: $reviewer$" "series/$p1" &&
	! grep -q '^Reviewed-by:' "series/$p2"
ok $? "make trailers puts the Reviewed-by on patch 1 only (exit $rc)"
[ $rc = 0 ] || tail -n 10 "$TMP/tr" | diag

sed -i '1s/^/EDITME: /' series/cover-letter
make --no-print-directory send > "$TMP/editme" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "cover-letter still says EDITME" "$TMP/editme"
ok $? "a cover letter with EDITME is refused (exit $rc)"
make --no-print-directory am > "$TMP/nombox" 2>&1
[ $? = 2 ] && grep -q "am needs MBOX=<file> or MSGID=<message-id>" "$TMP/nombox"
ok $? "make am without MBOX or MSGID exits 2 and says what it needs"
done_testing
