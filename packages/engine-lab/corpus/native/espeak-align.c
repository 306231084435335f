/*
 * espeak-align: synthesise English text with libespeak-ng and report where each phoneme starts.
 *
 * Reads jobs from stdin, one per line, tab-separated:
 *   <out.wav> \t <voice[+variant]> \t <rate wpm> \t <pitch 0-99> \t <range 0-99> \t <text>
 * For each job it writes <out.wav> (mono s16le at the library's rate, 22050 Hz) and prints to stdout:
 *   JOB <out.wav> <sampleRate>
 *   PH <sample> <phoneme mnemonic>      (one per espeakEVENT_PHONEME, in order)
 *   END <totalSamples>
 * or, when the job fails, "ERR <out.wav> <reason>" (the batch carries on).
 *
 * Phoneme times are the raw event positions: for stops, espeak-ng reports the release, and the
 * caller (corpus/labels.ts, shiftStopOnsets) moves the onset back to the start of the silent
 * closure it finds in the audio just before the release; see corpus/README.md.
 * Why a batch over stdin: initialising espeak-ng and loading voices costs more than synthesising a
 * short sentence, so one process serves many utterances.
 */
#include <espeak-ng/speak_lib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int16_t *pcm;
  size_t n, cap;
} Capture;

static Capture cap;

static void push_samples(const short *wav, int count) {
  if (cap.n + (size_t)count > cap.cap) {
    size_t next = cap.cap ? cap.cap * 2 : 1 << 16;
    while (next < cap.n + (size_t)count) next *= 2;
    int16_t *grown = realloc(cap.pcm, next * sizeof(int16_t));
    if (!grown) {
      fprintf(stderr, "espeak-align: out of memory\n");
      exit(3);
    }
    cap.pcm = grown;
    cap.cap = next;
  }
  memcpy(cap.pcm + cap.n, wav, (size_t)count * sizeof(int16_t));
  cap.n += (size_t)count;
}

/* Phoneme events are buffered and printed once synthesis finished, with positions in samples. */
typedef struct {
  long sample;
  char name[9];
} PhEvent;
static PhEvent *events;
static size_t n_events, cap_events;

static int on_synth(short *wav, int numsamples, espeak_EVENT *ev) {
  if (wav && numsamples > 0) push_samples(wav, numsamples);
  for (; ev && ev->type != espeakEVENT_LIST_TERMINATED; ev++) {
    if (ev->type != espeakEVENT_PHONEME) continue;
    if (n_events == cap_events) {
      cap_events = cap_events ? cap_events * 2 : 256;
      events = realloc(events, cap_events * sizeof(PhEvent));
      if (!events) {
        fprintf(stderr, "espeak-align: out of memory\n");
        exit(3);
      }
    }
    PhEvent *p = &events[n_events++];
    p->sample = ev->sample;
    memcpy(p->name, ev->id.string, 8);
    p->name[8] = 0;
  }
  return 0;
}

static void put_le(FILE *f, uint32_t v, int bytes) {
  for (int i = 0; i < bytes; i++) fputc((v >> (8 * i)) & 0xff, f);
}

static int write_wav(const char *path, const int16_t *pcm, size_t n, int rate) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  uint32_t data_bytes = (uint32_t)(n * 2);
  fwrite("RIFF", 1, 4, f);
  put_le(f, 36 + data_bytes, 4);
  fwrite("WAVEfmt ", 1, 8, f);
  put_le(f, 16, 4);
  put_le(f, 1, 2); /* PCM */
  put_le(f, 1, 2); /* mono */
  put_le(f, (uint32_t)rate, 4);
  put_le(f, (uint32_t)rate * 2, 4);
  put_le(f, 2, 2);
  put_le(f, 16, 2);
  fwrite("data", 1, 4, f);
  put_le(f, data_bytes, 4);
  for (size_t i = 0; i < n; i++) put_le(f, (uint16_t)pcm[i], 2);
  return fclose(f);
}

int main(void) {
  int rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, espeakINITIALIZE_PHONEME_EVENTS);
  if (rate <= 0) {
    fprintf(stderr, "espeak-align: espeak_Initialize failed; install espeak-ng-data (bash scripts/setup.sh)\n");
    return 2;
  }
  espeak_SetSynthCallback(on_synth);

  char *line = NULL;
  size_t line_cap = 0;
  ssize_t len;
  while ((len = getline(&line, &line_cap, stdin)) > 0) {
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
    if (len == 0) continue;
    char *fields[6];
    int nf = 0;
    char *cursor = line;
    while (nf < 5) {
      char *tab = strchr(cursor, '\t');
      if (!tab) break;
      *tab = 0;
      fields[nf++] = cursor;
      cursor = tab + 1;
    }
    fields[nf++] = cursor;
    if (nf != 6) {
      printf("ERR %s expected 6 tab-separated fields\n", fields[0]);
      fflush(stdout);
      continue;
    }
    const char *out = fields[0], *voice = fields[1], *text = fields[5];
    if (espeak_SetVoiceByName(voice) != EE_OK) {
      printf("ERR %s unknown voice %s\n", out, voice);
      fflush(stdout);
      continue;
    }
    espeak_SetParameter(espeakRATE, atoi(fields[2]), 0);
    espeak_SetParameter(espeakPITCH, atoi(fields[3]), 0);
    espeak_SetParameter(espeakRANGE, atoi(fields[4]), 0);

    cap.n = 0;
    n_events = 0;
    /* Event sample positions restart at 0 with each espeak_Synth call, so they index this job's
       audio. espeak-ng does carry some state from one utterance into the next (boundaries snap to
       pitch periods), so a job's exact timings, always consistent with its own audio, can differ by
       a few ms depending on what this process synthesised before it; re-initialising the library
       per job would avoid that but hangs espeak_Synchronize in espeak-ng 1.51. */
    espeak_ERROR err = espeak_Synth(text, strlen(text) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, NULL);
    if (err != EE_OK) {
      printf("ERR %s espeak_Synth failed (%d)\n", out, (int)err);
      fflush(stdout);
      continue;
    }
    espeak_Synchronize();
    if (write_wav(out, cap.pcm, cap.n, rate) != 0) {
      printf("ERR %s cannot write wav\n", out);
      fflush(stdout);
      continue;
    }
    printf("JOB %s %d\n", out, rate);
    for (size_t i = 0; i < n_events; i++) printf("PH %ld %s\n", events[i].sample, events[i].name);
    printf("END %zu\n", cap.n);
    fflush(stdout);
  }
  free(line);
  free(cap.pcm);
  free(events);
  espeak_Terminate();
  return 0;
}
