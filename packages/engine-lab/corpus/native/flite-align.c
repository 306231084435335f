/*
 * flite-align: synthesises English with flite's CMU clustergen voice awb (a statistical
 * parametric voice of the ARCTIC speaker awb, 16 kHz; the other ARCTIC speakers are reserved for the
 * independent evaluation and not linked) and writes each utterance's segment end times
 * in Festival's `utt.save.segs` format, so the corpus reads them like Festival's.
 *
 * Jobs on stdin, one per line: out.wav \t voice (awb) \t duration stretch \t F0 mean (Hz) \t text.
 * Writes out.wav (RIFF, mono s16) and out.wav.segs, then prints `DONE out.wav` per job.
 * Build: gcc -O2 -o flite-align flite-align.c -I/usr/include/flite -lflite_cmu_us_awb
 *        -lflite_usenglish -lflite_cmulex -lflite -lm  (Debian flite1-dev)
 */
#include <flite.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cst_voice *register_cmu_us_awb(const char *voxdir);

int main(void) {
  flite_init();
  cst_voice *awb = register_cmu_us_awb(NULL);
  static char line[16384];
  char segs[4200];
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\n")] = 0;
    if (!line[0]) continue;
    char *out = strtok(line, "\t");
    char *voice = strtok(NULL, "\t");
    char *stretch = strtok(NULL, "\t");
    char *f0 = strtok(NULL, "\t");
    char *text = strtok(NULL, "");
    if (!text) {
      fprintf(stderr, "flite-align: a job needs 5 tab-separated fields\n");
      return 2;
    }
    cst_voice *v = strcmp(voice, "awb") == 0 ? awb : NULL;
    if (!v) {
      fprintf(stderr, "flite-align: unknown voice %s (only awb)\n", voice);
      return 2;
    }
    feat_set_float(v->features, "duration_stretch", (float)atof(stretch));
    feat_set_float(v->features, "int_f0_target_mean", (float)atof(f0));
    cst_utterance *u = flite_synth_text(text, v);
    cst_wave *w = utt_wave(u);
    if (cst_wave_save_riff(w, out) != 0) {
      fprintf(stderr, "flite-align: cannot write %s\n", out);
      return 1;
    }
    snprintf(segs, sizeof segs, "%s.segs", out);
    FILE *f = fopen(segs, "w");
    if (!f) {
      fprintf(stderr, "flite-align: cannot write %s\n", segs);
      return 1;
    }
    fprintf(f, "#\n");
    for (cst_item *s = relation_head(utt_relation(u, "Segment")); s; s = item_next(s))
      fprintf(f, "%.5f 100 %s\n", item_feat_float(s, "end"), item_feat_string(s, "name"));
    fclose(f);
    printf("DONE %s\n", out);
    fflush(stdout);
    delete_utterance(u);
  }
  return 0;
}
