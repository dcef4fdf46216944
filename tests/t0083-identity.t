#!/bin/bash
# Who signs (#35): the patches this project writes carry no From: and no
# Signed-off-by: in the repository, and get the operator's when mail or a
# variant is made.  A placeholder operator identity (this machine's own
# git configuration may be one: an address in a domain nobody owns) is
# refused with exit 2, saying which, where it came from and what to do;
# a valid one lands as From: and Signed-off-by: on a From-less patch in
# the mails of make send and in the variant of make backport; a patch
# series/co-developed lists gets the sender's Co-developed-by: and
# Signed-off-by: last, after its author's, as submitting-patches.rst
# orders them; make am takes them off again, so series/ comes back byte
# for byte; the checkpatch step checks the patches as they would be sent
# and, with a refused identity, says so instead of failing them; and no
# file of series/ or backports/ of the repository names an address
# nobody owns.  The operator is made at run time (test_identity).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 16
test_identity
reserved='@[A-Za-z0-9.-]*\.(example|test|invalid|localhost)>'

# The repository itself: what the stop hook also greps.
test_expect_success 'no file of series/ or backports/ names an address in a reserved domain' '
	! grep -rEn "$reserved" series backports 2>/dev/null
'

copy=$TMP/repo
repo_copy "$copy"
repo_fromless "$copy"
cd "$copy" || exit 1
knob=$(grep -l '^From: Luka Absandze <absandze@amazon.de>$' series/*.patch | head -n 1)
knob=${knob#series/}
own=$(grep -L '^From: ' series/*.patch | head -n 1)
own=${own#series/}
test_expect_success "the fixture: $own has no From: and no sign-off, $knob is Luka Absandze's" '
	[ -n "$knob" ] && [ -n "$own" ] && ! grep "^Signed-off-by: " "series/$own"
'
cp -r series "$TMP/series.before"

# A placeholder operator: a HOME whose .gitconfig is this machine's kind.
mkdir -p "$TMP/home"
printf '[user]\n\tname = Seed 35fed79b maintainers\n\temail = maintainers@users.noreply.a-seed-35fed79b.example\n' > "$TMP/home/.gitconfig"
placeholder() {
	env -u GIT_COMMITTER_NAME -u GIT_COMMITTER_EMAIL -u GIT_AUTHOR_NAME \
		-u GIT_AUTHOR_EMAIL -u EMAIL HOME="$TMP/home" \
		XDG_CONFIG_HOME="$TMP/home" GIT_CONFIG_NOSYSTEM=1 "$@"
}
test_expect_success 'make send with the placeholder of ~/.gitconfig: exit 2, which identity, where from, what to do' - <<\EOT
	placeholder make --no-print-directory send > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" && cat "$TMP/out" &&
	[ $rc = 2 ] &&
	grep -q 'your git identity "Seed 35fed79b maintainers <maintainers@users.noreply.a-seed-35fed79b.example>" is an address in the reserved top-level domain .example' "$TMP/out" &&
	grep -q "It came from: git config user.name (file:$TMP/home/.gitconfig); git config user.email (file:$TMP/home/.gitconfig)" "$TMP/out" &&
	grep -q 'git config --global user.email you@your-domain' "$TMP/out" &&
	[ ! -d results/send ]
EOT
test_expect_success 'GIT_COMMITTER_EMAIL in .test: refused, naming the variable' - <<\EOT
	GIT_COMMITTER_EMAIL=me@lab.test make --no-print-directory send > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" && cat "$TMP/out" &&
	[ $rc = 2 ] && grep -q '<me@lab.test>" is an address in the reserved top-level domain .test' "$TMP/out" &&
	grep -q 'GIT_COMMITTER_EMAIL=me@lab.test in the environment' "$TMP/out"
EOT

mkdir -p "$TMP/linux-6.10/arch/x86/kvm"
# A tree of the emulated_counter shape (6.8-6.18): the knob's patch is
# generated there (6.2-6.7 gets the fixes only).
fixture_files emulated_counter input "$TMP/linux-6.10/arch/x86/kvm"
mkdir -p "$TMP/linux-6.10/arch/x86/include/asm"
mv "$TMP/linux-6.10/arch/x86/kvm/kvm_host.h" "$TMP/linux-6.10/arch/x86/include/asm/"
printf '# fixture\nVERSION = 6\nPATCHLEVEL = 10\nSUBLEVEL = 0\n' > "$TMP/linux-6.10/Makefile"
test_expect_success 'make backport with it: exit 2, the message, nothing written' - <<\EOT
	placeholder make --no-print-directory backport TREE="$TMP/linux-6.10" NAME=6.10 > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" && cat "$TMP/out" &&
	[ $rc = 2 ] && grep -q 'is an address in the reserved top-level domain .example' "$TMP/out" &&
	grep -q 'git config --global user.email you@your-domain' "$TMP/out" && [ ! -e backports/6.10 ]
EOT

# make send with a valid operator, patch $knob co-developed.
test_expect_success "make send with this account's identity passes its own checks" '
	echo "$knob" > series/co-developed &&
	make --no-print-directory send > "$TMP/send" 2>&1
	rc=$? && tail -n 20 "$TMP/send" &&
	[ $rc = 0 ]
'
n_own=$(grep -n "^$own$" series/series | cut -d: -f1)
n_knob=$(grep -n "^$knob$" series/series | cut -d: -f1)
e_own=$(ls results/send/v*/000"$n_own"-*.eml 2>/dev/null)
e_knob=$(ls results/send/v*/000"$n_knob"-*.eml 2>/dev/null)
# The last lines of a mail's commit message, up to its "---".
tail_of() { awk 'm && /^---$/ { exit } m { print } /^$/ { m = 1 }' "$1" | tail -n "$2"; }
test_expect_success "the From-less patch's mail is from the sender, with one sign-off, the sender's, last" - <<\EOT
	[ -n "$e_own" ] && head -n 12 "$e_own" && tail_of "$e_own" 4 &&
	grep -q "^From: $sender$" "$e_own" &&
	! grep -q '^From: Luka' "$e_own" &&
	[ "$(grep -c '^Signed-off-by: ' "$e_own")" = 1 ] &&
	[ "$(tail_of "$e_own" 1)" = "Signed-off-by: $sender" ]
EOT
test_expect_success "the co-developed patch: Luka's sign-off, then the sender's Co-developed-by: and Signed-off-by:, last" - <<\EOT
	printf 'Signed-off-by: Luka Absandze <absandze@amazon.de>\nCo-developed-by: %s\nSigned-off-by: %s\n' "$sender" "$sender" > "$TMP/want" &&
	[ -n "$e_knob" ] && tail_of "$e_knob" 4 &&
	tail_of "$e_knob" 3 | cmp -s - "$TMP/want" &&
	sed -n '/^$/,$p' "$e_knob" | grep -q '^From: Luka Absandze <absandze@amazon.de>$'
EOT
test_expect_success 'no mail names an address in a reserved domain' '
	! grep -E "$reserved" results/send/v*/*.eml
'

test_expect_success 'make am of the mails gives series/ back: no From:, Co-developed-by: or sign-off of the sender' - <<\EOT
	cp -r results/send/v* "$TMP/sent" &&
	make --no-print-directory am MBOX="$TMP/sent" > "$TMP/am" 2>&1
	rc=$? && echo "exit $rc" && tail -n 10 "$TMP/am" &&
	same=0 &&
	for p in $(cat "$TMP/series.before/series"); do
		diff <(sed '1d;/^Date: /d' "$TMP/series.before/$p") <(sed '1d;/^Date: /d' "series/$p") 2>&1 ||
			same=1
	done &&
	[ $rc = 0 ] && [ $same = 0 ] && ! grep -rq "$sender_email" series
EOT
rm -rf series && cp -r "$TMP/series.before" series

# make backport: a From-less upstream patch, then the co-developed one.
cp "series/$knob" "$TMP/knob"
v=backports/6.10/$knob
test_expect_success "make backport of a From-less patch: From: and the one sign-off, after the note, the operator's" - <<\EOT
	perl -0pi -e 's/^From: [^\n]*\n//m; s/^Signed-off-by: [^\n]*\n//mg' "series/$knob" &&
	echo > series/co-developed &&
	make --no-print-directory backport TREE="$TMP/linux-6.10" NAME=6.10 > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" && cat "$TMP/out" &&
	[ $rc = 0 ] && head -n 4 "$v" && tail_of "$v" 4 &&
	grep -q "^From: $sender$" "$v" &&
	[ "$(grep -c '^Signed-off-by: ' "$v")" = 1 ] &&
	[ "$(tail_of "$v" 1)" = "Signed-off-by: $sender" ] &&
	tail_of "$v" 2 | head -n 1 | grep -q ' this variant\. \]$'
EOT
rm -rf backports/6.10
cp "$TMP/knob" "series/$knob"
test_expect_success "make backport of the co-developed patch: Luka's sign-off, the note, the operator's pair last" - <<\EOT
	echo "$knob" > series/co-developed &&
	make --no-print-directory backport TREE="$TMP/linux-6.10" NAME=6.10 > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" && tail_of "$v" 6 &&
	printf 'Co-developed-by: %s\nSigned-off-by: %s\n' "$sender" "$sender" > "$TMP/want" &&
	[ $rc = 0 ] && grep -q '^From: Luka Absandze <absandze@amazon.de>$' "$v" &&
	tail_of "$v" 2 | cmp -s - "$TMP/want" &&
	sed -n '/^Signed-off-by: Luka/,/^---$/p' "$v" | grep -q '^\[ backport to 6.10.y'
EOT
rm -rf backports/6.10
test_expect_success 'make backport refuses an upstream patch whose author is a placeholder, naming the line' - <<\EOT
	sed -i 's/^From: .*/From: Patch Author <patch.author@example.invalid>/' "series/$knob" &&
	make --no-print-directory backport TREE="$TMP/linux-6.10" NAME=6.10 > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" && cat "$TMP/out" &&
	[ $rc = 2 ] && grep -q "^series/$knob:2: From: Patch Author <patch.author@example.invalid>: " "$TMP/out" &&
	[ ! -e backports/6.10 ]
EOT
cp "$TMP/knob" "series/$knob"

# The checkpatch step: as sent with a valid identity; with a refused one,
# a From-less patch is checked unsigned and the reason says so.
test_expect_success "with this account's identity the checkpatch step checks each patch as sent and passes" - <<\EOT
	make --no-print-directory verify KERNEL=7.3 SKIP=sim,cocci,config,build,kabi,selftests,boot > "$TMP/v" 2>&1
	rc=$? && echo "exit $rc" && grep -i 'checkpatch' "$TMP/v" | head -n 5 &&
	grep -q "checkpatch .*PASS.*checked as sent, signed by $sender" "$TMP/v"
EOT
test_expect_success 'with the placeholder identity make verify still passes, the reason saying what was not checked' - <<\EOT
	placeholder make --no-print-directory verify KERNEL=7.3 SKIP=sim,cocci,config,build,kabi,selftests,boot > "$TMP/v" 2>&1
	rc=$? && echo "exit $rc" && grep -i 'checkpatch' "$TMP/v" | head -n 5 &&
	[ $rc = 0 ] && grep -q 'checkpatch .*PASS.*allowed by checkpatch.allow:.* MISSING_SIGN_OFF.*without From: checked unsigned: your git identity "Seed 35fed79b maintainers <maintainers@users.noreply.a-seed-35fed79b.example>" is refused' "$TMP/v"
EOT
test_expect_success 'without that checkpatch.allow line the unsigned patch fails the step' - <<\EOT
	sed -i '/^MISSING_SIGN_OFF/d' checkpatch.allow &&
	placeholder make --no-print-directory verify KERNEL=7.3 SKIP=sim,cocci,config,build,kabi,selftests,boot > "$TMP/v" 2>&1
	rc=$? && echo "exit $rc" && { grep -i 'checkpatch' "$TMP/v"; ls results/7.3/logs; } | head -n 20 &&
	[ $rc != 0 ] && grep -Eq 'checkpatch +FAIL .* [1-9][0-9]* errors' "$TMP/v" &&
	grep -q "$own: ERROR:MISSING_SIGN_OFF" results/7.3/report.json
EOT
done_testing
