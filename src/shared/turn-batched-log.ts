// Hands the log lines of one event-loop turn to the writer in one piece: under load a line per answered request would otherwise cost the writer a write (and a measurement of its buffer) per line.

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
  let batch = '';
  let scheduled = false;
  const pass = () => {
    scheduled = false;
    if (batch === '') return;
    const lines = batch;
    batch = '';
    writer.write(Buffer.from(lines, 'utf8'));
  };
  onExit(() => {
    pass();
    try {
      writer.flushSync();
    } catch {
      // A closed or broken stdout: there is nowhere left to write to.
    }
  });
  return {
    write(line: string) {
      batch += line;
      if (!scheduled) {
        scheduled = true;
        setImmediate(pass);
      }
    },
  };
}
