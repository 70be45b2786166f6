// `cfrules serve` stops on SIGTERM even while clients hold connections without sending what they owe: no
// request at all, half the headers, half a body (docs/api.md §1: in-flight requests get at most 10 s).
import { connect, type Socket } from 'node:net';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ServeProcess, startServe } from './serve-process.js';

const running: ServeProcess[] = [];
beforeAll(() => {
  const buildError = inject('cliBuildError');
  if (buildError) throw new Error(`the CLI could not be bundled: ${buildError}`);
});
afterEach(() => {
  // A test that failed (or timed out) must not leave a service running.
  for (const server of running.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  }
});

/** A raw connection, and what it received until it was closed. */
function open(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', () => {}); // a reset is one way of being closed
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

describe('cfrules serve, stopped while clients stall', { timeout: 40_000 }, () => {
  it('closes stalled connections and exits 0 within the bound, naming the requests it cut', async () => {
    const server = await startServe(['--port', '0', '--db', ':memory:']);
    running.push(server);
    const token = /api token +(\S+)/.exec(server.output)?.[1] as string;
    const port = Number(new URL(server.url).port);
    const path = new URL(server.url).pathname;

    const silent = await open(port);
    const partialHeaders = await open(port);
    partialHeaders.socket.write(`GET ${path}/zones HTTP/1.1\r\nHost: localhost\r\n`);
    const partialBody = await open(port);
    partialBody.socket.write(
      `POST ${path}/zones HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n0123456789`,
    );
    // The same, authenticated, so that the service takes the request on: its "100 Continue" says so.
    const inProgress = await open(port);
    inProgress.socket.write(
      `POST ${path}/zones HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n',
    );
    await new Promise<void>((resolve) => {
      const check = () => (inProgress.received().includes('100 Continue') ? resolve() : undefined);
      inProgress.socket.on('data', check);
      check();
    });
    inProgress.socket.write('0123456789');

    const stoppedAt = Date.now();
    const code = await server.stop('SIGTERM');
    const took = Date.now() - stoppedAt;
    expect(code).toBe(0);
    // The bound is 10 s; start-up of the stop and the exit get a few seconds more.
    expect(took).toBeLessThan(15_000);
    expect(server.output).toMatch(
      /SIGTERM: finishing requests in progress\n(?:.*\n)*cfrules serve: 1 request was still in progress after 10 s: closed its connection\n/,
    );
    await Promise.all([silent.closed, partialHeaders.closed, partialBody.closed, inProgress.closed]);
    expect(server.output).not.toMatch(/internal error/);
  });
});
