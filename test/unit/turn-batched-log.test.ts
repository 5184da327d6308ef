// The process's log lines reach the writer once per event-loop turn, in order, and none is left behind at exit.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { turnBatchedLog, type LogWriter } from '../../src/shared/turn-batched-log.js';

function recordingWriter(flushSync: () => void = () => undefined) {
  const writes: string[] = [];
  const writer: LogWriter = { write: (chunk) => writes.push(chunk.toString('utf8')), flushSync };
  return { writer, writes };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('turnBatchedLog', () => {
  it('hands the lines of one turn to the writer in one write, in order, and the next turn in another', async () => {
    const { writer, writes } = recordingWriter();
    const stream = turnBatchedLog(writer, () => undefined);
    stream.write('a\n');
    stream.write('b\n');
    stream.write('c\n');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['a\nb\nc\n']);

    stream.write('d\n');
    await nextTurn();
    await nextTurn();
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('writes nothing on a turn without lines', async () => {
    const { writer, writes } = recordingWriter();
    turnBatchedLog(writer, () => undefined);
    await nextTurn();
    expect(writes).toEqual([]);
  });

  it('at exit writes the waiting lines and flushes the writer synchronously, even when the flush fails', () => {
    const events: string[] = [];
    const writer: LogWriter = {
      write: (chunk) => events.push(`write ${chunk.toString('utf8')}`),
      flushSync: () => {
        events.push('flushSync');
        throw new Error('EBADF');
      },
    };
    let atExit: (() => void) | undefined;
    const stream = turnBatchedLog(writer, (listener) => (atExit = listener));
    stream.write('fatal\n');
    expect(() => atExit?.()).not.toThrow();
    expect(events).toEqual(['write fatal\n', 'flushSync']);
  });

  it('carries pino lines unchanged', async () => {
    const { writer, writes } = recordingWriter();
    const log = pino(
      { base: null, timestamp: false },
      turnBatchedLog(writer, () => undefined),
    );
    log.info({ reqId: 'r1' }, 'request completed');
    log.warn('ünïcode "quoted"');
    await nextTurn();
    expect(writes).toHaveLength(1);
    expect(
      writes[0]!
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([
      { level: 30, reqId: 'r1', msg: 'request completed' },
      { level: 40, msg: 'ünïcode "quoted"' },
    ]);
  });

  it("reaches a file through pino's SonicBoom in buffer mode, as the process writes stdout", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'subweave-log-'));
    try {
      const file = join(dir, 'out.log');
      const sonic = pino.destination({ dest: file, contentMode: 'buffer', sync: true });
      const log = pino(
        { base: null, timestamp: false },
        turnBatchedLog(sonic as unknown as LogWriter, () => undefined),
      );
      log.info('first');
      log.warn('ünïcode "quoted" …');
      await nextTurn();
      log.info('next turn');
      await nextTurn();
      sonic.flushSync();
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
        'first',
        'ünïcode "quoted" …',
        'next turn',
      ]);
      sonic.end();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
