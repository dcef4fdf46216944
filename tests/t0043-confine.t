#!/bin/bash
# Nothing outside the cache and the repository is written: a tar: source
# that is a symlink, a dir: source that is one, a tree with a symlink that
# leads out, and a series patch that names a path outside the tree (#16).
# Tiny fixture trees; each victim outside must come out untouched.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

plan 33
copy=$TMP/repo
repo_copy "$copy"
export KVERIFY_CACHE=$TMP/cache KVERIFY_SOURCES=$TMP/cache
mkdir -p "$copy/backports/fix" "$copy/backports/escape" "$copy/backports/kvm"
cat > "$copy/backports/fix/0001-fix.patch" <<'PATCH'
--- a/README
+++ b/README
@@ -1 +1,2 @@
 fixture
+patched
PATCH
echo 0001-fix.patch > "$copy/backports/fix/series"

victim=$TMP/victim
reset_victim() {
	rm -rf "$victim"
	mkdir -p "$victim/x86/kvm"
	echo fixture > "$victim/README"
	printf 'int pmu;\n' > "$victim/x86/kvm/pmu.c"
	ln "$victim/x86/kvm/pmu.c" "$victim/x86/kvm/pmu.c.link"
	printf '#!/bin/sh\n' > "$victim/tool"
	chmod 755 "$victim/tool"
	ln "$victim/tool" "$victim/tool2"
	(cd "$victim" && find . -printf '%p %s %m %n %i\n' | sort &&
	 cat README x86/kvm/pmu.c tool) > "$TMP/victim.sum"
}
victim_untouched() {
	(cd "$victim" && find . -printf '%p %s %m %n %i\n' | sort &&
	 cat README x86/kvm/pmu.c tool) | cmp -s - "$TMP/victim.sum"
}

verify() {	# verify LIST-LINE: fetch, tree, apply of one fixture target
	printf '%s\n' "$1" > "$copy/kernels.list"
	(cd "$copy" && build/kverify verify --skip sim,checkpatch,cocci,config,build,selftests,boot x) \
		> "$TMP/out" 2>&1
}
R=$copy/results/x/report.json
reason() { json "$R" "[s['reason'] for s in r['steps'] if s['name']=='$1'][0]"; }

# 1. a tarball whose only member is a symlink to a directory outside
reset_victim
ln -s "$victim" "$TMP/linux-evil"
tar -C "$TMP" -cf "$TMP/evil.tar" linux-evil
verify "x tar:$TMP/evil.tar backports/fix"
vrc=$?
test_expect_success "tar: of a top-level symlink: fetch is an ERROR naming it (exit $vrc)" '
	tail -n 20 "$TMP/out" &&
	[ $vrc = 3 ] && [ "$(step_status "$R" fetch)" = ERROR ] &&
	reason fetch | grep -q "unpacked into a symlink (linux-evil)"
'
test_expect_success 'the directory it points to is untouched (no patch, no .pc)' '
	victim_untouched && [ ! -e "$victim/.pc" ]
'
test_expect_success 'nothing of it is left in the cache' '
	[ -z "$(ls "$KVERIFY_CACHE/src" 2> /dev/null)" ]
'

# 2. a tarball with a real directory holding symlinks that lead out
mkdir -p "$TMP/t2/linux/arch" "$TMP/t2/linux/sub"
echo fixture > "$TMP/t2/linux/README"
ln -s "$victim" "$TMP/t2/linux/arch/x86"
tar -C "$TMP/t2" -cf "$TMP/abs.tar" linux
rm "$TMP/t2/linux/arch/x86"
ln -s ../../../.. "$TMP/t2/linux/sub/up"
ln -s ../README "$TMP/t2/linux/sub/readme"	# inside: fine alone
tar -C "$TMP/t2" -cf "$TMP/up.tar" linux
verify "x tar:$TMP/abs.tar backports/fix"
vrc=$?
test_expect_success "a tree with a symlink to an absolute path is refused (exit $vrc)" '
	tail -n 20 "$TMP/out" &&
	[ $vrc = 3 ] && reason fetch | grep -q "arch/x86: a symlink to the absolute path $victim"
'
verify "x tar:$TMP/up.tar backports/fix"
vrc=$?
test_expect_success "a tree with a relative symlink that climbs out is refused (exit $vrc)" '
	tail -n 20 "$TMP/out" &&
	[ $vrc = 3 ] && reason fetch | grep -q "sub/up: a symlink to ../../../.., which leads outside the tree"
'
rm "$TMP/t2/linux/sub/up"
ln -s ../arch/new/file "$TMP/t2/linux/sub/later"	# dangling, inside
tar -C "$TMP/t2" -cf "$TMP/inside.tar" linux
verify "x tar:$TMP/inside.tar backports/fix"
vrc=$?
test_expect_success "symlinks that stay inside (one dangling) are fine (exit $vrc)" '
	tail -n 20 "$TMP/out" &&
	[ $vrc = 0 ] && [ "$(step_status "$R" apply)" = PASS ]
'
# What a partial tree (make sweep) has: a dangling link that climbs
# through directories that are not there, and stays inside.
mkdir -p "$TMP/t2/linux/scripts/dtc/include-prefixes"
ln -s ../../../include/dt-bindings "$TMP/t2/linux/scripts/dtc/include-prefixes/dt-bindings"
ln -s ../gone/../README "$TMP/t2/linux/sub/back"
tar -C "$TMP/t2" -cf "$TMP/partial.tar" linux
verify "x tar:$TMP/partial.tar backports/fix"
vrc=$?
test_expect_success "dangling links through missing directories that stay inside are fine (exit $vrc)" '
	tail -n 20 "$TMP/out" &&
	[ $vrc = 0 ]
'
# Each link stays inside on its own, but one followed through another
# leads out: sub/top is the tree's root, and sub/top/.. is outside.
rm "$TMP/t2/linux/sub/back"
ln -s .. "$TMP/t2/linux/sub/top"
ln -s top/../x "$TMP/t2/linux/sub/esc"
tar -C "$TMP/t2" -cf "$TMP/compose.tar" linux
verify "x tar:$TMP/compose.tar backports/fix"
vrc=$?
test_expect_success "a link that leads out through another link is refused (exit $vrc)" '
	tail -n 20 "$TMP/out" &&
	[ $vrc = 3 ] && reason fetch | grep -q "sub/esc: a symlink to top/../x, which leads outside the tree"
'

# 3. dir: /usr/src/linux -> linux-X.Y: the tree it leads to is read only
mkdir -p "$TMP/linux-real"
echo fixture > "$TMP/linux-real/README"
echo '# fixture' > "$TMP/linux-real/Makefile"
ln -s linux-real "$TMP/linux-link"
verify "x dir:$TMP/linux-link backports/fix"
vrc=$?
test_expect_success "dir: of a symlink: fetch, tree and apply pass on the tree it leads to (exit $vrc)" '
	tail -n 20 "$TMP/out" &&
	[ $vrc = 0 ] && [ "$(step_status "$R" apply)" = PASS ] &&
	reason fetch | grep -q "using $TMP/linux-real in place (never modified), where $TMP/linux-link leads"
'
test_expect_success 'the linked tree is patched, the source directory is not' '
	[ "$(cat "$TMP/linux-real/README")" = fixture ] && [ ! -e "$TMP/linux-real/.pc" ] &&
	[ -d "$KVERIFY_CACHE/trees/x" ] && [ ! -L "$KVERIFY_CACHE/trees/x" ] &&
	grep -qx patched "$KVERIFY_CACHE/trees/x/README"
'

# 4. a series patch naming ../../../victim/tool (the tree is $TMP/cache/trees/x)
reset_victim
cat > "$copy/backports/escape/0001-escape.patch" <<'PATCH'
Subject: [PATCH] escape

---
 ../../../victim/tool | 1 +
 1 file changed, 1 insertion(+)

diff --git a/../../../victim/tool b/../../../victim/tool
--- a/../../../victim/tool
+++ b/../../../victim/tool
@@ -1 +1,2 @@
 #!/bin/sh
+echo owned
PATCH
echo 0001-escape.patch > "$copy/backports/escape/series"
verify "x dir:$TMP/linux-real backports/escape"
vrc=$?
test_expect_success "a patch naming ../../../victim/tool: exit 2 with the patch's file:line (exit $vrc)" '
	tail -n 20 "$TMP/out" &&
	[ $vrc = 2 ] && grep -q "backports/escape/0001-escape.patch:7: '\''a/\.\./\.\./\.\./victim/tool'\'' has a '\''\.\.'\'' component" "$TMP/out"
'
test_expect_success 'the file outside keeps its content, mode and second link' '
	stat -c "%h %a" "$victim/tool" &&
	victim_untouched
'

for name in /tmp/victim/tool '"b/x\\tool"'; do
	printf -- '--- a/README\n+++ %s\n@@ -1 +1,2 @@\n fixture\n+x\n' "$name" \
		> "$copy/backports/escape/0001-escape.patch"
	verify "x dir:$TMP/linux-real backports/escape"
	vrc=$?
	test_expect_success "a patch naming $name is refused with file:line (exit $vrc)" '
		tail -n 20 "$TMP/out" &&
		[ $vrc = 2 ] && grep -q "0001-escape.patch:2: " "$TMP/out"
	'
done

# 5. a series path through a symlink of a dir: tree (the operator's own):
# one that leads out is refused at fetch, one that stays inside by the
# tree step, which writes no file through a symlink
mkdir -p "$TMP/linux-odd"
echo '# fixture' > "$TMP/linux-odd/Makefile"
ln -s "$victim" "$TMP/linux-odd/arch"
pmu_fixture_series "$copy/backports/kvm" 0001-kvm.patch
reset_victim
verify "x dir:$TMP/linux-odd backports/kvm"
vrc=$?
test_expect_success "a dir: tree with a symlink to an absolute path: fetch is an ERROR naming it (exit $vrc)" '
	tail -n 20 "$TMP/out" &&
	[ $vrc = 3 ] && [ "$(step_status "$R" fetch)" = ERROR ] &&
	reason fetch | grep -q "arch: a symlink to the absolute path $victim"
'
rm "$TMP/linux-odd/arch"
ln -s ../../.. "$TMP/linux-odd/arch"
verify "x dir:$TMP/linux-odd backports/kvm"
vrc=$?
test_expect_success "a dir: tree with a symlink that climbs out: fetch is an ERROR naming it (exit $vrc)" '
	tail -n 20 "$TMP/out" &&
	[ $vrc = 3 ] && [ "$(step_status "$R" fetch)" = ERROR ] &&
	reason fetch | grep -q "arch: a symlink to ../../.., which leads outside the tree"
'
rm "$TMP/linux-odd/arch"
mkdir -p "$TMP/linux-odd/real/x86/kvm"
printf 'int pmu;\n' > "$TMP/linux-odd/real/x86/kvm/pmu.c"
ln -s real "$TMP/linux-odd/arch"
verify "x dir:$TMP/linux-odd backports/kvm"
vrc=$?
test_expect_success "a series path through a symlink inside the tree: tree is an ERROR naming it (exit $vrc)" '
	tail -n 20 "$TMP/out" &&
	[ $vrc = 3 ] && [ "$(step_status "$R" tree)" = ERROR ] &&
	reason tree | grep -q "the series names arch/x86/kvm/pmu.c, but arch is a symlink in the tree"
'
test_expect_success 'the files outside the tree and the one the symlink leads to keep their content and links' '
	victim_untouched && [ "$(cat "$TMP/linux-odd/real/x86/kvm/pmu.c")" = "int pmu;" ]
'

# 5b. A series line is a patch name and nothing else: quilt would take
# what follows as the patch's options (-R, -p0), and the names checked
# above would no longer be the ones patch writes.  A series directory or
# patch that is a symlink out of the repository is refused too.
mkdir -p "$copy/backports/opts" && cp "$copy/backports/fix/0001-fix.patch" "$copy/backports/opts/"
test_expect_success 'a series line with quilt options after the patch name: exit 2 with file:line, nothing applied' '
	bad= &&
	for opt in -R -p0 -p2 "--fuzz=3" "# note"; do
		printf "0001-fix.patch %s\n" "$opt" > "$copy/backports/opts/series" &&
		rm -rf "$KVERIFY_CACHE/trees/x" &&
		{ verify "x dir:$TMP/linux-real backports/opts"; vrc=$?; } &&
		echo "$opt: exit $vrc: $(grep -m1 "series:1: " "$TMP/out")" &&
		[ $vrc = 2 ] &&
		grep -q "backports/opts/series:1: .0001-fix.patch. is followed by .$opt., which quilt would take as its options" "$TMP/out" &&
		[ ! -d "$KVERIFY_CACHE/trees/x" ] || bad="$bad $opt"
	done &&
	[ -z "$bad" ]
'
test_expect_success 'a series line that starts with a blank: exit 2 with file:line' '
	printf "0001-fix.patch\n -R\n" > "$copy/backports/opts/series" &&
	{ verify "x dir:$TMP/linux-real backports/opts"; vrc=$?; } &&
	[ $vrc = 2 ] && grep -q "backports/opts/series:2: the line starts with a blank" "$TMP/out"
'
test_expect_success 'a series directory that is a symlink out of the repository: exit 2' '
	mkdir -p "$TMP/outside" && cp "$copy/backports/fix/0001-fix.patch" "$TMP/outside/" &&
	echo 0001-fix.patch > "$TMP/outside/series" &&
	ln -s "$TMP/outside" "$copy/backports/out" &&
	{ verify "x dir:$TMP/linux-real backports/out"; vrc=$?; } &&
	rm "$copy/backports/out" && tail -n 3 "$TMP/out" &&
	[ $vrc = 2 ] && grep -q "series directory .backports/out. or its series file leads outside the repository" "$TMP/out"
'
test_expect_success 'a patch that is a symlink out of the repository: exit 2 with file:line' '
	mkdir -p "$copy/backports/outp" &&
	ln -s "$TMP/outside/0001-fix.patch" "$copy/backports/outp/0001-fix.patch" &&
	echo 0001-fix.patch > "$copy/backports/outp/series" &&
	{ verify "x dir:$TMP/linux-real backports/outp"; vrc=$?; } &&
	rm -r "$copy/backports/outp" && tail -n 3 "$TMP/out" &&
	[ $vrc = 2 ] && grep -q "backports/outp/series:1: patch .0001-fix.patch. is a symlink leading outside the repository" "$TMP/out"
'

# The repository's own series pass the check (they name plain paths).
bad=
for s in series backports/*/; do
	s=${s%/}
	[ -f "$copy/$s/series" ] || continue
	printf 'x dir:%s %s\n' "$TMP/linux-real" "$s" > "$copy/kernels.list"
	(cd "$copy" && build/kverify verify --skip tree,apply,sim,checkpatch,cocci,config,build,selftests,boot x) \
		> "$TMP/out" 2>&1 || bad="$bad $s"
done
test_expect_success "the repository's own series pass the check${bad:+ (not:$bad)}" '
	[ -z "$bad" ]
'

# 5. quilt and patch write their temporary files in $TMPDIR: kverify's is
# the cache's (quilt's mktemp fails on a $TMPDIR that names a file, and
# quilt goes on without), and what a process that is gone left there is
# removed: its lock is free (a live one's is held, here by this shell).
mkdir -p "$KVERIFY_CACHE/tmp/gone" "$KVERIFY_CACHE/tmp/nolock" "$KVERIFY_CACHE/tmp/live" \
	"$copy/backports/fix2"
touch "$KVERIFY_CACHE/tmp/gone/lock" "$KVERIFY_CACHE/tmp/gone/quilt.x"
exec 9> "$KVERIFY_CACHE/tmp/live/lock"
flock 9
sed 's/^+patched$/+patched again/' "$copy/backports/fix/0001-fix.patch" > "$copy/backports/fix2/0001-fix.patch"
echo 0001-fix.patch > "$copy/backports/fix2/series"
touch "$TMP/not-a-dir"
TMPDIR=$TMP/not-a-dir verify "x tar:$TMP/inside.tar backports/fix2"
vrc=$?
test_expect_success "with TMPDIR naming a file, the series applies and no tool tried it: quilt's files go to the cache (exit $vrc)" '
	tail -n 20 "$TMP/out" &&
	[ $vrc = 0 ] && [ "$(step_status "$R" apply)" = PASS ] &&
	grep -qx "patched again" "$KVERIFY_CACHE/trees/x/README" &&
	! grep "not-a-dir" "$copy"/results/x/logs/*-apply.log
'
left=$(ls -A "$KVERIFY_CACHE/tmp" | tr '\n' ' ')
exec 9>&-
test_expect_success "the run's temporary directory is gone, and a dead process's, and one without a lock (a live one's stays): $left" '
	[ "$left" = "live lock " ]
'

# 6. The cache's default: a relative $XDG_CACHE_HOME is invalid (the XDG
# base directory spec) and ignored, not a directory under wherever kverify
# happens to run.  (sweep --members only prints, but like every command
# that runs tools it makes its $TMPDIR in the cache.)
mkdir -p "$TMP/home" "$TMP/cwd"
# 5. what a patch may create: regular files by unified hunks, nothing else
# (a symlink, a setuid file, a binary patch, an ed script or a normal or
# context diff would reach the tree past checkpatch and the cocci step).
bad_patch() {	# bad_patch NAME: write one kind of patch as 0001-escape.patch
	local f="$copy/backports/escape/0001-escape.patch"
	printf 'Subject: [PATCH] %s\n\n---\n' "$1" > "$f"
	case $1 in
	symlink) printf 'diff --git a/leak b/leak\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n+++ b/leak\n@@ -0,0 +1 @@\n+/etc/shadow\n\\ No newline at end of file\n' ;;
	setuid) printf 'diff --git a/tool b/tool\nold mode 100755\nnew mode 104755\n' ;;
	binary) printf 'diff --git a/blob b/blob\nnew file mode 100644\nindex 0000000..1111111\nGIT binary patch\nliteral 4\nLcmZ?d00001\n\nliteral 0\nHcmV?d00001\n' ;;
	ed) printf 'diff -e a/README b/README\n1a\nowned\n.\n' ;;
	context) printf '*** a/README\n--- b/README\n***************\n*** 1 ****\n--- 1,2 ----\n  fixture\n+ owned\n' ;;
	esac >> "$f"
}
test_expect_success 'a patch that makes a symlink, a setuid file, a binary, or uses ed or context hunks: exit 2 with file:line, the tree untouched' '
	bad= &&
	for kind in symlink setuid binary ed context; do
		bad_patch $kind &&
		{ verify "x dir:$TMP/linux-real backports/escape"; vrc=$?; } &&
		echo "$kind: exit $vrc: $(grep -m1 "0001-escape.patch:[0-9]*: " "$TMP/out")" &&
		[ $vrc = 2 ] &&
		grep -q "backports/escape/0001-escape.patch:[0-9]*: .*a patch of the series may only change regular files with unified hunks" "$TMP/out" &&
		[ "$(cat "$TMP/linux-real/README")" = fixture ] && [ ! -e "$KVERIFY_CACHE/trees/x/leak" ] ||
			bad="$bad $kind"
	done &&
	[ -z "$bad" ]
'

test_expect_success 'a patch over 16 MiB (a ../ name past the 16th MiB) is refused whole: exit 2' '
	f="$copy/backports/escape/0001-escape.patch" &&
	{ printf "Subject: [PATCH] big\n\n" && head -c 17000000 /dev/zero | tr "\0" "x" | fold -w 100 &&
	  printf "\n---\n--- a/../../../victim/tool\n+++ b/../../../victim/tool\n@@ -1 +1,2 @@\n #!/bin/sh\n+echo owned\n"; } > "$f" &&
	reset_victim &&
	{ verify "x dir:$TMP/linux-real backports/escape"; vrc=$?; } &&
	[ $vrc = 2 ] && grep -q "0001-escape.patch: larger than 16 MiB" "$TMP/out" && victim_untouched
'

# 6. A git: repository's own configuration runs commands at fetch (a smudge
# filter its .gitattributes names): git runs in the sandbox, as nobody,
# reading the repository and writing nothing, so the command cannot leave
# a mark; the tree is still the repository's commit.
mkdir -p "$TMP/g" && cp -a "$TMP/linux-real" "$TMP/g/linux" &&
(cd "$TMP/g/linux" && git init -q && printf "* filter=evil\n" > .gitattributes &&
 git add -A && me="$(id -un)@$(hostname)" &&
 GIT_AUTHOR_NAME=fixture GIT_AUTHOR_EMAIL=$me GIT_COMMITTER_NAME=fixture GIT_COMMITTER_EMAIL=$me git commit -qm fixture &&
 git config filter.evil.smudge "sh -c 'id -u > $TMP/smudged; cat'") > /dev/null 2>&1
test_expect_success 'git: (a local repository): fetch, tree and apply pass; its smudge filter left no mark' '
	{ verify "x git:$TMP/g/linux backports/fix"; vrc=$?; } && tail -n 5 "$TMP/out" &&
	[ $vrc = 0 ] && [ ! -e "$TMP/smudged" ] &&
	grep -qx patched "$KVERIFY_CACHE/trees/x/README"
'
test_expect_success 'without the sandbox, git would have run it as us (the filter is real)' '
	git -C "$TMP/g/linux" archive --format=tar HEAD > /dev/null && [ -s "$TMP/smudged" ]
'

# 7. The tree's code gets none of kverify's environment but what the
# sandbox passes (PATH, the locale, what make, kbuild and ccache read) and
# what its step gives it; $HOME is a directory of its own.  A fixture
# tree whose make prints its environment into the config step's log.
mkdir -p "$TMP/envtree/scripts"
cat > "$TMP/envtree/Makefile" <<'MK'
O ?= .
tinyconfig allnoconfig olddefconfig:
	@env | sort
	@mkdir -p $(O) && touch $(O)/.config
	@grep -q '^CONFIG_FAKE=y' $(O)/.config || echo CONFIG_FAKE=y >> $(O)/.config
.PHONY: tinyconfig allnoconfig olddefconfig
MK
printf '#!/bin/sh\nexit 0\n' > "$TMP/envtree/scripts/config"
printf 'fixture\n' > "$TMP/envtree/README"
printf '# base: tinyconfig\nCONFIG_FAKE=y\n' > "$copy/configs/fake.config"
secret=s3cr3t-$RANDOM-$$
printf 'x dir:%s backports/fix configs/fake.config\n' "$TMP/envtree" > "$copy/kernels.list"
(cd "$copy" && KVERIFY_SECRET_TOKEN=$secret GITHUB_TOKEN=$secret LC_TIME=C.UTF-8 \
	build/kverify verify --skip sim,checkpatch,cocci,build,selftests,boot x) > "$TMP/out" 2>&1
vrc=$?
test_expect_success "the tree's make ran in the config step and printed its environment (exit $vrc)" '
	tail -n 5 "$TMP/out" &&
	[ $vrc = 0 ] && [ "$(step_status "$R" config)" = PASS ] &&
	grep -q "^KBUILD_BUILD_USER=kverify$" "$copy"/results/x/logs/*-config.log &&
	grep -q "^PATH=$PATH$" "$copy"/results/x/logs/*-config.log &&
	grep -q "^LC_TIME=C.UTF-8$" "$copy"/results/x/logs/*-config.log
'
test_expect_success "a token in kverify's environment is in no log of the run; HOME is the sandbox's own" '
	! grep -rl "$secret" "$copy/results/x" "$KVERIFY_CACHE/build/x" &&
	! grep -q "^KVERIFY_" "$copy"/results/x/logs/*-config.log &&
	grep -qx "HOME=/tmp/home" "$copy"/results/x/logs/*-config.log
'

# 1. What the tree's make leaves in its build directory is not followed by
# root: a .config that is a symlink to a root-only file (which would pass
# the step, CONFIG_FAKE=y in it) makes the config step FAIL, naming it.
mkdir -p "$TMP/linktree/scripts"
sed -e 's|touch $(O)/.config|rm -f $(O)/.config|' \
	-e 's|^\t@grep -q .*|\t@ln -sfn $(VICTIM_CONFIG) $(O)/.config|' "$TMP/envtree/Makefile" > "$TMP/linktree/Makefile"
cp "$TMP/envtree/scripts/config" "$TMP/linktree/scripts/config"
printf 'fixture\n' > "$TMP/linktree/README"
printf 'CONFIG_FAKE=y\n' > "$TMP/victim-config"
chmod 600 "$TMP/victim-config"
printf 'VICTIM_CONFIG := %s\n' "$TMP/victim-config" | cat - "$TMP/linktree/Makefile" > "$TMP/linktree/Makefile.new"
mv "$TMP/linktree/Makefile.new" "$TMP/linktree/Makefile"
printf 'y dir:%s backports/fix configs/fake.config\n' "$TMP/linktree" > "$copy/kernels.list"
(cd "$copy" && build/kverify verify --skip sim,checkpatch,cocci,build,selftests,boot y) > "$TMP/out" 2>&1
vrc=$?
test_expect_success "the tree's make leaves .config a symlink to a root-only file: config FAILS naming it, nothing read through it (exit $vrc)" '
	grep "^ *config " "$TMP/out"; ls -l "$KVERIFY_CACHE/build/y/.config" &&
	[ -L "$KVERIFY_CACHE/build/y/.config" ] &&
	[ $vrc = 1 ] && [ "$(step_status "$copy/results/y/report.json" config)" = FAIL ] &&
	grep -q "cannot read $KVERIFY_CACHE/build/y/.config: Too many levels of symbolic links" "$copy/results/y/report.json" &&
	[ "$(cat "$TMP/victim-config")" = CONFIG_FAKE=y ]
'

test_expect_success 'a relative XDG_CACHE_HOME is ignored: the cache is ~/.cache/kverify, nothing is written under the working directory' '
	(cd "$TMP/cwd" && env -u KVERIFY_CACHE HOME=$TMP/home XDG_CACHE_HOME=rel \
		"$KVERIFY" sweep --members > /dev/null) &&
	[ -d "$TMP/home/.cache/kverify/tmp" ] &&
	[ -z "$(ls -A "$TMP/cwd")" ]
'
done_testing
