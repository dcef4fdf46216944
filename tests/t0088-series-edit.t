#!/bin/bash
# series/ as a b4 prep branch (#38): make edit makes it in the cache (b4
# itself reads it: b4 prep --show-info), on a checkout with no file linked
# to the pristine tree; make series writes series/ back from it, byte for
# byte when nothing changed, and exactly the line a git commit --amend
# of the last patch, or a fixup of patch 5 squashed by git rebase -i
# --autosquash, changed (its "fixup! <commit id>": the cover commit has
# patch 5's subject, which --fixup=<commit> would match first, and a
# cover commit carrying changes is refused); a fixup! commit not yet
# folded is refused (exit 2), written as a patch of its own with
# FORCE=1.  series/ edited by hand
# since: make series refuses (exit 2, what to do), make edit makes the
# branch again from series/
# while the branch has nothing new, refuses when both changed (exit 2),
# and with FORCE=1 remakes it, the old tip kept; uncommitted work in the
# branch is refused (exit 2); so is either without a git identity, which
# the branch's commits need.
#
# Cost: three make edit (a sparse clone of the test cache's b4 repository
# of 7.3, six git am each), eight make series, two rebases: 53-93 s wall
# (the second while other jobs loaded the 2-core VM), 25-32 CPU-s, when
# the b4 repository exists (made once, as by t0080/t0081), measured with
# KVERIFY_TESTS=tests/t0088-series-edit.t tests/run under nice.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 15
test_identity
src=$(cached_source 7.3) || exit 1
copy=$TMP/repo
repo_copy "$copy"
repo_fromless "$copy"
cd "$copy" || exit 1
# A git repository of the copy, for git diff of what make series writes.
git init -q && git add -A && git commit -q -m copy || exit 1
# owned_edit DIR: the edit repositories of the cache that checkout DIR made.
owned_edit() {
	local f
	for f in "$KVERIFY_CACHE/edit/${src##*/}"-*/.git/kverify-checkout; do
		if [ -f "$f" ] && grep -qxF "$1" "$f"; then
			echo "${f%/.git/kverify-checkout}"
		fi
	done
}
here=$(pwd -P)
for d in $(owned_edit "$here"); do rm -rf "$d"; done	# this script's own, made again below
edit=
np=$(grep -c . series/series)
pt=series/$(sed -n ${np}p series/series)
test=tools/testing/selftests/kvm/x86/pmu_emulated_batching_test.c
kv() { make --no-print-directory "$@" > "$TMP/o" 2>&1; }
in_edit() { git -C "$edit" "$@"; }

test_expect_success 'make edit without a git identity exits 2 and makes nothing' '
	mkdir "$TMP/home" &&
	env -u GIT_COMMITTER_NAME -u GIT_COMMITTER_EMAIL -u GIT_AUTHOR_NAME \
		-u GIT_AUTHOR_EMAIL -u EMAIL HOME="$TMP/home" \
		XDG_CONFIG_HOME="$TMP/home" GIT_CONFIG_NOSYSTEM=1 \
		make --no-print-directory edit > "$TMP/o" 2>&1
	[ $? = 2 ] && cat "$TMP/o" && grep -q "git config --global user.email" "$TMP/o" &&
	[ -z "$(owned_edit "$here")" ]
'
test_expect_success 'make edit makes a b4 prep branch of series/ (b4 prep --show-info reads it)' '
	kv edit && cat "$TMP/o" &&
	edit=$(owned_edit "$here") && [ -n "$edit" ] && [ -d "$edit/.git" ] &&
	grep -q "^$edit: branch b4/kvm-pmu-tolerance" "$TMP/o" &&
	(cd "$edit" && b4 prep --show-info) > "$TMP/info" 2>&1 && cat "$TMP/info" &&
	grep -qx "branch: b4/kvm-pmu-tolerance" "$TMP/info" &&
	grep -qx "change-id: $(cat series/change-id)" "$TMP/info" &&
	grep -qx "revision: $(cat series/revision)" "$TMP/info" &&
	grep -qx "cover-strategy: commit" "$TMP/info" &&
	[ "$(grep -c "^commit-" "$TMP/info")" = $np ]
'
test_expect_success 'no file of its work tree is a link into the pristine tree' '
	[ -f "$edit/$test" ] && [ -f "$edit/arch/x86/kvm/pmu.c" ] &&
	[ -z "$(find "$edit" -path "$edit/.git" -prune -o -type f -links +1 -print)" ]
'
test_expect_success 'make series with nothing changed gives series/ back byte for byte' '
	kv series && cat "$TMP/o" && git diff --exit-code -- series/ &&
	[ -z "$(git status --porcelain -- series/)" ]
'
# series_changed PATCH: make series changed PATCH alone, by four lines
# (the code line out and in, the index line out and in), in $TMP/changed.
series_changed() {
	[ "$(git diff --name-only)" = "$1" ] &&
	git diff -U0 | grep "^[-+]" | grep -v "^--- a/\|^+++ b/" > "$TMP/changed" &&
	cat "$TMP/changed" && [ "$(grep -c . "$TMP/changed")" = 4 ]
}
test_expect_success 'a one-line amend in the branch: make series writes exactly that change' '
	sed -i "s/ksft_set_plan(nr \* NR_CASES);/ksft_set_plan(NR_CASES * nr);/" "$edit/$test" &&
	in_edit commit -q -a --amend --no-edit &&
	kv series && cat "$TMP/o" && series_changed "$pt" &&
	grep -qxF -- "-+	ksft_set_plan(nr * NR_CASES);" "$TMP/changed" &&
	grep -qxF -- "++	ksft_set_plan(NR_CASES * nr);" "$TMP/changed" &&
	[ "$(grep -c "^[-+]index 000000000000\.\.[0-9a-f]\{12\}$" "$TMP/changed")" = 2 ] &&
	! grep -q "^From: $sender\|^Signed-off-by: $sender\|^From [1-9a-f]" series/*.patch
'
git commit -q -a -m amended
pk=series/$(sed -n $((np - 1))p series/series)
test_expect_success 'a fixup of patch 5 through git rebase -i --autosquash: make series changes that patch alone' '
	p5=$(in_edit rev-parse b4/kvm-pmu-tolerance~1) &&
	sed -i "s/0 reprograms on every one\./0 reprograms on each one./" "$edit/arch/x86/kvm/pmu.c" &&
	in_edit commit -q -a -m "fixup! $p5" &&
	GIT_SEQUENCE_EDITOR=: in_edit rebase -q -i --autosquash kverify-base &&
	[ "$(in_edit rev-list --count kverify-base..)" = $((np + 1)) ] &&
	kv series && cat "$TMP/o" && series_changed "$pk" &&
	grep -qxF -- "-+ * perf-based vPMU before KVM reprograms it; 0 reprograms on every one." "$TMP/changed" &&
	grep -qxF -- "++ * perf-based vPMU before KVM reprograms it; 0 reprograms on each one." "$TMP/changed" &&
	[ "$(grep -c "^[-+]index [0-9a-f]\{12\}\.\.[0-9a-f]\{12\} 100644$" "$TMP/changed")" = 2 ]
'
git commit -q -a -m fixup
test_expect_success 'a fixup! commit not folded: make series refuses (exit 2), naming it; FORCE=1 writes it as a patch' '
	p5=$(in_edit rev-parse b4/kvm-pmu-tolerance~1) &&
	sed -i "s/0 reprograms on each one\./0 reprograms on every one./" "$edit/arch/x86/kvm/pmu.c" &&
	in_edit commit -q -a -m "fixup! $p5" &&
	{ kv series; [ $? = 2 ]; } && cat "$TMP/o" &&
	grep -q "has commits git rebase --autosquash would fold into a patch, not yet folded: .[0-9a-f]* fixup! $p5.\.  Fold them" "$TMP/o" &&
	git diff --exit-code -- series/ && [ -z "$(git status --porcelain -- series/)" ] &&
	kv series FORCE=1 && cat "$TMP/o" && [ "$(grep -c . series/series)" = $((np + 1)) ] &&
	in_edit reset -q --hard HEAD~1 && { kv series; st=$?; cat "$TMP/o"; [ $st = 0 ]; } &&
	git status --porcelain -- series/ && git diff --stat -- series/ &&
	git diff --exit-code -- series/ && [ -z "$(git status --porcelain -- series/)" ]
'
test_expect_success 'a change squashed into the cover commit (--fixup=<patch 5> matches its subject): make series refuses (exit 2)' '
	echo "A line no patch touches." >> "$edit/README" &&
	in_edit commit -q -a --fixup=b4/kvm-pmu-tolerance~1 &&
	GIT_SEQUENCE_EDITOR=: in_edit rebase -q -i --autosquash kverify-base &&
	{ kv series; [ $? = 2 ]; } && cat "$TMP/o" &&
	grep -q "cover commit [0-9a-f]\{12\} carries changes (README)" "$TMP/o" &&
	git diff --exit-code -- series/ &&
	in_edit reset -q --hard ORIG_HEAD~1 && kv series && git diff --exit-code -- series/
'
test_expect_success 'series/ edited by hand since: make series refuses (exit 2), says what to do, writes nothing' '
	echo "A line written by hand." >> series/cover-letter &&
	cp series/cover-letter "$TMP/cover" &&
	{ kv series; [ $? = 2 ]; } && cat "$TMP/o" &&
	grep -q "series/ changed (series/cover-letter) since make edit" "$TMP/o" &&
	grep -q "Keep series/.s: make edit" "$TMP/o" &&
	cmp series/cover-letter "$TMP/cover" && [ "$(git diff --name-only)" = series/cover-letter ]
'
test_expect_success 'make edit then makes the branch again from series/ (it had nothing new)' '
	kv edit && cat "$TMP/o" && grep -q "branch b4/kvm-pmu-tolerance made again" "$TMP/o" &&
	in_edit log -1 --format=%B kverify-base..b4/kvm-pmu-tolerance~$np > "$TMP/c" &&
	grep -qx "A line written by hand." "$TMP/c" &&
	kv series && [ "$(git diff --name-only)" = series/cover-letter ] &&
	grep -q "NR_CASES \* nr" "$pt"
'
git commit -q -a -m cover
test_expect_success 'commits in the branch and series/ edited by hand: make edit refuses (exit 2)' '
	sed -i "s/ksft_set_plan(NR_CASES \* nr);/ksft_set_plan(nr * NR_CASES);/" "$edit/$test" &&
	in_edit commit -q -a --amend --no-edit && tip=$(in_edit rev-parse HEAD) &&
	echo "Another line by hand." >> series/cover-letter &&
	{ kv edit; [ $? = 2 ]; } && cat "$TMP/o" &&
	grep -q "and the branch has commits since: nothing is overwritten" "$TMP/o" &&
	grep -q "make edit FORCE=1" "$TMP/o" &&
	[ "$(in_edit rev-parse HEAD)" = "$tip" ]
'
test_expect_success 'make edit FORCE=1 makes it again from series/, the old tip kept' '
	kv edit FORCE=1 && cat "$TMP/o" &&
	[ "$(in_edit rev-parse refs/kverify/before-resync)" = "$tip" ] &&
	[ "$(in_edit rev-parse HEAD)" != "$tip" ] &&
	grep -q "NR_CASES \* nr" "$edit/$test" &&
	kv series && [ "$(git diff --name-only)" = series/cover-letter ]
'
test_expect_success 'uncommitted work in the branch: make series refuses (exit 2), series/ untouched' '
	git commit -q -a -m again &&
	echo "/* not committed */" >> "$edit/$test" &&
	{ kv series; [ $? = 2 ]; } && cat "$TMP/o" &&
	grep -q "has changes not committed" "$TMP/o" &&
	git diff --exit-code -- series/
'
# A second clone sharing the cache: its make edit makes a repository of
# its own and leaves the first checkout's branch as it is.
repo_copy "$TMP/repo2"
test_expect_success 'a second checkout edits its own branch; the first one'"'"'s is untouched' '
	tip=$(in_edit rev-parse HEAD) &&
	(cd "$TMP/repo2" && make --no-print-directory edit) > "$TMP/o2" 2>&1 && cat "$TMP/o2" &&
	edit2=$(owned_edit "$(cd "$TMP/repo2" && pwd -P)") && [ -n "$edit2" ] &&
	[ "$edit2" != "$edit" ] && [ "$(in_edit rev-parse HEAD)" = "$tip" ] &&
	grep -qF "/* not committed */" "$edit/$test" && rm -rf "$edit2"
'
test_expect_success 'make series with no branch made: exit 2, make edit named' '
	in_edit checkout -q -- . && rm -rf "$edit" &&
	{ kv series; [ $? = 2 ]; } && grep -q "make edit makes it" "$TMP/o"
'
done_testing
