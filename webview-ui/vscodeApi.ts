import type { HostMessage, InspectorViewState, WebviewMessage } from '../src/shared/inspectorProtocol';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): InspectorViewState | undefined;
  setState(state: InspectorViewState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** The one handle on the host; typed so every message sent or received is a member of the protocol's unions. */
export const vscode: VsCodeApi = acquireVsCodeApi();

export function onHostMessage(handler: (message: HostMessage) => void): void {
  window.addEventListener('message', (event: MessageEvent<HostMessage>) => handler(event.data));
}
