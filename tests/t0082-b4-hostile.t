#!/bin/bash
# Mail is input from outside (#16): a posting that does not apply is
# aborted and leaves the cache repository clean for the next command; a
# change-id that would break out of b4's tracking JSON is refused before
# anything changes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 5
export GIT_COMMITTER_NAME='Test Sender' GIT_COMMITTER_EMAIL=sender@kverify.test
copy=$TMP/repo
repo_copy "$copy"
cd "$copy" || exit 1

make --no-print-directory send > "$TMP/send" 2>&1 || { tail -n 20 "$TMP/send" | diag; }
cp -r results/send/v3 "$TMP/v3"
cp -r series "$TMP/series.before"
repo=$(ls -d "$KVERIFY_CACHE"/b4/deb-linux-source-7.3-* | head -n 1)
# Each case starts from a clean cache repository, so that one case's
# leftovers cannot fail the next (the old code left .git/rebase-apply).
clean_repo() { git -C "$repo" am --abort > /dev/null 2>&1; rm -rf "$repo/.git/rebase-apply"; }
same_series() { diff -r "$TMP/series.before" series > "$TMP/d" 2>&1 || { diag < "$TMP/d"; false; }; }

# (4) A posting that does not apply: a context line of patch 1 changed.
cp -r "$TMP/v3" "$TMP/bad"
f=$(ls "$TMP"/bad/0001-*.eml)
n=$(grep -n '^@@ ' "$f" | sed -n 2p | cut -d: -f1)
sed -i "$((n + 1))s/^ \(.*\)$/ \1 \/* not in the tree *\//" "$f"
make --no-print-directory am MBOX="$TMP/bad" > "$TMP/out" 2>&1
rc=$?
[ $rc != 0 ] && grep -q 'does not apply to the tree of 7.3' "$TMP/out" && same_series
ok $? "a posting that does not apply fails, says so, and series/ is unchanged (exit $rc)"
[ ! -e "$repo/.git/rebase-apply" ]
ok $? "the half-applied git am is aborted: no .git/rebase-apply in the cache repository"
make --no-print-directory am MBOX="$TMP/v3" > "$TMP/out" 2>&1
rc=$?
ok $rc "the next make am works"
[ $rc = 0 ] || tail -n 10 "$TMP/out" | diag
rm -rf series && cp -r "$TMP/series.before" series
clean_repo

# (6) A change-id that would write b4's tracking JSON.
cp -r "$TMP/v3" "$TMP/inj"
sed -i 's/^change-id: .*/change-id: x", "prefixes": ["RFC"], "y": "z/' "$TMP"/inj/0000-*.eml
make --no-print-directory am MBOX="$TMP/inj" > "$TMP/out" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "change-id: 'x\", \"prefixes\": \[\"RFC\"\], \"y\": \"z': not a change-id" "$TMP/out" &&
	same_series
ok $? "make am refuses a change-id that is not one; series/ is unchanged (exit $rc)"
echo 'x", "prefixes": ["RFC"], "y": "z' > series/change-id
rm -rf results/send
make --no-print-directory send > "$TMP/out" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "series/change-id:1: 'x\", \"prefixes\"" "$TMP/out" &&
	[ -z "$(ls results/send/v3 2>/dev/null)" ]
ok $? "make send refuses such a series/change-id with file:line and sends nothing (exit $rc)"
cp "$TMP/series.before/change-id" series/change-id
rm -rf series && cp -r "$TMP/series.before" series
clean_repo

done_testing
