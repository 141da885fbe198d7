/* SPDX-License-Identifier: MIT */
/* shim.c — the rows of the unmodified programs on xwire: a case of Xlib or libxcb run in a child xwbench
 * whose libxcb.so.1 is xwire's (libxcb/ in the build tree), so only the library path differs; and Xlib
 * on Debian's libxcb in a child as well, since a fresh process's heap is not the long-lived driver's. */
#include "shim.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xcb/xcb.h>

const char *shim_dir(void)
{
#ifdef XWBENCH_SHIM_DIR
    static const char dir[] = XWBENCH_SHIM_DIR;
    char lib[sizeof dir + 16];
    snprintf(lib, sizeof lib, "%s/libxcb.so.1", dir);
    return access(lib, R_OK) == 0 ? dir : NULL;
#else
    return NULL; /* built with -Dlibxcb=false */
#endif
}

/* Whether this process's libxcb.so.1 is the shim: a shim row that silently ran on
 * Debian's libxcb (a lost LD_LIBRARY_PATH, a launcher) must fail, not pass as xwire. */
int shim_loaded(void)
{
    Dl_info info;
    char lib[PATH_MAX], dir[PATH_MAX];
    const char *want = shim_dir();
    if (!want || !dladdr((void *)xcb_connect, &info) || !info.dli_fname)
        return 0;
    if (!realpath(info.dli_fname, lib) || !realpath(want, dir))
        return 0;
    size_t n = strlen(dir);
    return !strncmp(lib, dir, n) && lib[n] == '/' && !strchr(lib + n + 1, '/');
}

/* LD_LIBRARY_PATH with the shim first, for the child only; what the user had stays
 * behind it. */
int shim_setenv(void)
{
    const char *dir = shim_dir(), *old = getenv("LD_LIBRARY_PATH");
    if (!dir)
        return -1;
    char path[8192];
    snprintf(path, sizeof path, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
    return setenv("LD_LIBRARY_PATH", path, 1);
}

void shim_leave(char **argv)
{
    const char *dir = shim_dir(), *old = getenv("LD_LIBRARY_PATH");
    char want[PATH_MAX], here[PATH_MAX], path[8192] = "", copy[8192];
    if (!dir || !old || !shim_loaded() || !realpath(dir, want) || strlen(old) >= sizeof copy)
        return;
    strcpy(copy, old);
    size_t n = 0;
    for (char *save, *e = strtok_r(copy, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
        if (realpath(e, here) && !strcmp(here, want))
            continue;
        n += (size_t)snprintf(path + n, sizeof path - n, "%s%s", n ? ":" : "", e);
        if (n >= sizeof path)
            return;
    }
    if (n ? setenv("LD_LIBRARY_PATH", path, 1) : unsetenv("LD_LIBRARY_PATH"))
        return;
    execv("/proc/self/exe", argv);
}

void shim_print_sample(FILE *f, long got, const struct sample *s)
{
    fprintf(f, "%ld %.9f %.9f %.9f %.9f %llu %ld %ld\n", got, s->wall, s->cpu, s->sys, s->server_cpu,
            (unsigned long long)s->allocs, s->faults, s->switches);
}

/* The child's one line; -1 when it is missing or short. */
static long parse_sample(const char *line, struct sample *s)
{
    long got;
    unsigned long long allocs;
    if (sscanf(line, "%ld %lf %lf %lf %lf %llu %ld %ld", &got, &s->wall, &s->cpu, &s->sys, &s->server_cpu, &allocs,
               &s->faults, &s->switches) != 8)
        return -1;
    s->allocs = allocs;
    return got;
}

static ssize_t read_line(int fd, char *buf, size_t len)
{
    size_t n = 0;
    while (n + 1 < len) {
        ssize_t r = read(fd, buf + n, len - 1 - n);
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    buf[n] = 0;
    return (ssize_t)n;
}

/* The environment for a child on the shim: this one's, with LD_LIBRARY_PATH having
 * the shim first. Returns a NULL-ended array (static: one child at a time). */
static char **shim_environ(void)
{
    extern char **environ;
    static char *env[1024];
    static char path[8192];
    const char *dir = shim_dir(), *old = getenv("LD_LIBRARY_PATH");
    if (!dir)
        return NULL;
    snprintf(path, sizeof path, "LD_LIBRARY_PATH=%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
    size_t n = 0;
    env[n++] = path;
    for (char **e = environ; *e && n + 1 < sizeof env / sizeof env[0]; e++)
        if (strncmp(*e, "LD_LIBRARY_PATH=", 16) != 0)
            env[n++] = *e;
    env[n] = NULL;
    return env;
}

/* posix_spawn, not fork: glibc's shares the memory until exec (CLONE_VM|CLONE_VFORK),
 * where a fork marks every page of this process copy-on-write, and the next write
 * to each then faults here: ~256 faults per run of a case with a 1 MiB buffer, which
 * showed as one page fault per GetProperty in the rows run in this process. */
static pid_t spawn(char *const argv[], int out_fd, int on_shim)
{
    extern char **environ;
    char **env = on_shim ? shim_environ() : environ;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    sigset_t def;
    pid_t pid = -1;
    if (!env || posix_spawn_file_actions_init(&fa) != 0)
        return -1;
    if (posix_spawnattr_init(&at) == 0) {
        sigemptyset(&def);
        sigaddset(&def, SIGALRM);
        if (posix_spawn_file_actions_adddup2(&fa, out_fd, 1) == 0 && posix_spawnattr_setsigdefault(&at, &def) == 0 &&
            posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF) == 0 &&
            posix_spawn(&pid, argv[0], &fa, &at, argv, env) != 0)
            pid = -1;
        posix_spawnattr_destroy(&at);
    }
    posix_spawn_file_actions_destroy(&fa);
    return pid;
}

long shim_run(const struct library *lib, const char *case_name, const char *server_name, const struct target *t,
              struct sample *out)
{
    char self[4096], count[32], pid[16], line[256];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    int fds[2];
    if (len <= 0 || (lib->on_shim && !shim_dir()) || pipe2(fds, O_CLOEXEC) < 0)
        return -1;
    self[len] = 0;
    snprintf(count, sizeof count, "%ld", t->n);
    snprintf(pid, sizeof pid, "%d", t->server->pid);
    char *argv[] = {self,
                    "--one",
                    (char *)case_name,
                    "--lib",
                    (char *)lib->child_of->name,
                    "--display",
                    (char *)t->server->name,
                    "--server",
                    (char *)server_name,
                    "--server-pid",
                    pid,
                    "--count",
                    count,
                    "--sample",
                    lib->on_shim ? "--shim" : NULL,
                    NULL};
    fflush(NULL);
    pid_t child = spawn(argv, fds[1], lib->on_shim);
    close(fds[1]);
    read_line(fds[0], line, sizeof line);
    close(fds[0]);
    int status;
    if (child < 0 || waitpid(child, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) > 1) {
        fprintf(stderr, "\nxwbench: %s: the child run of %s failed (status %#x)\n", lib->name, case_name,
                child < 0 ? -1 : status);
        return -1;
    }
    return parse_sample(line, out);
}
