// SPDX-License-Identifier: GPL-2.0
/*
 * report.json read back (report_read.c): the fields make send's gate and
 * kverify matrix read, every JSON escape, what json_escape() writes read
 * back as it was, the sim's figures and each step's log that kverify
 * summary shows, and each way a report can be broken refused with where.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../tools/lib/escape.h"
#include "../../tools/report_read.h"

static const char report[] =
	"{\n"
	"  \"schema\": 2,\n"
	"  \"target\": \"6.12\",\n"
	"  \"package\": {\"name\": \"linux-source-6.12\", \"version\": \"6.12.118-1~deb12u1\"},\n"
	"  \"seconds\": 228,\n"
	"  \"cold_seconds\": 575.5,\n"
	"  \"tools\": {\"qemu\": null, \"make\": \"GNU Make 4.3\"},\n"
	"  \"ccache\": {\"hits\": -1, \"misses\": -1},\n"
	"  \"interrupted\": false,\n"
	"  \"passed\": true,\n"
	"  \"steps\": [\n"
	"    {\"name\": \"fetch\", \"status\": \"PASS\", \"seconds\": 0.717, \"cpu_seconds\": 0.553, \"reason\": \"cached\", \"log\": \"logs/00-fetch.log\", \"detail\": \"\"},\n"
	"    {\"name\": \"sim\", \"status\": \"PASS\", \"seconds\": 3.25e0, \"reason\": \"a \\\"quoted\\\" \\\\ line\\n\\u001b[31m\\u00e9\\ud83d\\ude00\\/\\b\\f\\r\\t\"},\n"
	"    {\"name\": \"boot\", \"status\": \"SKIP\", \"seconds\": 0, \"reason\": \"caf\xc3\xa9\"}\n"
	"  ],\n"
	"  \"sim\": {\"era\": \"emulated\", \"traces\": 13998, \"traces_asked\": 20000, \"seed\": 1, \"reprograms_per_million_emulated\": {\"0\": 1e6, \"1000\": 12.5}},\n"
	"  \"tests\": [{\"name\": \"x\", \"status\": \"PASS\"}, [], [[{}]]]\n"
	"}\n";

static void reads_the_fields(void **state)
{
	struct report_view v = REPORT_VIEW_INIT;
	struct strbuf err = STRBUF_INIT;
	const struct report_step *s;

	(void)state;
	assert_int_equal(report_parse(&v, report, &err), 0);
	assert_int_equal(err.len, 0);
	assert_int_equal(v.nr, 3);
	assert_true(v.seconds == 228 && v.cold_seconds == 575.5);
	assert_int_equal(v.sim_traces, 13998);
	assert_int_equal(v.sim_traces_asked, 20000);
	s = report_step(&v, "sim");
	assert_non_null(s);
	assert_string_equal(s->status, "PASS");
	assert_true(s->seconds == 3.25);
	assert_string_equal(s->reason,
			    "a \"quoted\" \\ line\n\x1b[31m\xc3\xa9\xf0\x9f\x98\x80/\b\f\r\t");
	assert_string_equal(report_step(&v, "boot")->reason, "caf\xc3\xa9");
	assert_string_equal(report_step(&v, "fetch")->log, "logs/00-fetch.log");
	assert_null(s->log);
	assert_int_equal(v.reprograms.nr, 2);
	assert_true(v.reprograms.v[0].tolerance == 0 &&
		    v.reprograms.v[0].value == 1e6);
	assert_true(v.reprograms.v[1].tolerance == 1000 &&
		    v.reprograms.v[1].value == 12.5);
	assert_int_equal(v.reads.nr, 0);
	assert_true(report_step(&v, "boot")->seconds == 0);
	assert_null(report_step(&v, "kabi"));
	report_view_clear(&v);
	assert_int_equal(v.nr, 0);
	assert_null(v.steps);
	strbuf_release(&err);
}

/* Without the optional keys: -1, as REPORT_VIEW_INIT has them. */
static void absent_keys(void **state)
{
	struct report_view v = REPORT_VIEW_INIT;
	struct strbuf err = STRBUF_INIT;

	(void)state;
	assert_int_equal(report_parse(&v, " {\"steps\": [{\"status\": \"N-A\", \"name\": \"sim\"}]} ", &err), 0);
	assert_int_equal(v.nr, 1);
	assert_true(v.seconds == -1 && v.cold_seconds == -1);
	assert_int_equal(v.sim_traces, -1);
	assert_int_equal(v.sim_traces_asked, -1);
	assert_null(v.steps[0].reason);
	assert_true(v.steps[0].seconds == -1);
	report_view_clear(&v);
	/* a key given twice: the last value, the first one freed (ASan) */
	assert_int_equal(report_parse(&v, "{\"steps\": [{\"name\": \"a\", \"name\": \"b\", \"status\": \"PASS\"}], \"sim\": {\"traces\": 1}, \"sim\": {\"traces\": 2}}", &err), 0);
	assert_string_equal(v.steps[0].name, "b");
	assert_int_equal(v.sim_traces, 2);
	report_view_clear(&v);
	/* a figures key given twice: the last; "sim": null as none */
	assert_int_equal(report_parse(&v, "{\"sim\": {\"reads_per_million_emulated\": {\"0\": 1, \"5\": 2}, \"reads_per_million_emulated\": {\"7\": 3}}}", &err), 0);
	assert_int_equal(v.reads.nr, 1);
	assert_true(v.reads.v[0].tolerance == 7 && v.reads.v[0].value == 3);
	report_view_clear(&v);
	assert_null(v.reads.v);
	assert_int_equal(v.reads.nr, 0);
	assert_int_equal(report_parse(&v, "{\"sim\": null, \"steps\": []}", &err), 0);
	assert_int_equal(v.sim_traces, -1);
	assert_int_equal(v.reprograms.nr, 0);
	report_view_clear(&v);
	assert_int_equal(err.len, 0);
	strbuf_release(&err);
}

/* What json_escape() writes (every byte 1-255 in it) reads back as it was. */
static void round_trip(void **state)
{
	struct report_view v = REPORT_VIEW_INIT;
	struct strbuf json = STRBUF_INIT, err = STRBUF_INIT;
	char reason[300];
	int i, n = 0;

	(void)state;
	for (i = 1; i < 0x80; i++)
		reason[n++] = (char)i;
	memcpy(reason + n, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9);
	n += 9;
	reason[n] = 0;
	strbuf_addstr(&json, "{\"steps\": [{\"name\": \"sim\", \"status\": \"FAIL\", \"reason\": ");
	json_escape(&json, reason);
	strbuf_addstr(&json, "}]}");
	assert_int_equal(report_parse(&v, json.buf, &err), 0);
	assert_string_equal(v.steps[0].reason, reason);
	report_view_clear(&v);
	strbuf_release(&json);
	strbuf_release(&err);
}

struct broken {
	const char *json, *says;
};

static void refuses_broken_reports(void **state)
{
	static const struct broken cases[] = {
		{ "", "byte 0: an object expected" },
		{ "[]", "byte 0: an object expected" },
		{ "{\"steps\": [{\"name\": \"a\", \"status\": \"PASS\"}", "byte 42: ',' or ']' expected" },
		{ "{\"steps\": [], \"x\": 1} {}", "more after the object" },
		{ "{\"a\": \"\\x\"}", "an escape JSON does not have" },
		{ "{\"a\": \"\\ud83d\"}", "a high surrogate without its low one" },
		{ "{\"a\": \"\\ude00\"}", "a low surrogate alone" },
		{ "{\"a\": \"\\u0000\"}", "\\u0000 in a string" },
		{ "{\"a\": \"\\u12\"}", "\\u without four hex digits" },
		{ "{\"a\": \"x\ny\"}", "a control character in a string" },
		{ "{\"a\": \"x", "the string does not end" },
		{ "{\"a\" 1}", "':' expected after a key" },
		{ "{\"a\": 01}", "a number with a leading zero" },
		{ "{\"a\": 1 2}", "',' or '}' expected" },
		{ "{\"a\": 1.}", "no digit after a decimal point" },
		{ "{\"a\": 1e}", "no digit in an exponent" },
		{ "{\"a\": tru}", "a value expected" },
		{ "{\"a\": +1}", "a value expected" },
		{ "{\"seconds\": \"12\"}", "a value expected" },
		{ "{\"steps\": {}}", "an array expected" },
		{ "{\"steps\": [{\"name\": \"a\"}]}", "a step without its name or status" },
		{ "{\"steps\": [{\"name\": 1, \"status\": \"PASS\"}]}", "a string expected" },
		{ "{\"sim\": {\"traces\": 1.5}}", "a trace count that is no count" },
		{ "{\"sim\": {\"traces\": -3}}", "a trace count that is no count" },
		{ "{\"sim\": {\"traces_asked\": 1e300}}", "a trace count that is no count" },
		{ "{\"sim\": []}", "an object expected" },
		{ "{\"sim\": {\"reads_per_million_emulated\": {\"x\": 1}}}", "a figure that is no tolerance -> count" },
		{ "{\"sim\": {\"reads_per_million_emulated\": {\"\": 1}}}", "a figure that is no tolerance -> count" },
		{ "{\"sim\": {\"reprograms_per_million_emulated\": {\"-1\": 1}}}", "a figure that is no tolerance -> count" },
		{ "{\"sim\": {\"reprograms_per_million_emulated\": {\"1\": -2}}}", "a figure that is no tolerance -> count" },
		{ "{\"sim\": {\"reprograms_per_million_emulated\": {\"1\": \"2\"}}}", "a value expected" },
		{ "{\"steps\": [{\"name\": \"a\", \"status\": \"PASS\", \"log\": 1}]}", "a string expected" },
	};
	struct report_view v = REPORT_VIEW_INIT;
	struct strbuf err = STRBUF_INIT, deep = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		strbuf_reset(&err);
		if (report_parse(&v, cases[i].json, &err) != -1 ||
		    !strstr(err.buf, cases[i].says))
			fail_msg("%s: got \"%s\", want \"%s\"", cases[i].json,
				 err.buf, cases[i].says);
		/* nothing of a broken report is kept */
		assert_int_equal(v.nr, 0);
		assert_null(v.steps);
		assert_int_equal(v.sim_traces, -1);
		assert_null(v.reprograms.v);
		assert_null(v.reads.v);
	}
	/* nested 100 deep: refused, not a stack overflow */
	strbuf_addstr(&deep, "{\"a\": ");
	for (i = 0; i < 100; i++)
		strbuf_addch(&deep, '[');
	strbuf_reset(&err);
	assert_int_equal(report_parse(&v, deep.buf, &err), -1);
	assert_non_null(strstr(err.buf, "nested too deep"));
	strbuf_release(&deep);
	strbuf_release(&err);
}

static void reads_files(void **state)
{
	struct report_view v = REPORT_VIEW_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/test_report_read.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, report, strlen(report)), strlen(report));
	strbuf_addstr(&err, "kept: ");
	assert_int_equal(report_read(&v, path, &err), 0);
	assert_string_equal(err.buf, "kept: ");
	assert_int_equal(v.nr, 3);
	report_view_clear(&v);
	/* a NUL byte inside */
	assert_int_equal(write(fd, "\0{}", 3), 3);
	strbuf_reset(&err);
	assert_int_equal(report_read(&v, path, &err), -1);
	assert_non_null(strstr(err.buf, ": a NUL byte"));
	close(fd);
	unlink(path);
	strbuf_reset(&err);
	assert_int_equal(report_read(&v, path, &err), -1);
	assert_non_null(strstr(err.buf, ": cannot read it"));
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_the_fields),
		cmocka_unit_test(absent_keys),
		cmocka_unit_test(round_trip),
		cmocka_unit_test(refuses_broken_reports),
		cmocka_unit_test(reads_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
