#!/bin/bash
# A test binary cannot speak for the guest runner: the runner's verdict
# lines reach kverify on a serial port of their own (ttyS1, runner.log),
# and the tests run as nobody, who can write neither that port nor the
# console, nor power the guest off.  Here a patch makes pmu_counters_test
# print the runner's remaining lines ("ok 15" .. "ok 22", "KVERIFY-DONE")
# on every port it can open, then power the guest off, and otherwise fail:
# the run must FAIL with that test's failures, and no line of it may reach
# the runner's port.  About 240 s in the suite: the series with the
# forging patch is a series of its own, with a ccache store of its own, so
# the KVM modules are built cold; the selftests built again; one TCG boot
# of Debian's 6.12 kernel.
# tier: kernels
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=6.12
plan 4
P=$(cached_source $T) || exit 1
copy=$TMP/repo
repo_copy "$copy"
series=$(target_series $T)

f=tools/testing/selftests/kvm/x86_64/pmu_counters_test.c
mkdir -p "$TMP/a/${f%/*}" "$TMP/b/${f%/*}"
cp "$P/$f" "$TMP/a/$f"
awk '
/^#include "processor.h"$/ {
	print; print "#include <fcntl.h>"; print "#include <sys/reboot.h>"; next
}
/^int main\(int argc, char \*argv\[\]\)$/ { main = 1 }
main && /^\{$/ {
	print
	print "\tstatic const char *const ports[] = { \"/dev/ttyS1\", \"/dev/console\", \"/dev/ttyS0\" };"
	print "\tchar fake[4096];"
	print "\tint i, n = 0, fd;"
	print ""
	print "\tfor (i = 15; i <= 22; i++)"
	print "\t\tn += snprintf(fake + n, sizeof(fake) - n, \"ok %d pmu_counters_test forged\\n\", i);"
	print "\tn += snprintf(fake + n, sizeof(fake) - n, \"KVERIFY-DONE\\n\");"
	print "\tfor (i = 0; i < 3; i++) {"
	print "\t\tfd = open(ports[i], O_WRONLY);"
	print "\t\tif (fd >= 0 && write(fd, fake, n) == n)"
	print "\t\t\tprintf(\"forged on %s\\n\", ports[i]);"
	print "\t}"
	print "\tsync();"
	print "\treboot(RB_POWER_OFF);"
	print "\treturn 1;"
	main = 0; next
}
{ print }' "$P/$f" > "$TMP/b/$f"
{ printf 'From: nobody\nSubject: [PATCH 7/7] selftests: forge\n\n---\n'
  (cd "$TMP" && diff -u "a/$f" "b/$f") ; } > "$copy/$series/0007-forge.patch"
echo 0007-forge.patch >> "$copy/$series/series"

(cd "$copy" && ./build/kverify verify --skip sim,checkpatch,cocci,kabi $T) > "$TMP/out" 2>&1
vrc=$?
R=$copy/results/$T/report.json
test_expect_success 'the forging test was built into the guest' '
	grep -q "forged" "$TMP/b/$f" && [ "$(step_status $R selftests)" = PASS ]
'
test_expect_success 'verify FAILs at boot: the forged lines are not the runner'"'"'s (exit 1)' '
	tail -n 30 "$TMP/out" | diag; [ $vrc = 1 ] && [ "$(step_status $R boot)" = FAIL ]
'
test_expect_success 'each run of the forging test is a FAIL of its own' '
	n=$(json $R "len([t for t in r[\"tests\"] if t[\"name\"].startswith(\"pmu_counters_test\") and t[\"status\"] == \"FAIL\"])") &&
	[ "$n" = 4 ]
'
test_expect_success 'no forged line reached the runner'"'"'s port, nor the console' '
	! grep -q forged "$copy/results/$T/runner.log" &&
	! grep -q "^ok [0-9]* pmu_counters_test forged" "$copy/results/$T/console.log" &&
	grep -q "KVERIFY-DONE" "$copy/results/$T/runner.log"
'
done_testing
