#!/bin/bash
# libFuzzer (clang, from Debian) on the kernels.list and KTAP parsers and on
# the report writers' escaping (what they write must parse as JSON, XML and
# plain terminal text), with ASan and UBSan, for a bounded time each;
# corpora are kept in tests/fuzz/.
# lane: 2
. "$(dirname "$0")/lib.sh"

SECONDS_EACH=${KVERIFY_FUZZ_SECONDS:-20}
plan 6
for h in targets ktap escape; do
	case $h in
	escape) sources="tools/lib/escape.c tools/core/ident.c tools/lib/strbuf.c tools/lib/compat.c tools/lib/guard.c tools/lib/run.c tools/lib/fsutil.c tools/lib/lock.c tools/lib/usage.c" ;;
	*) sources="tools/sources/targets.c tools/core/ktap.c tools/lib/strbuf.c tools/lib/compat.c tools/lib/guard.c" ;;
	esac
	bin=$TMP/fuzz_$h
	test_expect_success "fuzz_$h builds with -fsanitize=fuzzer,address,undefined" '
		clang -g -O1 -D_GNU_SOURCE -Itools -fsanitize=fuzzer,address,undefined \
			-fno-sanitize-recover=all -o "$bin" tests/fuzz/fuzz_$h.c \
			$sources
	'
	[ -x "$bin" ] || { skip "fuzz_$h runs" "it did not build"; continue; }
	test_expect_success "fuzz_$h: ${SECONDS_EACH}s, no crash, leak or UB" '
		mkdir -p "$TMP/new-$h" &&
		"$bin" -max_total_time="$SECONDS_EACH" -timeout=5 -rss_limit_mb=1024 \
			"$TMP/new-$h" tests/fuzz/corpus-$h > "$TMP/fz" 2>&1
		rc=$? && tail -n 28 "$TMP/fz" && [ $rc = 0 ]
	'
	echo "# fuzz_$h: $(grep -o 'Done [0-9]* runs' "$TMP/fz" | cut -d' ' -f2) inputs"
done
done_testing
