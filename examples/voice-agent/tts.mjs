// A stand-in for your TTS: streams speech-like sound (a voiced vowel with syllable-rate loudness)
// as 24 kHz float32 chunks of 40 ms, paced in real time like a streaming TTS API. Replace it with
// your TTS's stream: any rate, Float32Array or Int16Array chunks of any size.
export async function* tts(text, { sampleRate = 24000, chunkMs = 40 } = {}) {
  const total = Math.round(sampleRate * Math.max(0.8, text.length * 0.07));
  const chunk = Math.round((sampleRate * chunkMs) / 1000);
  const started = Date.now();
  for (let at = 0; at < total; at += chunk) {
    const out = new Float32Array(Math.min(chunk, total - at));
    for (let i = 0; i < out.length; i++) {
      const t = (at + i) / sampleRate;
      const syllable = Math.max(0, Math.sin(Math.PI * 4 * t)) ** 0.6; // ~4 syllables per second
      const voice = 0.5 * Math.sin(2 * Math.PI * 700 * t) + 0.3 * Math.sin(2 * Math.PI * 1200 * t);
      out[i] = 0.5 * syllable * voice * (1 + 0.3 * Math.sin(2 * Math.PI * 120 * t));
    }
    yield out;
    const due = started + ((at + out.length) / sampleRate) * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
  }
}
