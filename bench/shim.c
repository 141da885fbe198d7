/* shim.c — the rows of the unmodified programs on xwire: a case of Xlib or libxcb run in a child xwbench
 * whose libxcb.so.1 is xwire's (libxcb/ in the build tree), so only the library path differs; and Xlib
 * on Debian's libxcb in a child as well, since a fresh process's heap is not the long-lived driver's. */
#include "shim.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
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

static pid_t spawn(char *const argv[], int out_fd, int pipe_fds[2], int on_shim)
{
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out_fd, 1);
        close(pipe_fds[0]), close(pipe_fds[1]);
        signal(SIGALRM, SIG_DFL);
        if (!on_shim || shim_setenv() == 0)
            execv(argv[0], argv);
        _exit(127);
    }
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
    char *argv[] = {self, "--one", (char *)case_name, "--lib", (char *)lib->child_of->name, "--display",
                    (char *)t->server->name, "--server", (char *)server_name, "--server-pid", pid, "--count",
                    count, "--sample", lib->on_shim ? "--shim" : NULL, NULL};
    fflush(NULL);
    pid_t child = spawn(argv, fds[1], fds, lib->on_shim);
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
