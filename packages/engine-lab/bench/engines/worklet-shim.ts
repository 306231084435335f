/**
 * Just enough of the Web Audio worklet surface (AudioWorkletNode, AudioWorkletProcessor, MessagePort) for
 * the peers' own node and processor classes to run unmodified in Node. Messages are delivered
 * synchronously, which a browser does within one render quantum; nothing else is emulated.
 */

/** A MessagePort whose messages go straight to its peer's `onmessage`. */
export class PortShim {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  peer: PortShim | null = null;

  postMessage(data: unknown): void {
    this.peer?.onmessage?.({ data });
  }
}

/** Links a node's port with its processor's port. */
export function connectPorts(a: PortShim, b: PortShim): void {
  a.peer = b;
  b.peer = a;
}

/** Stand-in for `AudioWorkletNode`: records what the subclass passed to `super`. */
export class AudioWorkletNodeShim {
  readonly port = new PortShim();
  readonly parameters = new Map<string, { value: number }>();
  constructor(
    readonly context: unknown,
    readonly processorName: string,
    readonly options: Record<string, unknown> = {},
  ) {}
}

/** Stand-in for `AudioWorkletProcessor`. */
export class AudioWorkletProcessorShim {
  readonly port = new PortShim();
}

let installed = false;

/**
 * Installs the node and processor stand-ins as globals, once, before a peer's module that extends them is
 * imported. Processor modules also call `registerProcessor` at load; it is a no-op here.
 */
export function installWorkletGlobals(): void {
  if (installed) return;
  installed = true;
  const g = globalThis as Record<string, unknown>;
  g.AudioWorkletNode ??= AudioWorkletNodeShim;
  g.AudioWorkletProcessor ??= AudioWorkletProcessorShim;
  g.registerProcessor ??= () => {};
}

/** Feeds a float stream to a worklet processor in 128-sample render quanta, as a browser does. */
export class QuantumFeeder {
  static readonly QUANTUM = 128;
  private readonly pending = new Float32Array(QuantumFeeder.QUANTUM);
  private fill = 0;
  /** Samples handed to the processor so far. */
  processed = 0;

  constructor(private readonly run: (quantum: Float32Array, startSample: number) => void) {}

  push(samples: Float32Array): void {
    for (let i = 0; i < samples.length; i++) {
      this.pending[this.fill++] = samples[i]!;
      if (this.fill === QuantumFeeder.QUANTUM) {
        this.run(this.pending, this.processed);
        this.processed += QuantumFeeder.QUANTUM;
        this.fill = 0;
      }
    }
  }
}
