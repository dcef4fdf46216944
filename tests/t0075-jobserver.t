#!/bin/bash
# make -jN verify-all shares make's jobserver with the kernel builds inside
# the targets: never more than N compile jobs at once, however many targets
# run.  Checked on fixture "kernel trees" whose build runs 8 recorded jobs,
# so the answer does not depend on what the cache already holds.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 4
copy=$TMP/repo
repo_copy "$copy"
fake=$TMP/fake-linux
mkdir -p "$fake/scripts" "$copy/backports/fake"
export KVERIFY_CACHE=$TMP/cache
export KVERIFY_JOBS_FILE=$TMP/jobs

cat > "$fake/Makefile" <<'MK'
O ?= .
JOBS := 1 2 3 4 5 6 7 8
tinyconfig allnoconfig olddefconfig:
	@mkdir -p $(O) && touch $(O)/.config
	@grep -q '^CONFIG_FAKE=y' $(O)/.config || echo CONFIG_FAKE=y >> $(O)/.config
bzImage: $(addprefix job-,$(JOBS))
job-%:
	@sh $(CURDIR)/job.sh
.PHONY: bzImage tinyconfig allnoconfig olddefconfig
MK
cat > "$fake/job.sh" <<'SH'
# One "compile": count the jobs running now, remember the peak.
exec 9>> "$KVERIFY_JOBS_FILE.lock"
flock 9; n=$(( $(cat "$KVERIFY_JOBS_FILE.now" 2>/dev/null || echo 0) + 1 ))
echo $n > "$KVERIFY_JOBS_FILE.now"; echo $n >> "$KVERIFY_JOBS_FILE"; flock -u 9
sleep 0.5
flock 9; echo $(( $(cat "$KVERIFY_JOBS_FILE.now") - 1 )) > "$KVERIFY_JOBS_FILE.now"; flock -u 9
SH
printf '#!/bin/sh\nexit 0\n' > "$fake/scripts/config"
printf 'fixture\n' > "$fake/README"
cat > "$copy/backports/fake/0001-fake.patch" <<'PATCH'
--- a/README
+++ b/README
@@ -1 +1,2 @@
 fixture
+patched
PATCH
echo 0001-fake.patch > "$copy/backports/fake/series"
printf '# base: tinyconfig\nCONFIG_FAKE=y\n' > "$copy/configs/fake.config"
{
	for i in 1 2 3; do
		echo "fake$i dir:$fake backports/fake configs/fake.config"
	done
} > "$copy/kernels.list"

(cd "$copy" && make --no-print-directory -j2 verify-all SKIP=sim,checkpatch,cocci,selftests,boot) > "$TMP/out" 2>&1
rc=$?
ok $rc "make -j2 verify-all on three fixture targets passes"
[ $rc = 0 ] || tail -n 40 "$TMP/out" | diag
runs=$(wc -l < "$TMP/jobs")
peak=$(sort -n "$TMP/jobs" | tail -n 1)
[ "$runs" = 24 ]
ok $? "all 24 jobs of the three builds ran ($runs)"
[ "$peak" -le 2 ]
ok $? "at most 2 jobs at once under -j2 (peak $peak)"
: > "$TMP/jobs"
rm -rf "$KVERIFY_CACHE/build"
(cd "$copy" && make --no-print-directory -j3 verify-all SKIP=sim,checkpatch,cocci,selftests,boot) > "$TMP/out" 2>&1
peak=$(sort -n "$TMP/jobs" | tail -n 1)
[ "$peak" -le 3 ] && [ "$peak" -ge 2 ]
ok $? "-j3 lets up to 3 run and does use more than one (peak $peak)"
done_testing
