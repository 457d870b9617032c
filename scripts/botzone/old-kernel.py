#!/usr/bin/env python3
"""Runs a command as if on an older Linux: system calls the old kernel lacks fail with ENOSYS.

    old-kernel.py [--newest NR] [--without NR,...] -- COMMAND [ARG...]

A seccomp filter (inherited across exec) makes every x86-64 system call numbered above NR
(default 325, mlock2, the last one Linux 4.4 has: Ubuntu 16.04's kernel) and each one listed
with --without fail with ENOSYS, as an old kernel does; then COMMAND is executed. Example, a
kernel before 3.17 (no memfd_create, 319, nor execveat, 322): --without 319,322.

Only the system call table is old: the kernel's other behaviour stays this machine's.
"""

import os
import sys

from seccomp import AUDIT_ARCH_X86_64, JEQ_K, JGE_K, LD_W_ABS, RET_K, SECCOMP_RET_ALLOW, \
    SECCOMP_RET_ERRNO, X32_BIT, install

ENOSYS = 38


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

    install(program(newest, without), "old-kernel.py")
    os.execvp(command[0], command)


if __name__ == "__main__":
    main()
