/* SPDX-License-Identifier: MIT */
#ifndef XW_XRM_H
#define XW_XRM_H
/* xw_xrm.h — xcb-util-xrm (<xcb/xcb_xrm.h>) on xwire: an X resource database built
 * from the RESOURCE_MANAGER property, files or strings, and queried by the X resource
 * manager's rules (tight and loose bindings, '?', the precedence of name over class
 * over '?' and of tight over loose, level by level). Part of libxwire-util.
 *
 * Where xcb-util-xrm departs from Xlib's Xrm, this follows Xlib: an empty value
 * ("a:") is a value; a run of bindings with a '*' in it ("a*.b") is loose; a loose
 * binding may skip any number of levels, not just up to the first level whose name
 * matches; and precedence is decided at the first level where two entries differ. */
#include <stdbool.h>
#include <stddef.h>
#include <xw/xw.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xw_xrm_database_t xw_xrm_database_t;

/** A database as XGetDefault builds it: the RESOURCE_MANAGER property of screen 0's
 * root window; when it has none, $HOME/.Xresources, else $HOME/.Xdefaults; then the
 * file $XENVIRONMENT (or $HOME/.Xdefaults-<hostname>) merged over it. Returns NULL when
 * c has no screen or nothing could be loaded. Allocates; the caller frees it with
 * xw_xrm_database_free. Thread-safe as far as c is. */
XW_EXPORT xw_xrm_database_t *xw_xrm_database_from_default(xw_connection_t *c);

/** A database from the RESOURCE_MANAGER property (type STRING) of screen's root
 * window, read whole. NULL when the property is missing or of another type, the
 * request fails, or memory runs out. Caller frees. */
XW_EXPORT xw_xrm_database_t *xw_xrm_database_from_resource_manager(xw_connection_t *c, xw_screen_t *screen);

/** A database from str: lines "specifier: value", '!' comments, lines ending in a
 * backslash continued on the next, escapes in values (\  \t \n \\ \ooo), and
 * `#include "file"` lines (a relative name from the current directory). Lines that
 * do not parse are skipped. NULL only when str is NULL or memory runs out. Caller frees. */
XW_EXPORT xw_xrm_database_t *xw_xrm_database_from_string(const char *str);

/** As xw_xrm_database_from_string, from a file's contents (an #include's relative
 * name is taken from the including file's directory; includes nest at most 100 deep).
 * NULL when the file cannot be read. Caller frees. */
XW_EXPORT xw_xrm_database_t *xw_xrm_database_from_file(const char *filename);

/** The database as text, one "specifier: value\n" line per entry in insertion order
 * (values escaped so that the text parses back to the same database). Returns a
 * malloc'd string the caller frees; NULL for an empty database, NULL database, or out
 * of memory. */
XW_EXPORT char *xw_xrm_database_to_string(xw_xrm_database_t *database);

/** Copies every entry of source_db into *target_db (a new database when *target_db is
 * NULL); an entry whose specifier the target already has replaces it when override
 * is true and is dropped when not. source_db is left as it was and stays the
 * caller's to free (as with xcb-util-xrm 1.3). */
XW_EXPORT void xw_xrm_database_combine(xw_xrm_database_t *source_db, xw_xrm_database_t **target_db, bool override);

/** Adds "resource: value" to *database (created when *database is NULL), replacing an
 * entry with the same specifier. value is taken literally (it is escaped as needed,
 * so a leading space or a newline stays part of it). resource or value NULL: nothing. */
XW_EXPORT void xw_xrm_database_put_resource(xw_xrm_database_t **database, const char *resource, const char *value);

/** Adds one line of resource-file syntax to *database (created when *database is
 * NULL), replacing an entry with the same specifier; comments, directives and lines
 * that do not parse are ignored. */
XW_EXPORT void xw_xrm_database_put_resource_line(xw_xrm_database_t **database, const char *line);

/** Frees database and its entries; NULL is ignored. */
XW_EXPORT void xw_xrm_database_free(xw_xrm_database_t *database);

/** The value of the entry that best matches res_name (components separated by '.',
 * no wildcards) and res_class (the same number of components; NULL or "" for none).
 * Returns 0 and a malloc'd copy in *out the caller frees; a negative value (and *out
 * NULL) when nothing matches or a query does not parse. */
XW_EXPORT int xw_xrm_resource_get_string(xw_xrm_database_t *database, const char *res_name, const char *res_class,
                                         char **out);

/** xwire only: as xw_xrm_resource_get_string, but *out points into the database (valid
 * until the entry is replaced or the database changes or is freed). Never allocates
 * (queries up to 64 components; longer ones fail). */
XW_EXPORT int xw_xrm_resource_get_string_ref(xw_xrm_database_t *database, const char *res_name, const char *res_class,
                                             const char **out);

/** The value as a decimal long (the whole value; a sign allowed, no spaces). Returns
 * 0 and *out; -1 when found but not a number in range (*out LONG_MIN); -2 when not
 * found (*out LONG_MIN). Never allocates. */
XW_EXPORT int xw_xrm_resource_get_long(xw_xrm_database_t *database, const char *res_name, const char *res_class,
                                       long *out);

/** The value as a bool: a decimal number is true when not 0; "true", "on", "yes" are
 * true and "false", "off", "no" false (any case). Returns 0 and *out; -1 when found
 * but none of those (*out false); -2 when not found (*out false). Never allocates. */
XW_EXPORT int xw_xrm_resource_get_bool(xw_xrm_database_t *database, const char *res_name, const char *res_class,
                                       bool *out);

#ifdef __cplusplus
}
#endif
#endif
