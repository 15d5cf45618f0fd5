// Starts `msgraphlint server` for Python files and passes the msgraphlint.* settings to it.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function settings() {
  const config = vscode.workspace.getConfiguration("msgraphlint");
  return {
    syntaxLevel: config.get("syntaxLevel"),
    device: config.get("device"),
    select: config.get("select"),
    ignore: config.get("ignore"),
  };
}

function activate(context) {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "";
  const [command, ...args] = vscode.workspace
    .getConfiguration("msgraphlint")
    .get("command")
    .map((part) => part.replace("${workspaceFolder}", folder));
  client = new LanguageClient(
    "msgraphlint",
    "msgraphlint",
    { command, args },
    {
      documentSelector: [{ scheme: "file", language: "python" }],
      initializationOptions: settings(),
    }
  );
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("msgraphlint") && client) {
        client.sendNotification("workspace/didChangeConfiguration", { settings: settings() });
      }
    })
  );
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
