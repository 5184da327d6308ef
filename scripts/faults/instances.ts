// The built service as a child process: started, killed and stopped on purpose, and watched for exits nobody asked for.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { call } from './client.js';

export interface Exit {
  instance: string;
  code: number | null;
  signal: string | null;
  at: number;
}

export interface InstanceOptions {
  name: string;
  port: number;
  env: Record<string, string>;
  logDir: string;
  /** Called when the process ends without a signal or stop from us. */
  onUnexpectedExit: (exit: Exit) => void;
}

export class ServiceInstance {
  readonly origin: string;
  private child: ChildProcess | null = null;
  private expectingExit = false;
  private readonly log: WriteStream;
  /** Warning and error lines the process has logged so far (LOG_LEVEL=warn, so every line is one). */
  logLines = 0;
  stackTraces = 0;

  constructor(private readonly options: InstanceOptions) {
    this.origin = `http://127.0.0.1:${options.port}`;
    this.log = createWriteStream(join(options.logDir, `${options.name}.log`), { flags: 'a' });
  }

  get name(): string {
    return this.options.name;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Spawns `node dist/cli.js serve`; does not wait for it to answer. */
  spawn(): void {
    this.expectingExit = false;
    const child = spawn(process.execPath, ['dist/cli.js', 'serve'], {
      env: { ...process.env, ...this.options.env, PORT: String(this.options.port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    let partial = '';
    let inFrames = false;
    const onOutput = (chunk: Buffer) => {
      this.log.write(chunk);
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (line.trim() === '') continue;
        this.logLines += 1;
        // A logged error with its stack, or the first frame of a stack printed as text.
        const frame = /^\s+at \S/.test(line);
        if (/"stack"\s*:/.test(line) || (frame && !inFrames)) this.stackTraces += 1;
        inFrames = frame;
      }
    };
    child.stdout?.on('data', onOutput);
    child.stderr?.on('data', onOutput);
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      if (!this.expectingExit) this.options.onUnexpectedExit({ instance: this.name, code, signal, at: Date.now() });
    });
  }

  /** Spawns and waits until /readyz answers 200. */
  async start(limitMs = 60_000): Promise<void> {
    this.spawn();
    const giveUpAt = Date.now() + limitMs;
    while (Date.now() < giveUpAt) {
      if ((await call(this.origin, '/readyz')).status === 200) return;
      if (!this.running) throw new Error(`instance ${this.name} exited during start; see its log`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`instance ${this.name} did not become ready in ${limitMs} ms`);
  }

  /** Sends `signal` and waits for the exit; resolves with the exit code and how long it took. */
  async signal(signal: NodeJS.Signals): Promise<{ code: number | null; signal: string | null; ms: number }> {
    const child = this.child;
    if (!child || !this.running) throw new Error(`instance ${this.name} is not running`);
    this.expectingExit = true;
    const started = performance.now();
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once('exit', (code, sig) => resolve({ code, signal: sig })),
    );
    child.kill(signal);
    const result = await exited;
    return { ...result, ms: Math.round(performance.now() - started) };
  }

  async close(): Promise<void> {
    if (this.running) await this.signal('SIGKILL');
    await new Promise((resolve) => this.log.end(resolve));
  }
}
