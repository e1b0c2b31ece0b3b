/*
 * make bench's C floor: the least work a clip pipeline over soundset's own C libraries does for each
 * recording, one after another on one core. It does what ../shared/bench/limit.c does with TRIM=1
 * and quality 2 (the floor of issue #28's goal), so that soundset is compared with a pipeline that
 * keeps no more of each take than soundset keeps:
 *   libsndfile reads it (any container it knows), mixed to mono;
 *   trim: from the first to the last sample at or above -50 dBFS, with 10 ms of pad each side (the
 *     whole take when no sample gets there);
 *   libsamplerate SINC_FASTEST to 44.1 kHz (a take at 44.1 kHz is left as it is, as soundset does);
 *   libebur128: integrated loudness and true peak of the kept, resampled take;
 *   one gain to -16 LUFS (lowered so the true peak stays at or under -1 dBTP), 16-bit, written as CAF.
 * No limiter, no level for the set, no hashing, no manifest: a floor for soundset's CPU, not a peer.
 * Usage: baseline OUTDIR FILE...   (writes OUTDIR/<name without its extension>.caf)
 */
#include <ebur128.h>
#include <math.h>
#include <samplerate.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TARGET_RATE = 44100 };
static const float TRIM_THRESHOLD = 0.0031622777f; /* -50 dBFS */
static const double TARGET_LUFS = -16, CEILING_DBTP = -1;

/* The take at PATH as mono floats; its frame count and rate through the pointers. NULL on failure. */
static float *read_mono(const char *path, sf_count_t *frames, int *rate) {
    SF_INFO info = {0};
    SNDFILE *file = sf_open(path, SFM_READ, &info);
    if (!file) { fprintf(stderr, "%s: %s\n", path, sf_strerror(NULL)); return NULL; }
    float *samples = malloc(sizeof(float) * (size_t)(info.frames > 0 ? info.frames : 1) * (size_t)info.channels);
    sf_count_t count = sf_readf_float(file, samples, info.frames);
    sf_close(file);
    if (info.channels > 1) { /* mixed down in place: frame i's channels are read before mono[i] is written */
        for (sf_count_t i = 0; i < count; i++) {
            float sum = 0;
            for (int c = 0; c < info.channels; c++) sum += samples[i * info.channels + c];
            samples[i] = sum / (float)info.channels;
        }
    }
    *frames = count;
    *rate = info.samplerate;
    return samples;
}

/* The kept span [*start, *end) of MONO: first to last sample at or above the threshold, padded. */
static void trim(const float *mono, sf_count_t frames, int rate, sf_count_t *start, sf_count_t *end) {
    sf_count_t first = 0, last = frames;
    while (first < last && fabsf(mono[first]) < TRIM_THRESHOLD) first++;
    while (last > first && fabsf(mono[last - 1]) < TRIM_THRESHOLD) last--;
    if (first == last) { *start = 0; *end = frames; return; }
    sf_count_t pad = rate / 100;
    *start = first > pad ? first - pad : 0;
    *end = last + pad < frames ? last + pad : frames;
}

static int process(const char *path, const char *outdir) {
    sf_count_t frames;
    int rate;
    float *mono = read_mono(path, &frames, &rate);
    if (!mono) return 1;
    sf_count_t start, end;
    trim(mono, frames, rate, &start, &end);
    long kept = (long)(end - start);

    /* The kept part at 44.1 kHz. */
    float *clip = mono + start;
    long count = kept;
    float *resampled = NULL;
    if (rate != TARGET_RATE) {
        double ratio = (double)TARGET_RATE / rate;
        long room = (long)ceil(kept * ratio) + 64;
        resampled = malloc(sizeof(float) * (size_t)room);
        SRC_DATA data = {.data_in = clip, .input_frames = kept, .data_out = resampled, .output_frames = room, .src_ratio = ratio};
        int error = src_simple(&data, SRC_SINC_FASTEST, 1);
        if (error) { fprintf(stderr, "%s: %s\n", path, src_strerror(error)); free(mono); free(resampled); return 1; }
        clip = resampled;
        count = data.output_frames_gen;
    }

    /* Integrated loudness and true peak, then one gain. */
    ebur128_state *meter = ebur128_init(1, TARGET_RATE, EBUR128_MODE_I | EBUR128_MODE_TRUE_PEAK);
    ebur128_add_frames_float(meter, clip, (size_t)count);
    double loudness = -HUGE_VAL, peak = 0;
    ebur128_loudness_global(meter, &loudness);
    ebur128_true_peak(meter, 0, &peak);
    ebur128_destroy(&meter);
    double gain = isfinite(loudness) ? pow(10, (TARGET_LUFS - loudness) / 20) : 1;
    double ceiling = pow(10, CEILING_DBTP / 20);
    if (peak * gain > ceiling) gain = ceiling / peak;

    short *pcm = malloc(sizeof(short) * (size_t)(count > 0 ? count : 1));
    for (long i = 0; i < count; i++) {
        double value = clip[i] * gain * 32768;
        pcm[i] = (short)(value > 32767 ? 32767 : value < -32768 ? -32768 : lround(value));
    }
    free(mono);
    free(resampled);

    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    const char *dot = strrchr(name, '.');
    char target[4096];
    snprintf(target, sizeof target, "%s/%.*s.caf", outdir, (int)(dot ? dot - name : (long)strlen(name)), name);
    SF_INFO outInfo = {.samplerate = TARGET_RATE, .channels = 1, .format = SF_FORMAT_CAF | SF_FORMAT_PCM_16};
    SNDFILE *out = sf_open(target, SFM_WRITE, &outInfo);
    if (!out) { fprintf(stderr, "%s: %s\n", target, sf_strerror(NULL)); free(pcm); return 1; }
    sf_write_short(out, pcm, count);
    sf_close(out);
    free(pcm);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: baseline OUTDIR FILE...\n"); return 64; }
    int failed = 0;
    for (int i = 2; i < argc; i++) failed |= process(argv[i], argv[1]);
    return failed;
}
