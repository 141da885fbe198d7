/* driver.c — what xwgen and xwgen-test share around the model: loading a named description and writing output. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* "dir/name.xml": loads name (and what it imports from incdir, else from dir) into w and resolves it. */
struct module *load_description(struct world *w, const char *incdir, const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path)) : xstrdup(".");
    const char *base = slash ? slash + 1 : path;
    size_t n = strlen(base);
    if (n < 5 || strcmp(base + n - 4, ".xml")) {
        struct loc loc = { path, 0 };
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
    struct loc loc = { p, 0 };
    if (!f || (o->buf && fputs(o->buf, f) < 0) || fclose(f))
        fail(loc, "cannot write: %s", strerror(errno));
    free(p), free(o->buf);
    *o = (struct out){ 0 };
}
