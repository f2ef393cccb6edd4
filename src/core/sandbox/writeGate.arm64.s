# The write gate (writeGate.ts) for 64-bit Arm Linux: the same program as writeGate.x64.s, in A64.
# Assembled: aarch64-linux-gnu-as -o g.o writeGate.arm64.s && aarch64-linux-gnu-objcopy -O binary -j .text g.o g.bin
    .text
    .globl _start
_start:
    mov x19, sp                     // x19: &argc; argv at x19+8, envp at x19+8*(argc+2)
    mov x0, #38                     // prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    mov x1, #1
    mov x2, #0
    mov x3, #0
    mov x4, #0
    mov x8, #167
    svc #0
    cbnz x0, fail
    sub sp, sp, #16                 // struct landlock_ruleset_attr { handled_access_fs = WRITE_FILE }
    mov x9, #2
    str x9, [sp]
    mov x0, sp
    mov x1, #8
    mov x2, #0
    mov x8, #444                    // landlock_create_ruleset(&attr, 8, 0)
    svc #0
    add sp, sp, #16
    tbnz x0, #63, fail
    mov x20, x0                     // x20: the ruleset
    add x21, x19, #16               // x21: &argv[1]
next_root:
    ldr x1, [x21]
    cbz x1, fail                    // no "--": nothing to run
    ldrb w9, [x1]
    cmp w9, #0x2d
    b.ne add_root
    ldrb w9, [x1, #1]
    cmp w9, #0x2d
    b.ne add_root
    ldrb w9, [x1, #2]
    cbz w9, restrict
add_root:
    mov x0, #-100                   // openat(AT_FDCWD, root, O_PATH | O_CLOEXEC, 0)
    mov x2, #0x280000
    mov x3, #0
    mov x8, #56
    svc #0
    tbnz x0, #63, fail
    mov x22, x0
    sub sp, sp, #16                 // struct landlock_path_beneath_attr { allowed_access = WRITE_FILE; parent_fd } (packed)
    mov x9, #2
    str x9, [sp]
    str w22, [sp, #8]
    mov x0, x20
    mov x1, #1                      // landlock_add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, &attr, 0)
    mov x2, sp
    mov x3, #0
    mov x8, #445
    svc #0
    add sp, sp, #16
    cbnz x0, fail
    mov x0, x22
    mov x8, #57                     // close(root)
    svc #0
    add x21, x21, #8
    b next_root
restrict:
    mov x0, x20
    mov x1, #0
    mov x8, #446                    // landlock_restrict_self(ruleset, 0)
    svc #0
    cbnz x0, fail
    mov x0, x20
    mov x8, #57                     // close(ruleset)
    svc #0
    add x1, x21, #8                 // the program's argv, after "--"
    ldr x0, [x1]
    cbz x0, fail
    ldr x9, [x19]
    add x2, x19, x9, lsl #3
    add x2, x2, #16                 // envp
    mov x8, #221                    // execve(program, argv, envp)
    svc #0
fail:
    mov x0, #2
    adr x1, message
    mov x2, #(message_end - message)
    mov x8, #64                     // write(2, message, length)
    svc #0
    mov x0, #125
    mov x8, #94                     // exit_group(125)
    svc #0
message:
    .ascii "intent-governor: the command was not run: Landlock could not confine its writes (the kernel has no Landlock, or a writable folder is missing)\n"
message_end:
