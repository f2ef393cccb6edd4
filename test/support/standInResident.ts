import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A stand-in for a resident governor's loopback server, for the clients that talk to one (the launcher's bash
 * client, OpenCode's plugin): each request, once its body is in, is kept raw and answered with `answer` as it stands
 * then, raw, and the connection closed. An empty `answer` answers nothing and holds the connection open until `close`.
 */
export interface StandInResident {
  readonly port: number;
  /** Every request whose body came in whole, raw (headers read as latin1: the bytes the client sent). */
  readonly requests: string[];
  answer: string;
  close(): Promise<void>;
}

export async function startStandInResident(): Promise<StandInResident> {
  const held: Socket[] = [];
  const requests: string[] = [];
  const server: Server = createServer((socket) => {
    let got = '';
    socket.on('data', (chunk) => {
      got += chunk.toString('latin1');
      const head = got.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/iu.exec(got)?.[1]);
      if (head < 0 || got.length - head - 4 < length) return;
      requests.push(got);
      if (standIn.answer) socket.end(standIn.answer);
      else held.push(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const standIn: StandInResident = {
    port: (server.address() as AddressInfo).port,
    requests,
    answer: '',
    async close() {
      for (const socket of held.splice(0)) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return standIn;
}

/** A whole 200 answer with `body`; a `length` beyond the body's is an answer cut short. */
export function standInReply(body: string, length = Buffer.byteLength(body)): string {
  return `HTTP/1.1 200 OK\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n${body}`;
}
