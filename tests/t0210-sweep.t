#!/bin/bash
# make sweep on a small local archive: the test hook KVERIFY_TEST_SWEEP_LIST
# (tests/README) stands for the suites, and two tar: sources cut from the
# cached 6.12 and 7.2 trees stand for two linux-source versions.  The sweep
# runs the real pipeline (fetch, tree, apply, sim, checkpatch, cocci) with
# SERIES auto on a partial unpack, reuses the row of a version whose
# series/, backports/ and cocci/ did not change, heads its output with a
# failing version, and fans out with matrix --sweep.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 29
test_expect_success 'the 6.12 and 7.2 sources are in the cache' '
	src612=$(cached_source 6.12) && src72=$(cached_source 7.2)
'

copy=$TMP/repo
repo_copy "$copy"
cache=$TMP/cache
export KVERIFY_SIM_TRACES=2000

# A source with what the steps read and a file they do not (drivers/net).
fixture() {	# fixture SRC TOP TAR
	tar -C "$1" -cf "$3" --transform "s,^,$2/," Makefile COPYING CREDITS \
		Kbuild MAINTAINERS README scripts Documentation/Makefile \
		Documentation/admin-guide drivers/Makefile drivers/net/Kconfig \
		fs/Makefile init ipc kernel/Makefile lib/Makefile \
		include/linux/kvm_host.h arch/x86/kvm arch/x86/include \
		tools/testing/selftests/kvm
}
test_expect_success 'fixture sources made' '
	fixture "$src612" linux-6.12 "$TMP/linux-6.12.tar" &&
	fixture "$src72" linux-7.2 "$TMP/linux-7.2.tar"
'

cat > "$TMP/archive" <<EOF
# SUITE PACKAGE=VERSION SOURCE
bookworm linux-source-6.12=6.12.900-1 tar:$TMP/linux-6.12.tar
trixie linux-source-6.12=6.12.900-1 tar:$TMP/linux-6.12.tar
trixie-backports linux-source-7.2=7.2.900-1~bpo13+1 tar:$TMP/linux-7.2.tar
nowhere -
EOF
export KVERIFY_TEST_SWEEP_LIST=$TMP/archive
# Without make's jobserver (that of make check, say): a version at a time.
sweep() {	# sweep [ARGS...]: in the copy, own cache, table and JSON
	(cd "$copy" && env -u MAKEFLAGS ./build/kverify --cache "$cache" --sources "$cache" sweep \
		--md "$TMP/sweep.md" --json "$TMP/sweep.json" "$@") \
		> "$TMP/out" 2> "$TMP/err"
}
J=$TMP/sweep.json
row() {	# row VERSION EXPR: EXPR over that version's JSON object "v"
	json "$J" "[$2 for v in r['versions'] if v['version']=='$1'][0]"
}

sweep
swrc=$?
test_expect_success "two versions pass; the headline is the first line (exit $swrc)" - <<\EOT
	cat "$TMP/out" && tail -n 30 "$TMP/err" &&
	[ $swrc = 0 ] && head -n 1 "$TMP/out" | grep -q '^sweep: PASS: 2 versions (2 pass, 0 n/a); 2 checked, 0 unchanged and reused$'
EOT
test_expect_success 'the table: one row per version (a version in two suites once), the variant auto picked, six steps' - <<\EOT
	grep -q '^| 6.12 6.12.900-1 | bookworm, trixie | backports/6.12 | PASS | PASS | PASS | PASS | PASS | PASS | .* MB | checked ' "$TMP/out" &&
	grep -q '^| 7.2 7.2.900-1~bpo13+1 | trixie-backports | backports/7.2 | PASS | PASS | PASS | PASS | PASS | PASS |' "$TMP/out"
EOT
test_expect_success 'a suite the mirror lacks is reported' - <<\EOT
	grep -q '^- suite nowhere: the mirror has no such suite' "$TMP/out" ||
	{ tail -n 20 "$TMP/out"; false; }
EOT
test_expect_success 'the JSON parses and says the same' - <<\EOT
	json "$J" 'r["passed"] and len(r["versions"]) == 2 and r["missing_suites"][0].startswith("nowhere") and all(len(v["steps"]) == 6 for v in r["versions"])' > "$TMP/j" 2>&1 &&
	[ "$(cat "$TMP/j")" = True ]
EOT
test_expect_success 'docs/sweep.md holds the table printed on stdout' - <<\EOT
	cmp -s <(sed -n '/^| version/,/^$/p' "$TMP/out") <(sed -n '/^| version/,/^$/p' "$TMP/sweep.md")
EOT

# make -j2 sweep, in a cache of its own: both versions at once, each in a
# process of its own while make's jobserver has a token for it; the rows
# the same as one at a time (the run above).
rows() { json "$1" '[(v["version"], [s["status"] for s in v["steps"]]) for v in r["versions"]]'; }
# "start" and "end" as the sweep's notes say them, in their order.
order() { sed -nE 's/^kverify: sweep: linux-source-[^ ]+ [^ ]+ \([12]\/2\) \.\.\.$/start/p; s/^kverify: sweep: linux-source-[^ ]+ [^ ]+: PASS$/end/p' "$1" | tr '\n' ' '; }
rows "$J" > "$TMP/rows.one"
cp "$TMP/err" "$TMP/err.one"
printf 'sweep:\n\t+@cd "$$SWEEP_COPY" && ./build/kverify --cache "$$SWEEP_CACHE" --sources "$$SWEEP_CACHE" sweep --md "$$SWEEP_TMP/j2.md" --json "$$SWEEP_TMP/j2.json" > "$$SWEEP_TMP/j2.out" 2> "$$SWEEP_TMP/j2.err"\n' > "$TMP/j2.mk"
SWEEP_COPY=$copy SWEEP_CACHE=$TMP/cache-j2 SWEEP_TMP=$TMP env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -j2 -f "$TMP/j2.mk" sweep
j2rc=$?
test_expect_success "one at a time without a jobserver: each version ends before the next starts ($(order "$TMP/err.one"))" - <<\EOT
	[ "$(order "$TMP/err.one")" = "start end start end " ]
EOT
test_expect_success "make -j2 sweep: the second version starts before the first ends, the same rows (exit $j2rc, $(order "$TMP/j2.err"))" - <<\EOT
	tail -n 20 "$TMP/j2.err" && [ $j2rc = 0 ] &&
	[ "$(order "$TMP/j2.err")" = "start start end end " ] &&
	head -n 1 "$TMP/j2.out" | grep -q '^sweep: PASS: 2 versions (2 pass, 0 n/a); 2 checked, 0 unchanged and reused$' &&
	rows "$TMP/j2.json" > "$TMP/rows.j2" && cat "$TMP/rows.j2" && cmp "$TMP/rows.one" "$TMP/rows.j2"
EOT

# The partial source: what the steps read, nothing else, under its own key.
key=$(row 7.2.900-1~bpo13+1 'v["source_key"]')
part=$cache/src/$key
test_expect_success "the sweep unpacks only what its steps read, under a key of its own ($key)" '
	case $key in *-partial-*) true ;; *) false ;; esac && [ -f "$part/arch/x86/kvm/pmu.c" ] &&
	[ -f "$part/scripts/checkpatch.pl" ] && [ -f "$part/tools/testing/selftests/kvm/Makefile.kvm" ] &&
	[ ! -e "$part/drivers/net/Kconfig" ] && [ -f "$part/drivers/Makefile" ]
'
kept=$(row 7.2.900-1~bpo13+1 'v["kept_bytes"]')
used=$(du -sB1 "$part" | cut -f1)
test_expect_success "kept_bytes is the disk the partial source uses ($kept, du $used)" '
	[ "$kept" -gt 0 ] && [ "$kept" = "$used" ]
'
members=$(cd "$copy" && ./build/kverify sweep --members)
test_expect_success 'sweep --members lists the KVM files'\'' directories, scripts/ and Makefile' - <<\EOT
	for m in arch/x86/kvm arch/x86/include/asm scripts Makefile tools/testing/selftests/kvm; do
		printf '%s\n' "$members" | grep -qx "$m" || { echo "# no $m"; false; } || return 1
	done
EOT

# A full verify of the same source never gets the partial tree.
printf 'full72 tar:%s series\n' "$TMP/linux-7.2.tar" > "$copy/full.list"
(cd "$copy" && ./build/kverify --cache "$cache" --sources "$cache" --list full.list verify \
	--skip tree,apply,sim,checkpatch,cocci,config,build,selftests,boot full72) > "$TMP/full" 2>&1
fkey=$(json "$copy/results/full72/report.json" 'r["source_key"]')
test_expect_success "a full verify of the same source unpacks it whole ($fkey)" '
	[ -n "$fkey" ] && [ "$fkey" != "$key" ] && [ -f "$cache/src/$fkey/drivers/net/Kconfig" ]
'

# Unchanged series/, backports/, cocci/: the rows are reused, nothing runs.
rm -rf "$copy/results/sweep"
start=$(date +%s)
sweep
swrc=$?
took=$(($(date +%s) - start))
test_expect_success "a second sweep reuses both rows and runs no step (exit $swrc, ${took}s)" - <<\EOT
	[ $swrc = 0 ] && head -n 1 "$TMP/out" | grep -q '0 checked, 2 unchanged and reused$' &&
	[ ! -d "$copy/results/sweep/sweep-7.2.900-1_bpo13_1" ]
EOT
test_expect_success 'the table says which rows are reused' - <<\EOT
	grep -q '^| 6.12 6.12.900-1 | .* | reused, checked ' "$TMP/out"
EOT
test_expect_success 'so does the JSON' - <<\EOT
	[ "$(row 6.12.900-1 'v["reused"]')" = True ]
EOT

# A changed backports/ is checked again; with backports/7.2 gone, 7.2
# has no variant that applies, and that failure is the headline.
rm -r "$copy/backports/7.2"
sweep
swrc=$?
test_expect_success "a failing version is the headline and the exit status is 1 (exit $swrc)" - <<\EOT
	cat "$TMP/out" && tail -n 20 "$TMP/err" &&
	[ $swrc = 1 ] && head -n 1 "$TMP/out" | grep -q '^sweep: FAIL: linux-source-7.2 7.2.900-1~bpo13+1 (trixie-backports): fetch: .*tried series (made for 7.3): .*Makefile.kvm: Hunk #1 FAILED'
EOT
test_expect_success 'after backports/ changed, every version is checked again' - <<\EOT
	[ "$(json "$J" '[v["reused"] for v in r["versions"]]')" = "[False, False]" ] &&
	grep -q '^| 6.12 6.12.900-1 | .* | checked ' "$TMP/out"
EOT
test_expect_success 'the JSON and docs/sweep.md say it failed' - <<\EOT
	[ "$(json "$J" 'r["passed"]')" = False ] && [ "$(row 7.2.900-1~bpo13+1 'v["passed"]')" = False ] &&
	grep -q '^\*\*FAIL: linux-source-7.2' "$TMP/sweep.md"
EOT
sweep
swrc=$?
test_expect_success "the failing row is recorded and reused too (exit $swrc)" - <<\EOT
	[ $swrc = 1 ] && head -n 1 "$TMP/out" | grep -q '^sweep: FAIL: linux-source-7.2' &&
	grep -q 'unchanged since .*, row reused' "$TMP/err"
EOT

# One CI job's version: only it runs, and the table in the docs stays.
cp "$TMP/sweep.md" "$TMP/md.before"
sweep --only linux-source-6.12=6.12.900-1@trixie
swrc=$?
test_expect_success "--only runs one version and leaves docs/sweep.md alone (exit $swrc)" - <<\EOT
	[ $swrc = 0 ] && [ "$(json "$J" 'len(r["versions"])')" = 1 ] && cmp -s "$TMP/sweep.md" "$TMP/md.before"
EOT

test_expect_success 'matrix --sweep --ci github: one job per version' - <<\EOT
	(cd "$copy" && ./build/kverify --cache "$cache" --sources "$cache" matrix --sweep --ci github) > "$TMP/gh" 2> "$TMP/err" &&
	python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); assert [e["sweep"] for e in m["include"]] == ["linux-source-6.12=6.12.900-1@bookworm", "linux-source-7.2=7.2.900-1~bpo13+1@trixie-backports"], m' "$TMP/gh"
EOT
test_expect_success 'matrix --sweep --ci gitlab: a job per version running build/kverify sweep --only, retried on exit 3, with a cache of its own' - <<\EOT
	(cd "$copy" && ./build/kverify --cache "$cache" --sources "$cache" matrix --sweep --ci gitlab) > "$TMP/gl" 2> "$TMP/err" &&
	python3 -c 'import yaml,sys; p=yaml.safe_load(open(sys.argv[1])); j=p["sweep linux-source-7.2=7.2.900-1~bpo13+1@trixie-backports"]; assert j["script"][-1] == "build/kverify sweep --only linux-source-7.2=7.2.900-1~bpo13+1@trixie-backports", j; assert j["retry"]["exit_codes"] == [3] and j["cache"]["key"] == "kverify-sweep-linux-source-7.2=7.2.900-1~bpo13+1@trixie-backports", j; assert len([k for k in p if k.startswith("sweep ")]) == 2' "$TMP/gl"
EOT

# Ctrl-C (SIGINT to the sweep's process group) while its first version
# runs, in a cache without rows: the second version never starts, the
# exit is 130, sweep.json and docs/sweep.md stay the last complete
# sweep's, and the interrupted sweep's report is written beside them as
# sweep.interrupted.json, which the next complete sweep removes.
cp "$J" "$TMP/json.before" && cp "$TMP/sweep.md" "$TMP/md.before"
(cd "$copy" && exec setsid env -u MAKEFLAGS ./build/kverify --cache "$TMP/cache-int" \
	--sources "$cache" sweep --md "$TMP/sweep.md" --json "$J") > "$TMP/int.out" 2> "$TMP/int.err" &
pid=$!
first_started() { grep -q "^kverify: sweep: linux-source-6.12 6.12.900-1 (1/2) \.\.\.$" "$TMP/int.err"; }
wait_for 120 first_started && kill -INT -- -$pid
wait $pid
intrc=$?
test_expect_success "Ctrl-C in a sweep: exit $intrc, no second version, sweep.json stays, the interrupted one beside it" - <<\EOT
	tail -n 5 "$TMP/int.err" && [ $intrc = 130 ] &&
	! grep -q "(2/2)" "$TMP/int.err" &&
	cmp "$TMP/json.before" "$J" && cmp "$TMP/md.before" "$TMP/sweep.md" &&
	[ -s "$TMP/sweep.interrupted.json" ] && ! cmp -s "$TMP/sweep.interrupted.json" "$J"
EOT
sweep
swrc=$?
test_expect_success "a sweep that completes removes sweep.interrupted.json (exit $swrc: 7.2 fails as above)" - <<\EOT
	[ $swrc = 1 ] && [ ! -e "$TMP/sweep.interrupted.json" ] &&
	[ "$(json "$J" 'len(r["versions"])')" = 2 ]
EOT

test_expect_success 'a bad --only exits 2' - <<\EOT
	test_expect_code 2 sh -c "cd '$copy' && ./build/kverify --cache '$cache' --sources '$cache' sweep --only linux-6.12" > "$TMP/out" 2>&1 ||
	{ tail -n 30 "$TMP/out"; false; }
EOT
test_expect_success 'and says what it wants' - <<\EOT
	grep -q "wants linux-source-X.Y=VERSION\[@SUITE\], not 'linux-6.12'" "$TMP/out" ||
	{ tail -n 20 "$TMP/out"; false; }
EOT
echo "bookworm linux-source-6.12" > "$TMP/bad"
test_expect_success 'a bad test list line exits 2' - <<\EOT
	test_expect_code 2 env KVERIFY_TEST_SWEEP_LIST="$TMP/bad" sh -c "cd '$copy' && ./build/kverify --cache '$cache' --sources '$cache' sweep" > "$TMP/out" 2>&1 ||
	{ tail -n 30 "$TMP/out"; false; }
EOT
test_expect_success 'naming file:line' '
	grep -q "$TMP/bad:1: expected" "$TMP/out" ||
	{ tail -n 20 "$TMP/out"; false; }
'
done_testing
