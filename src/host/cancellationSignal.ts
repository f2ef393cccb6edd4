/** The part of vscode.CancellationToken the adapter reads; structural, so it is tested in plain Node. */
export interface CancellationTokenLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => unknown): { dispose(): unknown };
}

/** An AbortSignal for the core, aborted when the editor cancels `token`; `dispose` drops the listener once the call is over. */
export function abortSignalFor(token: CancellationTokenLike | undefined): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (!token) return { signal: controller.signal, dispose: () => undefined };
  if (token.isCancellationRequested) {
    controller.abort();
    return { signal: controller.signal, dispose: () => undefined };
  }
  const listener = token.onCancellationRequested(() => controller.abort());
  return { signal: controller.signal, dispose: () => void listener.dispose() };
}
