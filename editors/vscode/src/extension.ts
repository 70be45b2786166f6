import { type ExtensionContext, workspace } from 'vscode';
import {
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';

// The whole client: start `cfrules lsp` over stdio and hand it the documents where rule expressions are
// written. Everything else (what a .cfrules file holds, which JSON files are rules files, diagnostics,
// completion…) is the server's: see docs/editors.md in the cfrules repository.

let client: LanguageClient | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
  const command = workspace.getConfiguration('cfrules').get<string>('path') || 'cfrules';
  // TransportKind.stdio adds `--stdio`, which `cfrules lsp` accepts. `shell` finds `cfrules.cmd` on Windows.
  const run = {
    command,
    args: ['lsp'],
    transport: TransportKind.stdio,
    options: { shell: process.platform === 'win32' },
  };
  const serverOptions: ServerOptions = { run, debug: run };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { language: 'cfrules' },
      { language: 'json' },
      // Terraform documents are sent already; the server reads them once it has a Terraform region finder
      // (docs/editors.md, "Not supported yet"), and answers nothing for them until then.
      { language: 'terraform' },
      { pattern: '**/*.tf' },
    ],
    // The server asks for `cfrules.plan` and `cfrules.phase`, and is told when they change.
    synchronize: { configurationSection: 'cfrules' },
  };
  client = new LanguageClient('cfrules', 'cfrules', serverOptions, clientOptions);
  context.subscriptions.push(client);
  await client.start();
}

export function deactivate(): Promise<void> | undefined {
  return client?.stop();
}
