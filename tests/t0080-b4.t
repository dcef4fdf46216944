#!/bin/bash
# The upstream series through b4 0.12, offline: make send writes and checks
# the .eml set; make am of it reproduces series/ (apart from what b4
# changes by design: each patch's first line, the commit id, and its Date:,
# the time it was sent; the sender's From: and Signed-off-by:, which make
# send adds, are taken off again); make trailers puts a Reviewed-by on the
# right patch, also from a thread whose Subject: lines are RFC 2047
# encoded and folded (one more make trailers); a folded
# Subject imports; a cover saying EDITME is refused; --results moves what
# send writes; no git works on in the cache's repository after a command
# (no "git gc --auto" daemon).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 13
test_identity
copy=$TMP/repo
repo_copy "$copy"
repo_fromless "$copy"
cd "$copy" || exit 1
# The revision and the patches series/ holds, and the knob's place in it.
rev=$(cat series/revision)
np=$(grep -c . series/series)
knob=$(grep -n 'Batch-counter-reprograms' series/series | cut -d: -f1)

# The first b4 command imports the kernel tree into a git repository in the
# cache (~80,000 loose objects); gone, so that this one does.
rm -rf "$KVERIFY_CACHE/b4"
test_expect_success "make send writes the v$rev set and passes its own checks" '
	make --no-print-directory send > "$TMP/send" 2>&1 ||
	{ tail -n 20 "$TMP/send"; false; }
'
# git commit and git am start "git gc --auto" as a daemon past such a
# number of objects, which would pack the cache's repository for minutes
# after the command, outside its process group, timeout and lock.
test_expect_success 'after make send, nothing works on in the repository it imported (no git gc --auto)' '
	left=$(working_in "$KVERIFY_CACHE/b4") &&
	echo "$left" && [ -z "$left" ] && [ ! -e "$(echo "$KVERIFY_CACHE"/b4/*/.git/gc.pid)" ]
'
out=results/send/v$rev
test_expect_success "$((np + 1)) messages: [PATCH v$rev 0/$np] to $np/$np, change-id: and the Debian base (no base-commit) in the cover" - <<\EOT
	n=$(ls $out/*.eml 2>/dev/null | wc -l) &&
	[ "$n" = $((np + 1)) ] && grep -q "^Subject: \[PATCH v$rev 0/$np\]" $out/0000-*.eml &&
	grep -q "^Subject: \[PATCH v$rev $np/$np\]" $out/000$np-*.eml &&
	grep -q '^change-id: ' $out/0000-*.eml &&
	grep -q '^Made on Linux 7\.3\.4 as packaged by Debian (linux-source-7\.3 7\.3\.4-1~bpo13+1);$' $out/0000-*.eml &&
	! grep -q '^base-commit: ' $out/*.eml
EOT
test_expect_success 'b4 folded a long Subject: header (the next import must cope)' - <<\EOT
	grep -A1 '^Subject: ' $out/0001-*.eml | grep -q '^ '
EOT

touch "$TMP/before-elsewhere"
test_expect_success "with --results DIR, send writes DIR/send/v$rev and DIR/b4, nothing in results/" '
	./build/kverify --results "$TMP/elsewhere" send --env > "$TMP/send-elsewhere" 2>&1 &&
	[ "$(ls "$TMP/elsewhere/send/v$rev/"*.eml | wc -l)" = $((np + 1)) ] &&
	[ -s "$TMP/elsewhere/b4/b4.log" ] &&
	[ -z "$(find results -newer "$TMP/before-elsewhere")" ]
'

cp -r $out "$TMP/sent"
cp -r series "$TMP/series.before"
test_expect_success 'make am MBOX=<the sent set> imports it' '
	make --no-print-directory am MBOX="$TMP/sent" > "$TMP/am" 2>&1
'
test_expect_success 'the round trip reproduces every patch but its first line and Date:' - <<\EOT
	same=0 &&
	for p in $(cat "$TMP/series.before/series"); do
		# Nothing of the sender's stays: make am takes it off again.
		diff <(sed '1d;/^Date: /d' "$TMP/series.before/$p") <(sed '1d;/^Date: /d' "series/$p") > "$TMP/d" 2>&1 ||
		[ "$(grep -c '^[<>]' "$TMP/d")" = 0 ] || { same=1; cat "$TMP/d"; }
	done &&
	{ cmp -s "$TMP/series.before/series" series/series || same=1; } &&
	[ $same = 0 ]
EOT
test_expect_success 'the cover letter, change-id and revision come back unchanged' '
	cmp -s "$TMP/series.before/cover-letter" series/cover-letter &&
	cmp -s "$TMP/series.before/change-id" series/change-id &&
	cmp -s "$TMP/series.before/revision" series/revision
'
test_expect_success "the previous revision is kept in series/old/v$rev/ and the range-diff printed" '
	[ -f series/old/v$rev/series ] &&
	grep -q "^range-diff: series/old/v$rev/ (v$rev) against series/ (v$rev)$" "$TMP/am" &&
	grep -Eq "^$np: +[0-9a-f]+ [=!] $np: +[0-9a-f]+ KVM: selftests" "$TMP/am"
'

mid=$(grep -m1 -i '^Message-Id:' "$TMP"/sent/000$knob-*.eml | sed 's/^[^:]*: //')
{
	for f in "$TMP"/sent/*.eml; do echo "From x Mon Sep 17 00:00:00 2001"; cat "$f"; echo; done
	cat <<MAIL
From x Mon Sep 17 00:00:00 2001
From: $reviewer
Date: Mon, 30 Nov 2026 09:00:00 -0800
Subject: Re: [PATCH v$rev $knob/$np] KVM: x86/pmu: Batch counter reprograms for emulated instructions
Message-Id: <kverify-test-reply@kverify.test>
In-Reply-To: $mid
References: $mid

Reviewed-by: $reviewer

MAIL
} > "$TMP/replies.mbox"
make --no-print-directory trailers MBOX="$TMP/replies.mbox" > "$TMP/tr" 2>&1
rc=$?
pk=$(sed -n ${knob}p series/series)
others=$(grep -v "^$pk$" series/series | sed 's|^|series/|')
test_expect_success "make trailers puts the Reviewed-by on patch $knob only (exit $rc)" - <<\EOT
	tail -n 10 "$TMP/tr" &&
	[ $rc = 0 ] && grep -q "^Reviewed-by: $reviewer$" "series/$pk" &&
	! grep -q '^Reviewed-by:' $others
EOT

# A subject with non-ASCII in it reaches a mailbox RFC 2047 encoded, and
# folded: the mailbox still holds the patches, as git mailinfo and b4
# (Python's email package) read their Subject: lines.
encode_subjects() {
	python3 -c '
import re, sys
from email.header import Header
text = open(sys.argv[1], encoding="utf-8").read()
def enc(m):
    value = re.sub(r"\r?\n[ \t]", " ", m.group(1))
    return "Subject: " + Header(value, "utf-8", header_name="Subject").encode() + "\n"
sys.stdout.write(re.sub(r"^Subject: (.*(?:\r?\n[ \t].*)*)\r?\n", enc, text, flags=re.M))
' "$1"
}
test_expect_success "make trailers finds the patches of a thread whose Subject: lines are RFC 2047 encoded" '
	sed "s/^Reviewed-by: /Tested-by: /" "$TMP/replies.mbox" > "$TMP/plain.mbox" &&
	encode_subjects "$TMP/plain.mbox" > "$TMP/encoded.mbox" &&
	grep -q "^Subject: =?utf-8?" "$TMP/encoded.mbox" &&
	! grep -q "^Subject: *\[PATCH" "$TMP/encoded.mbox" &&
	make --no-print-directory trailers MBOX="$TMP/encoded.mbox" &&
	grep -q "^Tested-by: $reviewer\$" "series/$pk" &&
	! grep -q "^Tested-by:" $others
'

sed -i '1s/^/EDITME: /' series/cover-letter
make --no-print-directory send > "$TMP/editme" 2>&1
rc=$?
test_expect_success "a cover letter with EDITME is refused (exit $rc)" '
	tail -n 10 "$TMP/editme" &&
	[ $rc != 0 ] && grep -q "cover-letter:[0-9]* still says EDITME" "$TMP/editme"
'
test_expect_success 'make am without MBOX or MSGID exits 2 and says what it needs' '
	{ make --no-print-directory am > "$TMP/nombox" 2>&1; rc=$?; } &&
	cat "$TMP/nombox" &&
	[ $rc = 2 ] && grep -q "am needs MBOX=<file> or MSGID=<message-id>" "$TMP/nombox"
'
done_testing
