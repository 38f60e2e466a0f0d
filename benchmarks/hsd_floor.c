/* The randomised Tukey HSD null distribution (SPEC 4.3) in C: a compiled reference for benchmarks/hsd.py.
 *
 * Not part of the library. It is the same algorithm as ordeval's numba kernel (ordeval.hsd._null_ranges)
 * with nothing in the way of the compiler: per trial a SplitMix64 stream from the same seed, Fisher-Yates
 * swap indices as batched unbiased Lemire integers drawn exactly as ordeval draws them, every topic's
 * row permuted across systems and added to the system sums in topic order, then (max - min) / topics.
 * For the same seeds it gives the same ranges, bit for bit (benchmarks/hsd.py checks). Its time is what
 * straightforward native code of this algorithm takes on the machine, which puts the "ordeval vs numpy"
 * ratio in proportion (code specialised for one size, with the sizes as compile-time constants, is
 * faster still: about a quarter less time on the machine of the recorded results).
 *
 * Built by benchmarks/baselines.py with the system C compiler:
 *     cc -O3 -march=native -fopenmp -shared -fPIC hsd_floor.c -o libhsd_floor.so
 * The sums use GCC/Clang vector extensions (8 doubles; the compiler maps them to AVX-512, AVX2 or SSE).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef double v8d __attribute__((vector_size(64), aligned(8)));

static const uint64_t GOLDEN = 0x9E3779B97F4A7C15ull, MIX1 = 0xBF58476D1CE4E5B9ull, MIX2 = 0x94D049BB133111EBull;
static const uint64_t LOW32 = 0xFFFFFFFFull;

static inline uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += GOLDEN);
    z = (z ^ (z >> 30)) * MIX1;
    z = (z ^ (z >> 27)) * MIX2;
    return z ^ (z >> 31);
}

/* indices[last] for last = n - 1 .. 1, uniform in [0, last], in ordeval.hsd._swap_indices' order. */
static inline void swap_indices(uint64_t *state, int64_t chunks, const int64_t *starts, const int64_t *lengths,
                                const uint64_t *products, int64_t *indices) {
    uint64_t bits = 0;
    for (int64_t chunk = 0; chunk < chunks; chunk++) {
        uint64_t word;
        if (chunk % 2 == 0) {
            bits = splitmix64(state);
            word = bits >> 32;
        } else {
            word = bits & LOW32;
        }
        const int64_t first = starts[chunk];
        const uint64_t product = products[chunk];
        for (;;) {
            uint64_t low = word;
            for (int64_t step = 0; step < lengths[chunk]; step++) {
                const int64_t last = first - step;
                const uint64_t wide = low * (uint64_t)(last + 1);
                indices[last] = (int64_t)(wide >> 32);
                low = wide & LOW32;
            }
            if (low >= product || low >= ((LOW32 + 1) - product) % product) break;
            word = splitmix64(state) >> 32; /* rare: redraw this chunk */
        }
    }
}

/* scores: topics x systems x width (C order); ranges: trials x measures. */
void null_ranges(const double *scores, int64_t topics, int64_t systems, int64_t width, int64_t measures,
                 const uint64_t *seeds, int64_t trials, int64_t chunks, const int64_t *starts,
                 const int64_t *lengths, const uint64_t *products, int64_t block, int threads, double *ranges) {
    const int64_t blocks = (trials + block - 1) / block;
    const int64_t vectors = width / 8;
#pragma omp parallel for schedule(dynamic) num_threads(threads)
    for (int64_t b = 0; b < blocks; b++) {
        const int64_t first_trial = b * block;
        const int64_t size = first_trial + block <= trials ? block : trials - first_trial;
        uint64_t *states = malloc(sizeof(uint64_t) * size);
        int64_t *permutations = malloc(sizeof(int64_t) * size * systems);
        int64_t *indices = malloc(sizeof(int64_t) * systems);
        double *sums = calloc((size_t)(size * systems * width), sizeof(double));
        memcpy(states, seeds + first_trial, sizeof(uint64_t) * size);
        for (int64_t i = 0; i < size * systems; i++) permutations[i] = i % systems;
        for (int64_t topic = 0; topic < topics; topic++) {
            const double *row = scores + topic * systems * width;
            for (int64_t trial = 0; trial < size; trial++) {
                swap_indices(&states[trial], chunks, starts, lengths, products, indices);
                int64_t *permutation = permutations + trial * systems;
                for (int64_t last = systems - 1; last > 0; last--) {
                    const int64_t other = indices[last], swapped = permutation[last];
                    permutation[last] = permutation[other];
                    permutation[other] = swapped;
                }
                double *trial_sums = sums + trial * systems * width;
                for (int64_t system = 0; system < systems; system++) {
                    const double *source = row + permutation[system] * width;
                    double *target = trial_sums + system * width;
                    for (int64_t v = 0; v < vectors; v++)
                        *(v8d *)(target + 8 * v) += *(const v8d *)(source + 8 * v);
                    for (int64_t m = 8 * vectors; m < width; m++) target[m] += source[m];
                }
            }
        }
        for (int64_t trial = 0; trial < size; trial++) {
            for (int64_t m = 0; m < measures; m++) {
                const double *column = sums + trial * systems * width + m;
                double highest = column[0], lowest = column[0];
                for (int64_t system = 1; system < systems; system++) {
                    const double value = column[system * width];
                    highest = value > highest ? value : highest;
                    lowest = value < lowest ? value : lowest;
                }
                ranges[(first_trial + trial) * measures + m] = (highest - lowest) / (double)topics;
            }
        }
        free(states);
        free(permutations);
        free(indices);
        free(sums);
    }
}
