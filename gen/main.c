/* SPDX-License-Identifier: MIT */
/* main.c — xwgen: reads xcb-proto descriptions and writes the xwire binding for each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "emit.h"

static void usage(void)
{
    fputs("usage: xwgen [-I xmldir] [-o outdir | --man dir] [--counts] file.xml...\n", stderr);
    exit(2);
}

static void add_counts(struct counts *sum, const struct counts *c)
{
    const int *a = (const int *)c;
    int *s = (int *)sum;
    for (size_t i = 0; i < sizeof(*c) / sizeof(int); i++)
        s[i] += a[i];
}

static void print_counts(const struct counts *c, int nfiles)
{
    printf("descriptions %d\nrequest %d\nreply %d\nevent %d\neventcopy %d\nerror %d\nerrorcopy %d\n", nfiles,
           c->request, c->reply, c->event, c->eventcopy, c->error, c->errorcopy);
    printf("struct %d\nunion %d\neventstruct %d\nxidtype %d\nxidunion %d\ntypedef %d\nenum %d\n", c->struct_, c->union_,
           c->eventstruct, c->xidtype, c->xidunion, c->typedef_, c->enum_);
    printf("switch %d\nbitcase %d\ncase %d\nlist %d\nexprfield %d\nfd %d\npad %d\nrequired_start_align %d\n",
           c->switch_, c->bitcase, c->case_, c->list, c->exprfield, c->fd, c->pad, c->required_start_align);
    printf("import %d\nfieldref %d\nparamref %d\nop %d\nunop %d\nsumof %d\npopcount %d\nenumref %d\n"
           "listelement-ref %d\nxge-event %d\nno-sequence-event %d\n",
           c->import, c->fieldref, c->paramref, c->op, c->unop, c->sumof, c->popcount, c->enumref, c->listelement_ref,
           c->xge_event, c->noseq_event);
}

int main(int argc, char **argv)
{
    const char *outdir = ".", *incdir = NULL, *man = NULL;
    int counts = 0, nfiles = 0;
    struct counts sum = {0};
    struct world world = {0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            outdir = argv[++i];
        else if (!strcmp(argv[i], "-I") && i + 1 < argc)
            incdir = argv[++i];
        else if (!strcmp(argv[i], "--man") && i + 1 < argc)
            man = argv[++i];
        else if (!strcmp(argv[i], "--counts"))
            counts = 1;
        else if (argv[i][0] == '-')
            usage();
        else {
            struct module *m = load_description(&world, incdir, argv[i]);
            if (man) {
                emit_man(m, man);
            } else {
                struct out h = {0}, c = {0}, p = {0}, t = {0};
                char *hn = xasprintf("%s.h", m->header), *cn = xasprintf("%s.c", m->header);
                char *pn = xasprintf("%s_priv.h", m->header), *tn = xasprintf("%s_trace.c", m->header);
                emit_module(m, &h, &c, &p);
                emit_trace(m, &t);
                write_out(outdir, hn, &h);
                write_out(outdir, cn, &c);
                write_out(outdir, pn, &p);
                write_out(outdir, tn, &t);
                free(hn), free(cn), free(pn), free(tn);
            }
            add_counts(&sum, &m->counts);
            nfiles++;
        }
    }
    if (!nfiles)
        usage();
    if (counts)
        print_counts(&sum, nfiles);
    return 0;
}
