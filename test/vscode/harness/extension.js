// Test harness extension: code-server rejects --extensionTestsPath, so this extension plays that role.
// The outer runner starts code-server with VSCODE_TEST_ENTRY (a bundled suite exporting run()) and
// VSCODE_TEST_RESULTS (a JSON file to write); env vars of the server reach the extension host.
// Nothing here may throw into the host: every failure becomes a result the runner can print.
'use strict';
const fs = require('node:fs');

function activate() {
  const entry = process.env.VSCODE_TEST_ENTRY;
  const resultsPath = process.env.VSCODE_TEST_RESULTS;
  if (!entry || !resultsPath) return;
  // A reconnecting window can start a second extension host; only the first one runs the suite.
  if (!claim(`${resultsPath}.started`)) return;
  // Not awaited: activation returns at once so the host keeps starting the other extensions the tests use.
  void runAndReport(entry, resultsPath);
}

function claim(markerPath) {
  try {
    fs.writeFileSync(markerPath, `${process.pid}\n`, { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}

async function runAndReport(entry, resultsPath) {
  let result;
  try {
    const suite = require(entry);
    result = await suite.run();
  } catch (error) {
    // The suite rejects when a test failed (the test-electron contract) and attaches what it collected.
    result = error && error.result ? error.result : crashed(error);
  }
  try {
    // Write then rename, so the runner never reads half a file.
    fs.writeFileSync(`${resultsPath}.tmp`, JSON.stringify(result, null, 2));
    fs.renameSync(`${resultsPath}.tmp`, resultsPath);
  } catch (error) {
    console.error('[intent-governor test harness] could not write results:', error);
  }
}

function crashed(error) {
  const text = error && error.stack ? error.stack : String(error);
  return { passes: 0, failures: 1, pending: 0, output: `test harness: the suite did not run: ${text}\n` };
}

function deactivate() {}

module.exports = { activate, deactivate };
