#!/bin/bash
# A missing tool is named with the Debian package that provides it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-repo.sh"

T=${KVERIFY_APPLY_TARGET:-6.12}
plan 2
copy=$TMP/repo
repo_copy "$copy"
bin=$TMP/bin
mkdir -p "$bin"
for tool in apt-get apt-cache dpkg-deb tar xz cp make perl diff sh bash \
	    sed grep cat; do
	ln -s "$(command -v $tool)" "$bin/$tool"
done
# No quilt, no spatch.
(cd "$copy" && PATH=$bin ./build/kverify verify --skip checkpatch,config,build,selftests,boot $T) > "$TMP/out" 2>&1
grep_ok "apply: quilt is named with its package" "quilt not found: install it with 'apt-get install quilt'" "$TMP/out"
(cd "$copy" && PATH=$bin ./build/kverify verify --skip tree,apply,checkpatch,config,build,selftests,boot $T) > "$TMP/out" 2>&1
grep_ok "cocci: spatch is named with its package" "spatch not found: install it with 'apt-get install coccinelle'" "$TMP/out"
done_testing
