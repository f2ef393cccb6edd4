import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/**
 * The inspector's page: a strict CSP (nothing but our bundled script, by a fresh nonce per load, and our
 * stylesheet), resources only from dist/webview through asWebviewUri. The script builds the DOM itself,
 * so the page carries no markup to sanitise.
 */
export function inspectorHtml(webview: vscode.Webview, webviewRoot: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, 'inspector.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, 'inspector.css'));
  const csp = [`default-src 'none'`, `style-src ${webview.cspSource}`, `img-src ${webview.cspSource} data:`, `script-src 'nonce-${nonce}'`, `font-src ${webview.cspSource}`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>Trace Inspector</title>
</head>
<body>
<div id="app"></div>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
