/** A growable list of numbers in a typed array: pushing a sample allocates nothing. */
export class Samples {
  #data = new Float64Array(4096);
  length = 0;

  push(value: number): void {
    if (this.length === this.#data.length) {
      const grown = new Float64Array(this.#data.length * 2);
      grown.set(this.#data);
      this.#data = grown;
    }
    this.#data[this.length++] = value;
  }

  clear(): void {
    this.length = 0;
  }

  /** A copy of the samples, in the order pushed. */
  values(): Float64Array {
    return this.#data.slice(0, this.length);
  }

  /** The p-th percentile (nearest rank, as the bench has always reported); NaN when empty. */
  percentile(p: number): number {
    if (this.length === 0) return Number.NaN;
    const sorted = this.values().sort();
    return sorted[Math.min(this.length - 1, Math.floor((p / 100) * this.length))]!;
  }
}
