// Whole-process start-up of several lock CLIs against one baseline, as a pipeline sees it: each
// run's stdout and stderr go to a pipe read to EOF (as `$(...)` or `| cat` would), then the
// process is reaped; the time is spawn to EOF-and-reaped. For each of PAIRS rounds, each
// command B runs in a pair with the baseline A, which of the two goes first alternating by
// round. Prints TSV: round, B's index (1-based), A ms, B ms, B/A. Fails if a run exits non-zero.
//
//   eofpairs PAIRS WARMUP ::: A... ::: B1... [::: B2... ...]
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char** environ;

enum { MAX_COMMANDS = 16 };

static double run_to_eof(char** argv) {
    struct timespec start, end;
    int fds[2], status;
    pid_t pid;
    char buf[4096];
    posix_spawn_file_actions_t actions;
    clock_gettime(CLOCK_MONOTONIC, &start);
    if (pipe2(fds, O_CLOEXEC) != 0) {
        perror("pipe2");
        exit(2);
    }
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
    if (posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ) != 0) {
        perror(argv[0]);
        exit(2);
    }
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    while (read(fds[0], buf, sizeof buf) > 0) {
    }
    close(fds[0]);
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "eofpairs: %s did not exit 0 (status %d)\n", argv[0], status);
        exit(2);
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    return (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
}

static void usage(void) {
    fprintf(stderr, "usage: eofpairs PAIRS WARMUP ::: A... ::: B1... [::: B2... ...]\n");
    exit(64);
}

int main(int argc, char** argv) {
    char** commands[MAX_COMMANDS];
    int n = 0;
    if (argc < 6 || strcmp(argv[3], ":::") != 0)
        usage();
    for (int i = 3; i < argc; ++i)
        if (strcmp(argv[i], ":::") == 0) {
            argv[i] = NULL;
            if (n == MAX_COMMANDS || i + 1 == argc || strcmp(argv[i + 1], ":::") == 0)
                usage();
            commands[n++] = argv + i + 1;
        }
    if (n < 2)
        usage();
    const int pairs = atoi(argv[1]), warmup = atoi(argv[2]);
    for (int i = 0; i < warmup; ++i)
        for (int c = 0; c < n; ++c)
            run_to_eof(commands[c]);
    printf("round\tcommand\ta_ms\tb_ms\tratio\n");
    for (int i = 0; i < pairs; ++i)
        for (int c = 1; c < n; ++c) {
            double ta, tb;
            if (i % 2 == 0) {
                ta = run_to_eof(commands[0]);
                tb = run_to_eof(commands[c]);
            } else {
                tb = run_to_eof(commands[c]);
                ta = run_to_eof(commands[0]);
            }
            printf("%d\t%d\t%.4f\t%.4f\t%.4f\n", i, c, ta, tb, tb / ta);
        }
    return 0;
}
