#!/bin/bash
# SERIES "auto": for a tree kernels.list names no series for, the driver
# lets the semantic patch find the shape and picks the variant, and says
# which; a tree before 5.19 comes out n/a.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 5
src612=$(ls -d "$KVERIFY_CACHE"/src/deb-linux-source-6.12-*/ 2>/dev/null | head -n 1)
src510=$(ls -d "$KVERIFY_CACHE"/src/deb-linux-source-5.10-*/ 2>/dev/null | head -n 1)
src612=${src612%/}
src510=${src510%/}
if [ -z "$src612" ] || [ -z "$src510" ]; then
	for i in 1 2 3 4 5; do skip "auto" "the cache holds no 6.12 or 5.10 tree yet (t0100 fetches them)"; done
	exit 0
fi
copy=$TMP/repo
repo_copy "$copy"
printf 'vendor612 dir:%s auto\nvendor510 dir:%s auto\n' "$src612" "$src510" > "$copy/kernels.list"
(cd "$copy" && ./build/kverify verify --skip sim,checkpatch,config,build,selftests,boot vendor612) > "$TMP/out" 2>&1
rc=$?
R=$copy/results/vendor612/report.json
ok $rc "verify of a dir: tree with SERIES auto passes (exit $rc)"
grep_ok "fetch says which variant it picked" "probed shape emulated_counter: picked backports/6.12" "$TMP/out"
[ "$(json $R 'r["series"]')" = backports/6.12 ] && [ "$(step_status $R apply)" = PASS ] && [ "$(step_status $R cocci)" = PASS ]
ok $? "the picked series applies and the semantic patch agrees with it"
(cd "$copy" && ./build/kverify verify vendor510) > "$TMP/out" 2>&1
rc=$?
R=$copy/results/vendor510/report.json
[ $rc = 0 ] && [ "$(step_status $R apply)" = N-A ] && [ "$(step_status $R cocci)" = N-A ]
ok $? "a 5.10 tree with SERIES auto comes out n/a (exit $rc)"
"$KVERIFY" --list "$copy/kernels.list" matrix --format github | grep -q '"vendor612"'
ok $? "auto targets are applicable targets of the CI matrix"
done_testing
