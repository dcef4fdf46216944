/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_JSON_H
#define KVERIFY_JSON_H

#include "lib/escape.h"
#include "lib/strbuf.h"

/*
 * JSON, written and read.  A string is written by json_escape()
 * (lib/escape.h: quoted, escaped, invalid UTF-8 as U+FFFD); the reader is
 * an RFC 8259 parser (objects, arrays, strings with every escape, numbers,
 * true, false, null) that hands each member or element to a callback and
 * steps over what it is not asked to keep.
 */

/**
 * json_field() - a string member after another: ,SEP"KEY": "VALUE"
 * @sb: where it is added
 * @sep: what comes between the comma and the key ("\n  " or " ")
 * @key: the key, written as it is (a literal of the caller's)
 * @value: the value, escaped; NULL is ""
 */
void json_field(struct strbuf *sb, const char *sep, const char *key,
		const char *value);

/**
 * json_strings() - an array of strings, "[" and "]" included
 * @sb: where it is added
 * @v: the strings, each escaped, ", " between them
 */
void json_strings(struct strbuf *sb, const struct strvec *v);

/* Where a parse stands in its text. */
struct json_parser {
	const char *p, *start;	/* the next byte, the text's first */
	struct strbuf *err;	/* "byte N: what" of the first error */
	int depth;		/* objects and arrays entered */
};

#define JSON_PARSER_INIT(text, error) \
	{ .p = (text), .start = (text), .err = (error), .depth = 0 }

/* A member of an object, its value at ps->p: 0, or -1 after json_fail(). */
typedef int (*json_member_fn)(struct json_parser *ps, const char *key,
			      void *data);
/* An element of an array, at ps->p: 0, or -1 after json_fail(). */
typedef int (*json_element_fn)(struct json_parser *ps, void *data);

/**
 * json_fail() - say where the text is not what was expected
 * @ps: the parse
 * @what: what was expected, or what is wrong
 *
 * Adds "byte N: @what" to ps->err.
 *
 * Return: -1.
 */
int json_fail(struct json_parser *ps, const char *what);

/**
 * json_skip_ws() - step over JSON's white space
 * @ps: the parse
 */
void json_skip_ws(struct json_parser *ps);

/**
 * json_object() - the object at ps->p, member by member
 * @ps: the parse
 * @fn: called with each member's key, the parse at its value; NULL steps
 *	over every value
 * @data: passed to @fn
 *
 * Return: 0 with ps->p after the object, or -1 (ps->err says where).
 */
int json_object(struct json_parser *ps, json_member_fn fn, void *data);

/**
 * json_array() - the array at ps->p, element by element
 * @ps: the parse
 * @fn: called with the parse at each element; NULL steps over them
 * @data: passed to @fn
 *
 * Return: 0 with ps->p after the array, or -1 (ps->err says where).
 */
int json_array(struct json_parser *ps, json_element_fn fn, void *data);

/**
 * json_skip() - step over the value at ps->p, whatever it is
 * @ps: the parse
 *
 * Return: 0, or -1 if it is no JSON value (ps->err says where).
 */
int json_skip(struct json_parser *ps);

/**
 * json_number() - the number at ps->p
 * @ps: the parse
 * @out: set to it, or NULL to step over it
 *
 * Return: 0, or -1 if it is not a JSON number (ps->err says where).
 */
int json_number(struct json_parser *ps, double *out);

/**
 * json_string() - the string at ps->p, unescaped
 * @ps: the parse
 * @out: set to a new string (a previous one freed: a key given twice
 *	keeps the last value)
 *
 * Return: 0, or -1 if it is not a JSON string, or holds \u0000 (ps->err
 * says where).
 */
int json_string(struct json_parser *ps, char **out);

/**
 * json_parse_object() - a text that is one JSON object, member by member
 * @text: the text, NUL-terminated; white space around the object is fine
 * @fn: called with each member's key, the parse at its value
 * @data: passed to @fn
 * @err: where "byte N: what" of the first error is added
 *
 * Return: 0, or -1 if the text is no object or has more after it.
 */
int json_parse_object(const char *text, json_member_fn fn, void *data,
		      struct strbuf *err);

/**
 * json_read_object() - json_parse_object() of a file's text
 * @path: the file (16 MiB at most)
 * @fn: as json_parse_object()'s
 * @data: passed to @fn
 * @err: where "@path: cannot read it", "@path: byte N: a NUL byte" or
 *	"@path: byte N: what" of json_parse_object() is added
 *
 * Return: 0 (@err as it was), or -1.
 */
int json_read_object(const char *path, json_member_fn fn, void *data,
		     struct strbuf *err);

#endif
