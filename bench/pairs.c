// Alternating A/B timing of whole processes, as a skeptic measures them: for each pair, run A
// then B (or B then A, alternating which goes first), each with posix_spawn and wait4, timing
// the wall clock from spawn to reaped exit. Prints per-pair times and ratios (B/A) as TSV; the
// caller computes medians. Fails if a run exits non-zero.
//
//   pairs PAIRS WARMUP ::: A... ::: B...     (":::" since the commands contain "--")
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

extern char** environ;

static double run_once(char** argv) {
    struct timespec start, end;
    pid_t pid;
    int status;
    clock_gettime(CLOCK_MONOTONIC, &start);
    if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ) != 0) {
        perror(argv[0]);
        exit(2);
    }
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "pairs: %s did not exit 0 (status %d)\n", argv[0], status);
        exit(2);
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    return (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
}

int main(int argc, char** argv) {
    if (argc < 6 || strcmp(argv[3], ":::") != 0) {
        fprintf(stderr, "usage: pairs PAIRS WARMUP ::: A... ::: B...\n");
        return 64;
    }
    const int pairs = atoi(argv[1]), warmup = atoi(argv[2]);
    char** a = argv + 4;
    char** b = NULL;
    for (int i = 4; i < argc; ++i)
        if (strcmp(argv[i], ":::") == 0) {
            argv[i] = NULL;
            b = argv + i + 1;
            break;
        }
    if (b == NULL || *b == NULL) {
        fprintf(stderr, "usage: pairs PAIRS WARMUP ::: A... ::: B...\n");
        return 64;
    }
    for (int i = 0; i < warmup; ++i) {
        run_once(a);
        run_once(b);
    }
    printf("pair\ta_ms\tb_ms\tratio\n");
    for (int i = 0; i < pairs; ++i) {
        double ta, tb;
        if (i % 2 == 0) {
            ta = run_once(a);
            tb = run_once(b);
        } else {
            tb = run_once(b);
            ta = run_once(a);
        }
        printf("%d\t%.4f\t%.4f\t%.4f\n", i, ta, tb, tb / ta);
    }
    return 0;
}
