#!/usr/bin/env python3
"""Runs a command as if on an older Linux: system calls the old kernel lacks fail with ENOSYS.

    old-kernel.py [--newest NR] [--without NR,...] -- COMMAND [ARG...]

A seccomp filter (inherited across exec) makes every x86-64 system call numbered above NR
(default 325, mlock2, the last one Linux 4.4 has: Ubuntu 16.04's kernel) and each one listed
with --without fail with ENOSYS, as an old kernel does; then COMMAND is executed. Example, a
kernel before 3.17 (no memfd_create, 319, nor execveat, 322): --without 319,322.

Only the system call table is old: the kernel's other behaviour stays this machine's.
"""

import ctypes
import os
import struct
import sys

AUDIT_ARCH_X86_64 = 0xC000003E
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
ENOSYS = 38
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
LD_W_ABS, JEQ_K, JGE_K, RET_K = 0x20, 0x15, 0x35, 0x06
X32_BIT = 0x40000000


def program(newest, without):
    """Classic BPF: allow other architectures; deny numbers > newest, the x32 ones, `without`."""
    checks = [(JGE_K, newest + 1)] + [(JEQ_K, nr) for nr in without]
    allow = 3 + len(checks)  # index of RET ALLOW
    code = [(LD_W_ABS, 0, 0, 4), (JEQ_K, 0, allow - 2, AUDIT_ARCH_X86_64), (LD_W_ABS, 0, 0, 0)]
    for i, (op, k) in enumerate(checks):
        here = 3 + i
        code.append((op, allow + 1 - here - 1, 0, k))  # true: to RET ERRNO
    code.append((RET_K, 0, 0, SECCOMP_RET_ALLOW))
    code.append((RET_K, 0, 0, SECCOMP_RET_ERRNO | ENOSYS))
    return code


def main():
    args = sys.argv[1:]
    newest, without = 325, []
    while args and args[0] != "--":
        if args[0] == "--newest" and len(args) > 1:
            newest = int(args[1])
        elif args[0] == "--without" and len(args) > 1:
            without = [int(n) for n in args[1].split(",") if n]
        else:
            sys.exit(__doc__)
        args = args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    command = args[1:]
    newest = min(newest, X32_BIT - 1)  # x32 numbers are above X32_BIT: denied too

    code = program(newest, without)
    filters = b"".join(struct.pack("HBBI", *instruction) for instruction in code)
    buffer = ctypes.create_string_buffer(filters)
    fprog = struct.pack("HxxxxxxQ", len(code), ctypes.addressof(buffer))
    fprog_buffer = ctypes.create_string_buffer(fprog)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        sys.exit("old-kernel.py: prctl(PR_SET_NO_NEW_PRIVS): " + os.strerror(ctypes.get_errno()))
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, fprog_buffer, 0, 0) != 0:
        sys.exit("old-kernel.py: prctl(PR_SET_SECCOMP): " + os.strerror(ctypes.get_errno()))
    os.execvp(command[0], command)


if __name__ == "__main__":
    main()
