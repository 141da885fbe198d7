/* SPDX-License-Identifier: MIT */
/* callsite.c — where in the program each request was sent from, for X errors (XWIRE_ERRORS=callsite). */
#include "callsite.h"
#include "conn.h"
#include "limit.h"
#include "lock.h"

#include <dlfcn.h>
#include <pthread.h>
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef XW_HAVE_LIBDW
#include <elfutils/libdwfl.h>
#endif

/* Requests remembered: an error names a request sent at most this many requests
 * before the newest (a full write buffer holds 4096 NoOperations, errors come back
 * soon after a flush, so older ones are rare). Each keeps XW_CS_DEPTH return
 * addresses: enough for xwire's own frames, libX11's or a toolkit's, and the
 * program's frame past them. About 200 KiB per connection, only while on. */
#define XW_CS_RING 1024u
#define XW_CS_DEPTH 24

struct xw_cs_entry {
    uint64_t first, last; /* the requests sent from this stack; last 0: unused */
    unsigned n;
    int rank; /* XW_CS_SEND, _CALL or _WRITE: how surely the stack made them */
    void *pc[XW_CS_DEPTH];
};

/* Recorders hold c->mu (xwire's sends) or the owner's display lock (Xlib's
 * after-function), so the ring has a lock of its own, taken last. */
struct xw_callsite {
    struct xw_mutex mu;
    unsigned next; /* where the next entry goes */
    struct xw_cs_entry ring[XW_CS_RING];
};

int xw__callsite_wanted(void)
{
    const char *v = getenv("XWIRE_ERRORS");
    while (v && *v) {
        size_t n = strcspn(v, ",: ");
        if (n == 8 && !strncmp(v, "callsite", 8))
            return 1;
        v += n + (v[n] != 0);
    }
    return 0;
}

/* The unwinder (libgcc_s, which backtrace() opens on its first walk, then
 * initialises under pthread_once: a futex call) is made ready when the library is
 * loaded, before main, whenever the environment will turn call sites on: a program
 * may confine its system calls with seccomp before it connects (xwallpaper does),
 * and a first walk after that would kill it. */
static void dw_warm(void);

__attribute__((constructor)) static void warm_unwinder(void)
{
    const char *trace = getenv("XWIRE_TRACE");
    if (xw__callsite_wanted() || (trace && *trace)) {
        void *warm[2];
        backtrace(warm, 2);
        dw_warm(); /* libdw too: dlopen makes system calls */
    }
}

int xw__callsite_enable(xw_connection_t *c)
{
    if (c->error || !c->out.buf)
        return -EINVAL;
    if (__atomic_load_n(&c->cs, __ATOMIC_ACQUIRE))
        return 0;
    struct xw_callsite *cs = calloc(1, sizeof(*cs));
    if (!cs)
        return -ENOMEM;
    /* The first walk loads the unwinder (a dlopen): done here, with no lock held,
     * rather than under the connection's lock at the first send. */
    void *warm[2];
    backtrace(warm, 2);
    xw__conn_lock(c);
    if (c->cs) { /* another thread turned them on meanwhile */
        xw__conn_unlock(c);
        free(cs);
        return 0;
    }
    __atomic_store_n(&c->cs, cs, __ATOMIC_RELEASE); /* read without the lock by the callers of the record */
    xw__limit_refresh(c);                           /* closes the fast paths: every request now reaches the record */
    xw__conn_unlock(c);
    return 0;
}

void xw__callsite_free(struct xw_callsite *cs)
{
    free(cs);
}

void xw__callsite_record(struct xw_callsite *cs, uint64_t first, uint64_t last, int rank)
{
    void *pc[XW_CS_DEPTH + 1];
    int n = backtrace(pc, XW_CS_DEPTH + 1); /* outside the ring's lock: the walk is the slow part */
    n = n > 1 ? n - 1 : 0;                  /* this function's own frame is no call site */
    xw__lock_acquire(&cs->mu);
    struct xw_cs_entry *e = &cs->ring[cs->next];
    cs->next = (cs->next + 1) % XW_CS_RING;
    e->first = first;
    e->last = last;
    e->n = (unsigned)n;
    e->rank = rank;
    memcpy(e->pc, pc + 1, sizeof(void *) * (size_t)n);
    xw__lock_release(&cs->mu);
}

void xw__callsite_record_conn(xw_connection_t *c, uint64_t first, uint64_t last, int rank)
{
    struct xw_callsite *cs = __atomic_load_n(&c->cs, __ATOMIC_ACQUIRE);
    if (cs)
        xw__callsite_record(cs, first, last, rank);
}

/* The recorded stack of seq into pc; its depth, 0 when none. Of the stacks that
 * cover seq the one of the highest rank wins, the newest among equals. */
static unsigned lookup(struct xw_callsite *cs, uint64_t seq, void **pc)
{
    unsigned n = 0;
    xw__lock_acquire(&cs->mu);
    const struct xw_cs_entry *hit = NULL;
    for (unsigned k = 0; k < XW_CS_RING && !(hit && hit->rank == XW_CS_SEND); k++) {
        const struct xw_cs_entry *e = &cs->ring[(cs->next + XW_CS_RING - 1 - k) % XW_CS_RING];
        if (e->last && seq >= e->first && seq <= e->last && (!hit || e->rank > hit->rank))
            hit = e;
    }
    if (hit) {
        n = hit->n;
        memcpy(pc, hit->pc, sizeof(void *) * n);
    }
    xw__lock_release(&cs->mu);
    return n;
}

/* The object's file name without its directories. */
static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Whether name (a file name without directories) starts with one of the
 * colon-separated prefixes in list. */
static int listed(const char *name, const char *list)
{
    while (list && *list) {
        size_t n = strcspn(list, ":");
        if (n && !strncmp(name, list, n))
            return 1;
        list += n + (list[n] != 0);
    }
    return 0;
}

/* The libraries whose frames are never a call site: xwire's (libxwire, libxwire-xcb,
 * libxwire-util and the libxcb family built from it), libX11 (libX11, libX11-xcb),
 * and those XWIRE_ERRORS_SKIP adds (colon-separated prefixes such as libgtk-3). */
static int skipped(const char *object)
{
    const char *name = base_name(object);
    return listed(name, "libxwire:libxcb:libX11") || listed(name, getenv("XWIRE_ERRORS_SKIP"));
}

/* The index of the first frame outside the skipped libraries and outside the object
 * that holds this code (a program that links xwire statically has none: its whole
 * object is skipped then), or -1. */
static int first_outside(void *const *pc, unsigned n)
{
    Dl_info self;
    if (!dladdr((void *)(uintptr_t)&xw__callsite_text, &self))
        return -1;
    for (unsigned i = 0; i < n; i++) {
        Dl_info d;
        if (!dladdr(pc[i], &d) || !d.dli_fname)
            continue;
        if (d.dli_fbase == self.dli_fbase || skipped(d.dli_fname))
            continue;
        return (int)i;
    }
    return -1;
}

#ifdef XW_HAVE_LIBDW
/* libdw, opened when call sites first need a line (or at load, when the environment
 * asks for them): never a link dependency, so xwire's own stay libc, pthreads and
 * libXau, and a machine without elfutils gets function+offset. */
static struct {
    __typeof__(dwfl_begin) *begin;
    __typeof__(dwfl_linux_proc_report) *proc_report;
    __typeof__(dwfl_report_end) *report_end;
    __typeof__(dwfl_addrmodule) *addrmodule;
    __typeof__(dwfl_module_addrinfo) *module_addrinfo;
    __typeof__(dwfl_module_getsrc) *module_getsrc;
    __typeof__(dwfl_lineinfo) *lineinfo;
    __typeof__(dwfl_module_info) *module_info;
    __typeof__(dwfl_end) *end;
    __typeof__(dwfl_linux_proc_find_elf) *find_elf;
    __typeof__(dwfl_standard_find_debuginfo) *find_debuginfo;
} dw;
static pthread_once_t dw_once = PTHREAD_ONCE_INIT;

static void dw_open(void)
{
    void *h = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return;
    void **slot = (void **)&dw;
    static const char *const names[] = {"dwfl_begin",
                                        "dwfl_linux_proc_report",
                                        "dwfl_report_end",
                                        "dwfl_addrmodule",
                                        "dwfl_module_addrinfo",
                                        "dwfl_module_getsrc",
                                        "dwfl_lineinfo",
                                        "dwfl_module_info",
                                        "dwfl_end",
                                        "dwfl_linux_proc_find_elf",
                                        "dwfl_standard_find_debuginfo"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (!(slot[i] = dlsym(h, names[i]))) {
            memset(&dw, 0, sizeof(dw)); /* all or nothing */
            return;                     /* h stays open: harmless, and dlclose may run its destructors */
        }
    }
}

/* pc through the process's own debug information: "function (file:line)" when the
 * object has line information, "function+0xoff (object)" when it has only a symbol
 * table. 0, or -ENOENT when libdw is missing or knows nothing of pc. */
static int describe_dwarf(void *pc, char *buf, size_t n)
{
    static char *debuginfo_path; /* libdw's default search path */
    pthread_once(&dw_once, dw_open);
    if (!dw.begin)
        return -ENOENT;
    const Dwfl_Callbacks cb = {
        .find_elf = dw.find_elf, .find_debuginfo = dw.find_debuginfo, .debuginfo_path = &debuginfo_path};
    Dwfl *d = dw.begin(&cb);
    if (!d)
        return -ENOMEM;
    int r = -ENOENT;
    if (dw.proc_report(d, getpid()) == 0 && dw.report_end(d, NULL, NULL) == 0) {
        /* the call instruction ends just before the return address */
        Dwarf_Addr a = (Dwarf_Addr)(uintptr_t)pc - 1;
        Dwfl_Module *m = dw.addrmodule(d, a);
        GElf_Off off = 0;
        GElf_Sym sym;
        const char *fn = m ? dw.module_addrinfo(m, a, &off, &sym, NULL, NULL, NULL) : NULL;
        Dwfl_Line *ln = m ? dw.module_getsrc(m, a) : NULL;
        int line = 0;
        const char *file = ln ? dw.lineinfo(ln, NULL, &line, NULL, NULL, NULL) : NULL;
        const char *obj = m ? dw.module_info(m, NULL, NULL, NULL, NULL, NULL, NULL, NULL) : NULL;
        /* with a line, the function as the source names it: a copy the compiler
         * specialised is "f.isra.0" or "f.constprop.0" in the symbol table */
        if (file && line > 0)
            snprintf(buf, n, "%.*s (%s:%d)", fn ? (int)strcspn(fn, ".") : 2, fn ? fn : "??", file, line);
        else if (fn)
            snprintf(buf, n, "%s+0x%llx (%s)", fn, (unsigned long long)off + 1, obj ? base_name(obj) : "??");
        r = (file && line > 0) || fn ? 0 : -ENOENT;
    }
    dw.end(d);
    return r;
}

static void dw_warm(void)
{
    pthread_once(&dw_once, dw_open);
}
#else
static void dw_warm(void)
{
}

static int describe_dwarf(void *pc, char *buf, size_t n)
{
    (void)pc, (void)buf, (void)n;
    return -ENOENT;
}
#endif

/* pc as text: through debug information when there is some, else the dynamic
 * symbol dladdr finds ("function+0xoff (object)"), else the object and offset. */
static void describe(void *pc, char *buf, size_t n)
{
    if (describe_dwarf(pc, buf, n) == 0)
        return;
    Dl_info d;
    if (!dladdr(pc, &d) || !d.dli_fname)
        snprintf(buf, n, "%p", pc);
    else if (d.dli_sname && d.dli_saddr)
        snprintf(buf, n, "%s+0x%lx (%s)", d.dli_sname, (unsigned long)((uintptr_t)pc - (uintptr_t)d.dli_saddr),
                 base_name(d.dli_fname));
    else
        snprintf(buf, n, "%s+0x%lx", base_name(d.dli_fname), (unsigned long)((uintptr_t)pc - (uintptr_t)d.dli_fbase));
}

const char *xw__callsite_text(xw_connection_t *c, uint64_t seq, char *buf, size_t n)
{
    void *pc[XW_CS_DEPTH];
    struct xw_callsite *cs = __atomic_load_n(&c->cs, __ATOMIC_ACQUIRE);
    if (!cs || !n)
        return NULL;
    unsigned depth = lookup(cs, seq, pc);
    if (!depth)
        return NULL;
    int i = first_outside(pc, depth);
    if (i < 0)
        return NULL;
    describe(pc[i], buf, n);
    return buf;
}
