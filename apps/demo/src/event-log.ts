/** The page's event log: timestamped lines, newest last, capped. */
export type LogKind = 'state' | 'info' | 'error' | 'audio';

const MAX_LINES = 200;

export class EventLog {
  readonly #list: HTMLOListElement;
  readonly #start = performance.now();

  constructor(list: HTMLOListElement) {
    this.#list = list;
  }

  add(kind: LogKind, text: string): void {
    const item = document.createElement('li');
    item.className = `log-${kind}`;
    item.dataset.kind = kind;
    const time = document.createElement('time');
    time.textContent = `${((performance.now() - this.#start) / 1000).toFixed(2).padStart(7, ' ')}s`;
    const tag = document.createElement('span');
    tag.className = 'log-tag';
    tag.textContent = kind;
    const body = document.createElement('span');
    body.className = 'log-text';
    body.textContent = text;
    item.append(time, tag, body);
    const atBottom = this.#list.scrollHeight - this.#list.scrollTop - this.#list.clientHeight < 24;
    this.#list.append(item);
    while (this.#list.childElementCount > MAX_LINES) this.#list.firstElementChild?.remove();
    if (atBottom) this.#list.scrollTop = this.#list.scrollHeight;
  }

  clear(): void {
    this.#list.replaceChildren();
  }
}
