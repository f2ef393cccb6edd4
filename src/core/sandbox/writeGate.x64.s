# The write gate (writeGate.ts) for x86-64 Linux: `gate ROOT... -- PROGRAM ARG...` lets PROGRAM and everything it
# starts open files for writing only beneath the ROOTs (Landlock ABI 1, LANDLOCK_ACCESS_FS_WRITE_FILE), then execs it.
# Any failure: a message on stderr, exit 125, PROGRAM never runs. Position independent; the entry is the first byte.
# Assembled: as --64 -o g.o writeGate.x64.s && objcopy -O binary -j .text g.o g.bin (writeGate.test.ts checks the bytes).
    .intel_syntax noprefix
    .text
    .globl _start
_start:
    mov rbx, rsp                    # rbx: &argc; argv at rbx+8, envp at rbx+8*(argc+2)
    mov eax, 157                    # prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    mov edi, 38
    mov esi, 1
    xor edx, edx
    xor r10d, r10d
    xor r8d, r8d
    syscall
    test rax, rax
    jnz fail
    push 2                          # struct landlock_ruleset_attr { handled_access_fs = WRITE_FILE }
    mov rdi, rsp
    mov esi, 8
    xor edx, edx
    mov eax, 444                    # landlock_create_ruleset(&attr, 8, 0)
    syscall
    pop rcx
    test rax, rax
    js fail
    mov r12, rax                    # r12: the ruleset
    lea r13, [rbx+16]               # r13: &argv[1]
next_root:
    mov rsi, [r13]
    test rsi, rsi
    jz fail                         # no "--": nothing to run
    cmp word ptr [rsi], 0x2d2d
    jne add_root
    cmp byte ptr [rsi+2], 0
    je restrict
add_root:
    mov rdi, rsi
    mov esi, 0x280000               # open(root, O_PATH | O_CLOEXEC)
    xor edx, edx
    mov eax, 2
    syscall
    test rax, rax
    js fail
    mov r14, rax
    sub rsp, 16                     # struct landlock_path_beneath_attr { allowed_access = WRITE_FILE; parent_fd } (packed)
    mov qword ptr [rsp], 2
    mov dword ptr [rsp+8], r14d
    mov rdi, r12
    mov esi, 1                      # landlock_add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, &attr, 0)
    mov rdx, rsp
    xor r10d, r10d
    mov eax, 445
    syscall
    add rsp, 16
    test rax, rax
    jnz fail
    mov rdi, r14
    mov eax, 3                      # close(root)
    syscall
    add r13, 8
    jmp next_root
restrict:
    mov rdi, r12
    xor esi, esi
    mov eax, 446                    # landlock_restrict_self(ruleset, 0)
    syscall
    test rax, rax
    jnz fail
    mov rdi, r12
    mov eax, 3                      # close(ruleset)
    syscall
    lea rsi, [r13+8]                # the program's argv, after "--"
    mov rdi, [rsi]
    test rdi, rdi
    jz fail
    mov rcx, [rbx]
    lea rdx, [rbx+rcx*8+16]         # envp
    mov eax, 59                     # execve(program, argv, envp)
    syscall
fail:
    mov edi, 2
    lea rsi, [rip+message]
    mov edx, message_end - message
    mov eax, 1                      # write(2, message, length)
    syscall
    mov edi, 125
    mov eax, 231                    # exit_group(125)
    syscall
message:
    .ascii "intent-governor: the command was not run: Landlock could not confine its writes (the kernel has no Landlock, or a writable folder is missing)\n"
message_end:
