#!/bin/bash
# make backport on fixture trees: a 6.6-shaped tree gets the fixes only,
# patches 0001, 0002 and 0004 of series/ adapted, each under its name and
# subject there, with its Fixes:, that apply with --fuzz=0 in turn and
# write what the semantic patch writes; a pre-5.19 tree and a 5.19-6.1 (sync) one get an n/a line and no
# variant; the tree is
# never written.  Its header is DEP-3 as Debian's kernel team writes it:
# the subject names the tree's stable branch, whatever NAME is; Origin:
# and Forwarded: the posting of series/'s revision (or that it is not
# posted yet); Bug-Debian: from BUG=; the last Signed-off-by is the
# operator's own identity, and a placeholder one is refused.
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 18
test_identity
copy=$TMP/repo
repo_copy "$copy"

fixture_tree() {	# fixture_tree SHAPE DIR VERSION PATCHLEVEL
	fixture_files $1 input "$2/arch/x86/kvm"
	printf '# fixture\nVERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 0\n' $3 $4 > "$2/Makefile"
}

fixture_tree prev_counter "$TMP/linux-6.6" 6 6
before=$(cd "$TMP/linux-6.6" && find . -type f -exec md5sum {} + | sort | md5sum)
test_expect_success 'make backport TREE=<6.6-shaped tree> NAME=6.6 succeeds' '
	{ (cd "$copy" && make --no-print-directory backport TREE="$TMP/linux-6.6" NAME=6.6) > "$TMP/out" 2>&1; brc=$?; } &&
	cat "$TMP/out" && [ $brc = 0 ]
'
test_expect_success 'it found the prev_counter shape' '
	grep -q "semantic patch: APPLIED prev_counter" "$TMP/out" ||
	{ tail -n 20 "$TMP/out"; false; }
'
test_expect_success 'it prints the kernels.list line' '
	grep -q "^6.6	dir:$TMP/linux-6.6	backports/6.6$" "$TMP/out" ||
	{ tail -n 20 "$TMP/out"; false; }
'
bp=$copy/backports/6.6/$(head -n 1 "$copy/backports/6.6/series" 2>/dev/null)
rev=$(cat series/revision)
test_expect_success "the series is series/'s 0001, 0002 and 0004, by name, with subject and Fixes: as there, and a note each" - <<\EOT
	cat "$copy/backports/6.6/series" &&
	grep "^000[124]-" series/series | cmp -s - "$copy/backports/6.6/series" &&
	k=0 && for p in $(cat "$copy/backports/6.6/series"); do
		k=$((k + 1)) &&
		subj=$(sed -n '/^Subject: /{N;s/\n//;s/^Subject: \[PATCH [0-9]*\/[0-9]*\] //p}' "series/$p") &&
		grep -qxF "Subject: [PATCH 6.6.y $k/3] $subj" "$copy/backports/6.6/$p" &&
		grep "^Fixes: " "series/$p" | cmp -s - <(grep "^Fixes: " "$copy/backports/6.6/$p") &&
		grep -q "^\[ backport to 6.6.y: " "$copy/backports/6.6/$p" || exit 1
	done && [ $k = 3 ] && ! grep -q "^+.*emulated_counter_reprogram_tolerance" "$copy"/backports/6.6/*.patch
EOT
test_expect_success "the patches have the backports/ header: DEP-3 of an unposted v$rev" '
	grep -q "^Origin: backport, v$rev of change-id 20260720-emulated-counter-tolerance-3f2a9c1d7e54 (not posted yet)$" "$bp" &&
	grep -q "^Forwarded: no$" "$bp" && ! grep -q "^Bug-Debian:" "$bp" &&
	grep -q "^Last-Update: $(date -u +%Y-%m-%d)$" "$bp"
'
test_expect_success 'series/ 0001 has no From: (the project'\''s own): the operator is the author, and signs last' '
	sed -n "/^\[ backport to/,/^---$/p" "$bp" | tail -n 2 | head -n 1 | grep -qxF "Signed-off-by: $sender" &&
	! grep -q "example\.invalid\|Patch Author" "$bp" &&
	grep -qxF "From: $sender" "$bp"
'
test_expect_success 'its variant file says the shape and the tree'\''s version, for SERIES auto' '
	printf "shape: prev_counter\nkernel: 6.6\n" | cmp -s - "$copy/backports/6.6/variant"
'
after=$(cd "$TMP/linux-6.6" && find . -type f -exec md5sum {} + | sort | md5sum)
test_expect_success 'the tree was not written' '
	[ "$before" = "$after" ]
'
cp -a "$TMP/linux-6.6" "$TMP/applied"
test_expect_success 'the patches apply in turn with --fuzz=0 and give the semantic patch'\''s result' '
	(cd "$TMP/applied" && QUILT_PATCHES=$copy/backports/6.6 quilt --quiltrc /dev/null push -a --fuzz=0) > "$TMP/quilt" 2>&1 &&
	cat "$TMP/quilt" && ! grep -q "offset\|fuzz" "$TMP/quilt" &&
	fixture_files prev_counter expected "$TMP/want" &&
	diff -r "$TMP/want" "$TMP/applied/arch/x86/kvm"
'

# The posting of the revision, a Debian bug, a NAME that is no branch.
rm -rf "$copy/backports/6.6"
echo '20260801-emulated-counter-tolerance-v3-0-abc@kverify.test' > "$copy/series/message-id"
(cd "$copy" && make --no-print-directory backport TREE="$TMP/linux-6.6" NAME=6.6x BUG=1234567) > "$TMP/out" 2>&1
brc=$?
bp=$copy/backports/6.6x/$(head -n 1 "$copy/backports/6.6x/series" 2>/dev/null)
test_expect_success "NAME=6.6x: the subject prefix is the tree's stable branch, [PATCH 6.6.y 1/3] (exit $brc)" '
	[ $brc = 0 ] && grep -q "^Subject: \[PATCH 6.6.y 1/3\] KVM: x86/pmu" "$bp" &&
	grep -q "^\[ backport to 6.6.y: " "$bp"
'
l=https://lore.kernel.org/r/20260801-emulated-counter-tolerance-v3-0-abc@kverify.test
test_expect_success 'Origin: and Forwarded: name the posting series/ records; Bug-Debian: from BUG=' '
	grep -q "^Origin: backport, $l$" "$bp" && grep -q "^Forwarded: $l$" "$bp" &&
	grep -q "^Bug-Debian: https://bugs.debian.org/1234567$" "$bp"
'
rm -rf "$copy/backports/6.6x"
(cd "$copy" && make --no-print-directory backport TREE="$TMP/linux-6.6" NAME=6.6 BUG='1; rm -rf /') > "$TMP/out" 2>&1
brc=$?
test_expect_success "BUG= that is no bug number is refused, nothing written (exit $brc)" '
	[ $brc != 0 ] && grep -q "BUG='\''1; rm -rf /'\'' is not a Debian bug" "$TMP/out" && [ ! -e "$copy/backports/6.6" ]
'
(cd "$copy" && GIT_COMMITTER_NAME='Patch Author' make --no-print-directory backport TREE="$TMP/linux-6.6" NAME=6.6) > "$TMP/out" 2>&1
brc=$?
test_expect_success "a placeholder identity is refused with the fix, nothing written (exit $brc)" '
	[ $brc != 0 ] && grep -q "is a placeholder name" "$TMP/out" && grep -q "git config --global user.name" "$TMP/out" &&
	[ ! -e "$copy/backports/6.6" ]
'
(cd "$copy" && GIT_COMMITTER_EMAIL=me@example.invalid make --no-print-directory backport TREE="$TMP/linux-6.6" NAME=6.6) > "$TMP/out" 2>&1
brc=$?
test_expect_success "an example.invalid address is refused (exit $brc)" '
	[ $brc != 0 ] && grep -q "is an address in the reserved top-level domain .invalid" "$TMP/out" && [ ! -e "$copy/backports/6.6" ]
'
rm -f "$copy/series/message-id"
(cd "$copy" && make --no-print-directory backport TREE="$TMP/linux-6.6" NAME=6.6) > /dev/null 2>&1

fixture_tree absent "$TMP/linux-5.10" 5 10
(cd "$copy" && make --no-print-directory backport TREE="$TMP/linux-5.10" NAME=5.10) > "$TMP/out" 2>&1
brc=$?
test_expect_success "a pre-5.19 tree gets an n/a kernels.list line and no variant (exit $brc)" '
	[ $brc = 0 ] && grep -q "^5.10	dir:$TMP/linux-5.10	n/a: no per-emulated-instruction" "$TMP/out" &&
	[ ! -e "$copy/backports/5.10" ]
'
fixture_tree sync "$TMP/linux-6.1" 6 1
# (NAME=6.1 is taken: backports/6.1 holds the fixes only, made by hand.)
(cd "$copy" && make --no-print-directory backport TREE="$TMP/linux-6.1" NAME=6.1-sync) > "$TMP/out" 2>&1
brc=$?
test_expect_success "a 5.19-6.1 (sync) tree gets an n/a kernels.list line and no variant (exit $brc)" '
	[ $brc = 0 ] && grep -q "^6.1-sync	dir:$TMP/linux-6.1	n/a: sync shape (5.19-6.1): " "$TMP/out" &&
	[ ! -e "$copy/backports/6.1-sync" ] && diff -r backports/6.1 "$copy/backports/6.1"
'
(cd "$copy" && make --no-print-directory backport TREE="$TMP/linux-6.6" NAME=6.6) > "$TMP/out" 2>&1
brc=$?
test_expect_success "an existing variant is never overwritten (exit $brc)" '
	[ $brc = 2 ] && grep -q "backports/6.6 exists" "$TMP/out"
'

# A known shape whose surroundings a hunk does not find: spatch exits with
# UNKNOWN (make: exit 2) and, left to itself, leaves its 13 output files
# in /tmp (cocci-output-PID-...).  It runs in the sandbox, whose /tmp is
# its own and goes with it: none of its files reach the machine's /tmp.
mkdir -p "$TMP/linux-7.9/arch/x86/include/asm"
fixture_tree partial "$TMP/linux-7.9" 7 9
mv "$TMP/linux-7.9/arch/x86/kvm/kvm_host.h" "$TMP/linux-7.9/arch/x86/include/asm/"
touch "$TMP/before-spatch"
(cd "$copy" && KVERIFY_CACHE=$TMP/bpcache KVERIFY_SOURCES=$TMP/bpcache make --no-print-directory backport TREE="$TMP/linux-7.9" NAME=7.9) > "$TMP/out" 2>&1
brc=$?
left=$(find /tmp -maxdepth 1 -name "cocci*" -newer "$TMP/before-spatch" | wc -l)
test_expect_success "UNKNOWN: spatch's files stay in the cache and go (exit $brc; of its files in /tmp: $left)" '
	cat "$TMP/out" &&
	[ $brc = 2 ] && grep -q "nothing to generate (UNKNOWN emulated_counter shape, but no match for" "$TMP/out" &&
	[ "$left" = 0 ] && [ "$(ls -A "$TMP/bpcache/tmp")" = lock ]
'
done_testing
