/*
 * make bench's plain C pipeline: what a careful script over the same C libraries does for each
 * recording, one after another on one core, and nothing more:
 *   libsndfile reads it (any container), mixed to mono;
 *   trim: 5 ms blocks, the noise floor as the quietest block, everything between the first and
 *     last block 6 dB above it kept with 20 ms of pad;
 *   libsamplerate SINC_FASTEST to 44.1 kHz (a take at 44.1 kHz is left as it is);
 *   libebur128 with true peak: the whole clip's loudness (the window its length) and true peak;
 *   one gain to -16 LUFS (lowered so the true peak stays under -1 dBTP), 16-bit, written as CAF.
 * No limiter, no level for the set, no hashing, no manifest: a floor for soundset's CPU, not a peer.
 * Usage: baseline OUTDIR FILE...
 */
#include <ebur128.h>
#include <math.h>
#include <samplerate.h>
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int process(const char *path, const char *outdir) {
    SF_INFO info = {0};
    SNDFILE *in = sf_open(path, SFM_READ, &info);
    if (!in) { fprintf(stderr, "%s: %s\n", path, sf_strerror(NULL)); return 1; }
    sf_count_t frames = info.frames;
    float *interleaved = malloc(sizeof(float) * (size_t)frames * (size_t)info.channels);
    frames = sf_readf_float(in, interleaved, frames);
    sf_close(in);
    float *mono = malloc(sizeof(float) * (size_t)frames);
    for (sf_count_t i = 0; i < frames; i++) {
        float sum = 0;
        for (int c = 0; c < info.channels; c++) sum += interleaved[i * info.channels + c];
        mono[i] = sum / (float)info.channels;
    }
    free(interleaved);

    /* Trim by 5 ms block energies against the quietest block. */
    int block = info.samplerate / 200;
    sf_count_t blocks = frames / block;
    double floor = INFINITY;
    double *energy = malloc(sizeof(double) * (size_t)(blocks > 0 ? blocks : 1));
    for (sf_count_t b = 0; b < blocks; b++) {
        double sum = 1e-12;
        for (int i = 0; i < block; i++) sum += (double)mono[b * block + i] * mono[b * block + i];
        energy[b] = 10 * log10(sum / block);
        if (energy[b] < floor) floor = energy[b];
    }
    sf_count_t first = 0, last = blocks - 1;
    while (first < blocks && energy[first] < floor + 6) first++;
    while (last > first && energy[last] < floor + 6) last--;
    free(energy);
    sf_count_t pad = info.samplerate / 50;
    sf_count_t start = first * block - pad < 0 ? 0 : first * block - pad;
    sf_count_t end = (last + 1) * block + pad > frames ? frames : (last + 1) * block + pad;
    if (end <= start) { start = 0; end = frames; }

    /* Resample the kept part to 44.1 kHz. */
    double ratio = 44100.0 / info.samplerate;
    long outFrames = (long)((double)(end - start) * ratio) + 64;
    float *resampled = malloc(sizeof(float) * (size_t)outFrames);
    SRC_DATA data = {0};
    data.data_in = mono + start;
    data.input_frames = (long)(end - start);
    data.data_out = resampled;
    data.output_frames = outFrames;
    data.src_ratio = ratio;
    long count = (long)(end - start);
    if (info.samplerate == 44100) {
        memcpy(resampled, mono + start, sizeof(float) * (size_t)count);
    } else {
        int error = src_simple(&data, SRC_SINC_FASTEST, 1);
        if (error) { fprintf(stderr, "%s: %s\n", path, src_strerror(error)); free(mono); free(resampled); return 1; }
        count = data.output_frames_gen;
    }
    free(mono);

    /* Loudness over the whole clip, and its true peak. The clip is fed in blocks of the default
     * 400 ms window, each block's energy read as it completes (growing the window with
     * ebur128_set_max_window costs more than the rest of this program on libebur128 1.2.6). */
    ebur128_state *meter = ebur128_init(1, 44100, EBUR128_MODE_M | EBUR128_MODE_TRUE_PEAK);
    long blockFrames = 44100 * 400 / 1000, fed = 0;
    double sum = 0;
    long remainder = count % blockFrames;
    if (remainder > 0) {
        ebur128_add_frames_float(meter, resampled, (size_t)remainder);
        double window = -INFINITY;
        unsigned long ms = (unsigned long)(remainder * 1000 / 44100);
        if (ms > 0 && ebur128_loudness_window(meter, ms, &window) == EBUR128_SUCCESS && isfinite(window))
            sum += pow(10, (window + 0.691) / 10) * (double)remainder;
        fed = remainder;
    }
    for (; fed < count; fed += blockFrames) {
        ebur128_add_frames_float(meter, resampled + fed, (size_t)blockFrames);
        double window = -INFINITY;
        if (ebur128_loudness_window(meter, 400, &window) == EBUR128_SUCCESS && isfinite(window))
            sum += pow(10, (window + 0.691) / 10) * (double)blockFrames;
    }
    double loudness = sum > 0 ? -0.691 + 10 * log10(sum / (double)count) : -INFINITY, peak = 0;
    ebur128_true_peak(meter, 0, &peak);
    ebur128_destroy(&meter);

    double gain = isfinite(loudness) ? pow(10, (-16 - loudness) / 20) : 1;
    if (peak * gain > pow(10, -1 / 20.0)) gain = pow(10, -1 / 20.0) / peak;
    short *pcm = malloc(sizeof(short) * (size_t)count);
    for (long i = 0; i < count; i++) {
        double value = resampled[i] * gain * 32768;
        pcm[i] = (short)(value > 32767 ? 32767 : value < -32768 ? -32768 : lround(value));
    }
    free(resampled);

    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    char target[4096];
    snprintf(target, sizeof target, "%s/%.*s.caf", outdir, (int)(strrchr(name, '.') ? strrchr(name, '.') - name : (long)strlen(name)), name);
    SF_INFO outInfo = {0};
    outInfo.samplerate = 44100;
    outInfo.channels = 1;
    outInfo.format = SF_FORMAT_CAF | SF_FORMAT_PCM_16;
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
