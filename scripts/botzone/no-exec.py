#!/usr/bin/env python3
"""Runs a command where exec is forbidden, as a strict sandbox may be: once the command has
started, execve, execveat and memfd_create fail with EPERM, for it and for its children.

    no-exec.py -- COMMAND [ARG...]

The seccomp filter allows one execve: the one whose file name lies at the address where this
script puts COMMAND's path (a page mapped at a fixed low address that programs leave unused),
so the command itself starts; every later exec is refused.
"""

import ctypes
import os
import shutil
import sys

from seccomp import ARCH, ARG0_HIGH, ARG0_LOW, AUDIT_ARCH_X86_64, JEQ_K, JGE_K, LD_W_ABS, NR, RET_K, \
    SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO, X32_BIT, install, libc

EPERM = 1
EXECVE, EXECVEAT, MEMFD_CREATE = 59, 322, 319
# Where the command's path is put: below every program's text (4 MB for non-PIE executables,
# 1.5 GB for the bot), above the kernel's lowest mappable address (64 KB by default).
PATH_ADDRESS = 0x20000
PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS_FIXED = 0x3, 0x2 | 0x20 | 0x10


def program(address):
    """Classic BPF: execve only from `address`; execveat, memfd_create and the calls of other
    ABIs (i386's int 0x80, x32) denied; the rest allowed."""
    allow, deny = 11, 12
    code = [
        (LD_W_ABS, 0, 0, ARCH),                                    # 0
        (JEQ_K, 0, deny - 2, AUDIT_ARCH_X86_64),                   # 1: i386 exec among them
        (LD_W_ABS, 0, 0, NR),                                      # 2
        (JEQ_K, 0, 8 - 4, EXECVE),                                 # 3
        (LD_W_ABS, 0, 0, ARG0_LOW),                                # 4
        (JEQ_K, 0, deny - 6, address & 0xFFFFFFFF),                # 5
        (LD_W_ABS, 0, 0, ARG0_HIGH),                               # 6
        (JEQ_K, allow - 8, deny - 8, address >> 32),               # 7
        (JEQ_K, deny - 9, 0, EXECVEAT),                            # 8
        (JEQ_K, deny - 10, 0, MEMFD_CREATE),                       # 9
        (JGE_K, deny - 11, 0, X32_BIT),                            # 10: x32 calls, exec among them
        (RET_K, 0, 0, SECCOMP_RET_ALLOW),                          # 11
        (RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM),                  # 12
    ]
    return code


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[0] != "--":
        sys.exit(__doc__)
    command = args[1:]
    path = shutil.which(command[0])
    if path is None:
        sys.exit(f"no-exec.py: {command[0]}: not found")
    mmap = libc.mmap
    mmap.restype = ctypes.c_void_p
    mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    if mmap(PATH_ADDRESS, 4096, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS_FIXED, -1, 0) != PATH_ADDRESS:
        sys.exit("no-exec.py: cannot map the page for the command's path: " + os.strerror(ctypes.get_errno()))
    ctypes.memmove(PATH_ADDRESS, path.encode() + b"\0", len(path.encode()) + 1)
    argv = (ctypes.c_char_p * (len(command) + 1))(*[a.encode() for a in command], None)
    environment = [f"{k}={v}".encode() for k, v in os.environ.items()]
    envp = (ctypes.c_char_p * (len(environment) + 1))(*environment, None)
    install(program(PATH_ADDRESS), "no-exec.py")
    libc.execve(ctypes.c_void_p(PATH_ADDRESS), argv, envp)
    sys.exit(f"no-exec.py: execve {path}: " + os.strerror(ctypes.get_errno()))


if __name__ == "__main__":
    main()
