/* SPDX-License-Identifier: MIT */
/* xwgen_test.c — xwgen-test: from the model xwgen builds, the files the test suites compile against libxcb
 * (layout, conformance and decode cases). Built for the tests only; not part of the product's xwgen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "testgen.h"

static void usage(void)
{
    fputs("usage: xwgen-test [-I xmldir] (--layout file.c | --conform file.c | --decode file.c) file.xml...\n", stderr);
    exit(2);
}

/* One description in the mode asked for; the layout check's C++ half goes beside its C file. */
static void generate(struct module *m, const char *mode, const char *path)
{
    struct out a = {0}, b = {0};
    if (!strcmp(mode, "--layout")) {
        char *cc = xasprintf("%.*s_cxx.cc", (int)(strlen(path) - 2), path);
        emit_layout(m, &a, &b);
        write_out(NULL, path, &a);
        write_out(NULL, cc, &b);
        free(cc);
    } else if (!strcmp(mode, "--conform")) {
        emit_conform(m, &a);
        write_out(NULL, path, &a);
    } else {
        emit_decode(m, &a);
        write_out(NULL, path, &a);
    }
}

int main(int argc, char **argv)
{
    const char *incdir = NULL, *mode = NULL, *path = NULL;
    int nfiles = 0;
    struct world world = {0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-I") && i + 1 < argc) {
            incdir = argv[++i];
        } else if ((!strcmp(argv[i], "--layout") || !strcmp(argv[i], "--conform") || !strcmp(argv[i], "--decode")) &&
                   i + 1 < argc) {
            mode = argv[i];
            path = argv[++i];
            size_t n = strlen(path);
            if (!strcmp(mode, "--layout") && (n < 2 || strcmp(path + n - 2, ".c")))
                fail((struct loc){path, 0}, "--layout needs a file name ending in .c");
        } else if (argv[i][0] == '-' || !mode) {
            usage();
        } else {
            generate(load_description(&world, incdir, argv[i]), mode, path);
            nfiles++;
        }
    }
    if (!nfiles)
        usage();
    return 0;
}
