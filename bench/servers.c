/* SPDX-License-Identifier: MIT */
/* servers.c — starts and stops the servers the cases run against: a real Xvfb, and the fake servers
 * of drain.c, each forked into its own process on a free display number. */
#include "drain.h"
#include "servers.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Servers still running, for cleanup from atexit and signal handlers. */
static struct server *live[SERVER_COUNT];

/* In a freshly forked child: die with the benchmark, however it ends, and drop the
 * benchmark's own signal handling. */
static void die_with_parent(pid_t parent)
{
    for (int sig = 1; sig < NSIG; sig++)
        signal(sig, SIG_DFL); /* fails harmlessly for SIGKILL, SIGSTOP */
    alarm(0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(1);
}

static void exec_xvfb(int displayfd, pid_t parent)
{
    die_with_parent(parent);
    int devnull = open("/dev/null", O_RDWR);
    if (devnull >= 0 && !getenv("XWBENCH_VERBOSE")) {
        dup2(devnull, 1);
        dup2(devnull, 2);
    }
    fcntl(displayfd, F_SETFD, 0); /* the one fd Xvfb must inherit */
    char fdstr[16];
    snprintf(fdstr, sizeof fdstr, "%d", displayfd);
    execlp("Xvfb", "Xvfb", "-displayfd", fdstr, "-nolisten", "tcp", "-noreset", "-screen", "0", "1280x1024x24",
           (char *)NULL);
    _exit(127);
}

/* Xvfb writes its display number to the pipe once it accepts connections. */
static int read_display(int fd, int timeout_ms)
{
    char buf[32];
    size_t len = 0;
    while (len < sizeof buf - 1) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, timeout_ms) <= 0)
            return -1;
        ssize_t n = read(fd, buf + len, sizeof buf - 1 - len);
        if (n <= 0)
            return -1;
        len += (size_t)n;
        if (memchr(buf, '\n', len))
            break;
    }
    buf[len] = 0;
    return atoi(buf);
}

int server_start_xvfb(struct server *s)
{
    int fds[2];
    memset(s, 0, sizeof *s);
    s->kind = SERVER_XVFB;
    if (pipe2(fds, O_CLOEXEC) < 0)
        return -1;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0)
        exec_xvfb(fds[1], parent);
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        return -1;
    }
    s->pid = pid;
    live[SERVER_XVFB] = s;
    s->display = read_display(fds[0], 20000);
    close(fds[0]);
    if (s->display < 0) {
        fprintf(stderr, "xwbench: Xvfb did not start (is the xvfb package installed?)\n");
        server_stop(s);
        return -1;
    }
    snprintf(s->name, sizeof s->name, ":%d", s->display);
    return 0;
}

/* Binds and listens on addr; -1 when the name is taken. */
static int listen_on(const struct sockaddr_un *addr, socklen_t len)
{
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (bind(fd, (const struct sockaddr *)addr, len) < 0 || listen(fd, 16) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* A lock file whose process is gone (a benchmark killed outright) is removed, as X
 * servers do; 0 when it was. */
static int remove_stale_lock(const char *path)
{
    char buf[16] = {0};
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    long pid = n > 0 ? strtol(buf, NULL, 10) : 0;
    if (pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
        return -1;
    return unlink(path);
}

/* Claims display n the way X servers do: an exclusive lock file naming our pid, then
 * the abstract socket (a bind that fails means another server has it), then the
 * filesystem socket, whose old file the lock makes ours to replace. */
static int claim_display(struct server *s, int n, int fds[2])
{
    snprintf(s->lock, sizeof s->lock, "/tmp/.X%d-lock", n);
    int lock = open(s->lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
    if (lock < 0 && errno == EEXIST && remove_stale_lock(s->lock) == 0)
        lock = open(s->lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
    if (lock < 0)
        return -1;
    char pid[16];
    int len = snprintf(pid, sizeof pid, "%10d\n", (int)getpid());
    int ok = write(lock, pid, (size_t)len) == len;
    close(lock);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path + 1, sizeof addr.sun_path - 1, "/tmp/.X11-unix/X%d", n);
    socklen_t alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(addr.sun_path + 1));
    fds[0] = ok ? listen_on(&addr, alen) : -1;
    if (fds[0] < 0) {
        unlink(s->lock);
        return -1;
    }
    snprintf(s->sock, sizeof s->sock, "/tmp/.X11-unix/X%d", n);
    memcpy(addr.sun_path, s->sock, sizeof s->sock);
    unlink(s->sock);
    fds[1] = listen_on(&addr, sizeof addr);
    if (fds[1] < 0) {
        close(fds[0]);
        unlink(s->lock);
        return -1;
    }
    return 0;
}

int server_start_fake(struct server *s, enum server_kind kind)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    mkdir("/tmp/.X11-unix", 01777);
    int fds[2];
    int n = 64;
    while (n < 1024 && claim_display(s, n, fds) < 0)
        n++;
    if (n == 1024) {
        fprintf(stderr, "xwbench: no free display number for a fake server\n");
        return -1;
    }
    s->display = n;
    snprintf(s->name, sizeof s->name, ":%d", n);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        die_with_parent(parent);
        signal(SIGPIPE, SIG_IGN); /* a client gone mid-write is an error return */
        drain_serve(kind, fds, 2);
    }
    close(fds[0]);
    close(fds[1]);
    if (pid < 0) {
        unlink(s->sock);
        unlink(s->lock);
        return -1;
    }
    s->pid = pid;
    live[kind] = s;
    return 0;
}

/* Async-signal-safe: kill, waitpid and unlink only. */
void server_stop(struct server *s)
{
    if (s->pid > 0) {
        kill(s->pid, SIGTERM);
        waitpid(s->pid, NULL, 0);
        s->pid = 0;
    }
    if (s->sock[0])
        unlink(s->sock);
    if (s->lock[0])
        unlink(s->lock);
    s->sock[0] = s->lock[0] = 0;
    live[s->kind] = NULL;
}

void servers_stop_all(void)
{
    for (int i = 0; i < SERVER_COUNT; i++)
        if (live[i])
            server_stop(live[i]);
}

/* The server process's CPU clock: every thread's time on a CPU, in nanoseconds, for
 * Xvfb and the fake servers alike. A process's clock is readable by any process that
 * sees its pid, so a child xwbench given --server-pid reads it as the driver does. */
double server_cpu_seconds(const struct server *s)
{
    clockid_t clock;
    struct timespec t;
    if (s->pid <= 0 || clock_getcpuclockid(s->pid, &clock) || clock_gettime(clock, &t) < 0)
        return -1;
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Every thread of the server (Xvfb may start more than one) on that one CPU: a
 * thread created later inherits it from its creator. */
int server_pin(const struct server *s, int cpu)
{
    char dir[64];
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    snprintf(dir, sizeof dir, "/proc/%d/task", (int)s->pid);
    DIR *d = s->pid > 0 ? opendir(dir) : NULL;
    if (!d)
        return -1;
    int err = 0, any = 0;
    for (struct dirent *e; (e = readdir(d));) {
        long tid = strtol(e->d_name, NULL, 10);
        if (tid <= 0)
            continue;
        any = 1;
        err |= sched_setaffinity((pid_t)tid, sizeof set, &set);
    }
    closedir(d);
    return any && !err ? 0 : -1;
}
