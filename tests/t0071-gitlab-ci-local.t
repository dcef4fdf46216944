#!/bin/bash
# The project's GitLab pipeline, run for real by gitlab-ci-local (npm; its
# shell executor, GitLab's JSON schema checks the YAML).  The parent
# .gitlab-ci.yml: its job "generate" writes the child pipeline of kverify
# matrix as an artifact, byte for byte what matrix prints, and the same
# bytes again after the child's jobs ran; its trigger job includes that
# artifact.  gitlab-ci-local 4.65.1 runs such a downstream pipeline
# itself ("experimental"; it passes project variables, not --variable,
# down, and reports the trigger job PASS whatever the child did: GitLab's
# strategy: depend is not applied), so the child's jobs are also run from
# the artifact on their own, as GitLab runs them: a PASS job passes, a
# FAIL job fails with 1, an ERROR job fails with 3, which its retry rule
# matches and a FAIL's does not, the JUnit reports are collected as
# artifacts, each job's first command is .ci/runner-check, which stops a
# job with exit 3 and what to change where the sandbox's namespaces cannot
# be made (root without CAP_SYS_ADMIN, as in an unprivileged container),
# and $KVERIFY_SOURCES, and not the trees of $KVERIFY_CACHE, comes back
# from the job's cache on the next run.  gitlab-ci-local does not run
# `retry:` itself: the test retries the jobs as GitLab documents it (max
# attempts 1 + retry:max while the exit code is in retry:exit_codes).
# Three tiny targets (a tree of one file, as a tarball and as a dir:; one
# series applies, one does not, one source is no tree) in the copy's
# kernels.list, every step after apply skipped.  gitlab-ci-local 4.65.1
# (the last for Node 20) is installed once into the tests' cache
# (KVERIFY_GITLAB_CI_LOCAL names another one).  Cost: about 100 s, 22
# CPU-s here (8 runs of gitlab-ci-local, one with the child downstream).
. "$(dirname "$0")/lib.sh"

plan 11
glci=${KVERIFY_GITLAB_CI_LOCAL:-$KVERIFY_CACHE/npm/node_modules/.bin/gitlab-ci-local}
why=
if [ ! -x "$glci" ] && [ -z "${KVERIFY_GITLAB_CI_LOCAL-}" ]; then
	if ! command -v npm > /dev/null; then
		why="npm is not installed (Debian: apt-get install npm), nor gitlab-ci-local"
	elif ! timeout 300 npm install --prefix "$KVERIFY_CACHE/npm" --no-audit --no-fund \
		gitlab-ci-local@4.65.1 > "$TMP/npm.out" 2>&1; then
		why="npm install gitlab-ci-local@4.65.1 failed: $(tail -n 1 "$TMP/npm.out")"
	fi
fi
[ -z "$why" ] && ! "$glci" --version > "$TMP/glci.out" 2>&1 &&
	why="$glci --version fails: $(tail -n 1 "$TMP/glci.out")"
[ -z "$why" ] && ! command -v rsync > /dev/null &&
	why="rsync is not installed (gitlab-ci-local copies with it; make deps)"
if [ -n "$why" ]; then
	for i in $(seq 11); do skip "gitlab-ci-local pipeline check $i" "$why"; done
	done_testing
fi

# A git repository: the project's files, three targets, and kverify built
# and committed (an isolated job gets the tracked files: make finds
# build/kverify up to date instead of compiling it for 20 s).
repo=$TMP/repo
mkdir -p "$repo"
git ls-files -z | xargs -0 cp -p --parents -t "$repo"	# make finds kverify up to date
cp -a build "$repo/"
mkdir -p "$TMP/tree/arch/x86/kvm" "$TMP/notree" "$repo/good" "$repo/bad"
touch "$TMP/tree/Makefile"
printf 'int a;\nint b;\nint c;\n' > "$TMP/tree/arch/x86/kvm/pmu.c"
tar -C "$TMP" -cf "$TMP/tree.tar" tree
printf '0001-x.patch\n' > "$repo/good/series"
cp "$repo/good/series" "$repo/bad/series"
printf 'Subject: [PATCH] x\n\n---\n--- a/arch/x86/kvm/pmu.c\n+++ b/arch/x86/kvm/pmu.c\n@@ -1,3 +1,3 @@\n int a;\n-int b;\n+int d;\n int c;\n' \
	> "$repo/good/0001-x.patch"
sed 's/^-int b;/-int z;/' "$repo/good/0001-x.patch" > "$repo/bad/0001-x.patch"
printf 'pass tar:%s good\nfail dir:%s bad\nerror dir:%s good\n' \
	"$TMP/tree.tar" "$TMP/tree" "$TMP/notree" > "$repo/kernels.list"
ci_env="KVERIFY_CI_IMAGE=debian:bookworm-slim KVERIFY_CI_TAGS=kvm,x86_64"
# What the parent's generate job must write: matrix's bytes, before any run.
(cd "$repo" && env $ci_env ./build/kverify matrix --ci gitlab > "$TMP/child.want" &&
	git init -q && git add -A && git add -f build && git -c user.name=kverify -c user.email=kverify@localhost.localdomain \
	commit -qm pipeline) > "$TMP/git.out" 2>&1 || diag < "$TMP/git.out"

skip_steps=sim,checkpatch,cocci,config,build,kabi,selftests,boot
# A project variable (GitLab's CI/CD settings): it reaches the child too.
printf 'KVERIFY_SKIP: %s\n' $skip_steps > "$repo/.gitlab-ci-local-variables.yml"
child=$repo/.gitlab-ci-local/artifacts/generate/kverify-child.yml
# parent TAG ARGS...: gitlab-ci-local on the parent .gitlab-ci.yml, output
# in $TMP/run.TAG
parent() {
	local tag=$1
	shift
	(cd "$repo" && "$glci" --force-shell-executor --variable KVERIFY_CI_IMAGE=debian:bookworm-slim \
		--variable KVERIFY_CI_TAGS=kvm,x86_64 "$@") > "$TMP/run.$tag" 2>&1
}
# run TAG ARGS...: gitlab-ci-local ARGS (jobs, options) on the child
# pipeline the parent's generate job wrote, output in $TMP/run.TAG
run() {
	local tag=$1
	shift
	(cd "$repo" && "$glci" --force-shell-executor --file kverify-child.yml \
		--variable KVERIFY_SKIP=$skip_steps "$@") > "$TMP/run.$tag" 2>&1
}
# code NAME TAG: the exit code of job "verify NAME" in run TAG
code() {
	sed -n "/^verify $1 *finished in /{s/.* FAIL \([0-9][0-9]*\).*/\1/p;t;s/.*/0/p}" "$TMP/run.$2"
}
# attempts NAME: the exit code of each attempt of the job, the first from
# run "all", then again as GitLab retries it: up to retry:max more times
# while the code is in retry:exit_codes
attempts() {
	local name=$1 max codes rc n=0 tag=all
	max=$(/usr/bin/python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))[sys.argv[2]]["retry"]["max"])' \
		"$repo/kverify-child.yml" "verify $name")
	codes=" $(/usr/bin/python3 -c 'import sys, yaml; print(" ".join(map(str, yaml.safe_load(open(sys.argv[1]))[sys.argv[2]]["retry"]["exit_codes"])))' \
		"$repo/kverify-child.yml" "verify $name") "
	while :; do
		rc=$(code "$name" $tag)
		echo "$rc"
		n=$((n + 1))
		case $codes in *" $rc "*) [ $n -le "$max" ] || break ;; *) break ;; esac
		tag=$name.$n
		run $tag "verify $name"
	done
}

test_expect_success 'the parent pipeline: generate writes the child as an artifact, matrix'"'"'s bytes; the trigger includes it' '
	parent parent
	rc=$? && echo "gitlab-ci-local exit $rc" &&
	grep -v "^	\[verify\] -> " "$TMP/run.parent" &&
	grep -q "json schema validated" "$TMP/run.parent" &&
	grep -q "^generate finished in " "$TMP/run.parent" &&
	cmp "$TMP/child.want" "$child" &&
	/usr/bin/python3 - "$repo/.gitlab-ci.yml" <<-\PY
	import sys, yaml
	y = yaml.safe_load(open(sys.argv[1]))
	g, v = y["generate"], y["verify"]
	assert g["script"][-1] == "build/kverify matrix --ci gitlab > kverify-child.yml", g
	assert g["artifacts"]["paths"] == ["kverify-child.yml"], g
	assert v["trigger"] == {"include": [{"artifact": "kverify-child.yml", "job": "generate"}],
	                        "strategy": "depend", "forward": {"pipeline_variables": True}}, v
	assert v["needs"] == ["generate"] and "script" not in v, v
	PY
'
# The child's lines in the parent's run: "<TAB>[verify] -> JOB ..."
sed -n "s/^	\[verify\] -> //p" "$TMP/run.parent" > "$TMP/run.downstream"
test_expect_success 'gitlab-ci-local runs that child downstream: PASS 0, FAIL 1, ERROR 3, the runner check first' '
	head -n 12 "$TMP/run.downstream" &&
	[ "$(code pass downstream) $(code fail downstream) $(code error downstream)" = "0 1 3" ] &&
	for j in pass fail error; do
		sed -n "s/^verify $j *\$ //p" "$TMP/run.downstream" | head -n 1 | grep -qx "sh .ci/runner-check" &&
		grep -q "^verify $j *> kverify runner check: namespaces for bubblewrap: yes" "$TMP/run.downstream" || return 1
	done
'
cp "$child" "$repo/kverify-child.yml"
test_expect_success 'the child passes GitLab schema as gitlab-ci-local checks it; the PASS job exits 0' '
	run all "verify pass" "verify fail" "verify error"
	rc=$? && echo "gitlab-ci-local exit $rc" &&
	cat "$TMP/run.all" &&
	grep -q "json schema validated" "$TMP/run.all" && [ "$(code pass all)" = 0 ]
'
test_expect_success 'each job checks the runner first, calls build/kverify, with the image, tags, timeout and a cache of the store per target' '
	/usr/bin/python3 - "$repo/kverify-child.yml" <<-\PY
	import sys, yaml
	y = yaml.safe_load(open(sys.argv[1]))
	for t in ("pass", "fail", "error"):
	    j = y["verify " + t]
	    assert j["image"] == "debian:bookworm-slim" and j["tags"] == ["kvm", "x86_64"], j
	    assert j["timeout"].endswith("minutes") and j["retry"]["exit_codes"] == [3], j
	    assert j["cache"]["key"] == "kverify-" + t and j["cache"]["paths"] == [".kverify-sources/"], j
	    assert j["variables"]["KVERIFY_CACHE"] == ".kverify-cache", j
	    assert j["variables"]["KVERIFY_SOURCES"] == ".kverify-sources", j
	    assert j["script"][0] == "sh .ci/runner-check", j
	    assert j["script"][-1] == "build/kverify --list kernels.list verify --env", j
	PY
'
test_expect_success 'the FAIL job (its patch does not apply) fails with 1 and is not retried' '
	got=$(attempts fail | tr "\n" " ") && echo "attempts: $got" &&
	[ "$got" = "1 " ] && grep -q "^verify fail *> *apply  *FAIL" "$TMP/run.all"
'
test_expect_success 'the ERROR job (its source is no tree) fails with 3 and is tried 1 + retry:max = 3 times' '
	got=$(attempts error | tr "\n" " ") && echo "attempts: $got" && tail -n 20 "$TMP/run.error.2" &&
	[ "$got" = "3 3 3 " ] && grep -q "^verify error *> *fetch  *ERROR" "$TMP/run.error.2"
'
test_expect_success 'each job JUnit report is collected as an artifact, and says PASS, FAIL or ERROR' '
	a=$repo/.gitlab-ci-local/artifacts &&
	ls -R "$a" | head -n 30 &&
	xmllint --noout --schema tests/junit/junit.xsd "$a"/verify*pass/results/pass/junit.xml \
		"$a"/verify*fail/results/fail/junit.xml "$a"/verify*error/results/error/junit.xml &&
	grep -q "failures=\"0\" errors=\"0\"" "$a"/verify*pass/results/pass/junit.xml &&
	grep -q "<failure type=\"FAIL\"" "$a"/verify*fail/results/fail/junit.xml &&
	grep -q "<error type=\"ERROR\"" "$a"/verify*error/results/error/junit.xml
'
test_expect_success 'isolated jobs: the first fills the target cache with the store alone, the next one fetches nothing' '
	run c1 --shell-isolation "verify pass"
	rc1=$? &&
	run c2 --shell-isolation "verify pass"
	rc2=$? && echo "gitlab-ci-local exit $rc1, then $rc2" &&
	grep "cache\|fetch  \|tree  " "$TMP/run.c1" "$TMP/run.c2" &&
	[ "$(code pass c1)" = 0 ] && [ "$(code pass c2)" = 0 ] &&
	grep -q "fetch *PASS .*fetched and unpacked tar-" "$TMP/run.c1" &&
	grep -q "tree *PASS .*fresh tree" "$TMP/run.c1" &&
	grep -q "imported cache .kverify-pass." "$TMP/run.c2" &&
	grep -q "fetch *PASS .*cached tar-" "$TMP/run.c2" &&
	grep -q "tree *PASS .*fresh tree" "$TMP/run.c2" &&
	c=$repo/.gitlab-ci-local/cache/kverify-pass && ls -A "$c" &&
	[ "$(ls -A "$c")" = .kverify-sources ] && ls -d "$c"/.kverify-sources/src/tar-*/
'
test_expect_success 'a bad KVERIFY_CI_IMAGE or KVERIFY_CI_TAGS is refused with exit 2, before any YAML' '
	bad= &&
	for v in "KVERIFY_CI_IMAGE=a b" "KVERIFY_CI_IMAGE=x\"y" "KVERIFY_CI_TAGS=a,,b" "KVERIFY_CI_TAGS=a:b" "KVERIFY_CI_TIMEOUT=0"; do
		env "$v" "$KVERIFY" matrix --ci gitlab > "$TMP/bad.out" 2> "$TMP/bad.err"
		rc=$?
		[ $rc = 2 ] && [ ! -s "$TMP/bad.out" ] || bad="$bad [$v: $rc]"
	done &&
	echo "taken:${bad:- none}" && [ -z "$bad" ]
'
# A runner that cannot make bubblewrap's namespaces (root without
# CAP_SYS_ADMIN: an unprivileged container): the job stops at its first
# command, exit 3, saying what to change; nothing else runs.
test_expect_success 'root without CAP_SYS_ADMIN: .ci/runner-check stops the job with 3 and what to change, before make' '
	(cd "$repo" && exec setpriv --bounding-set=-all --inh-caps=-all "$glci" --force-shell-executor \
		--file kverify-child.yml "verify pass") > "$TMP/run.nocaps" 2>&1
	rc=$? && echo "gitlab-ci-local exit $rc" &&
	grep "runner check\|finished in" "$TMP/run.nocaps" &&
	[ "$(code pass nocaps)" = 3 ] &&
	grep -q "kverify runner check: FAILED: this job runs as root and cannot make the namespaces" "$TMP/run.nocaps" &&
	grep -q "privileged = true in the runner" "$TMP/run.nocaps" &&
	! grep -q "^verify pass *\$ command -v make" "$TMP/run.nocaps"
'
# The same commit, the same CI: generate again after every run above.
test_expect_success 'after the runs, generate writes the same bytes again' '
	parent regen generate
	rc=$? && echo "gitlab-ci-local exit $rc" && ls "$repo/results" &&
	grep -q "^generate finished in " "$TMP/run.regen" &&
	cmp "$TMP/child.want" "$child"
'
done_testing
