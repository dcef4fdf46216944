#!/bin/bash
# A patch that does not apply: the step names the patch and the failing
# hunk and shows the reject; the cached pristine source is untouched; once
# the patch is fixed, the next run passes.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_APPLY_TARGET:-6.12}
QUICK=sim,checkpatch,cocci,config,build,selftests,boot
plan 6
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
[ $rc = 1 ] && [ "$(step_status "$copy/results/$T/report.json" apply)" = FAIL ]
ok $? "a broken context line fails the apply step (exit $rc)"
grep_ok "the reason names the patch and the failing hunk" "patch $p1 does not apply: arch/x86/kvm/pmu.c: Hunk #[0-9]* FAILED at" "$TMP/out"
json "$copy/results/$T/report.json" '[s["detail"] for s in r["steps"] if s["name"] == "apply"][0]' > "$TMP/detail"
grep_ok "the report shows the reject" "reject: arch/x86/kvm/pmu.c.rej" "$TMP/detail"
[ "$(pristine_sum "$src" failed)" = "$before" ]
ok $? "the cached pristine tree is unchanged"

cp "$series/$p1" "$copy/$series/$p1"
(cd "$copy" && ./build/kverify verify --skip $QUICK $T) > "$TMP/out" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(step_status "$copy/results/$T/report.json" apply)" = PASS ]
ok $? "after the fix the next run applies the series (exit $rc)"
after=$(pristine_sum "$src" fixed)
[ "$after" = "$before" ]
ok $? "the cached pristine tree is still unchanged"
[ "$after" = "$before" ] || diff "$TMP/pristine.before" "$TMP/pristine.fixed" | head -n 20 | diag
done_testing
