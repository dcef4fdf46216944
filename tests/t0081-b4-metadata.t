#!/bin/bash
# What the people who read the patches see is true (#14), through a round
# trip: make send -> make am of the result plus a reply thread with
# trailers on the cover and on one patch -> make range-diff -> make send
# of the next revision.  No placeholder identity and no local-only commit id in any mail;
# the sender's own identity and Signed-off-by; the Debian base said in
# words, not as a base-commit; recipients from the tree's
# get_maintainer.pl, shown first, TO=/CC= override them; every trailer of
# the thread accounted for; b4's own messages reach the user; range-diff
# finds the previous revision or says why it cannot.
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 23
test_identity
list=${sender_email%@*}+list@${sender_email#*@}
copy=$TMP/repo
repo_copy "$copy"
repo_fromless "$copy"
cd "$copy" || exit 1
# The revision series/ holds, its patches, the knob (Luka's) and the selftest.
rev=$(cat series/revision)
next=$((rev + 1))
np=$(grep -c . series/series)
knob=$(grep -n 'Batch-counter-reprograms' series/series | cut -d: -f1)
pk=$(sed -n ${knob}p series/series)
pt=$(sed -n ${np}p series/series)
out=results/send/v$rev


# Identities: none, a placeholder, a placeholder left in a patch.
mkdir "$TMP/home"
test_expect_success 'make send without a git identity exits 2, says how to set one, writes nothing' - <<\EOT
	env -u GIT_COMMITTER_NAME -u GIT_COMMITTER_EMAIL -u GIT_AUTHOR_NAME \
		-u GIT_AUTHOR_EMAIL -u EMAIL HOME="$TMP/home" \
		XDG_CONFIG_HOME="$TMP/home" GIT_CONFIG_NOSYSTEM=1 \
		make --no-print-directory send > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" && cat "$TMP/out" &&
	[ $rc = 2 ] && grep -q 'your git identity " <>" is no name' "$TMP/out" &&
	grep -q 'git config --global user.email' "$TMP/out" && [ ! -d results/send ]
EOT
test_expect_success "make send refuses the placeholder identity 'Patch Author'" - <<\EOT
	GIT_COMMITTER_NAME='Patch Author' GIT_COMMITTER_EMAIL=patch.author@example.invalid \
		make --no-print-directory send > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" && cat "$TMP/out" &&
	[ $rc = 2 ] && grep -q 'is a placeholder name' "$TMP/out"
EOT
test_expect_success 'make send refuses an example.invalid address' - <<\EOT
	GIT_COMMITTER_EMAIL=me@example.invalid make --no-print-directory send > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" && cat "$TMP/out" &&
	[ $rc = 2 ] && grep -q 'is an address in the reserved top-level domain .invalid' "$TMP/out"
EOT
cp "series/$pk" "$TMP/pk"
test_expect_success 'a placeholder left in a patch of series/ is refused with file:line' - <<\EOT
	sed -i 's/^From: .*/From: Patch Author <patch.author@example.invalid>/' "series/$pk" &&
	make --no-print-directory send > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" && cat "$TMP/out" &&
	[ $rc = 2 ] && grep -q "^series/$pk:2: From: Patch Author <patch.author@example.invalid>: a placeholder name" "$TMP/out" &&
	[ ! -d results/send ]
EOT
cp "$TMP/pk" "series/$pk"
b=$(ls backports/6.12/*Batch-counter-reprograms*.patch)
cp "$b" "$TMP/b2"
test_expect_success 'make bundle refuses a series with a placeholder before any step runs' - <<\EOT
	sed -i 's/^Signed-off-by: Luka Absandze .*/Signed-off-by: Patch Author <patch.author@example.invalid>/' "$b" &&
	make --no-print-directory bundle KERNEL=6.12 > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" && tail -n 5 "$TMP/out" &&
	[ $rc != 0 ] && grep -q "/$b:[0-9]*: Signed-off-by: Patch Author <patch.author@example.invalid>: a placeholder name" "$TMP/out" &&
	grep -q 'placeholder identities never leave this machine' "$TMP/out" && [ ! -e results/6.12 ]
EOT
cp "$TMP/b2" "$b"
test_expect_success 'no placeholder identity is left in series/ or backports/ of the copy' - <<\EOT
	! grep -rE 'example\.invalid|Patch Author|@[A-Za-z0-9.-]*\.(example|test|invalid|localhost)>' series backports &&
	[ ! -e series/IDENTITY ]
EOT

# TO= and CC= override get_maintainer.pl.
test_expect_success "TO=/CC= replace get_maintainer.pl's recipients" - <<\EOT
	make --no-print-directory send TO="$reviewer" CC="$list" > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" && tail -n 20 "$TMP/out" &&
	cover=$(ls $out/0000-*.eml) &&
	[ $rc = 0 ] && grep -q "^To: $reviewer$" "$TMP/out" &&
	sed -n '/^To:/,/^[A-Z]/p' "$cover" | grep -qF "${reviewer#*<}" &&
	! sed -n '/^To:/,/^[A-Z]/p' "$cover" | grep -q 'pbonzini' &&
	grep -qF "$list" "$cover"
EOT

# This revision: recipients, base, identities.
test_expect_success "make send of v$rev" '
	make --no-print-directory send > "$TMP/send" 2>&1
	rc=$? && tail -n 20 "$TMP/send" &&
	[ $rc = 0 ]
'
cover=$(ls $out/0000-*.eml)
test_expect_success "get_maintainer.pl's maintainers To, its lists Cc, shown before b4 runs" - <<\EOT
	to=$(grep -n '^To: ' "$TMP/send" | head -n 1 | cut -d: -f1) &&
	b4=$(grep -n '^Converted the branch' "$TMP/send" | cut -d: -f1) &&
	echo "To: on line $to, b4 on line $b4" &&
	[ -n "$to" ] && [ -n "$b4" ] && [ "$to" -lt "$b4" ] &&
	grep -q '^    Paolo Bonzini <pbonzini@redhat.com>$\|^To: Paolo Bonzini <pbonzini@redhat.com>$' "$TMP/send" &&
	grep -q '^    kvm@vger.kernel.org$' "$TMP/send" &&
	grep -q "from the tree's scripts/get_maintainer.pl" "$TMP/send" &&
	sed -n '/^To:/,/^[A-Z]/p' "$cover" | grep -q 'pbonzini@redhat.com' &&
	sed -n '/^Cc:/,/^[A-Z]/p' "$cover" | grep -q 'linux-kselftest@vger.kernel.org'
EOT
test_expect_success "no base-commit and no local commit id: the cover names Linux 7.3.4 and Debian's 7.3.4-1~bpo13+1" - <<\EOT
	local_id=$(git -C "$KVERIFY_CACHE"/b4/deb-linux-source-7.3-* rev-parse kverify-base) &&
	[ -n "$local_id" ] && ! grep -r "${local_id:0:12}" $out &&
	! grep '^base-commit:' $out/*.eml &&
	grep -q '^Made on Linux 7\.3\.4 as packaged by Debian (linux-source-7\.3 7\.3\.4-1~bpo13+1);$' "$cover"
EOT
test_expect_success "the sender's From: and one Signed-off-by on each patch; the real author kept; no placeholder" - <<\EOT
	bad=0 &&
	for f in $(ls $out/*.eml | grep -v '/0000-'); do
		[ "$(grep -c "^Signed-off-by: $sender$" "$f")" = 1 ] || { bad=1; echo "$f: not one sender sign-off"; }
	done &&
	[ $bad = 0 ] &&
	! grep 'example\.invalid\|Patch Author' $out/*.eml &&
	grep -q '^From: Luka Absandze <absandze@amazon.de>$' $out/000$knob-*.eml &&
	grep -q "^From: $sender$" "$cover"
EOT

# The reply thread: a Reviewed-by on the cover, a Tested-by on the selftest.
cmid=$(grep -m1 -i '^Message-Id:' "$cover" | sed 's/^[^:]*: //')
mid2=$(grep -m1 -i '^Message-Id:' $out/000$np-*.eml | sed 's/^[^:]*: //')
{
	for f in $out/*.eml; do echo "From x Mon Sep 17 00:00:00 2001"; cat "$f"; echo; done
	cat <<MAIL
From x Mon Sep 17 00:00:00 2001
From: $reviewer
Date: Mon, 30 Nov 2026 09:00:00 -0800
Subject: Re: [PATCH v$rev 0/$np] KVM: x86/pmu: Batch counter reprograms for emulated instructions
Message-Id: <kverify-test-cover-reply@kverify.test>
In-Reply-To: $cmid
References: $cmid

For the series:

Reviewed-by: $reviewer

From x Mon Sep 17 00:00:00 2001
From: $tester
Date: Mon, 30 Nov 2026 10:00:00 -0800
Subject: Re: [PATCH v$rev $np/$np] KVM: selftests: Add a test for emulated_counter_reprogram_tolerance
Message-Id: <kverify-test-patch-reply@kverify.test>
In-Reply-To: $mid2
References: $cmid $mid2

Tested-by: $tester

MAIL
} > "$TMP/thread.mbox"
test_expect_success "make am keeps the cover's Reviewed-by on every patch and the Tested-by on patch $np" - <<\EOT
	make --no-print-directory am MBOX="$TMP/thread.mbox" > "$TMP/am" 2>&1
	rc=$? && echo "exit $rc" && tail -n 20 "$TMP/am" &&
	bad=0 &&
	for p in $(cat series/series); do
		{ grep -q "^Reviewed-by: $reviewer$" "series/$p" || bad=1; } &&
		{ [ "$p" = "$pt" ] || ! grep -q '^Tested-by:' "series/$p" || bad=1; }
	done &&
	[ $bad = 0 ] &&
	grep -q "^Tested-by: $tester$" "series/$pt"
EOT
test_expect_success "it prints each trailer it added, and b4's own report" '
	bad=0 &&
	for i in $(seq 1 $np); do
		grep -q "^  patch $i: + Reviewed-by: $reviewer\$" "$TMP/am" || bad=1
	done &&
	[ $bad = 0 ] &&
	grep -q "^  patch $np: + Tested-by: $tester\$" "$TMP/am" &&
	grep -q "^Total patches: $np\$" "$TMP/am"
'
test_expect_success "series/message-id records the posting (the cover's Message-Id)" - <<\EOT
	[ "<$(cat series/message-id 2>/dev/null)>" = "$cmid" ] && grep -q "posted as https://lore.kernel.org/r/${cmid:1:-1}" "$TMP/am"
EOT

test_expect_success 'make range-diff compares the revision kept with series/ and says which' - <<\EOT
	make --no-print-directory range-diff > "$TMP/rd" 2>&1
	rc=$? && echo "exit $rc" && cat "$TMP/rd" &&
	[ $rc = 0 ] && grep -q "^range-diff: series/old/v$rev/ (v$rev) against series/ (v$rev)$" "$TMP/rd" &&
	grep -q "^    +    Reviewed-by: $reviewer$" "$TMP/rd"
EOT

# The next revision of the reviewed series.
test_expect_success "make send of v$next" - <<\EOT
	echo $next > series/revision &&
	sed -i "s/^Changes since v2:$/Changes since v$rev:\n - Collect Reviewed-by and Tested-by.\n\nChanges since v2:/" series/cover-letter &&
	make --no-print-directory send > "$TMP/send4" 2>&1
	rc=$? && tail -n 20 "$TMP/send4" &&
	[ $rc = 0 ]
EOT
test_expect_success "v$next carries every trailer of the thread once, one sender sign-off, no placeholder, no local commit id" - <<\EOT
	bad=0 &&
	{ grep -q "^Subject: \[PATCH v$next 0/$np\]" results/send/v$next/0000-*.eml || bad=1; } &&
	for f in $(ls results/send/v$next/*.eml | grep -v '/0000-'); do
		for t in "Reviewed-by: $reviewer" "Signed-off-by: $sender"; do
			[ "$(grep -c "^$t$" "$f")" = 1 ] || { bad=1; echo "$f: not one '$t'"; }
		done &&
		case $f in
		*/000$np-*) [ "$(grep -c "^Tested-by: $tester$" "$f")" = 1 ] || bad=1 ;;
		*) ! grep -q '^Tested-by:' "$f" || bad=1 ;;
		esac
	done &&
	local_id=$(git -C "$KVERIFY_CACHE"/b4/deb-linux-source-7.3-* rev-parse kverify-base) &&
	! grep -r "${local_id:0:12}\|^base-commit:\|example\.invalid\|Patch Author" results/send/v$next &&
	[ $bad = 0 ]
EOT

test_expect_success "after make am of v$next, make range-diff compares v$rev with v$next" - <<\EOT
	make --no-print-directory am MBOX=results/send/v$next > "$TMP/am4" 2>&1 &&
		make --no-print-directory range-diff > "$TMP/rd" 2>&1
	rc=$? && echo "exit $rc" && cat "$TMP/rd" &&
	[ $rc = 0 ] && grep -q "^range-diff: series/old/v$rev/ (v$rev) against series/ (v$next)$" "$TMP/rd"
EOT
# Debian's export after make am: a patch's own message, of the newest
# revision posted (v$next), not the cover's; no record of a real send
# (results/send/v$next/sent/) to read them from.  b4 am keeps each
# message's Message-Id in its .mbx; make am records them in
# series/message-ids, and series/old/ keeps those of the thread imported
# before (in series/old/v$next/: series/revision said $next by then).
test_expect_success "after make am of v$next, make debian-patches gives each patch its own v$next message as Origin: and Forwarded:" - <<\EOT
	[ ! -d results/send/v$next/sent ] &&
	./build/kverify debian-patches --dest "$TMP/deb" 6.12 7.3 > "$TMP/deb.out" 2>&1
	rc=$? && cat "$TMP/deb.out" && [ $rc = 0 ] &&
	head -n 1 "$TMP/deb/7.3/series" | grep -q "v$next as posted" &&
	/usr/bin/python3 - results/send/v$next "$TMP/deb" <<-\PY &&
	import email, glob, os, re, sys
	def subject(text):
	    m = email.message_from_string(text.replace("\r\n", "\n"))
	    s = " ".join(str(m["Subject"]).split())
	    return re.sub(r"^(\[[^]]*\] *)+", "", s), m["Message-Id"]
	ids, cover = {}, None
	for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.eml"))):
	    s, mid = subject(open(f).read())
	    if os.path.basename(f).startswith("0000-"):
	        cover = mid.strip("<>")
	    else:
	        ids[s] = mid.strip("<>")
	seen = 0
	for target, how in (("7.3", ""), ("6.12", "backport, ")):
	    for p in sorted(glob.glob(os.path.join(sys.argv[2], target, "bugfix/x86/*.patch"))):
	        head = open(p).read().split("\n\n", 1)[0] + "\n"
	        s, _ = subject(head)
	        f = dict(l.split(": ", 1) for l in head.splitlines() if l and not l[0].isspace())
	        link = "https://lore.kernel.org/r/" + ids[s]
	        print(target, os.path.basename(p), f["Origin"], f["Forwarded"])
	        assert ids[s] != cover, (p, "the cover")
	        assert f["Origin"] == how + link, (p, f["Origin"], link)
	        assert f["Forwarded"] == link, (p, f["Forwarded"], link)
	        seen += 1
	assert seen == 10, seen
	PY
	[ "$(grep -c . series/old/v$next/message-ids)" = $np ] &&
	while read -r f id; do
		[ -f "series/old/v$next/$f" ] && grep -qF "<$id>" $out/*.eml || return 1
	done < series/old/v$next/message-ids
EOT
test_expect_success 'FROM= a revision not kept fails and says which are kept' - <<\EOT
	make --no-print-directory range-diff FROM=v9 > "$TMP/rd" 2>&1
	rc=$? && echo "exit $rc" && cat "$TMP/rd" &&
	[ $rc != 0 ] && grep -q "series/old/v9 does not exist; series/old/ keeps v$next v$rev: give FROM=vN" "$TMP/rd"
EOT
test_expect_success 'without series/old/, make range-diff says why it cannot' - <<\EOT
	rm -rf series/old &&
	make --no-print-directory range-diff > "$TMP/rd" 2>&1
	rc=$? && echo "exit $rc" && cat "$TMP/rd" &&
	[ $rc != 0 ] && grep -q "nothing to compare series/ (v$next) with: series/old/ keeps no revision" "$TMP/rd"
EOT

# Replies only: make trailers says what to give; b4's messages reach the user.
sed -n '/^From x/,$p' "$TMP/thread.mbox" | awk -v sent=$((np + 1)) '/^From x/{n++} n>sent' > "$TMP/replies.mbox"
test_expect_success 'make trailers with only the replies exits 2 and says to give the whole thread' - <<\EOT
	make --no-print-directory trailers MBOX="$TMP/replies.mbox" > "$TMP/tr" 2>&1
	rc=$? && echo "exit $rc" && cat "$TMP/tr" &&
	[ $rc = 2 ] && grep -q 'holds no patch, only replies' "$TMP/tr" && ! grep -q 'Traceback' "$TMP/tr"
EOT
test_expect_success "make am of replies only: b4's own message, then ours" - <<\EOT
	make --no-print-directory am MBOX="$TMP/replies.mbox" > "$TMP/am" 2>&1
	rc=$? && echo "exit $rc" && cat "$TMP/am" &&
	[ $rc != 0 ] && grep -q '^No patches found\.$' "$TMP/am" && grep -q 'b4 am wrote no series mbox' "$TMP/am"
EOT
done_testing
