#!/bin/bash
# The series' revision loop, offline, as a contributor runs it
# (docs/workflow.md): vN posted for real into a fake sendmail, then a
# one-line change of the fix in the semantic patch -> make regenerate ->
# make verify-all -> make reroll -> make send SEND=1 (vN+1 with its
# changelog and "Link to vN") -> a review thread with trailers on the
# cover and on patch 1 -> make am -> make range-diff shows the code change
# and the trailers, nothing else.  Each refusal is a check with exit 2:
# a placeholder identity or recipient, no (or a red) make verify-all, a
# verify-all whose sims ran fewer traces than the send wants, a variant
# that drifted from the semantic patch, a posted revision sent again, an
# unedited changelog.  MSGID= offline is one error line.  The mails as
# sent are compared with the checked ones as mail: To:/Cc: in another
# order, folded otherwise and CRLF line ends pass, a body line more fails
# and is shown (RESEND=1 through a b4 that hands sendmail such mails).
# REFLECT=1 mails the sender alone, and patatt signs when a key is
# configured (a stand-in patatt module: the real one is not installed
# here).
#
# Cost: two make verify-all with SKIP=config,build,kabi,selftests,boot
# and one make verify of 7.3 on the test cache's fetched trees (no kernel
# build), one make regenerate, eight b4 runs: 231 s wall (408 s while
# four other jobs loaded the same 2-core VM), 185-202 CPU-s, measured
# with KVERIFY_TESTS=tests/t0086-series-loop.t tests/run under nice;
# with the two RESEND=1 sends of the mail comparison, ten b4 runs: 279 s
# wall while another suite loaded the VM, 170 CPU-s.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 32
test_identity
# The sim's verdict is t0200's to check; here it gates the loop, and 2000
# traces a target (not 20000) do that for the eight sims of the two
# verify-alls.
export KVERIFY_SIM_TRACES=2000
copy=$TMP/repo
repo_copy "$copy"
repo_fromless "$copy"
cd "$copy" || exit 1
rev=$(cat series/revision)
next=$((rev + 1))
np=$(grep -c . series/series)
quick=config,build,kabi,selftests,boot

# The operator's mail setup: git's sendemail.smtpserver names a local
# command, as for msmtp; this one keeps each mail and its arguments.
export GIT_CONFIG_GLOBAL=$TMP/gitconfig MAILDIR=$TMP/mail
mkdir -p "$MAILDIR"
cat > "$TMP/fake-sendmail" <<'SH'
#!/bin/sh
n=$(ls "$MAILDIR" | grep -c '\.args$')
printf '%s\n' "$@" > "$MAILDIR/$n.args"
cat > "$MAILDIR/$n.mail"
SH
chmod +x "$TMP/fake-sendmail"
git config --global sendemail.smtpserver "$TMP/fake-sendmail"
mails() { ls "$MAILDIR" | grep -c '\.mail$'; }
# Every mail went to the sender alone: "-i -f <from> <rcpt>...".
only_sender() {
	local a
	for a in "$MAILDIR"/*.args; do
		[ "$(sed 1,3d "$a")" = "$sender_email" ] || return 1
	done
}
# kverify itself, for its exit status (make turns every failure into 2).
kv_send() { env KVERIFY_SEND=1 KVERIFY_TO="$reviewer" KVERIFY_CC="$tester" "$@" ./build/kverify send --env; }

test_expect_success 'a placeholder identity is refused (exit 2), nothing mailed' '
	GIT_COMMITTER_EMAIL=maintainers@users.noreply.a-seed-35fed79b.example kv_send > "$TMP/o" 2>&1
	[ $? = 2 ] && grep -q "reserved top-level domain .example" "$TMP/o" && [ "$(mails)" = 0 ]
'
test_expect_success 'a recipient in a reserved domain is refused (exit 2), nothing mailed' '
	kv_send KVERIFY_CC=list@example.org > "$TMP/o" 2>&1
	[ $? = 2 ] && grep -q "CC list@example.org: an address in the reserved domain example.org" "$TMP/o" &&
	[ "$(mails)" = 0 ]
'
test_expect_success 'SEND=1 without a make verify-all of the series is refused (exit 2), nothing mailed' '
	kv_send > "$TMP/o" 2>&1
	[ $? = 2 ] && grep -q "send: 7.3: no result of make verify" "$TMP/o" &&
	grep -q "run .make verify-all." "$TMP/o" && [ "$(mails)" = 0 ]
'

# MSGID= with no network (a network namespace of its own): b4's failure
# is one kverify line saying what works offline, not a traceback.
if unshare -rn true 2> /dev/null; then
	test_expect_success 'make am MSGID= offline: one line naming MBOX= as the offline way, no traceback, series/ untouched' '
		cp -r series "$TMP/series.msgid" &&
		{ KVERIFY_MSGID="<kverify-t0086@lore.kernel.org>" unshare -rn ./build/kverify am --env > "$TMP/o" 2>&1; [ $? = 1 ]; } &&
		grep -q "^kverify: b4 could not reach the network (.*): MSGID= needs lore.kernel.org; offline, give MBOX=" "$TMP/o" &&
		! grep -q "Traceback" "$TMP/o" && diff -r "$TMP/series.msgid" series
	'
else
	skip 'make am MSGID= offline' 'unshare -rn (a network namespace) is not available here'
fi

# A series edited by hand alone drifts from the semantic patch: the cocci
# step of make verify says so, and make send refuses.
old='/\* pmc_read_counter() includes the emulated events. \*/'
new='/* pmc_read_counter() has folded the emulated events in. */'
new_re='/\* pmc_read_counter() has folded the emulated events in\. \*/'
cp series/0005-*.patch "$TMP/0005.orig"
sed -i "s|$old|$new|" series/0005-*.patch
./build/kverify --skip $quick verify 7.3 > "$TMP/v73" 2>&1
test_expect_success 'a variant the semantic patch does not write is refused (exit 2): the cocci verdict' '
	kv_send > "$TMP/o" 2>&1
	[ $? = 2 ] && grep -q "send: 7.3: cocci FAIL: .*differ from the series: .* make the same change in cocci/emulated_counter_reprogram_tolerance.cocci, then make regenerate" "$TMP/o" &&
	[ "$(mails)" = 0 ]
'
cp "$TMP/0005.orig" series/0005-*.patch

make --no-print-directory -j2 verify-all SKIP=$quick > "$TMP/va" 2>&1
test_expect_success "make verify-all SKIP=$quick passes on v$rev" '[ $? = 0 ] || { tail -n 20 "$TMP/va"; false; }'

# Its sims ran 2000 traces: a send that wants the default 20000 is refused.
test_expect_success 'SEND=1 after a verify-all of fewer sim traces than the send wants is refused (exit 2), nothing mailed' '
	env -u KVERIFY_SIM_TRACES KVERIFY_SEND=1 KVERIFY_TO="$reviewer" KVERIFY_CC="$tester" ./build/kverify send --env > "$TMP/o" 2>&1
	[ $? = 2 ] && grep -q "send: 7.3: the sim was asked for 2000 traces, make send wants 20000: run make verify-all again without KVERIFY_SIM_TRACES" "$TMP/o" &&
	[ "$(mails)" = 0 ]
'

# The gate reads the reports as JSON: a report without the cocci row, or
# one cut short, is no ground for a send.
cp results/7.3/report.json "$TMP/report.7.3"
test_expect_success 'a report without its cocci row, or cut short, is refused (exit 2), nothing mailed' '
	grep -v "{\"name\": \"cocci\"" "$TMP/report.7.3" > results/7.3/report.json &&
	! grep -q "\"cocci\"" results/7.3/report.json &&
	{ kv_send > "$TMP/o" 2>&1; rc=$?; tail -n 3 "$TMP/o"; [ $rc = 2 ]; } &&
	grep -q "send: 7.3: the report has no cocci step" "$TMP/o" &&
	head -c 300 "$TMP/report.7.3" > results/7.3/report.json &&
	{ kv_send > "$TMP/o" 2>&1; rc=$?; tail -n 3 "$TMP/o"; [ $rc = 2 ]; } &&
	grep -q "send: 7.3: [^ ]*results/7.3/report.json: byte [0-9]*: [^:]*: run make verify-all again" "$TMP/o" &&
	[ "$(mails)" = 0 ]
'
cp "$TMP/report.7.3" results/7.3/report.json

# A stand-in patatt: b4 signs through patatt.rfc2822_sign() when a key is
# configured; this one adds the header patatt adds, with a fixed value.
mkdir -p "$TMP/py"
cat > "$TMP/py/patatt.py" <<'PY'
class NoKeyError(Exception):
    pass
class SigningError(Exception):
    pass
def rfc2822_sign(data):
    return b"X-Developer-Signature: v=1; a=ed25519-sha256; b=kverify-test\n" + data
PY
git config --global patatt.signingkey ed25519:kverify-test
PYTHONPATH=$TMP/py make --no-print-directory send SEND=1 REFLECT=1 TO="$reviewer" CC="$tester" > "$TMP/reflect" 2>&1
test_expect_success 'REFLECT=1 delivers every mail to the sender alone, To:/Cc: as for the list, patatt-signed' '
	[ "$(mails)" = $((np + 1)) ] &&
	only_sender &&
	grep -q "^To: .*$(echo "$reviewer" | sed "s/+/[+]/")" "$MAILDIR/0.mail" &&
	grep -q "^X-Developer-Signature: .*b=kverify-test" "$MAILDIR/0.mail" &&
	grep -q ", patatt-signed" "$TMP/reflect" &&
	[ ! -e "results/send/v$rev/message-id" ] && [ ! -e series/message-id ]
'
git config --global --unset patatt.signingkey
rm -f "$MAILDIR"/*

make --no-print-directory send SEND=1 TO="$reviewer" CC="$tester" > "$TMP/send" 2>&1
st=$?
test_expect_success "make send SEND=1 posts v$rev: $((np + 1)) mails through sendmail, unsigned without a key (exit $st)" '
	[ $st = 0 ] && [ "$(mails)" = $((np + 1)) ] &&
	grep -q "^Subject: \[PATCH v$rev 0/$np\]" "$MAILDIR/0.mail" &&
	grep -q "^Subject: \[PATCH v$rev $np/$np\]" "$MAILDIR/$np.mail" &&
	grep -qx "$(echo "$reviewer" | sed "s/.*<//; s/>//; s/+/[+]/")" "$MAILDIR/1.args" &&
	! grep -q "^X-Developer-Signature:" "$MAILDIR"/*.mail &&
	grep -q ", unsigned (no patatt key)" "$TMP/send"
'
[ $st = 0 ] || tail -n 20 "$TMP/send" | diag
mid=$(cat results/send/v$rev/message-id 2>/dev/null)
test_expect_success 'the cover'"'"'s Message-Id is recorded as posted, and the mails as sent' '
	[ -n "$mid" ] && [ "$(cat series/message-id)" = "$mid" ] &&
	tr -d "\r" < "$MAILDIR/0.mail" | grep -qi "^Message-Id: <$mid>$" &&
	cmp "$MAILDIR/3.mail" "results/send/v$rev/sent/0003.eml" &&
	grep -q "^posted v$rev: https://lore.kernel.org/r/$mid" "$TMP/send"
'
# b4 rerolls its prep branch after a real send ("Created new revision
# v<rev+1>"); that branch is kverify's working copy, so the user is told
# that series/revision stays the revision posted, and b4's line is in
# its log only.
test_expect_success "after the send series/revision says $rev, and b4's reroll of its working branch is said as such" '
	[ "$(cat series/revision)" = $rev ] &&
	grep -q "Created new revision v$((rev + 1))" results/b4/b4.log &&
	! grep -q "Created new revision" "$TMP/send" &&
	grep -qx "series/revision stays $rev, the revision posted; b4 began v$((rev + 1)) in kverify.s working branch, as it does after a send: make reroll makes v$((rev + 1)) of series/" "$TMP/send"
'
test_expect_success "the posted v$rev is not sent or rewritten again (exit 2), RESEND=1 says how" '
	kv_send > "$TMP/o" 2>&1
	[ $? = 2 ] && grep -q "v$rev was posted as <$mid>" "$TMP/o" &&
	grep -q "RESEND=1 sends v$rev again" "$TMP/o" &&
	[ "$(mails)" = $((np + 1)) ] && [ "$(cat results/send/v$rev/message-id)" = "$mid" ]
'

# b4 hands sendmail other bytes than it wrote with -o: the addresses of
# To: and Cc: in a Python set's order (another on each run), the headers
# folded otherwise, CRLF line ends.  A stand-in b4 does that every time:
# on a real send it hands kverify's recorder each mail as $TMP/mangle
# rewrites it, and with MANGLE_BODY=1 adds a line to patch 3's body.
list="Kverify Test List <${sender_email%@*}+list@${sender_email#*@}>"
list2="Kverify Test Other List <${sender_email%@*}+list2@${sender_email#*@}>"
export REAL_B4 MANGLE=$TMP/mangle
REAL_B4=$(command -v b4)
mkdir -p "$TMP/b4-mangles"
cat > "$TMP/b4-mangles/b4" <<'SH'
#!/bin/sh
for v in $(env | sed -n 's/^GIT_CONFIG_VALUE_[0-9]*=\(.*\/sendmail-keep\)$/\1/p'); do
	mv "$v" "$v.b4" &&
	printf '#!/bin/sh\n"$MANGLE" | "%s" "$@"\n' "$v.b4" > "$v" && chmod +x "$v" || exit 1
done
exec "$REAL_B4" "$@"
SH
cat > "$TMP/mangle" <<'PY'
#!/usr/bin/python3
import os, re, sys
head, sep, body = sys.stdin.buffer.read().replace(b"\r\n", b"\n").partition(b"\n\n")
lines = []
for line in re.sub(rb"\n[ \t]+", b" ", head).split(b"\n"):
    m = re.match(rb"(?i)(to|cc): *(.*)", line)
    if m:
        addrs = [a.strip() for a in m.group(2).split(b",")]
        line = m.group(1) + b": " + b",\n\t".join(reversed(addrs))
    lines.append(line)
if os.environ.get("MANGLE_BODY") and re.search(rb"\nSubject: [^\n]* 3/", b"\n" + head):
    body = body.replace(b"\n", b"\nchanged on the way\n", 1)
sys.stdout.buffer.write((b"\n".join(lines) + sep + body).replace(b"\n", b"\r\n"))
PY
chmod +x "$TMP/b4-mangles/b4" "$TMP/mangle"
kv_mangled() {
	kv_send PATH="$TMP/b4-mangles:$PATH" KVERIFY_RESEND=1 \
		KVERIFY_TO="$reviewer, $list" KVERIFY_CC="$tester, $list2" "$@"
}
rm -f "$MAILDIR"/*
kv_mangled MANGLE_BODY=1 > "$TMP/o" 2>&1
st=$?
test_expect_success "a mail that went out with a body line more than was checked fails (exit $st), the line shown" '
	cat "$TMP/o" &&
	[ $st = 1 ] && [ "$(mails)" = $((np + 1)) ] &&
	grep -q "sent/0003.eml went out other than .*/v$rev/0003-.*\.eml, which was checked:$" "$TMP/o" &&
	[ "$(grep -c "went out other than" "$TMP/o")" = 1 ] &&
	grep -A2 -x "  body line 2:" "$TMP/o" | grep -qx "    sent    .changed on the way." &&
	! grep -q "not sent: header\|not checked: header" "$TMP/o"
'
rm -f "$MAILDIR"/*
kv_mangled > "$TMP/o" 2>&1
st=$?
test_expect_success "RESEND=1: mails that went out with To:/Cc: in another order, folded otherwise, CRLF, are the checked ones (exit $st)" '
	cat "$TMP/o" &&
	[ $st = 0 ] && [ "$(mails)" = $((np + 1)) ] && ! grep -q "went out other than" "$TMP/o" &&
	grep -q "^To: .*,$(printf "\r")$" "results/send/v$rev/sent/0001.eml" &&
	! grep -q "^To: .*,$" "results/send/v$rev/0001.eml" &&
	grep -q "^posted v$rev: https://lore.kernel.org/r/" "$TMP/o"
'
mid=$(cat results/send/v$rev/message-id 2>/dev/null)

# The review of v$rev asks for a one-line change of the fix: made where
# every variant comes from, the semantic patch.
grep -q "$old" cocci/emulated_counter_reprogram_tolerance.cocci
test_expect_success 'the semantic patch has the line the review asks to change' '[ $? = 0 ]'
sed -i "s|$old|$new|" cocci/emulated_counter_reprogram_tolerance.cocci

cp -r series backports "$TMP/"
regenerated() {
	local d
	for d in series backports/7.2 backports/6.12; do
		grep -q "^+.*$new_re" $d/0005-*.patch && ! grep -q "$old" $d/0005-*.patch || return 1
	done
}
only_patch5() {
	local d f n=0
	for d in series backports/7.2 backports/6.12; do
		for f in "$TMP/$d"/*; do
			[ -f "$f" ] || continue
			diff <(grep -v "^Origin: \|^Forwarded: " "$f") \
				<(grep -v "^Origin: \|^Forwarded: " "$d/${f##*/}") > "$TMP/d"
			[ -s "$TMP/d" ] || continue
			n=$((n + 1))
			case $f in */0005-*) ;; *) cat "$TMP/d"; return 1 ;; esac
			[ "$(grep -c "^<" "$TMP/d")" = 2 ] && grep -q "^< index " "$TMP/d" &&
			grep -q "^< +.*$old" "$TMP/d" || { cat "$TMP/d"; return 1; }
		done
	done
	[ $n = 3 ]
}
make --no-print-directory regenerate > "$TMP/regen" 2>&1
st=$?
test_expect_success "make regenerate rewrites series/ and both backports from the semantic patch, and keeps backports/6.1, fixes only (exit $st)" '
	[ $st = 0 ] && regenerated &&
	grep -qx "6.1 (backports/6.1): kept: a series of fixes only (every patch has Fixes:), which the semantic patch does not write" "$TMP/regen" &&
	diff <(grep -v "^Origin: \|^Forwarded: " "$TMP/backports/6.1/0001-"*.patch) \
		<(grep -v "^Origin: \|^Forwarded: " backports/6.1/0001-*.patch)
'
[ $st = 0 ] || tail -n 20 "$TMP/regen" | diag
test_expect_success 'regenerate rewrites patch 5 alone: its changed line and its index line, the message as it was (Origin: aside)' '
	only_patch5
'
test_expect_success "the backports' Origin: follows the posting of v$rev" '
	grep -q "^Origin: backport, https://lore.kernel.org/r/$mid$" backports/7.2/0005-*.patch &&
	grep -q "^Forwarded: https://lore.kernel.org/r/$mid$" backports/6.12/0001-*.patch
'

make --no-print-directory -j2 verify-all SKIP=$quick > "$TMP/va2" 2>&1
test_expect_success 'make verify-all passes on the regenerated variants' '[ $? = 0 ] || { tail -n 20 "$TMP/va2"; false; }'

make --no-print-directory reroll > "$TMP/reroll" 2>&1
st=$?
test_expect_success "make reroll starts v$next: the changelog names patch 5, the link is v$rev's posting (exit $st)" '
	[ $st = 0 ] && [ "$(cat series/revision)" = $next ] && [ ! -e series/message-id ] &&
	grep -qx "Changes in v$next:" series/cover-letter &&
	grep -qx -- "- Patch 5, KVM: x86/pmu: Batch counter reprograms for emulated instructions: EDITME: say what changed (the range-diff shows it)" series/cover-letter &&
	grep -qx -- "- Link to v$rev: https://lore.kernel.org/r/$mid" series/cover-letter &&
	[ "$(grep -c "^- Patch" series/cover-letter)" = 1 ]
'
[ $st = 0 ] || tail -n 20 "$TMP/reroll" | diag
test_expect_success "series/old/v$rev is v$rev as it went out (the sent mails, without the sender's lines)" '
	[ "$(cat series/old/v$rev/message-id)" = "$mid" ] &&
	grep -q "$old" series/old/v$rev/0005-*.patch &&
	! grep -q "$sender_email" series/old/v$rev/*.patch &&
	[ "$(grep -c . series/old/v$rev/series)" = $np ]
'
test_expect_success 'a second reroll is refused (exit 2): v'$next' is not posted' '
	./build/kverify reroll --env > "$TMP/o" 2>&1
	[ $? = 2 ] && grep -q "v$next is not posted" "$TMP/o" && [ "$(cat series/revision)" = $next ]
'
test_expect_success 'the changelog as reroll wrote it (EDITME) is refused (exit 2)' '
	kv_send > "$TMP/o" 2>&1
	[ $? = 2 ] && grep -q "series/cover-letter:[0-9]* still says EDITME" "$TMP/o"
'
# The author writes the changelog line.
sed -i 's/: EDITME: say what changed (the range-diff shows it)$/: reword the comment on the fold in pmc_stop_counter()/' series/cover-letter

rm -f "$MAILDIR"/*
make --no-print-directory send SEND=1 TO="$reviewer" CC="$tester" > "$TMP/send2" 2>&1
st=$?
mid2=$(cat results/send/v$next/message-id 2>/dev/null)
test_expect_success "make send SEND=1 posts v$next with its changelog and the link to v$rev (exit $st)" '
	[ $st = 0 ] && [ "$(mails)" = $((np + 1)) ] && [ -n "$mid2" ] && [ "$mid2" != "$mid" ] &&
	tr -d "\r" < "$MAILDIR/0.mail" > "$TMP/cover" &&
	grep -q "^Subject: \[PATCH v$next 0/$np\]" "$TMP/cover" &&
	grep -qx "Changes in v$next:" "$TMP/cover" &&
	grep -qx -- "- Link to v$rev: https://lore.kernel.org/r/$mid" "$TMP/cover" &&
	tr -d "\r" < "$MAILDIR/5.mail" | grep -q "^+.*$new_re"
'
[ $st = 0 ] || tail -n 20 "$TMP/send2" | diag

# The review thread of v$next: a Reviewed-by on the cover (for every
# patch), a Tested-by on patch 1.
cmid=$(tr -d '\r' < "$MAILDIR/0.mail" | grep -i -m1 '^Message-Id:' | sed 's/^[^:]*: *//')
p1mid=$(tr -d '\r' < "$MAILDIR/1.mail" | grep -i -m1 '^Message-Id:' | sed 's/^[^:]*: *//')
{
	for f in "$MAILDIR"/*.mail; do echo "From x Mon Sep 17 00:00:00 2001"; tr -d '\r' < "$f"; echo; done
	cat <<MAIL
From x Mon Sep 17 00:00:00 2001
From: $reviewer
Date: Mon, 07 Dec 2026 09:00:00 +0000
Subject: Re: [PATCH v$next 0/$np] KVM: x86/pmu: Batch counter reprograms for emulated instructions
Message-Id: <kverify-t0086-review@$(echo "$sender_email" | sed 's/.*@//')>
In-Reply-To: $cmid
References: $cmid

For the series:

Reviewed-by: $reviewer

From x Mon Sep 17 00:00:00 2001
From: $tester
Date: Mon, 07 Dec 2026 10:00:00 +0000
Subject: Re: [PATCH v$next 1/$np] KVM: x86/pmu: Re-period a running counter from the value the guest wrote
Message-Id: <kverify-t0086-test@$(echo "$sender_email" | sed 's/.*@//')>
In-Reply-To: $p1mid
References: $cmid $p1mid

Tested-by: $tester

MAIL
} > "$TMP/thread.mbox"
make --no-print-directory am MBOX="$TMP/thread.mbox" > "$TMP/am" 2>&1
st=$?
test_expect_success "make am of the thread: the Reviewed-by on every patch, the Tested-by on patch 1 (exit $st)" '
	[ $st = 0 ] && [ "$(cat series/revision)" = $next ] && [ "$(cat series/message-id)" = "$mid2" ] &&
	[ "$(grep -l "^Reviewed-by: $reviewer$" series/0*.patch | wc -l)" = $np ] &&
	[ "$(grep -l "^Tested-by: $tester$" series/0*.patch)" = "$(ls series/0001-*.patch)" ]
'
[ $st = 0 ] || tail -n 20 "$TMP/am" | diag

make --no-print-directory range-diff > "$TMP/rd" 2>&1
st=$?
# What changed, as the range-diff's inner diff lines ("    -+", "    ++",
# "    +    Reviewed-by: ..."), apart from its headers; a "    +" alone is
# the blank line before a patch's first trailer.
grep -E '^    [-+]' "$TMP/rd" | grep -v -E '^    [-+]{3} ' > "$TMP/changed"
test_expect_success "make range-diff v$rev..v$next shows only the code change and the trailers (exit $st)" '
	[ $st = 0 ] && grep -q "^range-diff: series/old/v$rev/ (v$rev) against series/ (v$next)" "$TMP/rd" &&
	[ "$(grep -cx -- "    -+.*$old" "$TMP/changed")" = 1 ] &&
	[ "$(grep -cx -- "    ++.*$new_re" "$TMP/changed")" = 1 ] &&
	[ "$(grep -c "^    +    Reviewed-by: $reviewer$" "$TMP/changed")" = $np ] &&
	[ "$(grep -c "^    +    Tested-by: $tester$" "$TMP/changed")" = 1 ] &&
	! grep -vx -e "    -+.*$old" -e "    ++.*$new_re" -e "    +    Reviewed-by: $reviewer" \
		-e "    +    Tested-by: $tester" -e "    +" "$TMP/changed"
'
[ $st = 0 ] || diag < "$TMP/rd"
test_expect_success "after the range-diff, series/ still holds v$next with its trailers" '
	[ "$(cat series/revision)" = $next ] && grep -q "^Tested-by: $tester$" series/0001-*.patch
'
# The review's trailers reach every variant: make regenerate carries them
# into backports/ (the fixes-only 6.1 series too), above the backport note.
# Once merged: series/merged names the upstream commit of series/'s patch
# 1 (here the checkout's own HEAD, a commit that exists), and every
# variant's patch of that name begins with stable's "commit SHA
# upstream." line, the others not.
up=$(git -C "$_trash" rev-parse HEAD)
printf '%s %s\n' "$(basename series/0001-*.patch)" "$up" > series/merged
make --no-print-directory regenerate > "$TMP/regen2" 2>&1
st=$?
test_expect_success "make regenerate carries the Reviewed-by and Tested-by into backports/, above the [ backport ] note (exit $st)" '
	[ $st = 0 ] &&
	for f in backports/*/0001-*.patch; do
		grep -qx "Reviewed-by: $reviewer" "$f" && grep -qx "Tested-by: $tester" "$f" &&
		sed -n "/^Reviewed-by: /,/^---$/p" "$f" | grep -q "^\[ backport" || return 1
	done &&
	grep -qx "Reviewed-by: $reviewer" backports/7.2/0005-*.patch &&
	! grep -q "^Tested-by:" backports/7.2/0005-*.patch
'
[ $st = 0 ] || tail -n 20 "$TMP/regen2" | diag
body1() { sed -n "/^$/{n;p;q}" "$1"; }
test_expect_success "series/merged names patch 1 upstream: each variant's patch 1 begins \"commit SHA upstream.\", no other patch" '
	for f in backports/*/0001-*.patch; do
		[ "$(body1 "$f")" = "commit $up upstream." ] || { echo "$f: $(body1 "$f")"; return 1; }
	done &&
	[ "$(grep -lx "commit $up upstream." backports/*/*.patch | wc -l)" = "$(ls backports/*/0001-*.patch | wc -l)" ] &&
	! grep -qx "commit $up upstream." series/*.patch
'
# checkpatch wants 'commit SHA ("title")' of that line (GIT_COMMIT_ID) and,
# in a tree without git, knows no commit (UNKNOWN_COMMIT_ID): the step
# counts neither about stable's line, and says so.
make --no-print-directory verify KERNEL=6.12 SKIP=sim,cocci,$quick > "$TMP/v612" 2>&1
st=$?
test_expect_success "the checkpatch step does not count checkpatch's findings on stable's line, and says so (exit $st)" '
	json results/6.12/report.json "[s[\"reason\"] for s in r[\"steps\"] if s[\"name\"] == \"checkpatch\"][0]" > "$TMP/cp612" &&
	cat "$TMP/cp612" && [ $st = 0 ] &&
	grep -q "; 2 about stable.s \"commit SHA upstream.\" line, not counted" "$TMP/cp612"
'

# A revision whose patches only collected trailers: reroll names them on
# one line and asks (EDITME) only why there is a new revision.
make --no-print-directory reroll > "$TMP/reroll2" 2>&1
st=$?
test_expect_success "make reroll after the review: trailers collected on one line, no EDITME per patch (exit $st)" '
	[ $st = 0 ] &&
	grep -qx -- "- Collected trailers (patch $(seq -s ", " 1 $np))" series/cover-letter &&
	grep -qx -- "- EDITME: no code changed: say why there is a new revision" series/cover-letter &&
	[ "$(sed -n "/^Changes in v$((next + 1)):/,/^- Link to v$next:/p" series/cover-letter | grep -c EDITME)" = 1 ]
'
[ $st = 0 ] || tail -n 20 "$TMP/reroll2" | diag
done_testing
