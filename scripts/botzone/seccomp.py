"""A seccomp filter for the process and what it executes, for the packaging tests' sandboxes
(old-kernel.py, no-exec.py): classic BPF assembled from (code, jt, jf, k) tuples."""

import ctypes
import os
import struct
import sys

AUDIT_ARCH_X86_64 = 0xC000003E
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
LD_W_ABS, JEQ_K, JGE_K, RET_K = 0x20, 0x15, 0x35, 0x06
X32_BIT = 0x40000000
# Offsets in struct seccomp_data: the system call number, the architecture, argument 0.
NR, ARCH, ARG0_LOW, ARG0_HIGH = 0, 4, 16, 20

libc = ctypes.CDLL(None, use_errno=True)


def install(code, who):
    """Installs the filter `code` for this process and all it executes; exits on failure."""
    filters = b"".join(struct.pack("HBBI", *instruction) for instruction in code)
    buffer = ctypes.create_string_buffer(filters)
    fprog = ctypes.create_string_buffer(struct.pack("HxxxxxxQ", len(code), ctypes.addressof(buffer)))
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        sys.exit(f"{who}: prctl(PR_SET_NO_NEW_PRIVS): " + os.strerror(ctypes.get_errno()))
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, fprog, 0, 0) != 0:
        sys.exit(f"{who}: prctl(PR_SET_SECCOMP): " + os.strerror(ctypes.get_errno()))
