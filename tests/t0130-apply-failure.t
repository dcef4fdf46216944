#!/bin/bash
# A patch that does not apply: the step names the patch and the failing
# hunk and shows the reject; the cached pristine source is untouched; once
# the patch is fixed, the next run passes, in the old tree linked to the
# source again: what the failed run and anyone else left there is gone.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_APPLY_TARGET:-6.12}
QUICK=sim,checkpatch,cocci,config,build,selftests,boot
plan 8
copy=$TMP/repo
repo_copy "$copy"
series=$(target_series $T)
# the knob's patch, whose lines the checks below edit
p1=$(grep -m1 Batch-counter-reprograms "$series/series")
src=$(cached_source $T) || exit 1
before=$(pristine_sum "$src" before)

sed -i 's/^ \(\t\+\)pmc->emulated_counter++;/ \1pmc->emulated_counter += 1;/' "$copy/$series/$p1"
(cd "$copy" && ./build/kverify verify --skip $QUICK $T) > "$TMP/out" 2>&1
rc=$?
test_expect_success "a broken context line fails the apply step (exit $rc)" '
	tail -n 20 "$TMP/out" &&
	[ $rc = 1 ] && [ "$(step_status "$copy/results/$T/report.json" apply)" = FAIL ]
'
test_expect_success 'the reason names the patch and the failing hunk' '
	grep -q "patch $p1 does not apply: arch/x86/kvm/pmu.c: Hunk #[0-9]* FAILED at" "$TMP/out" ||
	{ tail -n 20 "$TMP/out"; false; }
'
json "$copy/results/$T/report.json" '[s["detail"] for s in r["steps"] if s["name"] == "apply"][0]' > "$TMP/detail"
test_expect_success 'the report shows the reject' '
	grep -q "reject: arch/x86/kvm/pmu.c.rej" "$TMP/detail" ||
	{ tail -n 20 "$TMP/detail"; false; }
'
test_expect_success 'the cached pristine tree is unchanged' '
	[ "$(pristine_sum "$src" failed)" = "$before" ]
'

# Written in the tree since by someone else: a new file, a file of the
# source replaced (not one the series touches), a file removed.
tree=$KVERIFY_CACHE/trees/$T
echo stray > "$tree/kverify-stray.c"
cp "$tree/README" "$tree/README.new" && echo edited >> "$tree/README.new" &&
	mv "$tree/README.new" "$tree/README"
rm "$tree/CREDITS"
cp "$series/$p1" "$copy/$series/$p1"
(cd "$copy" && ./build/kverify verify --skip $QUICK $T) > "$TMP/out" 2>&1
rc=$?
test_expect_success "after the fix the next run applies the series (exit $rc)" '
	tail -n 20 "$TMP/out" &&
	[ $rc = 0 ] && [ "$(step_status "$copy/results/$T/report.json" apply)" = PASS ]
'
test_expect_success 'the fixed series is applied to the old tree, linked to the source again' '
	json "$copy/results/$T/report.json" "[s[\"reason\"] for s in r[\"steps\"] if s[\"name\"] == \"tree\"][0]" > "$TMP/tree-reason" &&
	grep "^fresh tree linked to .* (the old one relinked: [1-9][0-9]* entries put back)" "$TMP/tree-reason"
'
# Every entry of the tree is the source's own inode at the same path, and
# the source has no entry the tree lacks, but the files the series names
# (their own inodes, patched) and quilt's .pc.
test_expect_success 'the tree is the source but for the series files and .pc: the stray, edited and removed files are back' '
	(cd "$series" && cat $(cat series)) | sed -n "s,^+++ b/,,p" | sort -u > "$TMP/named" &&
	python3 - "$src" "$tree" "$TMP/named" > "$TMP/diff" <<-\EOF &&
	import os, sys
	src, tree, named = sys.argv[1], sys.argv[2], set(open(sys.argv[3]).read().split())
	def walk(root):
	    out = {}
	    for d, dirs, files in os.walk(root):
	        for n in dirs + files:
	            p = os.path.join(d, n)
	            out[os.path.relpath(p, root)] = os.lstat(p)
	    return out
	s, t = walk(src), walk(tree)
	for rel in sorted(set(s) | set(t)):
	    if rel == ".pc" or rel.startswith(".pc/") or rel in named:
	        continue
	    if rel not in s or rel not in t:
	        print("only in", "tree" if rel in t else "source", rel)
	    elif not os.path.isdir(os.path.join(src, rel)) and s[rel].st_ino != t[rel].st_ino:
	        print("not the source inode:", rel)
	EOF
	test ! -s "$TMP/diff" &&
	test ! -e "$tree/kverify-stray.c" && test -e "$tree/CREDITS" &&
	cmp "$src/README" "$tree/README"
'
test_expect_success 'the cached pristine tree is still unchanged' '
	after=$(pristine_sum "$src" fixed) &&
	{ [ "$after" = "$before" ] || diff "$TMP/pristine.before" "$TMP/pristine.fixed" | head -n 20; } &&
	[ "$after" = "$before" ]
'
done_testing
