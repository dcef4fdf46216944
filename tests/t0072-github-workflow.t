#!/bin/bash
# The project's GitHub Actions workflow, .github/workflows/kverify.yml,
# checked where no GitHub runner is: nektos/act, which runs a workflow
# locally, is not installed here and needs a Docker daemon (this machine
# has Docker's client, no daemon), so the jobs' containers, the actions
# and GitHub's expression engine are not run.  What is checked for real:
# (a) the YAML parses and has the jobs and keys the matrix needs (verify
# needs matrix, fail-fast false, its matrix, timeout and image from the
# matrix output, the official actions by major version); (b) the matrix
# job's run script, as written, run with bash as GitHub runs it (bash
# --noprofile --norc -eo pipefail) in a copy of the repository, writes
# matrix=... to $GITHUB_OUTPUT, byte for byte what build/kverify matrix
# --ci github prints; (c) every ${{ matrix.X }} of the verify job is a
# field of that matrix (a field renamed in tools/matrix.c fails);
# (d) the verify job's commands are the GitLab child's (build/kverify
# matrix --ci gitlab), .ci/runner-check first, and its environment the
# child job's variables; (e) it caches what the GitLab child caches, under
# the matrix's cache_key.  Each check fails on a mutant of the workflow.
# About 6 s, 3.5 CPU-s here.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 10
wf=.github/workflows/kverify.yml
env -i PATH="$PATH" "$KVERIFY" matrix --ci github > "$TMP/github.json"
env -i PATH="$PATH" "$KVERIFY" matrix --ci gitlab > "$TMP/gitlab.yml"

cat > "$TMP/check.py" <<\PY
import json, re, sys, yaml

what, wf = sys.argv[1], sys.argv[2]
include = json.load(open(sys.argv[3]))["include"]
child = yaml.safe_load(open(sys.argv[4]))
y = yaml.safe_load(open(wf))
jobs = y["jobs"]
verify = jobs["verify"]
steps = verify["steps"]


def fail(msg):
    print("FAIL (%s): %s" % (what, msg))
    sys.exit(1)


def strings(v):
    if isinstance(v, dict):
        for k, x in v.items():
            yield from strings(k)
            yield from strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
    elif isinstance(v, str):
        yield v


def matrix_refs(v):
    for s in strings(v):
        for e in re.findall(r"\$\{\{(.*?)\}\}", s):
            yield from re.findall(r"(?<![\w.])matrix\.([A-Za-z_][\w-]*)", e)


def expand(s, m):
    return re.sub(r"\$\{\{\s*matrix\.([\w-]+)\s*\}\}", lambda r: str(m[r.group(1)]), s)


def lines(s):
    return [l.strip() for l in s.splitlines() if l.strip()]


def uses(name):
    return [s for s in steps if s.get("uses", "").split("@")[0] in name]


def run_lines():
    return [l for s in steps if "run" in s for l in lines(s["run"])]


if what == "keys":
    on = y.get("on", y.get(True))
    if not on or "push" not in on:
        fail("no on: push")
    m = jobs["matrix"]
    ids = [s.get("id") for s in m["steps"] if "run" in s]
    if m.get("outputs", {}).get("matrix") not in ["${{ steps.%s.outputs.matrix }}" % i for i in ids if i]:
        fail("the matrix job's output matrix is not a run step's: %r" % m.get("outputs"))
    img = m.get("container")
    img = img.get("image") if isinstance(img, dict) else img
    parent = yaml.safe_load(open(".gitlab-ci.yml"))["generate"]["image"]
    if img != parent:
        fail("the matrix job's container %r is not .gitlab-ci.yml's generate image %r" % (img, parent))
    if verify.get("needs") not in ("matrix", ["matrix"]):
        fail("verify needs %r" % verify.get("needs"))
    st = verify.get("strategy", {})
    if st.get("fail-fast") is not False:
        fail("strategy.fail-fast is %r, not false" % st.get("fail-fast"))
    if st.get("matrix") != "${{ fromJSON(needs.matrix.outputs.matrix) }}":
        fail("strategy.matrix is %r" % st.get("matrix"))
    if verify.get("timeout-minutes") != "${{ matrix.timeout_minutes }}":
        fail("timeout-minutes is %r" % verify.get("timeout-minutes"))
    c = verify.get("container")
    if (c.get("image") if isinstance(c, dict) else c) != "${{ matrix.image }}":
        fail("the verify container is %r" % c)
    for j in jobs.values():
        for s in j["steps"]:
            u = s.get("uses")
            if u and not re.fullmatch(r"actions/(checkout|cache|cache/restore|cache/save|upload-artifact)@v\d+", u):
                fail("%s: not an official action pinned by major version" % u)
    up = uses(["actions/upload-artifact"])
    want = {"results/${{ matrix.kernel }}/junit.xml", "results/${{ matrix.kernel }}/report.json"}
    if len(up) != 1 or set(lines(up[0]["with"]["path"])) != want or up[0].get("if") != "always()":
        fail("the upload of results/<kernel>/junit.xml and report.json, always: %r" % up)
elif what == "fields":
    used = set(matrix_refs(verify))
    have = set.intersection(*(set(i) for i in include))
    if not used or used - have:
        fail("the verify job reads matrix.%s, the matrix has %s" % (sorted(used - have) or "nothing", sorted(have)))
    print("matrix fields used: %s of %s" % (sorted(used), sorted(have)))
elif what == "commands":
    runs = [i for i, s in enumerate(steps) if "run" in s]
    first = [i for i, s in enumerate(steps) if s.get("uses", "").split("@")[0] != "actions/checkout"][0]
    if not runs or runs[0] != first or steps[first]["run"].strip() != "sh .ci/runner-check":
        fail("the first step after the checkout is not sh .ci/runner-check: %r" % steps[first])
    for m in include:
        job = child["verify %s" % m["kernel"]]
        if run_lines() != job["script"]:
            fail("%s: the commands\n  %s\nare not the GitLab child's\n  %s" % (m["kernel"], run_lines(), job["script"]))
        env = {k: expand(v, m) for k, v in verify.get("env", {}).items()}
        if env != job["variables"]:
            fail("%s: env %r is not the child's variables %r" % (m["kernel"], env, job["variables"]))
    print("commands: %s" % run_lines())
elif what == "cache":
    cs = uses(["actions/cache", "actions/cache/restore", "actions/cache/save"])
    if not cs:
        fail("no actions/cache step")
    for m in include:
        job = child["verify %s" % m["kernel"]]
        for s in cs:
            w = s["with"]
            if lines(w["path"]) != job["cache"]["paths"]:
                fail("%s caches %r, the GitLab child %r" % (s["uses"], w["path"], job["cache"]["paths"]))
            for k in ("key", "restore-keys"):
                if k in w and not expand(w[k], m).startswith(job["cache"]["key"]):
                    fail("%s: %s %r is not under the child's key %r" % (s["uses"], k, w[k], job["cache"]["key"]))
    print("cache: %s" % [s["with"]["path"] for s in cs])
elif what == "scripts":
    for n, s in enumerate(s for s in jobs["matrix"]["steps"] if "run" in s):
        open("%s.%d.sh" % (sys.argv[5], n), "w").write(s["run"])
elif what == "output":
    want = open(sys.argv[3]).read()
    out = [l for l in open(sys.argv[5]).read().splitlines() if l.startswith("matrix=")]
    if len(out) != 1 or out[0] != "matrix=" + want.rstrip("\n") or "\n" in want.rstrip("\n"):
        fail("$GITHUB_OUTPUT has %r, kverify prints %r" % (out, want))
    if json.loads(out[0][len("matrix="):]) != json.loads(want):
        fail("not the same JSON")
    print(out[0])
else:
    fail("no such check")
PY
check() {	# check keys|fields|commands|cache WORKFLOW [MATRIX]
	python3 "$TMP/check.py" "$1" "$2" "${3:-$TMP/github.json}" "$TMP/gitlab.yml"
}
# check_matrix_job WORKFLOW: its matrix job's run steps, in a copy of the
# repository with nothing of this environment but PATH and HOME.
copy=$TMP/copy
repo_copy "$copy"
check_matrix_job() {
	local out=$TMP/github-output s
	rm -f "$TMP"/matrix-step.* && : > "$out" &&
	python3 "$TMP/check.py" scripts "$1" "$TMP/github.json" "$TMP/gitlab.yml" "$TMP/matrix-step" &&
	for s in "$TMP"/matrix-step.*.sh; do
		(cd "$copy" && env -i PATH="$PATH" HOME="$HOME" TMPDIR="$TMP" GITHUB_OUTPUT="$out" \
			bash --noprofile --norc -eo pipefail "$s") || return 1
	done &&
	python3 "$TMP/check.py" output "$1" "$TMP/github.json" "$TMP/gitlab.yml" "$out"
}
# mutant NAME SED: the workflow edited by SED, as $TMP/NAME.yml; the edit
# must change it.
mutant() {
	sed "$2" "$wf" > "$TMP/$1.yml" && ! cmp -s "$wf" "$TMP/$1.yml"
}
# rejects KIND WORKFLOW [MATRIX]: check KIND fails; its words in $TMP/out.
rejects() {
	test_must_fail check "$@" > "$TMP/out" && cat "$TMP/out"
}

test_expect_success '(a) the workflow parses and has the jobs and keys of the matrix' '
	check keys "$wf"
'
test_expect_success '(a) mutants: fail-fast true, an action pinned to a branch, fail' - <<\EOT
	mutant ff "s/fail-fast: false/fail-fast: true/" &&
	rejects keys "$TMP/ff.yml" &&
	grep -q "fail-fast is True" "$TMP/out" &&
	mutant pin "s|actions/upload-artifact@v4|actions/upload-artifact@main|" &&
	rejects keys "$TMP/pin.yml" &&
	grep -q "not an official action pinned" "$TMP/out"
EOT
test_expect_success '(b) the matrix job, run as written, outputs matrix=<build/kverify matrix --ci github>' '
	check_matrix_job "$wf" && cat "$TMP/github-output"
'
test_expect_success '(b) mutants: a shard of the matrix, no output line, fail' - <<\EOT
	mutant shard "s|matrix --ci github)|matrix --ci github --shard 1/2)|" &&
	test_must_fail check_matrix_job "$TMP/shard.yml" > "$TMP/out" && cat "$TMP/out" &&
	grep -q "GITHUB_OUTPUT has" "$TMP/out" &&
	mutant noout "/GITHUB_OUTPUT/d" &&
	test_must_fail check_matrix_job "$TMP/noout.yml" > "$TMP/out" && cat "$TMP/out" &&
	grep -q "GITHUB_OUTPUT has \[\]" "$TMP/out"
EOT
test_expect_success '(c) every matrix.X of the verify job is a field of the generated matrix' '
	check fields "$wf"
'
test_expect_success '(c) mutants: matrix.kernels in the workflow, cache_key renamed in the matrix, fail' - <<\EOT
	mutant kernels "/KVERIFY_TARGETS:/s/matrix.kernel /matrix.kernels /" &&
	rejects fields "$TMP/kernels.yml" &&
	grep -q "reads matrix.\[.kernels.\]" "$TMP/out" &&
	sed "s/\"cache_key\"/\"cachekey\"/g" "$TMP/github.json" > "$TMP/renamed.json" &&
	! cmp -s "$TMP/github.json" "$TMP/renamed.json" &&
	rejects fields "$wf" "$TMP/renamed.json" &&
	grep -q "reads matrix.\[.cache_key.\]" "$TMP/out"
EOT
test_expect_success '(d) the verify job runs .ci/runner-check first, then the GitLab child job'"'"'s commands, with its variables' '
	check commands "$wf"
'
test_expect_success '(d) mutants: no runner-check, make verify KERNEL=, another KVERIFY_SOURCES, fail' - <<\EOT
	mutant norc "/- run: sh .ci\/runner-check/d" &&
	rejects commands "$TMP/norc.yml" &&
	grep -q "not sh .ci/runner-check" "$TMP/out" &&
	mutant make "s|- run: build/kverify --list kernels.list verify --env|- run: make verify KERNEL=\${{ matrix.kernel }}|" &&
	rejects commands "$TMP/make.yml" &&
	grep -q "are not the GitLab child" "$TMP/out" &&
	mutant src "s|KVERIFY_SOURCES: .kverify-sources|KVERIFY_SOURCES: .sources|" &&
	rejects commands "$TMP/src.yml" &&
	grep -q "is not the child.s variables" "$TMP/out"
EOT
test_expect_success '(e) the verify job caches the GitLab child'"'"'s cache path under its key' '
	check cache "$wf"
'
test_expect_success '(e) mutants: $KVERIFY_CACHE cached, a key of its own, fail' - <<\EOT
	mutant cache "0,/path: .kverify-sources\//s//path: .kverify-cache\//" &&
	rejects cache "$TMP/cache.yml" &&
	grep -q "caches .\.kverify-cache/., the GitLab child" "$TMP/out" &&
	mutant key "0,/key: \${{ matrix.cache_key }}/s//key: kverify-\${{ matrix.image }}/" &&
	rejects cache "$TMP/key.yml" &&
	grep -q "is not under the child.s key" "$TMP/out"
EOT
done_testing
