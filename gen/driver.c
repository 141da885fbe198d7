/* SPDX-License-Identifier: MIT */
/* driver.c — what xwgen and xwgen-test share around the stages: loading a description (read, corrected,
 * built, resolved, with what it imports) and writing output. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver.h"
#include "fixes.h"
#include "parse.h"
#include "resolve.h"
#include "xml.h"

/* path: the file itself, or NULL to find header.xml in dir; its imports come from dir.
 * A description already in w is not loaded again. */
static struct module *module_load(struct world *w, const char *dir, const char *header, const char *path)
{
    for (int i = 0; i < w->nmods; i++)
        if (!strcmp(w->mods[i]->header, header))
            return w->mods[i];
    struct module *m = xcalloc(1, sizeof(*m));
    m->world = w;
    m->file = path ? xstrdup(path) : xasprintf("%s/%s.xml", dir, header);
    m->root = xml_load(m->file);
    description_fixes(m->root);
    model_build(m);
    if (strcmp(m->header, header))
        fail(m->loc, "header '%s' does not match file name '%s'", m->header, header);
    PUSH(w->mods, w->nmods, m);
    for (int i = 0; i < m->nimports; i++) {
        char *ip = xasprintf("%s/%s.xml", dir, m->imports[i].header);
        if (access(ip, R_OK))
            fail(m->imports[i].loc, "cannot read imported description '%s'", m->imports[i].header);
        free(ip);
        m->imports[i].mod = module_load(w, dir, m->imports[i].header, NULL);
    }
    return m;
}

/* "dir/name.xml": loads name (and what it imports from incdir, else from dir) into w and resolves it. */
struct module *load_description(struct world *w, const char *incdir, const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path)) : xstrdup(".");
    const char *base = slash ? slash + 1 : path;
    size_t n = strlen(base);
    if (n < 5 || strcmp(base + n - 4, ".xml")) {
        struct loc loc = {path, 0};
        fail(loc, "expected a .xml file");
    }
    char *name = strndup(base, n - 4);
    struct module *m = module_load(w, incdir ? incdir : dir, name, path);
    module_resolve(m);
    free(dir), free(name);
    return m;
}

/* Writes o to path (dir/path when dir is not NULL), or stops with path's error. Frees o. */
void write_out(const char *dir, const char *path, struct out *o)
{
    char *p = dir ? xasprintf("%s/%s", dir, path) : xstrdup(path);
    FILE *f = fopen(p, "wb");
    struct loc loc = {p, 0};
    if (!f || (o->buf && fputs(o->buf, f) < 0) || fclose(f))
        fail(loc, "cannot write: %s", strerror(errno));
    free(p), free(o->buf);
    *o = (struct out){0};
}
