#!/bin/bash
# The command line and a run people can watch: --version, each command's
# --help, range-checked -j, the one option parser's forms and errors
# (--x=v and --x v; unknown, valueless, a flag given a value; an argument
# to a command that takes none), make's
# variables taken as the options they stand for, KEEP_GOING=1 (a checkpatch finding no longer
# skips the steps that do not need checkpatch), the progress line (one
# updating line on a TTY, seen moving in tmux; a line per interval off a
# TTY) and --quiet.  And the docs' shape: make help against the docs'
# make targets, hacking.md's layout table, the kernel-doc of the headers
# of tools/lib, core, sources and debian (6.12's scripts/kernel-doc).  A
# tiny dir: tree and a fake make: seconds.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 53
# The progress line rewrites itself only outside make's jobserver.
unset MAKEFLAGS MFLAGS
test_expect_success '--version: kverify and the git description it was built from' - <<\EOT
	"$KVERIFY" --version > "$TMP/out" 2>&1
	rc=$? && cat "$TMP/out" &&
	v=$(sed -n 's/^kverify \(.*\)$/\1/p' "$TMP/out") &&
	c=$(echo "$v" | sed 's/-dirty$//; s/.*-g\([0-9a-f]*\)$/\1/') &&
	[ $rc = 0 ] && [ -n "$v" ] && git cat-file -e "$c^{commit}"
EOT

# Every command: its --help prints its option table, which parse_options()
# refuses (an abort) when an option has no help.
for c in verify bundle list summary matrix sweep backport debian-patches \
	send am trailers range-diff reroll regenerate edit series sim latency; do
	test_expect_success "kverify $c --help: that command's usage alone" '
		"$KVERIFY" $c --help > "$TMP/out" 2>&1
		rc=$? && echo "exit $rc" &&
		[ $rc = 0 ] && head -n 1 "$TMP/out" | grep -q "^usage: kverify.* $c" &&
		! grep -q "^       kverify \[options\] list" "$TMP/out"
	'
done
test_expect_success 'kverify send --help names every switch of make send: SEND, REFLECT, RESEND, TO, CC, KERNEL' '
	"$KVERIFY" send --help > "$TMP/out" 2>&1 &&
	for v in SEND=1 REFLECT=1 RESEND=1 TO= CC= KERNEL=; do
		grep -Eq "^  ([A-Z]+=, )?$v" "$TMP/out" || return 1
	done
'
test_expect_success 'kverify --help: the global usage points to COMMAND --help' '
	"$KVERIFY" --help | grep -q "COMMAND --help"
'
test_expect_success "a command's --help: its options and the common ones from their tables, no other command's" '
	"$KVERIFY" verify --help > "$TMP/verify.help" &&
	grep -qx "  --skip STEP\[,STEP\]   steps not to run (make'"'"'s SKIP=)" "$TMP/verify.help" &&
	grep -qx "  -k, --keep-going     after a failure, still run every step that does not" "$TMP/verify.help" &&
	grep -qx "                       depend on the failed one (make'"'"'s KEEP_GOING=1)" "$TMP/verify.help" &&
	grep -q "^  --cache DIR  " "$TMP/verify.help" && ! grep -q -- "--shard" "$TMP/verify.help" &&
	"$KVERIFY" list --help > "$TMP/list.help" &&
	grep -q "^  --names  " "$TMP/list.help" && grep -q "^  --list FILE  " "$TMP/list.help" &&
	! grep -q -- "--skip" "$TMP/list.help"
'

test_expect_success "-j 99999999999, 0, 4x, -3 and '' are refused with exit 2" - <<\EOT
	bad= &&
	for j in 99999999999 0 4x -3 ''; do
		"$KVERIFY" -j "$j" list > "$TMP/out" 2>&1
		rc=$?
		[ $rc = 2 ] && grep -q "^kverify: -j wants a number from 1 to 4096, not '$j'" "$TMP/out" ||
			bad="$bad '$j' (exit $rc)"
	done &&
	echo "taken:${bad:- none}" && [ -z "$bad" ]
EOT
test_expect_success '-j 4096 is taken' '
	"$KVERIFY" -j 4096 sweep --members > /dev/null
'

# Each command takes its own options (kverify.c's commands[]) and --list,
# --results, --cache: another is refused, not ignored.
test_expect_success "an option the command does not take: exit 2, naming both, with the command's usage" '
	bad= &&
	for a in "list --shard 1/2" "-j 2 list" "verify --names 6.12" "send --skip sim --env" "matrix -k"; do
		read -ra args <<< "$a" &&
		"$KVERIFY" "${args[@]}" > "$TMP/opt.out" 2>&1
		rc=$? &&
		cat "$TMP/opt.out" &&
		opt=$(echo "$a" | grep -o -- "-[-a-z]*" | head -n 1) &&
		cmd=$(echo "$a" | grep -oE "(list|verify|send|matrix)") &&
		if [ "$opt" = -k ]; then opt=--keep-going; fi &&
		[ $rc = 2 ] && grep -q "^kverify: $cmd takes no $opt\$" "$TMP/opt.out" &&
			grep -q "^usage: kverify.* $cmd" "$TMP/opt.out" || bad="$bad [$a: exit $rc]"
	done &&
	echo "not refused as they should be:${bad:- none}" && [ -z "$bad" ]
'
# Only verify and debian-patches take names after their options; another
# command given one refuses it rather than ignore it.
test_expect_success 'an argument to a command that takes none: exit 2, naming it, with the usage' - <<\EOT
	bad= &&
	for a in "list 6.12" "matrix github" "send --env now" "sweep 6.12" "regenerate x"; do
		read -ra args <<< "$a" &&
		"$KVERIFY" "${args[@]}" > "$TMP/arg.out" 2>&1
		rc=$? &&
		cat "$TMP/arg.out" &&
		[ $rc = 2 ] &&
		grep -q "^kverify: ${args[0]} takes no arguments, only options: .${args[-1]}.\$" "$TMP/arg.out" &&
		grep -q "^usage: kverify" "$TMP/arg.out" || bad="$bad [$a: exit $rc]"
	done &&
	echo "not refused as they should be:${bad:- none}" && [ -z "$bad" ]
EOT
# One parser for every command (tools/lib/parse-options.c): --name=VALUE is
# --name VALUE, and a malformed option is refused with exit 2, naming it.
test_expect_success 'options: = or a separate value alike; unknown, valueless and a flag given a value refused with exit 2' '
	"$KVERIFY" --list=kernels.list list --names > "$TMP/eq" &&
	"$KVERIFY" list --list kernels.list --names > "$TMP/sep" &&
	diff -u "$TMP/eq" "$TMP/sep" && [ -s "$TMP/eq" ] &&
	bad= &&
	for a in "list --bogus|unknown option .--bogus." "list --list|--list wants a value" \
		"list --names=1|--names takes no value" "sim --traces=0|--traces wants a positive number, not .0." \
		"sim --bogus x|unknown option .--bogus." "verify --skip= 6.12|--skip wants a value, not an empty string"; do
		read -ra args <<< "${a%%|*}" &&
		"$KVERIFY" "${args[@]}" > "$TMP/bad.out" 2>&1
		rc=$? &&
		[ $rc = 2 ] && grep -q "^kverify: .*${a#*|}" "$TMP/bad.out" || bad="$bad [${a%%|*}: exit $rc]"
	done &&
	echo "taken or misreported:${bad:- none}" && [ -z "$bad" ]
'
# A bad value of a make variable is one line that names the variable as
# it was written and the values it takes: exit 2, no usage after it.
test_expect_success 'make verify with a bad SKIP=, BOOT=, BUILD=, REQUIRE=, FLAVOURS=, FORMAT=, CONFIG=, CCACHE=: one line each, exit 2' - <<\EOT
	bad= &&
	for a in "SKIP=bot|SKIP=bot: no step named .bot.; the steps are fetch, tree, apply, sim, checkpatch, cocci, config, build, kabi, selftests, boot" \
		"SKIP=boot,bot|SKIP=boot,bot: no step named .bot.; the steps are fetch, tree, " \
		"BOOT=own2|BOOT=own2: not a kernel to boot: auto, own or distro" \
		"BUILD=all|BUILD=all: not a build: kernel or objects" \
		"REQUIRE=gpu|REQUIRE=gpu: the one thing a run can require is pmu " \
		"FLAVOURS=arm64|FLAVOURS=arm64: .arm64. is not a flavour Debian builds for amd64: amd64, cloud-amd64 or rt-amd64" \
		"FLAVOURS=rt-amd64|FLAVOURS=rt-amd64: the list must start with amd64, " \
		"FORMAT=json|FORMAT=json: the one format besides report.json and junit.xml is kcidb " \
		"CONFIG=../x|CONFIG=../x: .*: give configs/<name>.config, or distro" \
		"CCACHE=2|CCACHE=2: CCACHE is 0 or 1" \
		"KEEP_GOING=yes|KEEP_GOING=yes: KEEP_GOING is 0 or 1" \
		"FORCE=2|FORCE=2: FORCE is 0 or 1" \
		"VERIFY_CACHE=on|VERIFY_CACHE=on: VERIFY_CACHE is 0 or 1"; do
		make --no-print-directory verify KERNEL=6.12 "${a%%|*}" > "$TMP/var.out" 2>&1
		rc=$? &&
		grep "^kverify: " "$TMP/var.out" > "$TMP/var.kv" &&
		{ [ $rc = 2 ] && [ "$(wc -l < "$TMP/var.kv")" = 1 ] &&
		  grep -q "^kverify: ${a#*|}" "$TMP/var.kv" && ! grep -q "usage:" "$TMP/var.out" ||
		  { cat "$TMP/var.out"; bad="$bad [${a%%|*}: exit $rc]"; }; }
	done &&
	echo "not one line naming the variable and its values:${bad:- none}" && [ -z "$bad" ]
EOT
test_expect_success 'make send SEND=yes, REFLECT=2, RESEND=true: one line each, exit 2, nothing taken as 0' - <<\EOT
	bad= &&
	for a in SEND=yes REFLECT=2 RESEND=true; do
		make --no-print-directory send "$a" > "$TMP/var.out" 2>&1
		rc=$? &&
		grep "^kverify: " "$TMP/var.out" > "$TMP/var.kv" &&
		{ [ $rc = 2 ] && [ "$(wc -l < "$TMP/var.kv")" = 1 ] &&
		  grep -qx "kverify: $a: ${a%%=*} is 0 or 1" "$TMP/var.kv" ||
		  { cat "$TMP/var.out"; bad="$bad [$a: exit $rc]"; }; }
	done &&
	echo "not refused in one line:${bad:- none}" && [ -z "$bad" ]
EOT
# make_vars[] (tools/cmd/variables.c) is the one table of the variables
# kverify reads: the Makefile's KV_VARS names the same make variables, and
# no other file of tools/ reads a $KVERIFY_* variable.
test_expect_success "KV_VARS of the Makefile and kverify --help's make variables are the same" - <<\EOT
	sed -n '/^KV_VARS :=/,/[^\\]$/p' Makefile | sed 's/^KV_VARS :=//' | tr -d '\\' |
		tr -s ' \t' '\n' | grep . | sed 's/:.*//' | sort > "$TMP/kv_vars" &&
	"$KVERIFY" --help | sed -n '/^make.s variables/,$p' |
		sed -n 's/^  \([A-Z_]*\)=.*/\1/p' | sort > "$TMP/table" &&
	echo "Makefile only: $(comm -23 "$TMP/kv_vars" "$TMP/table" | tr '\n' ' ')" &&
	echo "table only: $(comm -13 "$TMP/kv_vars" "$TMP/table" | tr '\n' ' ')" &&
	[ "$(wc -l < "$TMP/kv_vars")" -gt 20 ] && cmp -s "$TMP/kv_vars" "$TMP/table"
EOT
# reads of $KVERIFY_* in the C of directory $1 but its table's
env_reads() {
	grep -rnE '(getenv|env)\("KVERIFY_' --include='*.[ch]' "$1" |
		grep -v '^[^:]*/cmd/variables\.c:'
}
test_expect_success 'no file of tools/ but cmd/variables.c reads a $KVERIFY_* variable' - <<\EOT
	! env_reads tools
EOT
test_expect_success 'the rule finds a read of $KVERIFY_* put in a step (a mutant)' - <<\EOT
	rm -rf "$TMP/mutant" && mkdir -p "$TMP/mutant/steps" "$TMP/mutant/cmd" &&
	cp tools/steps/step_boot.c tools/cmd/variables.c "$TMP/mutant/" &&
	mv "$TMP/mutant/step_boot.c" "$TMP/mutant/steps/" &&
	mv "$TMP/mutant/variables.c" "$TMP/mutant/cmd/" &&
	! env_reads "$TMP/mutant" &&
	sed -i '0,/^{$/s//{\n\tconst char *q = getenv("KVERIFY_QEMU");/' "$TMP/mutant/steps/step_boot.c" &&
	env_reads "$TMP/mutant" > "$TMP/reads" &&
	cat "$TMP/reads" && grep -q "steps/step_boot.c:.*KVERIFY_QEMU" "$TMP/reads" &&
	[ "$(wc -l < "$TMP/reads")" = 1 ]
EOT
test_expect_success 'kverify verify --skip x names --skip as written, exit 2' '
	"$KVERIFY" verify --skip nosuch 6.12 > "$TMP/cli.out" 2>&1
	[ $? = 2 ] && cat "$TMP/cli.out" &&
	grep -q "^kverify: --skip nosuch: no step named .nosuch.; the steps are fetch, " "$TMP/cli.out"
'
test_expect_success 'make backport TREE= and NAME= reach kverify backport as --tree and --name' '
	test_identity &&
	(KVERIFY_BACKPORT_TREE=$TMP/no-tree KVERIFY_BACKPORT_NAME=9.9 "$KVERIFY" backport --env) > "$TMP/bp-env" 2>&1
	rc1=$? &&
	"$KVERIFY" backport --tree "$TMP/no-tree" --name 9.9 > "$TMP/bp-cli" 2>&1
	rc2=$? &&
	cat "$TMP/bp-env" && [ $rc1 = 2 ] && [ $rc1 = $rc2 ] && grep -q "no-tree" "$TMP/bp-env" &&
	diff -u "$TMP/bp-env" "$TMP/bp-cli"
'
test_expect_success 'list needs no cache: it makes none' '
	KVERIFY_CACHE=$TMP/list-cache "$KVERIFY" list > /dev/null &&
	[ ! -e "$TMP/list-cache" ] &&
	KVERIFY_CACHE=$TMP/list-cache "$KVERIFY" backport --help > /dev/null &&
	[ ! -e "$TMP/list-cache" ]
'

test_expect_success 'an empty --results, --cache or --list is refused with exit 2, before anything is written' '
	taken= &&
	for o in results cache list; do
		(cd "$TMP" && "$KVERIFY" --$o "" verify 6.12 > "$TMP/empty-$o" 2>&1)
		rc=$? &&
		cat "$TMP/empty-$o" &&
		[ $rc = 2 ] && grep -q "^kverify: --$o wants a value, not an empty string" "$TMP/empty-$o" ||
			taken="$taken --$o (exit $rc)"
	done &&
	[ -z "$taken" ] && [ ! -e /b4 ] && [ ! -e /6.12 ]
'

# make help is the "## " lines of the Makefile: every target it names is a
# declared phony target, every target for users is named, and so is every
# `make TARGET` of README.md and docs/.
test_expect_success 'make help names no target the Makefile does not declare phony' - <<\EOT
	make --no-print-directory help > "$TMP/help" 2>&1
	rc=$? &&
	sed -n '/^\.PHONY:/,/[^\\]$/p' Makefile | tr -d '\\' | sed 's/^\.PHONY://' |
		tr -s ' \t' '\n' | grep . | sort -u > "$TMP/phony" &&
	grep -o '^make [a-z][a-z|-]*' "$TMP/help" | sed 's/^make //' | tr '|' '\n' |
		sort -u > "$TMP/helped" &&
	grep -vxF -e all -e deps-build -e deps-verify -e deps-check -e verify-each \
		-e FORCE "$TMP/phony" > "$TMP/user" &&
	echo "exit $rc; not phony: $(comm -23 "$TMP/helped" "$TMP/phony" | tr '\n' ' ')" &&
	[ $rc = 0 ] && [ -s "$TMP/helped" ] && [ -z "$(comm -23 "$TMP/helped" "$TMP/phony")" ]
EOT
test_expect_success 'make help names every target for users' '
	echo "$(wc -l < "$TMP/helped") named; missing: $(comm -13 "$TMP/helped" "$TMP/user" | tr "\n" " ")" &&
	[ -z "$(comm -13 "$TMP/helped" "$TMP/user")" ]
'
test_expect_success 'every `make TARGET` of README.md and docs/ is in make help' - <<\EOT
	grep -oh '`make [a-z][a-z-]*[` ]' README.md docs/*.md | sed 's/^`make //; s/.$//' | sort -u > "$TMP/documented" &&
	echo "not: $(comm -23 "$TMP/documented" "$TMP/helped" | tr '\n' ' ')" &&
	[ -z "$(comm -23 "$TMP/documented" "$TMP/helped")" ]
EOT

# docs/hacking.md's layout table names every top-level entry of the repository and
# every file and folder of tools/ (x.c stands for its x.h, step_*.c for the
# steps), and nothing that is not there.
test_expect_success "docs/hacking.md's layout table names every entry of the tree and only those" - <<\EOT
python3 - > "$TMP/layout" <<'PY' &&
import fnmatch, os, re, subprocess
page = open("docs/hacking.md").read()
table = page.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
named = set()
for row in re.findall(r"^\| ([^|]*)\|", table, re.M):
    named.update(n for n in re.findall(r"`([^`]*)`", row))
named = {n if n.startswith("tools/") or "/" in n.rstrip("/") or not re.search(r"\.[ch]$", n)
         else "tools/" + n for n in named}
named |= {n[:-2] + ".h" for n in named if n.endswith(".c")}
files = subprocess.run(["git", "ls-files"], capture_output=True, text=True).stdout.split()
want = {f.split("/")[0] + "/" if "/" in f else f for f in files} - {"README.md", ".gitignore"}
want |= {re.sub(r"^(tools/[^/]*/).*", r"\1", f) for f in files if f.startswith("tools/")}
def covered(w):
    return any(n == w or fnmatch.fnmatch(w, n) or n.startswith(w) or
               re.sub(r"<[^>]*>", "*", n) == w.rstrip("/") + "/" for n in named)
missing = sorted(w for w in want if not covered(w))
gone = sorted(n for n in named if "*" not in n and "<" not in n and
              not os.path.exists(n) and not (n.endswith(".h") and n[:-2] + ".c" in named))
print("missing: %s; not there: %s" % (" ".join(missing) or "none", " ".join(gone) or "none"))
PY
	cat "$TMP/layout" &&
	grep -qx "missing: none; not there: none" "$TMP/layout"
EOT

# The headers of tools/lib/, core/, sources/ and debian/ carry the
# kernel's kernel-doc comments (docs/hacking.md), held to what 6.12's
# scripts/kernel-doc says of them: with -none -Wall no warning (a comment
# opened with "/**" that is not kernel-doc, a parameter or a Return: left
# out), and a comment for every function the compiler sees declared in a
# header (gcc -aux-info), which kernel-doc finds (-rst).  A new header of
# those folders is held to it too.  The source is fetched from Debian's
# archive: it may not be had here.
src612=$(cached_source 6.12)
kd=$src612/scripts/kernel-doc
test_lazy_prereq KERNEL_DOC_6_12 'test -f "$kd"'
kdoc_headers=$(ls tools/lib/*.h tools/core/*.h tools/sources/*.h tools/debian/*.h tools/kernels/*.h)
test_expect_success KERNEL_DOC_6_12 "the headers of tools/lib, core, sources, debian and kernels pass kernel-doc -none -Wall" - <<\EOT
	echo "$kdoc_headers" | grep -c . &&
	for d in lib core sources debian kernels; do
		echo "$kdoc_headers" | grep -q "^tools/$d/" || return 1
	done &&
	perl "$kd" -none -Wall $kdoc_headers > "$TMP/kd.out" 2>&1
	rc=$? && cat "$TMP/kd.out" && [ $rc = 0 ] && [ ! -s "$TMP/kd.out" ]
EOT
test_expect_success KERNEL_DOC_6_12 "every function declared in those headers has its kernel-doc comment" - <<\EOT
	for h in $kdoc_headers; do
		printf '#include "%s"\n' "${h#tools/}" > "$TMP/kd.c" &&
		${HOSTCC:-cc} -std=gnu11 -D_GNU_SOURCE -Itools -fsyntax-only \
			-aux-info "$TMP/kd.aux" "$TMP/kd.c" || return 1
		sed -n "s|^/\* $h:[0-9]*:[A-Z]* \*/ [^(]*[ *]\([a-z_0-9]*\) (.*|\1|p" \
			"$TMP/kd.aux" | sort -u > "$TMP/kd.declared" &&
		perl "$kd" -rst "$h" 2> /dev/null |
			sed -n 's/^\.\. c:function:: [^(]*[ *]\([a-z_0-9]*\) (.*/\1/p' |
			sort -u > "$TMP/kd.documented" &&
		comm -23 "$TMP/kd.declared" "$TMP/kd.documented" |
			sed "s|.*|undocumented: & ($h)|" || return 1
	done > "$TMP/kd.out" &&
	cat "$TMP/kd.out" && [ ! -s "$TMP/kd.out" ]
EOT

# A tree whose checkpatch has a finding and whose make fails: at once
# ($TMP/bin/make), or after 4.5 s of compiling for the progress line
# ($TMP/slow/make, slow_run).
copy=$TMP/repo
repo_copy "$copy"
mkdir -p "$TMP/tree/arch/x86/kvm" "$TMP/tree/scripts" "$copy/esc" "$TMP/bin" "$TMP/slow"
touch "$TMP/tree/Makefile"
printf 'int a;\nint b;\nint c;\n' > "$TMP/tree/arch/x86/kvm/pmu.c"
printf '#!/bin/sh\necho "ERROR: a finding"\nexit 1\n' > "$TMP/tree/scripts/checkpatch.pl"
chmod +x "$TMP/tree/scripts/checkpatch.pl"
printf '0001-good.patch\n' > "$copy/esc/series"
printf 'From: a <a@b.example>\nSubject: [PATCH] x\n\n---\n--- a/arch/x86/kvm/pmu.c\n+++ b/arch/x86/kvm/pmu.c\n@@ -1,3 +1,3 @@\n int a;\n-int b;\n+int d;\n int c;\n' \
	> "$copy/esc/0001-good.patch"
printf 'esc dir:%s esc\n' "$TMP/tree" > "$copy/k.list"
cat > "$TMP/slow/make" <<'SH'
#!/bin/sh
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do echo "  CC      arch/x86/kvm/f$i.o"; sleep 0.3; done
exit 2
SH
printf '#!/bin/sh\necho "  CC      arch/x86/kvm/f1.o"\nexit 2\n' > "$TMP/bin/make"
chmod +x "$TMP/bin/make" "$TMP/slow/make"
export KVERIFY_CACHE=$TMP/cache
R=$copy/results/esc/report.json
run() { (cd "$copy" && PATH=$TMP/bin:$PATH ./build/kverify --list k.list verify "$@" esc); }
slow_run() { (cd "$copy" && PATH=$TMP/slow:$PATH ./build/kverify --list k.list verify "$@" esc); }

test_expect_success 'without KEEP_GOING a checkpatch finding skips config' '
	run --skip sim,cocci,selftests,boot > "$TMP/out" 2>&1
	rc=$? &&
	echo "exit $rc; checkpatch $(step_status $R checkpatch), config $(step_status $R config)" &&
	[ "$(step_status $R checkpatch)" = FAIL ] && [ "$(step_status $R config)" = SKIP ]
'
test_expect_success 'KEEP_GOING=1: config runs after the checkpatch finding, build (which needs config) does not' - <<\EOT
	KVERIFY_KEEP_GOING=1 run --skip sim,cocci,selftests,boot > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" &&
	[ $rc = 1 ] && [ "$(step_status $R checkpatch)" = FAIL ] && [ "$(step_status $R config)" = FAIL ] &&
	json $R '[s["reason"] for s in r["steps"] if s["name"] == "build"][0]' | grep -q "not run: needs config, which failed"
EOT
test_expect_success 'make passes its variables on as the KVERIFY_* kverify reads, raw' - <<\EOT
	bad= &&
	for v in KEEP_GOING:KEEP_GOING DEST:DEST TREE:BACKPORT_TREE ONLY:SWEEP_ONLY \
		KERNEL:TARGETS KCC:KERNEL_CC CC:CC SKIP:SKIP BUG:BUG_DEBIAN; do
		make -s -p -n list "${v%%:*}=x \$(info y)" 2> /dev/null > "$TMP/p" &&
		grep -qx "KVERIFY_${v#*:} := x \$\$(info y)" "$TMP/p" || bad="$bad $v"
	done &&
	make -s -p -n list 2> /dev/null > "$TMP/p" &&
	{ grep -qx "KVERIFY_CC := " "$TMP/p" || bad="$bad make's own CC"; } &&
	echo "not passed on:${bad:- none}" && [ -z "$bad" ]
EOT

# A check whose prerequisite does not hold is skipped, saying which (never
# a pass), and one whose prerequisite holds runs: lib.sh in a script of
# its own ($0 names this one, for lib.sh's checkout).
test_expect_success "a prerequisite that does not hold skips its check, naming it" '
	bash -c ". tests/lib.sh; plan 3
		test_lazy_prereq NEVER false; test_lazy_prereq ALWAYS true
		test_expect_success NEVER \"n\" \"echo ran-n\"
		test_expect_success ALWAYS \"a\" \"false\"
		test_expect_success ALWAYS,NEVER \"b\" \"false\"
		done_testing" "$0" > "$TMP/prereq.out" 2>&1
	[ $? = 1 ] &&
	grep -qx "ok 1 - n # SKIP missing NEVER" "$TMP/prereq.out" &&
	grep -qx "not ok 2 - a" "$TMP/prereq.out" &&
	grep -qx "ok 3 - b # SKIP missing NEVER" "$TMP/prereq.out" &&
	! grep -q ran-n "$TMP/prereq.out"
'
# make's KCC=, KHOSTCC= and CCACHE=1 reach the kernel's make command.
# The fake make above fails the config step: the runs exit 1.
test_expect_success "KCC= and KHOSTCC= are the kernel's CC= and HOSTCC=" '
	{ KVERIFY_KERNEL_CC="distcc gcc" KVERIFY_KERNEL_HOSTCC=icecc \
		run -k --skip sim,checkpatch,cocci,selftests,boot; [ $? = 1 ]; } &&
	grep "^\$.* make .*'"'"'CC=distcc gcc'"'"' HOSTCC=icecc" "$copy/results/esc/logs/"*-config.log
'
test_expect_success CCACHE "CCACHE=1: ccache in front of gcc (KCC= wins)" '
	{ KVERIFY_CCACHE=1 run -k --skip sim,checkpatch,cocci,selftests,boot; [ $? = 1 ]; } &&
	grep "^\$.* make .*'"'"'CC=ccache gcc'"'"' '"'"'HOSTCC=ccache gcc'"'"'" "$copy/results/esc/logs/"*-config.log &&
	{ KVERIFY_CCACHE=1 KVERIFY_KERNEL_CC=clang run -k --skip sim,checkpatch,cocci,selftests,boot; [ $? = 1 ]; } &&
	grep "^\$.* make .* CC=clang '"'"'HOSTCC=ccache gcc'"'"'" "$copy/results/esc/logs/"*-config.log
'

test_expect_success 'off a TTY: a progress line per interval with the objects compiled' - <<\EOT
	KVERIFY_TEST_PROGRESS_SECONDS=1 slow_run -k --skip sim,checkpatch,cocci,selftests,boot > "$TMP/out" 2>&1
	rc=$? && cat "$TMP/out" &&
	n=$(grep -c '^kverify: esc: config: 0m0[0-9]s, [0-9]* objects compiled$' "$TMP/out") &&
	echo "exit $rc; $n lines" &&
	[ "$n" -ge 3 ]
EOT
test_expect_success '--quiet: no step or progress lines, the report still' - <<\EOT
	run -q -k --skip sim,checkpatch,cocci,selftests,boot > "$TMP/out" 2>&1
	rc=$? && echo "exit $rc" && cat "$TMP/out" &&
	! grep -q '^kverify: esc:' "$TMP/out" && grep -q '^  config      FAIL' "$TMP/out"
EOT

# On a TTY: one line, rewritten in place; tmux shows it moving.
test_expect_success 'tmux: one progress line that moves' - <<\EOT
	s=kverify-t0169-$$ &&
	tmux new-session -d -s $s -x 150 -y 20 \
		"cd '$copy' && PATH='$TMP/slow:$PATH' KVERIFY_CACHE='$TMP/cache' ./build/kverify --list k.list verify -k --skip sim,checkpatch,cocci,selftests,boot esc > /dev/null; sleep 30" &&
	sleep 2.5 &&
	tmux capture-pane -p -t $s > "$TMP/pane1" &&
	sleep 1.5 &&
	tmux capture-pane -p -t $s > "$TMP/pane2"
	rc=$? && tmux kill-session -t $s && [ $rc = 0 ] &&
	l1=$(grep 'objects compiled' "$TMP/pane1") &&
	l2=$(grep 'objects compiled' "$TMP/pane2") &&
	echo "'$l1' -> '$l2'" &&
	[ -n "$l1" ] && [ -n "$l2" ] && [ "$l1" != "$l2" ] &&
	[ "$(grep -c 'objects compiled' "$TMP/pane2")" = 1 ]
EOT
test_expect_success 'on a TTY the line is rewritten in place (CR, erase line)' - <<\EOT
	script -qec "cd '$copy' && PATH='$TMP/slow:$PATH' ./build/kverify --list k.list verify -k --skip sim,checkpatch,cocci,selftests,boot esc 2>&1 >/dev/null" /dev/null > "$TMP/tty"
	rc=$? && echo "exit $rc" &&
	grep -q $'\r\033\\[Kkverify: esc: config: ' "$TMP/tty"
EOT
# make builds kverify where the compiler is, with no Debian tool on PATH
# (no dpkg-query); without a compiler it prints the apt-get line, exit 2.
mkdir -p "$TMP/mk/bin" && repo_copy "$TMP/mk/repo" && rm -rf "$TMP/mk/repo/build"
for t in cc as ld make sh mv mkdir cmp rm printf tr git cat sed; do
	ln -s "$(command -v $t)" "$TMP/mk/bin/$t"
done
test_expect_success 'make compiles where cc is, without dpkg-query; without cc it names the apt-get line (exit 2)' - <<\EOT
	(cd "$TMP/mk/repo" && env -i PATH="$TMP/mk/bin" HOME="$TMP/mk" make -s build/obj/strbuf.o) &&
	[ -f "$TMP/mk/repo/build/obj/strbuf.o" ] && rm -rf "$TMP/mk/repo/build" "$TMP/mk/bin/cc" &&
	{ (cd "$TMP/mk/repo" && env -i PATH="$TMP/mk/bin" HOME="$TMP/mk" make -s build/obj/strbuf.o) > "$TMP/mk/o" 2>&1; [ $? = 2 ]; } &&
	cat "$TMP/mk/o" && grep -q "apt-get install .*gcc make libc6-dev" "$TMP/mk/o"
EOT
done_testing
