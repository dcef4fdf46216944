#!/bin/bash
# SERIES "auto": for a tree kernels.list names no series for, the semantic
# patch finds the shape, and of the variants made for that shape the one
# made for the nearest kernel that applies with --fuzz=0 is picked; the
# fetch step says what it tried and why.  A tree before 5.19 comes out n/a.
# lane: 2
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 9
test_expect_success 'the 5.10, 6.12, 7.2 and 7.3 sources are in the cache' '
	src510=$(cached_source 5.10) && src612=$(cached_source 6.12) &&
	src72=$(cached_source 7.2) && src73=$(cached_source 7.3)
'
copy=$TMP/repo
repo_copy "$copy"
printf 'vendor612 dir:%s auto\nvendor510 dir:%s auto\nvendor72 dir:%s auto\nvendor73 dir:%s auto\n' \
	"$src612" "$src510" "$src72" "$src73" > "$copy/kernels.list"
only_fetch=tree,apply,sim,checkpatch,cocci,config,build,selftests,boot

(cd "$copy" && ./build/kverify verify --skip sim,checkpatch,config,build,selftests,boot vendor612) > "$TMP/out" 2>&1
rc=$?
R=$copy/results/vendor612/report.json
test_expect_success "a 6.12 tree: fetch says which variant it picked and why (exit $rc)" '
	cat "$TMP/out" &&
	[ $rc = 0 ] && grep -q "probed shape emulated_counter on 6.12; picked backports/6.12 (made for 6.12, applies with --fuzz=0)" "$TMP/out"
'
test_expect_success 'the picked series applies and the semantic patch agrees with it' - <<\EOT
	[ "$(json $R 'r["series"]')" = backports/6.12 ] && [ "$(step_status $R apply)" = PASS ] && [ "$(step_status $R cocci)" = PASS ]
EOT

(cd "$copy" && ./build/kverify verify vendor510) > "$TMP/out" 2>&1
rc=$?
R=$copy/results/vendor510/report.json
test_expect_success "a 5.10 tree with SERIES auto comes out n/a (exit $rc)" '
	tail -n 20 "$TMP/out" &&
	[ $rc = 0 ] && [ "$(step_status $R apply)" = N-A ] && [ "$(step_status $R cocci)" = N-A ]
'

# 7.2 and 7.3 have one shape and two variants: each gets its own.
(cd "$copy" && ./build/kverify verify --skip $only_fetch vendor72 vendor73) > "$TMP/out" 2>&1
rc=$?
test_expect_success "of the two mediated variants, 7.2 gets backports/7.2 and 7.3 gets series (exit $rc)" - <<\EOT
	cat "$TMP/out" &&
	[ $rc = 0 ] && [ "$(json $copy/results/vendor72/report.json 'r["series"]')" = backports/7.2 ] &&
	[ "$(json $copy/results/vendor73/report.json 'r["series"]')" = series ]
EOT

# Made equally near (7.1 and 7.3), the newer is tried first, does not
# apply to 7.2 (the selftest, the series' last patch, adds to 7.3's
# Makefile.kvm), and the other is picked.
st=$(tail -n 1 "$copy/series/series")
printf 'shape: mediated\nkernel: 7.1\n' > "$copy/backports/7.2/variant"
(cd "$copy" && ./build/kverify verify --skip $only_fetch vendor72) > "$TMP/out" 2>&1
rc=$?
test_expect_success "a variant that does not apply is passed over, with the hunk that failed (exit $rc)" - <<\EOT
	cat "$TMP/out" &&
	[ $rc = 0 ] && grep -q "tried series (made for 7.3): $st: tools/testing/selftests/kvm/Makefile.kvm: Hunk #1 FAILED at [0-9]*; picked backports/7.2 (made for 7.1, applies with --fuzz=0)" "$TMP/out" &&
	[ "$(json $copy/results/vendor72/report.json 'r["series"]')" = backports/7.2 ]
EOT

# No variant of the shape applies: a clear FAIL, and a directory without
# a variant file is named, not guessed at.
rm "$copy/series/variant"
(cd "$copy" && ./build/kverify verify --skip $only_fetch vendor73) > "$TMP/out" 2>&1
rc=$?
test_expect_success "when no variant applies, fetch fails and says what it tried (exit $rc)" '
	tail -n 20 "$TMP/out" &&
	[ $rc = 1 ] && grep -q "tried backports/7.2 (made for 7.1): .*FAILED.*; no variant of this shape applies: generate one with make backport" "$TMP/out"
'
test_expect_success 'a series directory without a variant file is named' '
	grep -q -- "series/variant has no \"shape:\" and \"kernel: X.Y\" lines, not a candidate" "$TMP/out"
'

test_expect_success 'auto targets are applicable targets of the CI matrix' - <<\EOT
	"$KVERIFY" --list "$copy/kernels.list" matrix --ci github | grep -q '"vendor612"'
EOT
done_testing
