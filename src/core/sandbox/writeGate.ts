import { spawn } from 'node:child_process';
import { sandboxProgramFile } from './sandboxProgramFile';

/**
 * The write gate: a static Linux program of a few hundred bytes, run inside bubblewrap as
 * `gate ROOT... -- /bin/sh -c command`. It tells the kernel (Landlock) that the command and everything it starts may
 * open files for writing only beneath the ROOTs, then execs the command. Mounts decide what can be changed; the gate
 * decides what can be written to, which is what a FIFO on a read-only mount is (opening one for writing changes no
 * file). Machine code from writeGate.x64.s and writeGate.arm64.s beside this file; exit 125 when it cannot confine.
 */
const CODE: Partial<Record<NodeJS.Architecture, { machine: number; hex: string }>> = {
  x64: { machine: 62, hex: '4889e3b89d000000bf26000000be0100000031d24531d24531c00f054885c00f85cc0000006a024889e7be0800000031d2b8bc0100000f05594885c00f88af0000004989c44c8d6b10498b75004885f60f849b00000066813e2d2d7506807e020074584889f7be0000280031d2b8020000000f054885c078784989c64883ec1048c704240200000044897424084c89e7be010000004889e24531d2b8bd0100000f054883c4104885c075464c89f7b8030000000f054983c508eb8e4c89e731f6b8be0100000f054885c075254c89e7b8030000000f05498d7508488b3e4885ff740f488b0b488d54cb10b83b0000000f05bf02000000488d3518000000ba8e000000b8010000000f05bf7d000000b8e70000000f05696e74656e742d676f7665726e6f723a2074686520636f6d6d616e6420776173206e6f742072756e3a204c616e646c6f636b20636f756c64206e6f7420636f6e66696e6520697473207772697465732028746865206b65726e656c20686173206e6f204c616e646c6f636b2c206f722061207772697461626c6520666f6c646572206973206d697373696e67290a' },
  arm64: { machine: 183, hex: 'f3030091c00480d2210080d2020080d2030080d2040080d2e81480d2010000d4e00700b5ff4300d1490080d2e90300f9e0030091010180d2020080d2883780d2010000d4ff430091a006f8b7f40300aa75420091a10240f9210600b4290040393fb50071c1000054290440393fb50071610000542908403929030034600c80920205a0d2030080d2080780d2010000d46004f8b7f60300aaff4300d1490080d2e90300f9f60b00b9e00314aa210080d2e2030091030080d2a83780d2010000d4ff430091c00200b5e00316aa280780d2010000d4b5220091dfffff17e00314aa010080d2c83780d2010000d4800100b5e00314aa280780d2010000d4a1220091200040f9c00000b4690240f9620e098b42400091a81b80d2010000d4400080d2e1000010c21180d2080880d2010000d4a00f80d2c80b80d2010000d4696e74656e742d676f7665726e6f723a2074686520636f6d6d616e6420776173206e6f742072756e3a204c616e646c6f636b20636f756c64206e6f7420636f6e66696e6520697473207772697465732028746865206b65726e656c20686173206e6f204c616e646c6f636b2c206f722061207772697461626c6520666f6c646572206973206d697373696e67290a' },
};

/** Where the one loadable segment is mapped; the entry is right after the two headers. */
const BASE = 0x400000;
const HEADERS = 64 + 56;

/** Exit status of a gate that could not confine: the command did not run. */
export const WRITE_GATE_FAILED = 125;

/** The gate as an ELF executable for `arch`; undefined where no machine code is known for it. */
export function writeGateProgram(arch: NodeJS.Architecture = process.arch): Buffer | undefined {
  const code = CODE[arch];
  if (!code) return undefined;
  const body = Buffer.from(code.hex, 'hex');
  const elf = Buffer.alloc(HEADERS + body.length);
  elf.write('\x7fELF', 0, 'latin1');
  elf.writeUInt8(2, 4); // 64-bit
  elf.writeUInt8(1, 5); // little-endian
  elf.writeUInt8(1, 6); // ELF version
  elf.writeUInt16LE(2, 16); // ET_EXEC
  elf.writeUInt16LE(code.machine, 18);
  elf.writeUInt32LE(1, 20);
  elf.writeBigUInt64LE(BigInt(BASE + HEADERS), 24); // entry
  elf.writeBigUInt64LE(64n, 32); // program headers right after this one
  elf.writeUInt16LE(64, 52);
  elf.writeUInt16LE(56, 54);
  elf.writeUInt16LE(1, 56); // one program header, no sections
  elf.writeUInt32LE(1, 64); // PT_LOAD
  elf.writeUInt32LE(5, 68); // read + execute
  elf.writeBigUInt64LE(BigInt(BASE), 80);
  elf.writeBigUInt64LE(BigInt(BASE), 88);
  elf.writeBigUInt64LE(BigInt(elf.length), 96);
  elf.writeBigUInt64LE(BigInt(elf.length), 104);
  elf.writeBigUInt64LE(0x1000n, 112);
  body.copy(elf, HEADERS);
  return elf;
}

/**
 * The gate as a file in the governor's home (hidden from the command; bubblewrap binds it in read-only), written once
 * per architecture. Undefined when the architecture has no gate.
 */
export async function writeGateFile(home: string): Promise<string | undefined> {
  const program = writeGateProgram();
  if (!program) return undefined;
  return sandboxProgramFile(home, `write-gate-${process.arch}`, program, 0o555);
}

const probes = new Map<string, Promise<string | undefined>>();

/**
 * Whether the gate confines on this kernel: it is run once per process on / with /bin/true. Undefined when it does;
 * else what the kernel said, for the refusal (Landlock missing from the kernel or switched off at boot).
 */
export function writeGateProbe(gate: string): Promise<string | undefined> {
  let probe = probes.get(gate);
  if (!probe) {
    probe = new Promise((resolve) => {
      const child = spawn(gate, ['/', '--', '/bin/true'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', (error) => resolve(error.message));
      child.on('close', (code) => resolve(code === 0 ? undefined : stderr.trim() || `it exited ${code}`));
    });
    probes.set(gate, probe);
  }
  return probe;
}
