// A real LSP client for the tests: it starts the built `cfrules lsp` (bin/cfrules.js, bundled by
// test/cli/build-once.ts) and talks JSON-RPC to it over its standard input and output, as an editor does.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import {
  ConfigurationRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  type InitializeResult,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';

const bin = fileURLToPath(new URL('../../bin/cfrules.js', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

export interface TestClient {
  connection: ProtocolConnection;
  child: ChildProcessWithoutNullStreams;
  initialize: InitializeResult;
  /** Everything the server wrote on standard error. */
  stderr: () => string;
  open(uri: string, languageId: string, text: string): Promise<void>;
  change(uri: string, version: number, changes: TextDocumentContentChangeEvent[]): Promise<void>;
  /** The next diagnostics published for `uri` that satisfy `until` (by default: any). */
  diagnostics(
    uri: string,
    until?: (params: PublishDiagnosticsParams) => boolean,
  ): Promise<PublishDiagnosticsParams>;
  /** Shuts the server down as an editor does (shutdown, exit); resolves with its exit code. */
  close(): Promise<number | null>;
}

/** `settings`: what the client answers to workspace/configuration; `'never'`: it never answers. */
export async function startClient(settings: Record<string, unknown> | 'never' = {}): Promise<TestClient> {
  const error = inject('cliBuildError');
  if (error) throw new Error(`the CLI could not be bundled (test/cli/build-once.ts):\n${error}`);
  const child = spawn(process.execPath, [bin, 'lsp', '--stdio'], { cwd: root });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const published: PublishDiagnosticsParams[] = [];
  const waiters: {
    uri: string;
    until: (p: PublishDiagnosticsParams) => boolean;
    resolve: (p: PublishDiagnosticsParams) => void;
  }[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    const waiter = waiters.find((w) => w.uri === params.uri && w.until(params));
    if (waiter) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(params);
    } else published.push(params);
  });
  connection.onRequest(ConfigurationRequest.type, (params) =>
    settings === 'never' ? new Promise<never>(() => {}) : params.items.map(() => settings),
  );
  connection.listen();
  const initialize = await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: { workspace: { configuration: true } },
  });
  await connection.sendNotification(InitializedNotification.type, {});
  return {
    connection,
    child,
    initialize,
    stderr: () => stderr,
    async open(uri, languageId, text) {
      await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId, version: 1, text },
      });
    },
    async change(uri, version, contentChanges) {
      await connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version },
        contentChanges,
      });
    },
    diagnostics(uri, until = () => true) {
      const index = published.findIndex((p) => p.uri === uri && until(p));
      if (index >= 0) return Promise.resolve(published.splice(index, 1)[0] as PublishDiagnosticsParams);
      return new Promise((resolve) => waiters.push({ uri, until, resolve }));
    },
    async close() {
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      const code = await exited;
      connection.dispose();
      return code;
    },
  };
}
