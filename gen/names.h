/* SPDX-License-Identifier: MIT */
/* names.h — C names for XML names, following libxcb's conventions. All results are malloc'd
 * but cfield_name's, which returns its argument or a static string. */
#ifndef XWGEN_NAMES_H
#define XWGEN_NAMES_H

#include "model.h"

/* "GetScreenInfo" -> "Get_Screen_Info": libxcb's word split of an XML name. */
char *cname_item(const char *s);
char *cname_upper(const char *s);
/* The lower-case C name of a naming path {"xw", [extension], parts...}, then "_suffix". */
char *cname_join(struct module *m, char **path, int n, const char *suffix);
const char *cfield_name(const char *name);
/* The C++ spelling of a field whose C name is a C++ keyword, else NULL. */
char *cxx_field_name(const char *cname);
/* base, then a as a name part, then b as it is: lower case. */
char *name_suffix(const char *base, const char *a, const char *b);
/* Fills t->cbase, t->ibase and (but for a primitive) t->ctype. */
void type_names(struct type *t);

#endif
