#!/bin/bash
# The driver's layers (#17), read off the objects the compiler made
# (tests/layering.py): no two files call each other in a circle; no step,
# nor anything a step calls, reaches the engine (verify.c, verify_beside.c)
# or includes its headers, and only the two commands that run the pipeline
# (cmd_verify.c, sweep.c) call it or include verify.h, which no header
# includes, and they call verify.c only: verify_beside.c and verify_int.h
# are the engine's own; the
# commands (tools/cmd/) stand on top: only kverify.c calls them, and none
# calls another; and only
# the engine holds a writable struct verify_ctx, so a step writes nothing
# but the output the engine hands it; b4 and the modules it shares with the
# pipeline (source, checkpatch, series) stand below the steps: they call
# no step and include no step's header, and every b4_*.o is reached from
# b4.o, so that rule sees it; the folders stand in layers (lib/, sources/,
# core/, b4/, debian/ and kernels/ side by side, steps/, cmd/): none includes or
# calls one above it or beside it.
# Each rule is shown to reject a
# mutant of the real sources (the mutants that call the engine declare
# what they call, as a compiler that refuses implicit declarations wants).
# lane: 2
. "$(dirname "$0")/lib.sh"

plan 24
CC=${HOSTCC:-cc}
FLAGS="-std=gnu11 -D_GNU_SOURCE -Wall -Wextra -O0 -Itools"
make -s build/kverify > "$TMP/make.out" 2>&1 || { cat "$TMP/make.out" | diag; }

# mutant NAME FILE PERL-EXPR: the objects, with FILE (tools/FILE) edited
# and rebuilt
mutant() {
	rm -rf "$TMP/$1" && mkdir -p "$TMP/$1/obj" &&
	cp build/obj/*.o "$TMP/$1/obj/" && cp -r tools "$TMP/$1/" &&
	perl -0pi -e "$3" "$TMP/$1/tools/$2" &&
	! cmp -s "tools/$2" "$TMP/$1/tools/$2" &&
	$CC $FLAGS -c -o "$TMP/$1/obj/$(basename "${2%.c}").o" "$TMP/$1/tools/$2"
}

# rejects NAME RULE PATTERN: RULE fails on mutant NAME, saying PATTERN
rejects() {
	! python3 tests/layering.py "$TMP/$1/obj" "$TMP/$1/tools" "$2" > "$TMP/out" &&
	grep "$3" "$TMP/out"
}

for rule in cycles engine const shared commands folders; do
	test_expect_success "the real sources keep the rule: $rule" "
		python3 tests/layering.py build/obj tools $rule
	"
done

test_expect_success 'a step that calls back into the engine makes a cycle' '
	mutant calls steps/step_fetch.c "s/(\tif \(ctx->t->auto_series\)\n)/\t{\n\t\tconst char *verify_step_name(int i);\n\n\t\tif (!verify_step_name(0))\n\t\t\treturn STEP_ERROR;\n\t}\n\$1/" &&
	rejects calls cycles "a cycle: .*step_fetch -> verify (verify_step_name)" &&
	! python3 tests/layering.py "$TMP/calls/obj" "$TMP/calls/tools" engine
'

test_expect_success 'a step that includes the engine header is named' '
	mutant includes steps/step_boot.c "s/#include \"steps\/steps.h\"\n/#include \"steps\/steps.h\"\n#include \"verify.h\"\n/" &&
	rejects includes engine "^step_boot.c: .* includes the engine.s header verify.h"
'

test_expect_success 'a step that includes the engine.s private header is named' '
	mutant includesint steps/step_boot.c "s/#include \"steps\/steps.h\"\n/#include \"steps\/steps.h\"\n#include \"verify_int.h\"\n/" &&
	rejects includesint engine "^step_boot.c: .* includes the engine.s header verify_int.h" &&
	grep "^step_boot.c: includes verify_int.h, the engine.s own" "$TMP/out"
'

test_expect_success 'a command that calls the engine.s own file, not its entry, is named' '
	mutant beside sweep.c "s/(\tclock_gettime\(CLOCK_MONOTONIC, &t0\);\n)/\t{\n\t\tvoid *step_out(void *ctx, const void *s);\n\n\t\tif (step_out(NULL, NULL))\n\t\t\treturn 2;\n\t}\n\$1/" &&
	rejects beside engine "^sweep.o calls verify_beside.o (step_out), the engine.s own"
'

test_expect_success 'b4, which is not a command that runs the pipeline, calling the engine is named' '
	mutant b4calls b4/b4.c "s/(\tif \(fetch_base\(&b, opt\)\) \{\n)/\t{\n\t\tconst char *verify_step_name(int i);\n\n\t\tif (!verify_step_name(0))\n\t\t\tgoto out;\n\t}\n\$1/" &&
	rejects b4calls engine "^b4.o calls the engine (verify_step_name)"
'

test_expect_success 'a header that includes the engine header is named' '
	mkdir -p "$TMP/header" && cp -r tools "$TMP/header/" &&
	perl -0pi -e "s/#include \"lib\/options.h\"\n/#include \"lib\/options.h\"\n#include \"verify.h\"\n/" "$TMP/header/tools/sweep.h" &&
	! cmp -s tools/sweep.h "$TMP/header/tools/sweep.h" &&
	! python3 tests/layering.py build/obj "$TMP/header/tools" engine > "$TMP/out" &&
	grep "^sweep.h: includes the engine.s header verify.h" "$TMP/out"
'

test_expect_success 'a step that takes a writable context is named' '
	mutant writes steps/step_apply.c "s/enum step_status apply_series\(const struct verify_ctx \*ctx,/enum step_status apply_series_w(struct verify_ctx *ctx,/" &&
	rejects writes const "step_apply.c:[0-9]*: a writable struct verify_ctx"
'

test_expect_success 'b4 calling a step helper is named' '
	mutant b4step b4/b4.c "s/(\tif \(fetch_base\(&b, opt\)\) \{\n)/\t{\n\t\tchar *cache_path(const void *ctx, const char *fmt, ...);\n\n\t\tfree(cache_path(NULL, \"x\"));\n\t}\n\$1/" &&
	rejects b4step shared "^b4.o calls step (cache_path): b4 reaches a step"
'

test_expect_success 'a b4 workflow file calling a step helper is named' '
	mutant b4sendstep b4/b4_send.c "s/(\tif \(b4_gate\(b\)\) \{\n)/\t{\n\t\tchar *cache_path(const void *ctx, const char *fmt, ...);\n\n\t\tfree(cache_path(NULL, \"x\"));\n\t}\n\$1/" &&
	rejects b4sendstep shared "^b4_send.o calls step (cache_path): b4 reaches a step"
'

test_expect_success 'a file of b4 that b4.o does not reach is named' '
	mutant b4stray b4/b4.c "s/b4_send = \{ do_send, B4_SENDER \};/b4_send = { NULL, B4_SENDER };/" &&
	rejects b4stray shared "^b4_send.o: a file of b4 that b4.o does not reach"
'

test_expect_success 'the source module including a step header is named' '
	mutant srcstep sources/source.c "s/#include \"lib\/result.h\"\n/#include \"lib\/result.h\"\n#include \"core\/step.h\"\n/" &&
	rejects srcstep shared "^source.c: includes step.h, a step.s header, and b4 uses it"
'
test_expect_success 'a file below the commands that calls one is named' '
	mutant below sweep.c "s/(\tclock_gettime\(CLOCK_MONOTONIC, &t0\);\n)/\t{\n\t\tconst char *env(const char *name);\n\n\t\tif (env(\"KVERIFY_X\"))\n\t\t\treturn 2;\n\t}\n\$1/" &&
	rejects below commands "^sweep.o calls variables (env), a file of tools/cmd/"
'

test_expect_success 'a command that calls another command is named' '
	mutant cmdcmd cmd/cmd_list.c "s/(\tif \(load_targets\(opt, &list\)\)\n)/\tif (!command_verify.name)\n\t\treturn 2;\n\$1/" &&
	rejects cmdcmd commands "^cmd_list.o calls cmd_verify (command_verify): a command calls another command"
'
test_expect_success 'a file of kernels/ that includes a step header is named' '
	mutant debsteps kernels/debian_kabi.c "s/#include \"core\/step.h\"\n/#include \"core\/step.h\"\n#include \"steps\/steps.h\"\n/" &&
	rejects debsteps folders "^kernels/debian_kabi.c: includes a header of steps/, a folder above kernels/"
'
test_expect_success 'a file of kernels/ that includes a header of debian/, beside it, is named' '
	mutant kerndeb kernels/own.c "s/#include \"core\/series.h\"\n/#include \"core\/series.h\"\n#include \"debian\/debversion.h\"\n/" &&
	rejects kerndeb folders "^kernels/own.c: includes a header of debian/, a folder beside kernels/"
'
test_expect_success 'a file of core/ that calls into kernels/ is named' '
	mutant corecalls core/step.c "s/(int step_run\(const struct verify_ctx \*ctx, struct step_result \*r,\n\t     struct child \*c\)\n\{\n)/\$1\t{\n\t\tint config_value(const char *config, const char *sym);\n\n\t\tif (config_value(\"\", \"X\"))\n\t\t\treturn -1;\n\t}\n/" &&
	rejects corecalls folders "^step.o calls debian_kabi (config_value), of kernels/, a folder above core/"
'
test_expect_success 'a file of debian/ that calls b4/, beside it, is named' '
	mutant debb4 debian/debpatches.c "s/(\tif \(!dest \|\| !\*dest\) \{\n)/\t{\n\t\tint valid_change_id(const char *s);\n\n\t\tif (valid_change_id(\"x\"))\n\t\t\treturn 2;\n\t}\n\$1/" &&
	rejects debb4 folders "^debpatches.o calls b4_text (valid_change_id), of b4/, a folder beside debian/"
'
test_expect_success 'a file of core/ that includes a header of b4/ is named' '
	mutant coreb4 core/series.c "s/#include \"core\/symvers.h\"\n/#include \"b4\/b4_int.h\"\n#include \"core\/symvers.h\"\n/" &&
	rejects coreb4 folders "^core/series.c: includes a header of b4/, a folder above core/"
'
done_testing
