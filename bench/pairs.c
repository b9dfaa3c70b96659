// Alternating A/B timing of whole processes, as a skeptic measures them: for each pair, run A
// then B (or B then A, alternating which goes first), timing the wall clock from spawn to the
// end of the run. Prints per-pair times and ratios (B/A) as TSV; the caller computes medians.
// Fails if a run exits non-zero.
//
//   pairs MODE PAIRS WARMUP ::: A... ::: B...     (":::" since the commands contain "--")
//
// MODE says what "the end of the run" is, and where the output goes:
//   pipe  stdout and stderr are one pipe, read to end of file, as `x=$(cmd 2>&1)` or
//         `cmd 2>&1 | cat` do: the run ends when end of file has been read AND the process has
//         been reaped, whichever comes last. Anything that keeps the pipe open after the
//         process exits (a descendant holding it) counts.
//   wait  stdout and stderr inherited (posix_spawn + waitpid, nothing read): the run ends when
//         the process is reaped. The harness of old, kept to show the difference.
// In pipe mode, the process's exit and the end of file are watched separately (pidfd and pipe
// in one poll), and the TSV also gives, per run, how long end of file came after the exit was
// observable (negative: before it).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char** environ;

static int pipe_mode;

struct run {
    double total_ms;  // spawn to the end of the run (see MODE)
    double eof_lag_ms; // pipe mode: end of file minus exit (0 in wait mode)
};

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void check_status(const char* name, int status) {
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "pairs: %s did not exit 0 (status %d)\n", name, status);
        exit(2);
    }
}

static pid_t spawn(char** argv, int out_fd) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (out_fd >= 0) {
        posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
        posix_spawn_file_actions_adddup2(&actions, out_fd, STDERR_FILENO);
    }
    pid_t pid;
    const int err = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (err != 0) {
        fprintf(stderr, "pairs: %s: %s\n", argv[0], strerror(err));
        exit(2);
    }
    return pid;
}

static struct run run_waited(char** argv) {
    const double start = now_ms();
    const pid_t pid = spawn(argv, -1);
    int status;
    if (waitpid(pid, &status, 0) != pid) {
        perror("waitpid");
        exit(2);
    }
    check_status(argv[0], status);
    return (struct run){now_ms() - start, 0};
}

static struct run run_piped(char** argv) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        perror("pipe2");
        exit(2);
    }
    const double start = now_ms();
    const pid_t pid = spawn(argv, fds[1]);
    close(fds[1]);
    const int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (pidfd < 0) {
        perror("pidfd_open");
        exit(2);
    }
    double eof_at = -1, exit_at = -1;
    char buffer[4096];
    while (eof_at < 0 || exit_at < 0) {
        struct pollfd p[2] = {{eof_at < 0 ? fds[0] : -1, POLLIN, 0},
                              {exit_at < 0 ? pidfd : -1, POLLIN, 0}};
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            perror("poll");
            exit(2);
        }
        if (p[0].revents) {
            const ssize_t n = read(fds[0], buffer, sizeof buffer);
            if (n == 0)
                eof_at = now_ms();
            else if (n > 0)
                (void)!write(STDERR_FILENO, buffer, (size_t)n); // the command's own output
        }
        if (p[1].revents) {
            int status;
            if (waitpid(pid, &status, 0) != pid) {
                perror("waitpid");
                exit(2);
            }
            exit_at = now_ms();
            check_status(argv[0], status);
        }
    }
    close(fds[0]);
    close(pidfd);
    const double end = eof_at > exit_at ? eof_at : exit_at;
    return (struct run){end - start, eof_at - exit_at};
}

static struct run run_once(char** argv) {
    return pipe_mode ? run_piped(argv) : run_waited(argv);
}

static void usage(void) {
    fprintf(stderr, "usage: pairs pipe|wait PAIRS WARMUP ::: A... ::: B...\n");
    exit(64);
}

int main(int argc, char** argv) {
    if (argc < 7 || strcmp(argv[4], ":::") != 0)
        usage();
    if (strcmp(argv[1], "pipe") == 0)
        pipe_mode = 1;
    else if (strcmp(argv[1], "wait") != 0)
        usage();
    const int pairs = atoi(argv[2]), warmup = atoi(argv[3]);
    char** a = argv + 5;
    char** b = NULL;
    for (int i = 5; i < argc; ++i)
        if (strcmp(argv[i], ":::") == 0) {
            argv[i] = NULL;
            b = argv + i + 1;
            break;
        }
    if (b == NULL || *b == NULL)
        usage();
    for (int i = 0; i < warmup; ++i) {
        run_once(a);
        run_once(b);
    }
    printf("pair\ta_ms\tb_ms\tratio\ta_eof_lag_ms\tb_eof_lag_ms\n");
    for (int i = 0; i < pairs; ++i) {
        struct run ra, rb;
        if (i % 2 == 0) {
            ra = run_once(a);
            rb = run_once(b);
        } else {
            rb = run_once(b);
            ra = run_once(a);
        }
        printf("%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\n", i, ra.total_ms, rb.total_ms,
               rb.total_ms / ra.total_ms, ra.eof_lag_ms, rb.eof_lag_ms);
    }
    return 0;
}
