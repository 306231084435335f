/*
 * Bench helper: synthesises text with libespeak-ng and writes the audio (raw s16le mono) to a file and
 * one line per phoneme event to stdout: "<sample> <phoneme mnemonic>", then "end <samples> <rate>".
 * Usage: espeak-events <voice> <words-per-minute> <pitch 0-99> <out.raw> <text>
 */
#include <espeak-ng/speak_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *out;
static long total;

static int on_synth(short *wav, int n, espeak_EVENT *ev) {
  if (wav && n > 0) {
    fwrite(wav, sizeof(short), (size_t)n, out);
    total += n;
  }
  for (; ev && ev->type != espeakEVENT_LIST_TERMINATED; ev++) {
    if (ev->type == espeakEVENT_PHONEME) printf("%d %s\n", ev->sample, ev->id.string);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: %s voice wpm pitch out.raw text\n", argv[0]);
    return 2;
  }
  int rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, espeakINITIALIZE_PHONEME_EVENTS);
  if (rate <= 0 || espeak_SetVoiceByName(argv[1]) != EE_OK) {
    fprintf(stderr, "espeak-ng: cannot use voice %s\n", argv[1]);
    return 1;
  }
  espeak_SetParameter(espeakRATE, atoi(argv[2]), 0);
  espeak_SetParameter(espeakPITCH, atoi(argv[3]), 0);
  out = fopen(argv[4], "wb");
  if (!out) {
    perror(argv[4]);
    return 1;
  }
  espeak_SetSynthCallback(on_synth);
  espeak_Synth(argv[5], strlen(argv[5]) + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, NULL);
  espeak_Synchronize();
  fclose(out);
  printf("end %ld %d\n", total, rate);
  return 0;
}
