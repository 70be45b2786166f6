import type { Connection, InitializeParams, InitializeResult } from 'vscode-languageserver';
import { VERSION } from '../version.js';
import { CheckCache, DocumentAnalysis } from './analysis.js';
import { codeActions } from './features/code-actions.js';
import { completion } from './features/completion.js';
import { documentDiagnostics } from './features/diagnostics.js';
import { formatting } from './features/formatting.js';
import { hover } from './features/hover.js';
import { SEMANTIC_TOKENS_LEGEND, semanticTokens } from './features/semantic-tokens.js';
import { signatureHelp } from './features/signature-help.js';
import { lsp, TextDocument } from './protocol.js';
import { allFinders, finderFor, REGION_FINDERS } from './regions/finders.js';
import type { RegionFinder } from './regions/region.js';
import { readSettings, type Settings } from './settings.js';

// The language server: documents in, library calls, answers out. Each request finds the document's
// analysis (made once per version and settings), asks one feature module, and never lets an exception
// reach the connection: a feature that fails answers nothing and logs why, so bad input cannot stop the
// server.

/** How long the first diagnostics wait for the client's settings. */
const SETTINGS_WAIT_MS = 1000;

export interface ServerOptions {
  /** The kinds of document read (REGION_FINDERS by default: .cfrules files and JSON rules files; allFinders adds Terraform). */
  finders?: readonly RegionFinder[];
}

export function startLanguageServer(connection: Connection, options: ServerOptions = {}): void {
  const finders = options.finders ?? REGION_FINDERS;
  const documents = new lsp.TextDocuments(TextDocument);
  let settings: Settings = {};
  /** Bumped when the settings change, so that analyses made with the old ones are made again. */
  let generation = 0;
  let pullsConfiguration = false;
  /** Diagnostics wait for the first settings the client is asked for, so they are not published twice. */
  let settingsRead: Promise<void> = Promise.resolve();
  const analyses = new Map<string, { version: number; generation: number; analysis: DocumentAnalysis }>();
  const caches = new Map<string, CheckCache>();

  const analysisOf = (document: TextDocument): DocumentAnalysis | undefined => {
    const known = analyses.get(document.uri);
    if (known && known.version === document.version && known.generation === generation) return known.analysis;
    const finder = finderFor({ uri: document.uri, languageId: document.languageId }, finders);
    if (!finder) return undefined;
    let cache = caches.get(document.uri);
    if (!cache) {
      cache = new CheckCache();
      caches.set(document.uri, cache);
    }
    const analysis = new DocumentAnalysis(document.getText(), document.uri, finder, settings, cache);
    analyses.set(document.uri, { version: document.version, generation, analysis });
    return analysis;
  };

  /** Runs a request's feature on its document's analysis; undefined document or failure answer `empty`. */
  const answer = <T>(
    what: string,
    uri: string,
    empty: T,
    feature: (document: TextDocument, analysis: DocumentAnalysis) => T,
  ): T => {
    const document = documents.get(uri);
    if (!document) return empty;
    try {
      const analysis = analysisOf(document);
      return analysis ? feature(document, analysis) : empty;
    } catch (error) {
      connection.console.error(`cfrules: ${what} failed on ${uri}: ${(error as Error)?.stack ?? error}`);
      return empty;
    }
  };

  const publish = (uri: string) => {
    const diagnostics = answer('diagnostics', uri, [], documentDiagnostics);
    const document = documents.get(uri);
    if (document) void connection.sendDiagnostics({ uri, version: document.version, diagnostics });
  };
  // Changes that arrive together (a burst of typing) are checked once, after the last.
  const pending = new Set<string>();
  const schedule = (uri: string) => {
    if (pending.size === 0)
      setImmediate(() =>
        settingsRead.then(() => {
          const uris = [...pending];
          pending.clear();
          for (const each of uris) publish(each);
        }),
      );
    pending.add(uri);
  };

  const useSettings = (section: unknown) => {
    const read = readSettings(section);
    for (const problem of read.problems) connection.console.warn(`cfrules: ${problem}`);
    settings = read.settings;
    generation++;
    for (const document of documents.all()) schedule(document.uri);
  };
  const pullSettings = async () => {
    try {
      useSettings(await connection.workspace.getConfiguration({ section: 'cfrules' }));
    } catch (error) {
      connection.console.warn(`cfrules: could not read the settings: ${(error as Error)?.message ?? error}`);
    }
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    pullsConfiguration = params.capabilities.workspace?.configuration === true;
    // Clients without workspace/configuration may pass the settings when they start the server.
    const initial = params.initializationOptions as { cfrules?: unknown } | undefined;
    if (initial) useSettings(initial.cfrules ?? initial);
    return {
      capabilities: {
        textDocumentSync: lsp.TextDocumentSyncKind.Incremental,
        completionProvider: { triggerCharacters: ['.', '"'] },
        hoverProvider: true,
        signatureHelpProvider: { triggerCharacters: ['(', ','], retriggerCharacters: [','] },
        documentFormattingProvider: true,
        codeActionProvider: { codeActionKinds: [lsp.CodeActionKind.QuickFix] },
        semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: true },
      },
      serverInfo: { name: 'cfrules', version: VERSION },
    };
  });
  connection.onInitialized(() => {
    // A client that never answers must not hold the diagnostics back: after a second, they go out with
    // the settings known so far (and again when the answer comes).
    if (pullsConfiguration)
      settingsRead = Promise.race([
        pullSettings(),
        new Promise<void>((resolve) => setTimeout(resolve, SETTINGS_WAIT_MS).unref()),
      ]);
  });
  connection.onDidChangeConfiguration((change) => {
    const pushed = (change.settings as { cfrules?: unknown } | null | undefined)?.cfrules;
    if (pushed !== undefined) useSettings(pushed);
    else if (pullsConfiguration) void pullSettings();
  });

  documents.onDidChangeContent((event) => schedule(event.document.uri));
  documents.onDidClose((event) => {
    const uri = event.document.uri;
    analyses.delete(uri);
    caches.delete(uri);
    pending.delete(uri);
    void connection.sendDiagnostics({ uri, diagnostics: [] });
  });

  connection.onCompletion((params) =>
    answer('completion', params.textDocument.uri, null, (document, analysis) =>
      completion(document, analysis, params.position),
    ),
  );
  connection.onHover((params) =>
    answer('hover', params.textDocument.uri, null, (document, analysis) =>
      hover(document, analysis, params.position),
    ),
  );
  connection.onSignatureHelp((params) =>
    answer('signature help', params.textDocument.uri, null, (document, analysis) =>
      signatureHelp(document, analysis, params.position),
    ),
  );
  connection.onDocumentFormatting((params) => answer('formatting', params.textDocument.uri, [], formatting));
  connection.onCodeAction((params) =>
    answer('code actions', params.textDocument.uri, [], (document, analysis) =>
      codeActions(document, analysis, params.textDocument.uri, params.range),
    ),
  );
  connection.languages.semanticTokens.on((params) =>
    answer('semantic tokens', params.textDocument.uri, { data: [] }, semanticTokens),
  );

  documents.listen(connection);
  connection.listen();
}

/** The server on standard input and output (`cfrules lsp`). */
/** The server on standard input and output, reading every kind of document (Terraform files included). */
export async function startStdioServer(): Promise<void> {
  const finders = await allFinders();
  startLanguageServer(lsp.createConnection(lsp.ProposedFeatures.all, process.stdin, process.stdout), {
    finders,
  });
}
