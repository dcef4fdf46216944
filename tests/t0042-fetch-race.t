#!/bin/bash
# Two cold fetches of different sources at once, against one empty cache:
# neither may touch the other's extraction in progress.  A temporary
# directory belongs to the lock of what it is made for, never to a name
# pattern.  tar: fixtures, with one extraction slowed so the race is certain.
. "$(dirname "$0")/lib.sh"

plan 5
cache=$TMP/cache
for n in slow quick; do
	mkdir -p "$TMP/$n/linux-$n/arch/x86/kvm"
	echo "# $n fixture" > "$TMP/$n/linux-$n/Makefile"
	echo "/* $n */" > "$TMP/$n/linux-$n/arch/x86/kvm/pmu.c"
	tar -C "$TMP/$n" -cf "$TMP/$n.tar" "linux-$n"
done
printf 'slow\ttar:%s\tn/a: fixture\nquick\ttar:%s\tn/a: fixture\n' \
	"$TMP/slow.tar" "$TMP/quick.tar" > "$TMP/kernels.list"

# tar, but the extraction of the slow fixture lingers once it is written,
# as a large source's extraction does.
mkdir -p "$TMP/bin"
cat > "$TMP/bin/tar" <<'SHIM'
#!/bin/sh
/bin/tar "$@"
rc=$?
case "$*" in *slow.tar*) sleep 4 ;; esac
exit $rc
SHIM
chmod +x "$TMP/bin/tar"

fetch() {	# fetch NAME: only the fetch step, in the shared cache
	PATH=$TMP/bin:$PATH "$KVERIFY" verify --list "$TMP/kernels.list" \
		--cache "$cache" --sources "$cache" --results "$TMP/r" --skip cocci "$1"
}
extracting_slow() {
	[ -n "$(find "$cache/src" -path '*/.tmp-*/linux-slow/Makefile' 2> /dev/null)" ]
}

fetch slow > "$TMP/slow.out" 2>&1 &
slow=$!
test_expect_success 'the slow fetch is extracting into its temporary directory' '
	wait_for 30 extracting_slow
'
fetch quick > "$TMP/quick.out" 2>&1
quick_rc=$?
wait $slow
slow_rc=$?

test_expect_success "the slow fetch, overtaken by the quick one, passes (exit $slow_rc)" '
	tail -n 15 "$TMP/slow.out" &&
	[ $slow_rc = 0 ] && [ "$(step_status "$TMP/r/slow/report.json" fetch)" = PASS ]
'
test_expect_success "the quick fetch passes (exit $quick_rc)" '
	tail -n 15 "$TMP/quick.out" &&
	[ $quick_rc = 0 ] && [ "$(step_status "$TMP/r/quick/report.json" fetch)" = PASS ]
'
test_expect_success 'both trees are in the cache, whole' '
	grep -qx "# slow fixture" "$cache"/src/tar-*/Makefile &&
	grep -qx "# quick fixture" "$cache"/src/tar-*/Makefile
'
test_expect_success 'no temporary directory is left' '
	ls -A "$cache/src" &&
	[ -z "$(ls -A "$cache/src" | grep "^\.tmp-")" ]
'
done_testing
