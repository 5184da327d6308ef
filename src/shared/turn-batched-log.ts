// Hands the log lines of one event-loop turn to the writer in one piece: under load a line per answered request would otherwise cost the writer a write (and a measurement of its buffer) per line.
import { endOfTurn } from './end-of-turn.js';

/** What the batch is handed to: pino's SonicBoom destination in buffer mode has both. */
export interface LogWriter {
  write(chunk: Buffer): unknown;
  /** Writes everything still buffered before the process ends. */
  flushSync(): void;
}

/**
 * A pino destination stream that appends each line to the turn's batch and passes the batch on, encoded once as
 * UTF-8, once the turn's I/O callbacks have run (`setImmediate`). Handed a string, SonicBoom would measure it twice
 * and encode it again after writing it. Lines still waiting when the process exits (`process.exit` after a fatal
 * line) are written synchronously in the exit handler, so batching loses nothing the writer would have kept.
 */
export function turnBatchedLog(
  writer: LogWriter,
  onExit: (listener: () => void) => void,
): { write(line: string): void } {
  const lines = endOfTurn<string>((batch) => writer.write(Buffer.from(batch.join(''), 'utf8')));
  onExit(() => {
    lines.settle();
    try {
      writer.flushSync();
    } catch {
      // A closed or broken stdout: there is nowhere left to write to.
    }
  });
  return { write: (line) => lines.add(line) };
}
