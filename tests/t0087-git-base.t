#!/bin/bash
# A git: target on an upstream-style checkout gives make send a true
# base-commit: (#38): the commit its ref resolves to, a branch here, not
# only a commit id spelled out in kernels.list.  The checkout is made now,
# in $TMP, with history: the files the series touches (and what the tree's
# checkpatch.pl needs) taken from the test cache's Debian 7.3 tree, one
# commit where pmu.c's context differs, one where it is 7.3's, and a later
# branch, checked out, where it differs again.  The series applies to the
# base-commit the cover names, and to neither its parent nor HEAD.  The
# cache's b4 repository stands on that very commit (its object copied in,
# shallow, over the same tree), and so does make edit's b4 prep branch.  A Debian target's cover still says
# in words what it stands on (t0081).
#
# Cost: one b4 send -o and one make edit on a ~20 MB tree in a cache of
# the test's own ($TMP), three git am: about 25 s wall, measured with
# KVERIFY_TESTS=tests/t0087-git-base.t tests/run under nice.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 6
test_identity
src=$(cached_source 7.3) || exit 1
copy=$TMP/repo
repo_copy "$copy"
repo_fromless "$copy"
up=$TMP/linux
rev=$(cat "$copy/series/revision")
np=$(grep -c . "$copy/series/series")
sent=$copy/results/send/v$rev

# The checkout: every file a patch of series/ touches that exists in 7.3,
# and the top of a kernel tree as checkpatch.pl wants it.
files=$(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$copy"/series/*.patch |
	sort -u | while read -r f; do [ -f "$src/$f" ] && echo "$f"; done)
top="COPYING CREDITS Kbuild MAINTAINERS Makefile README scripts/checkpatch.pl
scripts/spelling.txt scripts/const_structs.checkpatch include/linux/kvm_host.h
drivers/Makefile fs/Makefile init/Makefile ipc/Makefile kernel/Makefile
lib/Makefile"
commit() { git -C "$up" add -A && git -C "$up" commit -q -m "$1"; }
mkdir -p "$up"
git -C "$up" init -q -b master
(cd "$src" && cp --parents -t "$up" $top $files)
# 1: pmu.c's context of patch 1 is not 7.3's yet; 2: it is; 3 (next): not again.
sed -i 's/pmc_update_sample_period/pmc_reset_sample_period/g' "$up/arch/x86/kvm/pmu.c"
commit "the tree, with another name for the sample period update"
cp "$src/arch/x86/kvm/pmu.c" "$up/arch/x86/kvm/pmu.c"
commit "KVM: x86/pmu: the name 7.3 has"
base=$(git -C "$up" rev-parse master)
git -C "$up" checkout -q -b next
sed -i 's/pmc_update_sample_period/pmc_set_sample_period/g' "$up/arch/x86/kvm/pmu.c"
commit "KVM: x86/pmu: yet another name, on a later branch"
printf 'up\tgit:%s#master\tseries\n' "$up" >> "$copy/kernels.list"

cd "$copy" || exit 1
test_expect_success 'make send KERNEL=up (git:<checkout>#master) writes the series' '
	KVERIFY_CACHE=$TMP/cache make --no-print-directory send KERNEL=up \
		TO="$reviewer" CC="$tester" &&
	[ "$(ls $sent/*.eml | wc -l)" = $((np + 1)) ]
'
test_expect_success 'the cover says base-commit: master resolved (one line, the full id), no patch another' '
	cover=$(ls $sent/0000-*.eml) &&
	grep "^base-commit:" $sent/*.eml &&
	[ "$(grep -h "^base-commit:" $sent/*.eml)" = "base-commit: $base" ] &&
	[ "$(grep -l "^base-commit:" $sent/*.eml)" = "$cover" ]
'
am_at() {	# am_at COMMIT: the mails git am on a clone at COMMIT
	rm -rf "$TMP/check" &&
	git clone -q "$up" "$TMP/check" &&
	git -C "$TMP/check" checkout -q "$1" &&
	ls $sent/*.eml | grep -v /0000- | xargs git -C "$TMP/check" am -q
}
test_expect_success 'the series applies to that commit with git am' '
	am_at "$base" &&
	[ "$(git -C "$TMP/check" rev-list --count "$base"..HEAD)" = $np ]
'
test_expect_success 'and to neither its parent nor the checked-out branch (the base is that one commit)' '
	! am_at "$base^" && ! am_at next
'
test_expect_success 'the cache repository stands on that commit itself (shallow), not on an import of its own' '
	b4repo=$(ls -d "$TMP"/cache/b4/git-*) &&
	[ "$(git -C "$b4repo" rev-parse kverify-base)" = "$base" ] &&
	[ "$(cat "$b4repo/.git/shallow")" = "$base" ] &&
	[ "$(git -C "$b4repo" rev-parse "kverify-base^{tree}")" = "$(git -C "$up" rev-parse "master^{tree}")" ]
'
test_expect_success 'make edit KERNEL=up: a b4 prep branch on that commit (b4 prep --show-info says it)' '
	KVERIFY_CACHE=$TMP/cache make --no-print-directory edit KERNEL=up &&
	edit=$(ls -d "$TMP"/cache/edit/git-*) &&
	(cd "$edit" && b4 prep --show-info) > "$TMP/info" 2>&1 && cat "$TMP/info" &&
	grep -qx "base-commit: $base" "$TMP/info" &&
	[ "$(grep -c "^commit-" "$TMP/info")" = $np ] &&
	KVERIFY_CACHE=$TMP/cache make --no-print-directory series KERNEL=up &&
	git diff --no-index --exit-code "$REPO/series" series
'
done_testing
