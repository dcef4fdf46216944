#!/bin/bash
# A full disk: with the cache on a small tmpfs, the step that hits ENOSPC
# fails and says so, and nothing half-written is trusted by a later run.
. "$(dirname "$0")/lib.sh"

plan 4
small=$TMP/small
mkdir -p "$small"
if ! mount -t tmpfs -o size=200m tmpfs "$small" 2> "$TMP/mount"; then
	for i in 1 2 3 4; do skip "full disk" "cannot mount a tmpfs here: $(head -n 1 "$TMP/mount")"; done
	exit 0
fi
trap 'umount "$small" 2>/dev/null; rm -rf "$TMP"' EXIT
KVERIFY_CACHE=$small "$KVERIFY" verify --results "$TMP/r" 5.10 > "$TMP/out" 2>&1
rc=$?
R=$TMP/r/5.10/report.json
[ $rc = 3 ] && [ "$(step_status $R fetch)" = ERROR ]
ok $? "the fetch step is an ERROR on a full disk (exit $rc)"
json $R '[s["reason"] for s in r["steps"] if s["name"] == "fetch"][0]' | grep -q "no space left on device"
ok $? "its reason says no space left on device"
json $R '[s["reason"] for s in r["steps"] if s["name"] == "fetch"][0]' | diag
[ -z "$(ls "$small/src" 2>/dev/null | grep -v '^\.tmp-')" ]
ok $? "no tree was installed in the cache"
KVERIFY_CACHE=$small "$KVERIFY" verify --results "$TMP/r" 5.10 > "$TMP/out2" 2>&1
rc=$?
[ $rc = 3 ] && [ "$(step_status $R fetch)" = ERROR ] && [ "$(step_status $R cocci)" = SKIP ]
ok $? "a second run does not trust what the first left: it fails the same way (exit $rc)"
done_testing
