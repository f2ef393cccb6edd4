import { sandboxProgramFile } from './sandboxProgramFile';

// Classic BPF as the kernel's seccomp reads it: struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }, native order.
const LD_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RET = 0x06; // BPF_RET | BPF_K
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EACCES = 13;
const AF_UNIX = 1;
const X32_BIT = 0x40000000;
// Offsets in struct seccomp_data: nr, arch, then args[] (u64 each; the low word first on little-endian machines).
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;

/** What the filter needs of each architecture Node ships for Linux: its audit id, socket(2) and io_uring_setup(2). */
const ARCHES: Partial<Record<NodeJS.Architecture, { audit: number; socket: number; ioUringSetup: number; x32: boolean }>> = {
  x64: { audit: 0xc000003e, socket: 41, ioUringSetup: 425, x32: true },
  arm64: { audit: 0xc00000b7, socket: 198, ioUringSetup: 425, x32: false },
};

/**
 * The seccomp program a `network: deny` command runs under: socket(AF_UNIX) fails with EACCES, so no path-named
 * socket outside the writable roots (ssh-agent, docker.sock, the user's D-Bus) can be connected to, by rule rather
 * than by finding them; io_uring (which creates sockets past seccomp) and foreign-ABI calls fail alike. Undefined on
 * an architecture it has no numbers for: the caller refuses to run such a command (fail closed).
 */
export function unixSocketFilter(arch: NodeJS.Architecture = process.arch): Buffer | undefined {
  const a = ARCHES[arch];
  if (!a) return undefined;
  const program: Array<[number, number, number, number]> = [
    [LD_ABS, 0, 0, ARCH],
    [JEQ, 0, 7, a.audit], // another ABI (32-bit code): refused whole
    [LD_ABS, 0, 0, NR],
    [JGE, 5, 0, a.x32 ? X32_BIT : 0xffffffff], // x32 numbers
    [JEQ, 4, 0, a.ioUringSetup],
    [JEQ, 0, 2, a.socket],
    [LD_ABS, 0, 0, ARG0_LOW],
    [JEQ, 1, 0, AF_UNIX],
    [RET, 0, 0, SECCOMP_RET_ALLOW],
    [RET, 0, 0, SECCOMP_RET_ERRNO | EACCES],
  ];
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    bytes.writeUInt16LE(code, i * 8);
    bytes.writeUInt8(jt, i * 8 + 2);
    bytes.writeUInt8(jf, i * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return bytes;
}

/**
 * The filter as a file bubblewrap reads on `--seccomp 3`: in the governor's home (hidden from the command), written
 * once per architecture, read-only. Undefined when the architecture has no filter.
 */
export async function unixSocketFilterFile(home: string): Promise<string | undefined> {
  const program = unixSocketFilter();
  if (!program) return undefined;
  return sandboxProgramFile(home, `deny-unix-${process.arch}.bpf`, program, 0o444);
}
