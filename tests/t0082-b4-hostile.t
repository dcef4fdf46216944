#!/bin/bash
# Mail is input from outside (#16): a posting that does not apply is
# aborted and leaves the cache repository clean for the next command; a
# change-id that would break out of b4's tracking JSON, a MSGID that is an
# option and a revision out of range are refused before anything changes;
# the number of patches imported is the number imported; two make am at
# once take turns.
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 16
test_identity
copy=$TMP/repo
repo_copy "$copy"
repo_fromless "$copy"
cd "$copy" || exit 1

# The revision series/ holds and its number of patches.
rev=$(cat series/revision)
np=$(grep -c . series/series)
make --no-print-directory send > "$TMP/send" 2>&1 || { tail -n 20 "$TMP/send" | diag; }
cp -r results/send/v$rev "$TMP/v3"
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
test_expect_success "a posting that does not apply fails, says so, and series/ is unchanged (exit $rc)" - <<\EOT
	tail -n 10 "$TMP/out" &&
	[ $rc != 0 ] && grep -q 'does not apply to the tree of 7.3' "$TMP/out" && same_series
EOT
test_expect_success 'the half-applied git am is aborted: no .git/rebase-apply in the cache repository' '
	[ ! -e "$repo/.git/rebase-apply" ]
'
test_expect_success 'the next make am works' '
	make --no-print-directory am MBOX="$TMP/v3" > "$TMP/out" 2>&1 ||
	{ tail -n 10 "$TMP/out"; false; }
'
rm -rf series && cp -r "$TMP/series.before" series
clean_repo

# A posting older than series/revision would replace the newer series/:
# refused (exit 2), series/ unchanged; FORCE=1 imports it.
cp -r "$TMP/v3" "$TMP/older"
sed -i "s/\[PATCH v$rev /[PATCH v$((rev - 1)) /" "$TMP"/older/*.eml
make --no-print-directory am MBOX="$TMP/older" > "$TMP/out" 2>&1
rc=$?
test_expect_success "make am of v$((rev - 1)) over v$rev is refused (exit $rc), series/ unchanged; FORCE=1 imports it" - <<\EOT
	tail -n 5 "$TMP/out" &&
	[ $rc = 2 ] && grep -q "the posting is v$((rev - 1)), older than series/.s v$rev (series/revision): .*FORCE=1 imports v$((rev - 1)) all the same" "$TMP/out" &&
	same_series &&
	make --no-print-directory am MBOX="$TMP/older" FORCE=1 > "$TMP/out" 2>&1 &&
	[ "$(cat series/revision)" = $((rev - 1)) ]
EOT
rm -rf series && cp -r "$TMP/series.before" series
clean_repo

# series/ that cannot say which revision it holds: a file make am must
# write is a directory (root writes any file, so chmod would not stop it).
rm -f series/change-id && mkdir -p series/change-id/keep
make --no-print-directory am MBOX="$TMP/v3" > "$TMP/out" 2>&1
amrc=$?
test_expect_success 'make am with a series/change-id it cannot read or write refuses (exit 2), not "imported" and 0' '
	[ $amrc != 0 ] && grep -q "am\] Error 2$" "$TMP/out" && grep -q "series/change-id: Is a directory" "$TMP/out" &&
	! grep -q "^imported v" "$TMP/out"
'
rm -rf series && cp -r "$TMP/series.before" series
clean_repo

# (6) A change-id that would write b4's tracking JSON.
cp -r "$TMP/v3" "$TMP/inj"
sed -i 's/^change-id: .*/change-id: x", "prefixes": ["RFC"], "y": "z/' "$TMP"/inj/0000-*.eml
make --no-print-directory am MBOX="$TMP/inj" > "$TMP/out" 2>&1
rc=$?
test_expect_success "make am refuses a change-id that is not one; series/ is unchanged (exit $rc)" - <<\EOT
	tail -n 10 "$TMP/out" &&
	[ $rc != 0 ] && grep -q "change-id: 'x\", \"prefixes\": \[\"RFC\"\], \"y\": \"z': not a change-id" "$TMP/out" &&
	same_series
EOT
echo 'x", "prefixes": ["RFC"], "y": "z' > series/change-id
rm -rf results/send
make --no-print-directory send > "$TMP/out" 2>&1
rc=$?
test_expect_success "make send refuses such a series/change-id with file:line and sends nothing (exit $rc)" - <<\EOT
	tail -n 10 "$TMP/out" &&
	[ $rc != 0 ] && grep -q "series/change-id:1: .*'x\", \"prefixes\"" "$TMP/out" &&
	[ -z "$(ls results/send/v$rev 2>/dev/null)" ]
EOT
cp "$TMP/series.before/change-id" series/change-id
rm -rf series && cp -r "$TMP/series.before" series
clean_repo

# (9) MSGID that is an option; a revision out of range; the patch count.
make --no-print-directory am MSGID='-m/etc/passwd' > "$TMP/out" 2>&1
rc=$?
test_expect_success "MSGID='-m/etc/passwd' is refused before b4 runs (exit $rc)" - <<\EOT
	tail -n 10 "$TMP/out" &&
	[ $rc != 0 ] && grep -q "MSGID='-m/etc/passwd' is not a message-id" "$TMP/out" &&
	! grep -q 'Running\|Analyzing\|Grabbing' "$TMP/out" && same_series
EOT
cp -r "$TMP/v3" "$TMP/big"
sed -i "s/^Subject: \[PATCH v$rev /Subject: [PATCH v99999999999 /" "$TMP"/big/*.eml
make --no-print-directory am MBOX="$TMP/big" > "$TMP/out" 2>&1
rc=$?
test_expect_success "[PATCH v99999999999 is refused, series/revision stays $rev (exit $rc)" - <<\EOT
	tail -n 10 "$TMP/out" &&
	[ $rc != 0 ] && grep -q "the posting says '\[PATCH v99999999999': not a revision (1 to 999)" "$TMP/out" &&
	[ "$(cat series/revision)" = $rev ] && same_series
EOT
rm -rf series && cp -r "$TMP/series.before" series
clean_repo

# One patch more than the set sent: np + 1.
more=$((np + 1))
cp -r "$TMP/v3" "$TMP/three"
sed -i "s/^Subject: \[PATCH v$rev \([0-9]*\)\/$np\]/Subject: [PATCH v$rev \1\/$more]/" "$TMP"/three/*.eml
cmid=$(grep -m1 -i '^Message-Id:' "$TMP"/three/0000-*.eml | sed 's/^[^:]*: //')
cat > "$TMP/three/000$more-readme.eml" <<MAIL
From: $sender
Date: Mon, 30 Nov 2026 12:00:00 +0000
Subject: [PATCH v$rev $more/$more] KVM: selftests: Name the batching test in a README
Message-Id: <kverify-test-$more@kverify.test>
In-Reply-To: $cmid
References: $cmid

Name pmu_emulated_batching_test in a README next to it.

Signed-off-by: $sender
---
 tools/testing/selftests/kvm/x86/README.batching | 1 +
 1 file changed, 1 insertion(+)
 create mode 100644 tools/testing/selftests/kvm/x86/README.batching

diff --git a/tools/testing/selftests/kvm/x86/README.batching b/tools/testing/selftests/kvm/x86/README.batching
new file mode 100644
index 000000000000..0ba0e2b0a3e4
--- /dev/null
+++ b/tools/testing/selftests/kvm/x86/README.batching
@@ -0,0 +1 @@
+pmu_emulated_batching_test
MAIL
make --no-print-directory am MBOX="$TMP/three" > "$TMP/out" 2>&1
rc=$?
test_expect_success "a $more-patch posting: '($more patches)' and $more lines in series/series (exit $rc)" '
	tail -n 10 "$TMP/out" &&
	[ $rc = 0 ] && grep -q "^imported v$rev into series/ ($more patches)" "$TMP/out" &&
	[ "$(wc -l < series/series)" = $more ]
'
rm -rf series && cp -r "$TMP/series.before" series
clean_repo

# (8b) series/ is input too: an entry that leaves series/, or a patch
# that is not there, is refused before b4 or the fetch runs.
test_expect_success 'make send with ../ in series/series: exit 2, naming the entry, nothing sent' '
	echo ../../kernels.list >> series/series &&
	rm -rf results/send results/b4/fetch.log &&
	{ make --no-print-directory send > "$TMP/out" 2>&1; rc=$?; } ;
	rm -rf series && cp -r "$TMP/series.before" series &&
	[ $rc = 2 ] && grep -q "series/series:[0-9]*: patch .\.\./\.\./kernels\.list. listed in the series is missing" "$TMP/out" &&
	[ ! -d results/send ] && [ ! -e results/b4/fetch.log ]
'
test_expect_success 'make am with a patch of series/series missing: exit 2, naming it' '
	mv series/0002-*.patch "$TMP/" &&
	{ make --no-print-directory am MBOX="$TMP/v3" > "$TMP/out" 2>&1; rc=$?; } ;
	rm -rf series && cp -r "$TMP/series.before" series &&
	[ $rc = 2 ] && grep -q "series/series:[0-9]*: patch .0002-.*. listed in the series is missing" "$TMP/out"
'

# (9) Two make am at once, in the same repository.
make --no-print-directory am MBOX="$TMP/v3" > "$TMP/am1" 2>&1 &
pid1=$!
make --no-print-directory am MBOX="$TMP/v3" > "$TMP/am2" 2>&1 &
pid2=$!
wait $pid1
rc1=$?
wait $pid2
rc2=$?
test_expect_success "two make am at once both succeed (exit $rc1 and $rc2)" '
	tail -n 10 "$TMP/am1" "$TMP/am2" &&
	[ $rc1 = 0 ] && [ $rc2 = 0 ]
'
test_expect_success "one waited for the other's lock" - <<\EOT
	cat "$TMP/am1" "$TMP/am2" | grep -Eq 'waiting for pid [0-9]+ \(.*kverify[^)]*(, since [0-9:]+)?\), which holds .*/locks/b4.lock'
EOT
test_expect_success 'both imported the posting' '
	grep -q "^imported v$rev into series/ ($np patches)" "$TMP/am1" &&
	grep -q "^imported v$rev into series/ ($np patches)" "$TMP/am2"
'
test_expect_success 'the cache repository is clean afterwards' '
	[ ! -e "$repo/.git/rebase-apply" ] && git -C "$repo" status --porcelain --untracked-files=no | { ! grep -q .; }
'
done_testing
